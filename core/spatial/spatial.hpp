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

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;

// Everything below is a template on the scalar, double unless named (the long-double ABA of the
// tests names it); Xform and Inertia are the double forms of BasicXform and BasicInertia, as
// std::string is of std::basic_string. The functions' parameters are not deduced
// (std::type_identity_t), so an argument converts to them as to a plain function's:
// skew(v.head<3>()) is skew<double>. As templates, the operations are compiled only in the files
// that call them; as plain inline functions, every file that included this header paid about 3 s
// for the Eigen products of all of them (docs/development.md, "Build time"). They stay declared
// inline: GCC gives a function declared so a larger inlining budget, and without it the solvers
// lost calls they had inlined.

/// Skew-symmetric matrix: skew(a) b = a × b.
template <typename Scalar = double>
inline Eigen::Matrix3<Scalar> skew(const std::type_identity_t<Eigen::Vector3<Scalar>>& a) {
  Eigen::Matrix3<Scalar> m;
  m << Scalar(0), -a.z(), a.y(), a.z(), Scalar(0), -a.x(), -a.y(), a.x(), Scalar(0);
  return m;
}

template <typename Scalar = double>
inline Eigen::Vector3<Scalar> angular(const std::type_identity_t<Eigen::Vector<Scalar, 6>>& v) {
  return v.template head<3>();
}
template <typename Scalar = double>
inline Eigen::Vector3<Scalar> linear(const std::type_identity_t<Eigen::Vector<Scalar, 6>>& v) {
  return v.template tail<3>();
}
template <typename Scalar = double>
inline Eigen::Vector<Scalar, 6> spatial(const std::type_identity_t<Eigen::Vector3<Scalar>>& top,
                                        const std::type_identity_t<Eigen::Vector3<Scalar>>& bottom) {
  Eigen::Vector<Scalar, 6> s;
  s << top, bottom;
  return s;
}

/// Motion cross product v × m  (Featherstone eq. 2.31).
template <typename Scalar = double>
inline Eigen::Vector<Scalar, 6> crossMotion(const std::type_identity_t<Eigen::Vector<Scalar, 6>>& v,
                                            const std::type_identity_t<Eigen::Vector<Scalar, 6>>& m) {
  const Eigen::Vector3<Scalar> w = v.template head<3>(), vo = v.template tail<3>();
  return spatial<Scalar>(w.cross(m.template head<3>()), w.cross(m.template tail<3>()) + vo.cross(m.template head<3>()));
}

/// Force cross product v ×* f = −(v×)ᵀ f  (Featherstone eq. 2.32).
template <typename Scalar = double>
inline Eigen::Vector<Scalar, 6> crossForce(const std::type_identity_t<Eigen::Vector<Scalar, 6>>& v,
                                           const std::type_identity_t<Eigen::Vector<Scalar, 6>>& f) {
  const Eigen::Vector3<Scalar> w = v.template head<3>(), vo = v.template tail<3>();
  return spatial<Scalar>(w.cross(f.template head<3>()) + vo.cross(f.template tail<3>()), w.cross(f.template tail<3>()));
}

/// The 6×6 matrix of v× (for assembling dense operators in tests and CRBA-type code).
template <typename Scalar = double>
inline Eigen::Matrix<Scalar, 6, 6> crossMotionMatrix(const std::type_identity_t<Eigen::Vector<Scalar, 6>>& v) {
  Eigen::Matrix<Scalar, 6, 6> m = Eigen::Matrix<Scalar, 6, 6>::Zero();
  m.template topLeftCorner<3, 3>() = skew<Scalar>(v.template head<3>());
  m.template bottomLeftCorner<3, 3>() = skew<Scalar>(v.template tail<3>());
  m.template bottomRightCorner<3, 3>() = skew<Scalar>(v.template head<3>());
  return m;
}
template <typename Scalar = double>
inline Eigen::Matrix<Scalar, 6, 6> crossForceMatrix(const std::type_identity_t<Eigen::Vector<Scalar, 6>>& v) {
  return -crossMotionMatrix<Scalar>(v).transpose();
}

/// Plücker transform ᴮX_A stored as (E, r).
template <typename Scalar>
struct BasicXform {
  Eigen::Matrix3<Scalar> E = Eigen::Matrix3<Scalar>::Identity();  ///< rotation: A-coordinates → B-coordinates
  Eigen::Vector3<Scalar> r = Eigen::Vector3<Scalar>::Zero();      ///< origin of B, in A-coordinates

