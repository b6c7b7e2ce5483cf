// Exact doubles and checked field access for the JSON checkpoints of CMA-ES
// (Cmaes::serialize) and `scl optimize` (checkpoint.json).
//
// A resumed run must be bit-identical to an uninterrupted one, so every double has to
// read back exactly. Finite values are JSON numbers: nlohmann prints them with Grisu2, a
// short decimal (nearly always the shortest) guaranteed to read back to the same double
// whatever the reader's tie-breaking, and reads with strtod. JSON has no infinities or
// NaN, which the state does hold (best = +inf before any feasible candidate, NaN means of
// all-infeasible generations), so those are the strings "inf", "-inf", "nan" and "-nan".
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/format.h"

namespace scl {

/// Ordered, so that a checkpoint reads in the order it was written (format tag first).
using CheckpointJson = nlohmann::ordered_json;

/// FNV-1a hash of `text`.
inline uint64_t fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

/// What identifies a run's two input files in its checkpoint (a resumed run must use the
/// same ones): their hashes, in hex.
inline std::string sourcesHash(std::string_view first, std::string_view second) {
  std::ostringstream out;
  out << std::hex << fnv1a(first) << '-' << fnv1a(second);
  return out.str();
}

/// `value` as JSON that reads back bit-identically (see the file comment).
inline CheckpointJson exactJson(double value) {
  if (std::isfinite(value)) return value;
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  return value > 0 ? "inf" : "-inf";
}

inline CheckpointJson exactJson(const double* values, size_t count) {
  CheckpointJson array = CheckpointJson::array();
  for (size_t i = 0; i < count; ++i) array.push_back(exactJson(values[i]));
  return array;
}

inline CheckpointJson exactJson(const std::vector<double>& values) {
  return exactJson(values.data(), values.size());
}

inline CheckpointJson exactJson(const Eigen::VectorXd& values) {
  return exactJson(values.data(), static_cast<size_t>(values.size()));
}

/// A matrix as an array of its rows.
inline CheckpointJson exactJson(const Eigen::MatrixXd& matrix) {
  CheckpointJson rows = CheckpointJson::array();
  for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
    const Eigen::VectorXd row = matrix.row(i).transpose();
    rows.push_back(exactJson(row));
  }
  return rows;
}

/// The inverse of exactJson(double); throws std::runtime_error for anything else.
inline double exactDouble(const CheckpointJson& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    if (text == "inf") return kInf;
    if (text == "-inf") return -kInf;
    if (text == "nan") return kNan;
    if (text == "-nan") return -kNan;
  }
  throw std::runtime_error("expected a number (or \"inf\", \"-inf\", \"nan\")");
}

/// Larger than any count a run reaches, and exact as a double (2^53).
inline constexpr int64_t kMaxCheckpointCount = int64_t{1} << 53;

/// Reads the members of one JSON object with type and range checks. Errors are
/// std::runtime_error naming the member by its path ("missing 'distribution.C'").
class CheckpointFields {
 public:
  /// What finite() requires of a number's sign.
  enum class Sign { Any, NotNegative, Positive };

  /// `path`: how errors name the object ("" at the top, "log[3]" for an element, ...).
  CheckpointFields(const CheckpointJson& object, std::string path)
      : object_(object), path_(std::move(path)) {
    if (!object_.is_object())
      fail(path_.empty() ? "not a JSON object" : "'" + path_ + "' is not a JSON object");
  }

  const CheckpointJson& at(const char* key) const {
    const auto found = object_.find(key);
    if (found == object_.end()) fail("missing '" + name(key) + "'");
    return *found;
  }
  CheckpointFields object(const char* key) const { return {at(key), name(key)}; }

