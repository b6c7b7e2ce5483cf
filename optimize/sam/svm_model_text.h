// The check of a libsvm model file before libsvm reads it. libsvm's loader trusts its
// input: a missing `label` line, `nr_class 100000000`, `total_sv 1000000000` or `nr_sv`
// counts that do not sum to total_sv make it read past its arrays or allocate gigabytes,
// and a file truncated by half loads as a smaller model.
#pragma once

#include <cstddef>
#include <string_view>

namespace scl {

/// Checks that `text` is, completely, a two-class RBF model as libsvm's svm_save_model
/// writes it (what `scl sam train` saves): the header lines svm_type c_svc, kernel_type
/// rbf, gamma, nr_class 2, total_sv, rho (one value), label (1 and -1), nr_sv (two counts
/// summing to total_sv) and SV, in that order; then exactly total_sv lines of a coefficient
/// and `index:value` pairs, indices increasing from 1 to `dimensions`; every number finite;
/// the last line ended. Allocates nothing per count it reads. Throws std::runtime_error
/// ("line N: why", user text quoted by quoteForMessage).
void checkSvmModelText(std::string_view text, size_t dimensions);

}  // namespace scl
