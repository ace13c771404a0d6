// SPDX-License-Identifier: BSD-3-Clause
// Shared part of the Poisson-impulse solvers (docs/dynamics.md §6; Ivanov 2017, Вестник Пермского
// университета 4(39), eqs. (6)–(7)). The two solvers differ only in how they keep the factor
// with which they eliminate the joint rows of the velocity-level system (6):
//
//   I v − Pᵀ μ = 0          (body momenta: own subtree momentum minus the children's)
//   −P v + S ν = 0          (velocity kinematics, scleronomic joints)
//   Sᵀ μ = p                (the impulse of joint i is the subtree momentum projected on S_i)
//
// poisson-sweep (Ivanov §3) with explicit inverses D_i = (S_iᵀ M*_i S_i)⁻¹, poisson-ldl (§4) with
// the Cholesky factor L_i L_iᵀ = S_iᵀ M*_i S_i and triangular solves (poisson_factor.hpp); their
// passes are one class template (poisson_solver.hpp). Everything outside the passes is here:
//
//   pass 0, base to tip:  ⁱX_p, S_i, gravity in body axes; M*_i = I_i, F*_i = applied + gravity
//   pass 1, tip to base:  (solver) factor S_iᵀ M*_i S_i, project M*_i and φ*_i into the parent;
//                         F*_p += ⁱX*ᵀ_p F*_i here (subtree wrenches)
//   pass 2, base to tip:  (solver) ν_i, v_i, μ_i = M*_i v_i + φ*_i; ṗ_i (below)
//
// The explicit impulse derivative (Ivanov eq. (7), written in body coordinates):
//
//   ṗ_i = τ_i + S_iᵀ (F*_i − v_i ×* μ_i) + S̊_iᵀ μ_i
//
// μ_i is the subtree momentum in body-i axes, so its rate there is the joint wrench f_i plus F*_i
// minus v_i ×* μ_i (moving axes); S_iᵀ f_i = τ_i, and S̊_i is the rate of S_i's body coordinates.
//
// q̈ for the joint loads solves M q̈ = τ − h with the factors of pass 1: the acceleration-level
// system (Ivanov eq. (8)) has the same matrix, so it is a second right-hand side through the same
// two passes (bias ψ_i = v_i ×* I_i v_i − f_i^app, kinematic term c_i, base acceleration −g).
#pragma once

#include <span>
#include <vector>

#include "core/dynamics/kernels/sweep_handover.hpp"
#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

/// Fixed-size blocks for a joint with NV degrees of freedom.
template <int NV>
using Mat6x = Eigen::Matrix<double, 6, NV>;
template <int NV>
using MatXx6 = Eigen::Matrix<double, NV, 6>;
template <int NV>
using MatNN = Eigen::Matrix<double, NV, NV>;
template <int NV>
using VecNV = Eigen::Matrix<double, NV, 1>;

/// Mp += Xᵀ A X for a symmetric A (6×6, child axes) and X = ᶜX_p: the congruence of an
/// (articulated) inertia into the parent, computing one triangle and mirroring it. With `start`,
/// Mp = start + Xᵀ A X instead (the parent's own rigid inertia, each entry written once: the same
/// sums as Mp = start.matrix() first, without reading back a matrix just written).
void addSymmetricCongruence(const Xform& X, const Mat6& A, Mat6& Mp, const Inertia* start = nullptr);
/// Mp += Xᵀ A X for a general A (no symmetry assumed: all 36 entries are formed).
void addGeneralCongruence(const Xform& X, const Mat6& A, Mat6& Mp);

/// S̊ᵀ μ for joint `joint` at (q, ν): the rate of S's body coordinates, transposed, times a
/// force vector (JointModel::motionSubspaceRateTransposeTimes; docs/dynamics.md §2). Zero for
/// every joint with constant S.
template <int NV>
inline VecNV<NV> motionSubspaceRateTransposeTimes(const JointModel& joint, const Mat6x<NV>& S, const double* v,
                                                  const Vec6& mu) {
  VecNV<NV> out = VecNV<NV>::Zero();
  if (joint.subspacesDependOnQ()) joint.motionSubspaceRateTransposeTimes(S.data(), v, mu, out.data());
  return out;
}

class PoissonSolverBase : public Solver {
 public:
  StateForm stateForm() const override { return StateForm::Impulse; }

  /// q̈ and loads from (q, ν): p is not needed, only the factors (pass 0, pass 1 with the
  /// acceleration right-hand side fused in, then its forward pass).
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;

  /// p = M(q) ν in O(N) without forming M: v_i base to tip, the subtree momenta
  /// μ_i = I_i v_i + Σ_c ⁱX*_c μ_c tip to base, p_i = S_iᵀ μ_i.
  void impulseFromVelocity(const VectorX& q, const VectorX& v, VectorX& p) override;

  /// ν = M⁻¹ p and ṗ (passes 0–2); with qdd, the second right-hand side; with loads, the joint loads.
  void impulseDynamics(const VectorX& q, const VectorX& p, const VectorX& tau, ExternalWrenches fext, VectorX& v,
                       VectorX& pdot, VectorX* qdd, JointLoads* loads) override;

