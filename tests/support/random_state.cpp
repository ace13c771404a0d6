// SPDX-License-Identifier: BSD-3-Clause
#include "random_state.hpp"

#include <Eigen/Eigenvalues>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/dynamics/rnea.hpp"

namespace kt::test {

RandomTreeOptions solverTreeOptions(std::uint64_t seed, int maxBodies, int childSpread) {
  RandomTreeOptions o;
  o.minBodies = 1;
  o.maxBodies = maxBodies;
  o.maxChildren = 1 + static_cast<int>(seed % static_cast<std::uint64_t>(childSpread));
  o.floatingBaseProbability = 0.5;
  o.chainBias = (seed % 3 == 0) ? 0.9 : 0.5;
  o.coordinateAxes = 1.0 / 3.0;
  o.gimbals = 0.1;
  o.offsetAxes = 0.5;
  return o;
}

void addSeedRows(int count) {
  QTest::addColumn<quint64>("seed");
  for (int s = 1; s <= count; ++s) QTest::newRow(qPrintable(QStringLiteral("tree%1").arg(s))) << quint64(s);
}

RandomState randomState(const Tree& tree, std::uint64_t seed) {
  SplitMix64 rng(seed);
  RandomState s{VectorX(tree.nq), VectorX(tree.nv), VectorX(tree.nv)};
  for (int k = 0; k < tree.nq; ++k) s.q[k] = rng.uniform(-1.0, 1.0);
  for (int i = 0; i < tree.nb; ++i) tree.joints[i].normalize(s.q.data() + tree.qOffset[i]);
  for (int k = 0; k < tree.nv; ++k) s.v[k] = rng.uniform(-1.0, 1.0);
  for (int k = 0; k < tree.nv; ++k) s.tau[k] = rng.uniform(-1.0, 1.0);
  return s;
}

Model withSpreadMasses(Model model, std::uint64_t seed, double ratio) {
  SplitMix64 rng(seed);
  const double span = std::log(ratio);
  for (BodySpec& body : model.bodies) {
    const double factor = std::exp(rng.uniform(-span, span));
    body.inertial.mass *= factor;
    body.inertial.inertia *= factor;
  }
  return model;
}

double relativeError(const VectorX& a, const VectorX& b) {
  if (a.size() == 0) return 0.0;
  return (a - b).lpNorm<Eigen::Infinity>() / std::max(b.lpNorm<Eigen::Infinity>(), 1.0);
}

double massMatrixCondition(const Tree& tree, const VectorX& q) {
  if (tree.nv == 0) return 1.0;
  RneaWorkspace ws(tree);
  MatrixX M;
  massMatrix(tree, ws, q, M);
  Eigen::SelfAdjointEigenSolver<MatrixX> es(M, Eigen::EigenvaluesOnly);
  return es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
}

double conditionedTolerance(double kappa) {
  return std::max(1e-12, 4.0 * kappa * std::numeric_limits<double>::epsilon());
}

}  // namespace kt::test
