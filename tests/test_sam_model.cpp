// The state-action model's learning (libsvm, optimize/sam/sam_model.h) and querying
// (optimize/sam/sam_query.h) on synthetic problems whose compatible region is known.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "base/thread_pool.h"
#include "optimize/random.h"
#include "optimize/sam/sam_model.h"
#include "optimize/sam/sam_query.h"

namespace {

using scl::SamModel;

// State s in [0, 1] (scale 2), actions (a, b) in [0, 100]² (scale 1/25): compatible when
// the action lies within 30 of the centre (50, 20 + 40 s), i.e. a disc that moves with s.
// Only states above 0.2 have any compatible action.
bool truth(const std::vector<double>& p) {
  if (p[0] < 0.2) return false;
  const double da = p[1] - 50.0, db = p[2] - (20.0 + 40.0 * p[0]);
  return std::sqrt(da * da + db * db) < 30.0;
}

const std::vector<double> kScale = {2.0, 1.0 / 25.0, 1.0 / 25.0};
const std::vector<double> kLower = {0.0, 0.0, 0.0}, kUpper = {1.0, 100.0, 100.0};

struct Data {
  std::vector<std::vector<double>> points;
  std::vector<bool> labels;
};

Data sample(int count, uint64_t seed) {
  scl::Random random(seed);
  Data data;
  for (int i = 0; i < count; ++i) {
    std::vector<double> p(3);
    for (size_t d = 0; d < 3; ++d) p[d] = kLower[d] + (kUpper[d] - kLower[d]) * random.uniform();
    data.labels.push_back(truth(p));
    data.points.push_back(std::move(p));
  }
  return data;
}

double accuracy(const SamModel& model, const Data& data) {
  int right = 0;
  for (size_t i = 0; i < data.points.size(); ++i)
    right += model.compatible(data.points[i]) == data.labels[i] ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(data.points.size());
}

}  // namespace

TEST_CASE("sam model: learns a known region and predicts unseen points", "[sam][model]") {
  const Data train = sample(1500, 1), test = sample(1000, 2);
  const SamModel model = SamModel::train(train.points, train.labels, kScale);
  CHECK(model.dimensions() == 3);
  CHECK(model.supportVectorCount() > 0);
  CHECK(model.supportVectorCount() < 1500);
  CHECK(accuracy(model, test) > 0.93);
  // The vectorized decision function is libsvm's.
  for (const auto& p : test.points)
    CHECK(model.decision(p) == Approx(model.libsvmDecision(p)).margin(1e-9));
  // Deep inside and far outside.
  CHECK(model.decision({0.8, 50.0, 52.0}) > 0.0);
  CHECK(model.decision({0.8, 5.0, 95.0}) < 0.0);
  CHECK(model.decision({0.05, 50.0, 22.0}) < 0.0);  // a state with no compatible action
  // The compatible support vectors are where the compatible training points are.
  const auto vectors = model.compatibleSupportVectors();
  REQUIRE(!vectors.empty());
  int nearTruth = 0;
  for (const auto& v : vectors) nearTruth += truth(v) ? 1 : 0;
  CHECK(nearTruth > static_cast<int>(vectors.size()) * 8 / 10);
}

TEST_CASE("sam model: the saved text reads back to the same predictions", "[sam][model]") {
  const Data train = sample(600, 3), test = sample(200, 4);
  const SamModel model = SamModel::train(train.points, train.labels, kScale);
  const std::string text = model.text();
  CHECK(text.rfind("svm_type c_svc\nkernel_type rbf\ngamma 4\n", 0) == 0);
  const SamModel loaded = SamModel::fromText(text, kScale);
  CHECK(loaded.supportVectorCount() == model.supportVectorCount());
  for (const auto& p : test.points)
    CHECK(loaded.decision(p) == Approx(model.decision(p)).margin(1e-6));
  CHECK_THROWS_AS(SamModel::fromText("svm_type nonsense\n", kScale), std::runtime_error);
  CHECK_THROWS_AS(SamModel::fromText(text, {1.0}), std::runtime_error);  // 3-D vectors
}

