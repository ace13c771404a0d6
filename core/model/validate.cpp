// SPDX-License-Identifier: BSD-3-Clause
// The model validator: every problem of a Model, each tied to the YAML path of the field
// (docs/model-format.md) and worded for the user. The loader maps the paths back to file
// positions; the editor's problems list shows the same messages. The simulation: block is
// core/sim's to check (checkSimulationSettings), mesh files are read by the caller's MeshSource.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include "core/model/geometry/mass_properties.hpp"
#include "core/model/geometry/physical_inertia.hpp"
#include "core/model/text_util.hpp"
#include "core/model/tree.hpp"
#include "core/motion/joint_motion.hpp"

namespace kt {
namespace {

// The tolerances of a physical inertia (the triangle inequality, positive definiteness) are
// core/model/geometry/physical_inertia.hpp's, which the importers' repairs also meet.
constexpr int kMaxPrismSides = 1024;
// Magnitudes beyond these are unit mistakes or typos, and the dynamics overflow or lose all
// precision with them (a mass of 1e308 times g is already infinite). Masses below kMinMass
// include the subnormal numbers, whose inverse overflows.
constexpr double kMaxLength = 1e6;        // m: positions, centres of mass, prismatic coordinates
constexpr double kMaxMass = 1e15;         // kg
constexpr double kMinMass = 1e-15;        // kg
constexpr double kMaxAcceleration = 1e6;  // m/s²: gravity
constexpr double kMaxInertia = 1e30;      // kg m²
constexpr double kMaxCoordinate = 1e9;    // q0, v0 of any joint (rad, m, rad/s, m/s)
// Plausibility (warnings only): a moving body lighter than a gram, or whose radius of gyration
// is many times the size of its shapes, is almost always a placeholder or a unit mistake.
constexpr double kMinMovingMass = 1e-3;       // kg
constexpr double kMaxGyrationPerExtent = 10;  // radius of gyration / largest half-extent of the shapes
// "Did you mean" suggestions search all names, so only the first few unknown names get one.
constexpr int kMaxSuggestions = 10;

class Checker {
 public:
  explicit Checker(std::vector<Diagnostic>& out) : out_(out) {}

  // At most kMaxDiagnostics are kept (as the reader does); the rest are only counted.
  void error(const std::string& path, const std::string& message) {
    if (++count_ > kMaxDiagnostics) return;
    Diagnostic d;
    d.path = path;
    d.message = message;
    out_.push_back(std::move(d));
  }

  // Each element finite; reports the first bad element. Returns true when all are finite.
  bool finite(const std::string& path, const double* x, int n) {
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(x[i])) {
        error(path + "[" + std::to_string(i) + "]", "must be a finite number, got " + formatRoundTrip(x[i]));
        return false;
      }
    return true;
  }
  bool finite(const std::string& path, double x) {
    if (std::isfinite(x)) return true;
    error(path, "must be a finite number, got " + formatRoundTrip(x));
    return false;
  }
  template <typename V>
  bool finiteVec(const std::string& path, const V& v) {
    return finite(path, v.data(), static_cast<int>(v.size()));
  }

  // Each |element| ≤ limit (finite elements only; the finite checks report the others).
  bool bounded(const std::string& path, const double* x, int n, double limit, const char* what, bool indexed = true) {
    for (int i = 0; i < n; ++i)
      if (std::isfinite(x[i]) && std::abs(x[i]) > limit) {
        error(indexed ? path + "[" + std::to_string(i) + "]" : path,
              "is too large: " + formatRoundTrip(x[i]) + " (" + what + " are limited to " +
                  formatSignificant(limit, 6) +
                  "; larger values overflow or lose all precision in the dynamics; check the units)");
        return false;
      }
    return true;
  }
  template <typename V>
  bool boundedVec(const std::string& path, const V& v, double limit, const char* what) {
    return bounded(path, v.data(), static_cast<int>(v.size()), limit, what);
  }

  // x > 0 (strict) or x ≥ 0.
  bool positive(const std::string& path, double x, bool strict = true) {
    if (!finite(path, x)) return false;
    if (strict ? x > 0.0 : x >= 0.0) return true;
    error(path, std::string(strict ? "must be > 0" : "must be ≥ 0") + ", got " + formatRoundTrip(x));
    return false;
  }

  std::size_t count() const { return count_; }
  bool full() const { return count_ >= kMaxDiagnostics; }

  // The closing "... and N more" line when some were left out.
  void finish() {
    if (count_ > kMaxDiagnostics) out_.push_back(omittedProblemsLine(count_ - kMaxDiagnostics));
  }

