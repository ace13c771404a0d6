// SPDX-License-Identifier: BSD-3-Clause
// URDF import and export (core/io/urdf/urdf.hpp) on robots written for these tests (tests/data/urdf):
// a 7-DoF arm, a humanoid package with meshes and fixed frames, a planar and a floating robot,
// and malformed files. The imported mass distribution is checked against one computed directly
// from liburdfdom's poses; a YAML → URDF → YAML round trip keeps q̈ and the joint loads.
#include <urdf_parser/urdf_parser.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <numbers>

#include "core/dynamics/solver.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/io/urdf/xml_limits.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/geometry/physical_inertia.hpp"
#include "core/model/text_util.hpp"
#include "support/cli_runner.hpp"
#include "support/random_state.hpp"

namespace {

using namespace kt;

std::string urdfFile(const char* name) { return std::string(KINETREE_TEST_DATA "/urdf/") + name; }
const char* kHumanoid = "kt_humanoid/urdf/humanoid.urdf";
const std::string kArm = KINETREE_SOURCE_DIR "/examples/arm7.urdf";  // shipped as an example

// Mass, centre of mass and inertia about it, in the world frame at the neutral position.
struct Distribution {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};

Distribution combine(const std::vector<std::tuple<double, Vec3, Mat3>>& parts) {  // (m, com, I about com), world
  Distribution d;
  for (const auto& [m, c, I] : parts) d.mass += m, d.com += m * c;
  d.com /= d.mass;
  for (const auto& [m, c, I] : parts) {
    const Vec3 r = c - d.com;
    d.inertia += I + m * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  return d;
}

// From liburdfdom's own poses, independently of the importer: every link with an inertial.
Distribution urdfDistribution(const std::string& path) {
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDFFile(path);
  std::vector<std::tuple<double, Vec3, Mat3>> parts;
  const auto toIso = [](const urdf::Pose& p) {
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).toRotationMatrix();
    T.translation() = Vec3(p.position.x, p.position.y, p.position.z);
    return T;
  };
  const std::function<void(const urdf::LinkConstSharedPtr&, const Eigen::Isometry3d&)> walk =
      [&](const urdf::LinkConstSharedPtr& link, const Eigen::Isometry3d& T) {
        if (link->inertial && link->inertial->mass > 0) {
          const urdf::Inertial& in = *link->inertial;
          const Eigen::Isometry3d F = T * toIso(in.origin);
          Mat3 I;
          I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
          parts.emplace_back(in.mass, F.translation(), F.linear() * I * F.linear().transpose());
        }
        for (const auto& j : link->child_joints)
          walk(model->getLink(j->child_link_name), T * toIso(j->parent_to_joint_origin_transform));
      };
  walk(model->getRoot(), Eigen::Isometry3d::Identity());
  return combine(parts);
}

// The same from a Kinetree model, each body placed by its joint origins at the neutral position.
Distribution modelDistribution(const Model& model) {
  std::vector<std::tuple<double, Vec3, Mat3>> parts;
  std::vector<Eigen::Isometry3d> pose(model.bodies.size());
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const BodySpec& b = model.bodies[k];
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.linear() = b.joint.origin.rotation();
    T.translation() = b.joint.origin.xyz;
    const int parent = model.findBody(b.parent);
    if (parent >= static_cast<int>(k)) throw std::runtime_error("a parent after its child");
    pose[k] = parent < 0 ? T : pose[parent] * T;
    const MassProperties mp = bodyMassProperties(b, model.sourceDirectory, meshFiles());
    const Mat3 R = pose[k].linear();
    parts.emplace_back(mp.mass, pose[k] * mp.com, R * mp.inertia * R.transpose());
  }
  return combine(parts);
}

void compareDistributions(const Distribution& a, const Distribution& b) {
  QVERIFY2(std::abs(a.mass - b.mass) <= 1e-13 * b.mass, qPrintable(QString("%1 vs %2").arg(a.mass).arg(b.mass)));
  QVERIFY((a.com - b.com).norm() <= 1e-13);
  QVERIFY2((a.inertia - b.inertia).norm() <= 1e-12 * b.inertia.norm(),
           qPrintable(QString("inertia differs by %1").arg((a.inertia - b.inertia).norm())));
}

bool hasWarning(const UrdfImport& r, const QString& text, int line = 0) {
  for (const Diagnostic& d : r.warnings)
    if (QString::fromStdString(d.format()).contains(text) && (line == 0 || d.line == line)) return true;
  return false;
}

QString allWarnings(const UrdfImport& r) { return QString::fromStdString(formatDiagnostics(r.warnings)); }

const BodySpec& body(const Model& m, const char* name) {
  const int k = m.findBody(name);
  if (k < 0) throw std::runtime_error(std::string("no body ") + name);
  return m.bodies[static_cast<std::size_t>(k)];
}

int lineOf(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return -1;
}

// The 1-based column where `text` starts on its line (the files are ASCII: bytes are characters).
int columnOf(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (const std::size_t at = line.find(text); at != std::string::npos) return static_cast<int>(at) + 1;
  return -1;
}

// The diagnostics of an import that must fail (none when it succeeds).
std::vector<Diagnostic> importErrors(const std::string& xml, const std::string& name = "hostile.urdf") {
  try {
    importUrdfString(xml, name, std::string());
  } catch (const ModelLoadError& e) {
    return e.diagnostics();
  }
  return {};
}

// A link with a unit mass and what `inside` adds to it, as the generated robots below use it.
std::string massiveLink(const std::string& name, const std::string& inside = {}) {
  return "<link name=\"" + name +
         "\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" "
         "iyz=\"0\"/></inertial>" +
         inside + "</link>\n";
}

