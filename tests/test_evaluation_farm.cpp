// Where evaluations run (optimize/evaluation_farm.h, optimize/evaluator_threads.h): results
// by index whatever the thread count, failures reported, interrupted batches ended.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <set>
#include <stdexcept>
#include <thread>

#include "base/thread_pool.h"
#include "optimize/evaluation_farm.h"
#include "optimize/evaluator_threads.h"

namespace {

using scl::FarmResult;

std::vector<std::vector<double>> ramp(int n) {
  std::vector<std::vector<double>> points;
  points.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) points.push_back({static_cast<double>(i), 0.5});
  return points;
}

// Uneven durations (later points are quicker), a value that names the point.
FarmResult square(const std::vector<double>& point) {
  std::this_thread::sleep_for(std::chrono::microseconds(200 * (20 - static_cast<int>(point[0]))));
  FarmResult result;
  result.value = point[0] * point[0] + point[1];
  if (point[0] == 3.0) result.message = "three";
  return result;
}

}  // namespace

TEST_CASE("a thread farm returns results by index for any thread count", "[farm]") {
  for (int threads : {1, 2, 4}) {
    scl::ThreadFarm farm(threads);
    CHECK(farm.evaluators() == threads);
    // Called from the pool's threads: counted here, checked after the batch (Catch's
    // assertions are not thread-safe).
    std::atomic<int> calls{0}, last{0}, wrongTotals{0};
    const auto results = farm.evaluate(
        ramp(20), square,
        [&](int done, int total) {
          ++calls;
          if (total != 20) ++wrongTotals;
          int previous = last.load();
          while (done > previous && !last.compare_exchange_weak(previous, done)) {
          }
        },
        nullptr);
    CHECK(wrongTotals == 0);
    REQUIRE(results.size() == 20);
    for (int i = 0; i < 20; ++i) CHECK(results[i].value == i * i + 0.5);
    CHECK(results[3].message == "three");
    CHECK(calls == 20);
    CHECK(last == 20);
    CHECK(farm.statistics().evaluations == 20);
    CHECK(farm.statistics().busySeconds > 0.0);
    CHECK(farm.statistics().efficiency() > 0.0);
    CHECK(farm.statistics().efficiency() <= 1.0 + 1e-9);
  }
}

TEST_CASE("a thread farm stops handing out points when interrupted", "[farm]") {
  scl::ThreadFarm farm(2);
  std::atomic<bool> interrupt{false};
  std::atomic<int> started{0};
  const auto results = farm.evaluate(
      ramp(50),
      [&](const std::vector<double>& point) {
        if (++started == 4) interrupt = true;
        return square(point);
      },
      nullptr, &interrupt);
  CHECK(started < 50);
  int computed = 0;
  for (const FarmResult& result : results) computed += std::isnan(result.value) ? 0 : 1;
  CHECK(computed == started);
}

TEST_CASE("a thread farm passes on what an evaluation throws", "[farm]") {
  scl::ThreadFarm farm(2);
  CHECK_THROWS_WITH(farm.evaluate(
                        ramp(8),
                        [](const std::vector<double>& point) -> FarmResult {
                          if (point[0] == 5.0) throw std::runtime_error("point five");
                          return {};
                        },
                        nullptr, nullptr),
                    "point five");
}

TEST_CASE("evaluator threads evaluate what is submitted and report each once", "[farm]") {
  scl::EvaluatorThreads threads(3);
  CHECK(threads.threads() == 3);
  const scl::FarmTask task = [](const std::vector<double>& point) -> FarmResult {
    if (point[0] == 7.0) throw std::runtime_error("seven");
    return square(point);
  };
  threads.setTask(&task);
  for (uint64_t i = 0; i < 12; ++i) threads.submit(100 + i, {static_cast<double>(i), 0.0});
  CHECK(threads.inFlight() == 12);
  std::set<uint64_t> seen;
  while (seen.size() < 12) {
    for (auto& finished : threads.collect(std::chrono::milliseconds(50))) {
      CHECK(seen.insert(finished.tag).second);
      const double i = static_cast<double>(finished.tag - 100);
      if (i == 7.0) {
        CHECK(finished.error == "seven");
      } else {
        CHECK(finished.error.empty());
        CHECK(finished.result.value == i * i);
        CHECK(finished.seconds > 0.0);
      }
    }
  }
  CHECK(threads.inFlight() == 0);
  CHECK(threads.collect(std::chrono::microseconds(100)).empty());
}

TEST_CASE("evaluator threads drop queued work on cancel and on destruction", "[farm]") {
  std::atomic<bool> release{false};
  std::atomic<int> started{0};
  const scl::FarmTask slow = [&](const std::vector<double>&) {
    ++started;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return FarmResult{1.0, ""};
  };
  {
    scl::EvaluatorThreads threads(1);
    threads.setTask(&slow);
    for (uint64_t i = 0; i < 5; ++i) threads.submit(i, {0.0});
    // The one thread takes one point (it waits for `release`); four stay queued.
    while (started == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const std::vector<uint64_t> dropped = threads.cancelQueued();
    CHECK(dropped.size() == 4);
    CHECK(threads.inFlight() == 1);
    release = true;
    while (threads.inFlight() > 0) threads.collect(std::chrono::milliseconds(10));
    // Queued again and destroyed at once: the destructor neither waits for them nor hangs.
    release = false;
    for (uint64_t i = 0; i < 5; ++i) threads.submit(i, {0.0});
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    release = true;
  }
  SUCCEED("destroyed with work queued");
}
