// Whether a window can be opened at all. SFML 2.5 aborts the process when it cannot
// connect to the X server, so the viewer asks first.
#pragma once

#include <memory>

namespace scl {

/// A connection to the X server, held for as long as the viewer runs. An X server without
/// `-noreset` (Xvfb, as xvfb-run starts it) resets when its last client disconnects and
/// hangs up on whoever connects meanwhile; had the probe closed its connection before
/// SFML opened one, SFML would sometimes land in that reset and abort the process
/// ("Failed to open X11 display"). Holding the probe's connection keeps the server from
/// ever being without a client while the viewer runs.
class DisplayConnection {
 public:
  DisplayConnection();
  ~DisplayConnection();
  DisplayConnection(const DisplayConnection&) = delete;
  DisplayConnection& operator=(const DisplayConnection&) = delete;

  /// True when DISPLAY is set and (when built with Xlib) the X server answered.
  bool available() const { return available_; }

 private:
  struct Handle;
  std::unique_ptr<Handle> handle_;
  bool available_ = false;
};

}  // namespace scl
