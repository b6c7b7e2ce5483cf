#include "tools/plot/plot_data.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "base/csv.h"
#include "base/format.h"
#include "runtime/metrics.h"

namespace scl {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
void eraseFront(std::vector<T>& values, size_t count) {
  values.erase(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(count));
}

template <typename T>
void keepFirst(std::vector<T>& values, size_t count) {
  if (values.size() > count) values.resize(count);
}

// Applies `apply(vector)` to every per-sample vector of `data`.
template <typename Apply>
void forEachSeries(PlotData& data, Apply apply) {
  apply(data.time);
  for (auto& series : data.angleDeg) apply(series);
  for (auto& series : data.targetDeg) apply(series);
  for (auto& series : data.torque) apply(series);
  apply(data.comX);
  apply(data.comHeight);
  apply(data.headHeight);
  apply(data.supportLow);
  apply(data.supportHigh);
  for (auto& series : data.heelHeight) apply(series);
  for (auto& series : data.toeHeight) apply(series);
  for (auto& series : data.handHeight) apply(series);
  for (auto& series : data.contact) apply(series);
  for (PlotObject& object : data.objects) {
    apply(object.x);
    apply(object.y);
    apply(object.angleDeg);
  }
}

}  // namespace

void PlotData::truncateAfter(double until) {
  const auto kept =
      static_cast<size_t>(std::upper_bound(time.begin(), time.end(), until + 1e-9) - time.begin());
  forEachSeries(*this, [kept](auto& series) { keepFirst(series, kept); });
  // The first phase mark stays: it is the phase in force at the start.
  while (phases.size() > 1 && phases.back().time > until + 1e-9) phases.pop_back();
}

void PlotData::dropFront(size_t count) {
  count = std::min(count, size());
  forEachSeries(*this,
                [count](auto& series) { eraseFront(series, std::min(count, series.size())); });
  if (time.empty()) return;
  // Keep the last mark at or before the new first sample: the phase in force then.
  size_t first = 0;
  while (first + 1 < phases.size() && phases[first + 1].time <= time.front()) ++first;
  phases.erase(phases.begin(), phases.begin() + static_cast<std::ptrdiff_t>(first));
}

std::array<double, 2> supportRegion(const Character& character, const CharacterState& state) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (int foot : character.roles.feet()) {
    const LinkState& link = state.links[foot];
    if (!link.contact) continue;
    const LinkDef& def = character.links[foot];
    const Vec2 distal = link.origin + def.length * linkAxis(character, foot, link.angle);
    const double proximalRadius = 0.5 * def.proximalThickness;
    const double distalRadius = 0.5 * def.distalThickness;
    low = std::min({low, link.origin.x() - proximalRadius, distal.x() - distalRadius});
    high = std::max({high, link.origin.x() + proximalRadius, distal.x() + distalRadius});
  }
  if (low > high) return {kNaN, kNaN};
  return {low, high};
}

PlotRecorder::PlotRecorder(const Character& character, double rate, double timeStep,
                           double maxSeconds)
    : character_(&character),
      rate_(rate),
      timeStep_(timeStep),
      maxSamples_(static_cast<size_t>(std::min(maxSeconds * rate, 1e12)) + 1) {
  for (int joint = 0; joint < character.jointCount(); ++joint)
    data_.torqueLimit[static_cast<size_t>(joint)] = character.joints[joint].maxTorque;
  for (const JointDef& joint : character.joints) data_.jointNames.push_back(joint.name);
  for (const LinkDef& link : character.links) data_.linkNames.push_back(link.name);
}

void PlotRecorder::trackObjects(std::span<const SceneBodyDef> bodies,
                                std::span<const WorldBodyState> world) {
  objectParts_.clear();
  data_.objects.clear();
  for (const WorldParts& parts : worldParts(world)) {
    const auto body = static_cast<size_t>(parts.sceneBody);
    objectParts_.push_back(parts);
    data_.objects.push_back(
        {body < bodies.size() ? bodies[body].name : "body" + std::to_string(body), {}, {}, {}});
    // Samples taken before (none, when called first) have no place: NaN.
    PlotObject& object = data_.objects.back();
    for (std::vector<double>* series : {&object.x, &object.y, &object.angleDeg})
      series->assign(data_.size(), kNaN);
  }
}

void PlotRecorder::observe(const StepView& step) {
  const StepReport* report = step.report;
  observe({step.state, step.phase, step.phaseName, report && report->phaseStarted,
           report && report->phaseTimedOut, report ? &report->targets : nullptr, step.torques},
          false, step.world);
}

