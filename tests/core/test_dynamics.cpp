// SPDX-License-Identifier: BSD-3-Clause
// Reference solvers and the explicit equations of motion (issue: engine; docs/dynamics.md §3–4, §9).
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/dynamics/aba.hpp"
#include "core/dynamics/crba.hpp"
#include "core/dynamics/kernels/large_pages.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/io/model_files.hpp"
#include "core/model/generators.hpp"
#include "support/random_state.hpp"

using namespace kt;

namespace {

constexpr int kRandomTrees = 240;

// 1–60 bodies, up to 6 children.
RandomTreeOptions treeOptions(std::uint64_t seed) { return test::solverTreeOptions(seed, 60, 6); }

// Body-frame velocity of the child relative to the joint frame, from two joint transforms h apart.
Vec6 velocityFromTransforms(const Xform& X0, const Xform& X1, double h) {
  const Mat3 R0 = X0.E.transpose(), R1 = X1.E.transpose();
  const Mat3 dR = R0.transpose() * (R1 - R0) / h;  // ≈ ω̃ in body axes
  const Vec3 w(0.5 * (dR(2, 1) - dR(1, 2)), 0.5 * (dR(0, 2) - dR(2, 0)), 0.5 * (dR(1, 0) - dR(0, 1)));
  return spatial(w, R0.transpose() * (X1.r - X0.r) / h);
}

}  // namespace

class TestDynamics : public QObject {
  Q_OBJECT

