// Threads that evaluate points handed to them one at a time, for a thread that has other
// things to wait for: the MPI farm's dispatcher (optimize/mpi/mpi_farm.h) feeds them while
// it polls for messages. submit() never blocks; collect() returns what has finished,
// waiting a little when nothing has.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "optimize/evaluation_farm.h"

namespace scl {

class EvaluatorThreads {
 public:
  /// One evaluation that ended.
  struct Finished {
    /// The tag it was submitted with (the caller's index).
    uint64_t tag = 0;
    FarmResult result;
    /// Wall time of the evaluation, seconds.
    double seconds = 0.0;
    /// What the task threw ("" when it returned): the result is then meaningless.
    std::string error;
  };

  /// Starts `threads` threads (at least 1).
  explicit EvaluatorThreads(int threads);
  /// Lets the evaluations in progress finish, drops the queued ones, joins the threads.
  ~EvaluatorThreads();
  EvaluatorThreads(const EvaluatorThreads&) = delete;
  EvaluatorThreads& operator=(const EvaluatorThreads&) = delete;

  /// The task the threads run; set it only while nothing is in flight. Not owned.
  void setTask(const FarmTask* task);
  /// Queues task(point), remembered by `tag`.
  void submit(uint64_t tag, std::vector<double> point);
  /// Every evaluation finished since the last call; when there is none, waits up to
  /// `timeout` for one.
  std::vector<Finished> collect(std::chrono::microseconds timeout);
  /// Drops the queued evaluations that have not started; returns their tags.
  std::vector<uint64_t> cancelQueued();
  /// Submitted and not yet collected (queued, running or finished).
  int inFlight() const;
  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  void run();

  std::vector<std::thread> threads_;
  mutable std::mutex mutex_;
  std::condition_variable queued_;    // work arrived, or stopping
  std::condition_variable finished_;  // a result arrived
  const FarmTask* task_ = nullptr;
  std::deque<std::pair<uint64_t, std::vector<double>>> queue_;
  std::vector<Finished> outbox_;
  int inFlight_ = 0;
  bool stopping_ = false;
};

}  // namespace scl