void PlotRecorder::observe(const PlotSample& sample, bool force,
                           std::span<const WorldBodyState> world) {
  const double time = sample.state.time;
  if (data_.phases.empty() || (sample.phaseStarted && data_.phases.back().index != sample.phase) ||
      (sample.phaseStarted && jumpPending_)) {
    // A phase begins at the start of its first step.
    const double began = data_.phases.empty() ? time : time - timeStep_;
    data_.phases.push_back(
        {began, sample.phase, std::string(sample.phaseName), sample.phaseTimedOut, jumpPending_});
    jumpPending_ = false;
  }
  const bool due = time + 0.5 * timeStep_ >= nextSample_ / rate_;
  if (!due && !force) return;
  if (!data_.time.empty() && time <= data_.time.back()) return;  // already sampled
  append(sample, world);
  // A double: a trajectory CSV's times (read at rate 1e9) may be any finite number, and
  // their sample index no integer type holds.
  nextSample_ = std::floor(time * rate_ + 0.5) + 1.0;
  if (data_.size() > 2 * maxSamples_) data_.dropFront(data_.size() - maxSamples_);
}

void PlotRecorder::append(const PlotSample& sample, std::span<const WorldBodyState> world) {
  const CharacterState& state = sample.state;
  const Character& character = *character_;
  data_.time.push_back(state.time);
  for (size_t joint = 0; joint < static_cast<size_t>(character.jointCount()); ++joint) {
    data_.angleDeg[joint].push_back(radToDeg(state.jointAngles[joint]));
    // Before the first step there is no target yet: the pose holds its own angles.
    data_.targetDeg[joint].push_back(
        radToDeg(sample.targets ? (*sample.targets)[joint] : state.jointAngles[joint]));
    data_.torque[joint].push_back(sample.torques[joint]);
  }
  data_.comX.push_back(state.com.x());
  data_.comHeight.push_back(state.com.y());
  data_.headHeight.push_back(MotionMetrics::headHeight(character, state));
  const auto [low, high] = supportRegion(*character_, state);
  data_.supportLow.push_back(low);
  data_.supportHigh.push_back(high);
  for (size_t side = 0; side < 2; ++side) {
    const SideRoles& roles = character.roles.sides[side];
    const FootPoints foot = footPoints(character, state, roles.foot);
    data_.heelHeight[side].push_back(foot.heel.y());
    data_.toeHeight[side].push_back(foot.toe.y());
    // A character without hands (a bird) plots no hand: NaN leaves a gap.
    data_.handHeight[side].push_back(roles.hand < 0
                                         ? std::numeric_limits<double>::quiet_NaN()
                                         : state.links[static_cast<size_t>(roles.hand)].com.y());
  }
  for (size_t link = 0; link < static_cast<size_t>(character.linkCount()); ++link)
    data_.contact[link].push_back(state.links[link].contact ? 1 : 0);
  for (size_t i = 0; i < objectParts_.size(); ++i) {
    const WorldParts& parts = objectParts_[i];
    PlotObject& object = data_.objects[i];
    if (static_cast<size_t>(parts.first) + static_cast<size_t>(parts.count) > world.size()) {
      object.x.push_back(kNaN);
      object.y.push_back(kNaN);
      object.angleDeg.push_back(kNaN);
      continue;
    }
    const ObjectState now = objectState(world, parts);
    object.x.push_back(now.position.x());
    object.y.push_back(now.position.y());
    object.angleDeg.push_back(radToDeg(now.angle));
  }
}

void PlotRecorder::truncateAfter(double time) {
  data_.truncateAfter(time);
  nextSample_ = std::floor(time * rate_ + 0.5) + 1.0;
  jumpPending_ = false;
}

void PlotRecorder::clear() {
  const auto limits = data_.torqueLimit;
  std::vector<std::string> jointNames = std::move(data_.jointNames);
  std::vector<std::string> linkNames = std::move(data_.linkNames);
  std::vector<PlotObject> objects = std::move(data_.objects);
  data_ = PlotData{};
  data_.torqueLimit = limits;
  data_.jointNames = std::move(jointNames);
  data_.linkNames = std::move(linkNames);
  for (PlotObject& object : objects) data_.objects.push_back({std::move(object.name), {}, {}, {}});
  nextSample_ = 0.0;
  jumpPending_ = false;
}

// --- trajectory CSV -------------------------------------------------------------------

