// Kept apart from the rest of the viewer: Xlib's macros (None, Status, Bool) clash with
// other headers.
#include "tools/viewer/display_probe.h"

#include <cstdlib>

#ifdef SCL_HAVE_X11
#include <X11/Xlib.h>
#endif

namespace scl {

bool displayAvailable() {
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) return false;
#ifdef SCL_HAVE_X11
  ::Display* connection = XOpenDisplay(nullptr);
  if (!connection) return false;
  XCloseDisplay(connection);
#endif
  return true;
}

}  // namespace scl
