// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/cfa/cfa_tree.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <stdexcept>

#include "core/dynamics/kernels/prefetch.hpp"
#include "core/dynamics/kernels/spatial_kernels.hpp"

namespace kt {
namespace {

/// N Eᵀ for a 6×3 N and E = ᴮX_A's rotation. K (JointFrame::axisTurn): E turns about e_K (K < 3)
/// with rows K, A, B (A = K + 1, B = K + 2 mod 3) e_K, c e_A + s e_B, c e_B − s e_A, c = E_AA and
/// s = E_AB, so that N Eᵀ's columns are N_K, c N_A + s N_B and c N_B − s N_A (the third product of
/// each is by an exact zero, so the sums are the same); K = 3: E = 1; K < 0: any E.
template <int K, class Out>
[[gnu::always_inline]] inline void timesRotationTransposed(const Eigen::Matrix<double, 6, 3>& N, const Mat3& E,
                                                           Out&& out) {
  if constexpr (K < 0) {
    out.noalias() = N * E.transpose();
  } else if constexpr (K == 3) {
    out = N;
  } else {
    constexpr int A = (K + 1) % 3, B = (K + 2) % 3;
    const double c = E(A, A), s = E(A, B);
    out.col(K) = N.col(K);
    out.col(A) = c * N.col(A) + s * N.col(B);
    out.col(B) = c * N.col(B) - s * N.col(A);
  }
}

template <int K>
[[gnu::always_inline]] inline Mat6 timesXTransposedTurn(const Mat6& M, const Xform& X) {
  const Vec3& r = X.r;
  const Eigen::Matrix<double, 6, 3> ML = M.leftCols<3>();
  Eigen::Matrix<double, 6, 3> MR;  // M_L r̃ + M_R
  MR.col(0) = M.col(3) + r.z() * ML.col(1) - r.y() * ML.col(2);
  MR.col(1) = M.col(4) + r.x() * ML.col(2) - r.z() * ML.col(0);
  MR.col(2) = M.col(5) + r.y() * ML.col(0) - r.x() * ML.col(1);
  Mat6 out;
  timesRotationTransposed<K>(ML, X.E, out.leftCols<3>());
  timesRotationTransposed<K>(MR, X.E, out.rightCols<3>());
  return out;
}

/// M ᴮX_Aᵀ for a 6×6 M, with ᴮX_Aᵀ = [Eᵀ r̃Eᵀ; 0 Eᵀ]: [M_L Eᵀ | (M_L r̃ + M_R) Eᵀ] on 6×3 column
/// blocks (half the work of a 6×6 product with X's matrix); `turn` as JointFrame::axisTurn.
Mat6 timesXTransposed(const Mat6& M, const Xform& X, int turn) {
  switch (turn) {
    case 0: return timesXTransposedTurn<0>(M, X);
    case 1: return timesXTransposedTurn<1>(M, X);
    case 2: return timesXTransposedTurn<2>(M, X);
    case 3: return timesXTransposedTurn<3>(M, X);
    default: return timesXTransposedTurn<-1>(M, X);
  }
}

/// ᴮX_A m = [E ω; E (v_O − r × ω)] (kernels::applyMotion) with E as JointFrame::axisTurn gives it
/// (timesRotationTransposed): two products a row where it turns about a coordinate axis.
template <int K>
[[gnu::always_inline]] inline void applyMotionTurn(const Xform& X, const Vec6& m, Vec6& out) {
  if constexpr (K < 0) {
    kernels::applyMotion(X, m, out);
  } else {
    constexpr int A = (K + 1) % 3;
    const double c = K < 3 ? X.E(A, A) : 1.0, s = K < 3 ? X.E(A, (K + 2) % 3) : 0.0;
    double rw[3], t[3];
    kernels::cross(X.r.data(), m.data(), rw);
    for (int k = 0; k < 3; ++k) t[k] = m[3 + k] - rw[k];
    kernels::turn<K>(c, s, m.data(), out.data());
    kernels::turn<K>(c, s, t, out.data() + 3);
  }
}
void applyMotion(const Xform& X, int turn, const Vec6& m, Vec6& out) {
  switch (turn) {
    case 0: return applyMotionTurn<0>(X, m, out);
    case 1: return applyMotionTurn<1>(X, m, out);
    case 2: return applyMotionTurn<2>(X, m, out);
    case 3: return applyMotionTurn<3>(X, m, out);
    default: return applyMotionTurn<-1>(X, m, out);
  }
}

/// E ᵖE_0 for ⁱX_p's rotation E as JointFrame::axisTurn gives it: each column of ᵖE_0 turned.
template <int K>
[[gnu::always_inline]] inline void composeRotationTurn(const Mat3& E, const Mat3& Ep0, Mat3& out) {
  if constexpr (K < 0) {
    out.noalias() = E * Ep0;
  } else {
    constexpr int A = (K + 1) % 3;
    const double c = K < 3 ? E(A, A) : 1.0, s = K < 3 ? E(A, (K + 2) % 3) : 0.0;
    for (int j = 0; j < 3; ++j) kernels::turn<K>(c, s, Ep0.col(j).data(), out.col(j).data());
  }
}
void composeRotation(const Mat3& E, int turn, const Mat3& Ep0, Mat3& out) {
  switch (turn) {
    case 0: return composeRotationTurn<0>(E, Ep0, out);
    case 1: return composeRotationTurn<1>(E, Ep0, out);
    case 2: return composeRotationTurn<2>(E, Ep0, out);
    case 3: return composeRotationTurn<3>(E, Ep0, out);
    default: return composeRotationTurn<-1>(E, Ep0, out);
  }
}

/// e_d, for the one motion coordinate of a 1-DoF joint (performance note 3); at namespace scope,
/// so that reading it needs no guard of a function-local static.
const std::array<Vec6, 6> kUnitVectors = {Vec6::Unit(0), Vec6::Unit(1), Vec6::Unit(2),
                                          Vec6::Unit(3), Vec6::Unit(4), Vec6::Unit(5)};
const Vec6& unitVector(int d) { return kUnitVectors[static_cast<std::size_t>(d)]; }

/// acc += s ᴬX*_B f = s (ᴮX_A)ᵀ f, with s = ±1: a force carried into the parent's record
/// (performance note 2).
void accumulateInverseForce(const Xform& X, const Vec6& f, double s, Vec6& acc) {
  const Vec3 fl = X.E.transpose() * f.tail<3>();
  const Vec3 n = X.E.transpose() * f.head<3>() + X.r.cross(fl);
  for (int k = 0; k < 3; ++k) {
    acc[k] += s * n[k];
    acc[3 + k] += s * fl[k];
  }
}

/// accumulateInverseForce for f = t e_d, a force along one coordinate (a 1-DoF joint's actuation
/// u = e_d τ): (ᴮX_A)ᵀ e_d is row d of Eᵀ's blocks, [E_d·; 0] for a moment, [r × E_(d−3)·; E_(d−3)·]
/// for a force.
void accumulateInverseForceAlong(const Xform& X, int d, double t, double s, Vec6& acc) {
  const double st = s * t;
  if (d < 3) {
    for (int k = 0; k < 3; ++k) acc[k] += st * X.E(d, k);
    return;
  }
  const Vec3 fl = st * X.E.row(d - 3).transpose();
  const Vec3 n = X.r.cross(fl);
  for (int k = 0; k < 3; ++k) {
    acc[k] += n[k];
    acc[3 + k] += fl[k];
  }
}

constexpr int kAhead = 3;  ///< bodies ahead to prefetch (performance note 1)

}  // namespace

CfaTreeSolver::CfaTreeSolver(const Tree& tree)
    : Solver(tree),
      ownFrames_(tree.nb),
      prescribed_(tree.nb, 0),
      axes_(tree.nb),
      IinvB_(tree.nb),
      IinvJ_(tree.nb),
      Tphys_(tree.nb),
      w_(tree.nb),
      Psi_(tree.nb),
      XJ_(tree.nb),
      aStored_(tree.nb),
      FStored_(tree.nb),
      fBody_(tree.nb),
      fRnea_(tree.nb),
      dqdd_(tree.nv) {
  kin_.resize(tree);
  handover_ = SweepHandover(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    JointFrame& fr = ownFrames_[i];
    Mat3& R = axes_[i].R;
    fr.nv = static_cast<std::int8_t>(joint.nv);
    // the joint frame: columns of R in body axes, and the coordinates S_i spans there
    const JointCoordinateFrame jf = joint.coordinateFrame();
    fr.turning = joint.offset ? 3 : joint.type == JointType::Universal ? 1 : joint.type == JointType::Gimbal ? 2 : 0;
    R = jf.R;
    for (int n = 0; n < fr.nv; ++n) fr.dims[n] = static_cast<std::int8_t>(jf.dims[n]);
    fr.rotated = fr.universal() || R != Mat3::Identity();
    const int parent = tree.parent[i];
    fr.ownTransform = fr.rotated || (parent >= 0 && ownFrames_[static_cast<std::size_t>(parent)].rotated);
    fr.keepPsi = (parent >= 0 && !handover_.handsOverInLocal(i)) || fr.nv > 1 || fr.dense();
    // the elimination takes a body's children last to first: the last child's joint meets Ψ_p = I_p⁻¹
    fr.keepV = parent >= 0 && (tree.children[parent].back() != i || fr.dense());
    if (fr.keepV && Vt_.empty()) Vt_.assign(static_cast<std::size_t>(tree.nb), Mat6::Zero());
    for (int c : tree.children[i]) fr.farChild = fr.farChild || !handover_.handsOverInLocal(c);
    std::array<bool, 6> motion{};
    for (int n = 0; n < fr.nv; ++n) motion[static_cast<std::size_t>(fr.dims[n])] = true;
    fr.nc = 0;
    for (int d = 0; d < 6; ++d)
      if (!motion[static_cast<std::size_t>(d)]) fr.cdims[fr.nc++] = static_cast<std::int8_t>(d);
    if (fr.dense() && Sdense_.empty()) {
      Sdense_.assign(static_cast<std::size_t>(tree.nb), Mat6::Zero());
      Ddense_.assign(static_cast<std::size_t>(tree.nb), Mat6::Zero());
    }
    Mat6N T;
    joint.constraintSubspace(tree.initialQ.data() + tree.qOffset[i], T);
    Tphys_[i].setZero();
    Tphys_[i].leftCols(T.cols()) = T;
    fr.gather = !fr.universal() && !fr.dense();
    for (int c = 0; c < T.cols() && fr.gather; ++c) {
      int nonzero = 0;
      for (int r = 0; r < 6; ++r) {
        if (T(r, c) == 0.0) continue;
        ++nonzero;
        fr.index[c] = static_cast<std::int8_t>(r);
        fr.sign[c] = static_cast<std::int8_t>(T(r, c) > 0.0 ? 1 : -1);
        fr.gather = std::abs(T(r, c)) == 1.0;
      }
      fr.gather = fr.gather && nonzero == 1;
    }
    // ⁱX_p's rotation turns about a coordinate axis (or is 1) where X_T does not rotate: exactly
    // no rotation, so the identity's entries and the products with them are exact
    if (!fr.ownTransform && joint.unitAxis >= 0 && tree.X_T[i].E == Mat3::Identity()) {
      if (joint.type == JointType::Revolute) fr.axisTurn = static_cast<std::int8_t>(joint.unitAxis);
      if (joint.type == JointType::Prismatic) fr.axisTurn = 3;
    }
    IinvB_[i] = RigidInverse::of(tree.I[i]);
    IinvJ_[i] = fr.rotated && !fr.universal() ? IinvB_[i].turned(R) : IinvB_[i];
  }
  // no joint prescribed yet: prescribedFrames_ matches prescribed_
  prescribedFrames_ = ownFrames_;
  frames_ = ownFrames_.data();
  // the refinement of q̈ where a light body carries a heavy one (header, "Refinement")
  std::vector<double> stiffness(static_cast<std::size_t>(tree.nb));  // λ_min(I_i) = 1 / ‖I_i⁻¹‖₂
  for (int i = 0; i < tree.nb; ++i)
    stiffness[i] = Eigen::SelfAdjointEigenSolver<Mat6>(tree.I[i].matrix(), Eigen::EigenvaluesOnly).eigenvalues()[0];
  for (int i = 0; i < tree.nb; ++i)
    if (tree.parent[i] >= 0 && stiffness[i] > kComplianceRatio * stiffness[tree.parent[i]]) refine_ = true;
}

// Joint frame of a universal joint from S = [E₂a₁ a₂; 0 0]: R = [a₂ × n, a₂, n] with n ∥ E₂a₁ × a₂
// (the constraint moment axis of JointModel::constraintSubspace), so S = R [Ŝ; 0] on coordinates 0, 1.
void CfaTreeSolver::updateUniversal(int i, const double* qi) {
  JointAxes& ax = axes_[i];
  Mat6N S;
  tree_->joints[i].motionSubspace(qi, S);
  const Vec3 s1 = S.col(0).head<3>(), s2 = S.col(1).head<3>();
  const Vec3 n = s1.cross(s2).normalized();
  const Vec3 u2 = s2.normalized();
  const Vec3 u1 = u2.cross(n);
  ax.R << u1, u2, n;
  Eigen::Matrix2d Shat;
  Shat << u1.dot(s1), u1.dot(s2), u2.dot(s1), u2.dot(s2);
  ax.Shat = Shat;
  ax.ShatInv = Shat.inverse();
  Tphys_[i].setZero();  // JointModel's T for the reported reaction: [n 0; 0 1₃]
  Tphys_[i].col(0).head<3>() = n;
  Tphys_[i].block<3, 3>(3, 1).setIdentity();
  IinvJ_[i] = IinvB_[i].turned(ax.R);
}

// Ŝ of a gimbal joint: S = [s₁ s₂ s₃; 0] in body axes, which are its joint frame (R = 1).
void CfaTreeSolver::updateGimbal(int i, const double* qi) {
  JointAxes& ax = axes_[i];
  Mat6N S;
  tree_->joints[i].motionSubspace(qi, S);
  ax.Shat3 = S.topLeftCorner<3, 3>();
  ax.Shat3Inv = ax.Shat3.inverse();
}

// Eliminates joint c (its subtree already eliminated) into its parent's Ψ and α (see the header),
// in arithmetic of the joint's n_c constraint coordinates.
void CfaTreeSolver::eliminate(int c, const Mat6& PsiC, Mat6& Psi, Vec6& alpha) {
  // a free joint (n_c = 0) transmits nothing: no constraint coordinates
  if (frames_[c].denseT()) return eliminateDense(c, PsiC, Psi, alpha);
  dispatchSize(frames_[c].nc, [&]<int NC>() {
    if constexpr (NC > 0) eliminateFixed<NC>(c, PsiC, Psi, alpha);
  });
}

template <int NC>
void CfaTreeSolver::eliminateFixed(int c, const Mat6& PsiC, Mat6& Psi, Vec6& alpha) {
  using Mat6c = Eigen::Matrix<double, 6, NC>;
  using Veccc = Eigen::Matrix<double, NC, 1>;
  const JointFrame& fr = frames_[c];
  BodyWork& C = w_[c];
  const Xform& X = jointTransform(c);
  const std::array<std::int8_t, 6>& cd = fr.cdims;
  // (T_cᵀ ᶜX_p Ψ_p)ᵀ = Ψ_p ᶜX_pᵀ T_c: the constraint columns of Ψ_p ᶜX_pᵀ (−A_cp, −A_cj on the
  // parent's columns, Liu et al. eqs. 34, 36)
  const Mat6 Bt = timesXTransposed(Psi, X, fr.axisTurn);
  Mat6c B;
  for (int k = 0; k < NC; ++k) B.col(k) = Bt.col(cd[k]);
  // A_cc = T_cᵀ (Ψ_c + ᶜX_p Ψ_p ᶜX_pᵀ) T_c (eqs. 32, 37), lower triangle, factored A_cc = L D Lᵀ
  PackedLower& L = C.L;
  const Mat6 XPsiXt = timesXTransposed(Bt.transpose(), X, fr.axisTurn);  // ᶜX_p Ψ_p ᶜX_pᵀ
  for (int j = 0; j < NC; ++j)
    for (int i = j; i < NC; ++i) L(i, j) = XPsiXt(cd[i], cd[j]) + PsiC(cd[i], cd[j]);
  ldltInPlace<NC>(L, C.invDiag.data());
  // V = L⁻¹ Bᵀ (held as Vᵀ, column by column) and z = L⁻¹ b_c with b_c = T_cᵀ (ᶜX_p α_p + c_c − α_c)
  // (eq. 29, the bias per body); the Schur complement of A_cc: every remaining block at body p
  // changes by −Vᵀ D⁻¹ V; kept for the back substitution, λ_c = A_cc⁻¹ (b_c + T_cᵀ ᶜX_p Ψ_p F_p)
  // = L⁻ᵀ D⁻¹ (z + V F_p)
  Vec6 b;
  applyMotion(X, fr.axisTurn, alpha, b);
  b += C.c - C.alpha;
  Mat6c Vt = B;
  Veccc z;
  for (int k = 0; k < NC; ++k) z[k] = b[cd[k]];
  schurUpdate<NC>(C, fr.keepV ? &Vt_[c] : nullptr, Vt, z, Psi, alpha);
}

// eliminateFixed's right-hand side alone, with its stored L, D and V, for the correction's system at
// rest (no c_c): z = L⁻¹ b_c, α_p ← α_p − Vᵀ D⁻¹ z. Where V is not kept, Ψ_p was I_p⁻¹ and
// Vᵀ D⁻¹ z = I_p⁻¹ ᶜX_pᵀ T_c L⁻ᵀ D⁻¹ z.
template <int NC>
void CfaTreeSolver::eliminateRhs(int c, Vec6& alpha) {
  using Veccc = Eigen::Matrix<double, NC, 1>;
  const JointFrame& fr = frames_[c];
  BodyWork& C = w_[c];
  const Xform& X = jointTransform(c);
  const Vec6 b = X.applyMotion(alpha) - C.alpha;
  Veccc z;
  for (int k = 0; k < NC; ++k) z[k] = b[fr.cdims[k]];
  solveUnitLower<NC>(C.L, z);
  C.z.template head<NC>() = z;
  z.array() *= Eigen::Map<const Veccc>(C.invDiag.data()).array();
  if (fr.keepV) {
    alpha.noalias() -= Vt_[c].template leftCols<NC>() * z;
    return;
  }
  solveUnitLowerTransposed<NC>(C.L, z);
  Vec6 f = Vec6::Zero();
  for (int k = 0; k < NC; ++k) f[fr.cdims[k]] = z[k];
  Vec6 g = Vec6::Zero();
  accumulateInverseForce(X, f, 1.0, g);
  alpha.noalias() -= IinvJ_[tree_->parent[c]] * g;
}

// A root joint (no parent body): A_ii = T_iᵀ Ψ_i T_i = L D Lᵀ, z = L⁻¹ b_i (rootRhs).
template <int NC>
void CfaTreeSolver::factorRoot(int i, const Mat6& Psi) {
  const std::array<std::int8_t, 6>& cd = frames_[i].cdims;
  BodyWork& W = w_[i];
  PackedLower& L = W.L;
  for (int j = 0; j < NC; ++j)
    for (int r = j; r < NC; ++r) L(r, j) = Psi(cd[r], cd[j]);
  ldltInPlace<NC>(L, W.invDiag.data());
  rootRhs<NC>(i, true);
}

// z = L⁻¹ b_i for a root joint already factored: b_i = T_iᵀ (c_i − α_i) with the bias, c_i the
// root's velocity-product acceleration and the world's −g; b_i = −T_iᵀ α_i for the correction.
template <int NC>
void CfaTreeSolver::rootRhs(int i, bool withBias) {
  BodyWork& W = w_[i];
  for (int j = 0; j < NC; ++j) {
    const int d = frames_[i].cdims[j];
    W.z[j] = withBias ? W.c[d] - W.alpha[d] : -W.alpha[d];
  }
  solveUnitLower<NC>(W.L, W.z.template head<NC>());
}

// Prefetch for the first sweep: the fields it writes (ρ and c) of the record kAhead bodies
// further from the base, and its ⁱX_p.
void CfaTreeSolver::prefetchForBiasPass(int i) const {
  if (i + kAhead >= tree_->nb) return;
  const BodyWork& W = w_[i + kAhead];
  prefetchMembers(W, W.rho, W.psiCol);
  prefetchObject(&kin_.X_p[i + kAhead]);
}

// Prefetch for the tip-to-base sweeps: the record of the body kAhead closer to the base, its I⁻¹
// and ⁱX_p (the elimination: and Ψ where it is stored; the correction: and fRnea_), and ᴶⁱX_ᴶᵖ
// where the frames are rotated.
void CfaTreeSolver::prefetchTowardsBase(int i, bool elimination) const {
  if (i < kAhead) return;
  const int k = i - kAhead;
  prefetchRecord(k, !elimination);
  if (!elimination) prefetchObject(&fRnea_[k]);
  if (elimination && frames_[k].keepPsi) prefetchObject(&Psi_[k]);
  if (frames_[k].ownTransform) prefetchObject(&XJ_[k]);
  prefetchObject(&IinvJ_[k]);
  prefetchObject(&kin_.X_p[k]);
}

// Prefetch for the substitutions: the record (with Ψ's motion column of a 1-DoF joint; withU, the
// correction's u), Ψ where a
// joint of more DoF reads it, ⁱX_p and ᴶⁱX_ᴶᵖ, of the body kAhead further from the base.
void CfaTreeSolver::prefetchTowardsTips(int i, bool withU) const {
  if (i + kAhead >= tree_->nb) return;
  const int k = i + kAhead;
  prefetchRecord(k, withU);
  const JointFrame& fr = frames_[k];
  if (fr.nv > 1) prefetchObject(&Psi_[k]);
  if (!fr.keepV && tree_->parent[k] >= 0) prefetchObject(&IinvJ_[tree_->parent[k]]);
  if (fr.ownTransform) prefetchObject(&XJ_[k]);
  prefetchObject(&kin_.X_p[k]);
}

void CfaTreeSolver::prefetchRecord(int k, bool withU) const {
  const BodyWork& W = w_[k];
  const int nc = frames_[k].nc;
  const auto* base = reinterpret_cast<const char*>(&W);
  prefetchBytes(base, reinterpret_cast<const char*>(W.L.v.data() + nc * (nc + 1) / 2) - base);
  if (withU) prefetchObject(&W.u);
  if (frames_[k].keepV) prefetchBytes(Vt_[k].data(), static_cast<std::ptrdiff_t>(sizeof(double)) * 6 * nc);
}

// λ_i = L⁻ᵀ D⁻¹ (z + V F_p) on the constraint coordinates of the joint frame (zero on the motion
// ones); F_p, the forces on the parent body not yet eliminated when joint i was. A root joint
// (Fp null) has no V term.
template <int NC>
void CfaTreeSolver::constraintForce(int i, const Vec6* Fp, Vec6& lambda) const {
  using Veccc = Eigen::Matrix<double, NC, 1>;
  const JointFrame& fr = frames_[i];
  const BodyWork& W = w_[i];
  Veccc y = W.z.template head<NC>();
  if (Fp && fr.keepV) {
    y.noalias() += Vt_[i].template leftCols<NC>().transpose() * *Fp;
  } else if (Fp) {  // V F_p = L⁻¹ T_iᵀ ⁱX_p I_p⁻¹ F_p (performance note 11)
    Vec6 m;
    applyMotion(jointTransform(i), fr.axisTurn, IinvJ_[tree_->parent[i]] * *Fp, m);
    Veccc g;
    for (int k = 0; k < NC; ++k) g[k] = m[fr.cdims[k]];
    solveUnitLower<NC>(W.L, g);
    y += g;
  }
  y.array() *= Eigen::Map<const Veccc>(W.invDiag.data()).array();
  solveUnitLowerTransposed<NC>(W.L, y);
  lambda.setZero();
  for (int k = 0; k < NC; ++k) lambda[fr.cdims[k]] = y[k];
}

void CfaTreeSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                    VectorX& qdd, JointLoads* loads) {
  if (qdd.size() != tree_->nv) qdd.resize(tree_->nv);
  biasPass<false>(q, v, fext, qdd);
  eliminationPass<false>(tau);
  if (!refine_) {
    substitutionPass<false>(tau, qdd, nullptr, loads, true, false);
    return;
  }
  // one step of iterative refinement of q̈ with the factor just built (header, "Refinement")
  substitutionPass<false>(tau, qdd, nullptr, nullptr, true, true);
  correctionPass<false>(tau);
  substitutionPass<false>(tau, dqdd_, nullptr, loads, false, false);
  qdd += dqdd_;
}

