// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/joint.hpp"

#include <cmath>

namespace kt {
namespace {

// Rotation matrix of a unit quaternion (w, x, y, z) stored at q[0..3].
Mat3 quatRotation(const double* q) { return Quat(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix(); }

// Eigen::AngleAxisd(angle, a).toRotationMatrix() from c = cos angle and s = sin angle, term for
// term, so that a rotation built again from a kept cos and sin is the same to the last bit.
Mat3 axisRotation(const Vec3& a, double c, double s) {
  const Vec3 sa = s * a, ca = (1.0 - c) * a;
  Mat3 R;
  double t = ca.x() * a.y();
  R(0, 1) = t - sa.z();
  R(1, 0) = t + sa.z();
  t = ca.x() * a.z();
  R(0, 2) = t + sa.y();
  R(2, 0) = t - sa.y();
  t = ca.y() * a.z();
  R(1, 2) = t - sa.x();
  R(2, 1) = t + sa.x();
  R.diagonal() = ca.cwiseProduct(a).array() + c;
  return R;
}

Mat3 axisRotation(const Vec3& a, double angle) { return axisRotation(a, std::cos(angle), std::sin(angle)); }

// ½ q ⊗ (0, ω): the quaternion rate for a body-frame angular velocity ω.
void quatRate(const double* q, const Vec3& w, double* qdot) {
  const double qw = q[0];
  const Vec3 qv(q[1], q[2], q[3]);
  qdot[0] = -0.5 * qv.dot(w);
  const Vec3 d = 0.5 * (qw * w + qv.cross(w));
  qdot[1] = d.x();
  qdot[2] = d.y();
  qdot[3] = d.z();
}

// q ⊗ exp(ω dt): rotate the quaternion by a body-frame angle vector.
void quatIntegrate(const double* q, const Vec3& w, double dt, double* out) {
  const Vec3 phi = w * dt;
  const double angle = phi.norm();
  Quat dq = Quat::Identity();
  if (angle > 0.0) dq = Quat(Eigen::AngleAxisd(angle, phi / angle));
  const Quat r = Quat(q[0], q[1], q[2], q[3]) * dq;
  out[0] = r.w();
  out[1] = r.x();
  out[2] = r.y();
  out[3] = r.z();
}

void quatNormalize(double* q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n > 0.0)
    for (int k = 0; k < 4; ++k) q[k] /= n;
}

// Universal joint: axis 1 seen from the child, E₂ a₁ with E₂ the coordinate rotation by q₂ about a₂.
Vec3 universalFirstAxis(const JointModel& j, const double* q) {
  return axisRotation(j.axis2, q[1]).transpose() * j.axis;
}

// Gimbal joint, R = R(a₁, q₁) R(a₂, q₂) R(a₃, q₃): its axes seen from the child, s₁ = E₃E₂a₁,
// s₂ = E₃a₂ and s₃ = a₃ (E_k the coordinate rotation by q_k about a_k), the columns of S.
struct GimbalAxes {
  Vec3 s1, s2, s3;
};
GimbalAxes gimbalAxes(const JointModel& j, const double* q) {
  const Mat3 E3 = axisRotation(j.axis3, q[2]).transpose();
  const Vec3 s2 = E3 * j.axis2;
  const Vec3 s1 = E3 * (axisRotation(j.axis2, q[1]).transpose() * j.axis);
  return {s1, s2, j.axis3};
}

// Offset axes (JointModel::offset). M(q), the rotation by q about unit axis a through point p, as
// the Plücker transform from the frame before it to the frame after: E = Rᵀ, and the new origin
// p − R p in the old frame's coordinates (p is on the axis: it stays where it is).
Xform hingeMotion(const Vec3& a, const Vec3& p, double q) {
  const Mat3 R = axisRotation(a, q);
  return {R.transpose(), p - R * p};
}

// ξ = [a; p × a], the twist of a rotation about axis a through p (the origin moves at p × a).
Vec6 hingeTwist(const Vec3& a, const Vec3& p) { return spatial(a, p.cross(a)); }

// The columns of S of a universal or gimbal joint with offset axes, in child coordinates:
// S_k = X(M_n ⋯ M_{k+1}) ξ_k, the later motions' transform applied to axis k's twist (the body
// velocity of M₁ ⋯ M_n is Σ_k S_k q̇_k).
int offsetAxes(const JointModel& j, const double* q, Vec6* S) {
  if (j.type == JointType::Universal) {
    const Xform X2 = hingeMotion(j.axis2, j.point2, q[1]);
    S[1] = hingeTwist(j.axis2, j.point2);
    S[0] = X2.applyMotion(hingeTwist(j.axis, Vec3::Zero()));
    return 2;
  }
  const Xform X3 = hingeMotion(j.axis3, j.point3, q[2]);
  const Xform X32 = X3 * hingeMotion(j.axis2, j.point2, q[1]);
  S[2] = hingeTwist(j.axis3, j.point3);
  S[1] = X3.applyMotion(hingeTwist(j.axis2, j.point2));
  S[0] = X32.applyMotion(hingeTwist(j.axis, Vec3::Zero()));
  return 3;
}

}  // namespace

Vec3 perpendicularTo(const Vec3& a) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(a[i]) < std::abs(a[k]) - 1e-12) k = i;
  Vec3 e = Vec3::Unit(k);
  return (e - e.dot(a) * a).normalized();
}

