// SPDX-License-Identifier: BSD-3-Clause
// Constraint Force Algorithm, tree form: a block LDLᵀ of A = Tᵀ Φ T eliminating joints
// leaves-first, O(N) on every tree with bounded branching (docs/dynamics.md §5, variant 3).
// in: q (nq), ν (nv), τ (nv)   out: q̈ (nv), joint loads (optional)
//
// A couples a joint only to its parent joint and to its siblings (Liu et al. eqs. 31–37). With
// Z_j = ʲX_pᵀ T_j and the neighbour columns W_p = T_p, W_j = −Z_j (j a child of p), every block
// that involves body p's inverse inertia reads W_rᵀ I_p⁻¹ W_s, and A_ii = T_iᵀ I_i⁻¹ T_i + Z_iᵀ I_p⁻¹ Z_i.
// Eliminating joint i (all of its subtree first) updates A_rs ← A_rs − A_ri A_ii⁻¹ A_is for
// r, s ∈ {p, the siblings not yet eliminated}: all of these updates are W_rᵀ ΔΨ_p W_s with one
// 6×6 ΔΨ_p. So the elimination is carried per body, as Featherstone & Fijany (1999, §4) read the
// CFA: Ψ_b, the apparent inverse inertia (compliance) of body b with the joints of its subtree
// eliminated, and α_b, the acceleration of body b with its own joint's λ still unknown:
//
//   Ψ_p ← I_p⁻¹,  α_p ← I_p⁻¹ (u_p − p_p − Σ_c ᶜX_pᵀ u_c)          (u = D τ, the actuation wrenches)
//   for each child c of p:  Q = Ψ_c + ᶜX_p Ψ_p ᶜX_pᵀ,  A_cc = T_cᵀ Q T_c = L D Lᵀ   (eqs. 32, 37)
//                           b_c = T_cᵀ (ᶜX_p α_p + c_c − α_c)                       (eq. 29)
//                           V = L⁻¹ T_cᵀ ᶜX_p Ψ_p,  z = L⁻¹ b_c
//                           Ψ_p ← Ψ_p − Vᵀ D⁻¹ V,  α_p ← α_p − Vᵀ D⁻¹ z
//
// (−T_cᵀ ᶜX_p Ψ_p W_r are A_cp and A_cj, eqs. 34, 36, so this is the Schur complement above.)
// Back substitution, base to tip, is LDLᵀ's λ_c = A_cc⁻¹ (b_c − A_cp λ_p − Σ_{j<c} A_cj λ_j) with the
// blocks as they were when c was eliminated: λ_c = L⁻ᵀ D⁻¹ (z + V F_p) with the L, D, V of
// that step, and F_p = T_p λ_p − Σ_{earlier siblings j} ʲX_pᵀ T_j λ_j the forces on body p not yet
// eliminated then. The elimination takes p's children last to first, so the last child's joint
// meets Ψ_p = I_p⁻¹, and for it V F_p = L⁻¹ T_cᵀ ᶜX_p I_p⁻¹ F_p is formed again in the substitution
// rather than V kept (every joint of a chain; note 11 in cfa_tree.cpp). The accelerations follow
// from a_i = α_i + Ψ_i T_i λ_i and S_i q̈_i = a_i − ⁱX_p a_p − c_i, so Φ is never applied again for
// q̈ (Liu et al. eq. 28).
//
// Bias terms per body (docs/dynamics.md §5, "Where the digits go"). The papers run the CFA on
// the system at rest: the bias forces h = ID(q, ν, 0) move into τ' = τ − h (Featherstone &
// Fijany §4, Liu et al. eq. 22), and h_i carries the weight and the moments of joint i's whole
// subtree. u_p − Σ_c ᶜX_pᵀ u_c is then a small difference of such sums, multiplied by the body's own
// inverse inertia: on a chain of 10,000 boxes q̈ kept 6 digits. Here each body's bias stays in
// its own equation, as in Newton–Euler and the ABA: I_i a_i + p_i = f_i − Σ_c ᶜX_iᵀ f_c with
// p_i = v_i ×* I_i v_i − f^ext_i, a_i = ⁱX_p a_p + S_i q̈_i + c_i, c_i = v_i × S_i ν_i + S̊_i ν_i and
// the world's acceleration −g; the joint wrench f_i = D_i τ_i + T_i λ_i, λ the physical constraint
// forces. Nothing is summed over a subtree before the solve, λ are the joint loads' constraint
// part directly, and q̈ stays within one digit of aba's on chains of up to 10,000 bodies
// (test_accuracy).
//
// Structure. Each body's quantities are held in its joint frame J_i (the body frame turned by a
// rotation R_i): there S_i spans coordinate axes and T_i is the complementary selection of
// coordinates, so Tᵀ Q T is a submatrix of n_c = 6 − n_i rows and columns (the elimination is
// compiled for each n_c), T λ and D τ are scatters, and λ and τ share one 6-vector (disjoint
// coordinates). R_i is the identity for joints along body axes (the common case: no cost),
// constant for other axes and q-dependent only for universal joints. Per body and call: two 6×6
// transforms, one n_c × n_c L D Lᵀ factor (no square roots: note 8 in cfa_tree.cpp), one
// triangular solve with six columns, one rank-n_c update; the back substitution solves with the
// stored L and D off the tip-to-base sweep, and applies V or forms its product again.
//
// Refinement (docs/dynamics.md §5, "Refinement of q̈"). Where a light body carries a heavy one
// (‖I_p⁻¹‖ > kComplianceRatio ‖I_c⁻¹‖, decided once per model), α_p and Ψ_p are formed from the
// light body's large I_p⁻¹ by subtraction, and A = Tᵀ Φ T is far worse conditioned than M. There
// q̈ is refined once: the first substitution also forms RNEA's body wrenches p_i + I_i a_i at q̈⁰;
// correctionPass sums them tip to base into the joint wrenches f, takes u = D (τ − Sᵀ f), the
// residual, and runs the elimination's right-hand side alone (α and z with the stored L, D, V) for
// the system at rest; a second substitution gives δq̈ and δλ. q̈ = q̈⁰ + δq̈ and the loads are
// f + D r + T δλ.
//
// Prescribed joints (hybridDynamics; docs/dynamics.md §4, "Hybrid dynamics"). A joint whose q̈_i is
// given has no free coordinate left: it transmits a full wrench, as a fixed joint does. Its
// constraint space becomes all six coordinates of its joint frame (T_i = 1, n_c = 6: Liu et al.'s
// split eq. 5 with W_j = 1 and no F_T,j, the whole wrench F_j = F_S,j), its actuation u_i = D_i τ_i
// drops out, and its known relative acceleration S_i q̈_i joins c_i: the kinematic constraint
// a_i − ⁱX_p a_p = S_i q̈_i + c_i (F–F eq. 13) moves the known term to the right-hand side, so
//
//   b_i = T_iᵀ (ⁱX_p α_p + c_i + S_i q̈_i − α_i)                               (Liu et al. eq. 29)
//
// with the elimination and back substitution unchanged (they are compiled for n_c = 6). λ_i is
// then the joint's whole wrench f_i, and the force the joint must supply, its required effort,
// is τ_i = S_iᵀ f_i (F–F eq. 14); its acceleration is the kinematic a_i = ⁱX_p a_p + c_i + S_i q̈_i,
// the given q̈_i untouched. The per-joint description for a set of prescribed joints
// (prescribedFrames_) is rebuilt only when the set differs from the last call's.
// A prescribed joint welds its child's subtree to the parent body, and a welded subtree acts on
// what carries it as one heavy body: the case of "Refinement" above, wherever prescribed joints
// follow one another, whatever the masses. So hybridDynamics refines every call (docs/dynamics.md
// §4 has the figures). The refinement holds as it is: the residual r = τ − Sᵀ f is taken on the
// free joints only (u_i = 0 on a prescribed one), the correction's system at rest keeps δq̈_i = 0
// on prescribed joints (no S_i q̈_i in its b), and their effort becomes S_iᵀ (f_i + δλ_i), which
// is (M q̈ + h)_i exactly because S_iᵀ δλ_i = (M δq̈)_i in the system at rest.
// Workspaces are sized in the constructor; a call allocates nothing.
#pragma once