void CfaTreeSolver::hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                                   std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  if (prescribed.size() != static_cast<std::size_t>(t.nb) || qdd.size() != t.nv || tau.size() != t.nv)
    throw std::invalid_argument("cfa-tree: hybrid dynamics takes one prescribed flag per joint, nv q̈ and nv τ");
  // the same passes as forwardDynamics, with the prescribed joints transmitting full wrenches
  // (header, "Prescribed joints"); the free joints' τ and the prescribed joints' q̈ are inputs.
  // Every call refines q̈ and the efforts once (header, "Prescribed joints": welded subtrees).
  selectPrescribed(prescribed);
  frames_ = prescribedFrames_.data();
  biasPass<true>(q, v, fext, qdd);
  eliminationPass<true>(tau);
  substitutionPass<true>(tau, qdd, &tau, nullptr, true, true);
  correctionPass<true>(tau);
  substitutionPass<true>(tau, dqdd_, &tau, loads, false, false);
  qdd += dqdd_;  // δq̈ is zero on the prescribed coordinates
  frames_ = ownFrames_.data();
}

void CfaTreeSolver::selectPrescribed(std::span<const char> prescribed) {
  for (int i = 0; i < tree_->nb; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const char p = prescribed[k] != 0 ? 1 : 0;
    if (p == prescribed_[k]) continue;
    prescribed_[k] = p;
    JointFrame& fr = prescribedFrames_[k];
    fr = ownFrames_[k];
    if (p && fr.nv > 0) {  // all six coordinates of the joint frame are constraint coordinates
      fr.nc = 6;
      for (int d = 0; d < 6; ++d) fr.cdims[d] = static_cast<std::int8_t>(d);
    }
  }
}

