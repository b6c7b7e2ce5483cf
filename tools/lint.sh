#!/usr/bin/env bash
# The project's static checks: clang-format (the committed .clang-format) and clang-tidy
# (the committed .clang-tidy) over every C++ file git tracks. CTest runs both (tests
# `format` and `tidy`), so CI keeps them clean.
#
#   tools/lint.sh format          check formatting (exit 1 naming the files that deviate)
#   tools/lint.sh format --fix    reformat those files in place
#   tools/lint.sh tidy BUILD_DIR  clang-tidy with BUILD_DIR/compile_commands.json
set -euo pipefail
cd "$(dirname "$0")/.."

sources() { git ls-files -- '*.cpp' '*.h'; }

case "${1:-}" in
  format)
    if [ "${2:-}" = "--fix" ]; then
      sources | xargs clang-format -i
      exit 0
    fi
    bad=()
    while IFS= read -r file; do
      clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || bad+=("$file")
    done < <(sources)
    if ((${#bad[@]})); then
      echo "lint: ${#bad[@]} file(s) deviate from .clang-format: ${bad[*]}" >&2
      echo "lint: fix with tools/lint.sh format --fix" >&2
      exit 1
    fi
    echo "lint: $(sources | wc -l) files formatted as .clang-format says"
    ;;
  tidy)
    build_dir=${2:?usage: tools/lint.sh tidy BUILD_DIR}
    # Translation units only (headers are checked through them, .clang-tidy's
    # HeaderFilterRegex); the viewer's files need SFML's flags, which the database has.
    mapfile -t units < <(sources | grep '\.cpp$' |
      while IFS= read -r f; do grep -q "\"file\": \"$PWD/$f\"" "$build_dir/compile_commands.json" && echo "$f"; done)
    # clang-tidy counts the warnings it suppressed in system headers on stderr
    # ("N warnings generated."): noise that hides the findings, so it is dropped.
    printf '%s\n' "${units[@]}" |
      xargs -P "$(nproc)" -n 4 clang-tidy -p "$build_dir" --quiet \
        --extra-arg=-Wno-unknown-warning-option 2>&1 |
      { grep -v '^[0-9]* warnings\( and [0-9]* errors\?\)\? generated\.$' || true; }
    echo "lint: clang-tidy clean over ${#units[@]} files"
    ;;
  *)
    echo "usage: tools/lint.sh format [--fix] | tidy BUILD_DIR" >&2
    exit 2
    ;;
esac
