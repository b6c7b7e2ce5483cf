#include "optimize/evaluation_farm.h"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "base/thread_pool.h"

namespace scl {

void FarmStatistics::addBatch(int64_t evaluated, double busy, double longest, double wall,
                              int evaluators) {
  evaluations += evaluated;
  busySeconds += busy;
  longestSeconds += longest;
  batchSeconds += wall;
  availableSeconds += evaluators * wall;
  batches += 1;
}

std::string threadCountText(int threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

ThreadFarm::ThreadFarm(ThreadPool& pool) : pool_(pool) {}

ThreadFarm::ThreadFarm(int threads)
    : ownPool_(std::make_unique<ThreadPool>(threads)), pool_(*ownPool_) {}

ThreadFarm::~ThreadFarm() = default;

std::vector<FarmResult> ThreadFarm::evaluate(const std::vector<std::vector<double>>& points,
                                             const FarmTask& task, const FarmProgress& progress,
                                             const std::atomic<bool>* interrupt) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::vector<FarmResult> results(points.size());
  std::atomic<int> done{0};
  std::mutex busyMutex;
  double busy = 0.0, longest = 0.0;
  const int total = static_cast<int>(points.size());
  pool_.parallelFor(points.size(), [&](size_t i) {
    if (interrupt && interrupt->load()) return;
    const auto begin = Clock::now();
    results[i] = task(points[i]);
    const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    {
      std::lock_guard lock(busyMutex);
      busy += seconds;
      longest = std::max(longest, seconds);
    }
    const int finished = ++done;
    if (progress) progress(finished, total);
  });
  statistics_.addBatch(done.load(), busy, longest,
                       std::chrono::duration<double>(Clock::now() - start).count(), evaluators());
  return results;
}

int ThreadFarm::evaluators() const { return pool_.threadCount(); }

std::string ThreadFarm::describe() const { return threadCountText(evaluators()); }

}  // namespace scl
