// SPDX-License-Identifier: BSD-3-Clause
// Joint kinematics: X_J(q), S, S̊ q̇, T, D, q̇ from ν, and integration on the joint's manifold
// (docs/dynamics.md §2). One type switch here; every solver goes through this interface.
//
// Frames: the joint frame J is fixed in the parent (X_T), the child body frame C moves with
// the joint; ᶜX_J = X_J(q). S, T, D are expressed in child (body) coordinates.
#pragma once

#include <array>

#include "core/model/joint_type.hpp"
#include "core/spatial/spatial.hpp"

namespace kt {

/// 6×n blocks with n ≤ 6, fixed storage (no heap).
using Mat6N = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;
using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
using MatN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

/// A frame in which a joint's motion subspace selects coordinate axes (JointModel::coordinateFrame).
struct JointCoordinateFrame {
  Mat3 R = Mat3::Identity();  ///< the frame's axes (columns) in body coordinates
  std::array<int, 6> dims{};  ///< the coordinates S spans in that frame, in the order of ν (nv entries)
};

struct JointModel {
  JointType type = JointType::Fixed;
  int nq = 0;
  int nv = 0;
  bool offset = false;         ///< point2 or point3 is not zero: S has translational rows (see point2)
  Vec3 axis = Vec3::UnitZ();   ///< unit; revolute/prismatic/cylindrical axis, planar normal, universal axis 1
  Vec3 axis2 = Vec3::UnitY();  ///< unit; universal and gimbal axis 2
  Vec3 axis3 = Vec3::UnitZ();  ///< unit; gimbal axis 3 (child side)
  Vec3 perp1 = Vec3::UnitX();  ///< unit, ⊥ axis
  Vec3 perp2 = Vec3::UnitY();  ///< axis × perp1
  int unitAxis = -1;           ///< k when axis is exactly the coordinate axis e_k (k = 0, 1, 2), else −1
  /// Universal and gimbal joints whose axes do not all pass through the joint origin (MuJoCo's
  /// hinges at their own anchors: a humanoid's ankle): axis 2 passes through point2 and axis 3
  /// through point3, child body coordinates; axis 1 through the origin. The child's pose in the
  /// joint frame is M₁(q₁) M₂(q₂) [M₃(q₃)], M_k the rotation by q_k about axis k through its point.
  /// Last in the record, with `offset` in the padding after nv: the fields every joint's solver
  /// steps read stay in the cache lines they were in.
  Vec3 point2 = Vec3::Zero();
  Vec3 point3 = Vec3::Zero();

  /// Builds the joint and its perpendicular basis; axes are normalized here.
  static JointModel make(JointType type, const Vec3& axis, const Vec3& axis2, const Vec3& axis3 = Vec3::UnitZ(),
                         const Vec3& point2 = Vec3::Zero(), const Vec3& point3 = Vec3::Zero());

  /// ᶜX_J = X_J(q).
  Xform transform(const double* q) const;
  /// X_J(q) X_T: the body's placement relative to its parent, ⁱX_p, for the joint's placement
  /// X_T in the parent. The same as transform(q) * X_T, cheaper for rotations about x, y or z.
  Xform placement(const double* q, const Xform& X_T) const;
  /// placement() and transform() of a revolute joint from c = cos q and s = sin q, the same to
  /// the last bit (the kinematics pass keeps them: Kinematics::cosSin).
  Xform revolutePlacement(double c, double s, const Xform& X_T) const;
  Xform revoluteTransform(double c, double s) const;
  /// Motion subspace S (6×nv) in child coordinates (q is read only where subspacesDependOnQ()).
  void motionSubspace(const double* q, Mat6N& S) const;
  /// Constraint-force subspace T (6×(6−nv)), orthonormal columns, Sᵀ T = 0.
  void constraintSubspace(const double* q, Mat6N& T) const;
  /// D = S (SᵀS)⁻¹ so that Sᵀ D = 1.
  void actuationSubspace(const double* q, Mat6N& D) const;
  /// S̊ q̇: the apparent derivative of S in body coordinates times q̇ (nonzero for universal and gimbal).
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
  /// S̊ᵀ μ into out (nv entries): the rate of S's body coordinates, transposed, times a force μ;
  /// S is motionSubspace(q) at the same q, 6×nv column-major (read, not recomputed). Zero unless
  /// subspacesDependOnQ(): the universal joint's E₂a₁ turns with q₂, d/dt (E₂a₁) = ν₂ (E₂a₁ × a₂);
  /// the gimbal's s₁ = E₃E₂a₁ and s₂ = E₃a₂ turn with q₂ and q₃ (joint.cpp, gimbalAxes).
  void motionSubspaceRateTransposeTimes(const double* S, const double* v, const Vec6& mu, double* out) const;

  // ---- what solvers ask about the structure of S, T and q ----
  /// S, T and D depend on q (universal and gimbal joints); otherwise they are constant in body
  /// coordinates. (A gimbal's T, the three forces, is constant; its S and D are not.)
  bool subspacesDependOnQ() const { return type == JointType::Universal || type == JointType::Gimbal; }
  /// S = 1₆: all six velocity coordinates are free, in body axes (free joint).
  bool motionSubspaceIsIdentity() const { return nv == 6; }
  /// q[0..3] holds a unit quaternion (w, x, y, z) (spherical and free joints; normalize() renormalizes it).
  bool hasQuaternion() const { return type == JointType::Spherical || type == JointType::Free; }
  /// k when S = e_k, a constant coordinate unit vector: a revolute (k = 0, 1, 2) or prismatic
  /// (k = 3, 4, 5) joint along x, y or z. Otherwise −1. Inline: every solver asks per body.
  int unitMotionAxis() const {
    if (unitAxis < 0) return -1;
    if (type == JointType::Revolute) return unitAxis;
    return type == JointType::Prismatic ? 3 + unitAxis : -1;
  }
  /// A joint frame in which S selects coordinates: S = diag(R, R) [e_{d_0} … e_{d_{nv−1}}]. R = 1
  /// for joints along x, y or z and for spherical and free joints, [perp1 perp2 axis] for revolute,
  /// prismatic and cylindrical joints along other axes and for planar joints. A universal joint
  /// has no constant such frame (subspacesDependOnQ): d = (0, 1), R = 1, and S = diag(R, R) [Ŝ; 0]
  /// holds with R and the 2×2 Ŝ found from S at each q. A gimbal's S spans the rotations at every
  /// q away from gimbal lock: d = (0, 1, 2), R = 1, and Ŝ the 3×3 upper block of S at each q.
  /// With offset axes (`offset`) S has translational rows too, and no frame makes it a selection:
  /// the dims still say which coordinates are angles, and solvers take S, T and D as matrices.
  JointCoordinateFrame coordinateFrame() const;
  /// Velocity coordinate k (0 ≤ k < nv) is an angular rate, not a linear one.
  bool velocityIsAngular(int k) const { return coordinateFrame().dims[k] < 3; }
};

/// A unit vector ⊥ a, chosen from the coordinate axis least aligned with a (so that z gives x).
Vec3 perpendicularTo(const Vec3& a);

}  // namespace kt
