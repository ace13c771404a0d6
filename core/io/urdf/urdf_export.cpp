// SPDX-License-Identifier: BSD-3-Clause
// URDF export (core/io/urdf/urdf.hpp, docs/urdf.md): one <link> per body, one <joint> per body's
// joint, written as text (numbers in the shortest form that reads back exactly).
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "core/io/model_files.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/text_util.hpp"

namespace kt {
namespace {

namespace fs = std::filesystem;

std::string vec(const Vec3& v) {
  return formatRoundTrip(v.x()) + " " + formatRoundTrip(v.y()) + " " + formatRoundTrip(v.z());
}

// XML attribute text: the five predefined entities escaped.
std::string attr(const std::string& s) {
  std::string out;
  for (char ch : s) switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += ch;
    }
  return out;
}

std::string origin(const Placement& p, const std::string& indent) {
  const Vec3 rpy = p.useQuaternion ? rpyFromRotation(p.rotation()) : p.rpy;
  if (p.xyz == Vec3::Zero() && rpy == Vec3::Zero()) return {};
  return indent + "<origin xyz=\"" + vec(p.xyz) + "\" rpy=\"" + vec(rpy) + "\"/>\n";
}

// "a, b and c" from a list of names.
std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t k = 0; k < names.size(); ++k) s += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
  return s;
}

std::string jointName(const BodySpec& b) { return b.joint.name.empty() ? b.name : b.joint.name; }

}  // namespace