 private:
  std::vector<Diagnostic>& out_;
  std::size_t count_ = 0;
};

std::string countWord(std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string jointArticle(JointType t) {
  const std::string_view n = jointTypeName(t);
  return "a " + std::string(n) + " joint";
}

void checkPlacement(Checker& c, const std::string& path, const Placement& p) {
  if (c.finiteVec(path + ".xyz", p.xyz)) c.boundedVec(path + ".xyz", p.xyz, kMaxLength, "positions (m)");
  if (p.useQuaternion) {
    if (c.finiteVec(path + ".quaternion", p.quat) && p.quat.norm() < 1e-12)
      c.error(path + ".quaternion", "must not be zero; expected a rotation [w, x, y, z] such as [1, 0, 0, 0]");
  } else {
    c.finiteVec(path + ".rpy", p.rpy);
  }
}

void checkVectorSize(Checker& c, const std::string& path, std::size_t got, int expected, const std::string& what,
                     const std::string& jointDesc) {
  if (static_cast<int>(got) == expected) return;
  c.error(path, "has " + countWord(got, "value") + ", expected " + std::to_string(expected) + " (" + what + " of " +
                    jointDesc + ")");
}

// A load rating: force and moment ≥ 0 (0: none), one positive limit per reaction coordinate.
void checkRating(Checker& c, const std::string& path, const JointSpec& j) {
  const LoadRating& r = j.rating;
  c.positive(path + ".force", r.force, false);
  c.positive(path + ".moment", r.moment, false);
  if (r.reaction.empty()) return;
  const int reactions = 6 - jointNv(j.type);
  if (reactions == 0) {
    c.error(path + ".reaction", jointArticle(j.type) + " transmits no reaction; remove the reaction ratings");
    return;
  }
  checkVectorSize(c, path + ".reaction", r.reaction.size(), reactions, "reaction coordinates", jointArticle(j.type));
  for (std::size_t k = 0; k < r.reaction.size(); ++k)
    c.positive(path + ".reaction[" + std::to_string(k) + "]", r.reaction[k]);
}

void checkEffortRating(Checker& c, const std::string& path, const JointSpec& j) {
  const std::vector<double>& e = j.rating.effort;
  if (e.empty()) return;
  const int nv = jointNv(j.type);
  if (nv == 0) {
    c.error(path, "a fixed joint has no actuated coordinate; remove the effort rating");
    return;
  }
  checkVectorSize(c, path, e.size(), nv, "actuated coordinates", jointArticle(j.type));
  for (std::size_t k = 0; k < e.size(); ++k) c.positive(path + "[" + std::to_string(k) + "]", e[k]);
}

// One finite number per coordinate of the joint `jd` (drive and motion parameters).
bool checkCoordinateValues(Checker& c, const std::string& path, const std::vector<double>& v, int nv,
                           const std::string& jd) {
  if (static_cast<int>(v.size()) != nv) {
    c.error(path, "has " + countWord(v.size(), "value") + ", expected " + std::to_string(nv) +
                      " (one per coordinate of " + jd + "; a single number applies to all)");
    return false;
  }
  return c.finiteVec(path, v);
}

void checkDrive(Checker& c, const std::string& path, const JointSpec& j) {
  const Drive& d = j.drive;
  if (d.type == DriveType::None) return;
  const int nq = jointNq(j.type), nv = jointNv(j.type);
  const std::string kind(driveTypeName(d.type));
  const std::string jd = jointArticle(j.type);
  if (nv == 0) {
    c.error(path + ".type", "a fixed joint has no coordinate to drive; remove the drive or use type: none");
    return;
  }
  const bool needsPosition =
      d.type == DriveType::PdSinusoid || d.type == DriveType::PdPiecewise || d.type == DriveType::SpringDamper;
  if (needsPosition && (nq != nv || jointUsesQuasiVelocity(j.type))) {
    c.error(path + ".type", "a " + kind + " drive compares positions coordinate by coordinate and cannot act on " + jd +
                                "; use it on revolute, prismatic, cylindrical, universal or gimbal joints");
    return;
  }
  const auto vec = [&](const char* key, const std::vector<double>& v) {
    return checkCoordinateValues(c, path + "." + key, v, nv, jd);
  };
  const auto nonNegative = [&](const char* key, const std::vector<double>& v) {
    if (!vec(key, v)) return;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] < 0.0) {
        c.error(path + "." + key + "[" + std::to_string(i) + "]", "must be ≥ 0, got " + formatRoundTrip(v[i]));
        return;
      }
  };
  switch (d.type) {
    case DriveType::None: break;
    case DriveType::Constant: vec("value", d.value); break;
    case DriveType::Sinusoid:
    case DriveType::PdSinusoid:
      vec("amplitude", d.amplitude);
      nonNegative("frequency", d.frequency);
      vec("phase", d.phase);
      vec("offset", d.offset);
      break;
    case DriveType::PdPiecewise:
      if (static_cast<int>(d.knots.size()) != nv) {
        c.error(path + ".knots", "has " + countWord(d.knots.size(), "knot list") + ", expected " + std::to_string(nv) +
                                     " (one per coordinate of " + jd + ")");
        break;
      }
      for (std::size_t k = 0; k < d.knots.size(); ++k) {
        const std::string kp = path + ".knots[" + std::to_string(k) + "]";
        if (d.knots[k].empty()) {
          c.error(kp, "must have at least one [time, value] knot");
          continue;
        }
        for (std::size_t i = 0; i < d.knots[k].size(); ++i) {
          const Knot& kn = d.knots[k][i];
          const std::string ip = kp + "[" + std::to_string(i) + "]";
          if (!c.finite(ip + "[0]", kn.t) || !c.finite(ip + "[1]", kn.value)) break;
          if (i > 0 && !(kn.t > d.knots[k][i - 1].t)) {
            c.error(ip + "[0]", "knot times must increase strictly, got " + formatRoundTrip(kn.t) + " after " +
                                    formatRoundTrip(d.knots[k][i - 1].t));
            break;
          }
        }
      }
      break;
    case DriveType::SpringDamper:
      nonNegative("stiffness", d.stiffness);
      nonNegative("damping", d.damping);
      vec("rest_position", d.restPosition);
      break;
    case DriveType::Table:
      if (d.file.empty()) c.error(path + ".file", "must name a CSV file with tau:<joint>[k] columns");
      break;
  }
  if (d.type == DriveType::PdSinusoid || d.type == DriveType::PdPiecewise) {
    const bool kpOk = c.positive(path + ".kp", d.kp, false);
    const bool kdOk = c.positive(path + ".kd", d.kd, false);
    if (kpOk && kdOk && d.kp == 0.0 && d.kd == 0.0)
      c.error(path + ".kp", "kp and kd are both 0, so the drive does nothing; give a positive gain");
  }
}

