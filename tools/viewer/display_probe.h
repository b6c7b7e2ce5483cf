// Whether a window can be opened at all. SFML 2.5 aborts the process when it cannot
// connect to the X server, so the viewer asks first.
#pragma once

namespace scl {

/// True when DISPLAY is set and (when built with Xlib) the X server answers.
bool displayAvailable();

}  // namespace scl
