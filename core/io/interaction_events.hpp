// SPDX-License-Identifier: BSD-3-Clause
// The events file of a run with interactions (docs/interaction.md): JSON, written beside an
// exported CSV as NAME.events.json and read by `kinetree-cli simulate MODEL --events FILE` to
// replay the run. Numbers are written so that they read back to the same doubles.
//
//   {
//     "format": "kinetree-events", "version": 1,
//     "solver": "aba", "integrator": "rk4", "step": 0.002,   (dopri5 runs: "tolerance": 1e-8 too)
//     "events": [
//       {"t": 0.5, "kind": "push", "id": 1, "body": "base", "point": [0, 0, 0], "force": [0, 40, 0],
//        "moment": [0, 0, 0], "axes": "world", "start": 0.5, "duration": 0.2, "shape": "half-sine"},
//       {"t": 1, "kind": "drag", "id": 2, "body": "link1", "mode": "force", "point": [0.3, 0, 0],
//        "target": [0.5, 0.2, 1], "stiffness": 120, "damping": 12},
//       {"t": 1.25, "kind": "release", "id": 2},
//       {"t": 1.5, "kind": "drive", "id": 3, "joint": "J11", "drive": "{type: pd_sinusoid, kp: 400, …}"},
//       {"t": 2, "kind": "pose", "id": 4, "joint": "J0", "position": [1, 0, 0, 0, 0.1, 0, 0.5]}
//     ]
//   }
//
// A push without "duration" lasts until released; "axes" (world | body) and "shape" (constant |
// half-sine) default to world and constant. A drive event gives the joint the drive written as a
// model file's `drive:` value (docs/model-format.md; not a table). A torque drag ("mode": "torque") gives
// "target_rotation" [w, x, y, z] instead of point and target. A pose sets the joint's position
// coordinates (its q, docs/dynamics.md; quaternions first) while the run was paused.
#pragma once

#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/tree.hpp"
#include "core/sim/interaction.hpp"

namespace kt {

/// The run an events file was recorded with (empty / 0 when the file does not say).
struct EventsRun {
  std::string solver, integrator;
  double step = 0.0;
  double tolerance = 0.0;  ///< dopri5's relative tolerance (written for dopri5 runs only)
};

/// Thrown for a file that cannot be read; diagnostic() has the file, line, column and what was
/// expected ("events[3].body: expected the name of a body of the model, got 'lnk1' (did you mean
/// 'link1'?)").
class EventsFileError : public std::runtime_error {
 public:
  explicit EventsFileError(Diagnostic d) : std::runtime_error(d.format()), diagnostic_(std::move(d)) {}
  const Diagnostic& diagnostic() const { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

/// Reads the events of `path` for `tree` (bodies by name). Throws EventsFileError.
std::vector<InteractionEvent> readInteractionEvents(const std::string& path, const Tree& tree,
                                                    EventsRun* run = nullptr);
/// The same from text; `fileName` names it in messages.
std::vector<InteractionEvent> parseInteractionEvents(const std::string& text, const std::string& fileName,
                                                     const Tree& tree, EventsRun* run = nullptr);
/// The JSON text of `events` (bodies by the tree's names).
std::string formatInteractionEvents(const std::vector<InteractionEvent>& events, const Tree& tree,
                                    const EventsRun& run);

}  // namespace kt