TEST_CASE("sam model: weights, C and gamma change the model, bad data is refused", "[sam][model]") {
  const Data train = sample(600, 5);
  scl::SamModelDef heavy;
  heavy.incompatibleWeight = 4.0;
  heavy.cost = 1.0;
  scl::SamModelDef soft;  // a soft margin (on separable data, weights do not matter)
  soft.cost = 1.0;
  soft.incompatibleWeight = 1.0;
  const SamModel plain = SamModel::train(train.points, train.labels, kScale, soft);
  const SamModel cautious = SamModel::train(train.points, train.labels, kScale, heavy);
  // Weighing incompatible points more shrinks the predicted compatible region.
  const Data probe = sample(2000, 6);
  int plainYes = 0, cautiousYes = 0;
  for (const auto& p : probe.points) {
    plainYes += plain.compatible(p) ? 1 : 0;
    cautiousYes += cautious.compatible(p) ? 1 : 0;
  }
  CHECK(cautiousYes < plainYes);
  CHECK_THROWS_AS(SamModel::train(train.points, std::vector<bool>(600, true), kScale),
                  std::invalid_argument);
  CHECK_THROWS_AS(SamModel::train(train.points, std::vector<bool>(599, true), kScale),
                  std::invalid_argument);
  Data broken = train;
  broken.points[7][1] = std::nan("");
  CHECK_THROWS_AS(SamModel::train(broken.points, broken.labels, kScale), std::invalid_argument);
  scl::SamModelDef negative;
  negative.gamma = -1.0;
  CHECK_THROWS_AS(SamModel::train(train.points, train.labels, kScale, negative),
                  std::invalid_argument);
}

TEST_CASE("sam model: k-fold cross-validation, the same for any thread count", "[sam][model]") {
  const Data data = sample(800, 7);
  scl::ThreadPool one(1), two(2);
  const auto a = scl::crossValidate(data.points, data.labels, kScale, {}, 5, 1, one);
  const auto b = scl::crossValidate(data.points, data.labels, kScale, {}, 5, 1, two);
  CHECK(a.folds == 5);
  CHECK(a.compatibleTotal + a.incompatibleTotal == 800);
  CHECK(a.accuracy() > 0.9);
  CHECK(a.accuracy() < 1.0);  // the boundary is learned, not memorised
  CHECK(a.compatibleCorrect == b.compatibleCorrect);
  CHECK(a.incompatibleCorrect == b.incompatibleCorrect);
  CHECK_THROWS_AS(scl::crossValidate(data.points, data.labels, kScale, {}, 1, 1, one),
                  std::invalid_argument);
  // One incompatible point: the folds trained without it predict "compatible".
  std::vector<bool> single(data.labels.size(), true);
  single[3] = false;
  const auto lonely = scl::crossValidate(data.points, single, kScale, {}, 5, 1, two);
  CHECK(lonely.incompatibleTotal == 1);
  CHECK(lonely.incompatibleCorrect == 0);
  CHECK(lonely.compatibleCorrect >= lonely.compatibleTotal - 5);
}

TEST_CASE("sam query: n diverse actions the model predicts compatible", "[sam][query]") {
  const Data train = sample(2500, 8);
  const SamModel model = SamModel::train(train.points, train.labels, kScale);
  const scl::SamSpace space{1, kLower, kUpper, kScale};
  scl::SamQueryDef def;
  def.clearance = 0.4;  // a third of the disc's radius (1.2 scaled)
  for (double s : {0.3, 0.6, 0.9}) {
    INFO("state " << s);
    const scl::SamQueryResult result = scl::samQuery(model, space, {s}, def);
    CHECK(result.stateReached);
    REQUIRE(result.actions.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
      CHECK(result.predictedCompatible[i]);
      CHECK(result.decisions[i] > 0.0);
      CHECK(truth({s, result.actions[i][0], result.actions[i][1]}));
      for (size_t j = i + 1; j < 3; ++j) {
        // Spread over the disc of radius 30 (1.2 scaled): far apart, not clumped.
        const double distance =
            scl::scaledDistance({s, result.actions[i][0], result.actions[i][1]},
                                {s, result.actions[j][0], result.actions[j][1]}, kScale, 1, 2);
        CHECK(distance > 0.8);
      }
    }
    CHECK(result.evaluations > 100);
  }
  // Deterministic for a seed; another seed may pick other actions.
  const auto first = scl::samQuery(model, space, {0.6}, def);
  const auto again = scl::samQuery(model, space, {0.6}, def);
  CHECK(first.actions == again.actions);
  // A single action is allowed (no neighbour to be far from).
  def.count = 1;
  CHECK(scl::samQuery(model, space, {0.6}, def).actions.size() == 1);
}

