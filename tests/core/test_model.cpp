// SPDX-License-Identifier: BSD-3-Clause
// Model construction and finalization, joint subspaces of every type, mass properties of every
// shape against closed forms and against tessellated meshes (divergence theorem), the mesh
// readers, and validator checks that only models built in code can reach.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <map>
#include <numbers>
#include <random>

#include "core/io/mesh.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/sim/run_limits.hpp"

using namespace kt;

namespace {

constexpr double kPi = std::numbers::pi;

BodySpec makeBody(const std::string& name, const std::string& parent, JointType type) {
  BodySpec b;
  b.name = name;
  b.parent = parent;
  b.joint.type = type;
  b.inertial.mass = 2.0;
  b.inertial.inertia = Vec3(0.3, 0.4, 0.5).asDiagonal();
  return b;
}

bool hasProblem(const std::vector<Diagnostic>& ds, const std::string& path, const std::string& fragment) {
  for (const auto& d : ds)
    if (d.path == path && d.message.find(fragment) != std::string::npos) return true;
  return false;
}

double relDiff(double a, double b) { return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300}); }

void compareMass(const MassProperties& a, const MassProperties& b, double tol) {
  QVERIFY2(relDiff(a.mass, b.mass) < tol,
           qPrintable(QString("mass %1 vs %2").arg(a.mass, 0, 'g', 17).arg(b.mass, 0, 'g', 17)));
  const double scale = std::max(a.com.norm(), 1e-3);
  QVERIFY2((a.com - b.com).norm() < tol * scale, "centre of mass differs");
  const double Is = b.inertia.norm();
  QVERIFY2((a.inertia - b.inertia).norm() < tol * Is,
           qPrintable(QString("inertia differs by %1 (relative)").arg((a.inertia - b.inertia).norm() / Is)));
}

// Closed triangle meshes, counter-clockwise seen from outside.
TriangleMesh boxMesh(const Vec3& size, const Vec3& centre) {
  TriangleMesh m;
  for (int k = 0; k < 8; ++k)
    m.vertices.push_back(centre + Vec3((k & 1 ? 0.5 : -0.5) * size.x(), (k & 2 ? 0.5 : -0.5) * size.y(),
                                       (k & 4 ? 0.5 : -0.5) * size.z()));
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

// Regular n-gon prism along z, circumradius r, first vertex on +x (the prism shape's convention).
TriangleMesh prismMesh(int n, double r, double length) {
  TriangleMesh m;
  for (int side = 0; side < 2; ++side) {
    const double z = side ? 0.5 * length : -0.5 * length;
    m.vertices.emplace_back(0, 0, z);
    for (int k = 0; k < n; ++k)
      m.vertices.emplace_back(r * std::cos(2 * kPi * k / n), r * std::sin(2 * kPi * k / n), z);
  }
  const int top = n + 1;
  for (int k = 0; k < n; ++k) {
    const int a = 1 + k, b = 1 + (k + 1) % n;
    m.triangles.push_back({0, b, a});
    m.triangles.push_back({top, top + a, top + b});
    m.triangles.push_back({a, b, top + b});
    m.triangles.push_back({a, top + b, top + a});
  }
  return m;
}

// Surface of revolution about z from a profile (ρ(s), z(s)), s from the bottom pole to the top.
TriangleMesh revolve(const std::vector<std::pair<double, double>>& profile, int segments) {
  TriangleMesh m;
  const int rings = static_cast<int>(profile.size());
  for (const auto& [rho, z] : profile)
    for (int k = 0; k < segments; ++k)
      m.vertices.emplace_back(rho * std::cos(2 * kPi * k / segments), rho * std::sin(2 * kPi * k / segments), z);
  for (int i = 0; i + 1 < rings; ++i)
    for (int k = 0; k < segments; ++k) {
      const int a = i * segments + k, b = i * segments + (k + 1) % segments;
      const int c = a + segments, d = b + segments;
      m.triangles.push_back({a, b, d});
      m.triangles.push_back({a, d, c});
    }
  return m;
}

TriangleMesh capsuleMesh(double r, double length, int rings, int segments) {
  std::vector<std::pair<double, double>> profile;
  for (int i = 0; i <= rings; ++i) {  // bottom hemisphere, pole to equator
    const double a = -kPi / 2 + (kPi / 2) * i / rings;
    profile.emplace_back(r * std::cos(a), -0.5 * length + r * std::sin(a));
  }
  for (int i = 0; i <= rings; ++i) {  // top hemisphere, equator to pole
    const double a = (kPi / 2) * i / rings;
    profile.emplace_back(r * std::cos(a), 0.5 * length + r * std::sin(a));
  }
  return revolve(profile, segments);
}

MassProperties fromMesh(const TriangleMesh& mesh, double density) {
  MassProperties p;
  if (!meshMassProperties(mesh, density, p)) qWarning("mesh encloses no volume");
  return p;
}

MassProperties ofShape(const Shape& s, double density, const std::string& dir = {}) {
  MassProperties p;
  std::string error;
  if (!shapeMassProperties(s, density, dir, meshFiles(), p, error)) qWarning("%s", error.c_str());
  return p;
}

void writeAsciiStl(const std::string& path, const TriangleMesh& m) {
  std::ofstream out(path);
  out << "solid cube\n";
  for (const auto& t : m.triangles) {
    out << "  facet normal 0 0 0\n    outer loop\n";
    for (int k : t)
      out << "      vertex " << m.vertices[k].x() << ' ' << m.vertices[k].y() << ' ' << m.vertices[k].z() << '\n';
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid cube\n";
}

void writeBinaryStl(const std::string& path, const TriangleMesh& m) {
  std::ofstream out(path, std::ios::binary);
  char header[80] = "solid binary file whose header starts like an ASCII one";
  out.write(header, 80);
  const std::uint32_t n = static_cast<std::uint32_t>(m.triangles.size());
  out.write(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : m.triangles) {
    float rec[12] = {0, 0, 0};
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) rec[3 + 3 * k + c] = static_cast<float>(m.vertices[t[k]][c]);
    out.write(reinterpret_cast<const char*>(rec), 48);
    const std::uint16_t attr = 0;
    out.write(reinterpret_cast<const char*>(&attr), 2);
  }
}

}  // namespace

