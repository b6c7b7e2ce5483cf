// The processes a distributable command (`scl optimize`, `scl sam sample`) runs on: this
// one, or the ranks of an MPI job started by mpirun, mpiexec or srun (docs/cluster.md).
// Rank 0 runs the command as usual with a farm that also evaluates on the other ranks;
// every other rank only serves evaluations. Built without MPI, or started without a
// launcher, it is a cluster of one process and commands run exactly as before.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "optimize/evaluation_farm.h"

namespace scl {

class InterruptGuard;
class MpiSession;

class Cluster {
 public:
  /// Joins the MPI job when an MPI launcher started this process. Throws UsageError when
  /// one started several ranks but this scl was built without MPI (each would run the
  /// whole command and write the same outputs).
  Cluster();
  /// Rank 0 stops the workers; MPI ends.
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  /// 0 for the process that runs the command; 1 ... ranks() - 1 evaluate.
  int rank() const;
  int ranks() const;
  bool isWorker() const { return rank() > 0; }
  /// A rank's threads when `--threads` is not given: this machine's cores shared among the
  /// job's ranks on it.
  int defaultThreads() const;

  /// Rank 0: the farm evaluating on `threads` threads here and on every other rank, each
  /// set up from `job` (the WorkerJob's `setup` reads it). A cluster of one process gets
  /// threads of its own. Throws std::runtime_error when a rank cannot set up the job.
  std::unique_ptr<EvaluationFarm> makeFarm(const std::string& job, int threads,
                                           const std::atomic<bool>* interrupt);

  /// A worker rank's whole command: builds the job with `setup`, evaluates until rank 0
  /// stops it; returns the exit code (the signal's after SIGINT or SIGTERM).
  int serve(const std::function<WorkerJob(const std::string& job)>& setup,
            const InterruptGuard& interrupt);

 private:
  std::unique_ptr<MpiSession> session_;
};

}  // namespace scl
