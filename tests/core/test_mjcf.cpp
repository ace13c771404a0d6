// SPDX-License-Identifier: BSD-3-Clause
// MJCF import (core/io/mjcf/mjcf.hpp) on models written for these tests (tests/data/mjcf): every
// joint kind both share, a massless frame, defaults, classes and an include, a free-floating base;
// and on MuJoCo's own humanoid, whose hips are gimbal joints.
// After import, M(q) and q̈ at a random state agree with MuJoCo's own (mj_fullM, qacc with contacts,
// limits, actuation, passive forces and armature off and τ as qfrc_applied) to 1e-10, through the coordinate
// map the import returns; M is compared as Jᵀ M_kt J where a free joint's velocity changes axes.
#include <mujoco/mujoco.h>

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"
#include "core/io/mesh.hpp"
#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/tree.hpp"
#include "support/cli_runner.hpp"

namespace {

using namespace kt;

std::string mjcfFile(const char* name) { return std::string(KINETREE_TEST_DATA "/mjcf/") + name; }

struct MjModelHandle {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  explicit MjModelHandle(const std::string& path) {
    char error[1000] = "";
    m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    if (m) d = mj_makeData(m);
  }
  ~MjModelHandle() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
};

// The diagnostics of an import that is refused; nothing when the file imports.
std::optional<std::vector<Diagnostic>> refusal(const std::string& path, const MjcfImportOptions& options = {}) {
  try {
    importMjcfFile(path, options);
  } catch (const ModelLoadError& e) {
    return e.diagnostics();
  }
  return std::nullopt;
}

// Whether the import of `path` is refused with a message containing `text`; the messages (or
// that it was imported) in `why`.
bool refusedWith(const std::string& path, const std::string& text, std::string& why,
                 const MjcfImportOptions& options = {}) {
  const auto refused = refusal(path, options);
  why = refused ? formatDiagnostics(*refused) : path + " was imported";
  return refused && why.find(text) != std::string::npos;
}

bool hasWarning(const MjcfImport& imp, const char* text) {
  for (const Diagnostic& d : imp.warnings)
    if (d.message.find(text) != std::string::npos) return true;
  return false;
}

// The Kinetree state for a random MuJoCo one, and the Jacobian J with ν_kt = J ν_mj.
struct Mapped {
  VectorX q, v, tau;
  MatrixX J;    ///< (nv_kt × nv_mj)
  VectorX Jdv;  ///< J̇ ν_mj: q̈_kt = J q̈_mj + J̇ ν_mj
};

// Draws qpos, qvel (into d) and τ_kt, and maps them to Kinetree's coordinates.
Mapped randomState(const mjModel* m, mjData* d, const Tree& tree, const MjcfImport& imp, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  mju_copy(d->qpos, m->qpos0, m->nq);
  for (int j = 0; j < m->njnt; ++j) {
    mjtNum* q = d->qpos + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_HINGE:
      case mjJNT_SLIDE: q[0] += 0.8 * u(rng); break;
      case mjJNT_BALL:
      case mjJNT_FREE: {
        mjtNum* quat = m->jnt_type[j] == mjJNT_FREE ? q + 3 : q;
        if (m->jnt_type[j] == mjJNT_FREE)
          for (int k = 0; k < 3; ++k) q[k] += u(rng);
        for (int k = 0; k < 4; ++k) quat[k] = u(rng);
        mju_normalize4(quat);
        break;
      }
    }
  }
  for (int k = 0; k < m->nv; ++k) d->qvel[k] = 2.0 * u(rng);
  Mapped s;
  s.q = tree.initialQ;
  s.v.setZero(tree.nv);
  s.tau.setZero(tree.nv);
  s.J.setZero(tree.nv, m->nv);
  s.Jdv.setZero(tree.nv);
  for (const MjcfCoordinates& c : imp.coordinates) {
    const int qo = tree.qOffset[c.body], vo = tree.vOffset[c.body];
    for (std::size_t k = 0; k < c.qpos.size(); ++k) s.q[qo + static_cast<int>(k)] = d->qpos[c.qpos[k]] - c.ref[k];
    for (std::size_t k = 0; k < c.dof.size(); ++k) s.J(vo + static_cast<int>(k), c.dof[k]) = 1.0;
    if (tree.joints[c.body].type == JointType::Free) {
      // ν = [ω; Rᵀ v_world]: the linear rows turn with the body
      const mjtNum* quat = d->qpos + c.qpos[0];
      const Mat3 R = Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).toRotationMatrix();
      const Eigen::Matrix<double, 3, Eigen::Dynamic> rows = s.J.block(vo + 3, 0, 3, m->nv);
      s.J.block(vo + 3, 0, 3, m->nv) = R.transpose() * rows;
    }
  }
  VectorX vm = Eigen::Map<VectorX>(d->qvel, m->nv);
  s.v = s.J * vm;
  for (const MjcfCoordinates& c : imp.coordinates)
    if (tree.joints[c.body].type == JointType::Free) {
      const int vo = tree.vOffset[c.body];
      const Vec3 w = s.v.segment<3>(vo), vb = s.v.segment<3>(vo + 3);
      s.Jdv.segment<3>(vo + 3) = -w.cross(vb);  // d/dt (Rᵀ v_world) = Rᵀ a_world − ω × (Rᵀ v_world)
    }
  for (int k = 0; k < tree.nv; ++k) s.tau[k] = 3.0 * u(rng);
  return s;
}

}  // namespace