namespace {

class CsvColumns {
 public:
  CsvColumns(const std::vector<std::string>& header, std::string character)
      : character_(std::move(character)) {
    for (size_t i = 0; i < header.size(); ++i) index_[header[i]] = i;
  }
  // The column's index; throws naming the column when the header lacks it. A CSV of the
  // run's columns but another body's joints and links (a bird's read as the human's) says
  // which character it was read as.
  size_t operator()(const std::string& name) const {
    const auto found = index_.find(name);
    if (found != index_.end()) return found->second;
    if (index_.count("time") && index_.count("root_x") && index_.count("com_x"))
      throw std::invalid_argument("line 1: no column " + quoteForMessage(name) +
                                  ": a trajectory of another character than '" + character_ +
                                  "'? (give its --character)");
    throw std::invalid_argument("line 1: no column " + quoteForMessage(name) +
                                " (not a trajectory CSV of 'scl run --out')");
  }

 private:
  std::unordered_map<std::string, size_t> index_;
  std::string character_;
};

// Far more than `scl run --out`'s columns (time, phase, root, centre of mass and three per
// joint or link, and three per part of the world: every body of a scene a chain of the
// most links), far fewer than a runaway line's.
constexpr size_t kMaxTrajectoryColumns =
    1000 + 3 * kMaxSceneBodies * static_cast<size_t>(kMaxChainLinks);

// The world's columns of a trajectory CSV (trajectory_csv.h, worldColumnPrefix()): per
// part `P.x`, `P.y`, `P.angle` with P a body's name, or `NAME.K` for link K of a chain.
struct CsvWorldPart {
  int body = 0;  // the object's index in PlotData::objects
  int part = 0;  // its link, from 0
  size_t x = 0, y = 0, angle = 0;
};

// The world's parts a header names, objects in their first column's order, a chain's
// links in their numbers' order; `bodies` gets one body per object (its name), the
// layout PlotRecorder::trackObjects() reads.
std::vector<CsvWorldPart> csvWorldParts(const std::vector<std::string>& header,
                                        std::vector<SceneBodyDef>& bodies) {
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < header.size(); ++i) index.emplace(header[i], i);
  std::vector<CsvWorldPart> parts;
  for (size_t i = 0; i < header.size(); ++i) {
    const std::string& column = header[i];
    if (column.size() <= 2 || column.compare(column.size() - 2, 2, ".x") != 0) continue;
    const std::string prefix = column.substr(0, column.size() - 2);
    const auto y = index.find(prefix + ".y"), angle = index.find(prefix + ".angle");
    if (y == index.end() || angle == index.end()) continue;
    std::string name = prefix;
    int part = 0;
    if (const size_t dot = prefix.find('.'); dot != std::string::npos) {
      const std::string_view number = std::string_view(prefix).substr(dot + 1);
      int value = 0;
      const auto [end, error] =
          std::from_chars(number.data(), number.data() + number.size(), value);
      if (error != std::errc() || end != number.data() + number.size() || value < 1) continue;
      name = prefix.substr(0, dot);
      part = value - 1;
    }
    const auto body = std::find_if(bodies.begin(), bodies.end(),
                                   [&](const SceneBodyDef& def) { return def.name == name; });
    if (body == bodies.end()) {
      SceneBodyDef def;
      def.kind = name == prefix ? SceneBodyKind::Box : SceneBodyKind::Chain;
      def.name = name;
      bodies.push_back(def);
    }
    const int bodyIndex =
        static_cast<int>(std::find_if(bodies.begin(), bodies.end(),
                                      [&](const SceneBodyDef& def) { return def.name == name; }) -
                         bodies.begin());
    parts.push_back({bodyIndex, part, i, y->second, angle->second});
  }
  // A body's parts together (WorldBodyState's layout), links in order.
  std::stable_sort(parts.begin(), parts.end(), [](const CsvWorldPart& a, const CsvWorldPart& b) {
    return a.body != b.body ? a.body < b.body : a.part < b.part;
  });
  return parts;
}

// Far more phases than any script has (a phase per line of a 64 MiB file is fewer).
constexpr double kMaxPhaseIndex = 1e8;

double parseField(const std::string& field, int line, const std::string& column) {
  double value = 0.0;
  const char* end = field.data() + field.size();
  const auto [ptr, error] = std::from_chars(field.data(), end, value);
  if (error != std::errc() || ptr != end || !std::isfinite(value))
    throw std::invalid_argument("line " + std::to_string(line) + ": column " +
                                quoteForMessage(column) + " is not a number (" +
                                quoteForMessage(field) + ")");
  return value;
}

}  // namespace

