// SPDX-License-Identifier: BSD-3-Clause
// Spatial vector algebra (Featherstone, Rigid Body Dynamics Algorithms, 2008, ch. 2).
//
// Conventions (docs/dynamics.md §1):
//   motion vectors v = [ω; v_O], force vectors f = [n_O; f]: angular part on top.
//   ᴮX_A maps motion vectors from A to B coordinates:  ᴮX_A = [E 0; −E r̃ E],
//   E rotating A-coordinates into B-coordinates, r the origin of B in A-coordinates.
//   Forces map with ᴮX*_A = (ᴬX_B)ᵀ.
// Everything here is fixed-size: no heap allocation anywhere.
#pragma once

#include <cmath>
#include <type_traits>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace kt {

template <typename Scalar>
using Vector3 = Eigen::Matrix<Scalar, 3, 1>;
template <typename Scalar>
using Vector6 = Eigen::Matrix<Scalar, 6, 1>;
template <typename Scalar>
using Matrix3 = Eigen::Matrix<Scalar, 3, 3>;
template <typename Scalar>
using Matrix6 = Eigen::Matrix<Scalar, 6, 6>;

using Vec3 = Vector3<double>;
using Mat3 = Matrix3<double>;
using Vec6 = Vector6<double>;
using Mat6 = Matrix6<double>;
using Quat = Eigen::Quaterniond;

// Everything below is a template on the scalar, double unless named (the long-double references of
// the tests name it). The parameters are not deduced (std::type_identity_t), so an argument converts
// to them as to a plain function's: skew(v.head<3>()) is skew<double>. As templates, the operations
// are compiled only in the files that call them; as plain inline functions, every file that
// included this header paid about 3 s for the Eigen products of all of them (docs/development.md,
// "Build time"). They stay declared inline: GCC gives a function declared so a larger inlining
// budget, and without it the solvers lost calls they had inlined.
template <typename Scalar>
using NotDeduced = std::type_identity_t<Scalar>;

