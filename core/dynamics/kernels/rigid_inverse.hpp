// SPDX-License-Identifier: BSD-3-Clause
// The inverse of a rigid body's spatial inertia in its ten numbers. With I = [Ī_O, h̃; h̃ᵀ, m 1],
// h = m c and Ī_O = Ī_c + m c̃ c̃ᵀ (Featherstone eq. 2.63), the Schur complement of the m 1 block is
// Ī_c, so
//
//   I⁻¹ = [ Ī_c⁻¹        −Ī_c⁻¹ c̃          ]
//         [ c̃ Ī_c⁻¹       1/m − c̃ Ī_c⁻¹ c̃  ]
//
// and I⁻¹ [n; f] = [a; f/m + c × a] with a = Ī_c⁻¹ (n − c × f). 80 bytes instead of a 6×6
// matrix's 288: a sweep that reads one per body (cfa-tree's elimination) moves 3.25 cache lines
// fewer a body (docs/benchmarks.md, "cfa-tree at scale").
#pragma once

#include <Eigen/Cholesky>
#include <array>

#include "core/spatial/spatial.hpp"

namespace kt {

struct RigidInverse {
  double invMass = 1.0;
  Vec3 c = Vec3::Zero();  ///< centre of mass
  /// Ī_c⁻¹, symmetric, packed by rows of its lower triangle: (0,0) (1,0) (1,1) (2,0) (2,1) (2,2)
  std::array<double, 6> J{1.0, 0.0, 1.0, 0.0, 0.0, 1.0};

  /// I⁻¹ of `I`, in the axes R (columns in I's axes): c and Ī_c turned by Rᵀ. I must have m > 0
  /// and Ī_c positive definite.
  static RigidInverse of(const Inertia& I, const Mat3& R = Mat3::Identity()) {
    RigidInverse out;
    out.invMass = 1.0 / I.m;
    const Vec3 c = I.h / I.m;
    const Mat3 cx = skew(c);
    const Mat3 Ic = I.Io - I.m * cx * cx.transpose();
    const Mat3 Jb = Ic.llt().solve(Mat3::Identity());
    out.setTurned(0.5 * (Jb + Jb.transpose()), c, R);
    return out;
  }
  /// The same inverse in the axes R (columns in this one's axes).
  RigidInverse turned(const Mat3& R) const {
    RigidInverse out;
    out.invMass = invMass;
    out.setTurned(rotational(), c, R);
    return out;
  }
  Mat3 rotational() const {
    Mat3 Jm;
    Jm << J[0], J[1], J[3], J[1], J[2], J[4], J[3], J[4], J[5];
    return Jm;
  }
  /// The 6×6 matrix, exactly symmetric.
  void expand(Mat6& out) const {
    const Mat3 Jm = rotational();
    Mat3 K;  // −Ī_c⁻¹ c̃, column k = −Ī_c⁻¹ (c × e_k)
    K.col(0) = c.y() * Jm.col(2) - c.z() * Jm.col(1);
    K.col(1) = c.z() * Jm.col(0) - c.x() * Jm.col(2);
    K.col(2) = c.x() * Jm.col(1) - c.y() * Jm.col(0);
    out.topLeftCorner<3, 3>() = Jm;
    out.topRightCorner<3, 3>() = K;
    out.bottomLeftCorner<3, 3>() = K.transpose();
    // 1/m − c̃ Ī_c⁻¹ c̃ = 1/m + c̃ K: the lower triangle, mirrored
    for (int k = 0; k < 3; ++k) {
      const Vec3 col = c.cross(K.col(k));
      for (int r = k; r < 3; ++r) {
        const double value = col[r] + (r == k ? invMass : 0.0);
        out(3 + r, 3 + k) = value;
        out(3 + k, 3 + r) = value;
      }
    }
  }
  /// I⁻¹ f = [a; f_l / m + c × a] with a = Ī_c⁻¹ (n − c × f_l), f = [n; f_l]: coefficient by
  /// coefficient from the packed Ī_c⁻¹ (no 3 × 3 matrix formed; the substitution of cfa-tree
  /// applies it to every chain link's parent).
  Vec6 operator*(const Vec6& f) const {
    const double w0 = f[0] - (c[1] * f[5] - c[2] * f[4]);
    const double w1 = f[1] - (c[2] * f[3] - c[0] * f[5]);
    const double w2 = f[2] - (c[0] * f[4] - c[1] * f[3]);
    const double a0 = J[0] * w0 + J[1] * w1 + J[3] * w2;
    const double a1 = J[1] * w0 + J[2] * w1 + J[4] * w2;
    const double a2 = J[3] * w0 + J[4] * w1 + J[5] * w2;
    Vec6 out;
    out << a0, a1, a2, invMass * f[3] + (c[1] * a2 - c[2] * a1), invMass * f[4] + (c[2] * a0 - c[0] * a2),
        invMass * f[5] + (c[0] * a1 - c[1] * a0);
    return out;
  }

 private:
  void setTurned(const Mat3& Jb, const Vec3& cb, const Mat3& R) {
    c = R.transpose() * cb;
    const Mat3 Jr = R.transpose() * Jb * R;
    J = {Jr(0, 0), Jr(1, 0), Jr(1, 1), Jr(2, 0), Jr(2, 1), Jr(2, 2)};
  }
};

}  // namespace kt
