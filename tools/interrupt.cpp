#include "tools/interrupt.h"

#include <csignal>

namespace scl {

namespace {

// Written by the signal handler, so lock-free atomics (async-signal-safe).
std::atomic<bool> gRequested{false};
std::atomic<int> gSignal{0};
struct sigaction gPreviousInt, gPreviousTerm;

extern "C" void onInterrupt(int number) {
  gSignal.store(number);
  gRequested.store(true);
  // A second signal ends the process at once: the default action is back.
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(number, &fallback, nullptr);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
  gRequested.store(false);
  gSignal.store(0);
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &gPreviousInt);
  sigaction(SIGTERM, &action, &gPreviousTerm);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &gPreviousInt, nullptr);
  sigaction(SIGTERM, &gPreviousTerm, nullptr);
}

const std::atomic<bool>& InterruptGuard::requested() const { return gRequested; }
int InterruptGuard::signal() const { return gSignal.load(); }
int InterruptGuard::exitCode() const { return 128 + gSignal.load(); }

}  // namespace scl
