#include "dynamics/dense_kernels.h"

#include <algorithm>
#include <cassert>
#include <cstddef>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace scl {

namespace {

// The I×J block of dot products of w's columns i… and j… over `rows` rows, added to g
// where it lies in the lower triangle. The I + J columns are loaded once per two rows for
// I·J products (a dot product at a time loads two numbers per product), and the I·J
// accumulators stay in registers.
//
// Every entry of the Gram matrix is summed the same way whatever block computes it: its
// even rows in order in one lane, its odd rows in the other, an odd last row added to the
// first lane, then the two lanes, then g. So the blockings below (and the AVX kernel)
// give bit-identical results.
template <int I, int J>
void gramBlock(const double* w, std::ptrdiff_t ld, int rows, int i, int j, double* g,
               std::ptrdiff_t ldg) {
  const double* a[I];
  const double* b[J];
  for (int x = 0; x < I; ++x) a[x] = w + (i + x) * ld;
  for (int y = 0; y < J; ++y) b[y] = w + (j + y) * ld;
  DoublePair sum[I][J] = {};
  int r = 0;
  for (; r + 2 <= rows; r += 2) {
    DoublePair va[I], vb[J];
    for (int x = 0; x < I; ++x) va[x] = loadPair(a[x] + r);
    for (int y = 0; y < J; ++y) vb[y] = loadPair(b[y] + r);
    for (int x = 0; x < I; ++x)
      for (int y = 0; y < J; ++y) sum[x][y] += va[x] * vb[y];
  }
  if (r < rows)  // an odd last row, into the first lane
    for (int x = 0; x < I; ++x)
      for (int y = 0; y < J; ++y) sum[x][y][0] += a[x][r] * b[y][r];
  for (int x = 0; x < I; ++x)
    for (int y = 0; y < J; ++y)
      if (i + x >= j + y) g[(i + x) + (j + y) * ldg] += sum[x][y][0] + sum[x][y][1];
}

// The block of columns i… (I of them) by j… (J ≤ 2), by the two-lane kernel.
void gramBlockPairs(const double* w, std::ptrdiff_t ld, int rows, int i, int j, int width,
                    int height, double* g, std::ptrdiff_t ldg) {
  switch ((height - 1) * 2 + (width - 1)) {
    case 0:
      gramBlock<1, 1>(w, ld, rows, i, j, g, ldg);
      break;
    case 1:
      gramBlock<1, 2>(w, ld, rows, i, j, g, ldg);
      break;
    case 2:
      gramBlock<2, 1>(w, ld, rows, i, j, g, ldg);
      break;
    case 3:
      gramBlock<2, 2>(w, ld, rows, i, j, g, ldg);
      break;
    case 4:
      gramBlock<3, 1>(w, ld, rows, i, j, g, ldg);
      break;
    case 5:
      gramBlock<3, 2>(w, ld, rows, i, j, g, ldg);
      break;
    case 6:
      gramBlock<4, 1>(w, ld, rows, i, j, g, ldg);
      break;
    default:
      gramBlock<4, 2>(w, ld, rows, i, j, g, ldg);
      break;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SCL_GRAM_AVX 1
// A 4×4 block with AVX: each 256-bit accumulator holds the two lanes of two entries
// (columns j + 2c and j + 2c + 1 of one row i + x), each lane doing exactly what the
// two-lane kernel's does. No FMA: a fused multiply-add would round differently.
// (low[0], low[1], high[0], high[1]) and (p[0], p[1], p[0], p[1]).
__attribute__((target("avx"))) inline __m256d loadTwoPairs(const double* low, const double* high) {
  return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(low)), _mm_loadu_pd(high), 1);
}
__attribute__((target("avx"))) inline __m256d broadcastPair(const double* p) {
  return _mm256_broadcast_pd(reinterpret_cast<const __m128d*>(p));
}

__attribute__((target("avx"))) void gramBlockAvx(const double* w, std::ptrdiff_t ld, int rows,
                                                 int i, int j, double* g, std::ptrdiff_t ldg) {
  const double* a0 = w + i * ld;
  const double* a1 = a0 + ld;
  const double* a2 = a1 + ld;
  const double* a3 = a2 + ld;
  const double* b0 = w + j * ld;
  const double* b1 = b0 + ld;
  const double* b2 = b1 + ld;
  const double* b3 = b2 + ld;
  // Named accumulators, not an array: an array was zeroed through memory each call.
  __m256d s00 = _mm256_setzero_pd(), s01 = _mm256_setzero_pd();
  __m256d s10 = _mm256_setzero_pd(), s11 = _mm256_setzero_pd();
  __m256d s20 = _mm256_setzero_pd(), s21 = _mm256_setzero_pd();
  __m256d s30 = _mm256_setzero_pd(), s31 = _mm256_setzero_pd();
  int r = 0;
  for (; r + 2 <= rows; r += 2) {
    const __m256d v0 = loadTwoPairs(b0 + r, b1 + r), v1 = loadTwoPairs(b2 + r, b3 + r);
    __m256d u = broadcastPair(a0 + r);
    s00 = _mm256_add_pd(s00, _mm256_mul_pd(u, v0));
    s01 = _mm256_add_pd(s01, _mm256_mul_pd(u, v1));
    u = broadcastPair(a1 + r);
    s10 = _mm256_add_pd(s10, _mm256_mul_pd(u, v0));
    s11 = _mm256_add_pd(s11, _mm256_mul_pd(u, v1));
    u = broadcastPair(a2 + r);
    s20 = _mm256_add_pd(s20, _mm256_mul_pd(u, v0));
    s21 = _mm256_add_pd(s21, _mm256_mul_pd(u, v1));
    u = broadcastPair(a3 + r);
    s30 = _mm256_add_pd(s30, _mm256_mul_pd(u, v0));
    s31 = _mm256_add_pd(s31, _mm256_mul_pd(u, v1));
  }
  alignas(32) double lanes[4][8];
  _mm256_store_pd(lanes[0], s00);
  _mm256_store_pd(lanes[0] + 4, s01);
  _mm256_store_pd(lanes[1], s10);
  _mm256_store_pd(lanes[1] + 4, s11);
  _mm256_store_pd(lanes[2], s20);
  _mm256_store_pd(lanes[2] + 4, s21);
  _mm256_store_pd(lanes[3], s30);
  _mm256_store_pd(lanes[3] + 4, s31);
  const double* a[4] = {a0, a1, a2, a3};
  const double* b[4] = {b0, b1, b2, b3};
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      if (i + x < j + y) continue;
      const double* lane = &lanes[x][static_cast<std::ptrdiff_t>(2) * y];
      double lane0 = lane[0];
      if (r < rows) lane0 += a[x][r] * b[y][r];
      g[(i + x) + (j + y) * ldg] += lane0 + lane[1];
    }
}
#endif

}  // namespace

