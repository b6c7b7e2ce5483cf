// Where `scl fmt` puts a file's comments among its statements, for the formats written as
// a header line and then statements (character files, world files).
#pragma once

#include <vector>

#include "scl/lexer.h"

namespace scl {

/// Comments by the statement they go with. Indices into `before` are 1-based statement
/// numbers (the last, statements + 1: after every statement); into `after`, 0 is the
/// header line.
struct CommentLayout {
  /// Comments before the header line.
  std::vector<const Comment*> header;
  /// Own-line comments before each statement.
  std::vector<std::vector<const Comment*>> before;
  /// The comment at the end of each statement's line.
  std::vector<std::vector<const Comment*>> after;
};

/// Own-line comments go before the first statement after them (those before the header
/// before it, those after the last statement at the end); a comment after code goes at
/// the end of the last statement starting on or before its line (0: the header line; only
/// the first such comment: a line has room for one, and two printed side by side would
/// read back as one, so the others go on their own lines after it).
CommentLayout layOutComments(int headerLine, const std::vector<int>& statementLines,
                             const std::vector<Comment>& comments);

}  // namespace scl