template <bool kHybrid>
void CfaTreeSolver::biasPass(const VectorX& q, const VectorX& v, ExternalWrenches fext, const VectorX& qdd) {
  const Tree& t = *tree_;
  // base to tip, one pass: the kinematics (as computeKinematics, keeping ⁱX_p and v_i),
  // joint-frame transforms, and each body's own bias terms (header, "Bias terms per body")
  const Vec6 a0 = baseAcceleration(t);
  Vec6 vLast = Vec6::Zero();  // v_{i−1}: body i's parent on a chain; kin_.v holds it for the other children
  for (int i = 0; i < t.nb; ++i) {
    prefetchForBiasPass(i);
    const JointModel& joint = t.joints[i];
    const double* qi = q.data() + t.qOffset[i];
    const double* vi = v.data() + t.vOffset[i];
    const int p = t.parent[i];
    const Xform& Xp = kin_.X_p[i] = joint.placement(qi, t.X_T[i]);
    const JointFrame& fr = frames_[i];
    Vec6 vi6, ci;
    if (fr.unitAxis() && !fr.rotated) {
      // S_i = e_d in body axes: v_J = e_d ν_i, c_i = v_i × e_d ν_i, no S̊ (performance note 9)
      const int d = fr.dims[0];
      vi6.setZero();
      if (p >= 0) applyMotion(Xp, fr.axisTurn, p == i - 1 ? vLast : kin_.v[p], vi6);
      vi6[d] += vi[0];
      ci.setZero();
      kernels::addCrossUnit(vi6, d, vi[0], ci);
    } else {
      const Vec6 vJ = joint.jointVelocity(qi, vi);
      vi6 = p < 0 ? vJ : Vec6(Xp.applyMotion(p == i - 1 ? vLast : kin_.v[p]) + vJ);
      ci = crossMotion(vi6, vJ) + joint.velocityProduct(qi, vi);
    }
    vLast = vi6;
    if (fr.farChild) kin_.v[i] = vi6;

    if (fr.universal()) updateUniversal(i, qi);
    if (fr.gimbal()) updateGimbal(i, qi);
    if (fr.dense()) updateDense(i, qi);
    BodyWork& W = w_[i];
    if (fr.ownTransform) {  // ᴶⁱX_ᴶᵖ = Rᵢᵀ ⁱX_p R_p; otherwise it is ⁱX_p itself
      Xform& XJ = XJ_[i];
      XJ = Xp;
      if (fr.rotated) XJ = Xform::rotation(axes_[i].R.transpose()) * XJ;
      if (p >= 0 && frames_[p].rotated) XJ = XJ * Xform::rotation(axes_[p].R);
    }
    // c_i, with the world's −g carried in at a root, and p_i = v_i ×* I_i v_i − f^ext_i: the
    // velocity-product acceleration and the bias wrench of body i alone, nothing summed
    const Vec6 c = p < 0 ? Vec6(Xp.applyMotion(a0) + ci) : ci;
    const Inertia& I = t.I[i];
    Vec6 bias;
    kernels::velocityWrench(I, vi6, bias);
    bias -= appliedWrench(t, fext, i);
    if (kHybrid || refine_) fBody_[i] = bias;  // RNEA's body wrench, completed by the first substitution
    if (fr.rotated) {
      const Mat3 Rt = axes_[i].R.transpose();
      W.c = spatial(Rt * c.head<3>(), Rt * c.tail<3>());
      W.rho = -spatial(Rt * bias.head<3>(), Rt * bias.tail<3>());
    } else {
      W.c = c;
      W.rho = -bias;
    }
    if (isPrescribed<kHybrid>(i)) {
      // the known relative acceleration S_i q̈_i joins c_i (header, "Prescribed joints"); in the
      // joint frame S_i selects coordinates, S_i = [Ŝ; 0] for a universal joint
      const double* qddi = qdd.data() + t.vOffset[i];
      if (fr.universal()) {
        W.c.head<2>() += axes_[i].Shat * Eigen::Vector2d(qddi[0], qddi[1]);
      } else if (fr.dense()) {
        W.c += denseMotion(i, qddi);
      } else if (fr.gimbal()) {
        W.c.head<3>() += axes_[i].Shat3 * Vec3(qddi[0], qddi[1], qddi[2]);
      } else {
        for (int k = 0; k < fr.nv; ++k) W.c[fr.dims[k]] += qddi[k];
      }
    }
  }
}