 private slots:
  void spatialIdentities() {
    SplitMix64 rng(7);
    for (int k = 0; k < 50; ++k) {
      const Xform X{rotationFromRpy(Vec3(rng.uniform(-3, 3), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3))),
                    Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))};
      Vec6 m, f;
      for (int i = 0; i < 6; ++i) m[i] = rng.uniform(-1, 1), f[i] = rng.uniform(-1, 1);
      // power is frame invariant: (X m)·(X* f) = m·f
      QVERIFY(std::abs(X.applyMotion(m).dot(X.applyForce(f)) - m.dot(f)) < 1e-14);
      QVERIFY((X.inverseMotion(X.applyMotion(m)) - m).norm() < 1e-14);
      QVERIFY((X.inverseForce(f) - X.matrix().transpose() * f).norm() < 1e-14);
      QVERIFY((X.applyMotion(m) - X.matrix() * m).norm() < 1e-14);
      QVERIFY(((X * X.inverse()).matrix() - Mat6::Identity()).norm() < 1e-14);
      QVERIFY((crossForce(m, f) - crossForceMatrix(m) * f).norm() < 1e-14);
      QVERIFY((crossMotion(m, m)).norm() < 1e-15);
      const Inertia I = Inertia::fromMassComInertia(rng.uniform(0.5, 2), Vec3(rng.uniform(-1, 1), 0.2, 0.1),
                                                    Vec3(0.3, 0.4, 0.5).asDiagonal());
      const Mat6 expected = X.matrix().transpose() * I.matrix() * X.matrix();
      QVERIFY((transformInertiaToParent(X, I.matrix()) - expected).norm() < 1e-13 * expected.norm());
    }
  }

  // S ν is the velocity the joint transform actually produces (central differences along
  // q ⊕ ±ν h), and S̊ ν the rate of change of S's coordinates, for every joint type.
  void jointVelocityMatchesTransformDerivative() {
    SplitMix64 rng(11);
    for (JointType type : kAllJointTypes) {
      // universal and gimbal joints also with offset axes (through points off the joint origin)
      const bool offsets = type == JointType::Universal || type == JointType::Gimbal;
      for (int trial = 0; trial < (offsets ? 40 : 20); ++trial) {
        const Vec3 a1 = rng.unitVector(), a2 = rng.unitVector(), a3 = rng.unitVector();
        const Vec3 p2 = trial >= 20 ? Vec3(rng.unitVector() * 0.2) : Vec3::Zero();
        const Vec3 p3 = trial >= 20 ? Vec3(rng.unitVector() * 0.2) : Vec3::Zero();
        const JointModel j = JointModel::make(type, a1, a2, a3, p2, p3);
        QCOMPARE(j.offset, trial >= 20);
        double q[7], qp[7], qm[7], v[6], vneg[6];
        for (int k = 0; k < j.nq; ++k) q[k] = rng.uniform(-1, 1);
        j.normalize(q);
        for (int k = 0; k < j.nv; ++k) v[k] = rng.uniform(-1, 1), vneg[k] = -v[k];
        const double h = 1e-6;
        j.integrate(q, v, h, qp);
        j.integrate(q, vneg, h, qm);
        const Vec6 fd = 0.5 * (velocityFromTransforms(j.transform(q), j.transform(qp), h) +
                               velocityFromTransforms(j.transform(q), j.transform(qm), -h));
        const Vec6 exact = j.jointVelocity(q, v);
        QVERIFY2((fd - exact).norm() < 1e-7, qPrintable(QString::fromStdString(std::string(jointTypeName(type)))));
        Mat6N S, Sp, Sm;
        j.motionSubspace(q, S);
        j.motionSubspace(qp, Sp);
        j.motionSubspace(qm, Sm);
        if (j.nv > 0) {
          QVERIFY((S * Eigen::Map<const VecN>(v, j.nv) - exact).norm() < 1e-14);
          const Vec6 dS = (Sp - Sm) / (2 * h) * Eigen::Map<const VecN>(v, j.nv);
          QVERIFY((dS - j.velocityProduct(q, v)).norm() < 1e-7);
          // S̊ᵀ μ, which the Poisson solvers take for their velocity products, likewise
          Vec6 mu;
          for (int k = 0; k < 6; ++k) mu[k] = rng.uniform(-1, 1);
          double rate[6];
          j.motionSubspaceRateTransposeTimes(S.data(), v, mu, rate);
          for (int k = 0; k < j.nv; ++k)
            QVERIFY2(std::abs(rate[k] - (Sp.col(k) - Sm.col(k)).dot(mu) / (2 * h)) < 1e-7,
                     qPrintable(QString::fromStdString(std::string(jointTypeName(type)))));
          // T: orthonormal, no work on S, turning continuously with q; D: Sᵀ D = 1
          Mat6N T, Tp, D;
          j.constraintSubspace(q, T);
          j.constraintSubspace(qp, Tp);
          j.actuationSubspace(q, D);
          QVERIFY((S.transpose() * T).norm() < 1e-12);
          QVERIFY((T.transpose() * T - MatN::Identity(6 - j.nv, 6 - j.nv)).norm() < 1e-12);
          QVERIFY((Tp - T).norm() < 1e-5);
          QVERIFY((S.transpose() * D - MatN::Identity(j.nv, j.nv)).norm() < 1e-12);
        }
      }
    }
  }

  void abaAgreesWithCrba_data() { test::addSeedRows(kRandomTrees); }
  void abaAgreesWithCrba() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
    const test::RandomState s = test::randomState(tree, seed * 31 + 1);
    VectorX qddAba(tree.nv), qddCrba(tree.nv);
    makeSolver("aba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qddAba, nullptr);
    makeSolver("crba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qddCrba, nullptr);
    const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
    const double err = test::relativeError(qddAba, qddCrba);
    QVERIFY2(err <= tol, qPrintable(QStringLiteral("nb=%1 err=%2 tol=%3").arg(tree.nb).arg(err).arg(tol)));
  }

  // The same, q̈ and the joint loads, with every body's mass and inertia scaled by its own factor
  // in [1e-3, 1e3] (light free bodies carrying heavy ones: tests/data/accuracy).
  void abaAgreesWithCrbaAcrossMassRatios_data() { test::addSeedRows(kRandomTrees); }
  void abaAgreesWithCrbaAcrossMassRatios() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(test::withSpreadMasses(makeRandomTree(seed, treeOptions(seed)), seed + 1000));
    const test::RandomState s = test::randomState(tree, seed * 31 + 1);
    VectorX qddAba(tree.nv), qddCrba(tree.nv);
    JointLoads aba, crba;
    aba.resize(tree);
    crba.resize(tree);
    makeSolver("aba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qddAba, &aba);
    makeSolver("crba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qddCrba, &crba);
    const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
    double fScale = 1.0, fErr = 0.0;
    for (int i = 0; i < tree.nb; ++i) {
      fScale = std::max(fScale, crba.f[i].lpNorm<Eigen::Infinity>());
      fErr = std::max(fErr, (aba.f[i] - crba.f[i]).lpNorm<Eigen::Infinity>());
    }
    const double err = std::max(test::relativeError(qddAba, qddCrba), fErr / fScale);
    QVERIFY2(err <= tol, qPrintable(QStringLiteral("nb=%1 err=%2 tol=%3").arg(tree.nb).arg(err).arg(tol)));
  }

  // Inverse dynamics undoes forward dynamics: RNEA(q, ν, ABA(q, ν, τ)) = τ, relative to the
  // largest of the terms that cancel in M q̈ + h = τ (gravity loads dominate on long chains).
  void rneaInvertsAba_data() { test::addSeedRows(kRandomTrees); }
  void rneaInvertsAba() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
    const test::RandomState s = test::randomState(tree, seed * 17 + 3);
    VectorX qdd(tree.nv), tau(tree.nv);
    JointLoads loads;
    loads.resize(tree);
    makeSolver("aba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qdd, &loads);
    RneaWorkspace ws(tree);
    VectorX h(tree.nv);
    biasForces(tree, ws, s.q, s.v, {}, h);
    inverseDynamics(tree, ws, s.q, s.v, qdd, {}, tau);
    const double scale = std::max({s.tau.lpNorm<Eigen::Infinity>(), h.lpNorm<Eigen::Infinity>(), 1.0});
    const double err = (tau - s.tau).lpNorm<Eigen::Infinity>() / scale;
    QVERIFY2(err <= 1e-12, qPrintable(QString::number(err)));
    // the loads ABA reports carry the applied joint forces, τ_i = S_iᵀ f_i
    QVERIFY((loads.tau - s.tau).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
    Mat6N S;
    for (int i = 0; i < tree.nb; ++i) {
      const JointModel& j = tree.joints[i];
      j.motionSubspace(s.q.data() + tree.qOffset[i], S);
      if (j.nv > 0) QVERIFY(VecN(S.transpose() * loads.f[i]) == VecN(loads.tau.segment(tree.vOffset[i], j.nv)));
    }
  }

  // Joints along x, y or z whose placements do not rotate take the RNEA's own path (rnea.cpp,
  // axisStep): τ, the joint wrenches and their world components agree with ABA's, which builds
  // every ⁱX_p as an Xform, on trees where most joints are such and the rest are of every type.
  void rneaPlainJointsMatchAba_data() { test::addSeedRows(kRandomTrees); }
  void rneaPlainJointsMatchAba() {
    QFETCH(quint64, seed);
    RandomTreeOptions options = treeOptions(seed);
    options.coordinateAxes = 0.8;
    options.plainPlacements = 0.7;
    options.allJointTypes = seed % 2 == 1;  // every type on odd seeds, revolute joints alone on even ones
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, options));
    const test::RandomState s = test::randomState(tree, seed * 13 + 7);
    VectorX qdd(tree.nv), tau(tree.nv);
    JointLoads aba, rnea;
    aba.resize(tree);
    rnea.resize(tree);
    makeSolver("aba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qdd, &aba);
    RneaWorkspace ws(tree);
    int plain = 0;
    for (int i = 0; i < tree.nb; ++i) plain += ws.axisStep[static_cast<std::size_t>(i)] >= 0 ? 1 : 0;
    QVERIFY(tree.nb < 8 || options.allJointTypes || plain > 0);
    VectorX h(tree.nv);
    biasForces(tree, ws, s.q, s.v, {}, h);
    inverseDynamics(tree, ws, s.q, s.v, qdd, {}, tau, &rnea);
    // relative to the largest of the terms that cancel in M q̈ + h = τ, as rneaInvertsAba
    const double scale = std::max({s.tau.lpNorm<Eigen::Infinity>(), h.lpNorm<Eigen::Infinity>(), 1.0});
    const double err = (tau - s.tau).lpNorm<Eigen::Infinity>() / scale;
    QVERIFY2(err <= 1e-12, qPrintable(QStringLiteral("%1 (%2 of %3 bodies plain)").arg(err).arg(plain).arg(tree.nb)));
    QVERIFY((rnea.tau - tau).lpNorm<Eigen::Infinity>() == 0.0);
    double fScale = 1.0, fErr = 0.0, wErr = 0.0;
    for (int i = 0; i < tree.nb; ++i) {
      fScale = std::max(fScale, aba.f[i].lpNorm<Eigen::Infinity>());
      fErr = std::max(fErr, (rnea.f[i] - aba.f[i]).lpNorm<Eigen::Infinity>());
      wErr = std::max(wErr, (rnea.fWorld[i] - aba.fWorld[i]).lpNorm<Eigen::Infinity>());
    }
    QVERIFY2(fErr <= 1e-12 * fScale && wErr <= 1e-12 * fScale,
             qPrintable(QStringLiteral("f %1 world %2 scale %3").arg(fErr).arg(wErr).arg(fScale)));
    QVERIFY((rnea.lambda - aba.lambda).lpNorm<Eigen::Infinity>() <= 1e-12 * fScale);
    // λ taken off the joint axes is, to the bit, and the world axes from the RNEA's own rotations
    // are, to the value, what completeJointLoads (every other solver's completion) makes of the
    // same wrenches (the kinematics' ⁱE_0 of a prescribed joint is a product with 1, which may turn
    // a −0 entry into +0 where the RNEA copies it)
    JointLoads completed = rnea;
    Kinematics kin;
    kin.resize(tree);
    computePositionKinematics(tree, s.q, kin);
    completeJointLoads(tree, kin, s.q, completed);
    QVERIFY(completed.lambda.size() == rnea.lambda.size());
    QVERIFY(std::memcmp(completed.lambda.data(), rnea.lambda.data(), sizeof(double) * rnea.lambda.size()) == 0);
    for (int i = 0; i < tree.nb; ++i)
      QVERIFY2(completed.fWorld[i] == rnea.fWorld[i], qPrintable(QStringLiteral("body %1").arg(i)));
  }

  // M from CRBA against its definition, columns of RNEA: M e_k = ID(q, 0, e_k) − ID(q, 0, 0).
  void massMatrixMatchesRneaColumns_data() { test::addSeedRows(80); }
  void massMatrixMatchesRneaColumns() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
    const test::RandomState s = test::randomState(tree, seed);
    RneaWorkspace ws(tree);
    MatrixX M;
    massMatrix(tree, ws, s.q, M);
    const VectorX zero = VectorX::Zero(tree.nv);
    VectorX tau0(tree.nv), tauK(tree.nv);
    inverseDynamics(tree, ws, s.q, zero, zero, {}, tau0);
    const double scale = std::max(1.0, M.lpNorm<Eigen::Infinity>());
    for (int k = 0; k < tree.nv; ++k) {
      inverseDynamics(tree, ws, s.q, zero, VectorX::Unit(tree.nv, k), {}, tauK);
      QVERIFY(((tauK - tau0) - M.col(k)).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
    }
    QVERIFY((M - M.transpose()).lpNorm<Eigen::Infinity>() <= 1e-14 * scale);
    QVERIFY(M.llt().info() == Eigen::Success);
  }

  // h(q, ν) = ID(q, ν, 0), and M q̈ + h = τ for the CRBA solution.
  void explicitEquationsOfMotion() {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      const test::RandomState s = test::randomState(tree, seed + 5);
      RneaWorkspace ws(tree);
      MatrixX M;
      VectorX h(tree.nv), qdd(tree.nv);
      massMatrix(tree, ws, s.q, M);
      biasForces(tree, ws, s.q, s.v, {}, h);
      makeSolver("crba", tree)->forwardDynamics(s.q, s.v, s.tau, {}, qdd, nullptr);
      const double scale = std::max({s.tau.lpNorm<Eigen::Infinity>(), h.lpNorm<Eigen::Infinity>(), 1.0});
      QVERIFY((M * qdd + h - s.tau).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
    }
  }

  // Kinetic energy ½ νᵀ M ν equals the sum of the body energies ½ v_iᵀ I_i v_i.
  void kineticEnergyFromMassMatrix() {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      const test::RandomState s = test::randomState(tree, seed + 9);
      RneaWorkspace ws(tree);
      MatrixX M;
      massMatrix(tree, ws, s.q, M);
      computeKinematics(tree, s.q, s.v, ws.kin);
      double bodies = 0.0;
      for (int i = 0; i < tree.nb; ++i) bodies += 0.5 * ws.kin.v[i].dot(tree.I[i] * ws.kin.v[i]);
      const double joint = 0.5 * s.v.dot(M * s.v);
      QVERIFY(std::abs(joint - bodies) <= 1e-12 * std::max(1.0, bodies));
    }
  }

  // The solvers' large per-body arrays: 2 MB aligned from 2 MB up (where huge pages can back
  // them), the element alignment below, and ordinary vectors either way.
  void largeArraysAreAlignedAndBehaveAsVectors() {
    const auto address = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{1000}, std::size_t{7281}, std::size_t{7282}, std::size_t{20000}}) {
      LargeArray<Mat6> a(n, Mat6::Constant(2.0));  // 288 bytes each: 7,282 of them pass 2 MB
      QCOMPARE(a.size(), n);
      QCOMPARE(address(a.data()) % alignof(Mat6), std::uintptr_t{0});
      if (n * sizeof(Mat6) >= (std::size_t{2} << 20))
        QCOMPARE(address(a.data()) % (std::size_t{2} << 20), std::uintptr_t{0});
      a.back()(5, 5) = 3.0;
      a.push_back(Mat6::Identity());  // reallocates through the same allocator
      QCOMPARE(a.size(), n + 1);
      QCOMPARE(a[n - 1](5, 5), 3.0);
      QCOMPARE(a.front()(0, 0), 2.0);
      QCOMPARE(a.back()(0, 0), 1.0);
    }
  }

  void registryKnowsReferenceSolvers() {
    QVERIFY(isSolverName("aba"));
    QVERIFY(isSolverName("crba"));
    QVERIFY(!isSolverName("nonsense"));
    const Tree tree = finalizeOrThrow(makeChain(3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSolver("nonsense", tree));
    for (const SolverInfo& info : solverRegistry()) {
      QVERIFY(!info.description.empty());
      QCOMPARE(std::string(makeSolver(info.name, tree)->name()), info.name);
    }
  }
};

QTEST_APPLESS_MAIN(TestDynamics)
#include "test_dynamics.moc"
