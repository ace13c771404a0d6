// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/model/editing/edit_ops.hpp"

namespace kt {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform(double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(next() >> 11) * 0x1.0p-53);
}

int SplitMix64::uniformInt(int lo, int hi) {
  return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
}

Vec3 SplitMix64::unitVector() {
  for (;;) {
    const Vec3 v(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    const double n = v.norm();
    if (n > 0.1 && n <= 1.0) return v / n;
  }
}

namespace {

BodySpec linkBody(const std::string& name, const std::string& parent, JointType type, double length) {
  BodySpec b;
  b.name = name;
  b.parent = parent;
  b.joint.name = "j_" + name;
  b.joint.type = type;
  b.joint.axis = Vec3::UnitY();
  b.joint.axis2 = Vec3::UnitX();
  b.inertial.mass = 1.0;
  b.inertial.com = Vec3(0, 0, -0.5 * length);
  const double r = 0.03;
  const double ia = 0.5 * r * r, it = (3 * r * r + length * length) / 12.0;
  b.inertial.inertia = Vec3(it, it, ia).asDiagonal();
  Shape s;
  s.type = ShapeType::Cylinder;
  s.radius = r;
  s.length = length;
  s.origin.xyz = Vec3(0, 0, -0.5 * length);
  s.color = Eigen::Vector4d(0.3, 0.5, 0.8, 1.0);
  b.shapes.push_back(s);
  return b;
}

}  // namespace

Model makeChain(int n, JointType type) {
  Model m;
  m.name = "chain" + std::to_string(n);
  const double length = 0.3;
  BodySpec link = linkBody("", "", type, length);
  link.joint.q0.assign(jointNq(type), 0.0);
  if (type == JointType::Spherical || type == JointType::Free) link.joint.q0[0] = 1.0;
  if (type == JointType::Revolute) link.joint.q0[0] = 0.1;
  std::vector<std::string> names(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) names[i] = "link" + std::to_string(i + 1);
  appendSerialChain(m, "world", link, names, Placement{}, Vec3(0, 0, -length));
  for (BodySpec& b : m.bodies) b.joint.name = "j_" + b.name;
  return m;
}

Model makeCardanChain(int n) {
  Model m = makeChain(n, JointType::Universal);
  m.name = "cardan_chain" + std::to_string(n);
  for (BodySpec& b : m.bodies) {
    b.joint.axis = Vec3::UnitX();
    b.joint.axis2 = Vec3::UnitY();
    b.joint.q0 = {0.05, 0.1};
  }
  return m;
}

Model makeBinaryTree(int depth) {
  Model m;
  m.name = "binary_tree" + std::to_string(depth);
  const int n = (1 << depth) - 1;
  for (int i = 0; i < n; ++i) {
    const std::string parent = i == 0 ? "world" : "b" + std::to_string((i - 1) / 2);
    BodySpec b = linkBody("b" + std::to_string(i), parent, JointType::Revolute, 0.3);
    if (i > 0) b.joint.origin.xyz = Vec3(i % 2 ? 0.1 : -0.1, 0, -0.3);
    b.joint.axis = i % 2 ? Vec3::UnitY() : Vec3::UnitX();
    b.joint.q0 = {0.1};
    m.bodies.push_back(b);
  }
  return m;
}

Model makeRandomTree(std::uint64_t seed, const RandomTreeOptions& options) {
  SplitMix64 rng(seed);
  // a second stream, so that coordinateAxes leaves every other draw as it was
  SplitMix64 axisRng(seed ^ 0x9e3779b97f4a7c15ULL);
  SplitMix64 placementRng(seed ^ 0xbf58476d1ce4e5b9ULL);  // and plainPlacements likewise
  SplitMix64 gimbalRng(seed ^ 0x94d049bb133111ebULL);     // and gimbals likewise
  SplitMix64 offsetRng(seed ^ 0xd6e8feb86659fd93ULL);     // and offset axes likewise
  Model m;
  m.name = "random" + std::to_string(seed);
  m.gravity = options.gravity ? Vec3(0, 0, -9.81) : Vec3::Zero();
  const int n = rng.uniformInt(options.minBodies, options.maxBodies);
  std::vector<int> childCount;
  const bool floating = rng.uniform() < options.floatingBaseProbability;
  static constexpr JointType kTypes[] = {JointType::Revolute,  JointType::Prismatic, JointType::Cylindrical,
                                         JointType::Universal, JointType::Spherical, JointType::Planar,
                                         JointType::Fixed,     JointType::Free};
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.name = "b" + std::to_string(i);
    int parent = -1;
    if (i > 0) {
      // extend the newest body (chains) or attach to a random one with room left (branches)
      parent = i - 1;
      if (rng.uniform() >= options.chainBias) parent = rng.uniformInt(0, i - 1);
      while (childCount[parent] >= options.maxChildren) parent = (parent + 1) % i;
    } else if (!floating && rng.uniform() < 0.3) {
      parent = -1;
    }
    // a few extra roots now and then
    if (i > 0 && rng.uniform() < 0.03) parent = -1;
    b.parent = parent < 0 ? "world" : "b" + std::to_string(parent);
    if (parent >= 0) ++childCount[parent];
    childCount.push_back(0);

    JointType type = JointType::Revolute;
    if (i == 0 && floating)
      type = JointType::Free;
    else if (options.allJointTypes)
      type = kTypes[rng.uniformInt(0, 7)];
    b.joint.type = type;
    b.joint.name = "j" + std::to_string(i);
    b.joint.origin.xyz = Vec3(rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3));
    b.joint.origin.rpy = Vec3(rng.uniform(-3, 3), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3));
    if (options.plainPlacements > 0.0 && placementRng.uniform() < options.plainPlacements)
      b.joint.origin.rpy = Vec3::Zero();
    b.joint.axis = rng.unitVector();
    b.joint.axis2 = b.joint.axis.cross(rng.unitVector()).normalized();
    if (options.coordinateAxes > 0.0 && axisRng.uniform() < options.coordinateAxes) {
      b.joint.axis = Vec3::Unit(axisRng.uniformInt(0, 2));
      b.joint.axis2 = b.joint.axis.cross(axisRng.unitVector()).normalized();
    }

    const int nq = jointNq(type), nv = jointNv(type);
    b.joint.q0.resize(nq);
    b.joint.v0.resize(nv);
    for (double& x : b.joint.q0) x = rng.uniform(-1, 1);
    for (double& x : b.joint.v0) x = rng.uniform(-1, 1);
    // a gimbal in place of the joint drawn, its state from its own stream: three orthogonal axes
    // (roll, pitch and yaw of an axis set), which lock only at a second angle of ±90°, outside the
    // ±1 rad drawn
    if (options.gimbals > 0.0 && options.allJointTypes && !(i == 0 && floating) &&
        gimbalRng.uniform() < options.gimbals) {
      type = b.joint.type = JointType::Gimbal;
      b.joint.axis3 = b.joint.axis.normalized().cross(b.joint.axis2.normalized());
      b.joint.q0.resize(3);
      b.joint.v0.resize(3);
      for (double& x : b.joint.q0) x = gimbalRng.uniform(-1, 1);
      for (double& x : b.joint.v0) x = gimbalRng.uniform(-1, 1);
    }
    if ((type == JointType::Universal || type == JointType::Gimbal) && options.offsetAxes > 0.0 &&
        offsetRng.uniform() < options.offsetAxes) {
      const auto point = [&] {
        return Vec3(offsetRng.uniform(-0.15, 0.15), offsetRng.uniform(-0.15, 0.15), offsetRng.uniform(-0.15, 0.15));
      };
      b.joint.point2 = point();
      if (type == JointType::Gimbal) b.joint.point3 = point();
    }
    if (type == JointType::Spherical || type == JointType::Free) {
      const Eigen::Vector4d qn =
          Eigen::Vector4d(b.joint.q0[0], b.joint.q0[1], b.joint.q0[2], b.joint.q0[3]).normalized();
      for (int k = 0; k < 4; ++k) b.joint.q0[k] = qn[k];
    }

    b.inertial.mass = rng.uniform(0.5, 2.0);
    b.inertial.com = Vec3(rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1));
    // principal moments from a box of random sides: always satisfy the triangle inequality
    const Vec3 side(rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5));
    const double mass = b.inertial.mass;
    const Vec3 principal(mass / 12 * (side.y() * side.y() + side.z() * side.z()),
                         mass / 12 * (side.x() * side.x() + side.z() * side.z()),
                         mass / 12 * (side.x() * side.x() + side.y() * side.y()));
    const Mat3 R = rotationFromRpy(Vec3(rng.uniform(-3, 3), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3)));
    b.inertial.inertia = R * principal.asDiagonal() * R.transpose();
    b.inertial.inertia = 0.5 * (b.inertial.inertia + b.inertial.inertia.transpose()).eval();

    Shape s;
    s.type = ShapeType::Box;
    s.size = side;
    s.origin.xyz = b.inertial.com;
    b.shapes.push_back(s);
    m.bodies.push_back(b);
  }
  return m;
}

}  // namespace kt
