// The viewer's live `@` sliders (docs/viewer.md, Tuning): one slider per `@` number of
// the running script, its range the optimizer's default box (the written value ± its
// scale, within the parameter's natural limits), and the write-back that puts the values
// into the script file with the `@` kept. No SFML, so it can be tested headless.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scl/compile.h"
#include "scl/program.h"

namespace scl {

/// One `@` number as a slider, script units (degrees, seconds, newtons, ...).
struct ParameterSlider {
  /// Parameter::name, e.g. "lean.pd.waist".
  std::string name;
  /// The value written in the script.
  double written = 0.0;
  /// The slider's value.
  double value = 0.0;
  /// The slider's range: the written value ± its scale, within the natural limits.
  double lower = 0.0;
  double upper = 0.0;
};

/// The sliders of one version of the script.
class ParameterTuner {
 public:
  ParameterTuner() = default;
  /// The sliders of `program`, compiled from `source` (named `file`) with `options`: the
  /// ranges are `scl optimize`'s default box with `bounds relative 1`
  /// (docs/objectives.md, Bounds and natural limits).
  ParameterTuner(const std::string& source, const std::string& file, const Program& program,
                 const CompileOptions& options);

  const std::vector<ParameterSlider>& sliders() const { return sliders_; }
  /// Sets slider `index` to `value` clamped into its range; false when nothing changed.
  bool set(size_t index, double value);
  /// Sets the slider named `name` as set() does; "" when done, else the error with the
  /// closest name ("unknown parameter 'x'; did you mean 'y'? ...").
  std::string setByName(std::string_view name, double value);
  /// Sets every slider (slot order, script units; e.g. an optimizer's best), widening a
  /// range that does not hold its value; false (nothing set) when the count differs.
  bool assign(const std::vector<double>& values);
  /// The sliders' values in slot order, script units.
  std::vector<double> values() const;
  /// True when a slider differs from its written value.
  bool modified() const;
  /// `base` (the program the sliders were made for) with the sliders' values.
  Program apply(const Program& base) const;

 private:
  std::vector<ParameterSlider> sliders_;
};

/// What a write-back did.
struct WriteBackResult {
  bool written = false;
  /// For the status band: what was written, or why nothing was.
  std::string message;
};

/// Writes the script at `path` with `values` (script units, slot order) at its `@`
/// numbers (substituteParameters: the `@` kept, every other byte as it was), atomically.
/// `program` was compiled from `loadedSource`, the text loaded from `path`; when the
/// file's text is no longer that (changed on disk since), nothing is written.
WriteBackResult writeBackParameters(const std::string& path, const std::string& loadedSource,
                                    const Program& program, const std::vector<double>& values);

}  // namespace scl