// A prescribed motion (docs/motion.md): on a joint whose position coordinates are its velocity
// coordinates, one profile per coordinate, each one that the motion shapes accept
// (core/motion/motion_profile.hpp).
void checkMotion(Checker& c, const std::string& path, const JointSpec& j) {
  const Motion& m = j.motion;
  if (m.type == MotionType::None) return;
  const int nq = jointNq(j.type), nv = jointNv(j.type);
  const std::string jd = jointArticle(j.type);
  if (nv == 0) {
    c.error(path + ".type", "a fixed joint has no coordinate to move; remove the motion or use type: none");
    return;
  }
  if (nq != nv || jointUsesQuasiVelocity(j.type)) {
    c.error(path + ".type", jd + " cannot follow a prescribed motion (its velocity is not the rate of its "
                                 "coordinates); revolute, prismatic, cylindrical and universal joints can");
    return;
  }
  if (j.drive.type != DriveType::None)
    c.error(path, "the joint has a drive as well; a joint follows either a motion or a drive: remove one of them");
  const auto vec = [&](const char* key, const std::vector<double>& v) {
    return checkCoordinateValues(c, path + "." + key, v, nv, jd);
  };
  const auto perCoordinate = [&](const char* key, std::size_t lists, const char* what) {
    if (static_cast<int>(lists) == nv) return true;
    c.error(path + "." + key, "has " + countWord(lists, what) + ", expected " + std::to_string(nv) +
                                  " (one per coordinate of " + jd + ")");
    return false;
  };
  switch (m.type) {
    case MotionType::None: break;
    case MotionType::Spline:
      if (!perCoordinate("knots", m.knots.size(), "knot list")) break;
      for (std::size_t k = 0; k < m.knots.size(); ++k) {
        const std::string kp = path + ".knots[" + std::to_string(k) + "]";
        if (m.knots[k].size() < 2) {
          c.error(kp, "a spline needs at least two [time, position] knots, got " + std::to_string(m.knots[k].size()));
          continue;
        }
        for (std::size_t i = 0; i < m.knots[k].size(); ++i) {
          const Knot& kn = m.knots[k][i];
          const std::string ip = kp + "[" + std::to_string(i) + "]";
          if (!c.finite(ip + "[0]", kn.t) || !c.finite(ip + "[1]", kn.value)) break;
          if (i > 0 && !(kn.t > m.knots[k][i - 1].t)) {
            c.error(ip + "[0]", "knot times must increase strictly, got " + formatRoundTrip(kn.t) + " after " +
                                    formatRoundTrip(m.knots[k][i - 1].t));
            break;
          }
        }
      }
      if (!m.startVelocity.empty() || !m.endVelocity.empty()) {
        vec("start_velocity", m.startVelocity);
        vec("end_velocity", m.endVelocity);
      }
      break;
    case MotionType::RestToRest:
      if (!perCoordinate("moves", m.moves.size(), "move list")) break;
      for (std::size_t k = 0; k < m.moves.size(); ++k) {
        const std::string kp = path + ".moves[" + std::to_string(k) + "]";
        if (m.moves[k].empty()) {
          c.error(kp, "must have at least one move [t_a, t_b, q_a, q_b]");
          continue;
        }
        for (std::size_t i = 0; i < m.moves[k].size(); ++i) {
          const Move& mv = m.moves[k][i];
          const std::string ip = kp + "[" + std::to_string(i) + "]";
          const double values[4] = {mv.ta, mv.tb, mv.qa, mv.qb};
          if (!c.finite(ip, values, 4)) break;
          if (!(mv.tb > mv.ta)) {
            c.error(ip + "[1]", "a move must end after it starts: t_b = " + formatRoundTrip(mv.tb) +
                                    " is not after t_a = " + formatRoundTrip(mv.ta));
            break;
          }
          if (i == 0) continue;
          const Move& prev = m.moves[k][i - 1];
          if (mv.ta < prev.tb) {
            c.error(ip + "[0]", "moves must follow one another: this one starts at " + formatRoundTrip(mv.ta) +
                                    " s, before the previous one ends (" + formatRoundTrip(prev.tb) + " s)");
            break;
          }
          if (std::abs(mv.qa - prev.qb) > 1e-12 * std::max(1.0, std::abs(prev.qb))) {
            c.error(ip + "[2]", "a move starts where the previous one ended (" + formatRoundTrip(prev.qb) + "), got " +
                                    formatRoundTrip(mv.qa) + ": a jump would need an infinite velocity");
            break;
          }
        }
      }
      break;
    case MotionType::Sinusoid:
      vec("amplitude", m.amplitude);
      if (vec("frequency", m.frequency))
        for (std::size_t i = 0; i < m.frequency.size(); ++i)
          if (m.frequency[i] < 0.0) {
            c.error(path + ".frequency[" + std::to_string(i) + "]",
                    "must be ≥ 0, got " + formatRoundTrip(m.frequency[i]));
            break;
          }
      vec("phase", m.phase);
      vec("offset", m.offset);
      break;
    case MotionType::Table:
      if (m.file.empty()) c.error(path + ".file", "must name a CSV file with q:<joint>[k] columns");
      c.positive(path + ".cutoff", m.cutoff, false);
      break;
  }
}

