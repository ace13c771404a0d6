// SPDX-License-Identifier: BSD-3-Clause
// Tree edits of core/model/editing/edit_ops: names, add/delete/re-parent, duplicate, mirror (checked
// against the kinematics of the mirrored tree), templates, and refusals leaving the model as it was.
#include <QTest>
#include <charconv>
#include <cmath>
#include <numbers>
#include <random>

#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "core/model/editing/round_values.hpp"
#include "core/model/generators.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/geometry/mount_faces.hpp"
#include "core/model/joint.hpp"
#include "core/model/text_util.hpp"

using namespace kt;

namespace {

// World pose and world velocity (angular, linear of the body origin) of every body of a tree.
struct BodyMotion {
  Mat3 R;  // body axes → world
  Vec3 p;  // origin in world
  Vec3 w;  // angular velocity, world
  Vec3 v;  // velocity of the origin, world
};

std::vector<BodyMotion> motions(const Tree& t, const Eigen::VectorXd& q, const Eigen::VectorXd& nu) {
  std::vector<Xform> X0(t.nb);  // ⁱX_0
  std::vector<Vec6> vel(t.nb);  // body coordinates
  std::vector<BodyMotion> out(t.nb);
  for (int i = 0; i < t.nb; ++i) {
    const double* qi = q.data() + t.qOffset[i];
    const Xform Xip = t.joints[i].transform(qi) * t.X_T[i];
    const Vec6 vJ = t.joints[i].nv ? t.joints[i].jointVelocity(qi, nu.data() + t.vOffset[i]) : Vec6::Zero();
    if (t.parent[i] < 0) {
      X0[i] = Xip;
      vel[i] = vJ;
    } else {
      X0[i] = Xip * X0[t.parent[i]];
      vel[i] = Xip.applyMotion(vel[t.parent[i]]) + vJ;
    }
    out[i].R = X0[i].E.transpose();
    out[i].p = X0[i].r;
    out[i].w = out[i].R * vel[i].head<3>();
    out[i].v = out[i].R * vel[i].tail<3>();
  }
  return out;
}

Mat3 reflectionOf(MirrorPlane plane) {
  Mat3 S = Mat3::Identity();
  S(plane == MirrorPlane::YZ   ? 0
    : plane == MirrorPlane::ZX ? 1
                               : 2,
    plane == MirrorPlane::YZ   ? 0
    : plane == MirrorPlane::ZX ? 1
                               : 2) = -1.0;
  return S;
}

}  // namespace

class TestEditOps : public QObject {
  Q_OBJECT

 private slots:
  void names() {
    Model m = makeChain(3);
    QCOMPARE(QString::fromStdString(uniqueName("link", {"link", "link_2"})), QStringLiteral("link_3"));
    QCOMPARE(QString::fromStdString(uniqueName("arm_2", {"arm_2"})), QStringLiteral("arm_3"));
    QCOMPARE(QString::fromStdString(uniqueName("2 bad name", {})), QStringLiteral("_2_bad_name"));
    QVERIFY(checkBodyName(m, -1, "world").has_value());
    QVERIFY(checkBodyName(m, -1, "").has_value());
    QVERIFY(checkBodyName(m, -1, "9x").has_value());
    QVERIFY(checkBodyName(m, 0, m.bodies[1].name).has_value());
    QVERIFY(!checkBodyName(m, 0, m.bodies[0].name).has_value());
    QVERIFY(!checkBodyName(m, -1, "fresh").has_value());
    // A joint name blocks a body name when that body's joint is unnamed (it would take the name).
    m.bodies[0].joint.name.clear();
    m.bodies[1].joint.name = "elbow";
    QVERIFY(checkBodyName(m, 0, "elbow").has_value());
    QVERIFY(checkJointName(m, 0, "elbow").has_value());
    QVERIFY(!checkJointName(m, 1, "elbow").has_value());
    const Model before = m;
    QVERIFY(renameBody(m, 0, m.bodies[2].name).has_value());
    QCOMPARE(m, before);
    QVERIFY(!renameBody(m, 0, "shoulder").has_value());
    QCOMPARE(QString::fromStdString(m.bodies[1].parent), QStringLiteral("shoulder"));
    QVERIFY(validate(m).empty());
  }

