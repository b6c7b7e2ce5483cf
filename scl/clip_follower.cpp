#include "scl/clip_follower.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace scl {

namespace {

// The clip's column of character joint `joint`, its mirror image's when mirrored.
int columnFor(const ScriptClip& clip, const Character& character, int joint, bool mirror) {
  const int source = mirror ? character.joints[static_cast<size_t>(joint)].mirror : joint;
  if (source < 0 || static_cast<size_t>(source) >= clip.columnOf.size()) return -1;
  return clip.columnOf[static_cast<size_t>(source)];
}

}  // namespace

double clipPlaybackTime(const ClipPlayback& playback, double phaseTime) {
  double time = playback.from.value + playback.speed.value * phaseTime;
  const Clip& clip = *playback.clips.front()->clip;
  const double duration = clip.duration();
  if (playback.loop && !clip.loop && duration > 0.0) {
    time = std::fmod(time, duration);
    if (time < 0.0) time += duration;
  }
  return time;
}

ClipFollower::ClipFollower(const ClipPlayback& playback, const Character& character)
    : playback_(playback) {
  assert(playback.active());
  const size_t joints = character.joints.size();
  angle_.assign(joints, 0.0);
  velocity_.assign(joints, 0.0);
  has_.assign(joints, 0);
  if (!playback.nearest) {
    const ScriptClip& clip = *playback.clips.front();
    column_.assign(joints, -1);
    for (size_t j = 0; j < joints; ++j) {
      column_[j] = columnFor(clip, character, static_cast<int>(j), playback.mirror);
      has_[j] = column_[j] >= 0 ? 1 : 0;
    }
    pose_ = makeClipPose(*clip.clip);
    ahead_ = makeClipPose(*clip.clip);
    return;
  }
  // Nearest: every frame of every clip as a column of angles and τ × rates.
  size_t longest = 0, runs = 0;
  for (const auto& scriptClip : playback.clips) {
    const Clip& clip = *scriptClip->clip;
    Table table;
    std::vector<int> columns;
    for (size_t j = 0; j < joints; ++j) {
      const int column = columnFor(*scriptClip, character, static_cast<int>(j), playback.mirror);
      if (column < 0) continue;
      table.joints.push_back(static_cast<int>(j));
      columns.push_back(column);
    }
    const auto n = static_cast<std::ptrdiff_t>(table.joints.size());
    const auto count = static_cast<std::ptrdiff_t>(clip.frames.size());
    table.rows = (2 * n + kNearestBlock - 1) / kNearestBlock * kNearestBlock;
    table.frames.assign(static_cast<size_t>(table.rows * count), 0.0);
    table.times.resize(clip.frames.size());
    const double scale = clip.timescale;
    for (std::ptrdiff_t f = 0; f < count; ++f) {
      table.times[static_cast<size_t>(f)] =
          (clip.frames[static_cast<size_t>(f)].time - clip.frames.front().time) * scale;
      // The rate: a central difference (one-sided at the ends of a clip that does not loop;
      // across the seam of one that does, whose first and last frames are one instant).
      std::ptrdiff_t before = std::max<std::ptrdiff_t>(f - 1, 0);
      std::ptrdiff_t after = std::min<std::ptrdiff_t>(f + 1, count - 1);
      auto timeOf = [&](std::ptrdiff_t i) { return clip.frames[static_cast<size_t>(i)].time; };
      double span = timeOf(after) - timeOf(before);
      if (clip.loop && count > 2 && (f == 0 || f + 1 == count)) {
        before = count - 2;
        after = 1;
        span = (timeOf(1) - timeOf(0)) + (timeOf(count - 1) - timeOf(count - 2));
      }
      span *= scale;
      for (std::ptrdiff_t i = 0; i < n; ++i) {
        const auto column = static_cast<size_t>(columns[static_cast<size_t>(i)]);
        const ClipFrame& frame = clip.frames[static_cast<size_t>(f)];
        table.frames[static_cast<size_t>(f * table.rows + i)] = frame.jointAngles[column];
        const double rate = span > 0.0
                                ? (clip.frames[static_cast<size_t>(after)].jointAngles[column] -
                                   clip.frames[static_cast<size_t>(before)].jointAngles[column]) /
                                      span
                                : 0.0;
        table.frames[static_cast<size_t>(f * table.rows + n + i)] = kNearestVelocityWeight * rate;
      }
    }
    table.keys.assign(table.frames.begin(), table.frames.end());
    const double infinity = std::numeric_limits<double>::infinity();
    for (std::ptrdiff_t start = 0; start < count; start += kRunFrames) {
      const std::ptrdiff_t end = std::min(start + kRunFrames, count);
      const std::ptrdiff_t middle = (start + end - 1) / 2;
      const float* centre = table.keys.data() + middle * table.rows;
      double radius = 0.0;
      for (std::ptrdiff_t f = start; f < end; ++f) {
        table.toMiddle.push_back(std::sqrt(squaredDistance(table, f, centre, infinity)));
        radius = std::max(radius, table.toMiddle.back());
      }
      table.runMiddle.push_back(middle);
      // Single-precision sums are within a few parts in 10⁷ of the exact distances: the
      // margin keeps the bound below every run frame's distance as the search computes it.
      table.runRadius.push_back(radius * (1.0 + 1e-5) + 1e-6);
    }
    runs = std::max(runs, table.runMiddle.size());
    longest = std::max(longest, static_cast<size_t>(table.rows));
    tables_.push_back(std::move(table));
  }
  query_.assign(longest, 0.0F);
  runBound_.assign(runs, 0.0);
  runMiddleDistance_.assign(runs, 0.0);
}