// D_i τ_i in the joint frame: τ on the motion coordinates (zero on the constraint ones). In the
// correction (residual), D_i r_i with r_i = τ_i − S_iᵀ f_i, f_i RNEA's joint wrench of q̈ so far.
template <bool kHybrid>
Vec6 CfaTreeSolver::actuation(int i, const VectorX& tau, bool residual) const {
  const JointFrame& fr = frames_[i];
  Vec6 u = Vec6::Zero();
  if (fr.nv == 0 || isPrescribed<kHybrid>(i)) return u;  // a prescribed joint's whole wrench is λ_i
  const int off = tree_->vOffset[i];
  // Sᵀ f = Ŝᵀ (Rᵀ f) on the motion coordinates, Ŝ = 1 but for universal and gimbal joints
  const JointAxes& ax = axes_[i];
  Vec6 fJ = Vec6::Zero();
  if (residual) {
    const Vec6& f = fRnea_[i];
    fJ = fr.rotated ? spatial(ax.R.transpose() * f.head<3>(), ax.R.transpose() * f.tail<3>()) : f;
  }
  if (fr.universal()) {
    const Eigen::Vector2d tp = Eigen::Vector2d(tau[off], tau[off + 1]) - ax.Shat.transpose() * fJ.head<2>();
    u.head<2>() = ax.ShatInv.transpose() * tp;  // D = S (SᵀS)⁻¹ = R [Ŝ⁻ᵀ; 0]
  } else if (fr.gimbal()) {
    const Vec3 tp = Vec3(tau[off], tau[off + 1], tau[off + 2]) - ax.Shat3.transpose() * fJ.head<3>();
    u.head<3>() = ax.Shat3Inv.transpose() * tp;  // D = [Ŝ⁻ᵀ; 0]
  } else if (fr.nv == 1) {                       // u = e_d τ_d
    u = unitVector(fr.dims[0]) * (tau[off] - fJ[fr.dims[0]]);
  } else if (fr.dense()) {
    u = denseActuation(i, tau.data() + off, fJ);
  } else {
    for (int k = 0; k < fr.nv; ++k) u[fr.dims[k]] = tau[off + k] - fJ[fr.dims[k]];
  }
  return u;
}

