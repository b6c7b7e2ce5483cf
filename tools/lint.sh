#!/usr/bin/env bash
# The project's static checks: clang-format (the committed .clang-format) and clang-tidy
# (the committed .clang-tidy) over every C++ file git tracks. CTest runs both (tests
# `format` and `tidy`), so CI keeps them clean.
#
#   tools/lint.sh format          check formatting (exit 1 naming the files that deviate)
#   tools/lint.sh format --fix    reformat those files in place
#   tools/lint.sh tidy BUILD_DIR  clang-tidy with BUILD_DIR/compile_commands.json, on the
#                                 units changed since .ci/tidy-clean.txt was written
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
    # A unit clang-tidy found clean is remembered in $tidy_cache by a key over what its
    # verdict depends on: clang-tidy's version, .clang-tidy, the unit's compile command and
    # the content of every project file it includes, paths taken relative to the checkout.
    # A unit whose key is there is not checked again: any change to it or to anything of
    # ours it includes changes the key. clang-tidy takes 5-20 s a unit (most of CI's test
    # stage); a key, a fraction of a second. The file is committed, so CI checks only what
    # changed since it was last written; SCL_TIDY_CACHE=off checks everything.
    # System headers are left out of the key: CI installs the newest Debian 12 packages, and
    # a point release's kernel headers (linux-libc-dev's linux/stddef.h, under every unit)
    # would otherwise miss every key. Their checks are suppressed anyway (.clang-tidy's
    # HeaderFilterRegex).
    tidy_cache=.ci/tidy-clean.txt
    use_cache=1
    [ "${SCL_TIDY_CACHE:-on}" = off ] && use_cache=0
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # (Its version without the "Host CPU" line, which names the machine.)
    { clang-tidy --version | grep -v 'Host CPU'; cat .clang-tidy; } >"$work/tool"
    # The compile commands without the precompiled headers (CMakeLists.txt, tests/CMakeLists.txt):
    # clang cannot read GCC's, and the units are checked as their files are written.
    mkdir "$work/db"
    sed -e 's/ -Winvalid-pch//g' -e 's| -include [^ ]*/cmake_pch\.hxx||g' \
      "$build_dir/compile_commands.json" >"$work/db/compile_commands.json"
    database=$work/db/compile_commands.json
    export build_dir work use_cache tidy_cache database
    # tidy_unit FILE: the unit's key; when it is not in the cache, clang-tidy on it. Writes
    # "KEY FILE" to $work/clean.* when clean; prints the findings and marks a failure when not.
    tidy_unit() {
      local file=$1 root=$PWD command deps key out status
      command=$(awk -v want="\"file\": \"$root/$file\"" '
        index($0, "\"command\": ") { command = $0 }
        { line = $0; sub(/^ */, "", line); sub(/,$/, "", line) }
        line == want { print command; exit }' "$database" |
        sed -e 's/^ *"command": "//' -e 's/",$//' -e 's/\\\\/\x01/g' -e 's/\\"/"/g' -e 's/\x01/\\/g')
      # The compiler's own list of what the unit includes (preprocessing only: the object
      # and the build's dependency files are left alone), the checkout's and the build's
      # files only.
      deps=$(cd "$build_dir" && eval "$(sed -E -e 's/ -o [^ ]+/ /' -e 's/ -M(D|MD)( |$)/ /g' \
        -e 's/ -M[TF] [^ ]+/ /g' <<<"$command") -M" 2>/dev/null |
        sed -e 's/^[^:]*://' -e 's/\\$//' | tr -s ' \n' '\n\n' | grep -v '^$' |
        grep -e "^$root/" -e '^[^/]' | sort -u) || deps=
      if [ -z "$deps" ]; then
        key=none
      else
        # -Werror (CI's builds) is left out: .clang-tidy makes every warning an error anyway.
        key=$({ cat "$work/tool"; sed 's/ -Werror / /' <<<"$command"; (cd "$build_dir" && xargs sha256sum) <<<"$deps"; } |
          sed "s|$root|@|g" | sha256sum | cut -c1-64)
      fi
      if ((use_cache)) && [ "$key" != none ] && grep -q "^$key $file\$" "$tidy_cache" 2>/dev/null; then
        echo "$key $file" >"$(mktemp "$work/clean.XXXXXX")"
        return 0
      fi
      out=$(clang-tidy -p "$work/db" --quiet --extra-arg=-Wno-unknown-warning-option "$file" 2>&1)
      status=$?
      # clang-tidy counts the warnings it suppressed in system headers ("N warnings
      # generated."): noise that hides the findings, so it is dropped.
      out=$(grep -v '^[0-9]* warnings\( and [0-9]* errors\?\)\? generated\.$' <<<"$out" || true)
      if ((status == 0)) && [ -z "$out" ]; then
        [ "$key" != none ] && echo "$key $file" >"$(mktemp "$work/clean.XXXXXX")"
        echo checked >"$(mktemp "$work/checked.XXXXXX")"
      else
        printf '%s\n' "$out"
        echo "$file" >"$(mktemp "$work/failed.XXXXXX")"
      fi
    }
    export -f tidy_unit
    printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -I{} bash -c 'tidy_unit "$1"' _ {}
    checked=$(find "$work" -name 'checked.*' | wc -l)
    # The cache keeps the units clean now (a failed write leaves the old one as it was).
    if ((use_cache)); then
      { echo "# clang-tidy: units found clean, by key (tools/lint.sh tidy writes this file)"
        find "$work" -name 'clean.*' -exec cat {} + | sort -k2; } >"$work/cache" &&
        mv "$work/cache" "$tidy_cache"
    fi
    # The last line is also left in BUILD_DIR/lint-tidy.txt (tools/setup.sh test prints it).
    if compgen -G "$work/failed.*" >/dev/null; then
      echo "lint: clang-tidy found problems in: $(cat "$work"/failed.* | sort | tr '\n' ' ')" |
        tee "$build_dir/lint-tidy.txt" >&2
      exit 1
    fi
    echo "lint: clang-tidy clean over ${#units[@]} files ($checked checked, the rest unchanged since $tidy_cache was written)" |
      tee "$build_dir/lint-tidy.txt"
    ;;
  *)
    echo "usage: tools/lint.sh format [--fix] | tidy BUILD_DIR" >&2
    exit 2
    ;;
esac