  /// Any double exactJson() writes, the infinities and NaN included.
  double number(const char* key) const {
    const CheckpointJson& value = at(key);
    try {
      return exactDouble(value);
    } catch (const std::runtime_error& error) {
      fail("'" + name(key) + "': " + error.what());
    }
  }
  /// A finite number, of the given sign.
  double finite(const char* key, Sign sign = Sign::Any) const {
    const double value = number(key);
    if (!std::isfinite(value) || (sign == Sign::Positive && !(value > 0)) ||
        (sign == Sign::NotNegative && !(value >= 0)))
      fail("'" + name(key) + "' must be a " +
           (sign == Sign::Positive      ? "positive "
            : sign == Sign::NotNegative ? "non-negative "
                                        : "") +
           "finite number, not " + formatNumber(value));
    return value;
  }
  /// An integer in [lowest, highest], both named when it is not.
  int64_t integer(const char* key, int64_t lowest, int64_t highest) const {
    const CheckpointJson& value = at(key);
    const bool fits = value.is_number_integer() &&
                      !(value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX));
    if (!fits || value.get<int64_t>() < lowest || value.get<int64_t>() > highest)
      fail("'" + name(key) + "' must be an integer from " + std::to_string(lowest) + " to " +
           std::to_string(highest));
    return value.get<int64_t>();
  }
  /// A count of things done (evaluations, NaN fitness values), from 0.
  int64_t count(const char* key) const { return integer(key, 0, kMaxCheckpointCount); }
  /// Throws unless "version" is `supported` (the one version this scl reads).
  void requireVersion(int64_t supported) const {
    const CheckpointJson& value = at("version");
    const std::string reads = " (this scl reads version " + std::to_string(supported) + ")";
    if (!value.is_number_integer()) fail("'" + name("version") + "' must be an integer" + reads);
    if (value.dump() != std::to_string(supported))
      fail("unsupported version " + value.dump() + reads);
  }
  /// An unsigned 64-bit integer (seeds, generator words), kept exact by nlohmann.
  uint64_t word(const char* key) const { return word(at(key), name(key)); }
  bool flag(const char* key) const {
    const CheckpointJson& value = at(key);
    if (!value.is_boolean()) fail("'" + name(key) + "' must be true or false");
    return value.get<bool>();
  }
  const std::string& text(const char* key) const {
    const CheckpointJson& value = at(key);
    if (!value.is_string()) fail("'" + name(key) + "' must be a string");
    return value.get_ref<const std::string&>();
  }
  /// An array; `size` >= 0 requires that many elements.
  const CheckpointJson& array(const char* key, int64_t size = -1) const {
    const CheckpointJson& value = at(key);
    if (!value.is_array()) fail("'" + name(key) + "' must be an array");
    if (size >= 0 && value.size() != static_cast<size_t>(size))
      fail("'" + name(key) + "' must have " + std::to_string(size) + " elements, not " +
           std::to_string(value.size()));
    return value;
  }
  std::vector<double> numbers(const char* key, int64_t size = -1) const {
    return numbers(array(key, size), name(key));
  }
  Eigen::VectorXd vector(const char* key, int size) const {
    const std::vector<double> values = numbers(key, size);
    return Eigen::Map<const Eigen::VectorXd>(values.data(), size);
  }
  /// A size x size matrix written by exactJson(const Eigen::MatrixXd&).
  Eigen::MatrixXd matrix(const char* key, int size) const {
    const CheckpointJson& rows = array(key, size);
    Eigen::MatrixXd matrix(size, size);
    for (int i = 0; i < size; ++i) {
      const std::string row = name(key) + "[" + std::to_string(i) + "]";
      const CheckpointJson& values = rows[static_cast<size_t>(i)];
      if (!values.is_array() || values.size() != static_cast<size_t>(size))
        fail("'" + row + "' must be an array of " + std::to_string(size) + " numbers");
      const std::vector<double> numbersOfRow = numbers(values, row);
      for (int j = 0; j < size; ++j) matrix(i, j) = numbersOfRow[static_cast<size_t>(j)];
    }
    return matrix;
  }
  std::vector<uint64_t> words(const char* key, int64_t size) const {
    const CheckpointJson& values = array(key, size);
    std::vector<uint64_t> result;
    for (size_t i = 0; i < values.size(); ++i)
      result.push_back(word(values[i], name(key) + "[" + std::to_string(i) + "]"));
    return result;
  }

  [[noreturn]] static void fail(const std::string& message) { throw std::runtime_error(message); }

 private:
  std::string name(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  static std::vector<double> numbers(const CheckpointJson& values, const std::string& name) {
    std::vector<double> result;
    result.reserve(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      try {
        result.push_back(exactDouble(values[i]));
      } catch (const std::runtime_error& error) {
        fail("'" + name + "[" + std::to_string(i) + "]': " + error.what());
      }
    }
    return result;
  }
  static uint64_t word(const CheckpointJson& value, const std::string& name) {
    if (!value.is_number_unsigned()) fail("'" + name + "' must be an unsigned 64-bit integer");
    return value.get<uint64_t>();
  }

  const CheckpointJson& object_;
  std::string path_;
};

}  // namespace scl
