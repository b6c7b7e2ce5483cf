// The files of a `scl sam` output directory (optimize/sam/sam_files.h), the inputs they
// are made for (sam_inputs.h) and the MPI job (sampling_job.h): what is written reads back
// exactly, and every malformed file is an error with its exit code and its place.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.h"
#include "optimize/optimizer.h"
#include "optimize/sam/sam_files.h"
#include "optimize/sam/sam_inputs.h"
#include "optimize/sam/sampling_job.h"
#include "runtime/output_files.h"
#include "test_support.h"

namespace {

using scl::testing::readText;
using scl::testing::TempDir;

scl::SamSources thesisSources() {
  scl::SamSources sources;
  sources.scriptFile = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand-sam.scl";
  sources.scriptSource = readText(sources.scriptFile);
  sources.problemFile = SCL_SOURCE_DIR "/scripts/optimize/sit-to-stand.problem";
  sources.problemSource = readText(sources.problemFile);
  return sources;
}

scl::SamInputs thesisInputs() {
  scl::SamInputsResult made = scl::makeSamInputs(thesisSources());
  INFO(made.messages);
  REQUIRE(made.inputs);
  return std::move(*made.inputs);
}

const std::vector<std::string> kColumns = {"height", "lean.pd.waist"};

scl::SamPoint point(int path, int generation, std::vector<double> coordinates, bool compatible,
                    double objective) {
  return {path, generation, std::move(coordinates), compatible, objective};
}

// The message and exit code of what `read` throws ("" and 0 when it does not throw).
template <typename Read>
std::pair<std::string, int> failure(Read&& read) {
  try {
    read();
  } catch (const scl::OptimizeError& error) {
    return {error.what(), error.exitCode()};
  }
  return {"", 0};
}

}  // namespace

TEST_CASE("sam files: samples.csv reads back what it wrote", "[sam]") {
  const std::vector<scl::SamPoint> points = {point(0, 1, {0.45, 30.125}, true, -1.5),
                                             point(3, 2, {0.1 + 0.2, 1e-7}, false, -1e6)};
  const std::string text = scl::samplesCsv(kColumns, points);
  CHECK(text.substr(0, text.find('\n')) ==
        "path,generation,height,lean.pd.waist,compatible,"
        "objective");
  CHECK(text.find("\n3,2,") != std::string::npos);
  const scl::SamSamples samples = scl::readSamplesCsv(text, kColumns, "s.csv");
  REQUIRE(samples.points.size() == 2);
  CHECK(samples.points[0] == points[0].point);
  CHECK(samples.points[1] == points[1].point);  // shortest exact decimals: bit-identical
  CHECK(samples.compatible == std::vector<bool>{true, false});
  CHECK(samples.incompatibleCount() == 1);
}

TEST_CASE("sam files: a malformed samples.csv names its line", "[sam]") {
  const std::string header = "path,generation,height,lean.pd.waist,compatible,objective\n";
  const auto read = [](const std::string& text) {
    return failure([&] { scl::readSamplesCsv(text, kColumns, "s.csv"); });
  };
  CHECK(read("path,generation,height,compatible,objective\n") ==
        std::pair<std::string, int>{
            "s.csv:1: expected the header '" + header.substr(0, header.size() - 1) +
                "' (samples of this problem, as scl sam sample writes them)",
            1});
  CHECK(read(header + "0,1,0.4,3,1,0\n\n0,1,0.4,1,0\n").first ==
        "s.csv:4: expected 6 fields, found 5");
  CHECK(read(header + "0,1,0.4,x,1,0\n").first == "s.csv:2: 'x' is not a number");
  CHECK(read(header + "0,1,0.4,inf,1,0\n").first == "s.csv:2: 'inf' is not a number");
  CHECK(read(header + "0,1,0.4,3,2,0\n").first ==
        "s.csv:2: the compatible column must be 0 or 1, not '2'");
  CHECK(read(header).first.empty());
  // A field of a megabyte is quoted by its first 80 bytes; a line of a million fields is
  // counted, not split.
  CHECK(read(header + "0,1,0.4," + std::string(1 << 20, '7') + "x,1,0\n").first ==
        "s.csv:2: '" + std::string(80, '7') + "\u2026' (1048577 bytes) is not a number");
  CHECK(read(header + std::string(1 << 20, ',') + "\n").first ==
        "s.csv:2: expected 6 fields, found 1048577");
}