void checkJoint(Checker& c, const std::string& path, const JointSpec& j) {
  const int nq = jointNq(j.type), nv = jointNv(j.type);
  const std::string jd = jointArticle(j.type);
  checkPlacement(c, path + ".origin", j.origin);
  bool axesOk = true;
  if (jointHasAxis(j.type)) {
    if (!c.finiteVec(path + ".axis", j.axis)) {
      axesOk = false;
    } else if (!std::isfinite(j.axis.squaredNorm())) {
      c.error(path + ".axis", "is too long to normalise (its length overflows); write a direction such as [0, 0, 1]");
      axesOk = false;
    } else if (j.axis.norm() < 1e-12) {
      c.error(path + ".axis", std::string("must not be zero; expected a direction such as [0, 0, 1]") +
                                  (j.type == JointType::Planar ? " (the plane normal)" : ""));
      axesOk = false;
    }
  }
  if (j.type == JointType::Universal || j.type == JointType::Gimbal) c.finiteVec(path + ".point2", j.point2);
  if (j.type == JointType::Gimbal) c.finiteVec(path + ".point3", j.point3);
  if (j.type == JointType::Universal) {
    if (!c.finiteVec(path + ".axis2", j.axis2)) {
      axesOk = false;
    } else if (!std::isfinite(j.axis2.squaredNorm())) {
      c.error(path + ".axis2", "is too long to normalise (its length overflows); write a direction such as [0, 1, 0]");
      axesOk = false;
    } else if (j.axis2.norm() < 1e-12) {
      c.error(path + ".axis2", "must not be zero; expected the second (child-side) axis, such as [0, 1, 0]");
      axesOk = false;
    }
    if (axesOk && j.axis.normalized().cross(j.axis2.normalized()).norm() < 1e-9)
      c.error(path + ".axis2",
              "is parallel to axis; a universal joint needs two different axes (perpendicular for a "
              "cardan joint)");
  }
  if (j.type == JointType::Gimbal) {
    const auto axisOk = [&](const std::string& key, const Vec3& a, const char* example) {
      if (!c.finiteVec(path + "." + key, a)) return false;
      if (!std::isfinite(a.squaredNorm()) || a.norm() < 1e-12) {
        c.error(path + "." + key, std::string("must be a direction that is not zero, such as ") + example);
        return false;
      }
      return true;
    };
    const bool ok2 = axisOk("axis2", j.axis2, "[0, 1, 0]"), ok3 = axisOk("axis3", j.axis3, "[1, 0, 0]");
    if (axesOk && ok2 && ok3) {
      // the three axes span the rotations unless two neighbours are parallel, or the first (as
      // the other two turn it) lies in the plane of the second and third at the starting angles,
      // q0 or all zero (gimbal lock, det Ŝ = 0): S would lose a column there
      const Vec3 a1 = j.axis.normalized(), a2 = j.axis2.normalized(), a3 = j.axis3.normalized();
      if (a1.cross(a2).norm() < 1e-9)
        c.error(path + ".axis2", "is parallel to axis; a gimbal joint turns about three axes, neighbours not parallel");
      else if (a2.cross(a3).norm() < 1e-9)
        c.error(path + ".axis3",
                "is parallel to axis2; a gimbal joint turns about three axes, neighbours not parallel");
      else if (j.q0.empty() || (j.q0.size() == 3 && std::isfinite(j.q0[1]) && std::isfinite(j.q0[2]))) {
        const JointModel m = JointModel::make(JointType::Gimbal, a1, a2, a3);
        const double zero[3] = {0.0, 0.0, 0.0};
        Mat6N S;
        m.motionSubspace(j.q0.empty() ? zero : j.q0.data(), S);
        if (std::abs(S.topRows<3>().determinant()) < 1e-9)
          c.error(path + (j.q0.empty() ? ".axis3" : ".q0"),
                  std::string(j.q0.empty() ? "at the neutral position (all angles zero) puts" : "puts") +
                      " the gimbal's first axis, as the other two turn it, in the plane of its second and "
                      "third (gimbal lock): its three angles no longer describe every rotation; " +
                      (j.q0.empty() ? "choose axes with a·(a₂ × a₃) ≠ 0, such as z, y, x" : "start away from it"));
      }
    }
  }
  if (!j.q0.empty()) {
    checkVectorSize(c, path + ".q0", j.q0.size(), nq, "position coordinates", jd);
    if (static_cast<int>(j.q0.size()) == nq && c.finiteVec(path + ".q0", j.q0) &&
        c.boundedVec(path + ".q0", j.q0, kMaxCoordinate, "joint coordinates") &&
        (j.type == JointType::Spherical || j.type == JointType::Free) &&
        std::hypot(j.q0[0], j.q0[1], j.q0[2]) + std::abs(j.q0[3]) < 1e-12)
      c.error(path + ".q0", "the quaternion part (w, x, y, z) must not be zero; the identity is [1, 0, 0, 0]");
  }
  if (!j.v0.empty()) {
    checkVectorSize(c, path + ".v0", j.v0.size(), nv, "velocity coordinates", jd);
    if (static_cast<int>(j.v0.size()) == nv && c.finiteVec(path + ".v0", j.v0))
      c.boundedVec(path + ".v0", j.v0, kMaxCoordinate, "joint velocities");
  }
  if (!j.limits.empty()) {
    if (nq != nv || jointUsesQuasiVelocity(j.type) || nv == 0) {
      c.error(path + ".limits", "limits are per coordinate and " + jd + " has none that can be limited; remove them");
    } else if (static_cast<int>(j.limits.size()) != nv) {
      c.error(path + ".limits", "has " + countWord(j.limits.size(), "limit") + ", expected " + std::to_string(nv) +
                                    " (one {lower, upper} per coordinate of " + jd + ")");
    } else {
      for (std::size_t i = 0; i < j.limits.size(); ++i) {
        const std::string lp = path + ".limits[" + std::to_string(i) + "]";
        if (!c.finite(lp + ".lower", j.limits[i].lower) || !c.finite(lp + ".upper", j.limits[i].upper)) continue;
        if (j.limits[i].lower > j.limits[i].upper)
          c.error(lp, "lower limit " + formatRoundTrip(j.limits[i].lower) + " is greater than upper limit " +
                          formatRoundTrip(j.limits[i].upper));
      }
    }
  }
  checkDrive(c, path + ".drive", j);
  checkMotion(c, path + ".motion", j);
  checkRating(c, path + ".rating", j);
  checkEffortRating(c, path + ".rating.effort", j);
}