// q̈ and loads of two models of the same robot, at the same random states, joint by joint.
void compareDynamics(const Model& a, const Model& b, int states) {
  const Tree ta = finalizeOrThrow(a), tb = finalizeOrThrow(b);
  QCOMPARE(tb.nb, ta.nb);
  QCOMPARE(tb.nv, ta.nv);
  for (int s = 0; s < states; ++s) {
    const test::RandomState x = test::randomState(ta, 100 + s);
    VectorX qb(tb.nq), vb(tb.nv), taub(tb.nv);
    std::vector<int> ofB(ta.nb);  // body of b for each body of a
    for (int i = 0; i < ta.nb; ++i) {
      const int j = tb.bodyIndex(ta.bodyNames[i]);
      QVERIFY2(j >= 0, ta.bodyNames[i].c_str());
      QCOMPARE(tb.joints[j].nq, ta.joints[i].nq);
      ofB[i] = j;
      qb.segment(tb.qOffset[j], tb.joints[j].nq) = x.q.segment(ta.qOffset[i], ta.joints[i].nq);
      vb.segment(tb.vOffset[j], tb.joints[j].nv) = x.v.segment(ta.vOffset[i], ta.joints[i].nv);
      taub.segment(tb.vOffset[j], tb.joints[j].nv) = x.tau.segment(ta.vOffset[i], ta.joints[i].nv);
    }
    VectorX qddA(ta.nv), qddB(tb.nv);
    JointLoads la, lb;
    la.resize(ta);
    lb.resize(tb);
    makeSolver("aba", ta)->forwardDynamics(x.q, x.v, x.tau, {}, qddA, &la);
    makeSolver("aba", tb)->forwardDynamics(qb, vb, taub, {}, qddB, &lb);
    double qddScale = 1.0, loadScale = 1.0;
    for (int i = 0; i < ta.nb; ++i) loadScale = std::max(loadScale, la.f[i].cwiseAbs().maxCoeff());
    qddScale = std::max(qddScale, qddA.cwiseAbs().maxCoeff());
    for (int i = 0; i < ta.nb; ++i) {
      const int j = ofB[i];
      // a fixed joint has no coordinates: maxCoeff of its empty segment is undefined
      const int nv = ta.joints[i].nv;
      const double dq =
          nv == 0 ? 0.0 : (qddA.segment(ta.vOffset[i], nv) - qddB.segment(tb.vOffset[j], nv)).cwiseAbs().maxCoeff();
      const double df = (la.f[i] - lb.f[j]).cwiseAbs().maxCoeff();
      QVERIFY2(dq <= 1e-12 * qddScale,
               qPrintable(QString::fromStdString(ta.bodyNames[i]) + QString(": qdd differs by %1").arg(dq)));
      QVERIFY2(df <= 1e-12 * loadScale,
               qPrintable(QString::fromStdString(ta.bodyNames[i]) + QString(": load differs by %1").arg(df)));
    }
  }
}

}  // namespace

class TestUrdf : public QObject {
  Q_OBJECT

 private slots:
  // The 7-DoF arm: joint types, limits, the massless flange and tool0 frames merged into the last
  // link, materials by name and inline, the elements Kinetree does not use listed with their lines.
  void arm() {
    const std::string path = kArm;
    const UrdfImport r = importUrdfFile(path);
    const Model& m = r.model;
    QCOMPARE(m.name, std::string("kt_arm7"));
    QCOMPARE(m.bodies.size(), std::size_t(8));  // base_link and a1..a7 links; world is the world
    QCOMPARE(body(m, "base_link").parent, std::string("world"));
    QCOMPARE(body(m, "base_link").joint.type, JointType::Fixed);
    for (const char* link : {"a1_link", "a2_link", "a3_link", "a4_link", "a5_link", "a6_link"}) {
      QCOMPARE(body(m, link).joint.type, JointType::Revolute);
      QCOMPARE(body(m, link).joint.limits.size(), std::size_t(1));
    }
    QCOMPARE(body(m, "a7_link").joint.type, JointType::Revolute);  // continuous: no limits
    QVERIFY(body(m, "a7_link").joint.limits.empty());
    QCOMPARE(body(m, "a1_link").joint.name, std::string("a1"));
    QCOMPARE(body(m, "a1_link").joint.limits[0].lower, -2.96706);
    QCOMPARE(m.findBody("flange"), -1);
    QCOMPARE(m.findBody("tool0"), -1);
    QVERIFY(hasWarning(r,
                       "links without mass merged into their parents across fixed joints: tool0 -> flange, "
                       "flange -> a7_link"));
    // the flange's visual (at z 0.005 in the flange, 0.045 from a7_link) moved onto a7_link
    QCOMPARE(body(m, "a7_link").shapes.size(), std::size_t(2));
    QCOMPARE(body(m, "a7_link").shapes[1].origin.xyz, Vec3(0, 0, 0.045 + 0.005));
    QCOMPARE(body(m, "a7_link").shapes[1].radius, 0.035);
    for (const auto& [text, element] : std::vector<std::pair<QString, std::string>>{
             {"<collision> geometry is not used", "<collision>"},
             {"<dynamics> damping and friction are not applied (give the joint a spring_damper drive instead): a1",
              "<dynamics"},
             {"<transmission> is not used by Kinetree; left out: a1_transmission", "<transmission"},
             {"<gazebo> is not used by Kinetree; left out: a1_link", "<gazebo"}})
      QVERIFY2(hasWarning(r, text, lineOf(path, element)), qPrintable(allWarnings(r)));
    // a colour from a named material, exactly as written
    QCOMPARE(body(m, "base_link").shapes[0].color, Eigen::Vector4d(0.5, 0.5, 0.5, 1.0));
    compareDistributions(modelDistribution(m), urdfDistribution(path));
  }