TEST_CASE("sam files: the sampling checkpoint reads back exactly, for its inputs only", "[sam]") {
  const scl::SamInputs inputs = thesisInputs();
  const TempDir dir;
  scl::SamplingState state;
  state.seed = 7;
  state.wallTime = 0.1 + 0.2;
  state.points = {point(1, 1, {0.45, 30, 20}, true, -0.25),
                  point(2, 1, {0.3, 1e-9, 90}, false, -1e6)};
  state.sampler = std::make_unique<scl::SamSampler>(inputs.problem.sampler);
  const std::string text = scl::samplingCheckpointText(inputs, state);
  scl::writeFileAtomically(scl::samplingCheckpointPath(dir.path()), text);

  const scl::SamplingState read = scl::readSamplingCheckpoint(inputs, dir.path());
  CHECK(read.seed == 7);
  CHECK(read.wallTime == state.wallTime);
  REQUIRE(read.points.size() == 2);
  CHECK(read.points[1].point == state.points[1].point);
  CHECK(read.points[1].objective == -1e6);
  CHECK_FALSE(read.points[1].compatible);
  CHECK(read.points[1].path == 2);
  CHECK(scl::samplingCheckpointText(inputs, read) == text);

  scl::SamSources edited = thesisSources();
  edited.problemSource += "\n";
  const scl::SamInputs other{edited, thesisInputs().problem};
  const auto [mismatch, mismatchCode] =
      failure([&] { scl::readSamplingCheckpoint(other, dir.path()); });
  CHECK(mismatch.find("was made for a different script or problem") != std::string::npos);
  CHECK(mismatchCode == 2);

  // A format that is no string is a malformed checkpoint too, not a JSON library's error.
  scl::writeFileAtomically(scl::samplingCheckpointPath(dir.path()), "{\"format\": 1}");
  const auto [malformed, malformedCode] =
      failure([&] { scl::readSamplingCheckpoint(inputs, dir.path()); });
  CHECK(malformed == "malformed checkpoint '" + scl::samplingCheckpointPath(dir.path()).string() +
                         "': not an scl sam sample checkpoint");
  CHECK(malformedCode == 3);

  // Fields a run never writes are refused, naming the field.
  const auto refusal = [&](const auto& edit) {
    nlohmann::ordered_json json = nlohmann::ordered_json::parse(text);
    edit(json);
    scl::writeFileAtomically(scl::samplingCheckpointPath(dir.path()), json.dump());
    return failure([&] { scl::readSamplingCheckpoint(inputs, dir.path()); }).first;
  };
  using Json = nlohmann::ordered_json;
  CHECK_THAT(refusal([](Json& c) { c["wall_time"] = "nan"; }),
             Catch::EndsWith("'wall_time' must be a non-negative finite number, not nan"));
  CHECK_THAT(refusal([](Json& c) { c["version"] = "1"; }),
             Catch::EndsWith("'version' must be an integer (this scl reads version 1)"));
  CHECK_THAT(refusal([](Json& c) { c["points"][0][2] = 7; }),
             Catch::EndsWith("'points[0][2]' must be an integer from 0 to 1"));
  CHECK_THAT(refusal([](Json& c) { c["points"][0][0] = 1e300; }),
             Catch::EndsWith("'points[0][0]' must be an integer from 0 to 2147483647"));
}

