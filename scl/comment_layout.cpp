#include "scl/comment_layout.h"

namespace scl {

CommentLayout layOutComments(int headerLine, const std::vector<int>& statementLines,
                             const std::vector<Comment>& comments) {
  const size_t count = statementLines.size();
  CommentLayout layout;
  layout.before.resize(count + 2);
  layout.after.resize(count + 1);
  for (const Comment& comment : comments) {
    if (comment.line < headerLine) {
      layout.header.push_back(&comment);
      continue;
    }
    size_t owner = 0, next = count + 1;
    for (size_t k = 0; k < count; ++k) {
      const int line = statementLines[k];
      if (line <= comment.line) owner = k + 1;
      if (line > comment.line && next == count + 1) next = k + 1;
    }
    if (comment.ownLine)
      layout.before[next].push_back(&comment);
    else if (layout.after[owner].empty())
      layout.after[owner].push_back(&comment);
    else
      layout.before[owner + 1].push_back(&comment);
  }
  return layout;
}

}  // namespace scl