// Inertia about the centre of mass: symmetric, positive definite, triangle inequality. With
// `computed`, the inertia comes from the shapes and every problem is reported at `path` itself.
void checkInertia(Checker& c, const std::string& path, const Mat3& I, bool computed = false) {
  static const char* kNames[3][3] = {{"ixx", "ixy", "ixz"}, {"ixy", "iyy", "iyz"}, {"ixz", "iyz", "izz"}};
  const std::string subject = computed ? "the inertia computed from the shapes " : "";
  const auto at = [&](int r, int k) { return computed ? path : path + "." + kNames[r][k]; };
  for (int r = 0; r < 3; ++r)
    for (int k = r; k < 3; ++k)
      if (!std::isfinite(I(r, k)) || !std::isfinite(I(k, r))) {
        c.error(at(r, k), subject + (computed ? std::string("has a non-finite ") + kNames[r][k] + ", " : "") +
                              "must be a finite number, got " +
                              formatRoundTrip(std::isfinite(I(r, k)) ? I(k, r) : I(r, k)));
        return;
      }
  const double scale = I.cwiseAbs().maxCoeff();
  if (scale > kMaxInertia) {
    c.error(path, subject + "is too large: its largest element is " + formatRoundTrip(scale) +
                      " (moments of inertia are limited to " + formatSignificant(kMaxInertia, 6) +
                      " kg m²; check the units)");
    return;
  }
  if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale) {
    c.error(path, "must be symmetric (ixy, ixz, iyz are each used on both sides of the diagonal)");
    return;
  }
  for (int k = 0; k < 3; ++k)
    if (!(I(k, k) > 0.0)) {
      c.error(at(k, k), subject + "must be > 0 (a diagonal moment of inertia" +
                            (computed ? std::string(" ") + kNames[k][k] : std::string()) + "), got " +
                            formatRoundTrip(I(k, k)));
      return;
    }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(I);
  const Vec3& p = eig.eigenvalues();  // ascending
  const auto moments = [&] {
    return "[" + formatSignificant(p[0], 6) + ", " + formatSignificant(p[1], 6) + ", " + formatSignificant(p[2], 6) +
           "]";
  };
  // Positive definite: the smallest principal moment is positive beyond the eigenvalue
  // round-off (a few ε of the largest). A thin wire (condition 1e6 and more) is positive definite.
  if (!(p[0] > kInertiaPdRelTol * p[2])) {
    c.error(path, subject + "must be positive definite; its principal moments are " + moments() +
                      (computed ? std::string() : std::string(" (reduce the products of inertia ixy, ixz, iyz)")));
    return;
  }
  const double trace = p.sum();
  if (p[2] > p[0] + p[1] + kInertiaTriangleRelTol * trace)
    c.error(path, subject + (computed ? "has " : "") + "principal moments " + moments() +
                      " violate the triangle inequality: the largest must not exceed the sum of the other two (" +
                      formatSignificant(p[2], 6) + " > " + formatSignificant(p[0] + p[1], 6) + ")");
}

