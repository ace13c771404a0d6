// SPDX-License-Identifier: BSD-3-Clause
// What makes a rotational inertia about the centre of mass physical, and the physical inertia
// nearest to one that is not (docs/urdf.md, "Repairs"). Physical: symmetric with principal
// moments p₀ ≤ p₁ ≤ p₂ that are positive (p₀ > kInertiaPdRelTol · p₂, above the round-off of a
// symmetric 3×3 eigensolver) and satisfy the triangle inequality p₂ ≤ p₀ + p₁ (within
// kInertiaTriangleRelTol of the trace, so that thin rods and flat plates written with a few digits
// pass). The model checks (core/model/validate.cpp) refuse anything else.
//
// The repair keeps the principal axes and moves the principal moments as little as it can:
//   1. each moment is raised to at least the floor f = max(10⁻⁶ p₂, m · (1 mm)²), the smaller a
//      thin rod of that condition, or of a 1 mm radius of gyration, would have;
//   2. when p₂ > p₀ + p₁ by δ, (p₀, p₁, p₂) moves to the nearest point (least squares) of the plane
//      p₂ = p₀ + p₁: p₀ + δ/3, p₁ + δ/3, p₂ − δ/3.
// MuJoCo's `balanceinertia` sets all three moments to their mean instead, a larger change.
#pragma once

#include <limits>

#include "core/spatial/spatial.hpp"

namespace kt {

inline constexpr double kInertiaTriangleRelTol = 1e-6;
inline constexpr double kInertiaPdRelTol = 64 * std::numeric_limits<double>::epsilon();

/// Whether the symmetric inertia I (about the centre of mass) is physical (see above).
bool isPhysicalInertia(const Mat3& I);

struct InertiaRepair {
  Mat3 inertia = Mat3::Zero();  ///< the physical inertia nearest to the given one
  Vec3 before = Vec3::Zero();   ///< its principal moments, ascending
  Vec3 after = Vec3::Zero();    ///< the repaired principal moments, ascending
  double relativeChange = 0.0;  ///< ‖I' − I‖_F / ‖I‖_F (1 for a zero inertia)
};

/// The repair (see above) of the symmetric part of I for a body of `mass` kg (> 0).
InertiaRepair nearestPhysicalInertia(const Mat3& I, double mass);

}  // namespace kt
