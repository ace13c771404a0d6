// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/tree.hpp"

#include <functional>
#include <stdexcept>
#include <unordered_map>

namespace kt {

int Tree::jointIndex(const std::string& jointName) const {
  for (int i = 0; i < nb; ++i)
    if (jointNames[i] == jointName) return i;
  return -1;
}

int Tree::bodyIndex(const std::string& bodyName) const {
  for (int i = 0; i < nb; ++i)
    if (bodyNames[i] == bodyName) return i;
  return -1;
}

double Tree::totalMass() const {
  double m = 0.0;
  for (const Inertia& b : I) m += b.m;
  return m;
}

bool finalize(const Model& model, const MeshSource& meshes, Tree& tree, std::vector<Diagnostic>& problems) {
  problems = validate(model, meshes);
  if (!problems.empty()) return false;

  const int n = static_cast<int>(model.bodies.size());
  std::unordered_map<std::string, int> byName;
  for (int k = 0; k < n; ++k) byName[model.bodies[k].name] = k;
  std::vector<std::vector<int>> specChildren(n);
  std::vector<int> specRoots;
  for (int k = 0; k < n; ++k) {
    const std::string& p = model.bodies[k].parent;
    if (p == "world")
      specRoots.push_back(k);
    else
      specChildren[byName.at(p)].push_back(k);
  }

  // Depth-first preorder numbering: parent(i) < i, each subtree contiguous.
  tree = Tree{};
  tree.nb = n;
  tree.treeIndexOfSpec.assign(n, -1);
  std::vector<int> order;
  order.reserve(n);
  std::vector<int> stack(specRoots.rbegin(), specRoots.rend());
  while (!stack.empty()) {
    const int k = stack.back();
    stack.pop_back();
    tree.treeIndexOfSpec[k] = static_cast<int>(order.size());
    order.push_back(k);
    for (auto it = specChildren[k].rbegin(); it != specChildren[k].rend(); ++it) stack.push_back(*it);
  }

  tree.parent.resize(n);
  tree.children.assign(n, {});
  tree.qOffset.resize(n);
  tree.vOffset.resize(n);
  tree.lambdaOffset.resize(n);
  tree.joints.resize(n);
  tree.X_T.resize(n);
  tree.I.resize(n);
  tree.appliedWrench.resize(n);
  tree.bodyNames.resize(n);
  tree.jointNames.resize(n);
  tree.specIndex = order;
  tree.gravity = model.gravity;

  for (int i = 0; i < n; ++i) {
    const BodySpec& b = model.bodies[order[i]];
    const int p = b.parent == "world" ? -1 : tree.treeIndexOfSpec[byName.at(b.parent)];
    tree.parent[i] = p;
    if (p < 0)
      tree.roots.push_back(i);
    else
      tree.children[p].push_back(i);
    tree.joints[i] =
        JointModel::make(b.joint.type, b.joint.axis, b.joint.axis2, b.joint.axis3, b.joint.point2, b.joint.point3);
    tree.qOffset[i] = tree.nq;
    tree.vOffset[i] = tree.nv;
    tree.lambdaOffset[i] = tree.nlambda;
    tree.nq += tree.joints[i].nq;
    tree.nv += tree.joints[i].nv;
    tree.nlambda += 6 - tree.joints[i].nv;
    tree.X_T[i] = b.joint.origin.transformFromParent();
    const MassProperties mp = bodyMassProperties(b, model.sourceDirectory, meshes);
    tree.I[i] = Inertia::fromMassComInertia(mp.mass, mp.com, mp.inertia);
    tree.appliedWrench[i] = b.appliedWrench;
    tree.bodyNames[i] = b.name;
    tree.jointNames[i] = b.joint.name.empty() ? b.name : b.joint.name;
  }

  tree.initialQ.resize(tree.nq);
  tree.initialV = Eigen::VectorXd::Zero(tree.nv);
  for (int i = 0; i < n; ++i) {
    const JointSpec& j = model.bodies[order[i]].joint;
    const JointModel& jm = tree.joints[i];
    jm.neutral(tree.initialQ.data() + tree.qOffset[i]);
    if (static_cast<int>(j.q0.size()) == jm.nq)
      for (int k = 0; k < jm.nq; ++k) tree.initialQ[tree.qOffset[i] + k] = j.q0[k];
    jm.normalize(tree.initialQ.data() + tree.qOffset[i]);
    if (static_cast<int>(j.v0.size()) == jm.nv)
      for (int k = 0; k < jm.nv; ++k) tree.initialV[tree.vOffset[i] + k] = j.v0[k];
  }
  return true;
}

Tree finalizeOrThrow(const Model& model, const MeshSource& meshes) {
  Tree tree;
  std::vector<Diagnostic> problems;
  if (!finalize(model, meshes, tree, problems)) throw std::invalid_argument(problems.front().format());
  return tree;
}

}  // namespace kt
