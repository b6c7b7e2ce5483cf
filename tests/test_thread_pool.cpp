// ThreadPool: every index runs once, results do not depend on the thread count, exceptions
// reach the caller without hanging and the pool stays usable.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "base/thread_pool.h"

using namespace scl;

namespace {

// Deliberately uneven work so threads finish out of order.
double work(size_t i) {
  double sum = 0;
  const size_t iterations = 1000 + (i * 7919) % 20000;
  for (size_t k = 1; k <= iterations; ++k)
    sum += std::sin(static_cast<double>(i * k)) / static_cast<double>(k);
  return sum;
}

std::vector<double> computeWith(int threads, size_t n) {
  ThreadPool pool(threads);
  std::vector<double> results(n);
  pool.parallelFor(n, [&](size_t i) { results[i] = work(i); });
  return results;
}

}  // namespace

TEST_CASE("ThreadPool gives the same results with 1, 2 and 4 threads", "[thread_pool]") {
  const std::vector<double> one = computeWith(1, 257);
  CHECK(computeWith(2, 257) == one);
  CHECK(computeWith(4, 257) == one);
  for (size_t i = 0; i < one.size(); ++i) REQUIRE(one[i] == work(i));
}

TEST_CASE("ThreadPool runs every index exactly once and uses its threads", "[thread_pool]") {
  ThreadPool pool(4);
  CHECK(pool.threadCount() == 4);
  CHECK(ThreadPool(1).threadCount() == 1);
  CHECK(ThreadPool(0).threadCount() >= 1);
  for (size_t n : {size_t(0), size_t(1), size_t(3), size_t(1000)}) {
    std::vector<std::atomic<int>> counts(n);
    pool.parallelFor(n, [&](size_t i) { ++counts[i]; });
    for (size_t i = 0; i < n; ++i) REQUIRE(counts[i] == 1);
  }

  // With blocking tasks, more than one thread must take part.
  std::atomic<int> running{0}, maxRunning{0};
  pool.parallelFor(8, [&](size_t) {
    const int now = ++running;
    int seen = maxRunning.load();
    while (now > seen && !maxRunning.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    --running;
  });
  CHECK(maxRunning > 1);
}

TEST_CASE("ThreadPool propagates task exceptions and stays usable", "[thread_pool]") {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH(pool.parallelFor(100,
                                       [&](size_t i) {
                                         ++ran;
                                         if (i == 5) throw std::runtime_error("task 5 failed");
                                       }),
                      "task 5 failed");
    CHECK(ran >= 6);
    CHECK(ran <= 100);

    // Every task throws: the lowest index that ran is reported; no hang.
    CHECK_THROWS_WITH(
        pool.parallelFor(50,
                         [](size_t i) { throw std::runtime_error(i == 0 ? "first" : "later"); }),
        "first");

    std::vector<int> results(10, 0);
    pool.parallelFor(10, [&](size_t i) { results[i] = static_cast<int>(i) * 2; });
    for (size_t i = 0; i < results.size(); ++i) CHECK(results[i] == static_cast<int>(i) * 2);
  }
}

TEST_CASE("ThreadPool serializes parallelFor calls from several threads", "[thread_pool]") {
  ThreadPool pool(3);
  std::vector<std::vector<double>> results(4, std::vector<double>(64));
  std::vector<std::thread> callers;
  for (size_t c = 0; c < results.size(); ++c)
    callers.emplace_back([&, c] {
      for (int repeat = 0; repeat < 5; ++repeat)
        pool.parallelFor(64, [&](size_t i) { results[c][i] = work(i + c); });
    });
  for (std::thread& t : callers) t.join();
  for (size_t c = 0; c < results.size(); ++c)
    for (size_t i = 0; i < 64; ++i) REQUIRE(results[c][i] == work(i + c));
}
