#include "optimize/evaluator_threads.h"

#include <algorithm>
#include <exception>

namespace scl {

EvaluatorThreads::EvaluatorThreads(int threads) {
  threads = std::max(1, threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

EvaluatorThreads::~EvaluatorThreads() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  queued_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void EvaluatorThreads::setTask(const FarmTask* task) {
  std::lock_guard lock(mutex_);
  task_ = task;
}

void EvaluatorThreads::submit(uint64_t tag, std::vector<double> point) {
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(tag, std::move(point));
    ++inFlight_;
  }
  queued_.notify_one();
}

std::vector<EvaluatorThreads::Finished> EvaluatorThreads::collect(
    std::chrono::microseconds timeout) {
  std::unique_lock lock(mutex_);
  if (outbox_.empty()) finished_.wait_for(lock, timeout, [this] { return !outbox_.empty(); });
  std::vector<Finished> out;
  out.swap(outbox_);
  inFlight_ -= static_cast<int>(out.size());
  return out;
}

std::vector<uint64_t> EvaluatorThreads::cancelQueued() {
  std::lock_guard lock(mutex_);
  std::vector<uint64_t> tags;
  for (const auto& [tag, point] : queue_) tags.push_back(tag);
  inFlight_ -= static_cast<int>(queue_.size());
  queue_.clear();
  return tags;
}

int EvaluatorThreads::inFlight() const {
  std::lock_guard lock(mutex_);
  return inFlight_;
}

void EvaluatorThreads::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    auto [tag, point] = std::move(queue_.front());
    queue_.pop_front();
    const FarmTask* task = task_;
    lock.unlock();
    Finished finished;
    finished.tag = tag;
    const auto start = std::chrono::steady_clock::now();
    try {
      if (!task) throw std::logic_error("EvaluatorThreads: no task set");
      finished.result = (*task)(point);
    } catch (const std::exception& error) {
      finished.error = error.what();
      if (finished.error.empty()) finished.error = "an evaluation failed";
    } catch (...) {
      finished.error = "an evaluation threw an unknown exception";
    }
    finished.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    lock.lock();
    outbox_.push_back(std::move(finished));
    finished_.notify_all();
  }
}

}  // namespace scl
