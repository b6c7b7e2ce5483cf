// Kept apart from the rest of the viewer: Xlib's macros (None, Status, Bool) clash with
// other headers.
#include "tools/viewer/display_probe.h"

#include <cstdlib>

#ifdef SCL_HAVE_X11
#include <X11/Xlib.h>
#endif

namespace scl {

struct DisplayConnection::Handle {
#ifdef SCL_HAVE_X11
  ::Display* connection = nullptr;
#endif
};

DisplayConnection::DisplayConnection() : handle_(std::make_unique<Handle>()) {
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) return;
#ifdef SCL_HAVE_X11
  handle_->connection = XOpenDisplay(nullptr);
  available_ = handle_->connection != nullptr;
#else
  available_ = true;
#endif
}

DisplayConnection::~DisplayConnection() {
#ifdef SCL_HAVE_X11
  if (handle_->connection) XCloseDisplay(handle_->connection);
#endif
}

}  // namespace scl
