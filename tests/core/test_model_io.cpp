// SPDX-License-Identifier: BSD-3-Clause
// YAML model format: exact round trips (load → save → load gives an identical Model,
// save → load → save identical bytes) for every example and for seeded random models that use
// every key of the format; number formatting; atomic saving (a full disk keeps the old file, a
// set of files is replaced only when complete, a killed writer's leftovers are removed);
// loader conveniences.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/io/atomic_file.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/yaml_tree.hpp"
#include "core/model/generators.hpp"
#include "core/model/text_util.hpp"

using namespace kt;

namespace {

std::string examplesDir() { return std::string(KINETREE_SOURCE_DIR) + "/examples"; }

std::vector<std::string> examplePaths() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(examplesDir()))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every entry of `dir` (hidden ones too), sorted.
QStringList filesIn(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

// The id of a process that has ended (a child that exited at once and was reaped).
pid_t deadProcessId() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  if (child > 0) ::waitpid(child, &status, 0);
  return child;
}

// A random model in canonical form (every field the writer leaves out at its loader default),
// using every joint, shape and drive type and both rotation forms.
class RandomModel {
 public:
  explicit RandomModel(std::uint64_t seed) : rng_(seed) {}

  Model build() {
    Model m;
    m.name = pick({"robot", "my robot: v2", "Ünïcode — name", "tab\tand \"quotes\"", "true", "123", "a/b.c-d"});
    if (coin())
      m.description = pick({"", "line one\nline two\n", "  leading and trailing  ", "#not a comment", "back\\slash",
                            "colon: here", "- dash", "\x01 control", "\x7f delete",
                            "nonchar \xef\xb7\x90 and \xf0\x9f\xbf\xbe"});  // U+FDD0, U+1FFFE
    m.gravity = vec3(-20, 20);
    m.simulation.solver = pick({"aba", "crba"});
    m.simulation.integrator = pick({"euler", "rk4", "dopri5"});
    m.simulation.step = uniform(1e-5, 0.1);
    m.simulation.duration = uniform(0.1, 100);
    m.simulation.tolerance = std::pow(10.0, -uniform(3, 14));
    const int n = 1 + static_cast<int>(rng_.next() % 12);
    for (int i = 0; i < n; ++i) m.bodies.push_back(body(i));
    return m;
  }

