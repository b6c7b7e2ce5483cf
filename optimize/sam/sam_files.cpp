#include "optimize/sam/sam_files.h"

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "base/csv.h"
#include "base/files.h"
#include "optimize/checkpoint_json.h"
#include "optimize/optimizer.h"
#include "scl/printer.h"

namespace scl {

namespace {

constexpr const char* kCheckpointFormat = "scl-sam-checkpoint";
constexpr int kCheckpointVersion = 1;
constexpr const char* kModelFormat = "scl-sam-model";
// OptimizeError's exit codes (docs/cli.md, "Exit codes").
constexpr int kInputError = 1;
constexpr int kUsageError = 2;
constexpr int kFailure = 3;

std::string samplesHeader(const std::vector<std::string>& columns) {
  std::string header = "path,generation";
  for (const std::string& column : columns) header += "," + column;
  return header + ",compatible,objective";
}

// The "format" member of a JSON file of ours; "" when it has none, or not as a string.
std::string formatTag(const CheckpointJson& file) {
  if (!file.is_object()) return "";
  const auto found = file.find("format");
  return found != file.end() && found->is_string() ? found->get<std::string>() : "";
}

// Whether model.json's "columns" are `columns`, in order.
bool describesColumns(const CheckpointJson& description, const std::vector<std::string>& columns) {
  const auto found = description.find("columns");
  if (found == description.end() || !found->is_array() || found->size() != columns.size())
    return false;
  for (size_t i = 0; i < columns.size(); ++i)
    if (!(*found)[i].is_string() || (*found)[i].get<std::string>() != columns[i]) return false;
  return true;
}

// Element `index` of `row` (named `name` in errors), an integer in [0, highest].
int rowInteger(const CheckpointJson& row, size_t index, int highest, const std::string& name) {
  const CheckpointJson& value = row[index];
  if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > highest)
    CheckpointFields::fail("'" + name + "[" + std::to_string(index) +
                           "]' must be an integer from 0 to " + std::to_string(highest));
  return value.get<int>();
}

// One element of "points": path, generation, label (0 or 1), objective, coordinates.
SamPoint checkpointPoint(const CheckpointJson& row, const std::string& name) {
  constexpr int kIntMax = std::numeric_limits<int>::max();
  SamPoint point;
  point.path = rowInteger(row, 0, kIntMax, name);
  point.generation = rowInteger(row, 1, kIntMax, name);
  point.compatible = rowInteger(row, 2, 1, name) != 0;
  point.objective = exactDouble(row[3]);
  for (size_t d = 4; d < row.size(); ++d) {
    point.point.push_back(exactDouble(row[d]));
    if (!std::isfinite(point.point.back()))
      CheckpointFields::fail("'" + name + "[" + std::to_string(d) + "]' must be finite");
  }
  return point;
}

}  // namespace

// --- samples.csv -------------------------------------------------------------------------

std::string samplesCsv(const std::vector<std::string>& columns,
                       const std::vector<SamPoint>& points) {
  std::ostringstream out;
  out << samplesHeader(columns) << '\n';
  for (const SamPoint& point : points) {
    out << point.path << ',' << point.generation;
    for (double value : point.point) out << ',' << formatNumber(value);
    out << ',' << (point.compatible ? 1 : 0) << ',' << formatNumber(point.objective) << '\n';
  }
  return out.str();
}

int SamSamples::incompatibleCount() const {
  int count = 0;
  for (bool label : compatible) count += label ? 0 : 1;
  return count;
}

SamSamples readSamplesCsv(std::string_view text, const std::vector<std::string>& columns,
                          const std::string& fileName) {
  std::istringstream in{std::string(text)};
  const auto fail = [&](int number, const std::string& why) {
    return OptimizeError(kInputError, fileName + ":" + std::to_string(number) + ": " + why);
  };
  const std::string header = samplesHeader(columns);
  std::string line;
  if (!std::getline(in, line) || line != header)
    throw fail(1, "expected the header '" + header +
                      "' (samples of this problem, as scl sam sample writes them)");
  SamSamples samples;
  const size_t dimensions = columns.size();
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    // Counted first: a line of millions of fields is refused before it is split.
    const size_t fieldCount = countCsvFields(line);
    if (fieldCount != dimensions + 4)
      throw fail(number, "expected " + std::to_string(dimensions + 4) + " fields, found " +
                             std::to_string(fieldCount));
    const std::vector<std::string> fields = splitCsvLine(line);
    std::vector<double> point;
    for (size_t d = 0; d < dimensions; ++d) {
      const std::optional<double> value = parseFiniteNumber(fields[2 + d]);
      if (!value) throw fail(number, quoteForMessage(fields[2 + d]) + " is not a number");
      point.push_back(*value);
    }
    const std::string& label = fields[2 + dimensions];
    if (label != "0" && label != "1")
      throw fail(number, "the compatible column must be 0 or 1, not " + quoteForMessage(label));
    samples.points.push_back(std::move(point));
    samples.compatible.push_back(label == "1");
  }
  return samples;
}

// --- checkpoint.json ---------------------------------------------------------------------

std::filesystem::path samplingCheckpointPath(const std::filesystem::path& outDir) {
  return outDir / "checkpoint.json";
}

