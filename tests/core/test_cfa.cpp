// SPDX-License-Identifier: BSD-3-Clause
// Constraint Force Algorithm solvers (issue: CFA; docs/dynamics.md §5, §9): cfa-dense, cfa-oddeven and
// cfa-tree against the articulated-body algorithm, fixed-joint reactions against RNEA, and the
// exit codes of `kinetree-cli compare`.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <random>

#include "core/analysis/solver_comparison.hpp"
#include "core/dynamics/cfa/cfa_dense.hpp"
#include "core/dynamics/cfa/cfa_odd_even.hpp"
#include "core/dynamics/cfa/elimination_fill.hpp"
#include "core/dynamics/free_body.hpp"
#include "core/dynamics/kernels/articulated_inertia.hpp"
#include "core/dynamics/kernels/rigid_inverse.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/sim/simulator.hpp"
#include "support/cfa_reference.hpp"
#include "support/random_state.hpp"

using namespace kt;

namespace {

constexpr int kRandomTrees = 240;
const char* const kCfaSolvers[] = {"cfa-dense", "cfa-oddeven", "cfa-tree"};
// The CFA family's present limit on trees whose body masses span 1e-3 to 1e3, in multiples of
// the conditioned tolerance. The largest ratio on the 240 trees was 1.2e3 before the solvers
// refined q̈ against RNEA's residual (cfa-tree: where a light body carries a heavy one); now it is
// 6.7 (tree 2, and there only in the check τ = Sᵀ f: q̈, f and λ are within the tolerance).
constexpr double kCfaMassRatioFactor = 10;

// 1–60 bodies, every joint type, floating and fixed bases, up to 6 children; every fifth tree
// strongly biased towards long chains, and the last rows single chains of up to 64 bodies.
RandomTreeOptions treeOptions(std::uint64_t seed) {
  RandomTreeOptions o;
  o.minBodies = 1;
  o.maxBodies = 60;
  o.maxChildren = 1 + static_cast<int>(seed % 6);
  o.floatingBaseProbability = 0.5;
  o.chainBias = (seed % 5 == 0) ? 0.97 : 0.5;
  if (seed > kRandomTrees - 10) {
    o.minBodies = 40;
    o.maxBodies = 64;
    o.chainBias = 1.0;
  }
  return o;
}

VectorX flatten(const std::vector<Vec6>& f) {
  VectorX out(6 * static_cast<Eigen::Index>(f.size()));
  for (std::size_t i = 0; i < f.size(); ++i) out.segment<6>(6 * static_cast<Eigen::Index>(i)) = f[i];
  return out;
}

struct Result {
  VectorX qdd;
  JointLoads loads;
};

Result solve(const std::string& solver, const Tree& tree, const test::RandomState& s) {
  Result r{VectorX::Zero(tree.nv), {}};
  r.loads.resize(tree);
  makeSolver(solver, tree)->forwardDynamics(s.q, s.v, s.tau, {}, r.qdd, &r.loads);
  return r;
}

int longestChain(const Tree& tree) {
  std::vector<int> depth(tree.nb, 1);
  int longest = 0;
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[i];
    if (p >= 0 && tree.children[p].size() == 1) depth[i] = depth[p] + 1;
    longest = std::max(longest, depth[i]);
  }
  return longest;
}

// program: the installed kinetree-cli (KINETREE_CLI) or its test-hook twin (KINETREE_CLI_TEST).
int runCli(const QStringList& args, const QProcessEnvironment& env, QByteArray* out = nullptr,
           const QString& program = QStringLiteral(KINETREE_CLI)) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(program, args);
  if (!p.waitForFinished(120000)) return -1;
  if (out) *out = p.readAllStandardOutput() + p.readAllStandardError();
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// q̈ and every joint load (f, τ, λ) of every CFA solver against ABA (+ RNEA loads); the solvers
// that exceed `factor` times the tolerance, with their errors ("" when none does).
QString compareWithAba(const Tree& tree, std::uint64_t seed, double factor = 1.0) {
  const test::RandomState s = test::randomState(tree, seed * 13 + 5);
  const double tol = factor * test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
  const Result ref = solve("aba", tree, s);
  QString failures;
  for (const char* name : kCfaSolvers) {
    const Result r = solve(name, tree, s);
    const double errors[] = {
        test::relativeError(r.qdd, ref.qdd), test::relativeError(flatten(r.loads.f), flatten(ref.loads.f)),
        test::relativeError(flatten(r.loads.fWorld), flatten(ref.loads.fWorld)),
        test::relativeError(r.loads.tau, ref.loads.tau), test::relativeError(r.loads.lambda, ref.loads.lambda),
        // the loads carry the applied joint forces exactly as given: τ_i = S_iᵀ f_i = τ
        test::relativeError(r.loads.tau, s.tau)};
    const double err = *std::max_element(std::begin(errors), std::end(errors));
    if (err > tol)
      failures += QStringLiteral("%1: nb=%2 err=%3 (qdd %4, f %5, lambda %6) tol=%7; ")
                      .arg(name)
                      .arg(tree.nb)
                      .arg(err)
                      .arg(errors[0])
                      .arg(errors[1])
                      .arg(errors[4])
                      .arg(tol);
  }
  return failures;
}

}  // namespace