#include <array>
#include <cstdint>

#include "core/dynamics/cfa/cfa_common.hpp"
#include "core/dynamics/kernels/large_pages.hpp"
#include "core/dynamics/kernels/rigid_inverse.hpp"
#include "core/dynamics/kernels/sweep_handover.hpp"

namespace kt {

class CfaTreeSolver final : public Solver {
 public:
  explicit CfaTreeSolver(const Tree& tree);
  std::string_view name() const override { return "cfa-tree"; }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;
  bool supportsHybrid() const override { return true; }
  void hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                      std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) override;

 private:
  /// Constant description of joint i in its joint frame, read in every pass (34 bytes).
  struct JointFrame {
    std::array<std::int8_t, 6> dims{};   ///< the motion coordinates, in the order of ν_i
    std::array<std::int8_t, 6> cdims{};  ///< the constraint coordinates, ascending (λ_i in this frame)
    std::array<std::int8_t, 6> index{};  ///< (gather) the coordinate of f in λ_k
    std::array<std::int8_t, 6> sign{};   ///< (gather) ±1
    std::int8_t nv = 0;                  ///< n_i
    std::int8_t nc = 6;                  ///< 6 − n_i; 6 for a prescribed joint (header, "Prescribed joints")
    bool rotated = false;                ///< R ≠ 1
    /// S depends on q: 1 universal (R and Ŝ), 2 gimbal (3 × 3 Ŝ, R = 1), 3 a universal or gimbal
    /// joint with offset axes (JointModel::offset), whose S, T and D are matrices in body axes (R = 1)
    std::int8_t turning = 0;
    bool gather = false;        ///< JointModel's T_i is a signed selection: λ_k = sign_k f[index_k]
    bool ownTransform = false;  ///< this joint's or its parent's frame is rotated: ᴶⁱX_ᴶᵖ ≠ ⁱX_p
    bool farChild = false;      ///< a child other than body i + 1: the bias pass stores v_i for it
    bool keepPsi = false;       ///< Ψ_i is stored in Psi_ (see there); otherwise it lives in a local
    /// V_i is stored (Vt_): joint i is not the first of its parent's joints eliminated (Ψ_p was no
    /// longer I_p⁻¹ then), or is dense; otherwise the substitutions form V_i's products from I_p⁻¹
    bool keepV = false;
    /// ᴶⁱX_ᴶᵖ = ⁱX_p turns about e_K, K = axisTurn < 3 (a revolute joint along e_K whose X_T does not
    /// rotate), or does not turn (3: such a prismatic joint); −1 otherwise
    std::int8_t axisTurn = -1;
    bool universal() const { return turning == 1; }
    bool gimbal() const { return turning == 2; }
    bool dense() const { return turning == 3; }
    /// T_i is a matrix, not a selection: a dense joint that is not prescribed (prescribed, n_c = 6)
    bool denseT() const { return turning == 3 && nc < 6; }
    /// S_i = e_d, one coordinate axis of the joint frame
    bool unitAxis() const { return nv == 1 && turning == 0; }
  };
  /// The joint frame's axes, read only where the frame is rotated.
  struct JointAxes {
    Mat3 R = Mat3::Identity();  ///< body axes of the joint frame (columns), constant unless universal
    Eigen::Matrix2d Shat = Eigen::Matrix2d::Identity();     ///< universal: S_i = R_i [Ŝ; 0] on the motion coordinates
    Eigen::Matrix2d ShatInv = Eigen::Matrix2d::Identity();  ///< Ŝ⁻¹
    Mat3 Shat3 = Mat3::Identity();     ///< gimbal: S_i = [Ŝ; 0], the three axes s₁, s₂, s₃ as columns
    Mat3 Shat3Inv = Mat3::Identity();  ///< gimbal: Ŝ⁻¹
  };
  /// Per-body work, one record per body (read and written in index order): only what the passes
  /// read on every body, which they prefetch (ᴶⁱX_ᴶᵖ, Ψ, V, a_i, F_i and the refinement's wrenches,
  /// stored for some bodies only, are arrays of their own). Quantities in the joint frame. Eight
  /// cache lines, with what a joint of fewer than six constraint coordinates leaves unread at the
  /// end: L's last rows, and u, which only the refinement stores (performance notes 10, 11).
  struct alignas(64) BodyWork {
    Vec6 z;                         ///< z = L⁻¹ b_i (n_c)
    std::array<double, 6> invDiag;  ///< 1 / D_j
    Vec6 alpha;                     ///< α_i
    Vec6 rho;       ///< ρ_i = −p_i − Σ_c ᶜX_iᵀ u_c, the known wrench on body i (bias pass, elimination)
    Vec6 c;         ///< c_i, with the world's −g at a root (bias pass; elimination, substitution)
    Vec6 psiCol;    ///< Ψ_i e_d, the motion column of Ψ_i for a 1-DoF joint (the substitution's)
    PackedLower L;  ///< A_ii = L D Lᵀ (n_c × n_c; L unit lower, D on its diagonal), by rows
    Vec6 u;         ///< correction: u_i = D_i r_i, the actuation wrench of the residual
  };