  void addAndDelete() {
    Model m;
    int k = -1;
    QVERIFY(!addBody(m, "world", JointType::Free, {}, &k).has_value());
    QCOMPARE(k, 0);
    QVERIFY(!addBody(m, m.bodies[0].name, JointType::Revolute, {}, &k).has_value());
    QVERIFY(!addBody(m, m.bodies[1].name, JointType::Universal, "tip", &k).has_value());
    QCOMPARE(k, 2);
    QVERIFY2(validate(m).empty(), formatDiagnostics(validate(m)).c_str());
    const Model before = m;
    QVERIFY(addBody(m, "nowhere", JointType::Revolute).has_value());
    QVERIFY(addBody(m, "world", JointType::Revolute, "tip").has_value());
    QCOMPARE(m, before);

    // Deleting the middle body lifts "tip" to the root, keeping its neutral world pose.
    m.bodies[1].joint.origin.rpy = Vec3(0.3, -0.2, 1.1);
    m.bodies[2].joint.origin.xyz = Vec3(0.1, 0.2, 0.3);
    const Pose tipBefore = neutralPose(m, 2);
    QVERIFY(!deleteBody(m, 1).has_value());
    QCOMPARE(int(m.bodies.size()), 2);
    QCOMPARE(m.bodies[1].parent, m.bodies[0].name);
    const Pose tipAfter = neutralPose(m, 1);
    QVERIFY((tipAfter.p - tipBefore.p).norm() < 1e-12);
    QVERIFY((tipAfter.R - tipBefore.R).norm() < 1e-12);

    Model tree = makeBinaryTree(4);
    const int root = tree.findBody(tree.bodies[1].name);
    const std::vector<int> sub = subtreeOf(tree, root);
    std::vector<std::string> keep;
    for (std::size_t i = 0; i < tree.bodies.size(); ++i)
      if (std::find(sub.begin(), sub.end(), int(i)) == sub.end()) keep.push_back(tree.bodies[i].name);
    QVERIFY(!deleteSubtree(tree, root).has_value());
    QCOMPARE(tree.bodies.size(), keep.size());
    for (std::size_t i = 0; i < keep.size(); ++i) QCOMPARE(tree.bodies[i].name, keep[i]);
    QVERIFY(validate(tree).empty());
  }

  void reparentRefusesCycles() {
    Model m = makeChain(4);
    const Model before = m;
    QVERIFY(reparent(m, 1, m.bodies[1].name).has_value());  // itself
    QVERIFY(reparent(m, 1, m.bodies[3].name).has_value());  // its own descendant
    QVERIFY(reparent(m, 1, "nobody").has_value());
    QVERIFY(reparent(m, 1, m.bodies[0].name).has_value());  // already there
    QCOMPARE(m, before);
    m.bodies[1].joint.origin.rpy = Vec3(0.4, 0.1, -0.7);
    m.bodies[2].joint.origin.rpy = Vec3(-0.2, 0.5, 0.3);
    const Pose p = neutralPose(m, 3);
    QVERIFY(!reparent(m, 3, "world", true).has_value());
    const Pose after = neutralPose(m, 3);
    QVERIFY((after.p - p.p).norm() < 1e-12);
    QVERIFY((after.R - p.R).norm() < 1e-12);
    QVERIFY(!reparent(m, 3, m.bodies[0].name).has_value());
    QVERIFY(validate(m).empty());
  }

  void duplicate() {
    Model m = makeBinaryTree(3);
    const std::size_t n = m.bodies.size();
    const std::vector<int> sub = subtreeOf(m, 1);
    int copy = -1;
    QVERIFY(!duplicateSubtree(m, 1, "_copy", &copy).has_value());
    QCOMPARE(copy, int(n));
    QCOMPARE(m.bodies.size(), n + sub.size());
    QVERIFY2(validate(m).empty(), formatDiagnostics(validate(m)).c_str());
    QCOMPARE(m.bodies[copy].parent, m.bodies[1].parent);
    QCOMPARE(m.bodies[copy].name, m.bodies[1].name + "_copy");
    QCOMPARE(subtreeOf(m, copy).size(), sub.size());
    // Twice: names stay unique.
    QVERIFY(!duplicateSubtree(m, 1).has_value());
    QVERIFY(validate(m).empty());
  }

