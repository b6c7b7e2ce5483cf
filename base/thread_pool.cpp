#include "base/thread_pool.h"

#include "base/threads.h"

namespace scl {

ThreadPool::ThreadPool(int threads) {
  threads = chooseThreadCount({.requested = threads}).threads;
  workers_.reserve(static_cast<size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  jobPosted_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::parallelFor(size_t n, const std::function<void(size_t)>& task) {
  if (n == 0) return;
  std::lock_guard callLock(callMutex_);
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    taskCount_ = n;
    nextIndex_ = 0;
    cancelled_ = false;
    error_ = nullptr;
    busyWorkers_ = static_cast<int>(workers_.size());
    ++jobId_;
  }
  jobPosted_.notify_all();
  runTasks();

  // Every worker checks in for every job, so none can still hold `task` after this.
  std::unique_lock lock(mutex_);
  jobDone_.wait(lock, [this] { return busyWorkers_ == 0; });
  task_ = nullptr;
  if (error_) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void ThreadPool::workerLoop() {
  uint64_t seenJob = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      jobPosted_.wait(lock, [&] { return stopping_ || jobId_ != seenJob; });
      if (stopping_) return;
      seenJob = jobId_;
    }
    runTasks();
    {
      std::lock_guard lock(mutex_);
      --busyWorkers_;
    }
    jobDone_.notify_all();
  }
}

void ThreadPool::runTasks() {
  for (;;) {
    size_t index = 0;
    const std::function<void(size_t)>* task = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (cancelled_ || nextIndex_ >= taskCount_) return;
      index = nextIndex_++;
      task = task_;
    }
    try {
      (*task)(index);
    } catch (...) {
      std::lock_guard lock(mutex_);
      cancelled_ = true;
      if (!error_ || index < errorIndex_) {
        error_ = std::current_exception();
        errorIndex_ = index;
      }
    }
  }
}

}  // namespace scl
