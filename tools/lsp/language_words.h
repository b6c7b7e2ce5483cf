// The words of SCL the server explains and completes: every keyword with its one-line
// meaning and units (docs/language.md, docs/primitives.md, docs/features.md).
#pragma once

#include <span>
#include <string_view>

#include "scl/program.h"

namespace scl::lsp {

/// A keyword and what it means.
struct KeywordInfo {
  /// The keyword as written (without a colon).
  std::string_view word;
  /// One line, markdown, with units.
  std::string_view meaning;
};

/// Every keyword of scripts: primitives, their named arguments, transitions, the scene
/// header's arguments, blocks.
std::span<const KeywordInfo> keywords();

/// The meaning of `word` when it is a keyword; empty otherwise.
std::string_view keywordMeaning(std::string_view word);

/// The meaning of `com` after `when` (a condition on the centre of mass, not the feature).
std::string_view comConditionMeaning();
/// The meaning of a quantity of `when com` (`x`, `vy`, `capture`, ...), with its unit.
std::string_view comQuantityMeaning(ComQuantity quantity);

}  // namespace scl::lsp