  void mirrorMatchesReflectedKinematics_data() {
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("plane");
    for (quint64 seed = 1; seed <= 24; ++seed)
      QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed << int(seed % 3);
  }

  // The mirrored copy at the mirrored q0, v0 is the mirror image of the original: body origins
  // S p, axes S R S, angular velocities −S ω, origin velocities S v, centres of mass S c.
  void mirrorMatchesReflectedKinematics() {
    QFETCH(quint64, seed);
    QFETCH(int, plane);
    RandomTreeOptions opt;
    opt.maxBodies = 12;
    Model m = makeRandomTree(seed, opt);
    // Mirror the subtree of the first root, across a plane of the world frame.
    int root = -1;
    for (std::size_t k = 0; k < m.bodies.size() && root < 0; ++k)
      if (m.bodies[k].parent == "world") root = int(k);
    QVERIFY(root >= 0);
    const std::vector<int> sub = subtreeOf(m, root);
    MirrorOptions o;
    o.plane = MirrorPlane(plane);
    int copyRoot = -1;
    const std::size_t n = m.bodies.size();
    QVERIFY(!mirrorSubtree(m, root, o, &copyRoot).has_value());
    QCOMPARE(copyRoot, int(n));
    QVERIFY2(validate(m).empty(), formatDiagnostics(validate(m)).c_str());
    const Tree t = finalizeOrThrow(m);
    const std::vector<BodyMotion> mo = motions(t, t.initialQ, t.initialV);
    const Mat3 S = reflectionOf(o.plane);
    for (std::size_t i = 0; i < sub.size(); ++i) {
      const int a = t.treeIndexOfSpec[sub[i]];
      const int b = t.treeIndexOfSpec[n + i];
      QVERIFY2((mo[b].p - S * mo[a].p).norm() < 1e-9, m.bodies[sub[i]].joint.name.c_str());
      QVERIFY((mo[b].R - S * mo[a].R * S).norm() < 1e-9);
      QVERIFY(std::abs(mo[b].R.determinant() - 1.0) < 1e-9);
      QVERIFY2((mo[b].w + S * mo[a].w).norm() < 1e-9, std::string(jointTypeName(m.bodies[sub[i]].joint.type)).c_str());
      QVERIFY2((mo[b].v - S * mo[a].v).norm() < 1e-9, std::string(jointTypeName(m.bodies[sub[i]].joint.type)).c_str());
      const Vec3 ca = mo[a].p + mo[a].R * m.bodies[sub[i]].inertial.com;
      const Vec3 cb = mo[b].p + mo[b].R * m.bodies[n + i].inertial.com;
      QVERIFY((cb - S * ca).norm() < 1e-9);
      // World inertia about the centre of mass mirrors as S I S.
      const Mat3 Ia = mo[a].R * m.bodies[sub[i]].inertial.inertia * mo[a].R.transpose();
      const Mat3 Ib = mo[b].R * m.bodies[n + i].inertial.inertia * mo[b].R.transpose();
      QVERIFY((Ib - S * Ia * S).norm() < 1e-9 * (1.0 + Ia.norm()));
    }
  }

