// The message cost of the MPI farm (docs/cluster.md's scaling model), under
// `mpirun -np 2`: the round trip of one task and its result between two ranks at the
// sizes `scl optimize` sends (a 50-parameter candidate out, a number back), and the farm's
// throughput on evaluations that cost nothing (its per-evaluation overhead: dispatch,
// polling, bookkeeping). Prints figures; times nothing it asserts.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "optimize/mpi/mpi_farm.h"

namespace {

using Clock = std::chrono::steady_clock;

double pingPongMicroseconds(int rank, int rounds) {
  std::vector<char> task(8 + 50 * 8), result(8 + 8 + 8);
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    if (rank == 0) {
      MPI_Send(task.data(), static_cast<int>(task.size()), MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(result.data(), static_cast<int>(result.size()), MPI_BYTE, 1, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(task.data(), static_cast<int>(task.size()), MPI_BYTE, 0, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(result.data(), static_cast<int>(result.size()), MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
  }
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / rounds;
}

int run() {
  scl::MpiSession session;
  if (session.size() < 2) {
    std::fprintf(stderr, "run under mpirun -np 2 (or more)\n");
    return 2;
  }
  const double roundTrip = pingPongMicroseconds(session.rank(), 20000);
  const scl::FarmTask nothing = [](const std::vector<double>& point) {
    return scl::FarmResult{point[0], ""};
  };
  if (session.rank() != 0) {
    return scl::serveMpiWorker(
        session,
        [&](const std::string&) {
          return scl::WorkerJob{nothing, 1};
        },
        nullptr);
  }
  std::printf("MPI round trip of a task (408 B) and its result (24 B), blocking: %.1f us\n",
              roundTrip);
  scl::MpiFarm farm(session, "nothing", 1, nullptr);
  const std::vector<std::vector<double>> batch(2000, std::vector<double>(50, 1.0));
  farm.evaluate(batch, nothing, nullptr, nullptr);  // warm up
  const auto start = Clock::now();
  constexpr int kBatches = 5;
  for (int i = 0; i < kBatches; ++i) farm.evaluate(batch, nothing, nullptr, nullptr);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double perEvaluation = 1e6 * seconds / (kBatches * static_cast<double>(batch.size()));
  std::printf("farm of %s, evaluations that cost nothing: %.1f us each (%.0f per second)\n",
              farm.describe().c_str(), perEvaluation, 1e6 / perEvaluation);
  return 0;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_mpi_messages: %s\n", error.what());
    return 1;
  }
}