class TestMjcf : public QObject {
  Q_OBJECT

 private:
  // Imports `name`, then compares M and q̈ with MuJoCo at three random states.
  void compareWithMuJoCo(const std::string& path) {
    const char* name = path.c_str();
    const MjcfImport imp = importMjcfFile(path);
    const Tree tree = finalizeOrThrow(imp.model, meshFiles());
    MjModelHandle mj(path);
    QVERIFY(mj.m && mj.d);
    mjModel* m = mj.m;
    QCOMPARE(tree.nv, m->nv);
    // what the import leaves out, off in MuJoCo too: contacts, limits, actuators, damping and springs,
    // friction loss, equality constraints, and the armature MuJoCo adds to M's diagonal
    m->opt.disableflags |=
        mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_ACTUATION | mjDSBL_PASSIVE | mjDSBL_EQUALITY | mjDSBL_FRICTIONLOSS;
    for (int k = 0; k < m->nv; ++k) m->dof_armature[k] = 0.0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Mapped s = randomState(m, mj.d, tree, imp, seed);
      // τ_mj = Jᵀ τ_kt, the same power
      VectorX tauMj = s.J.transpose() * s.tau;
      mju_copy(mj.d->qfrc_applied, tauMj.data(), m->nv);
      mj_forward(m, mj.d);
      MatrixX Mmj(m->nv, m->nv);
      std::vector<mjtNum> dense(static_cast<std::size_t>(m->nv * m->nv));
      mj_fullM(m, dense.data(), mj.d->qM);
      for (int r = 0; r < m->nv; ++r)
        for (int c = 0; c < m->nv; ++c) Mmj(r, c) = dense[static_cast<std::size_t>(r * m->nv + c)];
      RneaWorkspace ws(tree);
      MatrixX M;
      massMatrix(tree, ws, s.q, M);
      const MatrixX Mkt = s.J.transpose() * M * s.J;
      const double mErr = (Mkt - Mmj).norm() / Mmj.norm();
      QVERIFY2(mErr < 1e-10,
               qPrintable(QString("%1, seed %2: M differs by %3 (relative)").arg(name).arg(seed).arg(mErr)));
      for (const char* solver : {"aba", "crba", "cfa-tree", "poisson-ldl"}) {
        VectorX qdd = VectorX::Zero(tree.nv);
        makeSolver(solver, tree)->forwardDynamics(s.q, s.v, s.tau, {}, qdd, nullptr);
        const VectorX expected = s.J * Eigen::Map<VectorX>(mj.d->qacc, m->nv) + s.Jdv;
        const double err = (qdd - expected).norm() / std::max(1.0, expected.norm());
        QVERIFY2(err < 1e-10,
                 qPrintable(QString("%1, %2, seed %3: q̈ differs by %4").arg(name, solver).arg(seed).arg(err)));
      }
    }
  }

 private slots:
  // The model is named by <mujoco model="...">, as a Kinetree name; without one (MuJoCo then says
  // "MuJoCo Model"), by the file.
  void modelNameIsTheFilesModelAttribute() {
    QTemporaryDir dir;
    const auto nameOf = [&](const QString& file, const std::string& attribute) {
      const std::string path = dir.filePath(file).toStdString();
      std::ofstream(path) << "<mujoco" << attribute
                          << "><worldbody><body><joint type=\"hinge\"/><geom size=\"0.1\"/></body>"
                             "</worldbody></mujoco>\n";
      return importMjcfFile(path).model.name;
    };
    QCOMPARE(nameOf("a.xml", " model=\"two arms\""), std::string("two_arms"));
    QCOMPARE(nameOf("b.xml", " model=\"9 dof\""), std::string("_9_dof"));
    QCOMPARE(nameOf("my_robot.xml", ""), std::string("my_robot"));
    QCOMPARE(nameOf("1.xml", ""), std::string("mjcf_model"));
  }

  void armMatchesMuJoCo() { compareWithMuJoCo(mjcfFile("arm.xml")); }
  void floatingBaseMatchesMuJoCo() { compareWithMuJoCo(mjcfFile("floating.xml")); }
  void classesAndIncludeMatchMuJoCo() { compareWithMuJoCo(mjcfFile("classes.xml")); }

  // MuJoCo's own humanoid (libmujoco-samples): three hinges through each hip (gimbal joints), two
  // through each shoulder and the abdomen (universal joints), on a free torso; each ankle turns
  // about two hinges whose axes pass 35.8 mm apart (skew lines): a universal joint with offset
  // axes. It imports as packaged, and its dynamics are MuJoCo's.
  void packagedHumanoidMatchesMuJoCo() {
    const char* packaged = "/usr/share/mujoco/model/humanoid/humanoid.xml";
    if (!std::filesystem::exists(packaged)) QSKIP("MuJoCo's example models (libmujoco-samples) are not installed");
    const MjcfImport imp = importMjcfFile(packaged);
    const auto jointOf = [&](const char* body) {
      const int b = imp.model.findBody(body);
      return b < 0 ? JointSpec{} : imp.model.bodies[static_cast<std::size_t>(b)].joint;
    };
    QCOMPARE(imp.model.name, std::string("Humanoid"));  // <mujoco model="Humanoid">
    QCOMPARE(jointOf("torso").type, JointType::Free);
    QCOMPARE(jointOf("lower_waist").type, JointType::Universal);
    QCOMPARE(jointOf("right_thigh").type, JointType::Gimbal);
    QCOMPARE(jointOf("left_thigh").type, JointType::Gimbal);
    QCOMPARE(jointOf("right_upper_arm").type, JointType::Universal);
    for (const char* foot : {"right_foot", "left_foot"}) {
      const JointSpec ankle = jointOf(foot);
      QCOMPARE(ankle.type, JointType::Universal);
      // the x hinge's anchor, 40 mm below the y hinge's, in the body frame moved to the y hinge's
      QVERIFY2((ankle.point2 - Vec3(0, 0, -0.04)).norm() < 1e-12, foot);
    }
    compareWithMuJoCo(packaged);
  }

  // Hinges whose axes do not meet, of MJCF files written for it: two (a universal joint with
  // offset axes), three (a gimbal with offset axes), each below a free base and a chain, with
  // MuJoCo's M and q̈.
  void offsetHingesMatchMuJoCo() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("offsets.xml").toStdString();
    std::ofstream(path) << R"(<mujoco model="offsets">
  <worldbody>
    <body name="base" pos="0 0 1">
      <freejoint/>
      <geom type="box" size="0.1 0.08 0.05" mass="3"/>
      <body name="link" pos="0.2 0 0" euler="10 20 30">
        <joint name="ax" type="hinge" axis="1 0 0" pos="0 0 0.03"/>
        <joint name="ay" type="hinge" axis="0 1 0.3" pos="0.02 -0.01 -0.02"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1"/>
        <body name="wrist" pos="0.3 0 0">
          <joint name="w1" type="hinge" axis="0 0 1" pos="0.01 0 0"/>
          <joint name="w2" type="hinge" axis="0 1 0" pos="0 0.02 0.01"/>
          <joint name="w3" type="hinge" axis="1 0 0" pos="-0.02 0 0.03"/>
          <geom type="box" size="0.04 0.03 0.02" pos="0.05 0 0" mass="0.5"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";
    const MjcfImport imp = importMjcfFile(path);
    const JointSpec& link = imp.model.bodies[static_cast<std::size_t>(imp.model.findBody("link"))].joint;
    const JointSpec& wrist = imp.model.bodies[static_cast<std::size_t>(imp.model.findBody("wrist"))].joint;
    QCOMPARE(link.type, JointType::Universal);
    QVERIFY(link.point2 != Vec3::Zero());
    QCOMPARE(wrist.type, JointType::Gimbal);
    QVERIFY(wrist.point2 != Vec3::Zero() && wrist.point3 != Vec3::Zero());
    // the model file keeps the points, and reads back the same model
    std::vector<Diagnostic> warnings;
    QVERIFY(loadModelFromString(saveModelToString(imp.model), "offsets.yaml", warnings).bodies == imp.model.bodies);
    compareWithMuJoCo(path);
  }

  void jointsMapToTheirKinds() {
    const MjcfImport imp = importMjcfFile(mjcfFile("arm.xml"));
    const Model& model = imp.model;
    const auto joint = [&](const char* body) {
      return model.bodies[static_cast<std::size_t>(model.findBody(body))].joint;
    };
    QCOMPARE(joint("shoulder").type, JointType::Revolute);
    QCOMPARE(joint("slider").type, JointType::Prismatic);
    QCOMPARE(joint("wrist").type, JointType::Universal);
    QCOMPARE(joint("wrist").name, std::string("wrist_a_wrist_b"));
    QCOMPARE(joint("tool").type, JointType::Cylindrical);
    QCOMPARE(joint("ball").type, JointType::Spherical);
    // the massless frame 'mount' is merged: its sphere is drawn on the wrist, 'tool' hangs from it
    QCOMPARE(model.findBody("mount"), -1);
    QCOMPARE(model.bodies[static_cast<std::size_t>(model.findBody("tool"))].parent, std::string("wrist"));
    // the range counts from the reference angle; the servo holds MuJoCo's zero (q = −ref)
    const JointSpec pan = joint("shoulder");
    QCOMPARE(pan.limits.size(), std::size_t{1});
    QCOMPARE(pan.limits[0].lower, -2.0 - 0.3);
    QCOMPARE(pan.drive.type, DriveType::PdSinusoid);
    QCOMPARE(pan.drive.kp, 1.5 * 1.5 * 40.0);
    QCOMPARE(pan.drive.kd, 1.5 * 1.5 * 2.0);
    QCOMPARE(pan.drive.offset, std::vector<double>{-0.3});
    QCOMPARE(joint("slider").drive.type, DriveType::Constant);
    QCOMPARE(model.gravity, Vec3(0.3, -0.2, -9.81));
    QVERIFY(hasWarning(imp, "1 geom of the world body (floor, scenery) is not drawn"));
    // the collision box of group 3 is not drawn, as MuJoCo's viewer does not draw it
    QCOMPARE(model.bodies[static_cast<std::size_t>(model.findBody("shoulder"))].shapes.size(), std::size_t{1});
    QVERIFY(hasWarning(imp, "1 geom of groups 3 to 5"));
    QVERIFY(hasWarning(imp, "contacts"));
    QVERIFY(hasWarning(imp, "ellipsoid"));  // no mesh directory given
  }

  void droppedKindsAreWarnedOnce() {
    const MjcfImport imp = importMjcfFile(mjcfFile("classes.xml"));
    QVERIFY(hasWarning(imp, "1 site is left out"));
    QVERIFY(hasWarning(imp, "1 sensor is left out"));
    // the velocity servo, counted from 1 in the file, with its joint and what it is
    QVERIFY(hasWarning(imp, "actuators not carried over: actuator 2 of 2 on joint 'c2' (a velocity servo"));
    // the three hinges' ranges (class "link") are shown, not enforced
    QVERIFY(hasWarning(imp, "3 joint ranges are kept as limits to show, not enforced"));
    // colours as written (MuJoCo keeps them in single precision)
    QCOMPARE(imp.model.bodies[static_cast<std::size_t>(imp.model.findBody("c_link3"))].shapes.at(0).color,
             Eigen::Vector4d(0.3, 0.6, 0.3, 1.0));
    // the classes' range (degrees) reached the joint, from its reference of 30°
    const JointSpec c3 = imp.model.bodies[static_cast<std::size_t>(imp.model.findBody("c_link3"))].joint;
    QCOMPARE(c3.limits.size(), std::size_t{1});
    QVERIFY(std::abs(c3.limits[0].upper - (90.0 - 30.0) * M_PI / 180.0) < 1e-12);
  }

  void meshesAndEllipsoidsAreWritten() {
    QTemporaryDir dir;
    MjcfImportOptions options;
    options.meshDirectory = (dir.path() + "/meshes").toStdString();
    options.meshBaseDirectory = dir.path().toStdString();
    const MjcfImport imp = importMjcfFile(mjcfFile("arm.xml"), options);
    const BodySpec& tool = imp.model.bodies[static_cast<std::size_t>(imp.model.findBody("tool"))];
    QCOMPARE(tool.shapes.size(), std::size_t{1});
    QCOMPARE(tool.shapes[0].type, ShapeType::Mesh);
    QCOMPARE(tool.shapes[0].mesh, std::string("meshes/unit_sphere.obj"));
    QCOMPARE(tool.shapes[0].meshScale, Vec3(0.03, 0.02, 0.05));
    TriangleMesh mesh;
    std::string error;
    QVERIFY2(readMesh((dir.path() + "/meshes/unit_sphere.obj").toStdString(), mesh, error), error.c_str());
    QVERIFY(checkClosedSurface(mesh, error));
  }

  // Actuators on the coordinates of one joint become one drive: motors a constant drive, position
  // servos with one kp and kv on every coordinate a PD drive holding MuJoCo's zero; servos with two
  // gains are left out, with the reason.
  void actuatorsOfOneJointMapTogether() {
    QTemporaryDir dir;
    const auto import = [&](const std::string& actuators) {
      const std::string path = dir.filePath("servos.xml").toStdString();
      std::ofstream(path) << "<mujoco>\n<compiler angle=\"radian\"/>\n<worldbody>\n<body name=\"wrist\">\n"
                             "<joint name=\"a\" axis=\"1 0 0\" ref=\"0.2\"/><joint name=\"b\" axis=\"0 1 0\"/>\n"
                             "<geom type=\"sphere\" size=\"0.1\"/>\n</body>\n</worldbody>\n<actuator>\n"
                          << actuators << "</actuator>\n</mujoco>\n";
      return importMjcfFile(path);
    };
    const MjcfImport motors = import("<motor joint=\"b\" gear=\"2\" ctrllimited=\"true\" ctrlrange=\"-1 1\"/>\n");
    const Drive& constant = motors.model.bodies[0].joint.drive;
    QCOMPARE(constant.type, DriveType::Constant);
    QCOMPARE(constant.value, std::vector<double>({0.0, 0.0}));
    // the drive's value is the joint's torque: what MuJoCo's control was multiplied by, and the
    // range that is not applied, are said
    QVERIFY(hasWarning(motors, "motors come in as constant drives whose value is the joint's torque"));
    QVERIFY(hasWarning(motors, "(τ = 2 ctrl)"));
    QVERIFY(hasWarning(motors, "control and force ranges of actuators are not applied"));
    const MjcfImport servos =
        import("<position joint=\"a\" kp=\"40\" gear=\"2\"/>\n<position joint=\"b\" kp=\"40\" gear=\"2\"/>\n");
    const Drive& pd = servos.model.bodies[0].joint.drive;
    QCOMPARE(pd.type, DriveType::PdSinusoid);
    QCOMPARE(pd.kp, 160.0);
    QCOMPARE(pd.offset, std::vector<double>({-0.2, 0.0}));
    QVERIFY(!std::signbit(pd.kd) && !std::signbit(pd.offset[1]));  // no kv: +0, which a file writes as 0
    const MjcfImport unequal = import("<position joint=\"a\" kp=\"40\"/>\n<position joint=\"b\" kp=\"10\"/>\n");
    QCOMPARE(unequal.model.bodies[0].joint.drive.type, DriveType::None);
    QVERIFY(hasWarning(unequal, "a Kinetree drive takes the coordinates of one joint together"));
  }

  // Three hinges through one point with their axes in one plane where the body starts are a gimbal
  // locked from the start: refused by name rather than imported into a model that cannot run.
  void lockedHingeTripleIsRefused() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/locked.xml";
    std::ofstream(path.toStdString()) << "<mujoco>\n<worldbody>\n<body name=\"wrist\">\n"
                                         "<joint axis=\"1 0 0\"/><joint axis=\"0 1 0\"/><joint axis=\"1 1 0\"/>\n"
                                         "<geom type=\"sphere\" size=\"0.1\"/>\n</body>\n</worldbody>\n</mujoco>\n";
    std::string why;
    QVERIFY2(refusedWith(path.toStdString(),
                         "body 'wrist' has 3 joints (hinge, hinge, hinge) through one point whose axes lie in one "
                         "plane where the body starts (gimbal lock)",
                         why),
             why.c_str());
  }

  void unsupportedCombinationNamesTheBody() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/slides.xml";
    std::ofstream(path.toStdString()) << "<mujoco>\n<worldbody>\n<body name=\"hip\">\n"
                                         "<joint type=\"slide\" axis=\"1 0 0\"/><joint type=\"slide\" axis=\"0 1 0\"/>"
                                         "<joint type=\"slide\" axis=\"0 0 1\"/>\n"
                                         "<geom type=\"sphere\" size=\"0.1\"/>\n</body>\n</worldbody>\n</mujoco>\n";
    std::string why;
    QVERIFY2(refusedWith(path.toStdString(), "body 'hip' has 3 joints (slide, slide, slide)", why), why.c_str());
  }

  void compilerErrorsKeepTheirLine() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/bad.xml";
    std::ofstream(path.toStdString()) << "<mujoco>\n<worldbody>\n<body>\n<joint type=\"spiral\"/>\n"
                                         "</body>\n</worldbody>\n</mujoco>\n";
    const auto refused = refusal(path.toStdString());
    QVERIFY2(refused, "a joint of an unknown type was imported");
    QCOMPARE(refused->size(), std::size_t{1});
    const Diagnostic& d = refused->front();
    QCOMPARE(d.line, 4);
    QCOMPARE(d.column, 13);  // MuJoCo gives no column: the value it quotes, "spiral", on that line
    QVERIFY2(d.message.find("spiral") != std::string::npos, d.message.c_str());
    // an attribute the schema does not know, in the second element of a line
    std::ofstream(path.toStdString()) << "<mujoco>\n<worldbody>\n<body>\n  <geom size=\"0.1\"/> <joint type=\"hinge\" "
                                         "foo=\"1\"/>\n</body>\n</worldbody>\n</mujoco>\n";
    const auto attribute = refusal(path.toStdString());
    QVERIFY2(attribute && attribute->size() == 1, "an unknown attribute was imported");
    QCOMPARE(attribute->front().line, 4);
    QCOMPARE(attribute->front().column, 42);
    // an XML syntax error (TinyXML's "Line number=3") and the compiler's own ("line = 3") keep theirs too
    std::ofstream(path.toStdString()) << "<mujoco>\n<worldbody>\n<body>\n</bod>\n</worldbody>\n</mujoco>\n";
    const auto syntax = refusal(path.toStdString());
    QVERIFY2(syntax && syntax->size() == 1, "a mismatched tag was imported");
    QCOMPARE(syntax->front().line, 3);
    QCOMPARE(syntax->front().column, 1);  // the element left open
    std::ofstream(path.toStdString()) << "<mujoco>\n<worldbody>\n<body name=\"a\">\n<joint type=\"ball\"/>\n"
                                         "<joint type=\"hinge\"/>\n<geom size=\"0.1\"/>\n</body>\n</worldbody>\n"
                                         "</mujoco>\n";
    const auto compiler = refusal(path.toStdString());
    QVERIFY2(compiler && compiler->size() == 1, "a ball joint followed by a hinge was imported");
    QCOMPARE(compiler->front().line, 3);
    QCOMPARE(compiler->front().column, 1);  // the body it names
    QVERIFY2(compiler->front().message.find("column = -1") == std::string::npos, compiler->front().message.c_str());
    // in an included file MuJoCo 2.2 says "line 0": the attribute it quotes is found in the file
    // that has it; an include that is not there is at its <include>
    const QString defaults = dir.path() + "/defaults.xml";
    std::ofstream(defaults.toStdString()) << "<mujoco>\n<default>\n  <joint damping=\"1\" dampin=\"2\"/>\n"
                                             "</default>\n</mujoco>\n";
    std::ofstream(path.toStdString()) << "<mujoco>\n  <include file=\"defaults.xml\"/>\n<worldbody>\n<body>\n"
                                         "<joint type=\"hinge\"/><geom size=\"0.1\"/>\n</body>\n</worldbody>\n"
                                         "</mujoco>\n";
    const auto included = refusal(path.toStdString());
    QVERIFY2(included && included->size() == 1, "an unknown attribute in an included file was imported");
    QCOMPARE(included->front().file, defaults.toStdString());
    QCOMPARE(included->front().line, 3);
    QCOMPARE(included->front().column, 22);
    std::filesystem::remove(defaults.toStdString());
    const auto missing = refusal(path.toStdString());
    QVERIFY2(missing && missing->size() == 1, "a missing include was imported");
    QCOMPARE(missing->front().file, path.toStdString());
    QCOMPARE(missing->front().line, 2);
    QCOMPARE(missing->front().column, 3);
  }

  // A welded body with a mass and no inertia (tests/data/mjcf/point_mass.xml: a finger tip), which
  // MuJoCo accepts, is lumped into the body it is welded to, with a warning; its geom and its child
  // follow, and the dynamics stay MuJoCo's. --strict refuses it.
  void weldedPointMassIsLumped() {
    const std::string path = mjcfFile("point_mass.xml");
    const MjcfImport imp = importMjcfFile(path);
    QCOMPARE(imp.model.bodies.size(), std::size_t{2});
    const BodySpec& arm = imp.model.bodies[0];
    QCOMPARE(arm.name, std::string("arm"));
    QCOMPARE(imp.model.bodies[1].parent, std::string("arm"));
    QCOMPARE(arm.shapes.size(), std::size_t{2});
    QVERIFY(std::abs(arm.inertial.mass - 0.8001) < 1e-12);
    QVERIFY(hasWarning(imp,
                       "body 'tip' (mass 0.0001 kg, no joint) has an inertia that is not physical (principal "
                       "moments [0, 0, 0] kg·m²): merged into 'arm' (lumped"));
    compareWithMuJoCo(path);

    MjcfImportOptions strict;
    strict.strict = true;
    std::string why;
    QVERIFY2(
        refusedWith(path, "body 'tip' (mass 0.0001 kg, no joint) has an inertia that is not physical", why, strict),
        why.c_str());
    QTemporaryDir dir;
    const test::CliRun r =
        test::runCli({"import", QString::fromStdString(path), "--strict", "-o", dir.path() + "/pm.yaml"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("without --strict it is merged into 'arm'"), qPrintable(r.err));

    // welded to the world it never moves: kept with its geom, its inertia the nearest physical one
    const std::string stand = dir.filePath("stand.xml").toStdString();
    std::ofstream(stand) << "<mujoco>\n<worldbody>\n<body name=\"stand\" pos=\"0 0 0.5\">\n"
                            "<inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"0 0 0\"/>\n"
                            "<geom type=\"box\" size=\"0.1 0.1 0.1\" contype=\"0\" conaffinity=\"0\"/>\n"
                            "<body name=\"pendulum\">\n<joint type=\"hinge\" axis=\"0 1 0\"/>\n"
                            "<geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.3\" size=\"0.02\"/>\n</body>\n</body>\n"
                            "</worldbody>\n</mujoco>\n";
    const MjcfImport fixed = importMjcfFile(stand);
    QCOMPARE(fixed.model.bodies.size(), std::size_t{2});
    QCOMPARE(fixed.model.bodies[0].shapes.size(), std::size_t{1});
    QVERIFY(hasWarning(fixed,
                       "body 'stand' (mass 2 kg, no joint) has an inertia that is not physical (principal "
                       "moments [0, 0, 0] kg·m²): replaced by the nearest physical one"));
    finalizeOrThrow(fixed.model, meshFiles());

    // a moving body whose smallest moment MuJoCo lets through (above its 1e-15) but Kinetree does not
    // (below 64 ε of the largest): repaired, its dynamics said to be an approximation
    const std::string thin = dir.filePath("thin.xml").toStdString();
    std::ofstream(thin) << "<mujoco>\n<worldbody>\n<body name=\"needle\">\n<joint type=\"hinge\" axis=\"0 1 0\"/>\n"
                           "<inertial pos=\"0 0 -0.2\" mass=\"1\" diaginertia=\"1e-14 1 1\"/>\n</body>\n"
                           "</worldbody>\n</mujoco>\n";
    const MjcfImport repaired = importMjcfFile(thin);
    QVERIFY(hasWarning(repaired, "body 'needle' (mass 1 kg) has an inertia that is not physical"));
    QVERIFY(hasWarning(repaired, "the dynamics of this body are an approximation"));
    finalizeOrThrow(repaired.model, meshFiles());
  }

  // Kinetree's limits are for every coordinate of a joint or none: a universal joint of which one
  // hinge has a range keeps none, and says so rather than that ranges were kept.
  void partialRangesAreLeftOutWithAWarning() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("partial.xml").toStdString();
    std::ofstream(path) << "<mujoco>\n<worldbody>\n<body name=\"wrist\">\n"
                           "<joint axis=\"1 0 0\" limited=\"true\" range=\"-30 30\"/><joint axis=\"0 1 0\"/>\n"
                           "<geom type=\"sphere\" size=\"0.1\"/>\n</body>\n</worldbody>\n</mujoco>\n";
    const MjcfImport imp = importMjcfFile(path);
    QCOMPARE(imp.model.bodies.at(0).joint.type, JointType::Universal);
    QVERIFY(imp.model.bodies[0].joint.limits.empty());
    QVERIFY(hasWarning(imp,
                       "ranges are left out where only some of the hinges and slides making one Kinetree joint "
                       "have one (Kinetree's limits are for every coordinate of a joint, or none): wrist"));
    QVERIFY(!hasWarning(imp, "kept as limits to show"));
  }

  // An MJCF file is known by its root element, past the declaration, comments and document type;
  // a YAML model or a URDF that mentions <mujoco> in a comment is not one.
  void mjcfIsKnownByItsRootElement() {
    QTemporaryDir dir;
    const auto is = [&](const std::string& text) {
      const std::string path = dir.filePath("file").toStdString();
      std::ofstream(path, std::ios::trunc) << text;
      return isMjcfFile(path);
    };
    QVERIFY(is("<mujoco/>"));
    QVERIFY(
        is("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- once a <robot> -->\n<!DOCTYPE mujoco>\n<mujoco model=\"m\">"));
    QVERIFY(!is("# converted from the <mujoco> humanoid\nkinetree: 1\n"));
    QVERIFY(!is("<robot name=\"r\"><!-- <mujoco> --></robot>"));
    QVERIFY(!is("<mujocox/>"));
    QVERIFY(!is(""));
    QVERIFY(!isMjcfFile(dir.filePath("missing.xml").toStdString()));
  }

  void cliImportsMjcf() {
    QTemporaryDir dir;
    const QString out = dir.path() + "/arm.yaml";
    const test::CliRun r = test::runCli({"import", QString::fromStdString(mjcfFile("arm.xml")), "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("warning:"), qPrintable(r.err));
    const Model model = loadModelFromFile(out.toStdString());
    QCOMPARE(model.bodies.size(), std::size_t{5});
    QVERIFY(QFile::exists(dir.path() + "/arm_meshes/unit_sphere.obj"));
    const test::CliRun v = test::runCli({"validate", out});
    QVERIFY2(v.code == 0, qPrintable(v.err + v.out));
    const test::CliRun s = test::runCli({"simulate", out, "--duration", "0.05", "-o", dir.path() + "/run.csv"});
    QVERIFY2(s.code == 0, qPrintable(s.err));
    // the MJCF file itself, as every command reads a URDF: import's reading, without an output file
    const QString xml = QString::fromStdString(mjcfFile("arm.xml"));
    const test::CliRun vx = test::runCli({"validate", xml});
    QVERIFY2(vx.code == 0, qPrintable(vx.err + vx.out));
    const test::CliRun ix = test::runCli({"info", xml});
    QVERIFY2(ix.code == 0 && ix.out.contains("bodies: 5"), qPrintable(ix.err + ix.out));
    const test::CliRun sx = test::runCli({"simulate", xml, "--duration", "0.05", "-o", dir.path() + "/run2.csv"});
    QVERIFY2(sx.code == 0, qPrintable(sx.err));
    // a robot without actuators is said to fall; an output folder that does not exist is refused first
    const test::CliRun p = test::runCli({"import", QString::fromStdString(mjcfFile("point_mass.xml")), "-o", "-"});
    QVERIFY2(p.code == 0 && p.err.contains("passive (no actuator, or a motor at zero torque until you set it): the "
                                           "robot will fall under gravity"),
             qPrintable(p.err));
    const test::CliRun missing = test::runCli({"import", xml, "-o", dir.path() + "/no/such/folder/arm.yaml"});
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("the folder") && missing.err.contains("does not exist") &&
                 !missing.err.contains("warning:"),
             qPrintable(missing.err));
  }
};

QTEST_GUILESS_MAIN(TestMjcf)
#include "test_mjcf.moc"