std::string exportUrdf(const Model& model, const std::string& outputDirectory, std::vector<std::string>& warnings) {
  std::vector<std::string> cannot;
  for (const BodySpec& b : model.bodies)
    if (b.joint.type == JointType::Spherical || b.joint.type == JointType::Universal ||
        b.joint.type == JointType::Cylindrical || b.joint.type == JointType::Gimbal)
      cannot.push_back("'" + jointName(b) + "' (" + std::string(jointTypeName(b.joint.type)) + ")");
  if (!cannot.empty())
    throw std::invalid_argument(
        "URDF cannot express the joint" + std::string(cannot.size() > 1 ? "s " : " ") + listed(cannot) +
        ": it has revolute, continuous, prismatic, fixed, floating and planar joints (a spherical or universal joint "
        "can be written as revolute joints through small intermediate bodies)");
  for (const Diagnostic& d : validate(model))
    if (!d.warning) throw std::invalid_argument("the model is not valid: " + d.format());

  // A single body fixed to the world at the origin is the URDF root; otherwise a `world` link
  // is the root and every body whose parent is the world hangs from it.
  int roots = 0;
  const BodySpec* single = nullptr;
  for (const BodySpec& b : model.bodies)
    if (b.parent == "world") ++roots, single = &b;
  if (roots != 1 || !(single->joint.type == JointType::Fixed && single->joint.origin.xyz == Vec3::Zero() &&
                      single->joint.origin.rotation().isIdentity(0.0)))
    single = nullptr;

  std::vector<std::string> drives, motions, ratings, initial, wrenches, dropped, limitless, noVelocity;
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n";
  out << "<!-- exported from a Kinetree model -->\n";
  out << "<robot name=\"" << attr(model.name) << "\">\n";
  if (!single) out << "  <link name=\"world\"/>\n";
  std::error_code ec;
  const fs::path outDir = outputDirectory.empty() ? fs::path() : fs::absolute(outputDirectory, ec).lexically_normal();
  for (const BodySpec& b : model.bodies) {
    // the link: inertial (computed from the shapes when the model says so) and visuals
    const MassProperties mp = bodyMassProperties(b, model.sourceDirectory, meshFiles());
    out << "  <link name=\"" << attr(b.name) << "\">\n";
    out << "    <inertial>\n";
    if (mp.com != Vec3::Zero()) out << "      <origin xyz=\"" << vec(mp.com) << "\" rpy=\"0 0 0\"/>\n";
    out << "      <mass value=\"" << formatRoundTrip(mp.mass) << "\"/>\n";
    const Mat3& I = mp.inertia;
    out << "      <inertia ixx=\"" << formatRoundTrip(I(0, 0)) << "\" ixy=\"" << formatRoundTrip(I(0, 1)) << "\" ixz=\""
        << formatRoundTrip(I(0, 2)) << "\" iyy=\"" << formatRoundTrip(I(1, 1)) << "\" iyz=\""
        << formatRoundTrip(I(1, 2)) << "\" izz=\"" << formatRoundTrip(I(2, 2)) << "\"/>\n";
    out << "    </inertial>\n";
    int visuals = 0;  // materials are named <body>_<k>, k counting the visuals written
    for (const Shape& s : b.shapes) {
      std::string geometry;
      switch (s.type) {
        case ShapeType::Box: geometry = "<box size=\"" + vec(s.size) + "\"/>"; break;
        case ShapeType::Cylinder:
          geometry =
              "<cylinder radius=\"" + formatRoundTrip(s.radius) + "\" length=\"" + formatRoundTrip(s.length) + "\"/>";
          break;
        case ShapeType::Sphere: geometry = "<sphere radius=\"" + formatRoundTrip(s.radius) + "\"/>"; break;
        case ShapeType::Mesh: {
          fs::path file = fs::path(s.mesh);
          if (file.is_relative() && !model.sourceDirectory.empty()) file = fs::path(model.sourceDirectory) / file;
          if (!outDir.empty()) file = fs::absolute(file, ec).lexically_normal().lexically_relative(outDir);
          geometry = "<mesh filename=\"" + attr(file.string()) + "\" scale=\"" + vec(s.meshScale) + "\"/>";
          break;
        }
        case ShapeType::Capsule:
        case ShapeType::Prism: dropped.push_back(b.name + " (" + std::string(shapeTypeName(s.type)) + ")"); continue;
      }
      out << "    <visual>\n" << origin(s.origin, "      ");
      out << "      <geometry>" << geometry << "</geometry>\n";
      out << "      <material name=\"" << attr(b.name) << "_" << visuals++ << "\"><color rgba=\""
          << formatRoundTrip(s.color[0]) << " " << formatRoundTrip(s.color[1]) << " " << formatRoundTrip(s.color[2])
          << " " << formatRoundTrip(s.color[3]) << "\"/></material>\n";
      out << "    </visual>\n";
    }
    out << "  </link>\n";

    const JointSpec& j = b.joint;
    if (j.drive.type != DriveType::None) drives.push_back(jointName(b));
    if (j.motion.type != MotionType::None) motions.push_back(jointName(b));
    // an effort rating is URDF's <limit effort> of a revolute or prismatic joint; the rest has no place
    const bool effortKept = j.type == JointType::Revolute || j.type == JointType::Prismatic;
    if (j.rating.force != 0.0 || j.rating.moment != 0.0 || !j.rating.reaction.empty() ||
        (!j.rating.effort.empty() && !effortKept))
      ratings.push_back(jointName(b));
    if (!j.q0.empty() || !j.v0.empty()) initial.push_back(jointName(b));
    if (b.appliedWrench != Vec6::Zero()) wrenches.push_back(b.name);

    // its joint
    if (&b == single) continue;
    std::string type;
    switch (j.type) {
      case JointType::Revolute: type = j.limits.empty() ? "continuous" : "revolute"; break;
      case JointType::Prismatic: type = "prismatic"; break;
      case JointType::Fixed: type = "fixed"; break;
      case JointType::Free: type = "floating"; break;
      case JointType::Planar: type = "planar"; break;
      default: break;  // refused above
    }
    out << "  <joint name=\"" << attr(jointName(b)) << "\" type=\"" << type << "\">\n";
    out << "    <parent link=\"" << attr(b.parent) << "\"/>\n";
    out << "    <child link=\"" << attr(b.name) << "\"/>\n";
    out << origin(j.origin, "    ");
    if (jointHasAxis(j.type)) out << "    <axis xyz=\"" << vec(j.axis) << "\"/>\n";
    // URDF requires limits on revolute and prismatic joints; Kinetree's are display limits, its
    // effort rating is URDF's effort, and it has no velocity limit (0 here)
    const std::string effort = j.rating.effort.empty() ? std::string("0") : formatRoundTrip(j.rating.effort[0]);
    if ((j.type == JointType::Revolute && (!j.limits.empty() || !j.rating.effort.empty())) ||
        j.type == JointType::Prismatic)
      noVelocity.push_back(jointName(b));
    if (j.type == JointType::Revolute && !j.limits.empty())
      out << "    <limit lower=\"" << formatRoundTrip(j.limits[0].lower) << "\" upper=\""
          << formatRoundTrip(j.limits[0].upper) << "\" effort=\"" << effort << "\" velocity=\"0\"/>\n";
    else if (j.type == JointType::Revolute && !j.rating.effort.empty())
      out << "    <limit effort=\"" << effort << "\" velocity=\"0\"/>\n";
    if (j.type == JointType::Prismatic) {
      const Limit l = j.limits.empty() ? Limit{-1e6, 1e6} : j.limits[0];
      if (j.limits.empty()) limitless.push_back(jointName(b));
      out << "    <limit lower=\"" << formatRoundTrip(l.lower) << "\" upper=\"" << formatRoundTrip(l.upper)
          << "\" effort=\"" << effort << "\" velocity=\"0\"/>\n";
    }
    out << "  </joint>\n";
  }
  out << "</robot>\n";

  const auto note = [&](const std::vector<std::string>& names, const std::string& what) {
    if (!names.empty()) warnings.push_back(what + ": " + listed(names));
  };
  if (model.gravity != Vec3(0.0, 0.0, -9.81))
    warnings.push_back("gravity (" + vec(model.gravity) + ") is not part of URDF; importers assume 0 0 -9.81");
  note(drives, "drives left out (URDF has none), on the joints");
  note(motions, "prescribed motions left out (URDF has none), of the joints");
  note(ratings, "load ratings left out, on the joints");
  note(initial, "initial positions and velocities left out, of the joints");
  note(wrenches, "applied wrenches left out, on the bodies");
  note(dropped, "shapes left out (URDF has no such geometry), of the bodies");
  note(limitless, "prismatic joints without limits written with -1e6 .. 1e6 m (URDF requires limits)");
  note(noVelocity,
       "velocity limits written as 0 (URDF requires one in every <limit>, and Kinetree keeps none: set them before "
       "a motion planner reads the file), on the joints");
  if (model.simulation != SimulationSettings{})
    warnings.push_back("the simulation settings (solver " + model.simulation.solver + ", integrator " +
                       model.simulation.integrator + ", step, duration, tolerance) are not part of URDF");
  return out.str();
}

}  // namespace kt