 private:
  double uniform(double a, double b) { return a + (b - a) * rng_.uniform(); }
  bool coin() { return rng_.next() % 2 == 0; }
  template <typename T>
  T pick(std::initializer_list<T> items) {
    return *(items.begin() + rng_.next() % items.size());
  }
  std::string pick(std::initializer_list<const char*> items) { return *(items.begin() + rng_.next() % items.size()); }
  Vec3 vec3(double a, double b) { return {uniform(a, b), uniform(a, b), uniform(a, b)}; }
  std::vector<double> values(int n, double a, double b) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) x = uniform(a, b);
    return v;
  }

  Placement placement() {
    Placement p;
    switch (rng_.next() % 3) {
      case 0: return p;  // identity: left out by the writer
      case 1:
        p.xyz = vec3(-1, 1);
        p.rpy = vec3(-3, 3);
        return p;
      default:
        p.xyz = vec3(-1, 1);
        p.useQuaternion = true;
        p.quat = Eigen::Vector4d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)).normalized();
        return p;
    }
  }

  Drive drive(JointType t) {
    Drive d;
    const int nv = jointNv(t);
    if (nv == 0) return d;
    const bool positional = jointNq(t) == nv && !jointUsesQuasiVelocity(t);
    std::vector<DriveType> types = {DriveType::None, DriveType::Constant, DriveType::Sinusoid, DriveType::Table};
    if (positional) types.insert(types.end(), {DriveType::PdSinusoid, DriveType::PdPiecewise, DriveType::SpringDamper});
    d.type = types[rng_.next() % types.size()];
    switch (d.type) {
      case DriveType::None: break;
      case DriveType::Constant: d.value = values(nv, -5, 5); break;
      case DriveType::PdSinusoid:
        d.kp = uniform(0.1, 100);
        d.kd = uniform(0, 10);
        [[fallthrough]];
      case DriveType::Sinusoid:
        d.amplitude = values(nv, -1, 1);
        d.frequency = values(nv, 0, 2);
        d.phase = values(nv, -3, 3);
        d.offset = values(nv, -1, 1);
        break;
      case DriveType::PdPiecewise:
        d.kp = uniform(0.1, 100);
        d.kd = uniform(0, 10);
        d.knots.resize(static_cast<std::size_t>(nv));
        for (auto& list : d.knots) {
          double t = uniform(-1, 1);
          const int k = 1 + static_cast<int>(rng_.next() % 5);
          for (int i = 0; i < k; ++i) {
            list.push_back({t, uniform(-2, 2)});
            t += uniform(0.01, 2);
          }
        }
        break;
      case DriveType::SpringDamper:
        d.stiffness = values(nv, 0, 50);
        d.damping = values(nv, 0, 5);
        d.restPosition = values(nv, -1, 1);
        break;
      case DriveType::Table: d.file = pick({"torques.csv", "logs/motor log.csv", "../a,b.csv"}); break;
    }
    return d;
  }

  // A prescribed motion of every type (the table's file is not read by the loader).
  Motion motion(int nv) {
    Motion m;
    m.type = pick({MotionType::Spline, MotionType::RestToRest, MotionType::Sinusoid, MotionType::Table});
    switch (m.type) {
      case MotionType::None: break;
      case MotionType::Spline:
        m.knots.resize(static_cast<std::size_t>(nv));
        for (auto& list : m.knots) {
          double t = uniform(-1, 1);
          const int k = 2 + static_cast<int>(rng_.next() % 5);
          for (int i = 0; i < k; ++i) {
            list.push_back({t, uniform(-2, 2)});
            t += uniform(0.01, 2);
          }
        }
        if (coin()) {
          m.startVelocity = values(nv, -1, 1);
          m.endVelocity = values(nv, -1, 1);
        }
        break;
      case MotionType::RestToRest:
        m.moves.resize(static_cast<std::size_t>(nv));
        for (auto& list : m.moves) {
          double t = uniform(0, 1), q = uniform(-1, 1);
          const int k = 1 + static_cast<int>(rng_.next() % 4);
          for (int i = 0; i < k; ++i) {
            const double tb = t + uniform(0.1, 2), qb = uniform(-2, 2);
            list.push_back({t, tb, q, qb});
            t = tb + (coin() ? 0.0 : uniform(0, 1));
            q = qb;
          }
        }
        break;
      case MotionType::Sinusoid:
        m.amplitude = values(nv, -1, 1);
        m.frequency = values(nv, 0, 2);
        m.phase = values(nv, -3, 3);
        m.offset = values(nv, -1, 1);
        break;
      case MotionType::Table:
        m.file = pick({"motions/pick.csv", "trajectory (deg).csv"});
        if (coin()) m.cutoff = uniform(1, 50);
        break;
    }
    return m;
  }

  Shape shape() {
    Shape s;
    s.type = pick({ShapeType::Box, ShapeType::Cylinder, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Prism});
    switch (s.type) {
      case ShapeType::Box: s.size = vec3(0.01, 2); break;
      case ShapeType::Sphere: s.radius = uniform(0.01, 1); break;
      case ShapeType::Cylinder:
      case ShapeType::Capsule:
        s.radius = uniform(0.01, 1);
        s.length = uniform(0.01, 2);
        break;
      case ShapeType::Prism:
        s.sides = 3 + static_cast<int>(rng_.next() % 10);
        s.radius = uniform(0.01, 1);
        s.length = uniform(0.01, 2);
        break;
      case ShapeType::Mesh: break;
    }
    s.origin = placement();
    s.color = Eigen::Vector4d(rng_.uniform(), rng_.uniform(), rng_.uniform(), rng_.uniform());
    return s;
  }

  BodySpec body(int i) {
    BodySpec b;
    b.name = "body_" + std::to_string(i);
    b.parent = i == 0 || rng_.next() % 4 == 0 ? "world" : "body_" + std::to_string(rng_.next() % i);
    JointSpec& j = b.joint;
    j.type = kAllJointTypes[rng_.next() % kAllJointTypes.size()];
    if (coin()) j.name = "joint_" + std::to_string(i);
    j.origin = placement();
    if (jointHasAxis(j.type)) j.axis = vec3(-1, 1);
    if (j.type == JointType::Universal) j.axis2 = j.axis.cross(vec3(-1, 1));
    const int nq = jointNq(j.type), nv = jointNv(j.type);
    if (j.type != JointType::Fixed) {
      if (coin()) {
        j.q0 = values(nq, -1, 1);
        if (j.type == JointType::Spherical || j.type == JointType::Free) j.q0[0] = 1.0;
      }
      if (coin()) j.v0 = values(nv, -1, 1);
      if (nq == nv && !jointUsesQuasiVelocity(j.type) && coin())
        for (int k = 0; k < nv; ++k) {
          const double lo = uniform(-3, 0);
          j.limits.push_back({lo, lo + uniform(0, 3)});
        }
      j.drive = drive(j.type);
      if (j.drive.type == DriveType::None && nq == nv && !jointUsesQuasiVelocity(j.type) && coin())
        j.motion = motion(nv);
      if (coin()) j.rating.effort = values(nv, 1, 100);
    }
    const int shapes = static_cast<int>(rng_.next() % 4);
    for (int k = 0; k < shapes; ++k) b.shapes.push_back(shape());
    if (shapes > 0 && coin()) {
      b.inertial.fromShapes = true;
      b.inertial.density = uniform(100, 10000);
    } else {
      b.inertial.mass = uniform(0.1, 10);
      b.inertial.com = vec3(-0.5, 0.5);
      const Vec3 p(uniform(0.5, 1), uniform(0.5, 1), uniform(0.5, 1));  // triangle inequality holds
      const Mat3 R =
          Quat(Eigen::Vector4d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), 1).normalized()).toRotationMatrix();
      Mat3 I = R * p.asDiagonal() * R.transpose();
      I = 0.5 * (I + I.transpose()).eval();
      b.inertial.inertia = I;
    }
    if (coin()) b.appliedWrench << vec3(-1, 1), vec3(-10, 10);
    return b;
  }

  SplitMix64 rng_;
};

}  // namespace

// Two YAML trees alike node by node: kind, position, value, quotes, entries in order. Where they
// differ is described in `where`.
bool sameTree(const yaml::Node& a, const yaml::Node& b, const std::string& path, std::string& where) {
  if (a.kind != b.kind || a.pos.line != b.pos.line || a.pos.column != b.pos.column || a.value != b.value ||
      a.quoted != b.quoted || a.items.size() != b.items.size() || a.entries.size() != b.entries.size()) {
    where = (path.empty() ? std::string("the root") : path) + ": line " + std::to_string(a.pos.line) + " against " +
            std::to_string(b.pos.line) + ", '" + a.value + "' against '" + b.value + "'";
    return false;
  }
  for (std::size_t k = 0; k < a.items.size(); ++k)
    if (!sameTree(*a.items[k], *b.items[k], path + "[" + std::to_string(k) + "]", where)) return false;
  for (std::size_t k = 0; k < a.entries.size(); ++k)
    if (!sameTree(*a.entries[k].first, *b.entries[k].first, path + ".(key)", where) ||
        !sameTree(*a.entries[k].second, *b.entries[k].second, path + "." + a.entries[k].first->value, where))
      return false;
  return true;
}

class TestModelIo : public QObject {
  Q_OBJECT

