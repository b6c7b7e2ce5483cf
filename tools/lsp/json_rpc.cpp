#include "tools/lsp/json_rpc.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace scl::lsp {

namespace {

// Longer than any header block a client sends; garbage without a blank line is dropped.
constexpr size_t kMaxHeader = 8192;

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// Where `name` starts in `text`, ignoring case; npos when it is not there.
size_t findIgnoringCase(std::string_view text, std::string_view name) {
  for (size_t at = 0; at + name.size() <= text.size(); ++at)
    if (equalsIgnoringCase(text.substr(at, name.size()), name)) return at;
  return std::string_view::npos;
}

// The Content-Length of a header block; nullopt when it has none or it is no number.
// A Content-Length field after other bytes on its line counts: after a message whose
// Content-Length was a few bytes short, the rest of its body runs into the next header,
// and reading that header from its field name on puts the stream back in step.
std::optional<size_t> contentLength(std::string_view header) {
  std::optional<size_t> length;
  while (!header.empty()) {
    const size_t end = header.find('\n');
    std::string_view line = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
    if (const size_t field = findIgnoringCase(line, "content-length:");
        field != std::string_view::npos)
      line.remove_prefix(field);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    if (!equalsIgnoringCase(trimmed(line.substr(0, colon)), "content-length")) continue;
    const std::string_view value = trimmed(line.substr(colon + 1));
    size_t parsed = 0;
    const auto [rest, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || rest != value.data() + value.size() || value.empty())
      return std::nullopt;
    length = parsed;
  }
  return length;
}

}  // namespace

void MessageReader::feed(std::string_view bytes) {
  if (skip_ > 0) {
    const size_t dropped = std::min(skip_, bytes.size());
    skip_ -= dropped;
    bytes.remove_prefix(dropped);
  }
  buffer_.append(bytes);
}

void MessageReader::compact() {
  // Drop handed-out bytes once they are the larger part, so that a stream of many
  // messages costs linear time.
  if (consumed_ > 0 && consumed_ * 2 >= buffer_.size()) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
}

std::optional<Frame> MessageReader::readHeader() {
  const std::string_view rest = std::string_view(buffer_).substr(consumed_);
  // The header ends at the first empty line ("\r\n\r\n", or "\n\n" from a lax writer).
  size_t end = std::string_view::npos, bodyStart = 0;
  for (size_t at = rest.find('\n'); at != std::string_view::npos; at = rest.find('\n', at + 1)) {
    size_t next = at + 1;
    if (next < rest.size() && rest[next] == '\r') ++next;
    if (next < rest.size() && rest[next] == '\n') {
      end = at;
      bodyStart = next + 1;
      break;
    }
    if (next >= rest.size()) break;
  }
  if (end == std::string_view::npos) {
    if (rest.size() <= kMaxHeader) return std::nullopt;
    consumed_ = buffer_.size();
    return Frame{{},
                 "a header longer than " + std::to_string(kMaxHeader) +
                     " bytes without an empty line; dropped"};
  }
  const std::optional<size_t> length = contentLength(rest.substr(0, end));
  consumed_ += bodyStart;
  if (!length) return Frame{{}, "a message header without a valid Content-Length"};
  if (*length > maxBody_) {
    const size_t available = buffer_.size() - consumed_;
    const size_t dropped = std::min(available, *length);
    consumed_ += dropped;
    skip_ = *length - dropped;
    return Frame{{},
                 "a message of " + std::to_string(*length) + " bytes, more than the limit of " +
                     std::to_string(maxBody_) + "; skipped"};
  }
  bodyLength_ = length;
  return std::nullopt;
}

std::optional<Frame> MessageReader::next() {
  if (!bodyLength_) {
    std::optional<Frame> error = readHeader();
    compact();
    if (error) return error;
    if (!bodyLength_) return std::nullopt;
  }
  if (buffer_.size() - consumed_ < *bodyLength_) return std::nullopt;
  Frame frame;
  frame.body = buffer_.substr(consumed_, *bodyLength_);
  consumed_ += *bodyLength_;
  bodyLength_.reset();
  compact();
  return frame;
}

std::string frameMessage(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace scl::lsp