template <bool kHybrid>
void CfaTreeSolver::eliminationPass(const VectorX& tau) {
  const Tree& t = *tree_;
  // tip to base: u = D τ carried into the parent's known wrench; then Ψ and α of each body,
  // eliminating its children's joints (header; Liu et al. eqs. 29–37). Ψ_i is stored where it must
  // outlive the next step (JointFrame::keepPsi); else the parent is body i − 1, whose step comes
  // next and reads Ψ_i once (eliminating joint i), and two locals taking turns hold it.
  LocalPair<Mat6> psiLocal;
  const auto psiOf = [&](int i) -> Mat6& { return frames_[i].keepPsi ? Psi_[i] : psiLocal[i]; };
  for (int i = t.nb - 1; i >= 0; --i) {
    prefetchTowardsBase(i, true);
    const JointFrame& fr = frames_[i];
    BodyWork& W = w_[i];
    const int p = t.parent[i];
    // u = e_d τ_i for a 1-DoF joint along a coordinate axis (actuation's common case, inline)
    const Vec6 u = fr.unitAxis() && !isPrescribed<kHybrid>(i) ? Vec6(unitVector(fr.dims[0]) * tau[t.vOffset[i]])
                                                              : actuation<kHybrid>(i, tau, false);
    if (p >= 0) {
      if (fr.unitAxis()) {
        accumulateInverseForceAlong(jointTransform(i), fr.dims[0], u[fr.dims[0]], -1.0, w_[p].rho);
      } else if (fr.nv > 0) {
        accumulateInverseForce(jointTransform(i), u, -1.0, w_[p].rho);
      }
    }
    // Ψ_i = I_i⁻¹ and α_i = I_i⁻¹ (u_i + ρ_i), ρ_i = −p_i − Σ_c ᶜX_iᵀ u_c, then each child's joint
    // eliminated into them
    Mat6& Psi = psiOf(i);
    IinvJ_[i].expand(Psi);
    W.alpha.noalias() = Psi * (u + W.rho);
    const std::vector<int>& ch = t.children[i];
    for (auto c = ch.rbegin(); c != ch.rend(); ++c) eliminate(*c, psiOf(*c), Psi, W.alpha);
    if (fr.nv == 1) W.psiCol = Psi.col(fr.dims[0]);
    if (p < 0 && fr.denseT()) {
      factorRootDense(i, Psi);
    } else if (p < 0) {  // a root joint: A_ii = T_iᵀ Ψ_i T_i, b_i = −T_iᵀ α_i
      dispatchSize(fr.nc, [&]<int NC>() {
        if constexpr (NC > 0) factorRoot<NC>(i, Psi);
      });
    }
  }
}

