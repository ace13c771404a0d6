// SPDX-License-Identifier: BSD-3-Clause
// The algorithm stepper's record (core/dynamics/stepper/algorithm_trace.hpp): its numbers are the
// solvers' own — q̈, τ, ν, ṗ and every joint load equal to the bit — its passes visit the bodies in the
// algorithms' orders, what a body hands to its parent is what the parent goes on with, and the
// CFA's elimination shows the fill of each order (none leaves first).
#include <QTest>

#include <cstring>

#include "core/dynamics/aba.hpp"
#include "core/dynamics/cfa/cfa_dense.hpp"
#include "core/dynamics/cfa/cfa_odd_even.hpp"
#include "core/dynamics/cfa/cfa_tree.hpp"
#include "core/dynamics/cfa/elimination_fill.hpp"
#include "core/dynamics/crba.hpp"
#include "core/dynamics/kernels/articulated_inertia.hpp"
#include "core/dynamics/poisson/poisson_solver.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/dynamics/stepper/algorithm_trace.hpp"
#include "core/io/model_yaml.hpp"
#include "core/sim/simulator.hpp"
#include "tests/support/random_state.hpp"

using namespace kt;

namespace {

bool sameBits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

bool sameLoads(const JointLoads& a, const JointLoads& b) {
  if (a.f.size() != b.f.size()) return false;
  for (std::size_t i = 0; i < a.f.size(); ++i)
    if (!sameBits(a.f[i], b.f[i]) || !sameBits(a.fWorld[i], b.fWorld[i])) return false;
  return sameBits(a.tau, b.tau) && sameBits(a.lambda, b.lambda);
}

struct Case {
  Tree tree;
  VectorX q, v, tau, qdd;
};

// The space robot at a state along its run (the arms moving), and a random tree at a random state.
Case spaceRobot() {
  Simulator sim(loadModelFromFile(KINETREE_SOURCE_DIR "/examples/space_robot.yaml"), SimulatorOptions{});
  for (int k = 0; k < 200; ++k) sim.step();
  Case c{sim.tree(), sim.q(), sim.v(), sim.tau(), VectorX::Zero(sim.tree().nv)};
  return c;
}

Case randomTree(std::uint64_t seed) {
  const Model model = makeRandomTree(seed, test::solverTreeOptions(seed, 24, 4));
  Case c;
  c.tree = finalizeOrThrow(model);
  const test::RandomState s = test::randomState(c.tree, seed);
  c.q = s.q;
  c.v = s.v;
  c.tau = s.tau;
  c.qdd = VectorX::Random(c.tree.nv);
  return c;
}

const TracedValue* find(const TracedStep& s, const std::string& symbol) {
  for (const TracedValue& v : s.values)
    if (v.symbol == symbol) return &v;
  return nullptr;
}

}  // namespace

class TestAlgorithmTrace : public QObject {
  Q_OBJECT

