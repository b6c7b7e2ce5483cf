// Dense kernels for the feature controller's small problems (20–40 unknowns), where a
// general library's dispatch and packing cost more than the arithmetic (docs/dynamics.md,
// Small dense kernels).
//
// They are written with two-lane vectors (GCC's and Clang's vector extensions), whose
// lane-wise operations are exact IEEE operations: the same order of additions on every
// target, so results do not depend on the machine's vector width. On x86-64 a lane pair is
// one SSE2 register.
#pragma once

#include <Eigen/Core>
#include <cstring>

namespace scl {

/// Two doubles operated on lane by lane.
using DoublePair = double __attribute__((vector_size(16)));

/// p[0], p[1] as a pair (p need not be aligned).
inline DoublePair loadPair(const double* p) {
  DoublePair v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// p[0], p[1] = v.
inline void storePair(double* p, const DoublePair& v) { std::memcpy(p, &v, sizeof v); }

/// Which code a kernel may use. Both give bit-identical results; `Portable` exists so
/// that tests can compare them on a machine that has the faster one.
enum class KernelCode {
  /// AVX where the processor has it (checked at run time), else `Portable`.
  Fastest,
  /// Two-lane vectors only (SSE2 on x86-64).
  Portable,
};

/// g's lower triangle += WᵀW, where W is the first `rows` rows of `w` (column-major): the
/// Gram matrix of w's columns over those rows. g is n×n with n = w.cols(); its strict upper
/// triangle is not touched. Each entry is summed in one fixed order: the even rows in
/// order, the odd rows in order, an odd last row added to the even sum, then the two sums.
void addLowerGram(const Eigen::MatrixXd& w, int rows, Eigen::MatrixXd& g,
                  KernelCode code = KernelCode::Fastest);

}  // namespace scl
