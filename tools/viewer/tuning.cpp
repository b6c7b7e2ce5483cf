#include "tools/viewer/tuning.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/files.h"
#include "optimize/optimizer.h"
#include "runtime/output_files.h"
#include "scl/lexer.h"
#include "scl/names.h"
#include "scl/printer.h"

namespace scl {

namespace {

// An objective that only resolves the optimizer's default box: x0 ± 1 scale (its
// duration and term are never used).
constexpr const char* kRangeObjective = "duration 1\nbounds relative 1\nterm 1 energy\n";

// Without the optimizer's box (a written value outside its natural limits, a scene the
// objective rejects): x ± max(|x|, 1).
ParameterSlider fallbackSlider(const Parameter& parameter) {
  const double scale = std::max(std::abs(parameter.value), 1.0);
  return {parameter.name, parameter.value, parameter.value, parameter.value - scale,
          parameter.value + scale};
}

}  // namespace

ParameterTuner::ParameterTuner(const std::string& source, const std::string& file,
                               const Program& program, const CompileOptions& options) {
  const ProblemResult resolved = makeProblem(source, file, kRangeObjective, "<sliders>", options);
  const bool boxed =
      resolved.problem && resolved.problem->initial.size() == program.parameters.size();
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    ParameterSlider slider = fallbackSlider(program.parameters[i]);
    if (boxed) {
      slider.lower = resolved.problem->lower[i];
      slider.upper = resolved.problem->upper[i];
    }
    sliders_.push_back(slider);
  }
}

bool ParameterTuner::set(size_t index, double value) {
  if (index >= sliders_.size() || !std::isfinite(value)) return false;
  ParameterSlider& slider = sliders_[index];
  const double clamped = std::clamp(value, slider.lower, slider.upper);
  if (clamped == slider.value) return false;
  slider.value = clamped;
  return true;
}

std::string ParameterTuner::setByName(std::string_view name, double value) {
  std::vector<Parameter> parameters;
  for (const ParameterSlider& slider : sliders_) parameters.push_back({slider.name, 0, 0, {}});
  const NameLookup parameter = lookupParameter(parameters, name);
  if (!parameter.ok()) return parameter.error;
  set(static_cast<size_t>(parameter.index()), value);
  return "";
}

bool ParameterTuner::assign(const std::vector<double>& values) {
  if (values.size() != sliders_.size()) return false;
  for (size_t i = 0; i < values.size(); ++i) {
    ParameterSlider& slider = sliders_[i];
    slider.value = values[i];
    slider.lower = std::min(slider.lower, values[i]);
    slider.upper = std::max(slider.upper, values[i]);
  }
  return true;
}

std::vector<double> ParameterTuner::values() const {
  std::vector<double> values;
  for (const ParameterSlider& slider : sliders_) values.push_back(slider.value);
  return values;
}

bool ParameterTuner::modified() const {
  return std::any_of(sliders_.begin(), sliders_.end(),
                     [](const ParameterSlider& slider) { return slider.value != slider.written; });
}

Program ParameterTuner::apply(const Program& base) const {
  Program program = base;
  if (program.parameters.size() == sliders_.size()) program.setParameters(values());
  return program;
}

WriteBackResult writeBackParameters(const std::string& path, const std::string& loadedSource,
                                    const Program& program, const std::vector<double>& values) {
  FileRead onDisk = readWholeFile(path);
  if (!onDisk) return {false, "not written: " + onDisk.error};
  // The loaded source is the file's text without its byte-order mark (as every reader
  // takes it); a mark on disk is kept in what is written.
  const bool byteOrderMark = stripByteOrderMark(onDisk.text);
  if (onDisk.text != loadedSource)
    return {false, "not written: " + path +
                       " changed on disk since it was loaded (save or reload it first)"};
  if (values.size() != program.parameters.size())
    return {false, "not written: the sliders do not match the script"};
  Program tuned = program;
  tuned.setParameters(values);
  try {
    writeFileAtomically(path, std::string(byteOrderMark ? kByteOrderMark : "") +
                                  substituteParameters(loadedSource, tuned));
  } catch (const std::exception& error) {
    return {false, std::string("not written: ") + error.what()};
  }
  std::string message = "wrote " + std::to_string(values.size()) + " @ value" +
                        (values.size() == 1 ? "" : "s") + " to " + path;
  return {true, message};
}

}  // namespace scl