void addLowerGram(const Eigen::MatrixXd& w, int rows, Eigen::MatrixXd& g, KernelCode code) {
  const int n = static_cast<int>(w.cols());
  assert(rows >= 0 && rows <= w.rows() && g.rows() == n && g.cols() == n);
  const double* data = w.data();
  const std::ptrdiff_t ld = w.outerStride();
  double* out = g.data();
  const std::ptrdiff_t ldg = g.outerStride();
#ifdef SCL_GRAM_AVX
  const bool avx = code == KernelCode::Fastest && __builtin_cpu_supports("avx");
#else
  const bool avx = false;
  (void)code;
#endif
  // Blocks of four columns i by four columns j, from the diagonal down; a block that is
  // not 4×4, or any block without AVX, goes two columns j at a time.
  for (int j = 0; j < n; j += 4) {
    const int width = std::min(4, n - j);
    for (int i = j; i < n; i += 4) {
      const int height = std::min(4, n - i);
#ifdef SCL_GRAM_AVX
      if (avx && width == 4 && height == 4) {
        gramBlockAvx(data, ld, rows, i, j, out, ldg);
        continue;
      }
#endif
      for (int part = 0; part < width; part += 2)
        gramBlockPairs(data, ld, rows, i, j + part, std::min(2, width - part), height, out, ldg);
    }
  }
  (void)avx;  // unused without the AVX kernel
}

}  // namespace scl