/// Skew-symmetric matrix: skew(a) b = a × b.
template <typename Scalar = double>
inline Matrix3<Scalar> skew(const NotDeduced<Vector3<Scalar>>& a) {
  Matrix3<Scalar> m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

template <typename Scalar = double>
inline Vector3<Scalar> angular(const NotDeduced<Vector6<Scalar>>& v) {
  return v.template head<3>();
}
template <typename Scalar = double>
inline Vector3<Scalar> linear(const NotDeduced<Vector6<Scalar>>& v) {
  return v.template tail<3>();
}
template <typename Scalar = double>
inline Vector6<Scalar> spatial(const NotDeduced<Vector3<Scalar>>& top, const NotDeduced<Vector3<Scalar>>& bottom) {
  Vector6<Scalar> s;
  s << top, bottom;
  return s;
}

/// Motion cross product v × m  (Featherstone eq. 2.31).
template <typename Scalar = double>
inline Vector6<Scalar> crossMotion(const NotDeduced<Vector6<Scalar>>& v, const NotDeduced<Vector6<Scalar>>& m) {
  const Vector3<Scalar> w = v.template head<3>(), vo = v.template tail<3>();
  return spatial<Scalar>(w.cross(m.template head<3>()), w.cross(m.template tail<3>()) + vo.cross(m.template head<3>()));
}

/// Force cross product v ×* f = −(v×)ᵀ f  (Featherstone eq. 2.32).
template <typename Scalar = double>
inline Vector6<Scalar> crossForce(const NotDeduced<Vector6<Scalar>>& v, const NotDeduced<Vector6<Scalar>>& f) {
  const Vector3<Scalar> w = v.template head<3>(), vo = v.template tail<3>();
  return spatial<Scalar>(w.cross(f.template head<3>()) + vo.cross(f.template tail<3>()), w.cross(f.template tail<3>()));
}

/// The 6×6 matrix of v× (for assembling dense operators in tests and CRBA-type code).
template <typename Scalar = double>
inline Matrix6<Scalar> crossMotionMatrix(const NotDeduced<Vector6<Scalar>>& v) {
  Matrix6<Scalar> m = Matrix6<Scalar>::Zero();
  m.template topLeftCorner<3, 3>() = skew<Scalar>(v.template head<3>());
  m.template bottomLeftCorner<3, 3>() = skew<Scalar>(v.template tail<3>());
  m.template bottomRightCorner<3, 3>() = skew<Scalar>(v.template head<3>());
  return m;
}
template <typename Scalar = double>
inline Matrix6<Scalar> crossForceMatrix(const NotDeduced<Vector6<Scalar>>& v) {
  return -crossMotionMatrix<Scalar>(v).transpose();
}

/// Plücker transform ᴮX_A stored as (E, r).
template <typename Scalar>
struct XformTpl {
  using V3 = Vector3<Scalar>;
  using V6 = Vector6<Scalar>;
  using M3 = Matrix3<Scalar>;

  M3 E = M3::Identity();  ///< rotation: A-coordinates → B-coordinates
  V3 r = V3::Zero();      ///< origin of B, in A-coordinates

  static XformTpl identity() { return {}; }
  static XformTpl rotation(const M3& E) { return {E, V3::Zero()}; }
  static XformTpl translation(const V3& r) { return {M3::Identity(), r}; }

  /// ᴮX_A m (motion vector from A to B).
  V6 applyMotion(const V6& m) const {
    const V3 w = m.template head<3>();
    return spatial<Scalar>(E * w, E * (m.template tail<3>() - r.cross(w)));
  }
  /// ᴮX*_A f (force vector from A to B).
  V6 applyForce(const V6& f) const {
    const V3 fl = f.template tail<3>();
    return spatial<Scalar>(E * (f.template head<3>() - r.cross(fl)), E * fl);
  }
  /// ᴬX_B m = (ᴮX_A)⁻¹ m (motion vector from B back to A).
  V6 inverseMotion(const V6& m) const {
    const V3 w = E.transpose() * m.template head<3>();
    return spatial<Scalar>(w, E.transpose() * m.template tail<3>() + r.cross(w));
  }
  /// ᴬX*_B f = (ᴮX_A)ᵀ f (force vector from B back to A).
  V6 inverseForce(const V6& f) const {
    const V3 fl = E.transpose() * f.template tail<3>();
    return spatial<Scalar>(E.transpose() * f.template head<3>() + r.cross(fl), fl);
  }
  /// Composition: (ᶜX_B)(ᴮX_A) = ᶜX_A, written this * rhs.
  XformTpl operator*(const XformTpl& rhs) const { return {E * rhs.E, rhs.r + rhs.E.transpose() * r}; }
  /// ᴬX_B.
  XformTpl inverse() const { return {E.transpose(), -E * r}; }
  /// The 6×6 motion-transform matrix.
  Matrix6<Scalar> matrix() const {
    Matrix6<Scalar> X = Matrix6<Scalar>::Zero();
    X.template topLeftCorner<3, 3>() = E;
    X.template bottomRightCorner<3, 3>() = E;
    X.template bottomLeftCorner<3, 3>() = -E * skew<Scalar>(r);
    return X;
  }
  /// 6×n block transformed as motion vectors (columns).
  template <typename Derived>
  Eigen::Matrix<Scalar, 6, Derived::ColsAtCompileTime, 0, 6, Derived::MaxColsAtCompileTime> applyMotionCols(
      const Eigen::MatrixBase<Derived>& M) const {
    Eigen::Matrix<Scalar, 6, Derived::ColsAtCompileTime, 0, 6, Derived::MaxColsAtCompileTime> out(6, M.cols());
    for (Eigen::Index c = 0; c < M.cols(); ++c) out.col(c) = applyMotion(M.col(c));
    return out;
  }
};
using Xform = XformTpl<double>;

/// Rigid-body spatial inertia about a frame origin: mass m, first moment h = m c, rotational
/// inertia Ī_O about the origin. I = [Ī_O, h̃; h̃ᵀ, m 1]  (Featherstone eq. 2.63).
template <typename Scalar>
struct InertiaTpl {
  using V3 = Vector3<Scalar>;
  using V6 = Vector6<Scalar>;
  using M3 = Matrix3<Scalar>;

  Scalar m = Scalar(0);
  V3 h = V3::Zero();
  M3 Io = M3::Zero();  ///< rotational inertia about the frame origin

  /// From mass, centre of mass c and inertia Ī_c about the centre of mass.
  static InertiaTpl fromMassComInertia(Scalar mass, const V3& c, const M3& Ic) {
    const M3 cx = skew<Scalar>(c);
    return {mass, mass * c, Ic + mass * cx * cx.transpose()};
  }
  V6 operator*(const V6& v) const {
    const V3 w = v.template head<3>(), vo = v.template tail<3>();
    return spatial<Scalar>(Io * w + h.cross(vo), m * vo - h.cross(w));
  }
  Matrix6<Scalar> matrix() const {
    Matrix6<Scalar> I;
    const M3 hx = skew<Scalar>(h);
    I.template topLeftCorner<3, 3>() = Io;
    I.template topRightCorner<3, 3>() = hx;
    I.template bottomLeftCorner<3, 3>() = hx.transpose();
    I.template bottomRightCorner<3, 3>() = m * M3::Identity();
    return I;
  }
  V3 com() const { return h / m; }
};
using Inertia = InertiaTpl<double>;

/// ᴬX*_B I_B ᴮX_A for a symmetric 6×6 (articulated) inertia expressed in B: the inertia expressed
/// in A. With I_B = [A B; Bᵀ C] and ᴮX_A = diag(E, E) [1 0; −r̃ 1], rotating the blocks first
/// (A' = Eᵀ A E, …) gives [A' + r̃B'ᵀ − B'r̃ − r̃C'r̃,  B' + r̃C';  sym,  C'] in O(3×3) products
/// instead of two 6×6 ones.
template <typename Scalar = double>
inline Matrix6<Scalar> transformInertiaToParent(const NotDeduced<XformTpl<Scalar>>& X_B_A,
                                                const NotDeduced<Matrix6<Scalar>>& I_B) {
  using M3 = Matrix3<Scalar>;
  const M3& E = X_B_A.E;
  const Vector3<Scalar>& r = X_B_A.r;
  // Eᵀ M E as two coefficient-wise 3×3 products (no temporaries of the general product kernel)
  const auto rotate = [&E](const auto& M) {
    M3 ME, out;
    ME.noalias() = M.lazyProduct(E);
    out.noalias() = E.transpose().lazyProduct(ME);
    return out;
  };
  const M3 A = rotate(I_B.template topLeftCorner<3, 3>());
  const M3 B = rotate(I_B.template topRightCorner<3, 3>());
  const M3 C = rotate(I_B.template bottomRightCorner<3, 3>());
  // products with r̃ as cross products: (r̃M).col(k) = r × M.col(k), (M r̃).row(k) = −(r × M.row(k)ᵀ)ᵀ
  M3 rxC, rxBt, rxCrx;
  for (int k = 0; k < 3; ++k) {
    rxC.col(k) = r.cross(C.col(k));
    rxBt.col(k) = r.cross(B.row(k).transpose());
  }
  for (int k = 0; k < 3; ++k) rxCrx.row(k) = -r.cross(rxC.row(k).transpose()).transpose();
  const M3 Bn = B + rxC;
  Matrix6<Scalar> out;
  out.template topLeftCorner<3, 3>() = A + rxBt + rxBt.transpose() - rxCrx;
  out.template topRightCorner<3, 3>() = Bn;
  out.template bottomLeftCorner<3, 3>() = Bn.transpose();
  out.template bottomRightCorner<3, 3>() = C;
  return out;
}

/// Rotation matrix from URDF roll-pitch-yaw (fixed axes X, Y, Z): R = Rz(yaw) Ry(pitch) Rx(roll).
template <typename Scalar = double>
inline Matrix3<Scalar> rotationFromRpy(const NotDeduced<Vector3<Scalar>>& rpy) {
  using Axis = Eigen::AngleAxis<Scalar>;
  using V3 = Vector3<Scalar>;
  return (Axis(rpy.z(), V3::UnitZ()) * Axis(rpy.y(), V3::UnitY()) * Axis(rpy.x(), V3::UnitX())).toRotationMatrix();
}

/// Roll-pitch-yaw (ZYX Euler: R = Rz(ψ) Ry(θ) Rx(φ)) of a rotation matrix; returns (φ, θ, ψ).
/// Near θ = ±90° (gimbal lock) roll and yaw are each lost in rounding and only their combination
/// is defined: the roll is then what the yaw and pitch leave of R, so that the angles give R back.
template <typename Scalar = double>
inline Vector3<Scalar> rpyFromRotation(const NotDeduced<Matrix3<Scalar>>& R) {
  using std::atan2;
  using std::hypot;
  using Axis = Eigen::AngleAxis<Scalar>;
  using V3 = Vector3<Scalar>;
  const Scalar cosPitch = hypot(R(0, 0), R(1, 0));
  const Scalar pitch = atan2(-R(2, 0), cosPitch);
  const Scalar yaw = atan2(R(1, 0), R(0, 0));
  if (cosPitch > Scalar(0.5)) return {atan2(R(2, 1), R(2, 2)), pitch, yaw};
  const Matrix3<Scalar> M = (Axis(yaw, V3::UnitZ()) * Axis(pitch, V3::UnitY())).toRotationMatrix().transpose() *
                            R;  // Rx(roll), up to rounding
  return {atan2(M(2, 1) - M(1, 2), M(1, 1) + M(2, 2)), pitch, yaw};
}

}  // namespace kt