class TestModel : public QObject {
  Q_OBJECT

 private slots:
  // What an import calls passive (it says the robot will fall): a joint with coordinates that no
  // drive or motion moves, or whose constant drive is zero on every coordinate. Fixed joints have no
  // coordinates and a free joint is moved by forces on its body: neither counts.
  void passiveJointsAreThoseNothingMoves() {
    Model m;
    const auto add = [&](JointType type, DriveType drive, std::vector<double> value = {}) {
      BodySpec b;
      b.name = "b" + std::to_string(m.bodies.size());
      b.joint.type = type;
      b.joint.drive.type = drive;
      b.joint.drive.value = std::move(value);
      m.bodies.push_back(b);
    };
    add(JointType::Free, DriveType::None);
    add(JointType::Fixed, DriveType::None);
    add(JointType::Revolute, DriveType::None);                   // passive
    add(JointType::Revolute, DriveType::Constant, {0.0});        // passive: an MJCF motor at rest
    add(JointType::Universal, DriveType::Constant, {0.0, 0.5});  // driven on one coordinate
    add(JointType::Universal, DriveType::Constant, {0.0, 0.0});  // passive
    add(JointType::Prismatic, DriveType::PdSinusoid);            // driven
    add(JointType::Revolute, DriveType::None);                   // follows a motion
    m.bodies.back().joint.motion.type = MotionType::Sinusoid;
    const PassiveJoints count = passiveJoints(m);
    QCOMPARE(count.moving, 6);
    QCOMPARE(count.passive, 3);
  }

  // A gimbal joint written with its type alone turns about z, y, x (yaw, pitch, roll), free of gimbal
  // lock at its neutral position; z, y, z there is refused by name.
  void gimbalDefaultsAreFreeOfLock() {
    const std::string text =
        "kinetree: 1\nname: g\nbodies:\n  - name: arm\n    parent: world\n"
        "    joint: {type: gimbal}\n"
        "    inertial: {mass: 1, inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}}\n";
    const Model m = loadModelFromString(text);
    QCOMPARE(m.bodies[0].joint.axis3, Vec3(Vec3::UnitX()));
    QVERIFY(validate(m).empty());
    Model locked = m;
    locked.bodies[0].joint.axis3 = Vec3::UnitZ();
    QVERIFY(hasProblem(validate(locked), "bodies[0].joint.axis3", "(gimbal lock)"));
  }

  // point2 and point3 (offset axes) are universal and gimbal keys: elsewhere named as such; read,
  // they make the joint model's offset; written only where they are not zero.
  void offsetAxesAreReadWhereTheyBelong() {
    const std::string head = "kinetree: 1\nname: g\nbodies:\n  - name: arm\n    parent: world\n    joint: ";
    const std::string inertial = "\n    inertial: {mass: 1, inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}}\n";
    const Model m = loadModelFromString(head + "{type: universal, point2: [0, 0, -0.04]}" + inertial);
    QCOMPARE(m.bodies[0].joint.point2, Vec3(0, 0, -0.04));
    QVERIFY(finalizeOrThrow(m).joints[0].offset);
    QVERIFY(saveModelToString(m).find("point2: [0, 0, -0.04]") != std::string::npos);
    Model through = m;
    through.bodies[0].joint.point2.setZero();
    QVERIFY(!finalizeOrThrow(through).joints[0].offset);
    QVERIFY(saveModelToString(through).find("point2") == std::string::npos);
    try {
      loadModelFromString(head + "{type: revolute, point2: [0, 0, 1]}" + inertial);
      QFAIL("a revolute joint took point2");
    } catch (const ModelLoadError& e) {
      QVERIFY2(formatDiagnostics(e.diagnostics()).find("point2 is only used by universal (cardan) and gimbal joints") !=
                   std::string::npos,
               formatDiagnostics(e.diagnostics()).c_str());
    }
  }

  // rpy of a rotation gives the rotation back, also at and near pitch ±90° (gimbal lock), where
  // roll and yaw are each undefined and only their combination counts.
  void rpyRoundTripsAtGimbalLock() {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> angle(-3.1, 3.1), tiny(-1e-7, 1e-7);
    for (int k = 0; k < 2000; ++k) {
      const double pitch =
          (k % 2 ? 1 : -1) * std::numbers::pi / 2 + (k % 4 < 2 ? 0.0 : tiny(rng)) + (k % 8 == 7 ? angle(rng) / 3 : 0.0);
      const Mat3 R = rotationFromRpy(Vec3(angle(rng), pitch, angle(rng)));
      const Mat3 back = rotationFromRpy(rpyFromRotation(R));
      QVERIFY2((back - R).cwiseAbs().maxCoeff() < 1e-14,
               qPrintable(QString("case %1: %2").arg(k).arg((back - R).norm())));
    }
    // (0, pi/4, 0) then (0.3, pi/4, 0): pitch pi/2 in all
    const Mat3 R =
        rotationFromRpy(Vec3(0, std::numbers::pi / 4, 0)) * rotationFromRpy(Vec3(0.3, std::numbers::pi / 4, 0));
    QVERIFY((rotationFromRpy(rpyFromRotation(R)) - R).cwiseAbs().maxCoeff() < 1e-15);
  }