JointModel JointModel::make(JointType type, const Vec3& axis, const Vec3& axis2, const Vec3& axis3, const Vec3& point2,
                            const Vec3& point3) {
  JointModel j;
  j.type = type;
  if (type == JointType::Universal || type == JointType::Gimbal) {
    j.point2 = point2;
    if (type == JointType::Gimbal) j.point3 = point3;
    j.offset = j.point2 != Vec3::Zero() || j.point3 != Vec3::Zero();
  }
  j.nq = jointNq(type);
  j.nv = jointNv(type);
  if (axis.norm() > 0.0) j.axis = axis.normalized();
  if (axis2.norm() > 0.0) j.axis2 = axis2.normalized();
  if (axis3.norm() > 0.0) j.axis3 = axis3.normalized();
  j.perp1 = perpendicularTo(j.axis);
  j.perp2 = j.axis.cross(j.perp1);
  for (int k = 0; k < 3; ++k)
    if (j.axis == Vec3::Unit(k)) j.unitAxis = k;
  return j;
}

Xform JointModel::placement(const double* q, const Xform& X_T) const {
  if (type == JointType::Revolute) return revolutePlacement(std::cos(q[0]), std::sin(q[0]), X_T);
  return transform(q) * X_T;
}

Xform JointModel::revolutePlacement(double c, double s, const Xform& X_T) const {
  if (unitAxis < 0) return revoluteTransform(c, s) * X_T;
  // X_J = rotation by Eᵀ, E the rotation by q about e_k: with (a, b) the next two axes in cyclic
  // order, Eᵀ's rows are e_a c + e_b s, −e_a s + e_b c and e_k, so Eᵀ E_T mixes two rows of E_T;
  // X_J has no translation, so the origin is X_T's.
  const int k = unitAxis, a = (k + 1) % 3, b = (k + 2) % 3;
  Xform X;
  X.E.row(k) = X_T.E.row(k);
  X.E.row(a) = c * X_T.E.row(a) + s * X_T.E.row(b);
  X.E.row(b) = c * X_T.E.row(b) - s * X_T.E.row(a);
  X.r = X_T.r;
  return X;
}

Xform JointModel::revoluteTransform(double c, double s) const {
  return Xform::rotation(axisRotation(axis, c, s).transpose());
}

Xform JointModel::transform(const double* q) const {
  switch (type) {
    case JointType::Fixed: return Xform::identity();
    case JointType::Revolute: return revoluteTransform(std::cos(q[0]), std::sin(q[0]));
    case JointType::Prismatic: return Xform::translation(axis * q[0]);
    case JointType::Cylindrical: return {axisRotation(axis, q[0]).transpose(), axis * q[1]};
    case JointType::Universal:
      if (offset) return hingeMotion(axis2, point2, q[1]) * hingeMotion(axis, Vec3::Zero(), q[0]);
      return Xform::rotation((axisRotation(axis, q[0]) * axisRotation(axis2, q[1])).transpose());
    case JointType::Gimbal:
      if (offset)
        return hingeMotion(axis3, point3, q[2]) * hingeMotion(axis2, point2, q[1]) *
               hingeMotion(axis, Vec3::Zero(), q[0]);
      return Xform::rotation(
          (axisRotation(axis, q[0]) * axisRotation(axis2, q[1]) * axisRotation(axis3, q[2])).transpose());
    case JointType::Spherical: return Xform::rotation(quatRotation(q).transpose());
    case JointType::Planar: return {axisRotation(axis, q[0]).transpose(), perp1 * q[1] + perp2 * q[2]};
    case JointType::Free: return {quatRotation(q).transpose(), Vec3(q[4], q[5], q[6])};
  }
  return Xform::identity();
}