TEST_CASE("sam query: a situation where nothing works, and bad requests", "[sam][query]") {
  const Data train = sample(1500, 9);
  const SamModel model = SamModel::train(train.points, train.labels, kScale);
  const scl::SamSpace space{1, kLower, kUpper, kScale};
  // Below 0.2 no action is compatible: the query says so and names the nearest state.
  const scl::SamQueryResult result = scl::samQuery(model, space, {0.05}, {});
  CHECK_FALSE(result.stateReached);
  CHECK(result.seedPoint[0] > 0.1);
  CHECK(result.seedPoint[0] < 0.35);
  CHECK_THROWS_AS(scl::samQuery(model, space, {1.5}, {}), std::invalid_argument);
  CHECK_THROWS_AS(scl::samQuery(model, space, {0.5, 0.5}, {}), std::invalid_argument);
  scl::SamQueryDef none;
  none.count = 0;
  CHECK_THROWS_AS(scl::samQuery(model, space, {0.5}, none), std::invalid_argument);
}

TEST_CASE("sam model: an edited or truncated model file is refused before libsvm reads it",
          "[sam][model]") {
  const Data train = sample(300, 10);
  const std::string text = SamModel::train(train.points, train.labels, kScale).text();
  // `text` with the line that begins with `key` replaced by `line` ("" removes it).
  const auto replaced = [&](const std::string& key, const std::string& line) {
    const size_t at = text.find("\n" + key) + 1;
    const size_t end = text.find('\n', at) + 1;
    return text.substr(0, at) + (line.empty() ? "" : line + "\n") + text.substr(end);
  };
  const auto refusal = [&](const std::string& edited) -> std::string {
    try {
      SamModel::fromText(edited, kScale);
    } catch (const std::runtime_error& error) {
      return error.what();
    }
    return "";
  };
  REQUIRE(refusal(text).empty());
  const std::string total = text.substr(text.find("total_sv ") + 9);
  const int supportVectors = std::stoi(total);
  // The six edits that once crashed `scl sam query`, and a file cut in half.
  CHECK(refusal(replaced("label", "")) ==
        "line 7: expected the 'label' line, found 'nr_sv " +
            text.substr(text.find("nr_sv ") + 6, text.find("\nSV") - text.find("nr_sv ") - 6) +
            "'");
  CHECK(refusal(replaced("rho", "rho nan")) == "line 6: rho must be a finite number, not 'nan'");
  const size_t firstVector = text.find("\nSV\n") + 4;
  std::string nanValue = text;
  nanValue.replace(nanValue.find("1:", firstVector), 2, "1:nan ");
  CHECK_THAT(refusal(nanValue), Catch::StartsWith("line 10: the value of '1:nan"));
  CHECK(refusal(replaced("nr_class", "nr_class 100000000")) ==
        "line 4: nr_class (a two-class model) must be an integer from 2 to 2, not '100000000'");
  CHECK(refusal(replaced("total_sv", "total_sv 1000000000")) == "line 8: the nr_sv counts sum to " +
                                                                    std::to_string(supportVectors) +
                                                                    ", not total_sv 1000000000");
  CHECK(refusal(replaced("nr_sv", "nr_sv 3000 29")) ==
        "line 8: the nr_sv counts sum to 3029, not total_sv " + std::to_string(supportVectors));
  CHECK_THAT(refusal(text.substr(0, text.size() / 2)), Catch::Contains("(truncated?)"));
  // Cut at a line's end, with a line too many, a coordinate beyond the problem's.
  const std::string withoutLast = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  CHECK(refusal(withoutLast) == "the file ends after " + std::to_string(supportVectors - 1) +
                                    " of total_sv " + std::to_string(supportVectors) +
                                    " support vectors (truncated?)");
  CHECK_THAT(refusal(text + "1 1:0.5\n"), Catch::Contains("more support vectors than total_sv"));
  CHECK_THAT(refusal(text.substr(0, text.size() - 1) + "4:0.5\n"),
             Catch::Contains("at most the problem's 3 dimensions"));
  CHECK_THAT(refusal(replaced("label", "label 1 1")),
             Catch::Contains("the labels must be 1 and -1"));
  CHECK_THAT(refusal(replaced("gamma", "gamma -4")), Catch::Contains("gamma must be positive"));
  // A 1 MB number is quoted by its first 80 bytes.
  const std::string huge = refusal(replaced("rho", "rho " + std::string(1 << 20, '7') + "x"));
  CHECK_THAT(huge, Catch::Contains("(1048577 bytes)"));
  CHECK(huge.size() < 200);
}