  // The last impulseDynamics' records of body i, for the algorithm stepper (stepper/): M*_i and
  // φ*_i as pass 1 handed them on, F*_i, and pass 2's v_i; the poses ⁱX_p and S_i.
  const Mat6& articulatedInertia(int i) const { return Mstar_[static_cast<std::size_t>(i)]; }
  const Vec6& velocityBias(int i) const { return phi_[static_cast<std::size_t>(i)]; }
  const Vec6& subtreeWrench(int i) const { return Fsub_[static_cast<std::size_t>(i)]; }
  const Kinematics& passKinematics() const { return kin_; }

 protected:
  explicit PoissonSolverBase(const Tree& tree);

  // ---- the algorithm-specific passes (one loop over the bodies each) ----
  /// Tip to base: factor every joint block and project M*_i into the parent; with `p`, the
  /// velocity right-hand side (φ*); with `tau`, the acceleration right-hand side (ψ, needs
  /// velocityProducts first). Also accumulates F*.
  virtual void backwardPass(const VectorX* p, const VectorX* tau) = 0;
  /// Base to tip: ν_i, v_i, μ_i and ṗ_i from the factors and φ*.
  virtual void forwardVelocityPass(const VectorX& tau, VectorX& v, VectorX& pdot) = 0;
  /// Tip to base: the acceleration right-hand side alone (factors already built).
  virtual void backwardAccelerationPass(const VectorX& tau) = 0;
  /// Base to tip: q̈_i and a_i (with a_0 = −g).
  virtual void forwardAccelerationPass(VectorX& qdd) = 0;

  // ---- shared pieces the passes call ----
  /// Pass 0: ⁱX_p (with `worldPoses`, ⁱX_0 for the joint loads' world axes), the q-dependent S_i
  /// (pool; the constructor sets the constant ones). With `v`, also v_i, c_i and ψ_i
  /// (forwardDynamics); without, gravity in body axes, φ*_i = 0 and F*_i = f_i^app + gravity.
  /// M*_i: articulatedSums.
  void positionPass(const VectorX& q, const VectorX* v, bool worldPoses);
  /// c_i and ψ_i for body i once v_i is known (the acceleration right-hand side).
  void velocityProducts(int i, const Vec6& vJ, const double* qi, const double* vi);
  /// Joint loads from the accelerations acc_ (RNEA backward pass, rnea.hpp).
  void computeLoads(const VectorX& q, JointLoads& loads);

  /// Where the backward pass finds M*_i, and where body i's share of its parent's M*_p goes.
  struct ArticulatedSums {
    const Mat6& Mi;
    Mat6* Mp;              ///< null for a root
    const Inertia* start;  ///< I_p where body i starts M*_p (addSymmetricCongruence), else null
  };
  /// Before the backward pass visits body i (sweep_handover.hpp): M*_p starts from I_p (`start`)
  /// when i is the child visited first. With `keep` every M*_i is stored in Mstar_ for the later
  /// passes; without (q̈ alone needs only the factors), a parent visited right after its child
  /// (p = i − 1, every link of a chain) takes its sums in carry_, and a chain never writes Mstar_.
  ArticulatedSums articulatedSums(int i, bool keep);

  template <int NV>
  Eigen::Map<Mat6x<NV>> Smap(int i) {
    return Eigen::Map<Mat6x<NV>>(Spool_.data() + 6 * tree_->vOffset[i]);
  }

  int nb_ = 0;
  bool wantAcceleration_ = false;     ///< the current call needs q̈ (ψ_i, c_i in the forward pass)
  ExternalWrenches fext_;             ///< of the current call
  const VectorX* q_ = nullptr;        ///< q of the current call
  Kinematics kin_;                    ///< X_p, v, c used in place; S and X_0 filled for the joint loads
  std::vector<Xform>& X_ = kin_.X_p;  ///< (nb) ⁱX_p (from the world for roots)
  std::vector<Vec6>& vel_ = kin_.v;   ///< (nb) body velocities v_i
  std::vector<Vec6>& cvp_ = kin_.c;   ///< (nb) velocity-product accelerations c_i
  std::vector<double> Spool_;         ///< (6 nv) S_i, 6×n_i column-major at 6·vOffset[i]
  std::vector<Mat6> Ibody_;           ///< (nb) I_i as 6×6 matrices (constant)
  std::vector<Mat6> Mstar_;           ///< (nb) M*_i, articulated inertias (Ivanov's M*_i; articulatedSums)
  LocalPair<Mat6> carry_;             ///< M*_i handed from child to parent in a local
  SweepHandover handover_;            ///< how the backward pass hands M*_i to the parent
  std::vector<Vec6> phi_;             ///< (nb) φ*_i, velocity level: μ_i = M*_i v_i + φ*_i
  std::vector<Vec6> mu_;              ///< (nb) μ_i, subtree momenta (impulseFromVelocity)
  std::vector<Vec6> psi_;             ///< (nb) ψ_i, acceleration level: f_i = M*_i a_i + ψ_i
  std::vector<Vec6> Fsub_;            ///< (nb) F*_i, applied and gravity wrenches of the subtree of i
  std::vector<Vec3> gBody_;           ///< (nb) gravity in body-i axes
  std::vector<Vec6> acc_;             ///< (nb) body accelerations a_i (with the fictitious −g)
  VectorX qddScratch_;                ///< (nv) q̈ when only the loads are asked for
};

}  // namespace kt