void JointModel::motionSubspace(const double* q, Mat6N& S) const {
  S.setZero(6, nv);
  if (offset) {
    Vec6 cols[3];
    const int n = offsetAxes(*this, q, cols);
    for (int k = 0; k < n; ++k) S.col(k) = cols[k];
    return;
  }
  switch (type) {
    case JointType::Fixed: break;
    case JointType::Revolute: S.col(0).head<3>() = axis; break;
    case JointType::Prismatic: S.col(0).tail<3>() = axis; break;
    case JointType::Cylindrical:
      S.col(0).head<3>() = axis;
      S.col(1).tail<3>() = axis;
      break;
    case JointType::Universal:
      S.col(0).head<3>() = universalFirstAxis(*this, q);
      S.col(1).head<3>() = axis2;
      break;
    case JointType::Gimbal: {
      const GimbalAxes g = gimbalAxes(*this, q);
      S.col(0).head<3>() = g.s1;
      S.col(1).head<3>() = g.s2;
      S.col(2).head<3>() = g.s3;
      break;
    }
    case JointType::Spherical: S.topRows<3>().setIdentity(); break;
    case JointType::Planar:
      S.col(0).head<3>() = axis;
      S.col(1).tail<3>() = perp1;
      S.col(2).tail<3>() = perp2;
      break;
    case JointType::Free: S.setIdentity(); break;
  }
}

void JointModel::constraintSubspace(const double* q, Mat6N& T) const {
  T.setZero(6, 6 - nv);
  if (offset) {
    // Wrenches that do no work on S: for each force direction e_j, the force e_j with the moment
    // m_j in the span of the axes that cancels its work on each axis's moving point
    // (Ŝᵀ m_j = −Vᵀ e_j, S = [Ŝ; V]); for a universal joint also the moment about s₁ × s₂. They
    // turn continuously with q, and Gram–Schmidt in this order makes them orthonormal. With the
    // points at the origin they are the joint's T without offsets: [n 0; 0 1] and [0; 1].
    Vec6 cols[3];
    const int n = offsetAxes(*this, q, cols);
    Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 3> Shat(3, n), V(3, n);
    for (int k = 0; k < n; ++k) {
      Shat.col(k) = cols[k].head<3>();
      V.col(k) = cols[k].tail<3>();
    }
    Eigen::Matrix<double, 6, 4> W = Eigen::Matrix<double, 6, 4>::Zero();
    int c = 0;
    if (n == 2) W.col(c++).head<3>() = Shat.col(0).cross(Shat.col(1)).normalized();
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3> G = Shat.transpose() * Shat;
    const auto solve = G.ldlt();
    for (int j = 0; j < 3; ++j, ++c) {
      const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> x = solve.solve(-V.row(j).transpose());
      W.col(c).head<3>() = Shat * x;
      W.col(c)[3 + j] = 1.0;
    }
    for (int k = 0; k < c; ++k) {
      Vec6 w = W.col(k);
      for (int l = 0; l < k; ++l) w -= T.col(l).dot(w) * T.col(l);
      T.col(k) = w.normalized();
    }
    return;
  }
  switch (type) {
    case JointType::Fixed: T.setIdentity(); break;
    case JointType::Revolute:  // λ = (moments ⊥ axis, force)
      T.col(0).head<3>() = perp1;
      T.col(1).head<3>() = perp2;
      T.bottomRightCorner<3, 3>().setIdentity();
      break;
    case JointType::Prismatic:  // λ = (moment, forces ⊥ axis)
      T.topLeftCorner<3, 3>().setIdentity();
      T.col(3).tail<3>() = perp1;
      T.col(4).tail<3>() = perp2;
      break;
    case JointType::Cylindrical:
      T.col(0).head<3>() = perp1;
      T.col(1).head<3>() = perp2;
      T.col(2).tail<3>() = perp1;
      T.col(3).tail<3>() = perp2;
      break;
    case JointType::Universal:  // λ = (moment about a₁ × a₂ direction, force)
      T.col(0).head<3>() = universalFirstAxis(*this, q).cross(axis2).normalized();
      T.bottomRightCorner<3, 3>().setIdentity();
      break;
    case JointType::Spherical:
    case JointType::Gimbal: T.bottomRows<3>().setIdentity(); break;  // λ = force
    case JointType::Planar:                                          // λ = (in-plane moments, normal force)
      T.col(0).head<3>() = perp1;
      T.col(1).head<3>() = perp2;
      T.col(2).tail<3>() = axis;
      break;
    case JointType::Free: break;
  }
}