TEST_CASE("sam files: model.json is checked against the problem's columns", "[sam]") {
  scl::SamInputs inputs = thesisInputs();
  const std::vector<std::vector<double>> points = {
      {0.2, 10, 10}, {0.3, 20, 20}, {0.6, 80, 170}, {0.7, 85, 175}};
  const scl::SamModel model =
      scl::SamModel::train(points, {true, true, false, false}, inputs.problem.sampler.scale);
  scl::SamTraining training;
  training.samples = points.size();
  training.incompatible = 2;
  const std::string description = scl::samModelDescription(inputs.problem, model, training);
  CHECK(description.find("\"format\": \"scl-sam-model\"") != std::string::npos);
  CHECK_NOTHROW(scl::checkSamModelDescription(description, inputs.problem, "out"));
  CHECK(failure([&] { scl::checkSamModelDescription("[]", inputs.problem, "out"); }) ==
        std::pair<std::string, int>{
            "'out/model.json' is not a model description written by scl sam train", 1});
  CHECK(failure([&] {
          scl::checkSamModelDescription(R"({"format": "scl-sam-model", "columns": [1]})",
                                        inputs.problem, "out");
        }).first.find("was trained for other columns") != std::string::npos);
  inputs.problem.columns.back() = "lean.pd.neck";
  CHECK(failure([&] {
          scl::checkSamModelDescription(description, inputs.problem, "out");
        }).first.find("was trained for other columns") != std::string::npos);
  CHECK(scl::readSamModel(model.text(), inputs.problem, "out").supportVectorCount() ==
        model.supportVectorCount());
  CHECK(failure([&] {
          scl::readSamModel("no model", inputs.problem, "out");
        }).first.rfind("'out/model.svm': ", 0) == 0);
}

TEST_CASE("sam inputs: errors of the script, the problem and their binding", "[sam]") {
  scl::SamSources sources = thesisSources();
  sources.problemSource += "action no.such.parameter 0 1 scale 1\n";
  const scl::SamInputsResult unbound = scl::makeSamInputs(sources);
  CHECK_FALSE(unbound.inputs);
  CHECK(unbound.messages.find("no.such.parameter") != std::string::npos);
  CHECK(unbound.messages.back() == '\n');

  sources = thesisSources();
  sources.problemSource += "stat height\n";
  const scl::SamInputsResult misspelt = scl::makeSamInputs(sources);
  CHECK_FALSE(misspelt.inputs);
  CHECK(misspelt.messages.find("did you mean 'state'") != std::string::npos);
}

TEST_CASE("sam inputs: a queried action's script carries its numbers and situation", "[sam]") {
  const scl::SamInputs inputs = thesisInputs();
  const std::string script = scl::samActionScript(inputs, {0.25, 42.5, 17});
  CHECK(script.find("@42.5") != std::string::npos);
  CHECK(script.find("@17") != std::string::npos);
  CHECK(script.find("height: 0.25") != std::string::npos);
  const scl::Program program = scl::testing::compileOk(script, "action.scl");
  CHECK(program.parameters.size() == inputs.problem.program.parameters.size());
}

TEST_CASE("sampling job: a worker rank binds the problem rank 0 sent", "[sam]") {
  const scl::SamInputs inputs = thesisInputs();
  const scl::SamplingJob job = scl::readSamplingJob(scl::samplingJobText(inputs, 3));
  CHECK(job.threads == 3);
  REQUIRE(job.problem);
  CHECK(job.problem->columns == inputs.problem.columns);
  CHECK(job.problem->sampler.start == inputs.problem.sampler.start);

  nlohmann::json broken = nlohmann::json::parse(scl::samplingJobText(inputs, 0));
  broken["fingerprint"] = "another body";
  CHECK_THROWS_WITH(scl::readSamplingJob(broken.dump()),
                    Catch::Contains("its character differs from rank 0's"));
  broken["problem"] = "state";
  CHECK_THROWS_WITH(scl::readSamplingJob(broken.dump()),
                    "the script or the problem does not compile here");
}