template <bool kHybrid>
void CfaTreeSolver::substitutionPass(const VectorX& tau, VectorX& qdd, VectorX* effort, JointLoads* loads,
                                     bool withBias, bool residual) {
  const Tree& t = *tree_;
  // base to tip: λ, the accelerations a_i and q̈ (with the bias; without it, those of the
  // correction's system at rest)
  // a_p and F_p reach body i in a local where i is its parent's only child (p = i − 1, every link
  // of a chain), from aStored_ and FStored_ where the parent has other children (JointFrame::farChild)
  Vec6 aPrev = Vec6::Zero();      // a_{i−1}
  Vec6 FPrev = Vec6::Zero();      // F_{i−1}
  Mat3 EPrev = Mat3::Identity();  // ⁱ⁻¹E_0, for the loads; kin_.X_0 holds it where another child reads it
  for (int i = 0; i < t.nb; ++i) {
    prefetchTowardsTips(i, loads && !withBias);
    const JointFrame& fr = frames_[i];
    BodyWork& W = w_[i];
    const int p = t.parent[i];
    const bool stored = p >= 0 && frames_[p].farChild;
    Vec6* Fp = p < 0 ? nullptr : stored ? &FStored_[p] : &FPrev;
    // ᴶⁱX_ᴶᵖ a_p (the world is at rest)
    Vec6 y = Vec6::Zero();
    if (p >= 0) applyMotion(jointTransform(i), fr.axisTurn, stored ? aStored_[p] : aPrev, y);
    Vec6 lambda = Vec6::Zero();
    if (fr.denseT()) {
      constraintForceDense(i, Fp, lambda);
    } else {
      dispatchSize(fr.nc, [&]<int NC>() {
        if constexpr (NC > 0) constraintForce<NC>(i, Fp, lambda);
      });
    }
    if (stored && fr.nc > 0) accumulateInverseForce(jointTransform(i), lambda, -1.0, *Fp);  // for i's later siblings
    // T_iᵀ (a_i − y − c_i) = 0: only the motion coordinates differ
    Vec6 a = withBias ? Vec6(y + W.c) : y;
    if (isPrescribed<kHybrid>(i)) {
      // a_i = y + c_i + S_i q̈_i (c_i carries S_i q̈_i) with the given q̈_i, which the correction
      // leaves alone (δq̈_i = 0); the required effort τ_i = S_iᵀ f_i, f_i = λ_i (refined: plus
      // RNEA's f_i, as the loads)
      const int off = t.vOffset[i];
      if (!withBias)
        for (int k = 0; k < fr.nv; ++k) qdd[off + k] = 0.0;
      generalizedForce(i, bodyLoad(i, lambda, !withBias), effort->data() + off);
    } else if (fr.unitAxis()) {
      const int d = fr.dims[0];
      const double rel = W.alpha[d] + W.psiCol.dot(lambda) - a[d];  // Ψ_i is symmetric
      qdd[t.vOffset[i]] = rel;
      a += unitVector(d) * rel;
    } else if (fr.dense()) {
      denseAcceleration(i, lambda, a, qdd.data() + t.vOffset[i]);
    } else if (fr.nv > 0) {
      const int off = t.vOffset[i];
      Vec6 rel = Vec6::Zero();
      for (int k = 0; k < fr.nv; ++k) {
        const int d = fr.dims[k];
        const double ad = W.alpha[d] + Psi_[i].col(d).dot(lambda);  // Ψ_i is symmetric
        rel[k] = ad - a[d];
        a[d] = ad;
      }
      if (fr.universal()) {
        qdd.segment<2>(off) = axes_[i].ShatInv * rel.head<2>();
      } else if (fr.gimbal()) {
        qdd.segment<3>(off) = axes_[i].Shat3Inv * rel.head<3>();
      } else {
        for (int k = 0; k < fr.nv; ++k) qdd[off + k] = rel[k];
      }
    }
    // F_i = T_i λ_i (joint i's constraint force on body i) and a_i, for i's children
    if (fr.farChild) {
      FStored_[i] = lambda;
      aStored_[i] = a;
    } else {
      FPrev = lambda;
      aPrev = a;
    }
    if (loads) {
      // f_i = D_i τ_i + T_i λ_i, joint frame: D τ again from τ (the elimination keeps no u); the
      // correction's D r from the record
      Vec6 fJ = lambda;
      if (!withBias) {
        fJ += W.u;
      } else if (fr.unitAxis() && !isPrescribed<kHybrid>(i)) {
        fJ[fr.dims[0]] += tau[t.vOffset[i]];
      } else {
        fJ += actuation<kHybrid>(i, tau, false);
      }
      const Mat3* Ep0 = p < 0 ? nullptr : frames_[p].farChild ? &kin_.X_0[p].E : &EPrev;
      Mat3 E;
      jointLoad(i, fJ, *loads, !withBias, Ep0, E);
      if (fr.farChild) kin_.X_0[i].E = E;
      EPrev = E;
    }
    if (residual) {
      // RNEA's body wrench at q̈: p_i from the bias pass plus I_i a_i, formed per body before any
      // subtree sum (summed apart, gravity's and the inertial subtree wrenches grow far larger than
      // their difference, and their rounding would be most of the residual)
      const JointAxes& ax = axes_[i];
      fBody_[i] += t.I[i] * (fr.rotated ? spatial(ax.R * a.head<3>(), ax.R * a.tail<3>()) : a);
    }
  }
}