  void finalizeOrdersAndIndexes() {
    // Listed children-first and with two roots: finalize must renumber so that parent(i) < i.
    Model m;
    m.bodies = {makeBody("c", "a", JointType::Universal), makeBody("a", "base", JointType::Revolute),
                makeBody("base", "world", JointType::Free), makeBody("d", "world", JointType::Spherical),
                makeBody("b", "base", JointType::Prismatic)};
    m.bodies[1].joint.name = "shoulder";
    m.bodies[3].joint.q0 = {2, 0, 0, 0};  // not unit: normalized by finalize
    m.bodies[4].joint.v0 = {0.5};
    Tree t;
    std::vector<Diagnostic> problems;
    QVERIFY2(finalize(m, t, problems), formatDiagnostics(problems).c_str());
    QCOMPARE(t.nb, 5);
    QCOMPARE(t.nq, 7 + 1 + 2 + 4 + 1);
    QCOMPARE(t.nv, 6 + 1 + 2 + 3 + 1);
    QCOMPARE(t.nlambda, 0 + 5 + 4 + 3 + 5);
    int q = 0, v = 0;
    for (int i = 0; i < t.nb; ++i) {
      QVERIFY(t.parent[i] < i);
      QCOMPARE(t.qOffset[i], q);
      QCOMPARE(t.vOffset[i], v);
      q += t.joints[i].nq;
      v += t.joints[i].nv;
      QCOMPARE(t.treeIndexOfSpec[t.specIndex[i]], i);
      QCOMPARE(t.bodyNames[i], m.bodies[t.specIndex[i]].name);
      if (t.parent[i] >= 0)
        QCOMPARE(t.bodyNames[t.parent[i]], m.bodies[t.specIndex[i]].parent);
      else
        QVERIFY(std::find(t.roots.begin(), t.roots.end(), i) != t.roots.end());
      for (int c : t.children[i]) QCOMPARE(t.parent[c], i);
    }
    QCOMPARE(t.roots.size(), std::size_t(2));
    QCOMPARE(t.jointIndex("shoulder"), t.bodyIndex("a"));
    QCOMPARE(t.jointIndex("c"), t.bodyIndex("c"));  // unnamed joint takes its body's name
    const int d = t.bodyIndex("d");
    QCOMPARE(t.initialQ[t.qOffset[d]], 1.0);
    const int b = t.bodyIndex("b");
    QCOMPARE(t.initialV[t.vOffset[b]], 0.5);
    const int base = t.bodyIndex("base");
    QCOMPARE(t.initialQ[t.qOffset[base]], 1.0);  // neutral free joint: identity quaternion
    QCOMPARE(t.totalMass(), 10.0);
  }

  void finalizeRejectsInvalid() {
    Model m;
    m.bodies = {makeBody("a", "nowhere", JointType::Revolute)};
    Tree t;
    std::vector<Diagnostic> problems;
    QVERIFY(!finalize(m, t, problems));
    QVERIFY(hasProblem(problems, "bodies[0].parent", "unknown parent 'nowhere'"));
    bool threw = false;
    try {
      finalizeOrThrow(m);
    } catch (const std::invalid_argument& e) {
      threw = std::string(e.what()).find("bodies[0].parent") != std::string::npos;
    }
    QVERIFY(threw);
  }

  void jointSubspaces_data() {
    QTest::addColumn<int>("type");
    for (JointType t : kAllJointTypes) QTest::newRow(std::string(jointTypeName(t)).c_str()) << static_cast<int>(t);
  }

  void jointSubspaces() {
    QFETCH(int, type);
    const JointType jt = static_cast<JointType>(type);
    SplitMixLike rng;
    for (int trial = 0; trial < 20; ++trial) {
      const Vec3 a1 = rng.unit(), a2 = a1.cross(rng.unit()).normalized();
      const JointModel j = JointModel::make(jt, a1, a2);
      std::vector<double> q(static_cast<std::size_t>(j.nq));
      for (double& x : q) x = rng.uniform(-2, 2);
      if (jt == JointType::Spherical || jt == JointType::Free) j.normalize(q.data());
      Mat6N S, T, D;
      j.motionSubspace(q.data(), S);
      j.constraintSubspace(q.data(), T);
      j.actuationSubspace(q.data(), D);
      QCOMPARE(S.cols(), j.nv);
      QCOMPARE(T.cols(), 6 - j.nv);
      QCOMPARE(D.cols(), j.nv);
      if (j.nv > 0 && j.nv < 6) QVERIFY2((S.transpose() * T).cwiseAbs().maxCoeff() < 1e-12, "S^T T != 0");
      if (j.nv > 0)
        QVERIFY2((S.transpose() * D - MatN::Identity(j.nv, j.nv)).cwiseAbs().maxCoeff() < 1e-12, "S^T D != 1");
      if (j.nv < 6)
        QVERIFY2((T.transpose() * T - MatN::Identity(6 - j.nv, 6 - j.nv)).cwiseAbs().maxCoeff() < 1e-12,
                 "T not orthonormal");
      Mat6 ST;
      ST << S, T;
      QVERIFY2(std::abs(ST.determinant()) > 1e-9, "[S T] is singular");
    }
  }