std::string samplingCheckpointText(const SamInputs& inputs, const SamplingState& state) {
  CheckpointJson rows = CheckpointJson::array();
  for (const SamPoint& point : state.points) {
    CheckpointJson row = {point.path, point.generation, point.compatible ? 1 : 0,
                          exactJson(point.objective)};
    for (double value : point.point) row.push_back(exactJson(value));
    rows.push_back(std::move(row));
  }
  const Character& character = *inputs.problem.program.character;
  const CheckpointJson checkpoint = {
      {"format", kCheckpointFormat},
      {"version", kCheckpointVersion},
      {"sources", sourcesHash(inputs.sources.scriptSource, inputs.sources.problemSource)},
      {"character", {{"name", character.name}, {"fingerprint", characterFingerprint(character)}}},
      {"seed", state.seed},
      {"wall_time", exactJson(state.wallTime)},
      {"points", std::move(rows)},
      {"sampler", state.sampler->serialize()}};
  return checkpoint.dump() + '\n';
}

SamplingState readSamplingCheckpoint(const SamInputs& inputs, const std::filesystem::path& outDir) {
  const std::filesystem::path path = samplingCheckpointPath(outDir);
  const FileRead file = readWholeFile(path);
  if (!file) throw OptimizeError(kUsageError, "checkpoint " + file.error);
  const CheckpointJson checkpoint = CheckpointJson::parse(file.text, nullptr, false);
  const auto malformed = [&](const std::string& why) {
    return OptimizeError(kFailure, "malformed checkpoint '" + path.string() + "': " + why);
  };
  if (checkpoint.is_discarded()) throw malformed("not JSON");
  if (formatTag(checkpoint) != kCheckpointFormat)
    throw malformed("not an scl sam sample checkpoint");
  SamplingState state;
  try {
    const CheckpointFields fields(checkpoint, "");
    fields.requireVersion(kCheckpointVersion);
    if (fields.text("sources") !=
        sourcesHash(inputs.sources.scriptSource, inputs.sources.problemSource))
      throw OptimizeError(kUsageError, "the checkpoint in '" + outDir.string() +
                                           "' was made for a different script or problem; "
                                           "resume with the same files");
    const Character& character = *inputs.problem.program.character;
    if (fields.object("character").text("fingerprint") != characterFingerprint(character))
      throw OptimizeError(kUsageError, "the checkpoint in '" + outDir.string() +
                                           "' was made with another character");
    state.seed = fields.word("seed");
    state.wallTime = fields.finite("wall_time", CheckpointFields::Sign::NotNegative);
    const size_t width = 4 + inputs.problem.columns.size();
    const CheckpointJson& rows = fields.array("points");
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!rows[i].is_array() || rows[i].size() != width)
        throw malformed("points[" + std::to_string(i) + "] must have " + std::to_string(width) +
                        " values");
      state.points.push_back(checkpointPoint(rows[i], "points[" + std::to_string(i) + "]"));
    }
    SamSamplerDef def = inputs.problem.sampler;
    def.seed = state.seed;
    state.sampler = std::make_unique<SamSampler>(def, fields.at("sampler"));
  } catch (const OptimizeError&) {
    throw;
  } catch (const std::exception& error) {
    throw malformed(error.what());
  }
  return state;
}

// --- model.json --------------------------------------------------------------------------

std::string samModelDescription(const SamProblem& problem, const SamModel& model,
                                const SamTraining& training) {
  const SamModelDef& def = training.def;
  const SamCrossValidation& validation = training.validation;
  const CheckpointJson description = {{"format", kModelFormat},
                                      {"version", 1},
                                      {"columns", problem.columns},
                                      {"states", problem.def.states.size()},
                                      {"scale", exactJson(problem.sampler.scale)},
                                      {"lower", exactJson(problem.sampler.lower)},
                                      {"upper", exactJson(problem.sampler.upper)},
                                      {"svm",
                                       {{"cost", def.cost},
                                        {"gamma", def.gamma},
                                        {"compatible_weight", def.compatibleWeight},
                                        {"incompatible_weight", def.incompatibleWeight}}},
                                      {"samples", training.samples},
                                      {"incompatible", training.incompatible},
                                      {"support_vectors", model.supportVectorCount()},
                                      {"cross_validation",
                                       {{"folds", training.folds},
                                        {"accuracy", validation.accuracy()},
                                        {"compatible_correct", validation.compatibleCorrect},
                                        {"compatible_total", validation.compatibleTotal},
                                        {"incompatible_correct", validation.incompatibleCorrect},
                                        {"incompatible_total", validation.incompatibleTotal}}}};
  return description.dump(2) + "\n";
}

void checkSamModelDescription(std::string_view text, const SamProblem& problem,
                              const std::filesystem::path& dir) {
  const CheckpointJson description = CheckpointJson::parse(text, nullptr, false);
  if (formatTag(description) != kModelFormat)
    throw OptimizeError(kInputError, "'" + (dir / "model.json").string() +
                                         "' is not a model description written by scl sam train");
  if (!describesColumns(description, problem.columns))
    throw OptimizeError(kInputError,
                        "the model in '" + dir.string() +
                            "' was trained for other columns than this problem's; train it again "
                            "(scl sam train)");
}

SamModel readSamModel(const std::string& text, const SamProblem& problem,
                      const std::filesystem::path& dir) {
  try {
    return SamModel::fromText(text, problem.sampler.scale);
  } catch (const std::runtime_error& error) {
    throw OptimizeError(kInputError, "'" + (dir / "model.svm").string() + "': " + error.what());
  }
}

}  // namespace scl
