// SPDX-License-Identifier: BSD-3-Clause
// Recursive Newton–Euler inverse dynamics, the joint loads, and the explicit equations of motion
// M(q) q̈ + h(q, ν) = τ (docs/dynamics.md §3–4; Featherstone 2008, Tables 5.1 and 6.2).
//
//   v_i = ⁱX_p v_p + S_i ν_i            a_i = ⁱX_p a_p + S_i q̈_i + c_i        (a_0 = −g)
//   f_i = I_i a_i + v_i ×* I_i v_i − f_i^ext + Σ_c ⁱX*_c f_c                 τ_i = S_iᵀ f_i
//
// f_i is the wrench joint i transmits from the parent into the subtree of body i: the joint load.
#pragma once

#include <cstdint>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

/// Scratch for RNEA and CRBA, sized once per tree.
struct RneaWorkspace {
  Kinematics kin;
  std::vector<Vec6> a;                ///< (nb) body accelerations including the fictitious −g
  std::vector<Vec6> f;                ///< (nb) joint wrenches, body coordinates
  std::vector<Mat6> Ic;               ///< (nb) composite inertias (CRBA)
  std::vector<Mat6N> F;               ///< (nb) CRBA column blocks
  std::vector<std::int8_t> unitAxis;  ///< (nb) k when S_i = e_k (JointModel::unitMotionAxis), else −1

  /// ⁱX_p of a joint along e_k whose X_T does not rotate (most joints of most models): the joint's
  /// rotation by q about e_k, E = [e_k; c e_a + s e_b; c e_b − s e_a] (rows k, a = k+1, b = k+2 mod 3;
  /// c = 1, s = 0 for a prismatic joint), after X_T's translation r (r_T + q e_k for a prismatic one).
  struct AxisPose {
    double c = 1.0, s = 0.0;
    Vec3 r = Vec3::Zero();
  };
  std::vector<std::int8_t> axisStep;  ///< (nb) k when body i's ⁱX_p is an AxisPose, else −1
  std::vector<AxisPose> axisPose;     ///< (nb) inverseDynamics' ⁱX_p where axisStep ≥ 0 (kin.X_p elsewhere)
  std::vector<Mat3> bodyAxes;         ///< (nb) with the loads: ⁱE_0ᵀ, body i's axes in world coordinates

  explicit RneaWorkspace(const Tree& tree);
};

/// Body accelerations from kinematics (positions and velocities) and q̈, with a_0 = −g.
void bodyAccelerations(const Tree& tree, const Kinematics& kin, const VectorX& qdd, std::vector<Vec6>& a);

/// The backward pass: joint wrenches f_i from body accelerations a_i (tip to base).
void jointWrenchesFromAccelerations(const Tree& tree, const Kinematics& kin, const std::vector<Vec6>& a,
                                    ExternalWrenches fext, std::vector<Vec6>& f);

/// Fills loads.tau, loads.lambda and loads.fWorld from loads.f (and the body poses in kin).
void completeJointLoads(const Tree& tree, const Kinematics& kin, const VectorX& q, JointLoads& loads);
/// The same for body i alone, once loads.f[i] is whole: a tip-to-base pass calls it as it finishes
/// each f_i, where the work overlaps the pass's chain of sums. T: scratch (for a T not read off the axes).
/// Without `worldAxes`, loads.fWorld[i] is left as it is (and kin.X_0 is not read).
void completeJointLoad(const Tree& tree, const Kinematics& kin, const VectorX& q, int i, Mat6N& T, JointLoads& loads,
                       bool worldAxes = true);

/// Inverse dynamics τ = ID(q, ν, q̈, f_ext); with `loads`, the full joint loads as well. Leaves
/// ws.kin.v, ws.a and, with `loads`, ws.bodyAxes for the state given (ws.kin.X_p only for the
/// bodies off the axis path: axisStep < 0, and roots; ws.kin.X_0 is left alone, the world axes of
/// the loads needing the rotations only).
/// With `netWrenches` (the algorithm stepper), each body's own wrench I_i a_i + v_i ×* I_i v_i −
/// f_i^app as the forward pass leaves it, before the children's are added.
void inverseDynamics(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, const VectorX& qdd,
                     ExternalWrenches fext, VectorX& tau, JointLoads* loads = nullptr,
                     std::vector<Vec6>* netWrenches = nullptr);

/// Bias forces h(q, ν) = ID(q, ν, 0) (gravity, velocity products, applied wrenches).
void biasForces(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, ExternalWrenches fext,
                VectorX& h);

/// Joint-space mass matrix M(q) by the composite-rigid-body algorithm (Featherstone Table 6.2).
/// Uses ws.kin's positions, computing them first when `computePositions` is true.
void massMatrix(const Tree& tree, RneaWorkspace& ws, const VectorX& q, MatrixX& M, bool computePositions = true);

}  // namespace kt
