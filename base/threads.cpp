#include "base/threads.h"

#include <algorithm>
#include <thread>

namespace scl {

int hardwareCores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

ThreadCount chooseThreadCount(const ThreadCountDef& def) {
  const int cores = def.cores > 0 ? def.cores : hardwareCores();
  if (def.requested <= 0) return {def.defaultThreads > 0 ? def.defaultThreads : cores, {}};
  const int cap = def.maxPerCore * cores;
  if (def.maxPerCore <= 0 || def.requested <= cap) return {def.requested, {}};
  return {cap, "--threads " + std::to_string(def.requested) + " is more than " +
                   std::to_string(def.maxPerCore) + " per core (" + std::to_string(cores) +
                   " cores): using " + std::to_string(cap)};
}

}  // namespace scl