class TestCfa : public QObject {
  Q_OBJECT

 private slots:
  void registryHasCfaSolvers() {
    for (const char* name : kCfaSolvers) QVERIFY2(isSolverName(name), name);
  }

  // q̈ and every joint load (f, τ, λ) of every CFA solver against ABA (+ RNEA loads), within
  // max(1e-12, 4 κ(M) ε) relative (docs/dynamics.md §9).
  void agreesWithAba_data() {
    QTest::addColumn<quint64>("seed");
    for (int s = 1; s <= kRandomTrees; ++s) QTest::newRow(qPrintable(QStringLiteral("tree%1").arg(s))) << quint64(s);
  }
  void agreesWithAba() {
    QFETCH(quint64, seed);
    const QString failures = compareWithAba(finalizeOrThrow(makeRandomTree(seed, treeOptions(seed))), seed);
    QVERIFY2(failures.isEmpty(), qPrintable(failures));
  }

  // cfa-tree, tuned (joint frames, packed factors, fused passes), against the plain reference
  // version of the same algorithm with the bias per body, as cfa-tree computes it
  // (tests/support/cfa_reference.hpp): q̈ and every joint load.
  void treeAgreesWithReference_data() { agreesWithAba_data(); }
  void treeAgreesWithReference() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
    const test::RandomState s = test::randomState(tree, seed * 13 + 5);
    const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
    Result ref{VectorX::Zero(tree.nv), {}};
    ref.loads.resize(tree);
    test::cfaReferencePerBodyBias(tree, s.q, s.v, s.tau, ref.qdd, ref.loads);
    const Result r = solve("cfa-tree", tree, s);
    const double errors[] = {
        test::relativeError(r.qdd, ref.qdd), test::relativeError(flatten(r.loads.f), flatten(ref.loads.f)),
        test::relativeError(flatten(r.loads.fWorld), flatten(ref.loads.fWorld)),
        test::relativeError(r.loads.tau, ref.loads.tau), test::relativeError(r.loads.lambda, ref.loads.lambda)};
    for (double err : errors)
      QVERIFY2(err <= tol, qPrintable(QStringLiteral("nb=%1 errors q̈ %2, f %3, f_W %4, τ %5, λ %6; tol=%7")
                                          .arg(tree.nb)
                                          .arg(errors[0])
                                          .arg(errors[1])
                                          .arg(errors[2])
                                          .arg(errors[3])
                                          .arg(errors[4])
                                          .arg(tol)));
    // and the reference itself is the algorithm, not a copy of cfa-tree's mistakes: it agrees with aba
    QVERIFY(test::relativeError(ref.qdd, solve("aba", tree, s).qdd) <= tol);
  }

  // cfa-tree keeps each body's I⁻¹ as the ten numbers of a rigid body (kernels/rigid_inverse.hpp):
  // the 6×6 it expands to is the inverse of I turned into other axes, diag(Rᵀ, Rᵀ) I⁻¹ diag(R, R),
  // exactly symmetric, and applying it to a wrench agrees with the product with that matrix.
  void rigidInverseIsTheInverse_data() { agreesWithAba_data(); }
  void rigidInverseIsTheInverse() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    for (int i = 0; i < tree.nb; ++i) {
      const Mat6 I = tree.I[i].matrix();
      const Eigen::SelfAdjointEigenSolver<Mat6> eig(I, Eigen::EigenvaluesOnly);
      const double tol = test::conditionedTolerance(eig.eigenvalues()[5] / eig.eigenvalues()[0]);
      const Mat3 R =
          Eigen::Quaterniond(normal(rng), normal(rng), normal(rng), normal(rng)).normalized().toRotationMatrix();
      Mat6 X = Mat6::Zero();
      X.topLeftCorner<3, 3>() = R;
      X.bottomRightCorner<3, 3>() = R;
      const Mat6 ref = X.transpose() * I.llt().solve(Mat6::Identity()) * X;
      for (const RigidInverse& inv : {RigidInverse::of(tree.I[i], R), RigidInverse::of(tree.I[i]).turned(R)}) {
        Mat6 Psi;
        inv.expand(Psi);
        QVERIFY(Psi == Psi.transpose());
        QVERIFY2(
            (Psi - ref).norm() <= tol * ref.norm(),
            qPrintable(QStringLiteral("body %1: %2, tol %3").arg(i).arg((Psi - ref).norm() / ref.norm()).arg(tol)));
        QVERIFY((X.transpose() * I * X * Psi - Mat6::Identity()).norm() <= tol);
        const Vec6 f(normal(rng), normal(rng), normal(rng), normal(rng), normal(rng), normal(rng));
        QVERIFY((inv * f - Psi * f).norm() <= tol * (Psi * f).norm());
      }
    }
  }

  // The reference's two forms of the right-hand side, the papers' system at rest and the bias per
  // body that cfa-tree computes, side by side in tests/support/cfa_reference.hpp: the same q̈ and
  // joint loads within max(1e-12, 4 κ(M) ε) on the random trees (on long chains the form at rest
  // loses digits, test_accuracy).
  void referenceFormsAgree_data() { agreesWithAba_data(); }
  void referenceFormsAgree() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
    const test::RandomState s = test::randomState(tree, seed * 13 + 5);
    const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
    Result atRest{VectorX::Zero(tree.nv), {}}, perBody{VectorX::Zero(tree.nv), {}};
    atRest.loads.resize(tree);
    perBody.loads.resize(tree);
    test::cfaReference(tree, s.q, s.v, s.tau, atRest.qdd, atRest.loads);
    test::cfaReferencePerBodyBias(tree, s.q, s.v, s.tau, perBody.qdd, perBody.loads);
    const double errors[] = {test::relativeError(perBody.qdd, atRest.qdd),
                             test::relativeError(flatten(perBody.loads.f), flatten(atRest.loads.f)),
                             test::relativeError(perBody.loads.tau, atRest.loads.tau),
                             test::relativeError(perBody.loads.lambda, atRest.loads.lambda)};
    for (double err : errors)
      QVERIFY2(err <= tol, qPrintable(QStringLiteral("nb=%1 errors q̈ %2, f %3, τ %4, λ %5; tol=%6")
                                          .arg(tree.nb)
                                          .arg(errors[0])
                                          .arg(errors[1])
                                          .arg(errors[2])
                                          .arg(errors[3])
                                          .arg(tol)));
  }

  // The same with every body's mass and inertia scaled by its own factor in [1e-3, 1e3].
  void agreesWithAbaAcrossMassRatios_data() { agreesWithAba_data(); }
  void agreesWithAbaAcrossMassRatios() {
    QFETCH(quint64, seed);
    const Tree tree = finalizeOrThrow(test::withSpreadMasses(makeRandomTree(seed, treeOptions(seed)), seed + 1000));
    // the reference itself: aba and crba agree on q̈ within the tolerance on every tree (on tree 2
    // they differed by 7.7e-7 against 2.2e-7 while aba formed U D⁻¹ Uᵀ through an explicit inverse)
    {
      const test::RandomState s = test::randomState(tree, seed * 13 + 5);
      const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
      const double err = test::relativeError(solve("aba", tree, s).qdd, solve("crba", tree, s).qdd);
      QVERIFY2(err <= tol, qPrintable(QStringLiteral("aba against crba: err=%1 tol=%2").arg(err).arg(tol)));
    }
    // Before the refinement of q̈ (cfa_common.hpp), one tree in twenty strayed from aba by up to
    // 1e3 × 4 κ(M) ε: A = Tᵀ Φ T is conditioned by the light bodies' inverse inertias, not by
    // κ(M), and q̈ is recovered through them (eq. 28). With each body's bias in its own equation
    // and no refinement, cfa-tree strays on two of these trees (by 52× and 209×), the two with a
    // light body carrying one 10⁴–10⁵ times stiffer, where it refines (cfa_tree.hpp). What is held
    // here is the limit now; the trees over the strict bound are listed in the log.
    const QString strict = compareWithAba(tree, seed);
    if (!strict.isEmpty()) qInfo("over 4 κ(M) ε: %s", qPrintable(strict));
    const QString failures = compareWithAba(tree, seed, kCfaMassRatioFactor);
    QVERIFY2(failures.isEmpty(), qPrintable(failures));
  }

  // The same with a third of the joints along x, y or z, where cfa-tree frames its joints without
  // a rotation (and aba takes S = e_k). cfa-oddeven has no such case, but without its refinement
  // step (odd-even elimination is less backward stable than the κ(M) bound assumes) it exceeded the
  // bound on one of these 240 trees, by 1.3×.
  void coordinateAxesAgreeWithAba_data() {
    QTest::addColumn<quint64>("seed");
    for (int s = 1; s <= kRandomTrees; ++s) QTest::newRow(qPrintable(QStringLiteral("tree%1").arg(s))) << quint64(s);
  }
  void coordinateAxesAgreeWithAba() {
    QFETCH(quint64, seed);
    RandomTreeOptions o = treeOptions(seed);
    o.coordinateAxes = 1.0 / 3.0;
    const Tree tree = finalizeOrThrow(makeRandomTree(seed, o));
    const test::RandomState s = test::randomState(tree, seed * 13 + 5);
    const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
    const Result ref = solve("aba", tree, s);
    const Result crba = solve("crba", tree, s);
    QVERIFY2(test::relativeError(crba.qdd, ref.qdd) <= tol, "aba against crba");
    for (const char* name : kCfaSolvers) {
      const Result r = solve(name, tree, s);
      const double err =
          std::max({test::relativeError(r.qdd, ref.qdd), test::relativeError(flatten(r.loads.f), flatten(ref.loads.f)),
                    test::relativeError(r.loads.lambda, ref.loads.lambda)});
      QVERIFY2(err <= tol,
               qPrintable(QStringLiteral("%1: nb=%2 err=%3 tol=%4").arg(name).arg(tree.nb).arg(err).arg(tol)));
    }
  }

  // The random trees reach the shapes the odd-even form is about: long chains and bushy nodes.
  void randomTreesCoverChainsAndNodes() {
    int longest = 0;
    std::size_t mostChildren = 0;
    for (int s = 1; s <= kRandomTrees; ++s) {
      const Tree tree = finalizeOrThrow(makeRandomTree(s, treeOptions(s)));
      longest = std::max(longest, longestChain(tree));
      for (const std::vector<int>& ch : tree.children) mostChildren = std::max(mostChildren, ch.size());
    }
    QVERIFY2(longest >= 60, qPrintable(QString::number(longest)));
    QVERIFY2(mostChildren >= 5, qPrintable(QString::number(mostChildren)));
  }

  // A fixed joint's reaction is the whole wrench that holds the welded body (and its subtree) in
  // the motion: inverse dynamics (RNEA) at the reference q̈ (ABA), and λ = f (T = 1₆).
  void fixedJointReactionHoldsWeldedBody() {
    int fixedJoints = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      const test::RandomState s = test::randomState(tree, seed + 101);
      const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
      RneaWorkspace ws(tree);
      VectorX tau(tree.nv);
      JointLoads id;
      id.resize(tree);
      inverseDynamics(tree, ws, s.q, s.v, solve("aba", tree, s).qdd, {}, tau, &id);
      const double scale = std::max(flatten(id.f).lpNorm<Eigen::Infinity>(), 1.0);
      for (const char* name : kCfaSolvers) {
        const Result r = solve(name, tree, s);
        for (int i = 0; i < tree.nb; ++i) {
          if (tree.joints[i].type != JointType::Fixed) continue;
          ++fixedJoints;
          const Vec6 lambda = r.loads.lambda.segment<6>(tree.lambdaOffset[i]);
          QVERIFY2((lambda - id.f[i]).lpNorm<Eigen::Infinity>() <= tol * scale,
                   qPrintable(QStringLiteral("%1 seed %2 joint %3: %4 > %5")
                                  .arg(name)
                                  .arg(seed)
                                  .arg(i)
                                  .arg((lambda - id.f[i]).lpNorm<Eigen::Infinity>() / scale)
                                  .arg(tol)));
          QVERIFY((r.loads.f[i] - id.f[i]).lpNorm<Eigen::Infinity>() <= tol * scale);
        }
      }
    }
    QVERIFY(fixedJoints > 20);
  }

  // A body welded to the world at rest: the weld carries its weight, m g upwards, and the moment
  // c × m g about the body origin (world axes).
  void weldedBodyCarriesItsWeight() {
    Model m = makeChain(1, JointType::Fixed);
    m.bodies[0].joint.origin.rpy = Vec3(0.3, -0.4, 1.1);
    m.bodies[0].inertial.mass = 2.5;
    m.bodies[0].inertial.com = Vec3(0.1, -0.2, 0.05);
    const Tree tree = finalizeOrThrow(m);
    const VectorX none = VectorX::Zero(0);
    for (const char* name : kCfaSolvers) {
      VectorX qdd(0);
      JointLoads loads;
      loads.resize(tree);
      makeSolver(name, tree)->forwardDynamics(tree.initialQ, none, none, {}, qdd, &loads);
      const Vec3 weight = -2.5 * m.gravity;                // the force the weld applies, world axes
      const Mat3 R = m.bodies[0].joint.origin.rotation();  // body axes → world axes
      const Vec3 comWorld = R * m.bodies[0].inertial.com;
      QVERIFY((loads.fWorld[0].tail<3>() - weight).norm() <= 1e-12 * weight.norm());
      QVERIFY((loads.fWorld[0].head<3>() - comWorld.cross(weight)).norm() <= 1e-12 * weight.norm());
    }
  }

  // The odd-even form's chains and nodes (header of cfa_odd_even.hpp): a floating base with two
  // 3-joint arms has three segments; the node rows are the arms' first joints (the free joint has
  // no λ); a chain has one segment and no node rows.
  void oddEvenFindsChainsAndNodes() {
    Model m;
    BodySpec base;
    base.name = "base";
    base.joint.type = JointType::Free;
    m.bodies.push_back(base);
    for (const char* arm : {"a", "b"}) {
      std::string parent = "base";
      for (int k = 0; k < 3; ++k) {
        BodySpec link;
        link.name = std::string(arm) + std::to_string(k);
        link.parent = parent;
        link.joint.type = JointType::Revolute;
        link.joint.origin.xyz = Vec3(0.2, 0.0, 0.0);
        m.bodies.push_back(link);
        parent = link.name;
      }
    }
    const Tree robot = finalizeOrThrow(m);
    const CfaOddEvenSolver robotSolver(robot);
    QCOMPARE(robotSolver.segmentCount(), 3);
    QCOMPARE(robotSolver.nodeRowCount(), 2);
    const Tree chain = finalizeOrThrow(makeChain(17));
    const CfaOddEvenSolver chainSolver(chain);
    QCOMPARE(chainSolver.segmentCount(), 1);
    QCOMPARE(chainSolver.nodeRowCount(), 0);
  }

  // Liu et al.'s validation (§4, Figs. 8–12): the two-arm space robot over 10 s at h = 0.002 s with
  // RK4, cfa-tree and cfa-oddeven against the recursive algorithm (aba). Largest difference over
  // the run of the base attitude angles and the joint angles, relative: |a − b| / max(|b|, 1 rad).
  void spaceRobotRunMatchesAba() {
    const Model model = loadModelFromFile(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    SimulatorOptions options;
    options.integrator = "rk4";
    options.step = 0.002;
    options.record = false;
    auto run = [&](const std::string& solver) {
      options.solver = solver;
      Simulator sim(model, options);
      const SignalLayout& layout = sim.signalLayout();
      std::vector<int> columns;  // base attitude and every revolute joint angle
      for (int k = 0; k < layout.size(); ++k) {
        const SignalInfo& info = layout.infos()[k];
        if (info.kind == SignalKind::Attitude ||
            (info.kind == SignalKind::Q && sim.tree().joints[info.body].type == JointType::Revolute))
          columns.push_back(k);
      }
      std::vector<std::vector<double>> samples;
      auto record = [&] {
        std::vector<double> row;
        for (int c : columns) row.push_back(sim.sample()[c]);
        samples.push_back(row);
      };
      record();
      while (sim.time() < 10.0 - 1e-9) {
        if (!sim.step()) break;
        record();
      }
      return samples;
    };
    const std::vector<std::vector<double>> ref = run("aba");
    QCOMPARE(ref.size(), std::size_t(5001));
    QCOMPARE(ref.front().size(), std::size_t(3 + 12));
    // the base does turn (Liu et al. Fig. 8): the comparison is not between constants
    double turned = 0.0;
    for (int c = 0; c < 3; ++c) turned = std::max(turned, std::abs(ref.back()[c] - ref.front()[c]));
    QVERIFY2(turned > 1e-3, qPrintable(QString::number(turned)));
    for (const char* solver : {"cfa-tree", "cfa-oddeven"}) {
      const std::vector<std::vector<double>> got = run(solver);
      QCOMPARE(got.size(), ref.size());
      double worst = 0.0;
      for (std::size_t s = 0; s < ref.size(); ++s)
        for (std::size_t c = 0; c < ref[s].size(); ++c)
          worst = std::max(worst, std::abs(got[s][c] - ref[s][c]) / std::max(std::abs(ref[s][c]), 1.0));
      qInfo("%s vs aba, space robot 10 s: max relative difference %.3e", solver, worst);
      QVERIFY2(worst <= 1e-10, qPrintable(QStringLiteral("%1: %2").arg(solver).arg(worst)));
    }
  }

  // compare: 0 when the solvers agree (on a generated model and on every example), 1 when one
  // is deliberately perturbed through the test-only hook, 2 on a usage error.
  void compareExitCodes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Model m = makeRandomTree(7, treeOptions(7));
    m.simulation.duration = 0.2;
    m.simulation.step = 0.002;
    const std::string path = dir.filePath(QStringLiteral("tree.yaml")).toStdString();
    {
      std::ofstream out(path);
      out << saveModelToString(m);
    }
    const QStringList solvers = {QStringLiteral("--solvers"), QStringLiteral("aba,cfa-dense,cfa-oddeven,cfa-tree")};
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("KINETREE_TEST_PERTURB_SOLVER"));
    QByteArray out;
    QCOMPARE(runCli(QStringList{QStringLiteral("compare"), QString::fromStdString(path)} + solvers, env, &out), 0);
    QVERIFY2(out.contains("cfa-oddeven"), out.constData());

    // the hook exists only in the test build kinetree-cli-test
    const QString testCli = QStringLiteral(KINETREE_CLI_TEST);
    QProcessEnvironment perturbed = env;
    perturbed.insert(QStringLiteral("KINETREE_TEST_PERTURB_SOLVER"), QStringLiteral("cfa-tree:1e-6"));
    QCOMPARE(runCli(QStringList{QStringLiteral("compare"), QString::fromStdString(path)} + solvers, perturbed, &out,
                    testCli),
             1);
    QVERIFY2(out.contains("EXCEEDS TOLERANCE"), out.constData());
    // the shipped kinetree-cli ignores the variable: the same comparison passes
    QCOMPARE(runCli(QStringList{QStringLiteral("compare"), QString::fromStdString(path)} + solvers, perturbed, &out),
             0);
    QVERIFY2(!out.contains("EXCEEDS TOLERANCE"), out.constData());
    // a perturbation below the tolerance is not reported
    perturbed.insert(QStringLiteral("KINETREE_TEST_PERTURB_SOLVER"), QStringLiteral("cfa-tree:1e-14"));
    QCOMPARE(runCli(QStringList{QStringLiteral("compare"), QString::fromStdString(path)} + solvers, perturbed, nullptr,
                    testCli),
             0);

    QCOMPARE(runCli({QStringLiteral("compare")}, env), 2);
    QCOMPARE(runCli({QStringLiteral("compare"), QString::fromStdString(path), QStringLiteral("--solvers"),
                     QStringLiteral("aba,nonsense")},
                    env),
             2);

    const QDir examples(QStringLiteral(KINETREE_SOURCE_DIR "/examples"));
    for (const QString& file : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files)) {
      const QStringList args = {QStringLiteral("compare"),    examples.filePath(file),
                                QStringLiteral("--duration"), QStringLiteral("0.5"),
                                QStringLiteral("--solvers"),  QStringLiteral("aba,cfa-oddeven,cfa-tree")};
      QCOMPARE(runCli(args, env, &out), 0);
    }
  }

  // Pointwise comparison (core/analysis/solver_comparison.hpp) on random trees at random states:
  // every solver agrees with aba in q̈ and loads, the impulse solvers' p with M ν, their ν
  // with the state's, and ṗ with d/dt (M ν) within the finite differences' estimate; a solver
  // is measured against itself as zero.
  void pointwiseComparisonOnRandomTrees() {
    std::vector<std::string> all;
    for (const SolverInfo& info : solverRegistry()) all.push_back(info.name);
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      std::vector<ComparisonState> states;
      for (std::uint64_t k = 0; k < 4; ++k) {
        const test::RandomState s = test::randomState(tree, seed * 31 + k);
        states.push_back({0.1 * static_cast<double>(k), s.q, s.v, s.tau});
      }
      const std::vector<SolverDifference> rows = compareAtStates(tree, all, states);
      QCOMPARE(rows.size(), all.size());
      QCOMPARE(rows.front().worst(), 0.0);
      const double tol = 1e3 * test::conditionedTolerance(test::massMatrixCondition(tree, states.front().q));
      for (const SolverDifference& d : rows) {
        QVERIFY2(d.worst() <= std::max(tol, 1e-10),
                 qPrintable(QStringLiteral("seed %1 %2: %3").arg(seed).arg(d.solver.c_str()).arg(d.worst())));
        QCOMPARE(d.p.measured, d.impulse);
        if (d.impulse) {
          QVERIFY(d.p.scale > 0.0 && d.pdot.scale > 0.0);
          QVERIFY2(d.pdot.referenceError < 1e-6 * d.pdot.scale, qPrintable(QString::number(d.pdot.referenceError)));
        }
      }
    }
  }

  // The free-body diagram of every body balances (its wrenches add up to the rate of change of
  // its momentum) with the loads and q̈ of every solver, on random trees at random states.
  void freeBodyDiagramsBalance() {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      const test::RandomState s = test::randomState(tree, seed * 7 + 3);
      // the solvers' own agreement bound (the CFA family's factor on random trees, see above)
      const double tol = std::max(1e-10, 2e3 * test::conditionedTolerance(test::massMatrixCondition(tree, s.q)));
      for (const SolverInfo& info : solverRegistry()) {
        std::unique_ptr<Solver> solver = makeSolver(info.name, tree);
        VectorX qdd(tree.nv), p(tree.nv), v(tree.nv), pdot(tree.nv);
        JointLoads loads;
        loads.resize(tree);
        if (solver->stateForm() == StateForm::Impulse) {
          solver->impulseFromVelocity(s.q, s.v, p);
          solver->impulseDynamics(s.q, p, s.tau, {}, v, pdot, &qdd, &loads);
        } else {
          solver->forwardDynamics(s.q, s.v, s.tau, {}, qdd, &loads);
        }
        for (int b = 0; b < tree.nb; ++b) {
          const FreeBodyDiagram d = freeBodyDiagram(tree, s.q, s.v, qdd, loads.f, b);
          QCOMPARE(static_cast<int>(d.terms.size()),
                   2 + static_cast<int>(tree.children[static_cast<std::size_t>(b)].size()) +
                       (tree.appliedWrench[static_cast<std::size_t>(b)].isZero(0.0) ? 0 : 1));
          const double rel = d.residual.cwiseAbs().maxCoeff() / d.scale();
          QVERIFY2(rel <= tol, qPrintable(QStringLiteral("seed %1 %2 body %3: %4 > %5")
                                              .arg(seed)
                                              .arg(info.name.c_str())
                                              .arg(b)
                                              .arg(rel)
                                              .arg(tol)));
        }
        // a wrong load does not balance
        if (tree.nb > 0) {
          std::vector<Vec6> wrong = loads.f;
          wrong[0][5] += 1e-6 * (1.0 + wrong[0].cwiseAbs().maxCoeff());
          const FreeBodyDiagram d = freeBodyDiagram(tree, s.q, s.v, qdd, wrong, 0);
          QVERIFY(d.residual.cwiseAbs().maxCoeff() > 1e-7 * d.scale());
        }
      }
    }
  }

  // The articulated-body inertia of a free root is the inertia the whole tree shows to a wrench
  // on it, the rest free to move: with ν = 0, τ = 0 and no gravity, aba's root acceleration a
  // under a wrench f gives I^A a = f. A leaf's is its rigid inertia.
  void articulatedInertiaIsWhatTheRootFeels() {
    int tested = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      RandomTreeOptions o = treeOptions(seed);
      o.floatingBaseProbability = 1.0;
      o.gravity = false;
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, o));
      if (tree.joints[0].type != JointType::Free) continue;
      ++tested;
      const test::RandomState s = test::randomState(tree, seed + 77);
      const std::vector<Mat6> IA = articulatedInertias(tree, s.q);
      std::vector<Vec6> fext(static_cast<std::size_t>(tree.nb), Vec6::Zero());
      fext[0] << 0.3, -1.2, 0.7, 2.0, 0.5, -1.5;
      const VectorX zero = VectorX::Zero(tree.nv);
      VectorX qdd(tree.nv);
      makeSolver("aba", tree)->forwardDynamics(s.q, zero, zero, fext, qdd, nullptr);
      const Vec6 a = qdd.head<6>();  // the free joint's ν̇: the root's acceleration, body coordinates
      const Vec6 f = IA[0] * a - tree.appliedWrench[0];
      QVERIFY2((f - fext[0]).cwiseAbs().maxCoeff() <= 1e-9 * (1.0 + IA[0].cwiseAbs().maxCoeff()),
               qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg((f - fext[0]).cwiseAbs().maxCoeff())));
      for (int i = 0; i < tree.nb; ++i)
        if (tree.children[static_cast<std::size_t>(i)].empty())
          QCOMPARE(IA[static_cast<std::size_t>(i)], tree.I[static_cast<std::size_t>(i)].matrix());
    }
    QVERIFY2(tested >= 15, qPrintable(QString::number(tested)));
  }

  // A as the teaching view shows it: symmetric, its blocks where the tree couples joints (a
  // joint with its parent and its siblings), and A λ = the right-hand side gives the loads.
  void constraintMatrixPattern() {
    const Tree tree = finalizeOrThrow(makeChain(6));
    const test::RandomState s = test::randomState(tree, 11);
    CfaDenseSolver cfa(tree);
    VectorX qdd(tree.nv);
    cfa.forwardDynamics(s.q, s.v, s.tau, {}, qdd, nullptr);
    const MatrixX A = cfa.constraintMatrix();
    QCOMPARE(A.rows(), static_cast<Eigen::Index>(tree.nlambda));
    QVERIFY((A - A.transpose()).cwiseAbs().maxCoeff() == 0.0);
    // a chain: block-tridiagonal
    for (int i = 0; i < tree.nb; ++i)
      for (int j = 0; j < tree.nb; ++j) {
        const auto block = A.block(tree.lambdaOffset[static_cast<std::size_t>(i)],
                                   tree.lambdaOffset[static_cast<std::size_t>(j)], 5, 5);
        QCOMPARE(block.isZero(0.0), std::abs(i - j) > 1);
      }
  }

  // Fill (core/dynamics/cfa/elimination_fill.hpp): on random trees, eliminating leaves first fills
  // neither M nor A; root first fills exactly the blocks the numeric factor then has beyond the
  // matrix's (the symbolic count checked by a Cholesky factor); cfa-oddeven's rounds on a chain
  // add the couplings 2, 4, 8 … rows apart.
  void fillOfTheOrderings() {
    int rootFirstFilled = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      const test::RandomState s = test::randomState(tree, seed + 5);
      RneaWorkspace ws(tree);
      MatrixX M;
      massMatrix(tree, ws, s.q, M);
      CfaDenseSolver cfa(tree);
      VectorX qdd(tree.nv);
      cfa.forwardDynamics(s.q, s.v, s.tau, {}, qdd, nullptr);
      for (const bool constraint : {false, true}) {
        const MatrixX A = constraint ? MatrixX(cfa.constraintMatrix()) : M;
        if (A.rows() == 0) continue;
        const BlockGraph g = blockGraph(tree, A, constraint);
        QCOMPARE(eliminationFill(g, leavesFirstOrder(g)), 0L);
        // root first: the entries of the numeric factor's blocks that are zero blocks of A
        const MatrixX L = Eigen::LLT<MatrixX>(A).matrixL();
        long beyond = 0;
        for (int a = 0; a < g.blocks(); ++a)
          for (int b = 0; b < a; ++b) {
            const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
            if (!g.coupled(a, b) && !L.block(g.start[ua], g.start[ub], g.size[ua], g.size[ub]).isZero(0.0))
              beyond += static_cast<long>(g.size[ua]) * g.size[ub];
          }
        QCOMPARE(beyond, eliminationFill(g, rootFirstOrder(g)));
        const long fill = beyond;
        rootFirstFilled += fill > 0 ? 1 : 0;
      }
    }
    QVERIFY(rootFirstFilled > 10);
    for (const int length : {2, 3, 8, 10, 33}) {
      const Tree tree = finalizeOrThrow(makeChain(length));
      const test::RandomState s = test::randomState(tree, 3);
      CfaDenseSolver cfa(tree);
      VectorX qdd(tree.nv);
      cfa.forwardDynamics(s.q, s.v, s.tau, {}, qdd, nullptr);
      const BlockGraph g = blockGraph(tree, cfa.constraintMatrix(), true);
      long expected = 0;  // pairs 2s apart, for s = 1, 2, 4 … while 2s < length; 5 × 5 entries each
      for (int d = 2; d < length; d *= 2) expected += 25L * (length - d);
      const OddEvenFill fill = oddEvenFill(tree, g);
      QCOMPARE(fill.rounds, expected);
      QCOMPARE(fill.nodeSystem, 0L);
      QCOMPARE(eliminationFill(g, leavesFirstOrder(g)), 0L);
    }
    // the figure docs/teaching.md quotes: the cardan chain, 20 joints of 4 reaction coordinates,
    // 16 × (18 + 16 + 12 + 4) entries
    Simulator cardan(loadModelFromFile(KINETREE_SOURCE_DIR "/examples/cardan_chain.yaml"), SimulatorOptions{});
    CfaDenseSolver cfa(cardan.tree());
    VectorX qdd(cardan.tree().nv);
    cfa.forwardDynamics(cardan.q(), cardan.v(), cardan.tau(), {}, qdd, nullptr);
    QCOMPARE(oddEvenFill(cardan.tree(), blockGraph(cardan.tree(), cfa.constraintMatrix(), true)).rounds, 800L);
  }

  // Ivanov's block factor, tips to base: M = U Uᵀ, no block where M has none, and the diagonal
  // block of joint i the Cholesky factor of S_iᵀ I^A_i S_i (the articulated inertia it moves).
  void tipsToBaseFactorIsIvanovs() {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      const Tree tree = finalizeOrThrow(makeRandomTree(seed, treeOptions(seed)));
      if (tree.nv == 0) continue;
      const test::RandomState s = test::randomState(tree, seed + 9);
      RneaWorkspace ws(tree);
      MatrixX M;
      massMatrix(tree, ws, s.q, M);
      const BlockGraph g = blockGraph(tree, M, false);
      const MatrixX U = tipsToBaseFactor(g, M);
      QVERIFY((U * U.transpose() - M).cwiseAbs().maxCoeff() <= 1e-11 * M.cwiseAbs().maxCoeff());
      for (int a = 0; a < g.blocks(); ++a)
        for (int b = 0; b < g.blocks(); ++b) {
          const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
          if (a != b && !g.coupled(a, b))
            QVERIFY(U.block(g.start[ua], g.start[ub], g.size[ua], g.size[ub]).isZero(0.0));
        }
      const std::vector<Mat6> IA = articulatedInertias(tree, s.q);
      for (int b = 0; b < g.blocks(); ++b) {
        const auto i = static_cast<std::size_t>(g.joint[static_cast<std::size_t>(b)]);
        Mat6N S;
        tree.joints[i].motionSubspace(s.q.data() + tree.qOffset[i], S);
        const MatrixX D = S.transpose() * IA[i] * S;
        const MatrixX Li = Eigen::LLT<MatrixX>(D).matrixL();
        const int n = g.size[static_cast<std::size_t>(b)], at = g.start[static_cast<std::size_t>(b)];
        const double err = (U.block(at, at, n, n) - Li).cwiseAbs().maxCoeff();
        QVERIFY2(err <= 1e-9 * (1.0 + Li.cwiseAbs().maxCoeff()),
                 qPrintable(QStringLiteral("seed %1, joint %2: %3").arg(seed).arg(i).arg(err)));
      }
    }
  }

  // compare: pointwise by default, every solver on every example within 1e-10 (exit 0); the
  // trajectory mode measures each run against the integrator's own difference.
  void compareModes() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QByteArray out;
    const QDir examples(QStringLiteral(KINETREE_SOURCE_DIR "/examples"));
    for (const QString& file : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files)) {
      QCOMPARE(runCli({QStringLiteral("compare"), examples.filePath(file)}, env, &out), 0);
      QVERIFY2(out.contains(": pointwise, at the ") && !out.contains("EXCEEDS"), out.constData());
      for (const SolverInfo& info : solverRegistry()) QVERIFY(out.contains(("\n" + info.name + " ").c_str()));
    }
    QCOMPARE(runCli({QStringLiteral("compare"), examples.filePath(QStringLiteral("space_robot.yaml")),
                     QStringLiteral("--trajectory"), QStringLiteral("--duration"), QStringLiteral("1")},
                    env, &out),
             0);
    QVERIFY2(out.contains("integrator (h/2)") && out.contains("poisson-ldl"), out.constData());
  }
};

QTEST_APPLESS_MAIN(TestCfa)
#include "test_cfa.moc"