  // Mount-only mirroring: the copy is the original subtree moved by one proper rigid motion
  // (Q, c) with det Q = +1, at the same coordinates.
  void mirrorMountOnlyIsARigidCopy() {
    for (std::uint64_t seed = 30; seed < 40; ++seed) {
      RandomTreeOptions opt;
      opt.maxBodies = 10;
      Model m = makeRandomTree(seed, opt);
      int root = 0;
      const std::vector<int> sub = subtreeOf(m, root);
      MirrorOptions o;
      o.plane = MirrorPlane(seed % 3);
      o.mountOnly = true;
      const std::size_t n = m.bodies.size();
      QVERIFY(!mirrorSubtree(m, root, o).has_value());
      QVERIFY(validate(m).empty());
      const Tree t = finalizeOrThrow(m);
      const std::vector<BodyMotion> mo = motions(t, t.initialQ, t.initialV);
      const BodyMotion& a0 = mo[t.treeIndexOfSpec[sub[0]]];
      const BodyMotion& b0 = mo[t.treeIndexOfSpec[n]];
      const Mat3 Q = b0.R * a0.R.transpose();
      const Vec3 c = b0.p - Q * a0.p;
      QVERIFY(std::abs(Q.determinant() - 1.0) < 1e-9);
      for (std::size_t i = 0; i < sub.size(); ++i) {
        const BodyMotion& a = mo[t.treeIndexOfSpec[sub[i]]];
        const BodyMotion& b = mo[t.treeIndexOfSpec[n + i]];
        QVERIFY((b.R - Q * a.R).norm() < 1e-9);
        QVERIFY((b.p - (Q * a.p + c)).norm() < 1e-9);
        if (i > 0) {
          QCOMPARE(m.bodies[n + i].joint.axis, m.bodies[sub[i]].joint.axis);
          QCOMPARE(m.bodies[n + i].joint.origin, m.bodies[sub[i]].joint.origin);
        }
      }
    }
  }

  // Placements are mirrored in their stored form (rpy or quaternion), so twice is exact.
  void mirrorInPlaceTwiceRestoresTheModel() {
    Model m = makeChain(3, JointType::Revolute);
    m.bodies[0].joint.origin.xyz = Vec3(0.1, 0.5, 0.2);
    m.bodies[1].joint.origin.rpy = Vec3(0.3, -0.2, 0.7);
    m.bodies[2].joint.origin.useQuaternion = true;
    m.bodies[2].joint.origin.quat = Eigen::Vector4d(0.9, 0.1, -0.3, 0.2);
    QVERIFY(!m.bodies[2].shapes.empty());
    m.bodies[2].shapes[0].origin.rpy = Vec3(0.0, 1.2, 0.0);
    m.bodies[1].inertial.com = Vec3(0.01, 0.02, -0.1);
    m.bodies[1].inertial.inertia(0, 1) = m.bodies[1].inertial.inertia(1, 0) = 0.001;
    const Model before = m;
    MirrorOptions o;
    o.copy = false;
    QVERIFY(!mirrorSubtree(m, 0, o).has_value());
    QVERIFY(!(m == before));
    QCOMPARE(m.bodies[0].joint.origin.xyz.y(), -0.5);
    QCOMPARE(m.bodies[1].inertial.inertia(0, 1), -0.001);
    QVERIFY(!mirrorSubtree(m, 0, o).has_value());
    const QStringList a = QString::fromStdString(saveModelToString(m)).split('\n');
    const QStringList b = QString::fromStdString(saveModelToString(before)).split('\n');
    QCOMPARE(a.size(), b.size());
    for (int i = 0; i < a.size(); ++i) QCOMPARE(a[i], b[i]);
  }

  void mirrorNames() {
    Model m;
    QVERIFY(!addBody(m, "world", JointType::Fixed, "base").has_value());
    QVERIFY(!addBody(m, "base", JointType::Revolute, "left_shoulder").has_value());
    QVERIFY(!addBody(m, "left_shoulder", JointType::Revolute, "left_elbow").has_value());
    MirrorOptions o;
    o.renames = {{"left", "right"}};
    QVERIFY(!mirrorSubtree(m, 1, o).has_value());
    QCOMPARE(m.bodies[3].name, std::string("right_shoulder"));
    QCOMPARE(m.bodies[4].name, std::string("right_elbow"));
    QCOMPARE(m.bodies[4].parent, std::string("right_shoulder"));
    QCOMPARE(m.bodies[3].parent, std::string("base"));
    QVERIFY(validate(m).empty());
  }

