#include "tools/cluster.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "base/threads.h"
#include "tools/cli.h"
#include "tools/interrupt.h"
#ifdef SCL_HAVE_MPI
#include "optimize/mpi/mpi_farm.h"
#endif

namespace scl {

namespace {

// Set by Open MPI's mpirun, MPICH's and Intel's mpiexec (PMI) and srun with PMIx.
bool launchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace

#ifdef SCL_HAVE_MPI
Cluster::Cluster() {
  if (launchedByMpi()) session_ = std::make_unique<MpiSession>();
}
#else
// Without MpiSession's definition the unique_ptr stays empty.
class MpiSession {};
Cluster::Cluster() {
  long size = 0;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name))
      size = std::max(size, std::strtol(value, nullptr, 10));
  if (launchedByMpi() && size > 1)
    throw UsageError("started by an MPI launcher with " + std::to_string(size) +
                     " ranks, but this scl was built without MPI: each rank would run the "
                     "whole command; rebuild with MPI (install libopenmpi-dev) or run one "
                     "process");
}
#endif

Cluster::~Cluster() = default;

int Cluster::rank() const {
#ifdef SCL_HAVE_MPI
  if (session_) return session_->rank();
#endif
  return 0;
}

int Cluster::ranks() const {
#ifdef SCL_HAVE_MPI
  if (session_) return session_->size();
#endif
  return 1;
}

int Cluster::defaultThreads() const {
  int onHost = 1;
#ifdef SCL_HAVE_MPI
  if (session_) onHost = session_->ranksOnHost();
#endif
  return std::max(1, hardwareCores() / std::max(1, onHost));
}

std::unique_ptr<EvaluationFarm> Cluster::makeFarm(const std::string& job, int threads,
                                                  const std::atomic<bool>* interrupt) {
#ifdef SCL_HAVE_MPI
  if (session_ && session_->size() > 1)
    return std::make_unique<MpiFarm>(*session_, job, threads, interrupt);
#else
  (void)job;
  (void)interrupt;
#endif
  return std::make_unique<ThreadFarm>(threads);
}

int Cluster::serve(const std::function<WorkerJob(const std::string& job)>& setup,
                   const InterruptGuard& interrupt) {
#ifdef SCL_HAVE_MPI
  if (session_ && session_->rank() > 0) {
    const int code = serveMpiWorker(*session_, setup, &interrupt.requested());
    return code == kWorkerInterrupted ? interrupt.exitCode() : code;
  }
#else
  (void)setup;
  (void)interrupt;
#endif
  throw std::logic_error("Cluster::serve: this process is rank 0, not a worker");
}

}  // namespace scl