  /// Refine q̈ when a body's inverse inertia exceeds its child's by more than this, ‖I_p⁻¹‖₂ >
  /// kComplianceRatio ‖I_c⁻¹‖₂: a light body carrying a heavy one (header, "Refinement";
  /// docs/dynamics.md §5 gives the ratios of the random trees of test_cfa).
  static constexpr double kComplianceRatio = 100;
  bool refine_ = false;  ///< the model has such a pair: every call refines q̈
  Kinematics kin_;  ///< X_p; v and X_0's rotation where a child other than the next reads them (JointFrame::farChild)
  SweepHandover handover_;             ///< Ψ_i and RNEA's wrenches handed to the parent
  std::vector<JointFrame> ownFrames_;  ///< (nb) every joint as the model has it (forwardDynamics)
  /// (nb) the same with the joints of prescribed_ transmitting all six coordinates (hybridDynamics)
  std::vector<JointFrame> prescribedFrames_;
  std::vector<char> prescribed_;  ///< (nb) 1 for the joints prescribedFrames_ prescribes: the last call's set
  /// what the passes read: ownFrames_, or prescribedFrames_ during hybridDynamics
  const JointFrame* frames_ = nullptr;
  std::vector<JointAxes> axes_;
  std::vector<RigidInverse> IinvB_;  ///< (nb) I_i⁻¹, body frame
  LargeArray<RigidInverse> IinvJ_;   ///< (nb) I_i⁻¹, joint frame
  std::vector<Mat6> Tphys_;          ///< (nb) JointModel's T_i (zero-padded), body frame: the reported λ = Tᵀ f
                                     ///< (read only where T_i is not a signed selection); dense joints: T_i(q)
  /// (nb where the model has dense joints, else empty) S_i(q) and D_i(q) of each dense joint
  /// (JointFrame::dense), zero-padded, body frame
  std::vector<Mat6> Sdense_, Ddense_;
  LargeArray<BodyWork> w_;  ///< (nb)
  /// (nb) Ψ_i, joint frame, where it must outlive the elimination step that follows body i's: a
  /// parent other than body i − 1 (the elimination visits it later) or a joint of more than one
  /// DoF (the substitution reads its motion columns). Along a chain of 1-DoF joints Ψ lives in
  /// two locals, and the elimination writes only its motion column (psiCol).
  std::vector<Mat6> Psi_;
  /// (nb where some joint keeps V, else empty) Vᵀ (6 × n_c columns), V = L⁻¹ T_iᵀ ⁱX_p Ψ_p (−A_ip,
  /// −A_ij with L⁻¹ applied), where JointFrame::keepV; elsewhere Ψ_p was I_p⁻¹ (performance note 11)
  std::vector<Mat6> Vt_;
  std::vector<Xform> XJ_;      ///< (nb) ᴶⁱX_ᴶᵖ: parent joint frame to this joint frame (where it is not ⁱX_p)
  std::vector<Vec6> aStored_;  ///< (nb) a_i, joint frame, where a child other than body i + 1 reads it
  /// (nb) F_i, the forces on body i not yet eliminated when its next child was: T_i λ_i less what
  /// the children before it took, joint frame, where a child other than body i + 1 reads it
  std::vector<Vec6> FStored_;
  std::vector<Vec6> fBody_;  ///< (nb) refinement: RNEA's body wrench p_i + I_i a_i at the first q̈, body frame
  std::vector<Vec6> fRnea_;  ///< (nb) refinement: RNEA's joint wrench f_i at the first q̈, body frame
  VectorX dqdd_;             ///< (nv) refinement: the correction of q̈

