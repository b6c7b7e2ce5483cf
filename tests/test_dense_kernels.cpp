// The small dense kernels (dynamics/dense_kernels.h): the Gram matrix is summed in one
// fixed order whatever the blocking and whether the AVX kernel runs, so that results do
// not depend on the machine.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>

#include "dynamics/dense_kernels.h"

namespace {

using Eigen::MatrixXd;

// Each entry as the kernels define it: the even rows in order, the odd rows in order, an
// odd last row added to the even sum, then the two sums.
double referenceEntry(const MatrixXd& w, int rows, int i, int j) {
  double even = 0.0, odd = 0.0;
  int r = 0;
  for (; r + 2 <= rows; r += 2) {
    even += w(r, i) * w(r, j);
    odd += w(r + 1, i) * w(r + 1, j);
  }
  if (r < rows) even += w(r, i) * w(r, j);
  return even + odd;
}

MatrixXd randomMatrix(std::mt19937_64& engine, int rows, int cols) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  MatrixXd m(rows, cols);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) m(r, c) = uniform(engine);
  return m;
}

}  // namespace

TEST_CASE("The Gram kernel adds WᵀW's lower triangle, summed in its fixed order", "[kernels]") {
  std::mt19937_64 engine(7);
  for (int n = 1; n <= 26; ++n) {
    for (int rows : {0, 1, 2, 3, 7, 28, 31}) {
      // W with more rows than used (a workspace's capacity), and a G with its own start.
      const MatrixXd w = randomMatrix(engine, rows + 3, n);
      const MatrixXd start = randomMatrix(engine, n, n);
      for (scl::KernelCode code : {scl::KernelCode::Fastest, scl::KernelCode::Portable}) {
        MatrixXd g = start;
        scl::addLowerGram(w, rows, g, code);
        INFO("n = " << n << ", rows = " << rows
                    << ", portable = " << (code == scl::KernelCode::Portable));
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            if (i < j) {
              REQUIRE(g(i, j) == start(i, j));  // the strict upper triangle is not touched
              continue;
            }
            REQUIRE(g(i, j) == start(i, j) + referenceEntry(w, rows, i, j));
          }
      }
    }
  }
}

TEST_CASE("The Gram kernel matches the product WᵀW to rounding", "[kernels]") {
  std::mt19937_64 engine(11);
  const MatrixXd w = randomMatrix(engine, 30, 23);
  MatrixXd g = MatrixXd::Zero(23, 23);
  scl::addLowerGram(w, 30, g);
  const MatrixXd product = w.transpose() * w;
  const MatrixXd lower = product.triangularView<Eigen::Lower>();
  CHECK((g - lower).cwiseAbs().maxCoeff() < 1e-13);
}