void ClipFollower::update(double phaseTime, std::span<const double> angles,
                          std::span<const double> velocities) {
  if (playback_.nearest) {
    nearest(angles, velocities);
    return;
  }
  const double time = clipPlaybackTime(playback_, phaseTime);
  chosenClip_ = 0;
  chosenTime_ = time;
  sampleAt(time);
}

void ClipFollower::sampleAt(double time) {
  const Clip& clip = *playback_.clips.front()->clip;
  sampleClip(clip, time, pose_);
  // The rate: a forward difference (backward at the end of a clip that does not loop).
  const double duration = clip.duration();
  const bool backward = !clip.loop && time + kClipRateStep > duration;
  sampleClip(clip, backward ? time - kClipRateStep : time + kClipRateStep, ahead_);
  const double rateScale = playback_.speed.value / (backward ? -kClipRateStep : kClipRateStep);
  const bool still = pose_.outside;  // held at an end: no motion
  for (size_t j = 0; j < column_.size(); ++j) {
    const int column = column_[j];
    if (column < 0) continue;
    const double value = pose_.jointAngles[static_cast<size_t>(column)];
    angle_[j] = value;
    velocity_[j] =
        still ? 0.0 : (ahead_.jointAngles[static_cast<size_t>(column)] - value) * rateScale;
  }
}

// The squared distance from frame `frame` of `table` to `query` (keys' layout), summed in
// blocks of kNearestBlock rows into separate partial sums (the compiler vectorizes them);
// once a block the sum is compared with `limit`, and a sum that reached it is returned as
// it stands.
double ClipFollower::squaredDistance(const Table& table, std::ptrdiff_t frame, const float* query,
                                     double limit) {
  const float* column = table.keys.data() + frame * table.rows;
  float partial[kNearestBlock] = {};
  double sum = 0.0;
  for (std::ptrdiff_t i = 0; i < table.rows; i += kNearestBlock) {
    for (std::ptrdiff_t k = 0; k < kNearestBlock; ++k) {
      const float d = column[i + k] - query[i + k];
      partial[k] += d * d;
    }
    sum = 0.0;
    for (const float value : partial) sum += value;
    if (sum >= limit) break;
  }
  return sum;
}