  // The humanoid package: package:// meshes found by walking up from the URDF, the missing one
  // named, massless frames merged, a massless moving link made valid by the link fixed to it,
  // --floating, --merge-fixed.
  void humanoid() {
    const std::string path = urdfFile(kHumanoid);
    UrdfImportOptions options;
    options.floatingBase = true;
    const UrdfImport r = importUrdfFile(path, options);
    const Model& m = r.model;
    QCOMPARE(m.bodies.front().name, std::string("pelvis"));
    QCOMPARE(m.bodies.front().joint.type, JointType::Free);
    QCOMPARE(body(m, "torso").joint.type, JointType::Fixed);  // fixed joints stay by default
    QCOMPARE(m.findBody("imu_link"), -1);
    QCOMPARE(m.findBody("camera_link"), -1);
    QCOMPARE(m.findBody("l_hip_yaw_housing"), -1);
    QVERIFY(body(m, "l_hip_yaw_link").inertial.mass > 0);
    QVERIFY(hasWarning(r,
                       "links merged into a moving link without mass, which then has their mass: "
                       "l_hip_yaw_housing -> l_hip_yaw_link"));
    bool headMesh = false;
    for (const Shape& s : body(m, "head").shapes)
      if (s.type == ShapeType::Mesh) {
        headMesh = true;
        QVERIFY(std::filesystem::path(s.mesh).is_absolute());  // no directory given: absolute
        QVERIFY(std::filesystem::exists(s.mesh));
        QVERIFY(s.mesh.ends_with("kt_humanoid/meshes/head.obj"));
      }
    QVERIFY(headMesh);
    QVERIFY2(hasWarning(r, "mesh files not found", lineOf(path, "missing_glove")), qPrintable(allWarnings(r)));
    QVERIFY(hasWarning(r, "package://kt_humanoid/meshes/missing_glove.stl"));
    QVERIFY(hasWarning(r, "<mimic> is not supported: these joints move independently: l_finger2_joint"));
    QVERIFY(hasWarning(r, "<sensor> is not used by Kinetree; left out: head_camera", lineOf(path, "<sensor")));
    compareDistributions(modelDistribution(m), urdfDistribution(path));

    options.mergeFixed = true;
    const UrdfImport merged = importUrdfFile(path, options);
    QCOMPARE(merged.model.findBody("torso"), -1);
    QCOMPARE(merged.model.findBody("l_hand"), -1);
    for (const BodySpec& b : merged.model.bodies)
      if (&b != &merged.model.bodies.front()) QVERIFY(b.joint.type != JointType::Fixed);
    compareDistributions(modelDistribution(merged.model), urdfDistribution(path));
    // merging a fixed joint does not change the dynamics of the rest
    compareDistributions(modelDistribution(merged.model), modelDistribution(m));

    // without --floating the pelvis is fixed to the world
    QCOMPARE(importUrdfFile(path).model.bodies.front().joint.type, JointType::Fixed);
    // mesh paths relative to where the model will be saved
    options.meshBaseDirectory = KINETREE_TEST_DATA;
    const UrdfImport relative = importUrdfFile(path, options);
    for (const Shape& s : body(relative.model, "head").shapes)
      if (s.type == ShapeType::Mesh) QCOMPARE(s.mesh, std::string("urdf/kt_humanoid/meshes/head.obj"));
    QVERIFY(validate(relative.model).empty());
    // a package found through --package-path when the URDF is elsewhere
    QTemporaryDir dir;
    const std::string moved = dir.filePath("humanoid.urdf").toStdString();
    std::filesystem::copy_file(path, moved);
    UrdfImportOptions elsewhere;
    QVERIFY(hasWarning(importUrdfFile(moved, elsewhere), "head.obj"));
    elsewhere.packagePaths = {KINETREE_TEST_DATA "/urdf"};
    QVERIFY(!hasWarning(importUrdfFile(moved, elsewhere), "head.obj"));
  }

  void planarAndFloating() {
    const UrdfImport planar = importUrdfFile(urdfFile("planar.urdf"));
    QCOMPARE(body(planar.model, "carriage").joint.type, JointType::Planar);
    QCOMPARE(body(planar.model, "carriage").joint.axis, Vec3(0, 1, 0));
    QCOMPARE(body(planar.model, "pole").joint.type, JointType::Revolute);
    QCOMPARE(body(planar.model, "tip").joint.type, JointType::Prismatic);
    QCOMPARE(body(planar.model, "tip").joint.limits[0].upper, 0.3);
    compareDistributions(modelDistribution(planar.model), urdfDistribution(urdfFile("planar.urdf")));

    const UrdfImport floating = importUrdfFile(urdfFile("floating.urdf"));
    QCOMPARE(body(floating.model, "hub").joint.type, JointType::Free);
    QCOMPARE(body(floating.model, "antenna").joint.type, JointType::Fixed);
    compareDistributions(modelDistribution(floating.model), urdfDistribution(urdfFile("floating.urdf")));
  }

