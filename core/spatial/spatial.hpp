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

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace kt {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;

/// Skew-symmetric matrix: skew(a) b = a × b.
inline Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

inline Vec3 angular(const Vec6& v) { return v.head<3>(); }
inline Vec3 linear(const Vec6& v) { return v.tail<3>(); }
inline Vec6 spatial(const Vec3& top, const Vec3& bottom) {
  Vec6 s;
  s << top, bottom;
  return s;
}

/// Motion cross product v × m  (Featherstone eq. 2.31).
inline Vec6 crossMotion(const Vec6& v, const Vec6& m) {
  const Vec3 w = v.head<3>(), vo = v.tail<3>();
  return spatial(w.cross(m.head<3>()), w.cross(m.tail<3>()) + vo.cross(m.head<3>()));
}

/// Force cross product v ×* f = −(v×)ᵀ f  (Featherstone eq. 2.32).
inline Vec6 crossForce(const Vec6& v, const Vec6& f) {
  const Vec3 w = v.head<3>(), vo = v.tail<3>();
  return spatial(w.cross(f.head<3>()) + vo.cross(f.tail<3>()), w.cross(f.tail<3>()));
}

/// The 6×6 matrix of v× (for assembling dense operators in tests and CRBA-type code).
inline Mat6 crossMotionMatrix(const Vec6& v) {
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = skew(v.head<3>());
  m.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  m.bottomRightCorner<3, 3>() = skew(v.head<3>());
  return m;
}
inline Mat6 crossForceMatrix(const Vec6& v) { return -crossMotionMatrix(v).transpose(); }

/// Plücker transform ᴮX_A stored as (E, r).
struct Xform {
  Mat3 E = Mat3::Identity();  ///< rotation: A-coordinates → B-coordinates
  Vec3 r = Vec3::Zero();      ///< origin of B, in A-coordinates

  static Xform identity() { return {}; }
  static Xform rotation(const Mat3& E) { return {E, Vec3::Zero()}; }
  static Xform translation(const Vec3& r) { return {Mat3::Identity(), r}; }

  /// ᴮX_A m (motion vector from A to B).
  Vec6 applyMotion(const Vec6& m) const {
    const Vec3 w = m.head<3>();
    return spatial(E * w, E * (m.tail<3>() - r.cross(w)));
  }
  /// ᴮX*_A f (force vector from A to B).
  Vec6 applyForce(const Vec6& f) const {
    const Vec3 fl = f.tail<3>();
    return spatial(E * (f.head<3>() - r.cross(fl)), E * fl);
  }
  /// ᴬX_B m = (ᴮX_A)⁻¹ m (motion vector from B back to A).
  Vec6 inverseMotion(const Vec6& m) const {
    const Vec3 w = E.transpose() * m.head<3>();
    return spatial(w, E.transpose() * m.tail<3>() + r.cross(w));
  }
  /// ᴬX*_B f = (ᴮX_A)ᵀ f (force vector from B back to A).
  Vec6 inverseForce(const Vec6& f) const {
    const Vec3 fl = E.transpose() * f.tail<3>();
    return spatial(E.transpose() * f.head<3>() + r.cross(fl), fl);
  }
  /// Composition: (ᶜX_B)(ᴮX_A) = ᶜX_A, written this * rhs.
  Xform operator*(const Xform& rhs) const { return {E * rhs.E, rhs.r + rhs.E.transpose() * r}; }
  /// ᴬX_B.
  Xform inverse() const { return {E.transpose(), -E * r}; }
  /// The 6×6 motion-transform matrix.
  Mat6 matrix() const {
    Mat6 X = Mat6::Zero();
    X.topLeftCorner<3, 3>() = E;
    X.bottomRightCorner<3, 3>() = E;
    X.bottomLeftCorner<3, 3>() = -E * skew(r);
    return X;
  }
  /// 6×n block transformed as motion vectors (columns).
  template <typename Derived>
  Eigen::Matrix<double, 6, Derived::ColsAtCompileTime, 0, 6, Derived::MaxColsAtCompileTime> applyMotionCols(
      const Eigen::MatrixBase<Derived>& M) const {
    Eigen::Matrix<double, 6, Derived::ColsAtCompileTime, 0, 6, Derived::MaxColsAtCompileTime> out(6, M.cols());
    for (Eigen::Index c = 0; c < M.cols(); ++c) out.col(c) = applyMotion(M.col(c));
    return out;
  }
};

/// Rigid-body spatial inertia about a frame origin: mass m, first moment h = m c, rotational
/// inertia Ī_O about the origin. I = [Ī_O, h̃; h̃ᵀ, m 1]  (Featherstone eq. 2.63).
struct Inertia {
  double m = 0.0;
  Vec3 h = Vec3::Zero();
  Mat3 Io = Mat3::Zero();  ///< rotational inertia about the frame origin

  /// From mass, centre of mass c and inertia Ī_c about the centre of mass.
  static Inertia fromMassComInertia(double mass, const Vec3& c, const Mat3& Ic) {
    const Mat3 cx = skew(c);
    return {mass, mass * c, Ic + mass * cx * cx.transpose()};
  }
  Vec6 operator*(const Vec6& v) const {
    const Vec3 w = v.head<3>(), vo = v.tail<3>();
    return spatial(Io * w + h.cross(vo), m * vo - h.cross(w));
  }
  Mat6 matrix() const {
    Mat6 I;
    const Mat3 hx = skew(h);
    I.topLeftCorner<3, 3>() = Io;
    I.topRightCorner<3, 3>() = hx;
    I.bottomLeftCorner<3, 3>() = hx.transpose();
    I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
    return I;
  }
  Vec3 com() const { return h / m; }
};

/// ᴬX*_B I_B ᴮX_A for a symmetric 6×6 (articulated) inertia expressed in B: the inertia expressed
/// in A. With I_B = [A B; Bᵀ C] and ᴮX_A = diag(E, E) [1 0; −r̃ 1], rotating the blocks first
/// (A' = Eᵀ A E, …) gives [A' + r̃B'ᵀ − B'r̃ − r̃C'r̃,  B' + r̃C';  sym,  C'] in O(3×3) products
/// instead of two 6×6 ones.
inline Mat6 transformInertiaToParent(const Xform& X_B_A, const Mat6& I_B) {
  const Mat3& E = X_B_A.E;
  const Vec3& r = X_B_A.r;
  // Eᵀ M E as two coefficient-wise 3×3 products (no temporaries of the general product kernel)
  const auto rotate = [&E](const auto& M) {
    Mat3 ME, out;
    ME.noalias() = M.lazyProduct(E);
    out.noalias() = E.transpose().lazyProduct(ME);
    return out;
  };
  const Mat3 A = rotate(I_B.template topLeftCorner<3, 3>());
  const Mat3 B = rotate(I_B.template topRightCorner<3, 3>());
  const Mat3 C = rotate(I_B.template bottomRightCorner<3, 3>());
  // products with r̃ as cross products: (r̃M).col(k) = r × M.col(k), (M r̃).row(k) = −(r × M.row(k)ᵀ)ᵀ
  Mat3 rxC, rxBt, rxCrx;
  for (int k = 0; k < 3; ++k) {
    rxC.col(k) = r.cross(C.col(k));
    rxBt.col(k) = r.cross(B.row(k).transpose());
  }
  for (int k = 0; k < 3; ++k) rxCrx.row(k) = -r.cross(rxC.row(k).transpose()).transpose();
  const Mat3 Bn = B + rxC;
  Mat6 out;
  out.topLeftCorner<3, 3>() = A + rxBt + rxBt.transpose() - rxCrx;
  out.topRightCorner<3, 3>() = Bn;
  out.bottomLeftCorner<3, 3>() = Bn.transpose();
  out.bottomRightCorner<3, 3>() = C;
  return out;
}

/// Rotation matrix from URDF roll-pitch-yaw (fixed axes X, Y, Z): R = Rz(yaw) Ry(pitch) Rx(roll).
inline Mat3 rotationFromRpy(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

/// Roll-pitch-yaw (ZYX Euler: R = Rz(ψ) Ry(θ) Rx(φ)) of a rotation matrix; returns (φ, θ, ψ).
/// Near θ = ±90° (gimbal lock) roll and yaw are each lost in rounding and only their combination
/// is defined: the roll is then what the yaw and pitch leave of R, so that the angles give R back.
inline Vec3 rpyFromRotation(const Mat3& R) {
  const double cosPitch = std::hypot(R(0, 0), R(1, 0));
  const double pitch = std::atan2(-R(2, 0), cosPitch);
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  if (cosPitch > 0.5) return {std::atan2(R(2, 1), R(2, 2)), pitch, yaw};
  const Mat3 M =
      (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY())).toRotationMatrix().transpose() *
      R;  // Rx(roll), up to rounding
  return {std::atan2(M(2, 1) - M(1, 2), M(1, 1) + M(2, 2)), pitch, yaw};
}

}  // namespace kt
