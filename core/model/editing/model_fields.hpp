// SPDX-License-Identifier: BSD-3-Clause
// The numeric fields of a model that scripts and parameter sweeps change, addressed by their YAML
// path as docs/model-format.md and the diagnostics spell them. A body is named by its name or its
// index: `bodies[L16].inertial.mass` and `bodies[3].inertial.mass` are the same field.
//
//   gravity[i]
//   simulation.step | duration | tolerance
//   bodies[B].inertial.mass | density | com[i] | inertia.ixx … iyz
//   bodies[B].joint.q0[i] | v0[i]
//   bodies[B].joint.drive.kp | kd | value[i] | amplitude[i] | frequency[i] | phase[i] | offset[i]
//                          | stiffness[i] | damping[i] | rest_position[i]
//   bodies[B].joint.rating.force | moment | reaction[i]
//   bodies[B].applied_wrench.moment[i] | force[i]
//
// A vector field without an index is every entry at once: setting it sets them all, reading it
// needs them to be equal. Setting a drive parameter of a body without that drive, or an entry
// past a vector's end (q0, v0 of the neutral state are filled in first), is an error. The model
// is not validated here: validate it after the edits (core/io/model_files.hpp).
#pragma once

#include <string>
#include <vector>

#include "core/model/model.hpp"

namespace kt {

/// The value of a field. Throws std::invalid_argument naming the path and what was expected.
double getModelField(const Model& model, const std::string& path);

/// Sets a field. Throws std::invalid_argument naming the path and what was expected.
void setModelField(Model& model, const std::string& path, double value);

/// The index of the body a path names (`bodies[L16]…` or `bodies[3]…`), or -1 when it names none:
/// to report the model's diagnostics of that body with the user's own spelling of the path.
int modelFieldBody(const Model& model, const std::string& path);

/// The fields of every body and the model, as paths with body names (for help and completion).
std::vector<std::string> modelFieldPaths(const Model& model);

}  // namespace kt