template <bool kHybrid>
void CfaTreeSolver::correctionPass(const VectorX& tau) {
  const Tree& t = *tree_;
  // tip to base: the RNEA joint wrench of q̈ so far (the subtree sums of substitutionPass's body
  // wrenches, handed to the parent as in sweep_handover.hpp), its residual r = τ − Sᵀ f, u = D r,
  // and α for u with the factor kept from eliminationPass (Ψ, L and V are unchanged: only the
  // right-hand side is new)
  for (int i = t.nb - 1; i >= 0; --i) {
    prefetchTowardsBase(i, false);
    BodyWork& W = w_[i];
    const int p = t.parent[i];
    if (handover_.isLeaf(i)) fRnea_[i] = fBody_[i];
    if (p >= 0) {
      if (handover_.startsParent(i)) fRnea_[p] = fBody_[p];
      accumulateInverseForce(kin_.X_p[i], fRnea_[i], 1.0, fRnea_[p]);
    }
    const Vec6 u = actuation<kHybrid>(i, tau, true);
    W.u = u;
    const std::vector<int>& ch = t.children[i];
    Vec6 rho = Vec6::Zero();  // −Σ_c ᶜX_iᵀ u_c
    for (int c : ch) {
      const JointFrame& fc = frames_[c];
      if (fc.unitAxis()) {
        accumulateInverseForceAlong(jointTransform(c), fc.dims[0], w_[c].u[fc.dims[0]], -1.0, rho);
      } else if (fc.nv > 0) {
        accumulateInverseForce(jointTransform(c), w_[c].u, -1.0, rho);
      }
    }
    W.alpha.noalias() = IinvJ_[i] * (u + rho);
    for (auto c = ch.rbegin(); c != ch.rend(); ++c) {
      if (frames_[*c].denseT()) {
        eliminateRhsDense(*c, W.alpha);
        continue;
      }
      dispatchSize(frames_[*c].nc, [&]<int NC>() {
        if constexpr (NC > 0) eliminateRhs<NC>(*c, W.alpha);
      });
    }
    if (p < 0 && frames_[i].denseT()) {
      rootRhsDense(i, false);
    } else if (p < 0) {
      dispatchSize(frames_[i].nc, [&]<int NC>() {
        if constexpr (NC > 0) rootRhs<NC>(i, false);
      });
    }
  }
}

Vec6 CfaTreeSolver::bodyLoad(int i, const Vec6& fJ, bool corrected) const {
  const JointAxes& ax = axes_[i];
  Vec6 f = frames_[i].rotated ? spatial(ax.R * fJ.head<3>(), ax.R * fJ.tail<3>()) : fJ;
  if (corrected) f += fRnea_[i];
  return f;
}

void CfaTreeSolver::generalizedForce(int i, const Vec6& f, double* out) const {
  // τ = Sᵀ f = Ŝᵀ (Rᵀ f) on the motion coordinates
  const JointFrame& fr = frames_[i];
  if (fr.nv == 0) return;
  const JointAxes& ax = axes_[i];
  const Vec6 fr6 = fr.rotated ? spatial(ax.R.transpose() * f.head<3>(), ax.R.transpose() * f.tail<3>()) : f;
  if (fr.universal()) {
    const Eigen::Vector2d tau = ax.Shat.transpose() * fr6.head<2>();
    out[0] = tau[0];
    out[1] = tau[1];
  } else if (fr.gimbal()) {
    const Vec3 tau = ax.Shat3.transpose() * fr6.head<3>();
    for (int k = 0; k < 3; ++k) out[k] = tau[k];
  } else if (fr.dense()) {
    denseGeneralizedForce(i, fr6, out);
  } else {
    for (int k = 0; k < fr.nv; ++k) out[k] = fr6[fr.dims[k]];
  }
}