 private slots:
  void examplesRoundTrip_data() {
    QTest::addColumn<QString>("path");
    const auto paths = examplePaths();
    QVERIFY(paths.size() >= 5);
    for (const auto& p : paths)
      QTest::newRow(std::filesystem::path(p).filename().string().c_str()) << QString::fromStdString(p);
  }

  void examplesRoundTrip() {
    QFETCH(QString, path);
    const Model m1 = loadModelFromFile(path.toStdString());
    QCOMPARE(m1.sourceDirectory, std::filesystem::path(examplesDir()).lexically_normal().string());
    const std::string s1 = saveModelToString(m1);
    Model m2 = loadModelFromString(s1);
    QVERIFY(m2.sourceDirectory.empty());
    m2.sourceDirectory = m1.sourceDirectory;
    QVERIFY(m1 == m2);
    const std::string s2 = saveModelToString(m2);
    QCOMPARE(s2, s1);
  }

  void randomModelsRoundTrip() {
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
      const Model m = RandomModel(seed).build();
      const std::string s1 = saveModelToString(m);
      Model m2;
      try {
        m2 = loadModelFromString(s1, "random.yaml");
      } catch (const ModelLoadError& e) {
        QFAIL(qPrintable(QString("seed %1: %2\n%3").arg(seed).arg(e.what()).arg(QString::fromStdString(s1))));
      }
      QVERIFY2(m == m2,
               qPrintable(QString("seed %1: model differs after load\n%2").arg(seed).arg(QString::fromStdString(s1))));
      QCOMPARE(saveModelToString(m2), s1);
    }
  }

  void generatedTreesRoundTrip() {
    // 40 trees of up to 60 bodies suffice.
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Model m = makeRandomTree(seed);
      const std::string s1 = saveModelToString(m);
      const Model m2 = loadModelFromString(s1);
      const std::string s2 = saveModelToString(m2);
      QCOMPARE(s2, s1);
      QVERIFY(loadModelFromString(s2) == m2);
    }
  }

  void numbersRoundTripBitExactly() {
    const double values[] = {0.1,
                             1.0 / 3.0,
                             -0.0,
                             5e-324,
                             2.2250738585072014e-308,
                             1.7976931348623157e308,
                             1e-8,
                             123456789.123456789,
                             -2.5e-17,
                             0.3 - 0.1,
                             6.02214076e23};
    for (double x : values) {
      Model m;
      m.bodies.resize(1);
      m.bodies[0].name = "b";
      m.bodies[0].joint.type = JointType::Revolute;
      m.bodies[0].joint.q0 = {x};
      // Some of these are refused as starting positions (1e308 rad); the text still round-trips.
      std::vector<Diagnostic> problems;
      const Model back = loadModelForEditingFromString(saveModelToString(m), "q0.yaml", problems);
      QVERIFY2(sameBits(back.bodies[0].joint.q0[0], x), qPrintable(QString::number(x, 'g', 17)));
    }
  }

  void writerIsCanonical() {
    Model m;
    m.name = "canon";
    m.bodies.resize(1);
    m.bodies[0].name = "b";
    m.bodies[0].joint.axis = Vec3(0, 1, 0);
    m.simulation.step = 0.002;
    m.simulation.tolerance = 1e-8;
    const std::string s = saveModelToString(m);
    QVERIFY(s.rfind("kinetree: 1\nname: canon\n", 0) == 0);
    QVERIFY(s.find("  step: 0.002\n") != std::string::npos);
    QVERIFY(s.find("  tolerance: 1e-08\n") != std::string::npos);
    QVERIFY(s.find("      axis: [0, 1, 0]\n") != std::string::npos);
    QVERIFY(s.find("origin") == std::string::npos);  // identity placement left out
    QVERIFY(s.find("applied_wrench") == std::string::npos);
  }

  void savesAtomically() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("model.yaml").toStdString();
    Model m = loadModelFromFile(examplesDir() + "/pendulum.yaml");
    { std::ofstream(path) << "old contents\n"; }
    saveModelToFile(m, path);
    Model back = loadModelFromFile(path);
    QCOMPARE(back.sourceDirectory, std::filesystem::path(dir.path().toStdString()).lexically_normal().string());
    back.sourceDirectory = m.sourceDirectory;
    QVERIFY(back == m);
    // Only the target remains: no temporary file left behind.
    int files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) ++files;
    QCOMPARE(files, 1);
    // A directory that does not exist: an exception, and the old file is untouched.
    bool threw = false;
    try {
      saveModelToFile(m, dir.filePath("missing/sub/model.yaml").toStdString());
    } catch (const std::runtime_error&) {
      threw = true;
    }
    QVERIFY(threw);
  }

  // A file its owner made read-only is not replaced, although the folder lets a rename through:
  // refused with the reason, as the shell's `>` refuses it, by a single file and a file set alike,
  // and it keeps its bytes. Root may write any file, so as root the attempt is made by a child
  // that drops to the user nobody.
  void writeProtectedFilesAreKept() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string folder = dir.path().toStdString(), path = folder + "/p.csv";
    { std::ofstream(path) << "mine\n"; }
    QCOMPARE(::chmod(path.c_str(), 0444), 0);
    const auto attempt = [&]() -> int {  // 0: both refused with the reason, the file as it was
      try {
        writeFileAtomically(path, "overwritten\n");
        return 1;
      } catch (const std::runtime_error& e) {
        if (std::string(e.what()).find("p.csv: Permission denied (the file is write-protected)") == std::string::npos)
          return 2;
      }
      try {
        StagedFileSet set(folder);
        writeFileAtomically(set.stagingPath("p.csv"), "overwritten\n");
        set.commit();
        return 3;
      } catch (const std::runtime_error&) {
      }
      std::ifstream in(path);
      std::string text;
      std::getline(in, text);
      return text == "mine" ? 0 : 4;
    };
    if (::geteuid() != 0) {
      QCOMPARE(attempt(), 0);
      return;
    }
    constexpr uid_t kNobody = 65534;
    QCOMPARE(::chown(folder.c_str(), kNobody, kNobody), 0);
    QCOMPARE(::chown(path.c_str(), kNobody, kNobody), 0);
    const pid_t child = ::fork();
    if (child == 0) {
      if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) ::_exit(5);
      ::_exit(attempt());
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
  }

  // A full disk (injected: ENOSPC after some bytes, or at the commit) fails the write with the
  // reason; the old file keeps its bytes and mode and no temporary file is left.
  void fullDiskKeepsTheOldFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.yaml").toStdString();
    const std::string old = "old contents\n";
    writeFileAtomically(path, old);
    QVERIFY(::chmod(path.c_str(), 0640) == 0);
    const Model m = loadModelFromFile(examplesDir() + "/pendulum.yaml");
    for (long long after : {0LL, 5LL, 100000LL}) {  // at the start, within the file, at the commit
      setWriteFailureForTesting(1, after);
      std::string reason;
      try {
        saveModelToFile(m, path);
      } catch (const std::runtime_error& e) {
        reason = e.what();
      }
      setWriteFailureForTesting(0);
      QVERIFY2(reason.find("No space left on device") != std::string::npos, reason.c_str());
      QCOMPARE(fileText(path), old);
      QCOMPARE(filesIn(dir.path()), QStringList{"model.yaml"});
    }
    // the fault is only the next file's and later ones': it can be aimed at the n-th of a set
    setWriteFailureForTesting(2);
    writeFileAtomically(dir.filePath("first.txt").toStdString(), "1");
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically(dir.filePath("second.txt").toStdString(), "2"));
    setWriteFailureForTesting(0);
    saveModelToFile(m, path);
    QCOMPARE(filesIn(dir.path()), (QStringList{"first.txt", "model.yaml"}));
    struct stat st {};
    QVERIFY(::stat(path.c_str(), &st) == 0);
    QCOMPARE(st.st_mode & 07777, mode_t(0640));  // the mode of the file it replaced
  }

  // A FIFO or device is written in place: a rename would replace it with a regular file (as
  // root, /dev/null itself).
  void specialFilesAreWrittenInPlace() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("pipe").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // so that the writer's open returns
    QVERIFY(reader >= 0);
    writeFileAtomically(fifo, "through");
    char got[16] = {};
    QCOMPARE(::read(reader, got, sizeof got), ssize_t(7));
    ::close(reader);
    QCOMPARE(std::string(got), std::string("through"));
    struct stat st {};
    QVERIFY(::lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
    QCOMPARE(filesIn(dir.path()), QStringList{"pipe"});
  }

  // A set of files (the figures of one plot export) replaces the old set only when every file
  // was written: a failure at the third leaves all old files; the temporary folder goes.
  void fileSetIsReplacedOnlyWhenComplete() {
    QTemporaryDir dir;
    const QStringList names = {"a.svg", "b.svg", "c.svg", "d.svg"};
    for (const QString& n : names) writeFileAtomically(dir.filePath(n).toStdString(), "old " + n.toStdString());
    const auto writeSet = [&] {
      StagedFileSet set(dir.path().toStdString());
      for (const QString& n : names) writeFileAtomically(set.stagingPath(n.toStdString()), "new " + n.toStdString());
      set.commit();
    };
    setWriteFailureForTesting(3);
    std::string reason;
    try {
      writeSet();
    } catch (const std::runtime_error& e) {
      reason = e.what();
    }
    setWriteFailureForTesting(0);
    QVERIFY2(reason.find("No space left on device") != std::string::npos, reason.c_str());
    for (const QString& n : names) QCOMPARE(fileText(dir.filePath(n).toStdString()), "old " + n.toStdString());
    QCOMPARE(filesIn(dir.path()), names);
    writeSet();
    for (const QString& n : names) QCOMPARE(fileText(dir.filePath(n).toStdString()), "new " + n.toStdString());
    QCOMPARE(filesIn(dir.path()), names);
    // a name that was staged but never written is reported, and nothing is replaced
    StagedFileSet set(dir.path().toStdString());
    writeFileAtomically(set.stagingPath("a.svg"), "newer");
    set.stagingPath("e.svg");
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, set.commit());
  }

  // What a killed writer left (kill -9 during a write) has a name that says so, and the next
  // write into that folder removes it, unless its process is still running or it is this
  // process's own file in progress.
  void staleTemporariesAreRemoved() {
    QTemporaryDir dir;
    const pid_t dead = deadProcessId();
    QVERIFY(dead > 0);
    const auto touch = [&](const QString& name, bool old = false) {
      QFile f(dir.filePath(name));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("partial");
      f.flush();  // before the time is set: a later write would set it again
      if (old) QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(1000000000), QFileDevice::FileModificationTime));
    };
    const QString deadTag = QStringLiteral("kinetree-partial-%1-").arg(dead);
    const QString parentTag = QStringLiteral("kinetree-partial-%1-").arg(::getppid());  // still running
    const QString ownTag = QStringLiteral("kinetree-partial-%1-").arg(::getpid());
    touch("run.csv." + deadTag + "a1B2c3");
    touch("run.csv." + parentTag + "a1B2c3");
    touch("run.csv." + ownTag + "xxxxxx");                // this process's, new: in progress
    touch("old.csv." + ownTag + "yyyyyy", true);          // an earlier process of this id
    touch("notes." + deadTag + "abc");                    // not a temporary name of ours
    touch("notes-" + deadTag + "abcdef");                 // nor this
    QVERIFY(QDir(dir.path()).mkdir(deadTag + "Q9w8e7"));  // a plot export's folder
    touch(deadTag + "Q9w8e7/plots.png");
    writeFileAtomically(dir.filePath("run.csv").toStdString(), "time\n");
    // sorted on both sides: the order of the names depends on the digits of the process ids
    QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    QStringList expected{"notes-" + deadTag + "abcdef", "notes." + deadTag + "abc", "run.csv",
                         "run.csv." + parentTag + "a1B2c3", "run.csv." + ownTag + "xxxxxx"};
    left.sort();
    expected.sort();
    QCOMPARE(left, expected);
  }

  void scalarsAreBroadcast() {
    const std::string text = R"(kinetree: 1
name: broadcast
bodies:
  - name: a
    parent: world
    joint:
      type: cylindrical
      axis: [0, 0, 1]
      limits: {lower: -1, upper: 1}
      drive: {type: pd_sinusoid, kp: 10, amplitude: 0.5, frequency: 1}
    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
    shapes:
      - {type: mesh, file: cube.stl, scale: 2, color: [1, 0, 0]}
  - name: b
    parent: a
    joint:
      type: universal
      drive: {type: pd_piecewise, kp: 5, knots: [[0, 0], [1, 1]]}
    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
)";
    // Mesh existence is checked relative to the working directory for string input.
    QTemporaryDir dir;
    const std::string mesh = dir.filePath("cube.stl").toStdString();
    {
      std::ofstream out(mesh);
      out << "solid c\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
             "endsolid c\n";
    }
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir.path().toStdString());
    Model m;
    try {
      m = loadModelFromString(text);
    } catch (const ModelLoadError& e) {
      std::filesystem::current_path(cwd);
      QFAIL(e.what());
    }
    std::filesystem::current_path(cwd);
    const JointSpec& j = m.bodies[0].joint;
    QCOMPARE(j.limits.size(), std::size_t(2));
    QCOMPARE(j.limits[1].upper, 1.0);
    QCOMPARE(j.drive.amplitude, (std::vector<double>{0.5, 0.5}));
    QCOMPARE(j.drive.phase, (std::vector<double>{0.0, 0.0}));
    QCOMPARE(j.drive.kd, 0.0);
    QVERIFY(m.bodies[0].shapes[0].meshScale == Vec3(2, 2, 2));
    QVERIFY(m.bodies[0].shapes[0].color == Eigen::Vector4d(1, 0, 0, 1));
    QCOMPARE(m.bodies[1].joint.drive.knots.size(), std::size_t(2));
    QCOMPARE(m.bodies[1].joint.drive.knots[1][1].value, 1.0);
    QVERIFY(m.bodies[1].joint.axis == Vec3::UnitZ());
    QVERIFY(m.bodies[1].joint.axis2 == Vec3::UnitY());
  }

  void cardanIsUniversal() {
    const Model m = loadModelFromFile(examplesDir() + "/cardan_chain.yaml");
    QCOMPARE(m.bodies.size(), std::size_t(20));
    for (const BodySpec& b : m.bodies) QCOMPARE(b.joint.type, JointType::Universal);
    QVERIFY(saveModelToString(m).find("type: universal") != std::string::npos);
  }

  void yamlFeaturesAreAccepted() {
    // Anchors and aliases, comments, quoted strings, a document start marker, CRLF line ends.
    const std::string text =
        "---\r\n# comment\r\nkinetree: 1\r\nname: 'quoted name'\r\ngravity: &g [0, 0, -9.81]\r\nbodies:\r\n"
        "  - name: a\r\n    parent: world\r\n    joint: {type: revolute, axis: [0, 1, 0]}\r\n"
        "    inertial: &in {mass: 2, inertia: {ixx: 1, iyy: 1, izz: 1}}\r\n"
        "  - name: b\r\n    parent: a\r\n    joint: {type: prismatic}\r\n    inertial: *in\r\n...\r\n";
    const Model m = loadModelFromString(text);
    QCOMPARE(m.name, std::string("quoted name"));
    QCOMPARE(m.bodies[1].inertial.mass, 2.0);
  }

  // A large file is parsed in pieces cut along its largest list (yaml_tree.hpp, parseInPieces):
  // the tree must be the one the whole text gives, positions included, whatever the layout
  // around the cuts; and anything unusual in a piece gives no tree, so that the whole text is
  // parsed and every message is its own.
  void piecesGiveTheWholeTree() {
    std::vector<std::string> texts;
    for (const QString& name : QDir(QString::fromStdString(examplesDir())).entryList({"*.yaml"})) {
      QFile f(QString::fromStdString(examplesDir() + "/") + name);
      QVERIFY(f.open(QIODevice::ReadOnly));
      texts.push_back(f.readAll().toStdString());
    }
    texts.push_back(saveModelToString(makeChain(40)));
    std::string crlf;
    for (const char c : saveModelToString(makeBinaryTree(4)))
      crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    texts.push_back(crlf);
    // entries at the key's own indentation, comments, a flow mapping and a quoted text over several
    // lines, a block scalar whose lines look like entries, and keys after the list
    texts.push_back(
        "kinetree: 1\nbodies:   # the links\n- name: a\n  parent: world\n  description: |\n    - not an entry\n"
        "    - nor this\n# between entries\n\n- name: b\n  joint: {type: revolute,\naxis: x}\n"
        "- name: c\n  description: \"two\n- lines\"\n- name: 'd'\n  shapes:\n  - type: box\n  - type: sphere\n"
        "- {name: e, parent: d}\n-\n- name: f\nname: after\nextra:\n  - 1\n  - 2\n");
    // a quoted text after a tag, over lines that look like entries, and a block scalar after one
    texts.push_back(
        "bodies:\n  - a\n  - b\n  - c\n  - !!str \"d\n  - e\"\n  - x: !!str |\n      - f\n  - 'g\n\n  - h'\n  - i\n");
    for (std::size_t t = 0; t < texts.size(); ++t) {
      std::vector<yaml::ParseProblem> problems;
      const auto whole = yaml::parseDocument(texts[t], problems);  // small: parsed whole
      QVERIFY2(whole && problems.empty(),
               ("text " + std::to_string(t) + ": " + (problems.empty() ? "" : problems[0].message)).c_str());
      // a list of two entries is not cut: the first piece holds the first and the last entry
      const yaml::Node* bodies = whole->find("bodies");
      const bool cuttable = bodies != nullptr && bodies->items.size() >= 3;
      for (const int pieces : {2, 3, 5}) {
        const auto cut = yaml::parseInPieces(texts[t], pieces);
        QVERIFY2(bool(cut) == cuttable,
                 ("text " + std::to_string(t) + " in " + std::to_string(pieces) + " pieces").c_str());
        if (!cut) continue;
        std::string where;
        QVERIFY2(sameTree(*whole, *cut, "", where), ("text " + std::to_string(t) + ": " + where).c_str());
      }
    }
    // texts changed at random in the characters that decide how YAML reads the lines: where the
    // pieces give a tree, it is the whole text's, and the whole text has no problem
    std::mt19937 random(20261130);
    const char* const edits[] = {"\"", "'",      "[",    "]",    "{",     "}",      "|",          ">",  "- ",
                                 "\n", "\n  - ", "\n- ", "#",    " #",    "!!str ", "&a ",        "*a", "\t",
                                 ": ", ",",      "\\",   "\n  ", "---\n", "? ",     "\"\n  - x\n"};
    int fromPieces = 0;
    for (int round = 0; round < 600; ++round) {
      std::string text = texts[static_cast<std::size_t>(round) % texts.size()];
      for (unsigned k = 0, n = 1 + random() % 6; k < n; ++k) {
        const std::size_t at = random() % text.size();
        if (random() % 3 == 0)
          text.erase(at, 1 + random() % 3);
        else
          text.insert(at, edits[random() % std::size(edits)]);
      }
      std::vector<yaml::ParseProblem> problems;
      const auto whole = yaml::parseDocument(text, problems);
      const auto cut = yaml::parseInPieces(text, 3);
      if (!cut) continue;
      ++fromPieces;
      std::string where;
      QVERIFY2(whole && problems.empty() && sameTree(*whole, *cut, "", where), (where + "\n" + text).c_str());
    }
    QVERIFY2(fromPieces > 50, std::to_string(fromPieces).c_str());
    // what a piece cannot read alone, or reads with a problem, gives no tree
    const std::string entries = "  - name: a\n    parent: world\n  - name: b\n    parent: a\n  - name: c\n";
    for (const std::string& text : {
             std::string("bodies:\n  - &x {name: a}\n  - name: b\n  - name: c\n  - *x\n"),        // an alias
             "bodies:\n" + entries + "  - name: d\n    name: d\n",                                // a duplicate key
             "bodies:\n" + entries + "  - name: [d\n",                                            // a syntax error
             "bodies:\n" + entries + "  - \"e\n  - f\n",                                          // a quote not closed
             "bodies:\n" + entries + "  - !custom d\n",                                           // a tag
             std::string("name: m\nparent: 1\n"),                                                 // no list
             std::string("bodies:\n  - name: a\n"),                                               // one entry
             "%TAG !! tag:example.com,2000:\n---\nbodies:\n" + entries + "  - !!str d\n  - e\n",  // a directive
             // nested as deep as yaml-cpp allows, after what reads as a quote only in a flow collection
             "bodies:\n" + entries + "  - n: a,'b\n    c: " + std::string(497, '[') + std::string(497, ']') +
                 "\n    d: x'\n  - e\n",
         })
      QVERIFY2(!yaml::parseInPieces(text, 3), text.c_str());
    // a file large enough to be read in pieces: the model, and a mistake in its last body, are
    // what they would be in a small file
    const Model chain = makeChain(2500);
    std::string text = saveModelToString(chain);
    QVERIFY(text.size() > 1024 * 1024);
    QVERIFY(loadModelFromString(text).bodies.size() == chain.bodies.size());
    const std::size_t last = text.rfind("mass: 1");
    QVERIFY(last != std::string::npos);
    text.replace(last, 7, "mass: -1");
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(last), '\n'));
    try {
      loadModelFromString(text, "big.yaml");
      QFAIL("a negative mass was accepted");
    } catch (const ModelLoadError& e) {
      const std::string message = formatDiagnostics(e.diagnostics());
      QVERIFY2(message.find("big.yaml:" + std::to_string(line) + ":") != std::string::npos, message.c_str());
    }
  }

  // Bytes the YAML parser itself refuses: in a comment they are nothing to the model (a file
  // saved by an editor in Latin-1), in a value the model reader names the value; a private-use
  // character of a valid file is kept as it is.
  void unreadableBytesAreTheModelReadersToReport() {
    const std::string body =
        "bodies:\n  - name: a\n    parent: world\n    joint: {type: revolute, axis: [0, 1, 0]}\n"
        "    inertial: {mass: 2, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    const Model latin1 = loadModelFromString("kinetree: 1\n# r\xe9glage \x01\x7f\nname: m\n" + body);
    QCOMPARE(latin1.name, std::string("m"));
    const Model pua = loadModelFromString("kinetree: 1\nname: m\xef\x9c\x80\n" + body);  // U+F700
    QCOMPARE(pua.name, std::string("m\xef\x9c\x80"));
    try {
      loadModelFromString("kinetree: 1\nname: ok\ndescription: caf\xe9\n" + body, "latin1.yaml");
      QFAIL("invalid UTF-8 in a value was accepted");
    } catch (const ModelLoadError& e) {
      const std::string text = formatDiagnostics(e.diagnostics());
      QVERIFY2(text.find("latin1.yaml:3:14: error: description: is not valid UTF-8 text (byte 0xE9 at offset 3)") !=
                   std::string::npos,
               text.c_str());
    }
  }

  // Encodings (YAML 1.2 §5.2): UTF-8 with or without its mark, UTF-16 and UTF-32 either way round
  // with a mark, and UTF-16 without one (the zero bytes of its first character), all read as the
  // same model; a mistake in a UTF-16 file is reported at its line and column in characters; an
  // encoding YAML does not allow is named, and a UTF-16 file cut in a character is refused.
  void encodingsYamlAllows() {
    const std::string dir = KINETREE_SOURCE_DIR "/tests/data/encoding/";
    const Model reference = loadModelFromFile(dir + "pendulum_utf8.yaml");
    QCOMPARE(reference.description, std::string("Pendel — 振り子, angle 𝜃"));
    const std::string canonical = saveModelToString(reference);
    for (const char* file : {"pendulum_utf8_bom.yaml", "pendulum_utf16le.yaml", "pendulum_utf16be.yaml",
                             "pendulum_utf32le.yaml", "pendulum_utf32be.yaml", "pendulum_utf16le_no_bom.yaml"})
      QVERIFY2(saveModelToString(loadModelFromFile(dir + file)) == canonical, file);
    const auto refused = [&](const char* file, const std::string& expected) {
      try {
        loadModelFromFile(dir + file);
        return std::string("accepted");
      } catch (const ModelLoadError& e) {
        const std::string text = formatDiagnostics(e.diagnostics());
        return text.find(expected) != std::string::npos ? std::string() : text;
      }
    };
    std::string why = refused("bad_density_utf16le.yaml",
                              "bad_density_utf16le.yaml:29:16: error: bodies[0].inertial.density: expected a number");
    QVERIFY2(why.empty(), why.c_str());
    why = refused("pendulum_utf7.yaml", "pendulum_utf7.yaml:1:1: error: the text is encoded in UTF-7");
    QVERIFY2(why.empty(), why.c_str());
    why = refused("truncated_utf16le.yaml", "the text is not valid UTF-16LE: its length is not a whole number");
    QVERIFY2(why.empty(), why.c_str());
    // a model on one line (as JSON is written): columns in characters, after a two-byte 'ö'; and
    // a byte order mark written twice does not shift them
    const std::string oneLine =
        "{kinetree: 1, name: \"möbel\", bodies: [{name: a, parent: world, joint: {type: revolute, axis: [0, 1, 0]}, "
        "inertial: {mass: x, inertia: {ixx: 1, iyy: 1, izz: 1}}}]}";
    for (const std::string& text : {oneLine, "\xEF\xBB\xBF\xEF\xBB\xBF" + oneLine}) {
      try {
        loadModelFromString(text, "one_line.yaml");
        QFAIL("a mass of 'x' was accepted");
      } catch (const ModelLoadError& e) {
        const std::string message = formatDiagnostics(e.diagnostics());
        QVERIFY2(
            message.find("one_line.yaml:1:123: error: bodies[0].inertial.mass: expected a number") != std::string::npos,
            message.c_str());
      }
    }
    // UTF-8 text with a NUL early on is not taken for UTF-16 (YAML then refuses the NUL itself)
    try {
      loadModelFromString(std::string("#\0 comment\nkinetree: 1\nname: m\n"), "nul.yaml");
    } catch (const ModelLoadError& e) {
      QVERIFY(formatDiagnostics(e.diagnostics()).find("UTF-16") == std::string::npos);
    }
  }

  // What YAML readers and users take as valid is accepted: whole numbers written with a
  // fraction of zero, standard tags, an empty simulation block, classic Mac line ends.
  void validSpellingsAreAccepted() {
    const std::string base =
        "kinetree: 1.0\n"
        "name: spellings\n"
        "simulation:\n"
        "  # solver: aba\n"
        "  # step: 0.001\n"
        "bodies:\n"
        "  - name: a\n"
        "    parent: world\n"
        "    joint: {type: revolute, q0: !!float 0.5}\n"
        "    inertial: {mass: !!float 2.5, inertia: {ixx: !!float 1, iyy: 1, izz: !!int 1}}\n"
        "    shapes:\n"
        "      - {type: prism, sides: 6.0, radius: 0.1, length: 0.2}\n"
        "      - {type: prism, sides: !!int 8, radius: 0.1, length: 0.2}\n";
    Model m;
    try {
      m = loadModelFromString(base, "spellings.yaml");
    } catch (const ModelLoadError& e) {
      QFAIL(e.what());
    }
    QCOMPARE(m.formatVersion, 1);
    QCOMPARE(m.bodies[0].shapes[0].sides, 6);
    QCOMPARE(m.bodies[0].shapes[1].sides, 8);
    QCOMPARE(m.bodies[0].inertial.mass, 2.5);
    QCOMPARE(m.bodies[0].joint.q0[0], 0.5);
    QCOMPARE(m.simulation.solver, SimulationSettings{}.solver);
    // CR-only line ends (and CRLF) read the same as LF.
    std::string cr = base, crlf;
    std::replace(cr.begin(), cr.end(), '\n', '\r');
    for (char c : base) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    for (const std::string& text : {cr, crlf}) {
      try {
        const Model other = loadModelFromString(text, "cr.yaml");
        QCOMPARE(saveModelToString(other), saveModelToString(m));
      } catch (const ModelLoadError& e) {
        QFAIL(e.what());
      }
    }
    // Position reporting stays right with CR-only line ends.
    std::string bad = base;
    bad.replace(bad.find("mass: !!float 2.5"), 17, "mass: -1");
    std::replace(bad.begin(), bad.end(), '\n', '\r');
    try {
      loadModelFromString(bad, "cr.yaml");
      QFAIL("a negative mass was accepted");
    } catch (const ModelLoadError& e) {
      QCOMPARE(e.diagnostics().front().line, 10);
    }
  }

  // A thin wire (0.6 mm thick, 1 m long: condition number 2e6) is positive definite; a singular
  // inertia is still refused.
  void thinWireInertiaIsPositiveDefinite() {
    const double m = 0.0022, r = 0.3e-3, L = 1.0;
    const double ixx = m * (3 * r * r + L * L) / 12, izz = m * r * r / 2;
    const auto text = [](double a, double b, double c, double ab) {
      return "kinetree: 1\nname: wire\nbodies:\n  - name: w\n    parent: world\n    joint: {type: free}\n"
             "    inertial: {mass: 0.0022, inertia: {ixx: " +
             formatRoundTrip(a) + ", iyy: " + formatRoundTrip(b) + ", izz: " + formatRoundTrip(c) +
             ", ixy: " + formatRoundTrip(ab) + "}}\n";
    };
    try {
      loadModelFromString(text(ixx, ixx, izz, 0), "wire.yaml");
    } catch (const ModelLoadError& e) {
      QFAIL(e.what());
    }
    QVERIFY_THROWS_EXCEPTION(ModelLoadError, loadModelFromString(text(1, 1, 1, 1), "singular.yaml"));
  }

  // A joint that starts far outside its limits loads, with a positioned warning (and a hint when
  // the value would fit in degrees).
  void startOutsideLimitsIsAWarning() {
    const std::string text =
        "kinetree: 1\nname: degrees\nbodies:\n  - name: a\n    parent: world\n"
        "    joint: {type: revolute, q0: [90], limits: [{lower: -2, upper: 2}]}\n"
        "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    std::vector<Diagnostic> warnings;
    Model m;
    try {
      m = loadModelFromString(text, "degrees.yaml", warnings);
    } catch (const ModelLoadError& e) {
      QFAIL(e.what());
    }
    QCOMPARE(m.bodies[0].joint.q0[0], 90.0);
    QCOMPARE(warnings.size(), std::size_t(1));
    const std::string w = warnings.front().format();
    QVERIFY2(w.rfind("degrees.yaml:6:34: warning: bodies[0].joint.q0[0]: the joint starts at 90, outside its limits "
                     "[-2, 2]; angles are in radians: is it in degrees? (90° is 1.5708 rad)",
                     0) == 0,
             w.c_str());
    // Within the limits: no warning; the loader without the list still loads it.
    loadModelFromString(std::string(text).replace(text.find("[90]"), 4, "[1.5]"), "ok.yaml", warnings);
    QVERIFY(warnings.empty());
    QCOMPARE(loadModelFromString(text).bodies[0].joint.q0[0], 90.0);
  }

  // Load ratings: read, written back in canonical form, one reaction rating for all coordinates,
  // on a fixed joint too; a file without them has none.
  void loadRatings() {
    const std::string text =
        "kinetree: 1\nname: rated\nbodies:\n  - name: a\n    parent: world\n"
        "    joint: {type: revolute, rating: {force: 400, moment: 60.5, reaction: 25}}\n"
        "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
        "  - name: b\n    parent: a\n    joint: {type: fixed, rating: {moment: 10}}\n"
        "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    const Model m = loadModelFromString(text);
    const LoadRating& a = m.bodies[0].joint.rating;
    QCOMPARE(a.force, 400.0);
    QCOMPARE(a.moment, 60.5);
    QCOMPARE(a.reaction, std::vector<double>(5, 25.0));
    const LoadRating& b = m.bodies[1].joint.rating;
    QCOMPARE(b.force, 0.0);
    QCOMPARE(b.moment, 10.0);
    QVERIFY(b.reaction.empty());
    const std::string saved = saveModelToString(m);
    QVERIFY2(
        saved.find("      rating: {force: 400, moment: 60.5, reaction: [25, 25, 25, 25, 25]}\n") != std::string::npos,
        saved.c_str());
    QVERIFY(saved.find("      rating: {moment: 10}\n") != std::string::npos);
    QVERIFY(loadModelFromString(saved) == m);
    QVERIFY(loadModelFromFile(KINETREE_SOURCE_DIR "/examples/pendulum.yaml").bodies[0].joint.rating.empty());
  }

  void editingLoadKeepsModelProblems() {
    // Reads fine, fails the model checks twice (a negative mass, a parent cycle).
    const std::string text =
        "kinetree: 1\nname: fixable\nbodies:\n"
        "  - name: a\n    parent: b\n    joint: {type: revolute}\n"
        "    inertial: {mass: -1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
        "  - name: b\n    parent: a\n    joint: {type: revolute}\n"
        "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    std::vector<Diagnostic> thrown;
    try {
      loadModelFromString(text, "fixable.yaml");
    } catch (const ModelLoadError& e) {
      thrown = e.diagnostics();
    }
    QVERIFY(thrown.size() >= 2);
    std::vector<Diagnostic> problems;
    const Model m = loadModelForEditingFromString(text, "fixable.yaml", problems);
    QCOMPARE(m.bodies.size(), std::size_t(2));
    QCOMPARE(m.bodies[0].inertial.mass, -1.0);
    // The same problems, positioned the same way.
    QCOMPARE(problems.size(), thrown.size());
    for (std::size_t k = 0; k < problems.size(); ++k) QCOMPARE(problems[k].format(), thrown[k].format());
    QCOMPARE(problems.front().line, 5);  // "parent: b", the cycle

    // A file that does not read still throws, with its position.
    bool threw = false;
    try {
      loadModelForEditingFromString("kinetree: 1\nbodies:\n  - name: a\n    inertial: {mass: heavy}\n", "bad.yaml",
                                    problems);
    } catch (const ModelLoadError& e) {
      threw = true;
      bool atMass = false;
      for (const Diagnostic& d : e.diagnostics())
        atMass = atMass || (d.line == 4 && d.path == "bodies[0].inertial.mass");
      QVERIFY(atMass);
    }
    QVERIFY(threw);

    // From a file: the same, with the folder for mesh paths.
    QTemporaryDir dir;
    const std::string path = dir.filePath("fixable.yaml").toStdString();
    std::ofstream(path) << text;
    const Model fromFile = loadModelForEditing(path, problems);
    QCOMPARE(problems.size(), thrown.size());
    QVERIFY(!fromFile.sourceDirectory.empty());
  }
};

QTEST_GUILESS_MAIN(TestModelIo)
#include "test_model_io.moc"