  void templates() {
    Model m;
    PrismBaseTemplate base;
    base.sides = 5;
    base.radius = 0.4;
    base.height = 0.3;
    base.mass = 50.0;
    int k = -1;
    QVERIFY(!insertPrismBase(m, "world", base, &k).has_value());
    const Inertial& in = m.bodies[k].inertial;
    QVERIFY(std::abs(in.mass - 50.0) < 1e-9);
    const double alpha = 2.0 * 3.14159265358979323846 / 5.0;
    const double izz = 50.0 * 0.4 * 0.4 * (2.0 + std::cos(alpha)) / 6.0;
    QVERIFY(std::abs(in.inertia(2, 2) - izz) < 1e-9);
    QVERIFY(std::abs(in.inertia(0, 0) - (izz / 2.0 + 50.0 * 0.09 / 12.0)) < 1e-9);

    ArmTemplate arm;
    ArmLink universal;
    universal.joint = JointType::Universal;
    arm.links.assign(4, universal);
    QVERIFY(!insertArm(m, m.bodies[0].name, arm, &k).has_value());
    QCOMPARE(int(m.bodies.size()), 5);
    QCOMPARE(m.bodies[4].parent, m.bodies[3].name);
    const double mass = 1.0, r = 0.05, L = 0.5;
    QVERIFY(std::abs(m.bodies[2].inertial.inertia(2, 2) - mass * r * r / 2.0) < 1e-12);
    QVERIFY(std::abs(m.bodies[2].inertial.inertia(0, 0) - mass * (3 * r * r + L * L) / 12.0) < 1e-12);

    ChainTemplate chain;
    chain.bodies = 6;
    chain.joint = JointType::Prismatic;
    QVERIFY(!insertChain(m, "world", chain, &k).has_value());
    QCOMPARE(int(m.bodies.size()), 11);
    QVERIFY2(validate(m).empty(), formatDiagnostics(validate(m)).c_str());
    // Second arm: fresh names.
    QVERIFY(!insertArm(m, "world", arm).has_value());
    QVERIFY(validate(m).empty());

    const Model before = m;
    arm.links.clear();
    QVERIFY(insertArm(m, "world", arm).has_value());
    chain.spacing = -1.0;
    QVERIFY(insertChain(m, "world", chain).has_value());
    base.sides = 2;
    QVERIFY(insertPrismBase(m, "world", base).has_value());
    QCOMPARE(m, before);
  }