 private slots:
  void valuesAreTheSolvers_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("space robot") << 0;
    for (int seed = 1; seed <= 6; ++seed) QTest::newRow(qPrintable(QStringLiteral("random tree %1").arg(seed))) << seed;
  }
  void valuesAreTheSolvers() {
    QFETCH(int, which);
    const Case c = which == 0 ? spaceRobot() : randomTree(static_cast<std::uint64_t>(which));
    const Tree& t = c.tree;
    JointLoads loads;
    loads.resize(t);
    VectorX qdd(t.nv);

    AbaSolver aba(t);
    aba.forwardDynamics(c.q, c.v, c.tau, {}, qdd, &loads);
    const AlgorithmTrace a = traceAlgorithm(TracedAlgorithm::Aba, t, c.q, c.v, c.tau, c.qdd);
    QVERIFY(sameBits(a.qdd, qdd));
    QVERIFY(sameLoads(a.loads, loads));
    // the last pass 3 step of each body shows the solver's q̈_i
    for (const TracedStep& s : a.steps)
      if (s.pass == 2 && t.joints[s.body].nv > 0)
        QVERIFY(sameBits(find(s, "q̈_i")->value, qdd.segment(t.vOffset[s.body], t.joints[s.body].nv)));

    CrbaSolver crba(t);
    crba.forwardDynamics(c.q, c.v, c.tau, {}, qdd, &loads);
    const AlgorithmTrace m = traceAlgorithm(TracedAlgorithm::CrbaCholesky, t, c.q, c.v, c.tau, c.qdd);
    QVERIFY(sameBits(m.qdd, qdd));
    QVERIFY(sameLoads(m.loads, loads));

    CfaTreeSolver cfa(t);
    cfa.forwardDynamics(c.q, c.v, c.tau, {}, qdd, &loads);
    const AlgorithmTrace f = traceAlgorithm(TracedAlgorithm::Cfa, t, c.q, c.v, c.tau, c.qdd);
    QVERIFY(sameBits(f.qdd, qdd));
    QVERIFY(sameLoads(f.loads, loads));
    for (const TracedStep& s : f.steps)
      if (s.pass == 2 && t.joints[s.body].nv < 6)
        QVERIFY(sameBits(find(s, "λ_i")->value, loads.lambda.segment(t.lambdaOffset[s.body], 6 - t.joints[s.body].nv)));

    // the Poisson sweep: poisson-sweep's own ν, ṗ, q̈ and loads at the impulses of the state
    const std::unique_ptr<Solver> sweep = makePoissonSweepSolver(t);
    VectorX p(t.nv), nu(t.nv), pdot(t.nv);
    sweep->impulseFromVelocity(c.q, c.v, p);
    sweep->impulseDynamics(c.q, p, c.tau, {}, nu, pdot, &qdd, &loads);
    const AlgorithmTrace s = traceAlgorithm(TracedAlgorithm::PoissonSweep, t, c.q, c.v, c.tau, c.qdd);
    QVERIFY(sameBits(s.impulses, p));
    QVERIFY(sameBits(s.velocities, nu));
    QVERIFY(sameBits(s.impulseRates, pdot));
    QVERIFY(sameBits(s.qdd, qdd));
    QVERIFY(sameLoads(s.loads, loads));
    QVERIFY(test::relativeError(s.velocities, c.v) < 1e-9);  // ν = M⁻¹ (M ν)
    for (const TracedStep& step : s.steps)
      if (step.pass == 1 && t.joints[step.body].nv > 0)
        QVERIFY(sameBits(find(step, "ν_i")->value, nu.segment(t.vOffset[step.body], t.joints[step.body].nv)));

    RneaWorkspace ws(t);
    VectorX tau(t.nv);
    inverseDynamics(t, ws, c.q, c.v, c.qdd, {}, tau, &loads);
    const AlgorithmTrace r = traceAlgorithm(TracedAlgorithm::Rnea, t, c.q, c.v, c.tau, c.qdd);
    QVERIFY(sameBits(r.tau, tau));
    QVERIFY(sameLoads(r.loads, loads));
    // the independent path: RNEA at ABA's q̈ gives back τ (M q̈ + h = τ)
    const AlgorithmTrace back = traceAlgorithm(TracedAlgorithm::Rnea, t, c.q, c.v, c.tau, a.qdd);
    QVERIFY2(test::relativeError(back.tau, c.tau) < 1e-9,
             qPrintable(QString::number(test::relativeError(back.tau, c.tau))));
  }

  // Every spatial value says what it measures, so that it is shown in its units: the 3D view's
  // legend read "|v| 9.81 m/s" for an acceleration and "N m" for a momentum.
  void spatialValuesCarryTheirUnits() {
    const Case c = spaceRobot();
    using Q = TracedValue::Quantity;
    const auto expected = [](const TracedValue& v) {
      if (v.symbol == "v_i") return Q::Velocity;
      if (v.symbol == "c_i" || v.symbol == "a_i" || v.symbol == "a'_i") return Q::Acceleration;
      if (v.symbol == "μ_i" || v.symbol == "φ*_i") return Q::Momentum;
      return Q::Wrench;
    };
    int seen[4] = {0, 0, 0, 0};
    for (const TracedAlgorithm algorithm : {TracedAlgorithm::Aba, TracedAlgorithm::Rnea, TracedAlgorithm::CrbaCholesky,
                                            TracedAlgorithm::Cfa, TracedAlgorithm::PoissonSweep}) {
      const AlgorithmTrace trace = traceAlgorithm(algorithm, c.tree, c.q, c.v, c.tau, c.qdd);
      for (const TracedStep& s : trace.steps)
        for (const TracedValue& v : s.values) {
          if (v.kind != TracedValue::Kind::Motion && v.kind != TracedValue::Kind::Force) continue;
          QVERIFY2(v.quantity == expected(v), v.symbol.c_str());
          QCOMPARE(v.kind == TracedValue::Kind::Motion, v.quantity == Q::Velocity || v.quantity == Q::Acceleration);
          ++seen[static_cast<int>(v.quantity)];
        }
    }
    for (const int n : seen) QVERIFY(n > 0);  // each kind is met
    QCOMPARE(std::string(spatialUnits(Q::Acceleration).angular), std::string("rad/s²"));
    QCOMPARE(std::string(spatialUnits(Q::Acceleration).linear), std::string("m/s²"));
    QCOMPARE(std::string(spatialUnits(Q::Momentum).angular), std::string("N·m·s"));
    QCOMPARE(std::string(spatialUnits(Q::Momentum).linear), std::string("N·s"));
  }

  // The passes visit the bodies in the algorithms' orders, and each pass-2 step of ABA hands the
  // parent exactly what it starts from: the sums after the parent's last child equal I^A_p, p^A_p
  // as pass 2 reaches the parent.
  void abaHandsEachParentWhatItStartsFrom() {
    const Case c = spaceRobot();
    const Tree& t = c.tree;
    const AlgorithmTrace a = traceAlgorithm(TracedAlgorithm::Aba, t, c.q, c.v, c.tau, c.qdd);
    QCOMPARE(a.passes.size(), std::size_t{4});
    QCOMPARE(a.steps.size(), static_cast<std::size_t>(4 * t.nb));
    for (int pass = 0; pass < 4; ++pass) {
      const int first = a.passStart(pass);
      for (int k = 0; k < t.nb; ++k) {
        const TracedStep& s = a.steps[static_cast<std::size_t>(first + k)];
        QCOMPARE(s.pass, pass);
        QCOMPARE(s.body, pass % 2 == 0 ? k : t.nb - 1 - k);  // base to tip, tip to base
      }
    }
    std::vector<const TracedStep*> reached(static_cast<std::size_t>(t.nb)), lastHanding(static_cast<std::size_t>(t.nb));
    for (const TracedStep& s : a.steps) {
      if (s.pass != 1) continue;
      reached[static_cast<std::size_t>(s.body)] = &s;
      if (t.parent[s.body] >= 0) lastHanding[static_cast<std::size_t>(t.parent[s.body])] = &s;  // lowest child last
    }
    int checked = 0;
    for (int p = 0; p < t.nb; ++p) {
      const TracedStep* child = lastHanding[static_cast<std::size_t>(p)];
      if (!child) continue;
      QVERIFY(sameBits(find(*child, "I^A_p")->value, find(*reached[static_cast<std::size_t>(p)], "I^A_i")->value));
      QVERIFY(sameBits(find(*child, "p^A_p")->value, find(*reached[static_cast<std::size_t>(p)], "p^A_i")->value));
      QCOMPARE(child->targets, std::vector<int>{p});
      ++checked;
    }
    QVERIFY(checked >= 3);  // the base and the two arms' links
    // the base's articulated inertia as the stepper shows it is the one the teaching views compute
    const Eigen::MatrixXd& IA0 = find(*reached[0], "I^A_i")->value;
    QVERIFY(IA0.isApprox(Eigen::MatrixXd(articulatedInertias(t, c.q)[0]), 1e-12));
    // pass 3's equation with the numbers filled in gives q̈_i
    for (const TracedStep& s : a.steps)
      if (s.pass == 2 && t.joints[s.body].nv == 1) QVERIFY(s.filled.find("q̈_i = D_i⁻¹") == 0);
  }

  // Leaves first fills nothing; root first fills what eliminationFill counts (125 entries on the
  // space robot, docs/teaching.md §2); the fill never decreases step by step and the last
  // elimination step's matrix is the factor's (the last pivot alone is left).
  void cfaEliminationShowsTheFill() {
    const Case c = spaceRobot();
    const Tree& t = c.tree;
    CfaDenseSolver dense(t);
    VectorX scratch(t.nv);
    dense.forwardDynamics(c.q, c.v, c.tau, {}, scratch, nullptr);
    const BlockGraph g = blockGraph(t, dense.constraintMatrix(), true);
    for (const EliminationOrder order : {EliminationOrder::LeavesFirst, EliminationOrder::RootFirst}) {
      const AlgorithmTrace f = traceAlgorithm(TracedAlgorithm::Cfa, t, c.q, c.v, c.tau, c.qdd, {}, order);
      long fill = 0;
      int steps = 0;
      for (const TracedStep& s : f.steps) {
        if (s.pass != 1) continue;
        QVERIFY(s.fill >= fill);
        fill = s.fill;
        ++steps;
        QCOMPARE(s.pattern.rows(), static_cast<Eigen::Index>(t.nlambda));
        QVERIFY((s.pattern.array() == kPatternPivot).any());
      }
      QCOMPARE(steps, g.blocks());
      const long expected =
          eliminationFill(g, order == EliminationOrder::LeavesFirst ? leavesFirstOrder(g) : rootFirstOrder(g));
      QCOMPARE(fill, expected);
      if (order == EliminationOrder::LeavesFirst) QCOMPARE(fill, 0L);
      if (order == EliminationOrder::RootFirst) QCOMPARE(fill, 125L);
      // the fill entries drawn are the fill counted (both triangles)
      const TracedStep& last = f.steps[static_cast<std::size_t>(f.passStart(2) - 1)];
      QCOMPARE(static_cast<long>((last.pattern.array() == kPatternFill).count()), 2 * fill);
    }
  }

  // cfa-oddeven's rounds, row by row: q̈ and the loads are cfa-oddeven's; on the cardan chain the
  // fill ends at oddEvenFill's 800 entries (docs/teaching.md), on the space robot at its count.
  void oddEvenRoundsShowTheirFill_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("cardan chain") << QStringLiteral(KINETREE_SOURCE_DIR "/examples/cardan_chain.yaml");
    QTest::newRow("space robot") << QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
  }
  void oddEvenRoundsShowTheirFill() {
    QFETCH(QString, model);
    Simulator sim(loadModelFromFile(model.toStdString()), SimulatorOptions{});
    for (int k = 0; k < 50; ++k) sim.step();
    const Tree& t = sim.tree();
    const AlgorithmTrace f =
        traceAlgorithm(TracedAlgorithm::Cfa, t, sim.q(), sim.v(), sim.tau(), sim.qdd(), {}, EliminationOrder::OddEven);
    CfaOddEvenSolver solver(t);
    VectorX qdd(t.nv);
    JointLoads loads;
    loads.resize(t);
    solver.forwardDynamics(sim.q(), sim.v(), sim.tau(), {}, qdd, &loads);
    QVERIFY(sameBits(f.qdd, qdd));
    QVERIFY(sameLoads(f.loads, loads));
    CfaDenseSolver dense(t);
    VectorX scratch(t.nv);
    dense.forwardDynamics(sim.q(), sim.v(), sim.tau(), {}, scratch, nullptr);
    const BlockGraph g = blockGraph(t, dense.constraintMatrix(), true);
    const long expected = oddEvenFill(t, g).rounds;
    long fill = 0;
    for (const TracedStep& s : f.steps)
      if (s.pass == 1) {
        QVERIFY(s.fill >= fill);
        fill = s.fill;
        QVERIFY(s.takesFromTargets);
      }
    QCOMPARE(fill, expected);
    if (t.nb == 20) QCOMPARE(fill, 800L);  // the cardan chain
    QVERIFY(fill > 0);
  }

  // The mass matrix's steps end with M, the Cholesky's with L: the factor from the base out fills
  // the couplings of the two arms on the space robot.
  void crbaStepsBuildMAndItsFactor() {
    const Case c = spaceRobot();
    const Tree& t = c.tree;
    RneaWorkspace ws(t);
    Eigen::MatrixXd M;
    massMatrix(t, ws, c.q, M);
    const AlgorithmTrace m = traceAlgorithm(TracedAlgorithm::CrbaCholesky, t, c.q, c.v, c.tau, c.qdd);
    const TracedStep& lastM = m.steps[static_cast<std::size_t>(m.passStart(3) - 1)];
    QVERIFY(sameBits(lastM.matrix, M));
    const TracedStep& lastL = m.steps[static_cast<std::size_t>(m.passStart(4) - 1)];
    const Eigen::MatrixXd L = M.llt().matrixL();
    QVERIFY(lastL.matrix.isApprox(L, 1e-14));
    QVERIFY(lastL.fill > 0);
    QCOMPARE(static_cast<long>((lastL.pattern.array() == kPatternFill).count()), lastL.fill);
  }
};

QTEST_APPLESS_MAIN(TestAlgorithmTrace)
#include "test_algorithm_trace.moc"
