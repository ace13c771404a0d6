// SPDX-License-Identifier: BSD-3-Clause
// Three-component values between the model's number lists (what the list editors hold) and the
// engine's vectors.
#pragma once

#include <vector>

#include "core/spatial/spatial.hpp"

namespace kt::ui {

/// The first three numbers of a list as a vector (the list editors hold exactly three).
inline Vec3 vec3(const std::vector<double>& v) { return {v[0], v[1], v[2]}; }
/// A vector as the list a list editor holds.
inline std::vector<double> list(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace kt::ui
