// JSON-RPC over a byte stream as the Language Server Protocol frames it: each message is
// a header block (`Content-Length: N`, other headers ignored, lines ending in "\r\n"; a
// bare "\n" is accepted too) and a blank line, then N bytes of JSON.
//
// The reader never trusts its input: a header block without a valid Content-Length is
// dropped and reported, a body larger than the limit is skipped without being kept, and a
// header block that never ends is dropped once it is longer than any real header.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace scl::lsp {

/// One thing the reader found in the stream.
struct Frame {
  /// The message body (JSON text) when `error` is empty.
  std::string body;
  /// Why the bytes at this place were no message ("missing Content-Length", ...).
  std::string error;
  /// True for a message (no error).
  bool ok() const { return error.empty(); }
};

/// Splits a byte stream into message bodies.
class MessageReader {
 public:
  /// `maxBody`: the largest body kept, bytes; a larger one is skipped and reported.
  explicit MessageReader(size_t maxBody = size_t{256} << 20) : maxBody_(maxBody) {}

  /// Appends bytes read from the stream.
  void feed(std::string_view bytes);
  /// The next complete message (or framing error), nullopt when more bytes are needed.
  std::optional<Frame> next();
  /// True when bytes of an unfinished message are buffered.
  bool partial() const { return buffer_.size() > consumed_ || skip_ > 0; }

 private:
  std::optional<Frame> readHeader();
  void compact();

  std::string buffer_;
  /// Bytes of buffer_ already handed out.
  size_t consumed_ = 0;
  /// Body length of the message whose header was read; nullopt while reading a header.
  std::optional<size_t> bodyLength_;
  /// Bytes still to drop of a body that was too large.
  size_t skip_ = 0;
  size_t maxBody_;
};

/// `body` with its header: "Content-Length: N\r\n\r\n" + body.
std::string frameMessage(std::string_view body);

}  // namespace scl::lsp