PlotData readTrajectoryCsv(std::string_view text, const Character& character) {
  size_t position = 0;
  int lineNumber = 0;
  auto nextLine = [&](std::string_view& line) {
    if (position >= text.size()) return false;
    const size_t end = std::min(text.find('\n', position), text.size());
    line = text.substr(position, end - position);
    position = end + 1;
    ++lineNumber;
    return true;
  };
  std::string_view line;
  if (!nextLine(line)) throw std::invalid_argument("the file is empty");
  // Every line is counted before it is split: a line of millions of fields is refused
  // without building a string per field.
  if (const size_t count = countCsvFields(line); count > kMaxTrajectoryColumns)
    throw std::invalid_argument("line 1: " + std::to_string(count) +
                                " columns, more than a trajectory CSV has (at most " +
                                std::to_string(kMaxTrajectoryColumns) + ")");
  const std::vector<std::string> header = splitCsvLine(line);
  const CsvColumns column(header, character.name);
  const size_t timeColumn = column("time"), phaseColumn = column("phase"),
               nameColumn = column("phase_name"), rootX = column("root_x"),
               rootY = column("root_y"), rootAngle = column("root_angle_deg"),
               comX = column("com_x"), comY = column("com_y");
  std::array<size_t, kMaxJoints> angleColumn{}, torqueColumn{};
  std::array<size_t, kMaxLinks> contactColumn{};
  for (size_t joint = 0; joint < static_cast<size_t>(character.jointCount()); ++joint) {
    angleColumn[joint] = column(character.joints[joint].name + "_deg");
    torqueColumn[joint] = column(character.joints[joint].name + "_torque");
  }
  for (size_t link = 0; link < static_cast<size_t>(character.linkCount()); ++link)
    contactColumn[link] = column(character.links[link].name + "_contact");
  std::vector<SceneBodyDef> bodies;
  const std::vector<CsvWorldPart> worldColumns = csvWorldParts(header, bodies);
  std::vector<WorldBodyState> world(worldColumns.size());
  for (size_t i = 0; i < world.size(); ++i) {
    world[i].sceneBody = worldColumns[i].body;
    world[i].part = worldColumns[i].part;
  }

  PlotRecorder recorder(character, 1e9, 1e-9);  // every row is a sample
  recorder.trackObjects(bodies, world);
  double lastTime = -std::numeric_limits<double>::infinity();
  while (nextLine(line)) {
    if (line.empty() || line == "\r") continue;
    if (const size_t count = countCsvFields(line); count != header.size())
      throw std::invalid_argument("line " + std::to_string(lineNumber) + ": " +
                                  std::to_string(count) + " fields, the header has " +
                                  std::to_string(header.size()));
    const std::vector<std::string> fields = splitCsvLine(line);
    auto number = [&](size_t index) {
      return parseField(fields[index], lineNumber, header[index]);
    };
    std::array<double, kMaxJoints> angles{}, torques{};
    for (size_t joint = 0; joint < static_cast<size_t>(character.jointCount()); ++joint) {
      angles[joint] = degToRad(number(angleColumn[joint]));
      torques[joint] = number(torqueColumn[joint]);
    }
    CharacterState state = forwardKinematics(character, Vec2(number(rootX), number(rootY)),
                                             degToRad(number(rootAngle)), angles);
    state.time = number(timeColumn);
    if (state.time <= lastTime)
      throw std::invalid_argument("line " + std::to_string(lineNumber) +
                                  ": time does not increase");
    lastTime = state.time;
    for (size_t link = 0; link < static_cast<size_t>(character.linkCount()); ++link)
      state.links[link].contact = number(contactColumn[link]) != 0.0;
    // The file's centre of mass is the simulation's; the kinematic one differs slightly.
    state.com = Vec2(number(comX), number(comY));
    // A phase index is a whole number a script can have; anything else (1e87) is no int.
    const double phaseValue = number(phaseColumn);
    if (!(phaseValue >= 0 && phaseValue <= kMaxPhaseIndex) || phaseValue != std::floor(phaseValue))
      throw std::invalid_argument("line " + std::to_string(lineNumber) +
                                  ": column 'phase' is not a phase index (" +
                                  quoteForMessage(fields[phaseColumn]) + ")");
    const int phase = static_cast<int>(phaseValue);
    const bool started =
        !recorder.data().phases.empty() && recorder.data().phases.back().index != phase;
    for (size_t i = 0; i < world.size(); ++i) {
      world[i].position = Vec2(number(worldColumns[i].x), number(worldColumns[i].y));
      world[i].angle = degToRad(number(worldColumns[i].angle));
    }
    recorder.observe({state, phase, fields[nameColumn], started, false, nullptr, torques}, true,
                     world);
  }
  PlotData data = recorder.data();
  if (data.size() == 0) throw std::invalid_argument("the file has a header but no rows");
  data.hasTargets = false;
  for (auto& series : data.targetDeg) series.clear();
  return data;
}

}  // namespace scl