  // Insert Template ▸ Serial Arm's table: every row its own joint, axis, link and drive; names
  // <prefix><k>; masses or densities.
  void armRowsEachTheirOwn() {
    Model m;
    ArmTemplate arm;
    arm.prefix = "L1";
    arm.jointPrefix = "J1";
    arm.links = armPresets().front().links;  // the space robot's arm: z x x z x z
    QCOMPARE(arm.links.size(), std::size_t{6});
    QCOMPARE(arm.links[0].drive.type, DriveType::PdSinusoid);  // the example's drives come with it
    QCOMPARE(arm.links[1].mass, 20.0);
    arm.links[1].drive = Drive{};
    arm.links[1].drive.type = DriveType::SpringDamper;
    arm.links[1].drive.stiffness = {40.0};
    arm.links[1].drive.damping = {2.0};
    arm.links[1].drive.restPosition = {0.0};
    arm.links[2].shape = ShapeType::Box;
    arm.links[2].mass = 7.0;
    QVERIFY(!insertArm(m, "world", arm).has_value());
    QVERIFY2(validate(m).empty(), formatDiagnostics(validate(m)).c_str());
    const char* axes = "zxxzxz";
    for (int k = 0; k < 6; ++k) {
      const BodySpec& b = m.bodies[static_cast<std::size_t>(k)];
      QCOMPARE(b.name, "L1" + std::to_string(k + 1));
      QCOMPARE(b.joint.name, "J1" + std::to_string(k + 1));
      QCOMPARE(b.joint.axis, Vec3::Unit(axes[k] - 'x'));
      QCOMPARE(b.parent, k == 0 ? std::string("world") : "L1" + std::to_string(k));
      // each joint at the tip of the link before
      QCOMPARE(b.joint.origin.xyz.z(), k == 0 ? 0.0 : arm.links[static_cast<std::size_t>(k) - 1].length);
    }
    QCOMPARE(m.bodies[1].joint.drive, arm.links[1].drive);
    QCOMPARE(m.bodies[2].shapes.at(0).type, ShapeType::Box);
    QCOMPARE(m.bodies[2].shapes.at(0).size, Vec3(0.1, 0.1, 1.0));
    QCOMPARE(m.bodies[2].inertial.mass, 7.0);
    // a box of 7 kg, 0.1 × 0.1 × 1 m: Ixx = m (b² + c²)/12
    QCOMPARE(m.bodies[2].inertial.inertia(0, 0), 7.0 * (0.01 + 1.0) / 12.0);

    // densities: mass = ρ V, no doubled separators in names
    ArmTemplate dense;
    dense.byDensity = true;
    dense.prefix = "arm1_";
    dense.links.assign(2, ArmLink{});
    dense.links[0].mass = 2700.0;  // aluminium, kg/m³
    dense.links[1].mass = 2700.0;
    QVERIFY(!insertArm(m, "world", dense).has_value());
    const BodySpec& first = m.bodies[6];
    QCOMPARE(first.name, std::string("arm1_1"));
    const double volume = 3.14159265358979323846 * 0.05 * 0.05 * 0.5;
    QVERIFY(std::abs(first.inertial.mass - 2700.0 * volume) < 1e-12);
    // a bad row is named
    ArmTemplate bad;
    bad.links.assign(3, ArmLink{});
    bad.links[2].width = 0.0;
    const EditError e = insertArm(m, "world", bad);
    QVERIFY(e.has_value());
    QVERIFY2(e->find("link 3") != std::string::npos, e->c_str());
  }

  void computedValuesLoseTheirRoundingNoise() {
    QCOMPARE(roundToShortDecimal(400.00000000000006), 400.0);
    QCOMPARE(roundToShortDecimal(0.1 + 0.2), 0.3);
    QCOMPARE(roundToShortDecimal(std::numbers::pi), std::numbers::pi);  // needs its 16 digits
    QCOMPARE(roundToShortDecimal(std::numbers::pi / 2), std::numbers::pi / 2);
    QCOMPARE(roundToShortDecimal(0.6928203230275509), 0.6928203230275509);
    QCOMPARE(roundComputed(1.1102230246251565e-16, 1.0), 0.0);
    QCOMPARE(roundComputed(1.1102230246251565e-16, 1e-20), 1.1102230246251565e-16);  // not noise at that scale
    // Random doubles: each comes back unchanged or moved by at most 4 ulps onto a decimal of at
    // most 12 significant digits, which itself round-trips.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> mantissa(1.0, 10.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    int moved = 0;
    for (int i = 0; i < 100000; ++i) {
      const double x = mantissa(rng) * std::pow(10.0, exponent(rng)) * (i % 2 ? 1.0 : -1.0);
      const double r = roundToShortDecimal(x);
      if (r == x) continue;
      ++moved;
      QVERIFY(std::abs(r - x) <= 4.0 * (std::nextafter(std::abs(x), INFINITY) - std::abs(x)));
      const std::string text = formatRoundTrip(r);
      char buf[64];
      const auto end = std::to_chars(buf, buf + sizeof buf, r, std::chars_format::scientific).ptr;
      const std::string scientific(buf, end);  // shortest round trip: d.ddd…e±x
      int digits = 0;
      for (char c : scientific.substr(0, scientific.find('e'))) digits += c >= '0' && c <= '9';
      QVERIFY2(digits <= 12, scientific.c_str());
      QCOMPARE(std::stod(text), r);
    }
    QVERIFY2(moved < 100, qPrintable(QString::number(moved)));  // random values keep their digits
    // a 400 kg prism base is 400 kg, its inertia free of 1e-16 products
    Model m;
    PrismBaseTemplate base;
    base.mass = 400.0;
    base.radius = 0.8;
    base.height = 1.2;
    QVERIFY(!insertPrismBase(m, "world", base).has_value());
    QCOMPARE(m.bodies[0].inertial.mass, 400.0);
    QCOMPARE(m.bodies[0].inertial.inertia(0, 1), 0.0);
    QVERIFY(saveModelToString(m).find("mass: 400\n") != std::string::npos);
  }

