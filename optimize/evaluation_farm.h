// Where a batch of evaluations runs: the optimizer's candidates and the state–action
// sampler's points are handed to an EvaluationFarm, which evaluates each (a pure function
// of its point) and returns the results by index. The farm decides only *where* each
// evaluation runs: threads of this process (ThreadFarm), or also other processes of an
// MPI job (optimize/mpi/mpi_farm.h). Because results are stored by index and every
// evaluation is deterministic, a run is bit-identical for any farm, rank or thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace scl {

class ThreadPool;

/// The result of one evaluation.
struct FarmResult {
  /// The evaluation's number: a candidate's J (NaN when infeasible), a point's label 1/0.
  double value = std::numeric_limits<double>::quiet_NaN();
  /// Why the evaluation failed (an infeasible candidate's reason); empty when it did not.
  std::string message;
};

/// One evaluation: a pure, thread-safe function of the point (script units).
using FarmTask = std::function<FarmResult(const std::vector<double>& point)>;

/// What a process that only evaluates (an MPI worker rank) runs: built from the job text
/// rank 0 sent it.
struct WorkerJob {
  /// The evaluation: the same function rank 0 evaluates with.
  FarmTask task;
  /// Evaluator threads of this process (at least 1).
  int threads = 1;
};

/// Called as results arrive: how many of the batch's `total` are done (from any thread).
using FarmProgress = std::function<void(int done, int total)>;

/// How busy the farm's evaluators were, over every batch so far.
struct FarmStatistics {
  /// Evaluations finished.
  int64_t evaluations = 0;
  /// Seconds spent inside evaluations, summed over every evaluator.
  double busySeconds = 0.0;
  /// Seconds of evaluator time available while batches ran: evaluators × batch wall time.
  double availableSeconds = 0.0;
  /// Wall time spent inside evaluate(), seconds.
  double batchSeconds = 0.0;
  /// Batches evaluated.
  int64_t batches = 0;
  /// Sum over batches of each one's longest evaluation, seconds: the least the batches
  /// could take with as many evaluators as points (the scaling model of docs/cluster.md).
  double longestSeconds = 0.0;
  /// busySeconds / availableSeconds: 1 when no evaluator ever waited (load balance and
  /// message cost both lower it); 0 before any batch.
  double efficiency() const {
    return availableSeconds > 0.0 ? busySeconds / availableSeconds : 0.0;
  }
  /// Adds one batch: its evaluations, their summed and longest time, its wall time and the
  /// evaluators it had (all seconds).
  void addBatch(int64_t evaluated, double busy, double longest, double wall, int evaluators);
};

/// Evaluates batches of points somewhere.
class EvaluationFarm {
 public:
  virtual ~EvaluationFarm() = default;

  /// Evaluates task(points[i]) for every i and returns the results by index. Stops handing
  /// out points once `*interrupt` is set (the results not computed then stay default: NaN),
  /// and returns when every evaluation in progress has ended. Remote evaluators (MPI) run
  /// the task their own process built from the same job; `task` runs the local ones.
  /// Throws std::runtime_error when an evaluation throws or a remote evaluator fails.
  virtual std::vector<FarmResult> evaluate(const std::vector<std::vector<double>>& points,
                                           const FarmTask& task, const FarmProgress& progress,
                                           const std::atomic<bool>* interrupt) = 0;

  /// Evaluations that can run at once (threads over every process).
  virtual int evaluators() const = 0;
  /// "2 threads", "3 ranks x 1 thread": for progress lines.
  virtual std::string describe() const = 0;
  virtual FarmStatistics statistics() const = 0;
};

/// A farm of this process's threads: a ThreadPool's parallelFor.
class ThreadFarm final : public EvaluationFarm {
 public:
  /// Evaluates on `pool` (not owned; it must outlive the farm).
  explicit ThreadFarm(ThreadPool& pool);
  /// Evaluates on a pool of its own of `threads` threads (0: every core).
  explicit ThreadFarm(int threads);
  ~ThreadFarm() override;

  std::vector<FarmResult> evaluate(const std::vector<std::vector<double>>& points,
                                   const FarmTask& task, const FarmProgress& progress,
                                   const std::atomic<bool>* interrupt) override;
  int evaluators() const override;
  std::string describe() const override;
  FarmStatistics statistics() const override { return statistics_; }

 private:
  std::unique_ptr<ThreadPool> ownPool_;
  ThreadPool& pool_;
  FarmStatistics statistics_;
};

/// "1 thread", "2 threads".
std::string threadCountText(int threads);

}  // namespace scl