void ClipFollower::nearest(std::span<const double> angles, std::span<const double> velocities) {
  double best = std::numeric_limits<double>::infinity();
  int bestClip = 0;
  std::ptrdiff_t bestFrame = 0;
  // The last step's choice and the frames after it first: the state has moved on little,
  // so the best so far is small from the start and most frames' sums stop early.
  const auto previousClip = static_cast<size_t>(chosenClip_);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t c = 0; c < tables_.size(); ++c) {
      if (pass == 0 && (c != previousClip || !chosen_)) continue;
      const Table& table = tables_[c];
      const auto n = static_cast<std::ptrdiff_t>(table.joints.size());
      if (n == 0) continue;
      std::fill(query_.begin(), query_.end(), 0.0F);
      for (std::ptrdiff_t i = 0; i < n; ++i) {
        const auto joint = static_cast<size_t>(table.joints[static_cast<size_t>(i)]);
        query_[static_cast<size_t>(i)] = static_cast<float>(angles[joint]);
        query_[static_cast<size_t>(n + i)] =
            static_cast<float>(kNearestVelocityWeight * velocities[joint]);
      }
      // Distances are compared per joint (sums over the rows divided by the joints), so
      // that clips of different joints compare. The frames are searched by runs: by the
      // triangle inequality no frame of a run lies nearer than the distance to its middle
      // less its radius, so a run whose bound passes the best so far is skipped whole;
      // the rest are searched frame by frame. The result is the nearest frame, as a search
      // of every frame would find it.
      const double scale = static_cast<double>(n);
      const float* query = query_.data();
      auto consider = [&](std::ptrdiff_t f) {
        const double sum = squaredDistance(table, f, query, best * scale);
        if (sum < best * scale) {
          best = sum / scale;
          bestClip = static_cast<int>(c);
          bestFrame = f;
        }
      };
      const auto count = static_cast<std::ptrdiff_t>(table.times.size());
      if (pass == 0) {
        for (std::ptrdiff_t f = std::min(chosenFrame_, count - 1);
             f < std::min(chosenFrame_ + 4, count); ++f)
          consider(f);
        continue;
      }
      // Each run's bound; the run of the nearest middle is searched first (its frames make
      // the best small at once), then every other run whose bound is below the best.
      const auto runs = table.runMiddle.size();
      const double infinity = std::numeric_limits<double>::infinity();
      size_t nearestRun = 0;
      double nearestMiddle = infinity;
      for (size_t r = 0; r < runs; ++r) {
        const double distance =
            std::sqrt(squaredDistance(table, table.runMiddle[r], query, infinity));
        runMiddleDistance_[r] = distance;
        const double gap = distance - table.runRadius[r];
        runBound_[r] = gap > 0.0 ? gap * gap : 0.0;
        if (distance < nearestMiddle) nearestMiddle = distance, nearestRun = r;
      }
      // Within a run, a frame's own bound: |distance to the middle − its distance from it|.
      auto search = [&](size_t r) {
        const auto runStart = static_cast<std::ptrdiff_t>(r) * kRunFrames;
        const double middle = runMiddleDistance_[r];
        for (std::ptrdiff_t f = runStart; f < std::min(runStart + kRunFrames, count); ++f) {
          const double gap =
              std::abs(middle - table.toMiddle[static_cast<size_t>(f)]) * (1.0 - 1e-5) - 1e-6;
          if (gap > 0.0 && gap * gap >= best * scale) continue;
          consider(f);
        }
      };
      search(nearestRun);
      for (size_t r = 0; r < runs; ++r)
        if (r != nearestRun && runBound_[r] < best * scale) search(r);
    }
  }
  chosenClip_ = bestClip;
  chosenFrame_ = bestFrame;
  std::fill(has_.begin(), has_.end(), 0);
  if (tables_.empty() || !std::isfinite(best)) return;
  chosen_ = true;
  const Table& table = tables_[static_cast<size_t>(bestClip)];
  chosenTime_ = table.times[static_cast<size_t>(bestFrame)];
  const auto n = static_cast<std::ptrdiff_t>(table.joints.size());
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const auto joint = static_cast<size_t>(table.joints[static_cast<size_t>(i)]);
    has_[joint] = 1;
    const double* frame = table.frames.data() + bestFrame * table.rows;
    angle_[joint] = frame[i];
    velocity_[joint] = frame[n + i] / kNearestVelocityWeight * playback_.speed.value;
  }
}

}  // namespace scl