// With `forMass`, adds the shape's mass properties to `total` (when it can be evaluated).
void checkShape(Checker& c, const std::string& path, const Shape& s, bool forMass, double density,
                const std::string& dir, const MeshSource& meshes, MassProperties* total = nullptr) {
  checkPlacement(c, path + ".origin", s.origin);
  const auto dimension = [&](const std::string& p, double x, bool strict = true) {
    if (c.positive(p, x, strict)) c.bounded(p, &x, 1, kMaxLength, "lengths (m)", false);
  };
  switch (s.type) {
    case ShapeType::Box:
      if (c.finiteVec(path + ".size", s.size) && s.size.minCoeff() <= 0.0)
        c.error(path + ".size", "every edge length must be > 0, got " + formatRoundTripList(s.size.data(), 3));
      else
        c.boundedVec(path + ".size", s.size, kMaxLength, "lengths (m)");
      break;
    case ShapeType::Cylinder:
      dimension(path + ".radius", s.radius);
      dimension(path + ".length", s.length);
      break;
    case ShapeType::Sphere: dimension(path + ".radius", s.radius); break;
    case ShapeType::Capsule:
      dimension(path + ".radius", s.radius);
      dimension(path + ".length", s.length, false);
      break;
    case ShapeType::Prism:
      if (s.sides < 3 || s.sides > kMaxPrismSides)
        c.error(path + ".sides",
                "must be between 3 and " + std::to_string(kMaxPrismSides) + ", got " + std::to_string(s.sides));
      dimension(path + ".radius", s.radius);
      dimension(path + ".length", s.length);
      break;
    case ShapeType::Mesh: {
      if (s.mesh.empty()) {
        c.error(path + ".file",
                "must name a mesh file (.stl, .obj, .dae, .ply, .gltf or .glb, relative to the model file)");
        break;
      }
      if (c.finiteVec(path + ".scale", s.meshScale) && s.meshScale.cwiseAbs().minCoeff() == 0.0)
        c.error(path + ".scale",
                "every scale factor must be nonzero, got " + formatRoundTripList(s.meshScale.data(), 3));
      const std::string resolved = resolveMeshPath(s.mesh, dir);
      if (forMass) {
        MassProperties mp;
        std::string why;
        if (!shapeMassProperties(s, density, dir, meshes, mp, why))
          c.error(path + ".file", why);
        else if (total != nullptr)
          *total = combineMassProperties(*total, mp);
      } else {
        // Shown only, but read by the same reader and refused for the same reasons (the 3D view
        // uses this reader too), so that a file the view cannot draw never passes validation.
        std::string why;
        if (!meshes.readable(resolved, why)) c.error(path + ".file", why);
      }
      break;
    }
  }
  if (forMass && total != nullptr && s.type != ShapeType::Mesh)
    *total = combineMassProperties(*total, primitiveMassProperties(s, density));
  if (c.finiteVec(path + ".color", s.color) && (s.color.minCoeff() < 0.0 || s.color.maxCoeff() > 1.0))
    c.error(path + ".color",
            "components must be in [0, 1] (red, green, blue, alpha), got " + formatRoundTripList(s.color.data(), 4));
}

void checkBody(Checker& c, const Model& model, const MeshSource& meshes, std::size_t k) {
  const BodySpec& b = model.bodies[k];
  const std::string path = "bodies[" + std::to_string(k) + "]";
  checkJoint(c, path + ".joint", b.joint);
  const Inertial& in = b.inertial;
  if (in.fromShapes) {
    const bool densityOk = c.positive(path + ".inertial.density", in.density);
    if (b.shapes.empty())
      c.error(path + ".inertial.from_shapes",
              "the body has no shapes to compute its mass from; add shapes or give mass, com and inertia");
    const std::size_t before = c.count();
    MassProperties mp;  // what the shapes add up to, summed by checkShape
    for (std::size_t s = 0; s < b.shapes.size(); ++s)
      checkShape(c, path + ".shapes[" + std::to_string(s) + "]", b.shapes[s], densityOk, in.density,
                 model.sourceDirectory, meshes, &mp);
    // What the shapes add up to gets the checks a written inertia gets.
    if (densityOk && !b.shapes.empty() && c.count() == before) {
      if (!std::isfinite(mp.mass) || !(mp.mass >= kMinMass) || mp.mass > kMaxMass)
        c.error(path + ".inertial", "the mass computed from the shapes must be a positive finite number from " +
                                        formatSignificant(kMinMass, 6) + " to " + formatSignificant(kMaxMass, 6) +
                                        " kg, got " + formatRoundTrip(mp.mass) + " kg");
      else if (!std::isfinite(mp.com.squaredNorm()))
        c.error(path + ".inertial", "the centre of mass computed from the shapes is not finite");
      else
        checkInertia(c, path + ".inertial", mp.inertia, true);
    }
  } else {
    if (c.positive(path + ".inertial.mass", in.mass)) {
      if (in.mass < kMinMass)
        c.error(path + ".inertial.mass", "is too small: " + formatRoundTrip(in.mass) + " (masses are limited to " +
                                             formatSignificant(kMinMass, 6) + " kg and more; check the units)");
      else
        c.bounded(path + ".inertial.mass", &in.mass, 1, kMaxMass, "masses (kg)", false);
    }
    if (c.finiteVec(path + ".inertial.com", in.com))
      c.boundedVec(path + ".inertial.com", in.com, kMaxLength, "centres of mass (m)");
    checkInertia(c, path + ".inertial.inertia", in.inertia);
    for (std::size_t s = 0; s < b.shapes.size(); ++s)
      checkShape(c, path + ".shapes[" + std::to_string(s) + "]", b.shapes[s], false, 0.0, model.sourceDirectory,
                 meshes);
  }
  if (c.finite(path + ".applied_wrench.moment", b.appliedWrench.data(), 3))
    c.finite(path + ".applied_wrench.force", b.appliedWrench.data() + 3, 3);
}