  static BasicXform identity() { return {}; }
  static BasicXform rotation(const Eigen::Matrix3<Scalar>& E) { return {E, Eigen::Vector3<Scalar>::Zero()}; }
  static BasicXform translation(const Eigen::Vector3<Scalar>& r) { return {Eigen::Matrix3<Scalar>::Identity(), r}; }

  /// ᴮX_A m (motion vector from A to B).
  Eigen::Vector<Scalar, 6> applyMotion(const Eigen::Vector<Scalar, 6>& m) const {
    const Eigen::Vector3<Scalar> w = m.template head<3>();
    return spatial<Scalar>(E * w, E * (m.template tail<3>() - r.cross(w)));
  }
  /// ᴮX*_A f (force vector from A to B).
  Eigen::Vector<Scalar, 6> applyForce(const Eigen::Vector<Scalar, 6>& f) const {
    const Eigen::Vector3<Scalar> fl = f.template tail<3>();
    return spatial<Scalar>(E * (f.template head<3>() - r.cross(fl)), E * fl);
  }
  /// ᴬX_B m = (ᴮX_A)⁻¹ m (motion vector from B back to A).
  Eigen::Vector<Scalar, 6> inverseMotion(const Eigen::Vector<Scalar, 6>& m) const {
    const Eigen::Vector3<Scalar> w = E.transpose() * m.template head<3>();
    return spatial<Scalar>(w, E.transpose() * m.template tail<3>() + r.cross(w));
  }
  /// ᴬX*_B f = (ᴮX_A)ᵀ f (force vector from B back to A).
  Eigen::Vector<Scalar, 6> inverseForce(const Eigen::Vector<Scalar, 6>& f) const {
    const Eigen::Vector3<Scalar> fl = E.transpose() * f.template tail<3>();
    return spatial<Scalar>(E.transpose() * f.template head<3>() + r.cross(fl), fl);
  }
  /// Composition: (ᶜX_B)(ᴮX_A) = ᶜX_A, written this * rhs.
  BasicXform operator*(const BasicXform& rhs) const { return {E * rhs.E, rhs.r + rhs.E.transpose() * r}; }
  /// ᴬX_B.
  BasicXform inverse() const { return {E.transpose(), -E * r}; }
  /// The 6×6 motion-transform matrix.
  Eigen::Matrix<Scalar, 6, 6> matrix() const {
    Eigen::Matrix<Scalar, 6, 6> X = Eigen::Matrix<Scalar, 6, 6>::Zero();
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
using Xform = BasicXform<double>;

/// Rigid-body spatial inertia about a frame origin: mass m, first moment h = m c, rotational
/// inertia Ī_O about the origin. I = [Ī_O, h̃; h̃ᵀ, m 1]  (Featherstone eq. 2.63).
template <typename Scalar>
struct BasicInertia {
  Scalar m = Scalar(0);
  Eigen::Vector3<Scalar> h = Eigen::Vector3<Scalar>::Zero();
  Eigen::Matrix3<Scalar> Io = Eigen::Matrix3<Scalar>::Zero();  ///< rotational inertia about the frame origin

  /// From mass, centre of mass c and inertia Ī_c about the centre of mass.
  static BasicInertia fromMassComInertia(Scalar mass, const Eigen::Vector3<Scalar>& c,
                                         const Eigen::Matrix3<Scalar>& Ic) {
    const Eigen::Matrix3<Scalar> cx = skew<Scalar>(c);
    return {mass, mass * c, Ic + mass * cx * cx.transpose()};
  }
  Eigen::Vector<Scalar, 6> operator*(const Eigen::Vector<Scalar, 6>& v) const {
    const Eigen::Vector3<Scalar> w = v.template head<3>(), vo = v.template tail<3>();
    return spatial<Scalar>(Io * w + h.cross(vo), m * vo - h.cross(w));
  }
  Eigen::Matrix<Scalar, 6, 6> matrix() const {
    Eigen::Matrix<Scalar, 6, 6> I;
    const Eigen::Matrix3<Scalar> hx = skew<Scalar>(h);
    I.template topLeftCorner<3, 3>() = Io;
    I.template topRightCorner<3, 3>() = hx;
    I.template bottomLeftCorner<3, 3>() = hx.transpose();
    I.template bottomRightCorner<3, 3>() = m * Eigen::Matrix3<Scalar>::Identity();
    return I;
  }
  Eigen::Vector3<Scalar> com() const { return h / m; }
};
using Inertia = BasicInertia<double>;

/// ᴬX*_B I_B ᴮX_A for a symmetric 6×6 (articulated) inertia expressed in B: the inertia expressed
/// in A. With I_B = [A B; Bᵀ C] and ᴮX_A = diag(E, E) [1 0; −r̃ 1], rotating the blocks first
/// (A' = Eᵀ A E, …) gives [A' + r̃B'ᵀ − B'r̃ − r̃C'r̃,  B' + r̃C';  sym,  C'] in O(3×3) products
/// instead of two 6×6 ones.
template <typename Scalar = double>
inline Eigen::Matrix<Scalar, 6, 6> transformInertiaToParent(
    const std::type_identity_t<BasicXform<Scalar>>& X_B_A,
    const std::type_identity_t<Eigen::Matrix<Scalar, 6, 6>>& I_B) {
  const Eigen::Matrix3<Scalar>& E = X_B_A.E;
  const Eigen::Vector3<Scalar>& r = X_B_A.r;
  // Eᵀ M E as two coefficient-wise 3×3 products (no temporaries of the general product kernel)
  const auto rotate = [&E](const auto& M) {
    Eigen::Matrix3<Scalar> ME, out;
    ME.noalias() = M.lazyProduct(E);
    out.noalias() = E.transpose().lazyProduct(ME);
    return out;
  };
  const Eigen::Matrix3<Scalar> A = rotate(I_B.template topLeftCorner<3, 3>());
  const Eigen::Matrix3<Scalar> B = rotate(I_B.template topRightCorner<3, 3>());
  const Eigen::Matrix3<Scalar> C = rotate(I_B.template bottomRightCorner<3, 3>());
  // products with r̃ as cross products: (r̃M).col(k) = r × M.col(k), (M r̃).row(k) = −(r × M.row(k)ᵀ)ᵀ
  Eigen::Matrix3<Scalar> rxC, rxBt, rxCrx;
  for (int k = 0; k < 3; ++k) {
    rxC.col(k) = r.cross(C.col(k));
    rxBt.col(k) = r.cross(B.row(k).transpose());
  }
  for (int k = 0; k < 3; ++k) rxCrx.row(k) = -r.cross(rxC.row(k).transpose()).transpose();
  const Eigen::Matrix3<Scalar> Bn = B + rxC;
  Eigen::Matrix<Scalar, 6, 6> out;
  out.template topLeftCorner<3, 3>() = A + rxBt + rxBt.transpose() - rxCrx;
  out.template topRightCorner<3, 3>() = Bn;
  out.template bottomLeftCorner<3, 3>() = Bn.transpose();
  out.template bottomRightCorner<3, 3>() = C;
  return out;
}

/// Rotation matrix from URDF roll-pitch-yaw (fixed axes X, Y, Z): R = Rz(yaw) Ry(pitch) Rx(roll).
template <typename Scalar = double>
inline Eigen::Matrix3<Scalar> rotationFromRpy(const std::type_identity_t<Eigen::Vector3<Scalar>>& rpy) {
  using Axis = Eigen::AngleAxis<Scalar>;
  return (Axis(rpy.z(), Eigen::Vector3<Scalar>::UnitZ()) * Axis(rpy.y(), Eigen::Vector3<Scalar>::UnitY()) *
          Axis(rpy.x(), Eigen::Vector3<Scalar>::UnitX()))
      .toRotationMatrix();
}

/// Roll-pitch-yaw (ZYX Euler: R = Rz(ψ) Ry(θ) Rx(φ)) of a rotation matrix; returns (φ, θ, ψ).
/// Near θ = ±90° (gimbal lock) roll and yaw are each lost in rounding and only their combination
/// is defined: the roll is then what the yaw and pitch leave of R, so that the angles give R back.
template <typename Scalar = double>
inline Eigen::Vector3<Scalar> rpyFromRotation(const std::type_identity_t<Eigen::Matrix3<Scalar>>& R) {
  using std::atan2;
  using std::hypot;
  using Axis = Eigen::AngleAxis<Scalar>;
  const Scalar cosPitch = hypot(R(0, 0), R(1, 0));
  const Scalar pitch = atan2(-R(2, 0), cosPitch);
  const Scalar yaw = atan2(R(1, 0), R(0, 0));
  if (cosPitch > Scalar(0.5)) return {atan2(R(2, 1), R(2, 2)), pitch, yaw};
  const Eigen::Matrix3<Scalar> M =
      (Axis(yaw, Eigen::Vector3<Scalar>::UnitZ()) * Axis(pitch, Eigen::Vector3<Scalar>::UnitY()))
          .toRotationMatrix()
          .transpose() *
      R;  // Rx(roll), up to rounding
  return {atan2(M(2, 1) - M(1, 2), M(1, 1) + M(2, 2)), pitch, yaw};
}

}  // namespace kt
