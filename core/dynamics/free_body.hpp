// SPDX-License-Identifier: BSD-3-Clause
// The free-body diagram of one body (docs/dynamics.md §3): every wrench that acts on body i,
// at its origin in its own coordinates, and the rate of change of its momentum, which they
// add up to (Newton–Euler, Featherstone 2008 eq. 5.9):
//   f_i − Σ_c ⁱX*_c f_c + I_i g_i + f_i^app = I_i a_i + v_i ×* I_i v_i
// f_i: the load of its own joint, transmitted from the parent; f_c: the loads of its children's
// joints, which act on body i reversed; g_i: gravity's acceleration in body coordinates;
// f^app: the applied wrench; a_i: the body's (true) acceleration. With the loads and q̈ of any
// solver the residual of this balance checks that solver body by body.
#pragma once

#include <string>
#include <vector>

#include "core/model/tree.hpp"

namespace kt {

struct FreeBodyDiagram {
  struct Term {
    std::string what;  ///< "joint J12 (from L11)", "joint J13 (to L13), reversed", "gravity", "applied wrench"
    Vec6 wrench;       ///< [moment; force], body origin, body coordinates
    /// Where it acts, body coordinates: a joint's origin for a joint load, the centre of mass
    /// for gravity, the body origin for an applied wrench.
    Vec3 point = Vec3::Zero();
    /// The wrench about `point`: [n − point × f; f].
    Vec6 atPoint() const;
  };
  int body = -1;
  std::vector<Term> terms;
  Vec6 momentumRate = Vec6::Zero();  ///< I a + v ×* I v
  Vec3 centreOfMass = Vec3::Zero();  ///< body coordinates
  Vec6 residual = Vec6::Zero();      ///< Σ terms − momentumRate
  /// The largest |component| of the terms and the momentum rate: the scale of the residual.
  double scale() const;
};

/// The diagram of tree body `body` at (q, ν) with accelerations q̈ and joint loads f (nb,
/// as JointLoads::f).
FreeBodyDiagram freeBodyDiagram(const Tree& tree, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const Eigen::VectorXd& qdd, const std::vector<Vec6>& f, int body);

}  // namespace kt