  // The passes of forwardDynamics and, with kHybrid, of hybridDynamics, where the joints of
  // prescribed_ follow their given q̈ (out of line: performance note 5 in cfa_tree.cpp; the forward
  // instantiations carry no test for prescribed joints).
  /// Base to tip: kinematics, joint-frame transforms, each body's c_i (kHybrid: plus S_i q̈_i of a
  /// prescribed joint, from qdd) and p_i.
  template <bool kHybrid>
  [[gnu::noinline]] void biasPass(const VectorX& q, const VectorX& v, ExternalWrenches fext, const VectorX& qdd);
  /// Tip to base: u = D τ, then Ψ and α of each body, eliminating its children's joints.
  template <bool kHybrid>
  [[gnu::noinline]] void eliminationPass(const VectorX& tau);
  /// Base to tip: λ, the accelerations and q̈ (withBias: of the system itself; otherwise of the
  /// correction's system at rest); with loads, each joint's load D τ + T λ (withBias: D τ from tau;
  /// otherwise the correction's D r, stored in the record); with residual, RNEA's
  /// body wrenches p_i + I_i a_i in fBody_. kHybrid: a prescribed joint keeps its q̈ (the
  /// correction's δq̈ is zero there) and its required effort S_iᵀ f_i goes into `effort`.
  template <bool kHybrid>
  [[gnu::noinline]] void substitutionPass(const VectorX& tau, VectorX& qdd, VectorX* effort, JointLoads* loads,
                                          bool withBias, bool residual);
  /// Tip to base, after a substitution with residual: fRnea_, the RNEA joint wrench of q̈ (the
  /// subtree sums of fBody_), u = D (τ − Sᵀ f) its residual, and α and z for u with the factor
  /// already built.
  template <bool kHybrid>
  [[gnu::noinline]] void correctionPass(const VectorX& tau);
  /// D_i τ_i in the joint frame; with residual, D_i (τ_i − S_iᵀ fRnea_i); zero for a prescribed joint.
  template <bool kHybrid>
  Vec6 actuation(int i, const VectorX& tau, bool residual) const;
  /// kHybrid: joint i follows its given q̈ in this call.
  template <bool kHybrid>
  bool isPrescribed(int i) const {
    if constexpr (kHybrid) return prescribed_[static_cast<std::size_t>(i)] != 0;
    return false;
  }
  /// prescribedFrames_ for the set `prescribed`, rebuilt only where it differs from the last call's.
  void selectPrescribed(std::span<const char> prescribed);
  /// Joint i's load f_i in the body frame from fJ = D_i τ_i + T_i λ_i in the joint frame (corrected:
  /// plus fRnea_).
  Vec6 bodyLoad(int i, const Vec6& fJ, bool corrected) const;
  /// S_iᵀ f for f in the body frame, into joint i's n_i entries from out.
  void generalizedForce(int i, const Vec6& f, double* out) const;
  /// Joint i's load from fJ = D_i τ_i + T_i λ_i in the joint frame (corrected: plus fRnea_), in
  /// world axes through ⁱX_0's rotation (its parent's already computed: called base to tip).
  /// Ep0: ᵖE_0, null at a root; E: ⁱE_0 on return.
  void jointLoad(int i, const Vec6& fJ, JointLoads& loads, bool corrected, const Mat3* Ep0, Mat3& E);

