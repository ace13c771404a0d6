// SPDX-License-Identifier: BSD-3-Clause
// Computed values as people write them. A value the editor computes (mass properties from
// shapes, mirrored and mounted placements) carries the rounding of its arithmetic: 400 kg comes
// out as 400.00000000000006 and a zero product of inertia as 1.1e-16. These functions move such a
// result onto the short decimal or the zero it differs from by rounding alone, and leave every
// other value exactly as it is (π stays 3.141592653589793).
#pragma once

#include "core/model/geometry/mass_properties.hpp"
#include "core/model/model.hpp"

namespace kt {

/// The decimal of at most 12 significant digits nearest to x when it lies within `ulps` units in
/// the last place of x, else x itself (non-finite values unchanged).
double roundToShortDecimal(double x, int ulps = 4);

/// 0 when |x| ≤ 64 ε·scale (rounding noise of a quantity of magnitude `scale`), else
/// roundToShortDecimal(x).
double roundComputed(double x, double scale);

/// Mass, centre of mass (at the scale of the largest |com| coordinate, or 1 m) and inertia (at the
/// scale of its largest entry) rounded with roundComputed.
void roundComputed(MassProperties& mp);

/// An angle (rad) within 8 units in the last place of a whole number of degrees d, as the editor
/// converts d degrees: π·(d/180) (−90° is exactly −π/2); any other angle as roundComputed(x, π).
double roundAngle(double x);

/// Position (at the scale of its largest coordinate, or 1 m), rpy with roundAngle and quaternions
/// (at the scale of 1) with roundComputed.
void roundComputed(Placement& placement);

}  // namespace kt