  // Every problem names the file, line and column and what is wrong.
  void malformed_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("lineOfText");
    QTest::newRow("syntax") << "bad/syntax.urdf"
                            << "syntax.urdf:10:"
                            << "";
    QTest::newRow("missing parent") << "bad/missing_parent.urdf"
                                    << "parent link [nope] of joint [hinge] not found"
                                    << "<joint name=\"hinge\"";
    QTest::newRow("massless moving") << "bad/massless_moving.urdf"
                                     << "link 'dangling_link' has no mass but moves on joint 'wrist' (revolute)"
                                     << "<link name=\"dangling_link\"";
    QTest::newRow("not a robot") << "bad/not_robot.urdf"
                                 << "the document's root element is <model>; expected <robot>"
                                 << "<model name";
    QTest::newRow("bad inertia") << "bad/bad_inertia.urdf"
                                 << "link 'slab': inertial.inertia: principal moments"
                                 << "<link name=\"slab\"";
    QTest::newRow("no file") << "bad/none.urdf"
                             << "none.urdf: error: no such file"
                             << "";
    // hostile input (issue #36): each once crashed, was dropped silently or was reported without a
    // place; now reported at the element or attribute concerned
    QTest::newRow("self parent") << "bad/self_parent.urdf"
                                 << "joint 'loop' has link 'arm' as both its parent and its child"
                                 << "<joint name=\"loop\"";
    QTest::newRow("two parents") << "bad/two_parents.urdf"
                                 << "link 'upper' is the child of joint 'shoulder' (line 23) and of joint 'back'"
                                 << "<joint name=\"back\"";
    QTest::newRow("detached cycle") << "bad/detached_cycle.urdf"
                                    << "the joints 'back', 'elbow' form a cycle through the links 'upper', 'lower'"
                                    << "<joint name=\"back\"";
    QTest::newRow("duplicate link") << "bad/duplicate_link.urdf"
                                    << "link 'arm' is defined a second time (first at line 11)"
                                    << "<link name=\"arm\"> <!-- the second";
    QTest::newRow("duplicate joint") << "bad/duplicate_joint.urdf"
                                     << "joint 'shoulder' is defined a second time (first at line 23)"
                                     << "<joint name=\"shoulder\" type=\"revolute\"> <!-- the second";
    QTest::newRow("nan sphere radius") << "bad/nan_sphere_radius.urdf"
                                       << "link 'base': <sphere> radius must be a finite number, got 'nan'"
                                       << "radius=\"nan\"";
    QTest::newRow("negative radius") << "bad/negative_radius.urdf"
                                     << "link 'base': <cylinder> radius must be > 0, got '-0.1'"
                                     << "radius=\"-0.1\"";
    QTest::newRow("nan mesh scale") << "bad/nan_mesh_scale.urdf"
                                    << "link 'base': <mesh> scale must be 3 finite numbers, got '1 nan 1'"
                                    << "scale=";
    QTest::newRow("nan inertial origin") << "bad/nan_inertial_origin.urdf"
                                         << "link 'base': <origin> xyz must be 3 finite numbers, got '0 nan 0'"
                                         << "xyz=\"0 nan 0\"";
    QTest::newRow("two robots") << "bad/two_robots.urdf"
                                << "a second root element <robot> after <robot> (line 4)"
                                << "<robot name=\"second\"";
    QTest::newRow("doctype subset") << "bad/doctype_subset.urdf"
                                    << "a <!DOCTYPE> with declarations in [ ... ] is not supported"
                                    << "<!DOCTYPE";
    QTest::newRow("unquoted attribute") << "bad/unquoted_attribute.urdf"
                                        << "the value of attribute 'value' of <mass> is not in quotes"
                                        << "value=1.0";
  }
  void malformed() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    QFETCH(QString, lineOfText);
    const std::string path = urdfFile(file.toUtf8().constData());
    UrdfImportOptions strict;  // the corpus of refusals: an inertia that is not physical is one
    strict.strict = true;
    try {
      importUrdfFile(path, strict);
      QFAIL("imported");
    } catch (const ModelLoadError& e) {
      const QString text = QString::fromStdString(formatDiagnostics(e.diagnostics()));
      QVERIFY2(text.contains(expected), qPrintable(text));
      if (!lineOfText.isEmpty()) {  // the diagnostic that says it, at the line and column of that text
        const int line = lineOf(path, lineOfText.toStdString()), column = columnOf(path, lineOfText.toStdString());
        const QString at = QString("%1:%2:%3: error: ").arg(QString::fromStdString(path)).arg(line).arg(column);
        bool found = false;
        for (const Diagnostic& d : e.diagnostics()) {
          const QString one = QString::fromStdString(d.format());
          found = found || (one.startsWith(at) && one.contains(expected));
        }
        QVERIFY2(found, qPrintable(text + " (expected at " + at + ")"));
      }
    }
  }

  // Chains as long as YAML models get: the import recursed once per link, and about 4,800 links
  // overflowed the stack. Links without mass on fixed joints, merged one into the next, too.
  void deepChain() {
    const int n = 25000;
    for (const bool framesBetween : {false, true}) {
      std::string xml = "<robot name=\"chain\">\n";
      for (int k = 0; k < n; ++k) {
        const std::string link = "l" + std::to_string(k);
        xml += massiveLink(link);
        if (framesBetween && k + 1 < n) xml += "<link name=\"frame" + std::to_string(k) + "\"/>\n";
      }
      for (int k = 1; k < n; ++k) {
        const std::string parent = framesBetween ? "frame" + std::to_string(k - 1) : "l" + std::to_string(k - 1);
        xml += "<joint name=\"j" + std::to_string(k) + "\" type=\"continuous\"><parent link=\"" + parent +
               "\"/><child link=\"l" + std::to_string(k) + "\"/><origin xyz=\"0 0 0.1\"/></joint>\n";
        if (framesBetween)
          xml += "<joint name=\"f" + std::to_string(k - 1) + "\" type=\"fixed\"><parent link=\"l" +
                 std::to_string(k - 1) + "\"/><child link=\"frame" + std::to_string(k - 1) + "\"/></joint>\n";
      }
      xml += "</robot>\n";
      QElapsedTimer timer;
      timer.start();
      const UrdfImport r = importUrdfString(xml, "chain.urdf", std::string());
      QCOMPARE(r.model.bodies.size(), std::size_t(n));
      QCOMPARE(r.model.bodies.back().name, std::string("l24999"));
      QCOMPARE(r.model.bodies.back().parent, std::string("l24998"));
      QCOMPARE(r.model.bodies.back().joint.origin.xyz, Vec3(0, 0, 0.1));
      QVERIFY2(timer.elapsed() < 30000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
    }
  }

  // XML the parser would recurse into without end (60,000 levels overflowed the stack) or take
  // minutes over (30,000 levels; 100,000 attributes on one element): refused at once, at the
  // element, by the check before parsing.
  void xmlLimits() {
    const auto nested = [](int depth) {
      std::string xml = "<robot name=\"r\">\n";
      for (int k = 1; k < depth; ++k) xml += "<a>";
      for (int k = 1; k < depth; ++k) xml += "</a>";
      return xml + "\n</robot>\n";
    };
    std::string attributes = "<robot name=\"r\"";
    for (int k = 0; k < 100000; ++k) attributes += " a" + std::to_string(k) + "=\"1\"";
    attributes += "/>\n";
    struct Case {
      std::string xml;
      int line, column;
      QString message;
    };
    const std::vector<Case> cases = {
        {nested(60000), 2, 1 + 3 * (kMaxXmlDepth - 1), "<a> is nested 101 elements deep; at most 100 levels are read"},
        {nested(30000), 2, 1 + 3 * (kMaxXmlDepth - 1), "<a> is nested 101 elements deep"},
        {attributes, 1, 1, "<robot> has more than 100 attributes"},
        // what the parser reads wrongly, so that it then finds no element (a message without a place)
        {"<?xml version=\"1.0\"?>\n<!DOCTYPE robot [\n<!ENTITY m \"1\">\n]>\n<robot name=\"r\"/>\n", 2, 1,
         "a <!DOCTYPE> with declarations in [ ... ] is not supported"},
        {"<!DOCTYPE robot SYSTEM \"a>b\">\n<robot name=\"r\"/>\n", 1, 1, "a <!DOCTYPE> with a '>' in quotes"},
        {"<robot name=\"r\">\n  <?stylesheet href=\"a>b\"?>\n</robot>\n", 2, 3,
         "a '>' inside a processing instruction"},
    };
    for (const Case& c : cases) {
      QElapsedTimer timer;
      timer.start();
      const std::vector<Diagnostic> errors = importErrors(c.xml);
      QVERIFY2(timer.elapsed() < 5000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
      QCOMPARE(errors.size(), std::size_t(1));
      QCOMPARE(errors[0].line, c.line);
      QCOMPARE(errors[0].column, c.column);
      QVERIFY2(QString::fromStdString(errors[0].message).contains(c.message), errors[0].message.c_str());
    }
    // within the limits, and what the check skips: comments, CDATA, processing instructions, a
    // DOCTYPE without declarations, '>' in quoted values
    std::string ok = "<?xml version=\"1.0\"?>\n<!DOCTYPE robot>\n<?stylesheet href=\"a\"?>\n<robot name='r'>\n" +
                     massiveLink("base") + "<!-- <a><a><a> x=y -->\n<gazebo reference=\"a>b\">";
    for (int k = 3; k <= kMaxXmlDepth; ++k) ok += "<g>";
    ok += "<![CDATA[<b c=d><b><b>]]>";
    for (int k = 3; k <= kMaxXmlDepth; ++k) ok += "</g>";
    ok += "</gazebo>\n</robot>\n";
    const UrdfImport r = importUrdfString(ok, "ok.urdf", std::string());
    QCOMPARE(r.model.bodies.size(), std::size_t(1));
    QVERIFY2(hasWarning(r, "<gazebo> is not used by Kinetree", 7), qPrintable(allWarnings(r)));
    ok.replace(ok.find("<g>"), 0, "<g>");  // one level more
    QVERIFY(!importErrors(ok).empty());
  }

  // What liburdfdom reports while still returning a robot (here: a visual it leaves out) reaches
  // the user as a warning at the link it names.
  void parserMessages() {
    const std::string xml = "<robot name=\"r\">\n" +
                            massiveLink("base", "<visual><geometry><sphere radius=\"0.1m\"/></geometry></visual>") +
                            "</robot>\n";
    const UrdfImport r = importUrdfString(xml, "units.urdf", std::string());
    QVERIFY(r.model.bodies.front().shapes.empty());
    QVERIFY2(hasWarning(r, "liburdfdom: Could not parse visual element for Link [base]", 2),
             qPrintable(allWarnings(r)));
    QVERIFY2(hasWarning(r, "radius [0.1m] is not a valid float"), qPrintable(allWarnings(r)));
    // a xacro file not yet expanded: refused at the expression, saying what to run
    const std::string xacro = "<robot name=\"r\">\n" + massiveLink("base") + massiveLink("tip") +
                              "<joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child link=\"tip\"/>\n"
                              "  <origin xyz=\"0 0 ${len}\"/></joint>\n</robot>\n";
    try {
      importUrdfString(xacro, "arm.urdf.xacro", std::string());
      QFAIL("imported a xacro expression");
    } catch (const ModelLoadError& e) {
      QCOMPARE(e.diagnostics().size(), std::size_t{1});
      const Diagnostic& d = e.diagnostics().front();
      QVERIFY2(
          d.message.find("got '0 0 ${len}', a xacro expression: expand the file with xacro first") != std::string::npos,
          d.message.c_str());
      QCOMPARE(d.column, 11);
    }
  }

  // Names that are not UTF-8 (the model file was written, and then refused by the loader): the
  // robot's name gets U+FFFD for each byte that does not belong, link and joint names '_', each
  // with a warning; what is written loads.
  void namesNotUtf8() {
    const std::string xml = "<robot name=\"arm\xff\">\n" + massiveLink("base") + massiveLink("ti\xe9p") +
                            "<joint name=\"w\xc3rist\" type=\"continuous\"><parent link=\"base\"/><child "
                            "link=\"ti\xe9p\"/></joint>\n</robot>\n";
    const UrdfImport r = importUrdfString(xml, "latin1.urdf", std::string());
    QCOMPARE(r.model.name, std::string("arm\xef\xbf\xbd"));
    QCOMPARE(r.model.bodies[1].name, std::string("ti_p"));
    QCOMPARE(r.model.bodies[1].joint.name, std::string("w_rist"));
    QVERIFY2(hasWarning(r, "the robot's name is not valid UTF-8 text", 1), qPrintable(allWarnings(r)));
    for (const Diagnostic& w : r.warnings) QCOMPARE(invalidUtf8At(w.format()), std::string::npos);
    std::vector<Diagnostic> warnings;
    const Model back = loadModelFromString(saveModelToString(r.model), "latin1.yaml", warnings);
    QCOMPARE(back.name, r.model.name);
  }

  // package://NAME/.. cannot leave the package (it read any mesh on the machine); paths that
  // come back inside it are fine.
  void packageConfinement() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    std::filesystem::create_directories(root / "ws" / "p" / "urdf");
    std::filesystem::create_directories(root / "ws" / "p" / "meshes");
    std::filesystem::create_directories(root / "secret");
    const std::string stl =
        "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
        "endfacet\nendsolid t\n";
    std::ofstream(root / "ws" / "p" / "meshes" / "in.stl") << stl;
    std::ofstream(root / "secret" / "out.stl") << stl;
    const auto import = [&](const std::string& uri) {
      std::ofstream(root / "ws" / "p" / "urdf" / "robot.urdf")
          << "<robot name=\"r\">\n"
          << massiveLink("base", "<visual><geometry><mesh filename=\"" + uri + "\"/></geometry></visual>")
          << "</robot>\n";
      return importUrdfFile((root / "ws" / "p" / "urdf" / "robot.urdf").string());
    };
    for (const std::string uri : {"package://p/../../secret/out.stl", "package://p/meshes/../../../secret/out.stl",
                                  "package://../secret/out.stl", "package:///secret/out.stl"}) {
      QVERIFY(std::filesystem::exists(root / "ws" / "p" / "urdf" / ".." / ".." / ".." / "secret" / "out.stl"));
      const UrdfImport r = import(uri);
      QVERIFY2(r.model.bodies.front().shapes.empty(), uri.c_str());
      QVERIFY2(hasWarning(r, "package:// paths that leave their package are not read (the visual is left out): " +
                                 QString::fromStdString(uri)),
               qPrintable(allWarnings(r)));
    }
    const UrdfImport inside = import("package://p/meshes/../meshes/in.stl");
    QCOMPARE(inside.model.bodies.front().shapes.size(), std::size_t(1));
    QVERIFY(inside.model.bodies.front().shapes.front().mesh.ends_with("p/meshes/in.stl"));
  }

  // Odd but possible inputs: a negative mass is an error at its line, reversed limits are listed,
  // a rating on a root body fixed to the world is listed, a name with "--" stays well-formed XML.
  void edgeCases() {
    const std::string robot = R"(<?xml version="1.0"?>
<robot name="odd--name">
  <link name="base"><inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <limit lower="1" upper="-1" effort="0" velocity="0"/></joint>
</robot>
)";
    const UrdfImport r = importUrdfString(robot, "odd.urdf", std::string());
    QVERIFY2(hasWarning(r, "limits with lower > upper left out: hinge", 5), qPrintable(allWarnings(r)));
    QVERIFY(body(r.model, "arm").joint.limits.empty());
    Model m = r.model;
    m.bodies.front().joint.rating.force = 100;
    std::vector<std::string> warnings;
    const std::string xml = exportUrdf(m, std::string(), warnings);
    QVERIFY(!warnings.empty() && warnings.front().find("load ratings left out") != std::string::npos);
    QCOMPARE(importUrdfString(xml, "again.urdf", std::string()).model.name, std::string("odd--name"));

    std::string negative = robot;
    negative.replace(negative.find("value=\"1\""), 9, "value=\"-1\"");
    try {
      importUrdfString(negative, "negative.urdf", std::string());
      QFAIL("imported a negative mass");
    } catch (const ModelLoadError& e) {
      const QString text = QString::fromStdString(formatDiagnostics(e.diagnostics()));
      QVERIFY2(
          text.contains("negative.urdf:4:") && text.contains("link 'arm': <mass> must be a positive number, got -1"),
          qPrintable(text));
    }
  }

  // YAML → URDF → YAML keeps the dynamics: q̈ and the joint loads at random states (gravity, which
  // URDF does not hold, set back). Models URDF cannot express are refused with their joints named.
  // URDF's <limit effort> is the actuator's peak torque: the effort rating, read and written back.
  void effortIsTheEffortRating() {
    const UrdfImport arm = importUrdfFile(kArm);
    const int a1 = arm.model.findBody("a1_link"), a7 = arm.model.findBody("a7_link");
    QVERIFY(a1 >= 0 && a7 >= 0);
    QCOMPARE(arm.model.bodies[static_cast<std::size_t>(a1)].joint.rating.effort, std::vector<double>{320.0});
    QCOMPARE(arm.model.bodies[static_cast<std::size_t>(a7)].joint.rating.effort,
             std::vector<double>{40.0});  // continuous
    std::vector<std::string> warnings;
    const std::string xml = exportUrdf(arm.model, std::string(), warnings);
    QVERIFY(xml.find("effort=\"320\"") != std::string::npos);
    QVERIFY(xml.find("<limit effort=\"40\" velocity=\"0\"/>") != std::string::npos);
  }

  void roundTrip() {
    for (const char* name : {"pendulum.yaml", "double_pendulum.yaml", "space_robot.yaml"}) {
      const Model original = loadModelFromFile(test::example(name).toStdString());
      std::vector<std::string> warnings;
      const std::string xml = exportUrdf(original, original.sourceDirectory, warnings);
      UrdfImport back = importUrdfString(xml, name, original.sourceDirectory);
      back.model.gravity = original.gravity;
      compareDynamics(original, back.model, 5);
      // and once more: the second export is the first
      std::vector<std::string> again;
      const std::string second = exportUrdf(back.model, original.sourceDirectory, again);
      if (second != xml) {
        const QStringList a = QString::fromStdString(xml).split('\n'), b = QString::fromStdString(second).split('\n');
        for (int k = 0; k < std::min(a.size(), b.size()); ++k)
          if (a[k] != b[k]) QFAIL(qPrintable(QString(name) + ": the second export differs:\n" + a[k] + "\n" + b[k]));
      }
      QCOMPARE(second, xml);
    }
    // the URDF robots of these tests, back and forth
    for (const std::string& file : {kArm, urdfFile("planar.urdf"), urdfFile("floating.urdf"), urdfFile(kHumanoid)}) {
      const UrdfImport first = importUrdfFile(file);
      std::vector<std::string> warnings;
      const std::string xml = exportUrdf(first.model, std::string(), warnings);
      // URDF's velocity limit, which Kinetree does not keep, alone is said to be lost
      const auto velocity =
          std::erase_if(warnings, [](const std::string& w) { return w.starts_with("velocity limits written as 0"); });
      QCOMPARE(velocity, file == kArm ? 1u : velocity);  // the arm's joints have limits
      QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().c_str());
      compareDynamics(first.model, importUrdfString(xml, file, std::string()).model, 3);
    }
    const Model humanoid = loadModelFromFile(test::example("humanoid.yaml").toStdString());
    std::vector<std::string> warnings;
    try {
      exportUrdf(humanoid, std::string(), warnings);
      QFAIL("exported a spherical joint");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("URDF cannot express the joints") &&
                   QString(e.what()).contains("(spherical)") && QString(e.what()).contains("(universal)"),
               e.what());
    }
  }

  // What URDF cannot hold is listed, not dropped silently.
  void exportWarnings() {
    const Model space = loadModelFromFile(test::example("space_robot.yaml").toStdString());
    std::vector<std::string> warnings;
    exportUrdf(space, std::string(), warnings);
    QString all;
    for (const std::string& w : warnings) all += QString::fromStdString(w) + "\n";
    QVERIFY2(all.contains("gravity (0 0 0) is not part of URDF"), qPrintable(all));
    QVERIFY2(all.contains("drives left out"), qPrintable(all));
    QVERIFY2(all.contains("shapes left out (URDF has no such geometry), of the bodies: base (prism)"), qPrintable(all));
    // a prescribed motion is named as a drive is
    std::vector<std::string> motionWarnings;
    exportUrdf(loadModelFromFile(test::example("space_robot_motion.yaml").toStdString()), std::string(),
               motionWarnings);
    QString motions;
    for (const std::string& w : motionWarnings) motions += QString::fromStdString(w) + "\n";
    QVERIFY2(motions.contains("prescribed motions left out (URDF has none), of the joints: J11"), qPrintable(motions));
  }

  // kinetree-cli import, then simulate, as a user would; export to a file and back.
  // The physical inertia nearest to one that is not (core/model/geometry/physical_inertia.hpp):
  // the principal axes kept, a triangle violation of δ split as +δ/3, +δ/3, −δ/3, a point mass
  // given the floor, and the model checks pass on each.
  void nearestPhysicalInertias() {
    const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
    const Mat3 violating = R * Vec3(0.05, 0.05, 0.102).asDiagonal() * R.transpose();
    QVERIFY(!isPhysicalInertia(violating));
    const InertiaRepair r = nearestPhysicalInertia(violating, 2.0);
    QVERIFY(isPhysicalInertia(r.inertia));
    QVERIFY((r.after - Vec3(0.05 + 0.002 / 3, 0.05 + 0.002 / 3, 0.102 - 0.002 / 3)).norm() < 1e-15);
    QVERIFY((r.inertia * R.col(2) - r.after[2] * R.col(2)).norm() < 1e-15);  // the same principal axes
    QVERIFY(std::abs(r.relativeChange - std::sqrt(3.0) * 0.002 / 3 / Vec3(0.05, 0.05, 0.102).norm()) < 1e-12);
    const InertiaRepair point = nearestPhysicalInertia(Mat3::Zero(), 1e-4);
    QVERIFY(isPhysicalInertia(point.inertia));
    QVERIFY((point.after - Vec3::Constant(1e-10)).norm() < 1e-24);  // m (1 mm)²
    QCOMPARE(point.relativeChange, 1.0);
    Mat3 indefinite;
    indefinite << 0.01, 0.012, 0, 0.012, 0.01, 0, 0, 0, 0.002;
    const InertiaRepair pd = nearestPhysicalInertia(indefinite, 1.0);
    QVERIFY(isPhysicalInertia(pd.inertia) && pd.before[0] < 0.0);
    Model m;
    BodySpec b;
    b.name = "b";
    b.joint.name = "j";
    for (const Mat3& I : {r.inertia, point.inertia, pd.inertia}) {
      b.inertial.inertia = I;
      m.bodies = {b};
      QVERIFY2(validate(m).empty(), formatDiagnostics(validate(m)).c_str());
    }
    QVERIFY(isPhysicalInertia(Vec3(1, 1, 2).asDiagonal().toDenseMatrix()));  // a flat plate
  }

  // What real robot descriptions hold (a point-mass gripper tip on a fixed joint, a CAD inertia
  // 2 % over the triangle inequality, one not positive definite): imported, each with a warning
  // naming the link, the moments before and after and the change; refused with strict.
  void repairsOfRealRobotFiles() {
    const std::string path = urdfFile("repair/cad_arm.urdf");
    const UrdfImport r = importUrdfFile(path);
    QCOMPARE(r.model.bodies.size(), std::size_t{3});  // the tip lumped into 'fore'
    QCOMPARE(r.repaired, (std::vector<std::string>{"upper", "fore"}));
    QCOMPARE(r.merged, std::vector<std::string>{"gripper_tip"});
    QVERIFY(validate(r.model).empty());
    const QString text = QString::fromStdString(formatDiagnostics(r.warnings));
    const auto at = [&](const char* line) {
      return QString("%1:%2:%3: warning: ")
          .arg(QString::fromStdString(path))
          .arg(lineOf(path, line))
          .arg(columnOf(path, line));
    };
    QVERIFY2(text.contains(at("<link name=\"gripper_tip\">") +
                           "link 'gripper_tip' (mass 0.0001 kg) on fixed joint 'tip' has an inertia that is not "
                           "physical (principal moments [0, 0, 0] kg·m²): merged into its parent 'fore'"),
             qPrintable(text));
    QVERIFY2(text.contains(at("<link name=\"upper\">") +
                           "link 'upper': its inertia is not physical (principal moments [0.05, 0.05, 0.102] "
                           "kg·m²); replaced by the nearest physical one, principal moments [0.0506667, 0.0506667, "
                           "0.101333] kg·m², a change of 0.93 %; the dynamics of this link are an approximation"),
             qPrintable(text));
    QVERIFY2(text.contains("link 'fore': its inertia, with the links fixed to it lumped in, is not physical "
                           "(principal moments [-0.001991"),
             qPrintable(text));
    const BodySpec& fore = r.model.bodies[2];
    QCOMPARE(fore.name, std::string("fore"));
    QCOMPARE(fore.inertial.mass, 1.0001);
    QVERIFY(std::abs(fore.inertial.com.z() - 0.0001 * 0.3 / 1.0001) < 1e-15);
    // the lumped tip is what --merge-fixed makes of it
    UrdfImportOptions merge;
    merge.mergeFixed = true;
    QVERIFY(importUrdfFile(path, merge).model.bodies == r.model.bodies);
    // strict: today's refusal, every link named
    UrdfImportOptions strict;
    strict.strict = true;
    try {
      importUrdfFile(path, strict);
      QFAIL("imported with strict");
    } catch (const ModelLoadError& e) {
      const QString refused = QString::fromStdString(formatDiagnostics(e.diagnostics()));
      QVERIFY2(refused.contains("link 'upper': inertial.inertia: principal moments [0.05, 0.05, 0.102] violate the "
                                "triangle inequality") &&
                   refused.contains("link 'fore': inertial.inertia: must be positive definite") &&
                   refused.contains("link 'gripper_tip': inertial.inertia.ixx: must be > 0"),
               qPrintable(refused));
    }
    // a link fixed to the world is repaired in place, with no word about its dynamics
    const UrdfImport slab = importUrdfFile(urdfFile("bad/bad_inertia.urdf"));
    const QString slabText = QString::fromStdString(formatDiagnostics(slab.warnings));
    QVERIFY2(slabText.contains("link 'slab': its inertia is not physical") && !slabText.contains("approximation"),
             qPrintable(slabText));
    const test::CliRun cli = test::runCli({"import", QString::fromStdString(path), "--strict"});
    QCOMPARE(cli.code, 1);
    QVERIFY(test::runCli({"import", QString::fromStdString(path)}).code == 0);
  }

  // A kinematic description (no <inertial>): refused with the way out named; with a density the
  // masses and inertias of the shapes, as the closed forms give them, a warning per link.
  void massesFromShapes() {
    const std::string path = urdfFile("repair/kinematic.urdf");
    try {
      importUrdfFile(path);
      QFAIL("imported without masses");
    } catch (const ModelLoadError& e) {
      QVERIFY(formatDiagnostics(e.diagnostics()).find("(import with --density RHO)") != std::string::npos);
    }
    UrdfImportOptions o;
    o.density = 2700.0;
    const UrdfImport r = importUrdfFile(path, o);
    QCOMPARE(r.model.bodies.size(), std::size_t{2});
    const double box = 0.2 * 0.2 * 0.1 * 2700.0, rod = std::numbers::pi * 0.02 * 0.02 * 0.5 * 2700.0;
    QVERIFY(std::abs(r.model.bodies[0].inertial.mass - box) < 1e-12 * box);
    QVERIFY(std::abs(r.model.bodies[1].inertial.mass - rod) < 1e-12 * rod);
    QVERIFY((r.model.bodies[1].inertial.com - Vec3(0, 0, 0.25)).norm() < 1e-15);
    const double ixx = rod * (3 * 0.02 * 0.02 + 0.5 * 0.5) / 12;  // a solid cylinder about its centre
    QVERIFY(std::abs(r.model.bodies[1].inertial.inertia(0, 0) - ixx) < 1e-12 * ixx);
    QCOMPARE(r.warnings.size(), std::size_t{3});  // a link each, and the limits kept but not enforced
    QVERIFY(r.warnings[0].message.starts_with("joint limits kept to show, not enforced"));
    QVERIFY(QString::fromStdString(r.warnings[2].message)
                .startsWith("link 'arm' has no mass in the file (no <inertial>, or a mass of 0): mass 1.69646 kg, "
                            "centre of mass [0, 0, 0.25] m"));
    // a link whose only shape was left out (its mesh is not there): the refusal keeps the reason
    const std::string lost =
        "<robot name='r'><link name='base'><inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' "
        "ixy='0' ixz='0' iyz='0'/></inertial></link><joint name='j' type='continuous'><parent link='base'/>"
        "<child link='arm'/></joint><link name='arm'><visual><geometry><mesh filename='missing.stl'/></geometry>"
        "</visual></link></robot>";
    try {
      importUrdfString(lost, "lost.urdf", std::string(), o);
      QFAIL("imported a moving link without mass");
    } catch (const ModelLoadError& e) {
      const std::string text = formatDiagnostics(e.diagnostics());
      const std::size_t reason = text.find("warning: mesh files not found"), refusal = text.find("error: link 'arm'");
      QVERIFY2(reason != std::string::npos && refusal != std::string::npos && reason < refusal, text.c_str());
      QVERIFY2(text.find("missing.stl") != std::string::npos, text.c_str());
    }
    const test::CliRun cli = test::runCli({"import", QString::fromStdString(path), "--density", "2700"});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    QCOMPARE(test::runCli({"import", QString::fromStdString(path), "--density", "-1"}).code, 2);
  }

  // A COLLADA mesh visual, what most ROS robots are drawn with, is kept (it used to be left out).
  void colladaVisualsAreKept() {
    const std::string dae = std::string(KINETREE_TEST_DATA) + "/meshes/box_cm_zup.dae";
    const std::string xml =
        "<robot name='r'><link name='base'><inertial><mass value='1'/>"
        "<inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
        "<visual><geometry><mesh filename='file://" +
        dae + "'/></geometry></visual></link></robot>";
    const UrdfImport r = importUrdfString(xml, "dae.urdf", std::string());
    QCOMPARE(r.model.bodies.size(), std::size_t{1});
    QCOMPARE(r.model.bodies[0].shapes.size(), std::size_t{1});
    QCOMPARE(r.model.bodies[0].shapes[0].mesh, dae);
    QVERIFY2(r.warnings.empty(), formatDiagnostics(r.warnings).c_str());
  }

  void commandLine() {
    QTemporaryDir dir;
    const QString yaml = dir.filePath("humanoid.yaml");
    const test::CliRun imported =
        test::runCli({"import", QString::fromStdString(urdfFile(kHumanoid)), "--floating", "-o", yaml});
    QVERIFY2(imported.code == 0, qPrintable(imported.err));
    QVERIFY(imported.err.contains("warning: <mimic> is not supported"));
    const test::CliRun run = test::runCli({"simulate", yaml, "--duration", "0.2", "--signals", "energy.total"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const QStringList energy = run.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(energy.size(), 1 + 101);
    const double e0 = energy[1].section(',', 1).toDouble(), e1 = energy.last().section(',', 1).toDouble();
    QVERIFY2(std::abs(e1 - e0) <= 1e-8 * std::abs(e0), qPrintable(energy.last()));  // free fall keeps energy

    const QString urdfOut = dir.filePath("out/pendulum.urdf");
    QVERIFY(QDir().mkpath(dir.filePath("out")));
    const test::CliRun exported = test::runCli({"export", "--urdf", test::example("pendulum.yaml"), "-o", urdfOut});
    QVERIFY2(exported.code == 0, qPrintable(exported.err));
    QVERIFY(QFile::exists(urdfOut));
    QCOMPARE(test::runCli({"import", urdfOut}).code, 0);
    const test::CliRun refused = test::runCli({"export", "--urdf", test::example("cardan_chain.yaml")});
    QCOMPARE(refused.code, 1);
    QVERIFY2(refused.err.contains("(universal)"), qPrintable(refused.err));
    QVERIFY(refused.out.isEmpty());
    QCOMPARE(test::runCli({"export", test::example("pendulum.yaml")}).code, 2);  // no format
    const test::CliRun bad = test::runCli({"import", QString::fromStdString(urdfFile("bad/syntax.urdf"))});
    QCOMPARE(bad.code, 1);
    QVERIFY(bad.err.contains("syntax.urdf:10:"));
  }
};

QTEST_GUILESS_MAIN(TestUrdf)
#include "test_urdf.moc"