void JointModel::actuationSubspace(const double* q, Mat6N& D) const {
  motionSubspace(q, D);
  if (offset) {  // D = S (SᵀS)⁻¹
    const MatN G = D.transpose() * D;
    const Mat6N Dn = D * G.inverse();
    D = Dn;
    return;
  }
  if (type == JointType::Universal) {
    // Columns of S need not be orthonormal when a₁ is not ⊥ a₂: D = S (SᵀS)⁻¹.
    const Eigen::Matrix2d G = D.leftCols<2>().transpose() * D.leftCols<2>();
    const Eigen::Matrix<double, 6, 2> Dn = D.leftCols<2>() * G.inverse();
    D.leftCols<2>() = Dn;
  }
  if (type == JointType::Gimbal) {  // S = [Ŝ; 0]: D = [Ŝ⁻ᵀ; 0]
    const Mat3 Shat = D.topLeftCorner<3, 3>();
    D.topLeftCorner<3, 3>() = Shat.inverse().transpose();
  }
}

Vec6 JointModel::velocityProduct(const double* q, const double* v) const {
  if (type != JointType::Universal && type != JointType::Gimbal) return Vec6::Zero();
  if (offset) {  // S̊ q̇ = Σ_{k<l} ν_k ν_l S_k × S_l (Ṡ_k = S_k × Σ_{l>k} S_l ν_l, as for the gimbal below)
    Vec6 cols[3];
    const int n = offsetAxes(*this, q, cols);
    Vec6 c = Vec6::Zero();
    for (int k = 0; k < n; ++k)
      for (int l = k + 1; l < n; ++l) c += v[k] * v[l] * crossMotion(cols[k], cols[l]);
    return c;
  }
  if (type == JointType::Gimbal) {  // Σ ṡ_k ν_k, ṡ₁ = ν₂ s₁ × s₂ + ν₃ s₁ × s₃, ṡ₂ = ν₃ s₂ × s₃
    const GimbalAxes g = gimbalAxes(*this, q);
    return spatial(v[0] * v[1] * g.s1.cross(g.s2) + v[0] * v[2] * g.s1.cross(g.s3) + v[1] * v[2] * g.s2.cross(g.s3),
                   Vec3::Zero());
  }
  return spatial(v[0] * v[1] * universalFirstAxis(*this, q).cross(axis2), Vec3::Zero());
}

Vec6 JointModel::jointVelocity(const double* q, const double* v) const {
  const auto offsetVelocity = [&] {
    Vec6 cols[3];
    const int n = offsetAxes(*this, q, cols);
    Vec6 vJ = Vec6::Zero();
    for (int k = 0; k < n; ++k) vJ += cols[k] * v[k];
    return vJ;
  };
  switch (type) {
    case JointType::Fixed: return Vec6::Zero();
    case JointType::Revolute: return spatial(axis * v[0], Vec3::Zero());
    case JointType::Prismatic: return spatial(Vec3::Zero(), axis * v[0]);
    case JointType::Cylindrical: return spatial(axis * v[0], axis * v[1]);
    case JointType::Universal:
      if (offset) return offsetVelocity();
      return spatial(universalFirstAxis(*this, q) * v[0] + axis2 * v[1], Vec3::Zero());
    case JointType::Gimbal: {
      if (offset) return offsetVelocity();
      const GimbalAxes g = gimbalAxes(*this, q);
      return spatial(g.s1 * v[0] + g.s2 * v[1] + g.s3 * v[2], Vec3::Zero());
    }
    case JointType::Spherical: return spatial(Vec3(v[0], v[1], v[2]), Vec3::Zero());
    case JointType::Planar: return spatial(axis * v[0], perp1 * v[1] + perp2 * v[2]);
    case JointType::Free: return Eigen::Map<const Vec6>(v);
  }
  return Vec6::Zero();
}

