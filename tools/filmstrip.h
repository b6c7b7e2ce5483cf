// A strip of the character's poses at chosen times over its environment, as SVG — the
// motion-sequence figures of the thesis, made without a display.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kinematics/character_state.h"
#include "runtime/run_session.h"
#include "runtime/simulation.h"

namespace scl {

struct FilmstripFrame {
  /// Simulation time of the pose, seconds.
  double time = 0.0;
  /// Name of the phase active then (may be empty).
  std::string phase;
  CharacterState state;
  /// The scene's movable and moving bodies then (Simulation::worldBodies()); empty: as
  /// they stood at the start.
  std::vector<WorldBodyState> world;
};

/// The world as the filmstrip draws it: every outline of the scene's bodies as the run
/// began, each with the part that carries it, so that each frame draws every body where
/// it stood then from the frame's WorldBodyStates (a few numbers per part, where the
/// outlines would be many).
struct FilmstripWorld {
  /// The outlines at the start (Simulation::worldShapes(): every body's but the ground's
  /// and the chair's).
  std::vector<WorldShape> shapes;
  /// Per shape: the index in `start` of the part that carries it; -1 for terrain that
  /// stands still.
  std::vector<int> parts;
  /// The world's parts at the start (Simulation::worldBodies()).
  std::vector<WorldBodyState> start;
  /// Per shape: its body's name (the SVG's `data-body`).
  std::vector<std::string> names;
  /// Boxes drawn as they are, under the outlines: the chair.
  std::vector<EnvironmentBox> boxes;
};

/// The world of `simulation` as it stands now (the run's start).
FilmstripWorld filmstripWorld(const Simulation& simulation);
/// A world of boxes only (Simulation::environmentBoxes(), e.g. a chair), drawn as boxes.
FilmstripWorld filmstripWorld(const std::vector<EnvironmentBox>& boxes);

/// The outlines of `world` as they stand at `frame` (the movable and moving ones moved by
/// their parts from where they were at the start; all as at the start when `frame` is
/// empty).
std::vector<WorldShape> shapesAt(const FilmstripWorld& world,
                                 const std::vector<WorldBodyState>& frame);

struct FilmstripDef {
  /// Pixels per metre.
  double scale = 90.0;
  /// Width of one panel, metres.
  double panelWidth = 2.6;
  /// Height of one panel above the ground, metres.
  double panelHeight = 2.6;
};

/// One SVG document with a panel per frame, left to right; each panel is centred on the
/// pelvis and shows the ground, the chair, the terrain, the movable objects where they
/// are at that frame (in their own colour), the links (those touching the environment
/// highlighted) and the whole-body centre of mass, labelled with time and phase.
std::string renderFilmstrip(const Character& character, const std::vector<FilmstripFrame>& frames,
                            const FilmstripWorld& world, const FilmstripDef& def = {});
/// The same over a world of boxes only (filmstripWorld(environment)).
std::string renderFilmstrip(const Character& character, const std::vector<FilmstripFrame>& frames,
                            const std::vector<EnvironmentBox>& environment,
                            const FilmstripDef& def = {});

/// Picks a run's filmstrip frames as it goes: at the times asked for when they are known
/// before the run (or `count` evenly spaced over a fixed duration), else on a fine grid
/// from which `count` evenly spaced frames are taken once the end is known.
class FilmstripSampler {
 public:
  /// `times`: the frames' times, seconds, sorted (empty: evenly spaced); `duration`: the
  /// run's fixed length, if any; `timeStep`: the run's step, seconds.
  FilmstripSampler(std::vector<double> times, std::optional<double> duration, double timeStep,
                   int count = 8);

  /// Sees the state after a step (or the initial state).
  void observe(const StepView& step);
  /// The frames; `last` is the final state (the grid may not hold it).
  std::vector<FilmstripFrame> finish(const FilmstripFrame& last);

 private:
  std::vector<double> times_;
  size_t next_ = 0;
  int count_;
  double timeStep_;
  double gridStep_ = 0.0;
  long nextGrid_ = 0;
  std::vector<FilmstripFrame> grid_;
  std::vector<FilmstripFrame> frames_;
};

}  // namespace scl
