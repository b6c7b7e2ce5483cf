// Evaluations spread over the processes (ranks) of an MPI job (docs/cluster.md).
//
// Rank 0 runs the search (CMA-ES, the sampler) and writes every output; the other ranks
// only evaluate. Rank 0 sends each worker a job (text: what to evaluate, e.g. the script
// and the objective), from which the worker builds the same evaluation function rank 0
// has; then, batch by batch, it hands out single points dynamically to whichever
// evaluator (a thread of any rank, rank 0's own included) is free, so a slow evaluation
// never holds up the others. Results come back by index: a run is the same for any number
// of ranks and threads.
//
// Only the thread that made the MpiSession calls MPI (MPI_THREAD_FUNNELED): evaluations
// run on EvaluatorThreads while it polls for messages, sleeping between polls instead of
// spinning, so an idle rank leaves its core to the evaluating ones.
//
// The protocol, by message tag:
//   rank 0 -> worker: job (text), task (tag, point), stop
//   worker -> rank 0: ready (thread count), result (tag, value, seconds, message),
//                     failed (text: the job could not be set up, or an evaluation threw),
//                     goodbye (the answer to stop; nothing follows it)
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "optimize/evaluation_farm.h"

namespace scl {

class EvaluatorThreads;

/// MPI for the life of one command: initialised on construction, finalised on destruction.
/// One per process.
class MpiSession {
 public:
  /// MPI_Init_thread with MPI_THREAD_FUNNELED; throws std::runtime_error when MPI cannot
  /// start or offers less.
  MpiSession();
  /// Rank 0 first stops every worker (releaseWorkers()); then MPI_Finalize.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// This rank's host, for messages.
  const std::string& host() const { return host_; }
  /// Ranks of the job on this rank's host (this one included).
  int ranksOnHost() const { return ranksOnHost_; }

  /// Rank 0: tells every worker that was not told yet to stop and waits (up to
  /// `timeoutSeconds`) for each one's goodbye, discarding what arrives before it (results
  /// of an abandoned batch). Idempotent. A worker's serve() returns on stop.
  void releaseWorkers(double timeoutSeconds = 30.0);

 private:
  int rank_ = 0;
  int size_ = 1;
  int ranksOnHost_ = 1;
  std::string host_;
  std::vector<bool> released_;  // rank 0: per rank, told to stop
};

/// Rank 0's farm: every worker rank's threads and `localThreads` threads of its own.
class MpiFarm final : public EvaluationFarm {
 public:
  /// Sends `job` to every worker and waits for each to be ready. Throws
  /// std::runtime_error naming the rank when one cannot set up the job, and when
  /// `*interrupt` is set while waiting.
  MpiFarm(MpiSession& session, const std::string& job, int localThreads,
          const std::atomic<bool>* interrupt);
  /// Stops the workers (MpiSession::releaseWorkers()).
  ~MpiFarm() override;

  std::vector<FarmResult> evaluate(const std::vector<std::vector<double>>& points,
                                   const FarmTask& task, const FarmProgress& progress,
                                   const std::atomic<bool>* interrupt) override;
  int evaluators() const override;
  std::string describe() const override;
  FarmStatistics statistics() const override { return statistics_; }
  /// Evaluator threads per rank (rank 0's first).
  const std::vector<int>& threadsPerRank() const { return threads_; }

 private:
  MpiSession& session_;
  std::unique_ptr<EvaluatorThreads> local_;
  std::vector<int> threads_;
  uint64_t batch_ = 0;
  FarmStatistics statistics_;
};

/// serveMpiWorker()'s result when `*interrupt` was set (it then returns at once).
constexpr int kWorkerInterrupted = -1;

/// A worker rank's life: waits for rank 0's job, builds it with `setup` (which throws
/// when it cannot: rank 0 is told why), evaluates what rank 0 sends until it says stop.
/// Returns the process's exit code: 0 after stop, 3 when the job could not be set up,
/// kWorkerInterrupted when `*interrupt` was set (without waiting for rank 0).
int serveMpiWorker(MpiSession& session,
                   const std::function<WorkerJob(const std::string& job)>& setup,
                   const std::atomic<bool>* interrupt);

}  // namespace scl
