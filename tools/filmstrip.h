// A strip of the character's poses at chosen times over its environment, as SVG — the
// motion-sequence figures of the thesis, made without a display.
#pragma once

#include <string>
#include <vector>

#include "primitives/character_state.h"
#include "runtime/simulation.h"

namespace scl {

struct FilmstripFrame {
  /// Simulation time of the pose, seconds.
  double time = 0.0;
  /// Name of the phase active then (may be empty).
  std::string phase;
  CharacterState state;
};

struct FilmstripDef {
  /// Pixels per metre.
  double scale = 90.0;
  /// Width of one panel, metres.
  double panelWidth = 2.6;
  /// Height of one panel above the ground, metres.
  double panelHeight = 2.6;
};

/// One SVG document with a panel per frame, left to right; each panel is centred on the
/// pelvis and shows the ground, the chair, the links (those touching the environment
/// highlighted) and the whole-body centre of mass, labelled with time and phase.
std::string renderFilmstrip(const std::vector<FilmstripFrame>& frames,
                            const std::vector<EnvironmentBox>& environment,
                            const FilmstripDef& def = {});

}  // namespace scl