void checkStructure(Checker& c, const Model& model) {
  const std::size_t n = model.bodies.size();
  std::unordered_map<std::string, std::size_t> bodyByName, jointByName;
  std::vector<std::string> bodyNames;
  for (std::size_t k = 0; k < n; ++k) {
    const BodySpec& b = model.bodies[k];
    const std::string path = "bodies[" + std::to_string(k) + "]";
    if (b.name.empty()) {
      c.error(path + ".name", "must not be empty; every body needs a unique name");
    } else if (b.name == "world") {
      c.error(path + ".name", "'world' is reserved for the fixed ground; choose another name");
    } else if (!isValidName(b.name)) {
      c.error(path + ".name", "'" + b.name + "' is not a valid name; " + kNameRule);
    } else if (auto [it, inserted] = bodyByName.emplace(b.name, k); !inserted) {
      c.error(path + ".name", "duplicate body name '" + b.name + "' (already used by bodies[" +
                                  std::to_string(it->second) + "]); body names must be unique");
    } else {
      bodyNames.push_back(b.name);
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    const BodySpec& b = model.bodies[k];
    const std::string path = "bodies[" + std::to_string(k) + "]";
    // An unnamed joint of a body whose name is already reported as a duplicate adds nothing new.
    if (b.joint.name.empty() && bodyByName.count(b.name) && bodyByName.at(b.name) != k) continue;
    const std::string& jn = b.joint.name.empty() ? b.name : b.joint.name;
    const std::string jpath = b.joint.name.empty() ? path + ".name" : path + ".joint.name";
    if (!b.joint.name.empty() && !isValidName(b.joint.name)) {
      c.error(jpath, "'" + b.joint.name + "' is not a valid name; " + kNameRule);
    } else if (!jn.empty()) {
      if (auto [it, inserted] = jointByName.emplace(jn, k); !inserted)
        c.error(jpath, "duplicate joint name '" + jn + "' (already used by the joint of bodies[" +
                           std::to_string(it->second) + "]); joint names must be unique (an unnamed joint takes " +
                           "its body's name)");
    }
  }
  // Parents: present, known, not the body itself.
  std::vector<int> parent(n, -1);
  std::vector<bool> parentOk(n, false);
  int suggestions = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const BodySpec& b = model.bodies[k];
    const std::string path = "bodies[" + std::to_string(k) + "].parent";
    if (b.parent.empty()) {
      c.error(path, "is missing; expected 'world' or the name of another body");
    } else if (b.parent == "world") {
      parentOk[k] = true;
    } else if (b.parent == b.name) {
      c.error(path, "a body cannot be its own parent; expected 'world' or the name of another body");
    } else if (auto it = bodyByName.find(b.parent); it != bodyByName.end()) {
      parent[k] = static_cast<int>(it->second);
      parentOk[k] = true;
    } else {
      const std::string near = suggestions++ < kMaxSuggestions ? closestMatch(b.parent, bodyNames) : std::string();
      c.error(path, "unknown parent '" + b.parent + "'; expected 'world' or the name of a body" +
                        (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
    }
  }
  // Cycles: follow parents; a walk that returns to a body on the current path is a cycle.
  std::vector<int> state(n, 0);  // 0 unvisited, 1 on the current walk, 2 done
  for (std::size_t start = 0; start < n; ++start) {
    if (state[start]) continue;
    std::vector<int> walk;
    int k = static_cast<int>(start);
    while (k >= 0 && state[k] == 0 && parentOk[k]) {
      state[k] = 1;
      walk.push_back(k);
      k = parent[k];
    }
    if (k >= 0 && state[k] == 1) {
      const auto first = std::find(walk.begin(), walk.end(), k);
      const int lowest = *std::min_element(first, walk.end());
      std::string loop;
      int m = lowest;
      do {
        loop += "'" + model.bodies[m].name + "' → ";
        m = parent[m];
      } while (m != lowest);
      loop += "'" + model.bodies[lowest].name + "'";
      c.error("bodies[" + std::to_string(lowest) + "].parent",
              "bodies form a cycle (" + loop + ", following parents); every chain of parents must end at 'world'");
    }
    for (int w : walk) state[w] = 2;
  }
}

// The largest half-extent of the bounding box, in the body frame, of a body's primitive shapes
// (meshes are not read here); 0 when it has none.
double shapesHalfExtent(const std::vector<Shape>& shapes) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Shape& s : shapes) {
    Vec3 half = Vec3::Zero();  // each primitive sets it; meshes are skipped
    switch (s.type) {
      case ShapeType::Box: half = s.size / 2.0; break;
      case ShapeType::Sphere: half = Vec3::Constant(s.radius); break;
      case ShapeType::Cylinder:
      case ShapeType::Prism: half = Vec3(s.radius, s.radius, s.length / 2.0); break;
      case ShapeType::Capsule: half = Vec3(s.radius, s.radius, s.length / 2.0 + s.radius); break;
      case ShapeType::Mesh: continue;
    }
    const Vec3 extent = s.origin.rotation().cwiseAbs() * half.cwiseAbs();
    lo = lo.cwiseMin(s.origin.xyz - extent);
    hi = hi.cwiseMax(s.origin.xyz + extent);
  }
  if (!(hi.array() >= lo.array()).all() || !lo.allFinite() || !hi.allFinite()) return 0.0;
  return ((hi - lo) / 2.0).maxCoeff();
}

}  // namespace