  void facesToMountOn() {
    BodySpec base;
    Shape prism;
    prism.type = ShapeType::Prism;
    prism.sides = 6;
    prism.radius = 0.8;
    prism.length = 1.2;
    base.shapes.push_back(prism);
    Shape box;
    box.size = Vec3(0.2, 0.4, 0.6);
    box.origin.xyz = Vec3(1.0, 0.0, 0.0);
    base.shapes.push_back(box);
    const std::vector<MountFace> faces = mountFaces(base);
    QCOMPARE(faces.size(), std::size_t{6 + 2 + 6});
    // the hexagon's sides face 30°, 90°, …: the second faces +y at the apothem 0.8 cos 30°
    const MountFace& plusY = faces[1];
    QVERIFY2(plusY.label.find("normal +y") != std::string::npos, plusY.label.c_str());
    QVERIFY((plusY.centre - Vec3(0.0, 0.8 * std::cos(std::numbers::pi / 6), 0.0)).norm() < 1e-15);
    // as examples/space_robot.yaml mounts its arms: rpy (∓90°, 0, 0) on ±y, exactly
    const Placement up = facePlacement(plusY);
    QCOMPARE(up.rpy, Vec3(-std::numbers::pi / 2, 0.0, 0.0));
    QCOMPARE(facePlacement(faces[4]).rpy, Vec3(std::numbers::pi / 2, 0.0, 0.0));
    QVERIFY(faces[4].label.find("normal -y") != std::string::npos);
    // every face: the joint frame's z is the outward normal, its origin the face centre
    for (const MountFace& f : faces) {
      const Placement p = facePlacement(f);
      QVERIFY2((p.rotation() * Vec3::UnitZ() - f.normal).norm() < 1e-15, f.label.c_str());
      QVERIFY((p.xyz - f.centre).norm() <= 1e-15);
    }
    // the box's +x face, carried by its origin
    QVERIFY((faces[8].centre - Vec3(1.1, 0.0, 0.0)).norm() < 1e-15);
    // an end cap facing −z: a roll of 180°
    QCOMPARE(facePlacement(faces[7]).rpy, Vec3(std::numbers::pi, 0.0, 0.0));
  }

  void drivesAsText() {
    Drive pd;
    pd.type = DriveType::PdSinusoid;
    pd.kp = 200;
    pd.kd = 40;
    pd.amplitude = {0.5};
    pd.frequency = {0.1};
    pd.phase = {-std::numbers::pi / 2};
    pd.offset = {0.5};
    const std::string text = driveText(pd);
    QCOMPARE(text, std::string("{type: pd_sinusoid, kp: 200, kd: 40, amplitude: 0.5, frequency: 0.1, phase: "
                               "-1.5707963267948966, offset: 0.5}"));
    Drive back;
    std::string error;
    QVERIFY2(parseDriveText(text, JointType::Revolute, back, error), error.c_str());
    QCOMPARE(back, pd);
    QVERIFY(parseDriveText("", JointType::Revolute, back, error));
    QCOMPARE(back.type, DriveType::None);
    QVERIFY(parseDriveText("{type: constant, value: [1, 2]}", JointType::Universal, back, error));
    QCOMPARE(back.value, (std::vector<double>{1.0, 2.0}));
    QVERIFY(!parseDriveText("{type: pd_sinusoid, kp: abc}", JointType::Revolute, back, error));
    QVERIFY2(error.find("number") != std::string::npos, error.c_str());
    QVERIFY(!parseDriveText("{type: nonsense}", JointType::Revolute, back, error));
    QVERIFY2(error.find("nonsense") != std::string::npos, error.c_str());
  }
};

QTEST_APPLESS_MAIN(TestEditOps)
#include "test_edit_ops.moc"