  /// ᴶⁱX_ᴶᵖ, the parent's joint frame to this joint's.
  const Xform& jointTransform(int i) const { return frames_[i].ownTransform ? XJ_[i] : kin_.X_p[i]; }
  void updateUniversal(int i, const double* qi);
  void updateGimbal(int i, const double* qi);
  [[gnu::noinline]] void updateDense(int i, const double* qi);
  void eliminate(int c, const Mat6& PsiC, Mat6& Psi, Vec6& alpha);
  template <int NC>
  void eliminateFixed(int c, const Mat6& PsiC, Mat6& Psi, Vec6& alpha);
  /// The end of an elimination step, A_cc = L D Lᵀ in C: V = L⁻¹ Bᵀ (Vt holds B on entry, V then)
  /// and z = L⁻¹ b (z holds T_cᵀ b_c on entry), the Schur complement Ψ_p −= Vᵀ D⁻¹ V, α_p −= Vᵀ D⁻¹ z, and z kept
  /// for the back substitution, with V in keptVt where it is not null (JointFrame::keepV). Inlined
  /// where it is used (the step's arithmetic stays in one piece).
  template <int NC>
  [[gnu::always_inline]] static void schurUpdate(BodyWork& C, Mat6* keptVt, Eigen::Matrix<double, 6, NC>& Vt,
                                                 Eigen::Matrix<double, NC, 1>& z, Mat6& Psi, Vec6& alpha) {
    using Veccc = Eigen::Matrix<double, NC, 1>;
    solveUnitLower<NC>(C.L, Vt.transpose());
    solveUnitLower<NC>(C.L, z);
    const Eigen::Matrix<double, 6, NC> Wt = Vt * Eigen::Map<const Veccc>(C.invDiag.data()).asDiagonal();
    Psi.noalias() -= Wt * Vt.transpose();
    alpha.noalias() -= Wt * z;
    if (keptVt) keptVt->template leftCols<NC>() = Vt;
    C.z.template head<NC>() = z;
  }
  // The steps of dense joints (JointFrame::dense: S, T and D as matrices in body axes), in
  // cfa_tree_dense.cpp, out of the passes' translation unit: its inlining stays as it was.
  /// eliminateFixed with T_c a matrix.
  [[gnu::noinline]] void eliminateDense(int c, const Mat6& PsiC, Mat6& Psi, Vec6& alpha);
  /// eliminateRhs, factorRoot (with rootRhs), rootRhs and constraintForce with T a matrix.
  [[gnu::noinline]] void eliminateRhsDense(int c, Vec6& alpha);
  [[gnu::noinline]] void factorRootDense(int i, const Mat6& Psi);
  [[gnu::noinline]] void rootRhsDense(int i, bool withBias);
  [[gnu::noinline]] void constraintForceDense(int i, const Vec6* Fp, Vec6& lambda) const;
  /// S_i q̈_i, D_i (τ_i − S_iᵀ f), S_iᵀ f (f in body axes), and the substitution's a_i = α_i + Ψ_i T_i λ_i
  /// with q̈_i = D_iᵀ (a_i − a), a = ⁱX_p a_p + c_i on entry and a_i on return.
  [[gnu::noinline]] Vec6 denseMotion(int i, const double* qdd) const;
  [[gnu::noinline]] Vec6 denseActuation(int i, const double* tau, const Vec6& f) const;
  [[gnu::noinline]] void denseGeneralizedForce(int i, const Vec6& f, double* out) const;
  [[gnu::noinline]] void denseAcceleration(int i, const Vec6& lambda, Vec6& a, double* qdd) const;
  template <int NC>
  void eliminateRhs(int c, Vec6& alpha);
  template <int NC>
  void factorRoot(int i, const Mat6& Psi);
  template <int NC>
  void rootRhs(int i, bool withBias);
  void prefetchForBiasPass(int i) const;
  void prefetchTowardsBase(int i, bool elimination) const;
  void prefetchTowardsTips(int i, bool withU) const;
  /// The lines of body k's record that a pass reads: up to L's n_c rows, u (withU), and V where
  /// it is kept.
  void prefetchRecord(int k, bool withU) const;
  template <int NC>
  void constraintForce(int i, const Vec6* Fp, Vec6& lambda) const;
};

std::unique_ptr<Solver> makeCfaTreeSolver(const Tree& tree);

}  // namespace kt
