// The MPI farm (optimize/mpi/mpi_farm.h) under `mpirun -np 3`: rank 0 checks, the other
// ranks serve. Results by index, every rank used, a slow evaluation not holding up the
// rest, a failing evaluation reported with its rank, an interrupted batch abandoned and
// the next batch correct (late results of the abandoned one dropped).
#include "optimize/mpi/mpi_farm.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

int failures = 0;

void check(bool condition, const char* what, int line) {
  if (condition) return;
  std::fprintf(stderr, "mpi_farm_test.cpp:%d: FAILED: %s\n", line, what);
  ++failures;
}
#define CHECK(condition) check((condition), #condition, __LINE__)

// point = (x, milliseconds): x², after sleeping; x = -1 throws. The message names the
// rank that evaluated it (only this test wants to know).
scl::FarmTask squareTask(int rank) {
  return [rank](const std::vector<double>& point) {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(point[1]));
    if (point[0] == -1.0) throw std::runtime_error("minus one");
    return scl::FarmResult{point[0] * point[0], "rank " + std::to_string(rank)};
  };
}

std::vector<std::vector<double>> points(int n, double milliseconds) {
  std::vector<std::vector<double>> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back({static_cast<double>(i), milliseconds});
  return out;
}

void rankZero(scl::MpiSession& session) {
  scl::MpiFarm farm(session, "square", 1, nullptr);
  CHECK(farm.evaluators() == session.size());
  CHECK(farm.describe() == std::to_string(session.size()) + " ranks x 1 thread");
  const scl::FarmTask local = squareTask(0);

  // A slow first point: the others go to the free evaluators meanwhile.
  std::vector<std::vector<double>> batch = points(30, 5.0);
  batch[0][1] = 400.0;
  int progressCalls = 0;
  auto results = farm.evaluate(
      batch, local, [&](int, int) { ++progressCalls; }, nullptr);
  CHECK(progressCalls == 30);
  std::set<std::string> ranks;
  int withSlow = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    CHECK(results[i].value == static_cast<double>(i * i));
    ranks.insert(results[i].message);
    if (results[i].message == results[0].message) ++withSlow;
  }
  CHECK(ranks.size() == static_cast<size_t>(session.size()));
  CHECK(withSlow <= 3);  // its evaluator did little else: 400 ms vs 29 x 5 ms elsewhere

  // A failing evaluation ends the batch with its reason.
  batch = points(12, 2.0);
  batch[7][0] = -1.0;
  std::string error;
  try {
    farm.evaluate(batch, local, nullptr, nullptr);
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  CHECK(error.find("minus one") != std::string::npos);

  // Interrupted: returns without the rest; the next batch is whole and right.
  std::atomic<bool> interrupt{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    interrupt = true;
  });
  results = farm.evaluate(points(40, 150.0), local, nullptr, &interrupt);
  stopper.join();
  int missing = 0;
  for (const scl::FarmResult& result : results) missing += std::isnan(result.value) ? 1 : 0;
  CHECK(missing > 0);
  results = farm.evaluate(points(9, 1.0), local, nullptr, nullptr);
  for (size_t i = 0; i < results.size(); ++i) CHECK(results[i].value == static_cast<double>(i * i));
  CHECK(farm.statistics().evaluations > 40);
  CHECK(farm.statistics().efficiency() > 0.0 && farm.statistics().efficiency() <= 1.0);
}

}  // namespace

int main() {
  try {
    scl::MpiSession session;
    if (session.size() < 2) {
      std::fprintf(stderr, "run under mpirun with at least 2 ranks\n");
      return 2;
    }
    if (session.rank() == 0) {
      rankZero(session);
    } else {
      const int code = scl::serveMpiWorker(
          session,
          [&](const std::string& job) {
            if (job != "square") throw std::runtime_error("unknown job " + job);
            return scl::WorkerJob{squareTask(session.rank()), 1};
          },
          nullptr);
      CHECK(code == 0);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mpi_farm_test: %s\n", error.what());
    return 1;
  }
  if (failures == 0) std::printf("mpi_farm_test: ok\n");
  return failures == 0 ? 0 : 1;
}
