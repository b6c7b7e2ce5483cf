// Querying a state–action compatibility model (thesis §6.3; docs/state-action.md): given
// a situation s0, n different actions the model predicts to work there.
//
// 1. A compatible support vector whose state lies near s0 (within `nearRadius`, scaled;
//    else the nearest one) seeds a CMA-ES over the whole point (s, a) minimising
//    |s − s0| + C(s, a), where C is 0 where the model predicts compatible and a large
//    penalty elsewhere: it walks the point into the situation s0 while keeping it
//    compatible, and returns (s', a0).
// 2. From a0, n actions a_i at s0 spread apart by round-robin CMA-ES (one generation of
//    each in turn), each minimising its share of the diversity objective
//    D = Σ_i ( C(s0, a_i) − Σ_j |a_i − a_j| − K·min_{j≠i} |a_i − a_j| ).
// Only the model is evaluated (no simulation), some thousands of times per query.
#pragma once

#include <cstdint>
#include <vector>

#include "optimize/sam/sam_model.h"

namespace scl {

struct SamQueryDef {
  /// n: actions to return.
  int count = 3;
  /// K: weight of an action's distance to its nearest neighbour.
  double diversityWeight = 5.0;
  /// Round-robin generations of the diversity optimisation (the thesis: 50; more push
  /// the actions toward the edge of the compatible region, where the model is least sure).
  int generations = 50;
  /// At most this many generations walk the seed point into s0.
  int seedGenerations = 100;
  /// Support vectors whose state lies within this scaled distance of s0 may seed.
  double nearRadius = 0.5;
  /// Initial standard deviation of each coordinate, scaled units.
  double initialStep = 0.5;
  /// A point counts as compatible when the decision value exceeds this (0: the model's
  /// boundary) there and `clearance` (scaled distance) away from it along every action axis.
  /// The diversity term drives actions to the edge of what counts as compatible, and the
  /// model's edge is where it is least sure; the clearance keeps them that far inside.
  double margin = 0.0;
  double clearance = 0.25;
  /// C(s, a) outside the compatible region: this plus how far below the margin.
  double incompatiblePenalty = 1e6;
  uint64_t seed = 1;
};

/// The space the model lives in: the problem's ranges and scales, states first.
struct SamSpace {
  /// Leading coordinates that make up the state.
  size_t stateDimensions = 1;
  std::vector<double> lower, upper, scale;
};

struct SamQueryResult {
  /// s0 as asked.
  std::vector<double> state;
  /// Whether a compatible support vector lies within `nearRadius` of s0. When none does,
  /// the model extrapolates there: its predictions deserve less trust.
  bool supported = false;
  /// The support vector that seeded the query, and where the first optimisation took it.
  std::vector<double> supportVector;
  std::vector<double> seedPoint;
  /// Whether a compatible point was found at s0 itself (|s' − s0| ≤ 1e-3 scaled); when
  /// not, seedPoint's state is the nearest situation the model believes works.
  bool stateReached = false;
  /// The n actions at s0, and whether the model predicts each compatible there (with the
  /// margin and clearance).
  std::vector<std::vector<double>> actions;
  std::vector<bool> predictedCompatible;
  /// Decision values of the actions at s0 (the lowest at the point and its clearance
  /// neighbours).
  std::vector<double> decisions;
  /// Model evaluations made.
  long evaluations = 0;
};

/// Runs one query; deterministic for the definition's seed. Throws std::invalid_argument
/// for a state of the wrong size or outside the space's range, or a model without
/// compatible support vectors.
SamQueryResult samQuery(const SamModel& model, const SamSpace& space,
                        const std::vector<double>& state, const SamQueryDef& def = {});

/// |diag(scale)·(p − q)| over the coordinates [first, first + count).
double scaledDistance(const std::vector<double>& p, const std::vector<double>& q,
                      const std::vector<double>& scale, size_t first, size_t count);

}  // namespace scl
