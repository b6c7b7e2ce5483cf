// A small fixed-size thread pool with a blocking parallel-for.
//
// Used to evaluate a CMA-ES population in parallel. Each task writes its result by index,
// so outcomes never depend on the thread count or on scheduling. The caller's thread works
// too, so ThreadPool(1) starts no threads and runs everything inline.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace scl {

class ThreadPool {
 public:
  /// `threads`: how many threads run tasks, counting the caller's; 0 means
  /// hardwareCores() (base/threads.h).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that run tasks, counting the caller's.
  int threadCount() const { return static_cast<int>(workers_.size()) + 1; }

  /// Runs task(0) ... task(n - 1), each exactly once unless a task throws, and returns
  /// when all have finished. If tasks throw, tasks not yet started are skipped and the
  /// exception of the lowest failing index is rethrown here. Calls from several threads
  /// are serialized; a task must not call parallelFor on the same pool (it would deadlock).
  void parallelFor(size_t n, const std::function<void(size_t)>& task);

 private:
  void workerLoop();
  void runTasks();

  std::vector<std::thread> workers_;
  std::mutex callMutex_;  // one parallelFor at a time

  // Shared job state, guarded by mutex_.
  std::mutex mutex_;
  std::condition_variable jobPosted_;
  std::condition_variable jobDone_;
  const std::function<void(size_t)>* task_ = nullptr;
  size_t taskCount_ = 0;
  size_t nextIndex_ = 0;
  uint64_t jobId_ = 0;
  int busyWorkers_ = 0;
  bool stopping_ = false;
  bool cancelled_ = false;
  std::exception_ptr error_;
  size_t errorIndex_ = 0;
};

}  // namespace scl
