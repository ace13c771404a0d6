// Joint kinematics: X_J(q), S, S̊ q̇, T, D, q̇ from ν, and integration on the joint's manifold
// (docs/dynamics.md §2). One type switch here; every solver goes through this interface.
//
// Frames: the joint frame J is fixed in the parent (X_T), the child body frame C moves with
// the joint; ᶜX_J = X_J(q). S, T, D are expressed in child (body) coordinates.
#pragma once

#include "core/model/joint_type.hpp"
#include "core/spatial/spatial.hpp"

namespace kt {

/// 6×n blocks with n ≤ 6, fixed storage (no heap).
using Mat6N = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;
using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
using MatN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

struct JointModel {
  JointType type = JointType::Fixed;
  int nq = 0;
  int nv = 0;
  Vec3 axis = Vec3::UnitZ();   ///< unit; revolute/prismatic/cylindrical axis, planar normal, universal axis 1
  Vec3 axis2 = Vec3::UnitY();  ///< unit; universal axis 2 (child side)
  Vec3 perp1 = Vec3::UnitX();  ///< unit, ⊥ axis
  Vec3 perp2 = Vec3::UnitY();  ///< axis × perp1
  int unitAxis = -1;           ///< k when axis is exactly the coordinate axis e_k (k = 0, 1, 2), else −1

  /// Builds the joint and its perpendicular basis; axes are normalized here.
  static JointModel make(JointType type, const Vec3& axis, const Vec3& axis2);

  /// ᶜX_J = X_J(q).
  Xform transform(const double* q) const;
  /// X_J(q) X_T: the body's placement relative to its parent, ⁱX_p, for the joint's placement
  /// X_T in the parent. The same as transform(q) * X_T, cheaper for rotations about x, y or z.
  Xform placement(const double* q, const Xform& X_T) const;
  /// Motion subspace S (6×nv) in child coordinates.
  void motionSubspace(const double* q, Mat6N& S) const;
  /// Constraint-force subspace T (6×(6−nv)), orthonormal columns, Sᵀ T = 0.
  void constraintSubspace(const double* q, Mat6N& T) const;
  /// D = S (SᵀS)⁻¹ so that Sᵀ D = 1.
  void actuationSubspace(const double* q, Mat6N& D) const;
  /// S̊ q̇: the apparent derivative of S in body coordinates times q̇ (nonzero for universal only).
  Vec6 velocityProduct(const double* q, const double* v) const;
  /// q̇ = G(q) ν.
  void positionDerivative(const double* q, const double* v, double* qdot) const;
  /// q ⊕ ν dt on the joint's manifold (exponential map for quaternions), writing q_out.
  void integrate(const double* q, const double* v, double dt, double* q_out) const;
  /// Renormalize quaternion coordinates in place (no-op for other joints).
  void normalize(double* q) const;
  /// The neutral position (zero angles, identity quaternion).
  void neutral(double* q) const;
  /// Spatial velocity of the child relative to the parent, in child coordinates: S ν.
  Vec6 jointVelocity(const double* q, const double* v) const;
};

/// A unit vector ⊥ a, chosen from the coordinate axis least aligned with a (so that z gives x).
Vec3 perpendicularTo(const Vec3& a);

}  // namespace kt