  // JointModel::placement (the solvers' X_J(q) X_T, with a shortcut for rotations about x, y, z)
  // equals the product of the two transforms, for every joint type and coordinate axis.
  void placementMatchesTransformProduct() {
    const Xform XT{rotationFromRpy(Vec3(0.3, -1.1, 2.0)), Vec3(0.2, -0.4, 0.7)};
    const Vec3 axes[] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 2, -2).normalized(), -Vec3::UnitZ()};
    const double q[7] = {0.8, 0.1, -0.3, 0.2, 0.5, -0.7, 0.4};  // a unit quaternion is normalized inside
    for (const JointType type : kAllJointTypes)
      for (const Vec3& a : axes) {
        const JointModel j = JointModel::make(type, a, Vec3::UnitY());
        const Xform fast = j.placement(q, XT), ref = j.transform(q) * XT;
        QVERIFY((fast.E - ref.E).norm() <= 1e-15 && (fast.r - ref.r).norm() <= 1e-15);
      }
    QCOMPARE(JointModel::make(JointType::Revolute, Vec3::UnitY(), Vec3::UnitX()).unitAxis, 1);
    QCOMPARE(JointModel::make(JointType::Revolute, -Vec3::UnitY(), Vec3::UnitX()).unitAxis, -1);
  }

  // A revolute joint's X_J from a kept cos q and sin q (revoluteTransform, revolutePlacement: a
  // run's output rebuilds the parent-side loads from the kinematics') is the very matrix of
  // Eigen's angle-axis rotation, bit for bit, on random axes and angles: the recorded numbers must
  // not move with the path that computed them.
  void revoluteTransformFromCosSinIsExact() {
    SplitMix64 rng(7);
    for (int n = 0; n < 2000; ++n) {
      const Vec3 axis = n % 4 == 0 ? Vec3::Unit(n % 3) : rng.unitVector();
      const JointModel j = JointModel::make(JointType::Revolute, axis, Vec3::UnitY());
      const double q = rng.uniform(-10.0, 10.0);
      const Mat3 eigen = Eigen::AngleAxisd(q, j.axis).toRotationMatrix().transpose();
      QVERIFY(j.transform(&q).E == eigen);
      QVERIFY(j.revoluteTransform(std::cos(q), std::sin(q)).E == eigen);
      const Xform XT{rotationFromRpy(Vec3(rng.uniform(-3, 3), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3))),
                     Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))};
      const Xform a = j.placement(&q, XT), b = j.revolutePlacement(std::cos(q), std::sin(q), XT);
      QVERIFY(a.E == b.E && a.r == b.r);
    }
  }

  void primitiveClosedForms() {
    const double rho = 850.0;
    Shape box;
    box.type = ShapeType::Box;
    box.size = Vec3(0.3, 0.5, 0.7);
    MassProperties p = ofShape(box, rho);
    const double mb = rho * 0.3 * 0.5 * 0.7;
    QVERIFY(relDiff(p.mass, mb) < 1e-14);
    QVERIFY(relDiff(p.inertia(0, 0), mb * (0.25 + 0.49) / 12) < 1e-14);
    QVERIFY(relDiff(p.inertia(2, 2), mb * (0.09 + 0.25) / 12) < 1e-14);

    Shape sphere;
    sphere.type = ShapeType::Sphere;
    sphere.radius = 0.2;
    p = ofShape(sphere, rho);
    const double ms = rho * 4.0 / 3.0 * kPi * 0.008;
    QVERIFY(relDiff(p.mass, ms) < 1e-14);
    QVERIFY(relDiff(p.inertia(1, 1), 0.4 * ms * 0.04) < 1e-14);

    Shape cyl;
    cyl.type = ShapeType::Cylinder;
    cyl.radius = 0.1;
    cyl.length = 0.8;
    p = ofShape(cyl, rho);
    const double mc = rho * kPi * 0.01 * 0.8;
    QVERIFY(relDiff(p.mass, mc) < 1e-14);
    QVERIFY(relDiff(p.inertia(0, 0), mc * (3 * 0.01 + 0.64) / 12) < 1e-14);
    QVERIFY(relDiff(p.inertia(2, 2), mc * 0.01 / 2) < 1e-14);

    // A capsule of length 0 is a sphere; its axial inertia is cylinder + sphere.
    Shape cap = cyl;
    cap.type = ShapeType::Capsule;
    cap.length = 0.0;
    cap.radius = 0.2;
    compareMass(ofShape(cap, rho), ofShape(sphere, rho), 1e-14);
    cap.radius = 0.1;
    cap.length = 0.8;
    sphere.radius = 0.1;
    const MassProperties pc = ofShape(cap, rho), ps = ofShape(sphere, rho), pcy = ofShape(cyl, rho);
    QVERIFY(relDiff(pc.mass, ps.mass + pcy.mass) < 1e-14);
    QVERIFY(relDiff(pc.inertia(2, 2), ps.inertia(2, 2) + pcy.inertia(2, 2)) < 1e-14);

    // A prism with many sides approaches the cylinder through its vertices.
    Shape prism = cyl;
    prism.type = ShapeType::Prism;
    prism.sides = 4000;
    compareMass(ofShape(prism, rho), ofShape(cyl, rho), 1e-5);
    // A square prism of circumradius r is a box with edges r√2.
    prism.sides = 4;
    Shape sq = box;
    sq.size = Vec3(0.1 * std::sqrt(2.0), 0.1 * std::sqrt(2.0), 0.8);
    compareMass(ofShape(prism, rho), ofShape(sq, rho), 1e-13);
  }

  void primitivesAgainstMeshes() {
    const double rho = 1200.0;
    Shape prism;
    prism.type = ShapeType::Prism;
    prism.radius = 0.8;
    prism.length = 1.2;
    for (int n : {3, 5, 6, 11}) {
      prism.sides = n;
      compareMass(ofShape(prism, rho), fromMesh(prismMesh(n, 0.8, 1.2), rho), 1e-12);
    }
    Shape cyl;
    cyl.type = ShapeType::Cylinder;
    cyl.radius = 0.15;
    cyl.length = 0.6;
    compareMass(ofShape(cyl, rho), fromMesh(prismMesh(3000, 0.15, 0.6), rho), 1e-5);
    Shape cap;
    cap.type = ShapeType::Capsule;
    cap.radius = 0.15;
    cap.length = 0.6;
    compareMass(ofShape(cap, rho), fromMesh(capsuleMesh(0.15, 0.6, 200, 400), rho), 2e-4);
    Shape sphere;
    sphere.type = ShapeType::Sphere;
    sphere.radius = 0.3;
    compareMass(ofShape(sphere, rho), fromMesh(capsuleMesh(0.3, 0.0, 200, 400), rho), 2e-4);
  }

  void placementUsesParallelAxes() {
    // Independent path: transform the spatial inertia of the shape (in its own frame) into the
    // body frame with Plücker transforms, and compare with the mass properties of the placed shape.
    Shape box;
    box.type = ShapeType::Box;
    box.size = Vec3(0.2, 0.4, 1.0);
    box.origin.xyz = Vec3(0.3, -0.2, 0.5);
    box.origin.rpy = Vec3(0.4, -0.7, 1.1);
    const MassProperties placed = ofShape(box, 500.0);
    Shape local = box;
    local.origin = Placement{};
    const MassProperties own = ofShape(local, 500.0);
    const Mat6 expected = transformInertiaToParent(
        box.origin.transformFromParent(), Inertia::fromMassComInertia(own.mass, own.com, own.inertia).matrix());
    const Mat6 got = Inertia::fromMassComInertia(placed.mass, placed.com, placed.inertia).matrix();
    QVERIFY((got - expected).norm() < 1e-12 * expected.norm());

    // The same with a quaternion placement.
    box.origin.useQuaternion = true;
    box.origin.quat = Eigen::Vector4d(0.3, -0.5, 0.2, 0.7).normalized();
    const MassProperties q = ofShape(box, 500.0);
    const Mat6 eq = transformInertiaToParent(box.origin.transformFromParent(),
                                             Inertia::fromMassComInertia(own.mass, own.com, own.inertia).matrix());
    QVERIFY((Inertia::fromMassComInertia(q.mass, q.com, q.inertia).matrix() - eq).norm() < 1e-12 * eq.norm());
  }

  void bodyFromShapesCombines() {
    // Two equal spheres at ±d on x: com at 0, Iyy = Izz = 2(2/5 m r² + m d²), Ixx = 2 · 2/5 m r².
    BodySpec b = makeBody("dumbbell", "world", JointType::Revolute);
    b.inertial.fromShapes = true;
    b.inertial.density = 2000;
    Shape s;
    s.type = ShapeType::Sphere;
    s.radius = 0.1;
    s.origin.xyz = Vec3(0.5, 0, 0);
    b.shapes.push_back(s);
    s.origin.xyz = Vec3(-0.5, 0, 0);
    b.shapes.push_back(s);
    const MassProperties p = bodyMassProperties(b, {}, meshFiles());
    const double m = 2000 * 4.0 / 3.0 * kPi * 1e-3;
    QVERIFY(relDiff(p.mass, 2 * m) < 1e-14);
    QVERIFY(p.com.norm() < 1e-15);
    QVERIFY(relDiff(p.inertia(0, 0), 2 * 0.4 * m * 0.01) < 1e-13);
    QVERIFY(relDiff(p.inertia(1, 1), 2 * (0.4 * m * 0.01 + m * 0.25)) < 1e-13);
    QVERIFY(std::abs(p.inertia(0, 1)) < 1e-15);
    // An explicit inertial block is returned as given.
    const BodySpec e = makeBody("e", "world", JointType::Revolute);
    const MassProperties pe = bodyMassProperties(e, {}, meshFiles());
    QCOMPARE(pe.mass, 2.0);
    QVERIFY(pe.inertia == e.inertial.inertia);
  }

  void meshCubeMatchesBox() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Vec3 size(0.3, 0.5, 0.7), centre(0.1, -0.2, 0.4);
    const TriangleMesh cube = boxMesh(size, centre);
    writeAsciiStl(dir.filePath("cube_ascii.stl").toStdString(), cube);
    writeBinaryStl(dir.filePath("cube_binary.STL").toStdString(), cube);
    {
      std::ofstream obj(dir.filePath("cube.obj").toStdString());
      obj << "# cube\no cube\n";
      for (const Vec3& v : cube.vertices) obj << "v " << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
      obj << "vn 0 0 1\n";
      const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
      for (const auto& q : quads)
        obj << "f " << q[0] + 1 << "/1/1 " << q[1] + 1 << "//1 " << q[2] + 1 << ' ' << q[3] - 8 << '\n';
    }
    Model model;
    model.sourceDirectory = dir.path().toStdString();
    BodySpec boxBody = makeBody("box", "world", JointType::Revolute);
    boxBody.inertial.fromShapes = true;
    boxBody.inertial.density = 750;
    Shape box;
    box.type = ShapeType::Box;
    box.size = size;
    box.origin.xyz = centre;
    boxBody.shapes = {box};
    const MassProperties expected = bodyMassProperties(boxBody, {}, meshFiles());
    for (const char* file : {"cube_ascii.stl", "cube_binary.STL", "cube.obj"}) {
      BodySpec meshBody = boxBody;
      Shape mesh;
      mesh.type = ShapeType::Mesh;
      mesh.mesh = file;
      meshBody.shapes = {mesh};
      MassProperties got;
      std::string error;
      QVERIFY2(bodyMassProperties(meshBody, model.sourceDirectory, meshFiles(), got, error), error.c_str());
      // ASCII and OBJ text carry 6 significant digits, binary STL floats: the cube's numbers are exact in both.
      compareMass(got, expected, 1e-6);
      // Scaled and placed: a unit-size mesh scaled to the box, rotated a quarter turn about z.
      model.bodies = {meshBody};
      QVERIFY2(validate(model).empty(), formatDiagnostics(validate(model)).c_str());
    }
    // Inward-facing triangles describe the same solid.
    TriangleMesh flipped = cube;
    for (auto& t : flipped.triangles) std::swap(t[1], t[2]);
    compareMass(fromMesh(flipped, 750), expected, 1e-12);
    // Scale: a unit cube scaled by the box's size.
    {
      std::ofstream(dir.filePath("unit.obj").toStdString()) << [] {
        std::string s;
        const TriangleMesh u = boxMesh(Vec3(1, 1, 1), Vec3::Zero());
        for (const Vec3& v : u.vertices)
          s += "v " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + "\n";
        for (const auto& t : u.triangles)
          s += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " + std::to_string(t[2] + 1) + "\n";
        return s;
      }();
      Shape scaled;
      scaled.type = ShapeType::Mesh;
      scaled.mesh = "unit.obj";
      scaled.meshScale = size;
      scaled.origin.xyz = centre;
      compareMass(ofShape(scaled, 750, dir.path().toStdString()), expected, 1e-12);
    }
  }

  void meshReadersReportProblems() {
    TriangleMesh m;
    std::string error;
    QVERIFY(!parseObj("v 0 0 0\nv 1 0 0\nf 1 2 3\n", m, error));
    QVERIFY(error.find("vertex index '3' is out of range") != std::string::npos);
    QVERIFY(!parseStl("solid x\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0\n", m, error));
    QVERIFY(error.find("line 4") != std::string::npos);
    QVERIFY(!parseObj("# nothing\n", m, error));
    QVERIFY(!readMesh("/nonexistent/mesh.stl", m, error));
    QVERIFY(error.find("does not exist") != std::string::npos);
    QVERIFY(!readMesh(std::string(KINETREE_TEST_DATA) + "/malformed/expected.txt", m, error));
    QVERIFY(error.find("unsupported extension; expected an .stl, .obj, .dae, .ply, .gltf or .glb file") !=
            std::string::npos);
    QCOMPARE(resolveMeshPath("a/b.stl", "/models"), std::string("/models/a/b.stl"));
    QCOMPARE(resolveMeshPath("/abs/b.stl", "/models"), std::string("/abs/b.stl"));
  }

  // The meshes robots ship with, through Assimp (core/io/mesh.hpp): a COLLADA box of 10 × 20 × 30 cm
  // in two parts with a red and a blue material comes in in metres, with its coordinates as
  // authored whether the file says Z up or Y up, its triangles coloured by part, closed and of the
  // box's mass; a PLY's vertex colours colour its triangles; a truncated file is refused naming
  // the file and the format.
  void meshesRobotsShipWith() {
    const std::string dir = std::string(KINETREE_TEST_DATA) + "/meshes/";
    Shape box;
    box.type = ShapeType::Box;
    box.size = Vec3(0.1, 0.2, 0.3);
    box.origin.xyz = Vec3(0.05, 0.1, 0.15);
    const MassProperties expected = ofShape(box, 1000, {});
    for (const char* file : {"box_cm_zup.dae", "box_cm_yup.dae"}) {
      TriangleMesh m;
      std::string error;
      QVERIFY2(readMesh(dir + file, m, error), error.c_str());
      QCOMPARE(m.triangles.size(), std::size_t{12});
      Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
      for (const Vec3& v : m.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
      QVERIFY2((lo - Vec3::Zero()).norm() < 1e-7 && (hi - Vec3(0.1, 0.2, 0.3)).norm() < 1e-7, file);
      QVERIFY2(checkClosedSurface(m, error), error.c_str());
      compareMass(fromMesh(m, 1000), expected, 1e-6);
      QCOMPARE(m.colors.size(), std::size_t{12});
      int red = 0, blue = 0;
      for (const auto& c : m.colors) {
        red += std::abs(c[0] - 0.8f) < 1e-6f && std::abs(c[2] - 0.1f) < 1e-6f;
        blue += std::abs(c[0] - 0.1f) < 1e-6f && std::abs(c[2] - 0.9f) < 1e-6f;
      }
      QCOMPARE(red, 6);
      QCOMPARE(blue, 6);
    }
    TriangleMesh tetra;
    std::string error;
    QVERIFY2(readMesh(dir + "tetra_colors.ply", tetra, error), error.c_str());
    QCOMPARE(tetra.triangles.size(), std::size_t{4});
    QVERIFY(std::abs(fromMesh(tetra, 6.0).mass - 1.0) < 1e-12);  // volume 1/6
    QCOMPARE(tetra.colors.size(), std::size_t{4});
    QVERIFY(tetra.colors[0][0] == 1.0f && tetra.colors[0][1] == 0.0f);
    // STL and OBJ carry no colours
    QVERIFY(isMeshExtension(".DAE") && isMeshExtension(".glb") && !isMeshExtension(".3ds"));
    const std::string truncated = std::string(KINETREE_TEST_DATA) + "/malformed/truncated.dae";
    QVERIFY(!readMesh(truncated, tetra, error));
    QVERIFY2(error.rfind("mesh file '" + truncated + "': COLLADA: ", 0) == 0, error.c_str());
  }

  // Mesh files that crashed or hung the reader are refused with a message: a PLY face index out
  // of range, COLLADA nodes nested 20,000 deep and a glTF chain of 5,000 nodes (Assimp recurses
  // once per level), a glTF whose buffer is a FIFO (it would never end) or lies outside its folder.
  void hostileMeshFilesAreRefused() {
    TriangleMesh m;
    std::string error;
    QVERIFY(!readMesh(std::string(KINETREE_TEST_DATA) + "/malformed/bad_index.ply", m, error));
    QVERIFY2(error.find("PLY: ") != std::string::npos, error.c_str());
    QTemporaryDir dir;
    const auto write = [&](const char* name, const std::string& text) {
      std::ofstream(dir.filePath(name).toStdString(), std::ios::binary) << text;
      return dir.filePath(name).toStdString();
    };
    std::string dae =
        "<?xml version='1.0'?><COLLADA xmlns='http://www.collada.org/2005/11/COLLADASchema' "
        "version='1.4.1'><library_visual_scenes><visual_scene id='s'>";
    for (int k = 0; k < 20000; ++k) dae += "<node>";
    for (int k = 0; k < 20000; ++k) dae += "</node>";
    dae += "</visual_scene></library_visual_scenes></COLLADA>";
    QVERIFY(!readMesh(write("deep.dae", dae), m, error));
    QVERIFY2(error.find("COLLADA: line 1") != std::string::npos && error.find("nested") != std::string::npos,
             error.c_str());
    std::string nodes;
    for (int k = 0; k < 5000; ++k)
      nodes += std::string(k ? "," : "") + "{\"children\":[" + std::to_string(k + 1) + "]}";
    const std::string chain =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[" +
        nodes + ",{}]}";
    QVERIFY(!readMesh(write("chain.gltf", chain), m, error));
    QVERIFY2(error.find("glTF: more than 1000 nodes with children") != std::string::npos, error.c_str());
    // a triangle whose buffer is elsewhere: a FIFO beside it, a file outside its folder
    const std::string triangle =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[1,1,0]}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
        "\"buffers\":[{\"uri\":\"URI\",\"byteLength\":36}]}";
    const auto withUri = [&](const std::string& uri) {
      std::string t = triangle;
      t.replace(t.find("URI"), 3, uri);
      return t;
    };
    QVERIFY(mkfifo(dir.filePath("fifo.bin").toLocal8Bit().constData(), 0600) == 0);
    QVERIFY(!readMesh(write("fifo.gltf", withUri("fifo.bin")), m, error));
    QVERIFY(QDir(dir.path()).mkpath("inner"));
    const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    std::ofstream(dir.filePath("outside.bin").toStdString(), std::ios::binary)
        .write(reinterpret_cast<const char*>(corners), sizeof corners);
    QVERIFY(!readMesh(write("inner/out.gltf", withUri("../outside.bin")), m, error));
    std::ofstream(dir.filePath("inner/inside.bin").toStdString(), std::ios::binary)
        .write(reinterpret_cast<const char*>(corners), sizeof corners);
    QVERIFY2(readMesh(write("inner/in.gltf", withUri("inside.bin")), m, error), error.c_str());  // the same, beside it
    QCOMPARE(m.triangles.size(), std::size_t{1});
    QVERIFY(m.colors.empty());  // no material: the shape's colour draws it
    // a material without a name is still the file's colour
    std::string red = withUri("inside.bin");
    red.replace(red.find("{\"attributes\""), 1, "{\"material\":0,");
    red.insert(red.size() - 1, ",\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,0.5]}}]");
    QVERIFY2(readMesh(write("inner/red.gltf", red), m, error), error.c_str());
    QCOMPARE(m.colors.size(), std::size_t{1});
    QVERIFY(m.colors[0][0] == 1.0f && m.colors[0][1] == 0.0f && m.colors[0][3] == 1.0f);  // OPAQUE by default
  }

  // The remembered verdict of a display mesh follows the file when it changes.
  void meshVerdictFollowsTheFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("quad.obj").toStdString();
    { std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"; }
    std::string error;
    QVERIFY2(meshFileReadable(path, error), error.c_str());
    QVERIFY2(meshFileReadable(path, error), error.c_str());
    { std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 40\n"; }
    QVERIFY(!meshFileReadable(path, error));
    QVERIFY2(error.find("vertex index '40' is out of range") != std::string::npos, error.c_str());
    std::filesystem::remove(path);
    QVERIFY(!meshFileReadable(path, error));
    QVERIFY2(error.find("does not exist") != std::string::npos, error.c_str());
  }

  // Plausibility warnings: a placeholder inertia far larger than the body's shapes, a moving body
  // lighter than a gram; lower > upper limits stay an error of validate().
  void implausibleInertialsWarn() {
    Model m;
    m.bodies = {makeBody("arm", "world", JointType::Revolute), makeBody("hand", "arm", JointType::Revolute),
                makeBody("tag", "hand", JointType::Fixed)};
    Shape box;
    box.size = Vec3(0.1, 0.08, 0.06);
    box.origin.xyz = Vec3(0, 0, 0.02);  // half-extents 0.05, 0.04, 0.03
    m.bodies[1].shapes = {box};
    m.bodies[1].inertial.mass = 0.4;
    m.bodies[1].inertial.inertia = Mat3::Identity();  // sqrt(1 / 0.4) = 1.58 m
    m.bodies[2].inertial.mass = 1e-4;                 // fixed: carried by its parent, no warning
    m.bodies[0].inertial.mass = 1e-4;
    m.bodies[0].inertial.inertia = Mat3::Identity() * 1e-8;
    QVERIFY(validate(m).empty());
    std::vector<Diagnostic> ws = modelWarnings(m);
    QCOMPARE(ws.size(), std::size_t(2));
    QVERIFY(hasProblem(ws, "bodies[1].inertial.inertia", "body 'hand' has a radius of gyration of 1.58 m"));
    QVERIFY(hasProblem(ws, "bodies[1].inertial.inertia", "half-extent of its shapes, 0.05 m"));
    QVERIFY(
        hasProblem(ws, "bodies[0].inertial.mass", "body 'arm' moves on its joint but has a mass of only 0.0001 kg"));
    QVERIFY(ws.front().warning);
    // A plausible hand (a 5 cm box of 0.4 kg) and arm: no warning.
    m.bodies[1].inertial.inertia = Mat3::Identity() * 4e-4;  // radius of gyration 3.2 cm
    m.bodies[0].inertial.mass = 2.0;
    QVERIFY(modelWarnings(m).empty());
    // A rotated shape counts by its extent in the body frame: a 2 m rod along x.
    Shape rod;
    rod.type = ShapeType::Cylinder;
    rod.radius = 0.01;
    rod.length = 2.0;
    rod.origin.rpy = Vec3(0, std::numbers::pi / 2, 0);
    m.bodies[1].shapes = {rod};
    m.bodies[1].inertial.inertia = Mat3::Identity();
    QVERIFY(modelWarnings(m).empty());  // 1.58 m < 10 × 1 m
    m.bodies[1].joint.limits = {{1.0, -1.0}};
    QVERIFY(hasProblem(validate(m), "bodies[1].joint.limits[0]", "is greater than upper limit"));
  }

  void validatorCodeOnlyChecks() {
    Model m;
    m.bodies = {makeBody("a", "world", JointType::Revolute), makeBody("b", "a", JointType::Universal)};
    QVERIFY(validate(m).empty());
    m.bodies[0].inertial.inertia(0, 1) = 0.01;  // not mirrored: only possible in code
    m.bodies[1].joint.origin.xyz.x() = std::nan("");
    m.bodies[1].joint.axis2 = -3 * m.bodies[1].joint.axis;
    m.bodies[1].appliedWrench[4] = INFINITY;
    m.simulation.integrator = "rk45";
    m.name.clear();
    const auto ds = validateWithSettings(m);
    QVERIFY(hasProblem(ds, "bodies[0].inertial.inertia", "must be symmetric"));
    QVERIFY(hasProblem(ds, "bodies[1].joint.origin.xyz[0]", "must be a finite number, got .nan"));
    QVERIFY(hasProblem(ds, "bodies[1].joint.axis2", "is parallel to axis"));
    QVERIFY(hasProblem(ds, "bodies[1].applied_wrench.force[1]", "must be a finite number, got .inf"));
    QVERIFY(hasProblem(ds, "simulation.integrator", "unknown integrator 'rk45'"));
    QVERIFY(hasProblem(ds, "name", "must not be empty"));
    QCOMPARE(ds.size(), std::size_t(6));
    // Diagnostics from validate carry no position; format() leaves it out.
    QCOMPARE(ds.front().line, 0);
    QVERIFY(ds.front().format().rfind("error: ", 0) == 0);
  }

  void meshesComeFromTheCallersSource() {
    // The model layer reads no files: a source that holds its meshes in memory serves validate,
    // the mass properties and finalize alike.
    struct InMemory final : MeshSource {
      std::map<std::string, TriangleMesh> meshes;
      mutable int reads = 0;
      bool read(const std::string& path, TriangleMesh& mesh, std::string& error) const override {
        ++reads;
        const auto it = meshes.find(path);
        if (it == meshes.end()) {
          error = "mesh file '" + path + "' is not in memory";
          return false;
        }
        mesh = it->second;
        return true;
      }
      bool readable(const std::string& path, std::string& error) const override {
        TriangleMesh unused;
        return read(path, unused, error);
      }
    } source;
    const Vec3 size(0.3, 0.5, 0.7);
    source.meshes["/nowhere/cube.stl"] = boxMesh(size, Vec3::Zero());
    Model m;
    m.sourceDirectory = "/nowhere";
    m.bodies = {makeBody("a", "world", JointType::Revolute)};
    m.bodies[0].inertial.fromShapes = true;
    m.bodies[0].inertial.density = 2.0;
    Shape mesh;
    mesh.type = ShapeType::Mesh;
    mesh.mesh = "cube.stl";
    m.bodies[0].shapes = {mesh};
    QVERIFY2(validate(m, source).empty(), formatDiagnostics(validate(m, source)).c_str());
    QVERIFY(source.reads > 0);
    const Tree tree = finalizeOrThrow(m, source);
    QVERIFY(std::abs(tree.I[0].m - 2.0 * size.prod()) < 1e-12);
    // The files on disk have no such mesh.
    QVERIFY(hasProblem(validate(m), "bodies[0].shapes[0].file", "mesh file '/nowhere/cube.stl' does not exist"));
    m.bodies[0].shapes[0].mesh = "other.stl";
    QVERIFY(hasProblem(validate(m, source), "bodies[0].shapes[0].file", "is not in memory"));
  }

  void simulationProblemsShareTheCap() {
    // The model's problems, then the simulation: block's, kept to kMaxDiagnostics with one
    // closing line that counts the rest, as a single list would be.
    Model m;
    for (std::size_t k = 0; k < kMaxDiagnostics - 1; ++k)
      m.bodies.push_back(makeBody("b" + std::to_string(k), "nowhere" + std::to_string(k), JointType::Revolute));
    m.simulation.solver = "abba";
    m.simulation.integrator = "rk5";
    m.simulation.step = -1;
    QCOMPARE(validate(m).size(), kMaxDiagnostics - 1);
    QCOMPARE(checkSimulationSettings(m.simulation).size(), std::size_t(3));
    const auto ds = validateWithSettings(m);
    QCOMPARE(ds.size(), kMaxDiagnostics + 1);
    QCOMPARE(ds[kMaxDiagnostics - 1].path, std::string("simulation.solver"));
    QCOMPARE(ds.back().omitted, std::size_t(2));
    QCOMPARE(problemCount(ds), kMaxDiagnostics + 2);
    QCOMPARE(ds.back().message, std::string("... and 2 more problems (the first 100 are shown)"));
  }

  void validatorFindsEveryCycle() {
    Model m;
    m.bodies = {makeBody("root", "world", JointType::Free), makeBody("x", "y", JointType::Revolute),
                makeBody("y", "x", JointType::Revolute),    makeBody("p", "q", JointType::Revolute),
                makeBody("q", "r", JointType::Revolute),    makeBody("r", "p", JointType::Revolute),
                makeBody("leaf", "r", JointType::Revolute)};
    const auto ds = validate(m);
    QCOMPARE(ds.size(), std::size_t(2));
    QVERIFY(hasProblem(ds, "bodies[1].parent", "'x' → 'y' → 'x'"));
    QVERIFY(hasProblem(ds, "bodies[3].parent", "'p' → 'q' → 'r' → 'p'"));
  }

 private:
  struct SplitMixLike {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    double uniform(double a, double b) {
      s += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = s;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      return a + (b - a) * static_cast<double>(z >> 11) * 0x1.0p-53;
    }
    Vec3 unit() { return Vec3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized(); }
  };
};

QTEST_GUILESS_MAIN(TestModel)
#include "test_model.moc"
