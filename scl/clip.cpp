// Motion clips: sampling and checks (clip.h).
#include "scl/clip.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "base/format.h"
#include "scl/character.h"

namespace scl {

std::string_view clipInterpolationName(ClipInterpolation interpolation) {
  return interpolation == ClipInterpolation::Spline ? "spline" : "linear";
}

double Clip::duration() const {
  if (frames.empty()) return 0.0;
  return (frames.back().time - frames.front().time) * timescale;
}

namespace {

int columnOf(const std::vector<std::string>& names, std::string_view name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

// The segment [frames[i], frames[i + 1]] holding written time `t` (first <= t <= last).
size_t segmentOf(const std::vector<ClipFrame>& frames, double t) {
  const auto after =
      std::upper_bound(frames.begin(), frames.end(), t,
                       [](double time, const ClipFrame& f) { return time < f.time; });
  const auto index = static_cast<size_t>(after - frames.begin());
  return std::min(index == 0 ? 0 : index - 1, frames.size() - 2);
}

// One value of every frame, read through `get`, for the spline's neighbours: frame `i`'s
// value and time, where i may lie one beyond either end (a loop wraps around, skipping the
// duplicate end frame; else the end's neighbour is the end itself).
struct Neighbours {
  const Clip& clip;
  double period;
  template <typename Get>
  std::pair<double, double> at(long i, const Get& get) const {
    const long n = static_cast<long>(clip.frames.size());
    if (i >= 0 && i < n) return {clip.frames[static_cast<size_t>(i)].time, get(i)};
    if (!clip.loop || n < 3) {
      const long end = i < 0 ? 0 : n - 1;
      return {clip.frames[static_cast<size_t>(end)].time, get(end)};
    }
    if (i < 0) {
      const long j = n - 2;  // the frame before the first: the cycle's one before its end
      return {clip.frames[static_cast<size_t>(j)].time - period, get(j)};
    }
    return {clip.frames[1].time + period, get(1)};  // after the last: the cycle's second
  }
};

// The value at written time `t` in segment `i`, read through `get(frame)`.
template <typename Get>
double interpolate(const Clip& clip, size_t i, double t, double period, const Get& get) {
  const ClipFrame& a = clip.frames[i];
  const ClipFrame& b = clip.frames[i + 1];
  const double span = b.time - a.time;
  const double s = std::clamp((t - a.time) / span, 0.0, 1.0);
  const double p0 = get(static_cast<long>(i)), p1 = get(static_cast<long>(i) + 1);
  if (clip.interpolation == ClipInterpolation::Linear) return p0 + (p1 - p0) * s;
  // Catmull-Rom on uneven times: each frame's tangent is the slope between its neighbours.
  const Neighbours around{clip, period};
  const auto [tBefore, before] = around.at(static_cast<long>(i) - 1, get);
  const auto [tAfter, after] = around.at(static_cast<long>(i) + 2, get);
  const double m0 = (p1 - before) / (b.time - tBefore);
  const double m1 = (after - p0) / (tAfter - a.time);
  const double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * span * m0 + (-2 * s3 + 3 * s2) * p1 +
         (s3 - s2) * span * m1;
}

}  // namespace

std::string clipNameOf(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  std::string name(path.substr(slash == std::string_view::npos ? 0 : slash + 1));
  if (const size_t dot = name.find_last_of('.'); dot != std::string::npos && dot > 0)
    name.resize(dot);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name = "clip_" + name;
  return name;
}

int Clip::jointColumn(std::string_view name) const { return columnOf(joints, name); }

int Clip::effectorColumn(std::string_view name) const { return columnOf(effectors, name); }

ClipPose makeClipPose(const Clip& clip) {
  ClipPose pose;
  pose.jointAngles.assign(clip.joints.size(), 0.0);
  pose.effectors.assign(clip.effectors.size(), ClipPoint{});
  return pose;
}

void sampleClip(const Clip& clip, double time, ClipPose& pose) {
  const std::vector<ClipFrame>& frames = clip.frames;
  const double first = frames.front().time, last = frames.back().time;
  const double period = last - first;
  double t = first + time / clip.timescale;
  pose.loops = 0;
  pose.outside = false;
  if (clip.loop && period > 0) {
    const double cycles = std::floor((t - first) / period);
    pose.loops = static_cast<long>(cycles);
    t = std::clamp(t - cycles * period, first, last);
  } else {
    // The test clipTimeError() words: on the playback time, not the clip's own.
    pose.outside = time < 0 || time > clip.duration();
    t = std::clamp(t, first, last);
  }
  pose.clipTime = t;
  const ClipFrame& only = frames.front();
  if (frames.size() == 1) {
    std::copy(only.jointAngles.begin(), only.jointAngles.end(), pose.jointAngles.begin());
    std::copy(only.effectors.begin(), only.effectors.end(), pose.effectors.begin());
    pose.root = only.root;
    return;
  }
  const size_t i = segmentOf(frames, t);
  auto value = [&](auto get) { return interpolate(clip, i, t, period, get); };
  for (size_t j = 0; j < pose.jointAngles.size(); ++j)
    pose.jointAngles[j] =
        value([&](long f) { return frames[static_cast<size_t>(f)].jointAngles[j]; });
  if (clip.hasRoot()) {
    pose.root.x = value([&](long f) { return frames[static_cast<size_t>(f)].root.x; });
    pose.root.y = value([&](long f) { return frames[static_cast<size_t>(f)].root.y; });
    pose.root.angle = value([&](long f) { return frames[static_cast<size_t>(f)].root.angle; });
  }
  for (size_t j = 0; j < pose.effectors.size(); ++j) {
    pose.effectors[j].x =
        value([&](long f) { return frames[static_cast<size_t>(f)].effectors[j].x; });
    pose.effectors[j].y =
        value([&](long f) { return frames[static_cast<size_t>(f)].effectors[j].y; });
  }
}

ClipPose sampleClip(const Clip& clip, double time) {
  ClipPose pose = makeClipPose(clip);
  sampleClip(clip, time, pose);
  return pose;
}

std::string clipTimeError(const Clip& clip, double time) {
  if (clip.loop || clip.frames.empty()) return "";
  const double duration = clip.duration();
  if (time >= 0 && time <= duration) return "";
  const std::string where = time < 0 ? "before the start" : "after the end";
  return "t = " + formatNumber(time) + " s is " + where + " of clip '" + clip.name +
         "' (it lasts " + formatNumber(duration) + " s and does not loop)";
}

std::vector<ClipIssue> clipIssues(const Clip& clip) {
  std::vector<ClipIssue> issues;
  auto issue = [&](int frame, std::string message) {
    issues.push_back({frame, std::move(message)});
  };
  auto twice = [&](const std::vector<std::string>& names, std::string_view what) {
    std::set<std::string_view> seen;
    for (const std::string& name : names)
      if (!seen.insert(name).second)
        issue(-1, std::string(what) + " '" + name + "' is given twice");
  };
  twice(clip.joints, "joint");
  twice(clip.effectors, "effector");
  if (!(clip.timescale >= kMinClipTimescale && clip.timescale <= kMaxClipTimescale))
    issue(-1, "the timescale must be from " + formatNumber(kMinClipTimescale) + " to " +
                  formatNumber(kMaxClipTimescale) + " (found " + formatNumber(clip.timescale) +
                  ")");
  if (clip.frames.empty()) issue(-1, "the clip has no frames");
  const double maxAngle = degToRad(kMaxClipAngleDeg);
  auto angleOk = [&](double radians) { return std::abs(radians) <= maxAngle; };
  auto positionOk = [&](double metres) { return std::abs(metres) <= kMaxClipPosition; };
  for (size_t f = 0; f < clip.frames.size(); ++f) {
    const ClipFrame& frame = clip.frames[f];
    const int at = static_cast<int>(f);
    if (!(frame.time >= 0 && frame.time <= kMaxClipTime))
      issue(at, "a frame's time must be from 0 to " + formatNumber(kMaxClipTime) + " s (found " +
                    formatNumber(frame.time) + " s)");
    else if (f > 0 && !(frame.time > clip.frames[f - 1].time))
      issue(at, "the frame at " + formatNumber(frame.time) +
                    " s does not come after the one before it (at " +
                    formatNumber(clip.frames[f - 1].time) + " s): times must increase");
    if (frame.jointAngles.size() != clip.joints.size() ||
        frame.effectors.size() != clip.effectors.size()) {
      issue(at, "the frame at " + formatNumber(frame.time) + " s has " +
                    std::to_string(frame.jointAngles.size()) + " joint angles and " +
                    std::to_string(frame.effectors.size()) + " effectors; the clip has " +
                    std::to_string(clip.joints.size()) + " and " +
                    std::to_string(clip.effectors.size()));
      continue;
    }
    bool ok = std::all_of(frame.jointAngles.begin(), frame.jointAngles.end(), angleOk);
    if (clip.hasRoot())
      ok = ok && angleOk(frame.root.angle) && positionOk(frame.root.x) && positionOk(frame.root.y);
    for (const ClipPoint& point : frame.effectors)
      ok = ok && positionOk(point.x) && positionOk(point.y);
    if (!ok)
      issue(at, "the frame at " + formatNumber(frame.time) +
                    " s has a value that is not finite or beyond its bound (angles within ±" +
                    formatNumber(kMaxClipAngleDeg) + "°, positions within ±" +
                    formatNumber(kMaxClipPosition) + " m)");
  }
  if (clip.loop && clip.frames.size() < 2)
    issue(-1,
          "a looping clip needs at least two frames (its first and last are the same instant "
          "of the cycle)");
  return issues;
}

}  // namespace scl