void CfaTreeSolver::jointLoad(int i, const Vec6& fJ, JointLoads& loads, bool corrected, const Mat3* Ep0, Mat3& E) {
  const Tree& t = *tree_;
  // the joint loads f = D τ + T λ (refined: RNEA's f + D r + T δλ), and their parts τ_i = S_iᵀ f_i,
  // λ_i = T_iᵀ f_i (JointModel's T), world axes
  const JointFrame& fr = frames_[i];
  const Vec6 f = bodyLoad(i, fJ, corrected);
  loads.f[i] = f;
  if (fr.unitAxis() && !fr.rotated)
    loads.tau[t.vOffset[i]] = f[fr.dims[0]];  // S_iᵀ f with S_i = e_d in body axes
  else
    generalizedForce(i, f, loads.tau.data() + t.vOffset[i]);
  double* lam = loads.lambda.data() + t.lambdaOffset[i];
  if (fr.gather) {
    for (int k = 0; k < 6 - fr.nv; ++k) lam[k] = fr.sign[k] > 0 ? f[fr.index[k]] : -f[fr.index[k]];
  } else {
    const Mat6& T = Tphys_[i];
    for (int k = 0; k < 6 - fr.nv; ++k) lam[k] = T.col(k).dot(f);
  }
  // ⁱE_0 = ⁱX_0's rotation, world → body axes (only the loads need it)
  if (!Ep0)
    E = kin_.X_p[i].E;
  else
    composeRotation(kin_.X_p[i].E, fr.axisTurn, *Ep0, E);
  loads.fWorld[i] = spatial(E.transpose() * f.head<3>(), E.transpose() * f.tail<3>());
}

std::unique_ptr<Solver> makeCfaTreeSolver(const Tree& tree) { return std::make_unique<CfaTreeSolver>(tree); }

}  // namespace kt

// Performance notes: why the passes are written as they are (docs/benchmarks.md has the
// measurements). None of these changes a result but 11, which changes the rounding of λ in the
// last bits (tests/core/test_cfa.cpp holds cfa-tree to the plain reference version of the same
// per-body form on random trees).
//  1. Prefetch (kernels/prefetch.hpp). Each pass walks about a kilobyte per body, in several
//     arrays at once (w_, kin_.X_p, IinvJ_): more streams than the hardware prefetchers follow on
//     long trees. The passes ask for the data kAhead bodies ahead, and only for what they read:
//     the bias pass for ρ and c, the others for the whole record (it holds nothing else), and each
//     for ᴶⁱX_ᴶᵖ only where the frames are rotated. The record and I⁻¹ are LargeArrays
//     (large_pages.hpp): on 4 KB pages their TLB misses were most of the growth in cost per body
//     on long chains.
//  1a. Ψ and a in locals. Only the elimination needs a whole Ψ_i, and on a chain only until the
//     next body's step; the substitution needs its motion columns. Stored for every body, Ψ_i went
//     out to L3 on long chains and was read back a column at a time. Likewise a_i is read only by
//     its children, along a chain by the next body: it is stored only for a child other than that.
//  2. Forces into the parent's record. accumulateInverseForce adds coefficient by coefficient into
//     the parent's record, which is read as whole vectors only much later, instead of returning a
//     6-vector read back at once (scalar stores cannot be forwarded to the vector loads after them).
//  3. One-coordinate joints as vector operations: u = e_d τ_d and a += e_d q̈ with e_d read as a
//     whole vector (unitVector), where a scalar store read back as a vector would stall. Carried
//     into the parent, u = e_d τ_d is one row of ᶜX_pᵀ times τ_d (accumulateInverseForceAlong).
//  4. I_i⁻¹ is kept as the ten numbers of a rigid body (kernels/rigid_inverse.hpp) and expanded
//     into Ψ_i where the elimination starts on body i: 80 bytes a body to read instead of a 6 × 6
//     matrix's 288, for about 80 instructions. Along a long chain the elimination reads I⁻¹ from
//     beyond L2; the expansion is off the chain of Ψ's from body to body.
//  5. The passes are out-of-line functions ([[gnu::noinline]] in the header): each is small
//     enough for the compiler to inline the spatial arithmetic into it, which one long function is not.
//  6. The joint frame (header, "Structure") makes T_iᵀ Q T_i a submatrix and T λ, D τ scatters:
//     no 6 × n_c products in the sweep, and the n_c × n_c factor and solves of the small-SPD kernel
//     (small_spd.hpp) compiled for each n_c.
//  7. The joint loads are formed in the last substitution, body by body, not in a pass of their
//     own: one sweep fewer over the records (the loads of body i need its parent's ᵖX_0 only).
//  8. A_cc = L D Lᵀ, not L Lᵀ. Along a chain each elimination waits for the last one's Ψ, so the
//     factor's latency is the sweep's: the n_c square roots of a Cholesky factor (each followed by
//     a division) were on that path, for a few instructions fewer per body.
//  9. Joints along a coordinate axis, the common case, take the RNEA's short forms
//     (kernels/spatial_kernels.hpp). Where S_i = e_d in body axes, the bias pass forms v_J and c_i
//     as one entry and two products (no call into the joint model), the elimination u = e_d τ_i
//     inline, the loads τ_i = f_i[d]. Where ⁱX_p also turns about a coordinate axis (X_T does not
//     rotate: JointFrame::axisTurn), its rotation is applied as a turn, two products a row instead
//     of three, in the elimination's Ψ_p ᶜX_pᵀ and ᶜX_p Ψ_p ᶜX_pᵀ (a quarter of its instructions
//     were there), in ⁱX_p a and in ⁱE_0. The dropped products are by exact zeros. Together 3,616 →
//     3,159 instructions a body on the chain with the loads (docs/benchmarks.md, "the short forms").
// 10. The record is whole cache lines, what every joint reads first: a joint of n_c < 6 leaves L's
//     last rows unread, and u (the actuation wrench, formed again from τ where the loads need
//     it) is stored by the refinement only, so a 1-DoF joint's record is 7 lines of 8 and the
//     passes prefetch only those. ⁱE_0 passes to the next body in a local, as a_i and F_i do
//     (1a), and is stored only for a parent with other children.
// 11. V formed again, not stored, where Ψ_p was still I_p⁻¹ when joint c was eliminated (p's last
//     child; every joint of a chain): the substitution's V F_p is L⁻¹ T_cᵀ ᶜX_p (I_p⁻¹ F_p), from
//     I_p⁻¹'s ten numbers (80 bytes) and ᶜX_p, which it reads anyway, and the correction's Vᵀ w is
//     I_p⁻¹ ᶜX_pᵀ T_c L⁻ᵀ w. V is 6 × n_c numbers, four lines of a 1-DoF joint's record that the
//     elimination wrote and the substitution read back: on the 10,000-chain, lines written are the
//     dearest (the elimination took about 100 cycles a body less without them), and a call's
//     lines per body fell from 40.6 to 32.9 for 115 instructions more (docs/benchmarks.md,
//     "cfa-tree at scale: V formed again, not stored").