std::vector<Diagnostic> modelWarnings(const Model& model) {
  std::vector<Diagnostic> out;
  const auto warn = [&](const std::string& path, const std::string& message) {
    if (out.size() >= kMaxDiagnostics) return;
    Diagnostic d;
    d.path = path;
    d.message = message;
    d.warning = true;
    out.push_back(std::move(d));
  };
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const JointSpec& j = model.bodies[k].joint;
    if (j.q0.empty() || j.q0.size() != j.limits.size()) continue;
    const bool angular = j.type == JointType::Revolute || j.type == JointType::Universal || j.type == JointType::Gimbal;
    for (std::size_t i = 0; i < j.q0.size(); ++i) {
      const double q = j.q0[i], lo = j.limits[i].lower, hi = j.limits[i].upper;
      if (!std::isfinite(q) || !std::isfinite(lo) || !std::isfinite(hi) || lo > hi || (q >= lo && q <= hi)) continue;
      const double radians = q * std::numbers::pi / 180.0;
      std::string message = "the joint starts at " + formatRoundTrip(q) + ", outside its limits [" +
                            formatRoundTrip(lo) + ", " + formatRoundTrip(hi) + "]";
      if (angular && radians >= lo && radians <= hi)
        message += "; angles are in radians: is it in degrees? (" + formatSignificant(q, 6) + "° is " +
                   formatSignificant(radians, 6) + " rad)";
      warn("bodies[" + std::to_string(k) + "].joint.q0[" + std::to_string(i) + "]", message);
    }
  }
  // The tables of motions and drives are read when a run starts: a file that is not there (a
  // model saved to another folder, a file moved) is said here, at the field, before that.
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const JointSpec& j = model.bodies[k].joint;
    const auto check = [&](const std::string& file, const char* path) {
      std::filesystem::path p(file);
      const bool relative = p.is_relative();
      if (file.empty() || (relative && model.sourceDirectory.empty())) return;  // nowhere to look
      if (relative) p = std::filesystem::path(model.sourceDirectory) / p;
      std::error_code ec;
      if (std::filesystem::is_regular_file(p, ec)) return;
      warn("bodies[" + std::to_string(k) + "].joint." + path,
           "there is no file " + p.lexically_normal().string() +
               (relative ? " (the path is relative to the model's folder)" : "") + ": a run cannot read this table");
    };
    if (j.motion.type == MotionType::Table) check(j.motion.file, "motion.file");
    if (j.drive.type == DriveType::Table) check(j.drive.file, "drive.file");
  }
  // A prescribed joint starts where its motion is at t = 0, whatever q0 and v0 say (tables are
  // read with the run: their start is not known here).
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const JointSpec& j = model.bodies[k].joint;
    if (j.motion.type == MotionType::None || j.motion.type == MotionType::Table) continue;
    const int nv = jointNv(j.type);
    if (jointNq(j.type) != nv || nv == 0) continue;
    JointMotion motion;
    try {
      motion = JointMotion(j.motion, nv);
    } catch (const std::invalid_argument&) {
      continue;  // an error of validate()
    }
    const std::string path = "bodies[" + std::to_string(k) + "].joint.";
    for (const auto& [written, key, what] :
         {std::tuple{&j.q0, "q0", "position"}, std::tuple{&j.v0, "v0", "velocity"}}) {
      if (static_cast<int>(written->size()) != nv) continue;
      for (int c = 0; c < nv; ++c) {
        const MotionSample at0 = motion.at(c, 0.0);
        const double start = std::string_view(key) == "q0" ? at0.q : at0.qd;
        const double given = (*written)[static_cast<std::size_t>(c)];
        if (std::abs(given - start) <= 1e-12 * std::max(1.0, std::abs(start))) continue;
        warn(path + key + "[" + std::to_string(c) + "]",
             std::string("the joint follows a motion, which starts at ") + what + " " + formatRoundTrip(start) +
                 ", not " + formatRoundTrip(given) + ": the motion's value is used (remove " + key + ")");
        break;
      }
    }
  }
  // Implausible written inertials, as URDF files often carry (placeholder inertias of 1 kg m² on a
  // 0.4 kg hand, near-zero masses on links that move): they run, but the motion they give is wrong.
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const BodySpec& b = model.bodies[k];
    const Inertial& in = b.inertial;
    if (in.fromShapes || !std::isfinite(in.mass) || !(in.mass > 0.0)) continue;  // errors of validate()
    const std::string path = "bodies[" + std::to_string(k) + "].inertial";
    if (b.joint.type != JointType::Fixed && in.mass < kMinMovingMass)
      warn(path + ".mass", "body '" + b.name + "' moves on its joint but has a mass of only " +
                               formatSignificant(in.mass, 6) + " kg (below " + formatSignificant(kMinMovingMass, 6) +
                               " kg): its motion is dominated by round-off; give its real mass");
    const double halfExtent = shapesHalfExtent(b.shapes);
    if (!(halfExtent > 0.0) || !in.inertia.allFinite()) continue;
    const double largestMoment =
        Eigen::SelfAdjointEigenSolver<Mat3>(in.inertia, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    const double gyration = std::sqrt(std::max(largestMoment, 0.0) / in.mass);
    if (gyration > kMaxGyrationPerExtent * halfExtent)
      warn(path + ".inertia", "body '" + b.name + "' has a radius of gyration of " + formatSignificant(gyration, 3) +
                                  " m (sqrt(largest principal moment / mass)), more than " +
                                  formatSignificant(kMaxGyrationPerExtent, 3) +
                                  " times the largest half-extent of its shapes, " + formatSignificant(halfExtent, 3) +
                                  " m: is the inertia a placeholder?");
  }
  return out;
}

std::vector<Diagnostic> validate(const Model& model, const MeshSource& meshes) {
  std::vector<Diagnostic> out;
  Checker c(out);
  if (model.formatVersion != 1)
    c.error("kinetree", "unsupported format version " + std::to_string(model.formatVersion) +
                            "; this version of Kinetree reads format version 1");
  if (model.name.empty()) c.error("name", "must not be empty; give the model a name");
  if (c.finiteVec("gravity", model.gravity))
    c.boundedVec("gravity", model.gravity, kMaxAcceleration, "accelerations (m/s²)");
  if (model.bodies.empty()) c.error("bodies", "the model has no bodies; add at least one body");
  checkStructure(c, model);
  for (std::size_t k = 0; k < model.bodies.size(); ++k) checkBody(c, model, meshes, k);
  c.finish();
  return out;
}

}  // namespace kt
