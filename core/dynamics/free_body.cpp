// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/free_body.hpp"

#include <algorithm>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/rnea.hpp"

namespace kt {

double FreeBodyDiagram::scale() const {
  double s = momentumRate.cwiseAbs().maxCoeff();
  for (const Term& t : terms) s = std::max(s, t.wrench.cwiseAbs().maxCoeff());
  return s;
}

Vec6 FreeBodyDiagram::Term::atPoint() const {
  const Vec3 n = wrench.head<3>(), f = wrench.tail<3>();
  return spatial(n - point.cross(f), f);
}

FreeBodyDiagram freeBodyDiagram(const Tree& tree, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const Eigen::VectorXd& qdd, const std::vector<Vec6>& f, int body) {
  Kinematics kin;
  kin.resize(tree);
  computeKinematics(tree, q, v, kin);
  std::vector<Vec6> a(static_cast<std::size_t>(tree.nb));
  bodyAccelerations(tree, kin, qdd, a);  // with gravity as the base's acceleration −g

  const auto i = static_cast<std::size_t>(body);
  FreeBodyDiagram d;
  d.body = body;
  const int p = tree.parent[i];
  d.centreOfMass = tree.I[i].m > 0.0 ? tree.I[i].com() : Vec3::Zero();
  d.terms.push_back(
      {"joint " + tree.jointNames[i] + " (from " + (p >= 0 ? tree.bodyNames[p] : "world") + ")", f[i], Vec3::Zero()});
  for (int c : tree.children[i])  // acting at the child's joint origin, the child's frame origin
    d.terms.push_back({"joint " + tree.jointNames[c] + " (to " + tree.bodyNames[c] + "), reversed",
                       -kin.X_p[c].inverseForce(f[c]), kin.X_p[c].r});
  const Vec6 g = kin.X_0[i].applyMotion(spatial(Vec3::Zero(), tree.gravity));  // gravity, body coordinates
  d.terms.push_back({"gravity", tree.I[i] * g, d.centreOfMass});
  if (!tree.appliedWrench[i].isZero(0.0)) d.terms.push_back({"applied wrench", tree.appliedWrench[i], Vec3::Zero()});
  // a_i includes −g: the true acceleration is a_i + g_i
  d.momentumRate = tree.I[i] * (a[i] + g) + crossForce(kin.v[i], tree.I[i] * kin.v[i]);
  d.residual = -d.momentumRate;
  for (const FreeBodyDiagram::Term& t : d.terms) d.residual += t.wrench;
  return d;
}

}  // namespace kt