void JointModel::motionSubspaceRateTransposeTimes(const double* S, const double* v, const Vec6& mu, double* out) const {
  for (int k = 0; k < nv; ++k) out[k] = 0.0;
  if (offset) {  // Ṡ_k = S_k × W_k, W_k = Σ_{l>k} S_l ν_l
    Vec6 W = Vec6::Zero();
    for (int k = nv - 1; k >= 0; --k) {
      const Eigen::Map<const Vec6> Sk(S + 6 * k);
      out[k] = crossMotion(Vec6(Sk), W).dot(mu);
      W += Sk * v[k];
    }
    return;
  }
  if (type == JointType::Universal) {  // S̊ = [ν₂ (E₂a₁ × a₂) 0; 0 0]
    const Vec3 s1(S[0], S[1], S[2]);
    out[0] = v[1] * s1.cross(axis2).dot(mu.head<3>());
  }
  if (type == JointType::Gimbal) {  // ṡ₁ = ν₂ s₁ × s₂ + ν₃ s₁ × s₃, ṡ₂ = ν₃ s₂ × s₃, ṡ₃ = 0
    const Vec3 s1(S[0], S[1], S[2]), s2(S[6], S[7], S[8]), s3(S[12], S[13], S[14]);
    const Vec3 n = mu.head<3>();
    out[0] = (v[1] * s1.cross(s2) + v[2] * s1.cross(s3)).dot(n);
    out[1] = v[2] * s2.cross(s3).dot(n);
  }
}

JointCoordinateFrame JointModel::coordinateFrame() const {
  JointCoordinateFrame f;
  const Mat3 Rj = (Mat3() << perp1, perp2, axis).finished();  // the axis as z
  switch (type) {
    case JointType::Fixed: break;
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Cylindrical: {
      const int d = unitAxis >= 0 ? unitAxis : 2;
      if (unitAxis < 0) f.R = Rj;
      int n = 0;
      if (type != JointType::Prismatic) f.dims[n++] = d;
      if (type != JointType::Revolute) f.dims[n++] = 3 + d;
      break;
    }
    case JointType::Universal: f.dims = {0, 1, 0, 0, 0, 0}; break;
    case JointType::Spherical:
    case JointType::Gimbal: f.dims = {0, 1, 2, 0, 0, 0}; break;
    case JointType::Planar:  // S = [axis 0 0; 0 perp1 perp2]
      f.R = Rj;
      f.dims = {2, 3, 4, 0, 0, 0};
      break;
    case JointType::Free: f.dims = {0, 1, 2, 3, 4, 5}; break;
  }
  return f;
}

void JointModel::positionDerivative(const double* q, const double* v, double* qdot) const {
  switch (type) {
    case JointType::Fixed: break;
    case JointType::Revolute:
    case JointType::Prismatic: qdot[0] = v[0]; break;
    case JointType::Cylindrical:
    case JointType::Universal:
      qdot[0] = v[0];
      qdot[1] = v[1];
      break;
    case JointType::Gimbal:
      qdot[0] = v[0];
      qdot[1] = v[1];
      qdot[2] = v[2];
      break;
    case JointType::Spherical: quatRate(q, Vec3(v[0], v[1], v[2]), qdot); break;
    case JointType::Planar: {
      // Body-frame in-plane velocity (ν₁, ν₂) rotated by the joint angle into the joint frame.
      const double c = std::cos(q[0]), s = std::sin(q[0]);
      qdot[0] = v[0];
      qdot[1] = c * v[1] - s * v[2];
      qdot[2] = s * v[1] + c * v[2];
      break;
    }
    case JointType::Free: {
      quatRate(q, Vec3(v[0], v[1], v[2]), qdot);
      const Vec3 pdot = quatRotation(q) * Vec3(v[3], v[4], v[5]);
      qdot[4] = pdot.x();
      qdot[5] = pdot.y();
      qdot[6] = pdot.z();
      break;
    }
  }
}

void JointModel::integrate(const double* q, const double* v, double dt, double* q_out) const {
  switch (type) {
    case JointType::Spherical: quatIntegrate(q, Vec3(v[0], v[1], v[2]), dt, q_out); break;
    case JointType::Free: {
      const Vec3 p = Vec3(q[4], q[5], q[6]) + quatRotation(q) * Vec3(v[3], v[4], v[5]) * dt;
      quatIntegrate(q, Vec3(v[0], v[1], v[2]), dt, q_out);
      q_out[4] = p.x();
      q_out[5] = p.y();
      q_out[6] = p.z();
      break;
    }
    default: {
      double qdot[7];
      positionDerivative(q, v, qdot);
      for (int k = 0; k < nq; ++k) q_out[k] = q[k] + dt * qdot[k];
    }
  }
}

void JointModel::normalize(double* q) const {
  if (hasQuaternion()) quatNormalize(q);
}

void JointModel::neutral(double* q) const {
  for (int k = 0; k < nq; ++k) q[k] = 0.0;
  if (hasQuaternion()) q[0] = 1.0;
}

}  // namespace kt
