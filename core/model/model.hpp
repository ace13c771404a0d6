// SPDX-License-Identifier: BSD-3-Clause
// The model as the user describes it: bodies, the joint to each body's parent, inertial data,
// visual shapes, drives and default simulation settings. This is the "document" form that the
// YAML format reads and writes and the editor changes. `finalize()` (tree.hpp) turns a validated
// Model into the index-based Tree that the solvers use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/joint_type.hpp"
#include "core/motion/motion_profile.hpp"
#include "core/spatial/spatial.hpp"

namespace kt {

/// A frame placement relative to a parent frame: translation xyz and a rotation given either as
/// URDF roll-pitch-yaw (R = Rz Ry Rx) or as a unit quaternion (w, x, y, z). The form the user
/// chose is kept so that files round-trip exactly.
struct Placement {
  Vec3 xyz = Vec3::Zero();
  bool useQuaternion = false;
  Vec3 rpy = Vec3::Zero();                   ///< used when !useQuaternion
  Eigen::Vector4d quat{1.0, 0.0, 0.0, 0.0};  ///< (w, x, y, z), used when useQuaternion

  /// Rotation taking child-frame coordinates to parent-frame coordinates.
  Mat3 rotation() const;
  /// Plücker transform ᶜX_p from the parent frame to the placed frame.
  Xform transformFromParent() const;
  bool operator==(const Placement&) const = default;
};

/// Piecewise-linear target: (time, value) knots, held constant outside the knot range.
struct Knot {
  double t = 0.0;
  double value = 0.0;
  bool operator==(const Knot&) const = default;
};

enum class DriveType { None, Constant, Sinusoid, PdSinusoid, PdPiecewise, SpringDamper, Table };

/// A drive on one joint, applied to every velocity coordinate of the joint (vectors have nv
/// entries; a scalar in the file is broadcast by the loader).
///   Constant:      τ = value
///   Sinusoid:      τ = offset + amplitude sin(2π f t + phase)
///   PdSinusoid:    τ = kp (q* − q) + kd (q̇* − q̇),  q* = offset + amplitude sin(2π f t + phase)
///   PdPiecewise:   τ = kp (q* − q) + kd (q̇* − q̇),  q* piecewise linear through `knots`
///   SpringDamper:  τ = −stiffness (q − restPosition) − damping q̇
///   Table:         τ from the columns tau:<joint>[k] of a CSV file, a C² cubic spline through
///                  the samples (docs/motion.md, "Tabulated drives")
/// PD and spring drives need q and q̇ of the same size (joints with nq == nv).
struct Drive {
  DriveType type = DriveType::None;
  std::vector<double> value;      ///< Constant
  std::vector<double> amplitude;  ///< Sinusoid / PdSinusoid
  std::vector<double> frequency;  ///< Hz
  std::vector<double> phase;      ///< rad
  std::vector<double> offset;
  double kp = 0.0, kd = 0.0;
  std::vector<std::vector<Knot>> knots;                  ///< PdPiecewise, one list per coordinate
  std::vector<double> stiffness, damping, restPosition;  ///< SpringDamper
  std::string file;                                      ///< Table: CSV path, relative to the model file
  bool operator==(const Drive&) const = default;
};

enum class MotionType { None, Spline, RestToRest, Sinusoid, Table };

/// A prescribed motion of one joint (docs/motion.md): its coordinates follow q(t) with the
/// analytic q̇(t) and q̈(t), and the solver computes the generalized force the joint must supply.
/// Vectors have one entry (or list) per coordinate; a single one is broadcast by the loader.
///   Spline:      C² cubic spline through `knots` [t, q]; natural, or clamped when
///                `startVelocity` / `endVelocity` are given
///   RestToRest:  quintic rest-to-rest `moves`, in time order, held outside them
///   Sinusoid:    q = offset + amplitude sin(2π f t + phase)
///   Table:       the columns q:<joint>[k] of the CSV `file`, a not-a-knot spline through the
///                samples after an optional zero-phase low-pass at `cutoff` Hz
/// Only joints whose velocity coordinates are the rates of their position coordinates (revolute,
/// prismatic, cylindrical, universal, gimbal) take a motion.
struct Motion {
  MotionType type = MotionType::None;
  std::vector<std::vector<Knot>> knots;                     ///< Spline
  std::vector<double> startVelocity, endVelocity;           ///< Spline: empty = natural ends
  std::vector<std::vector<Move>> moves;                     ///< RestToRest
  std::vector<double> amplitude, frequency, phase, offset;  ///< Sinusoid (frequency in Hz, phase in rad)
  std::string file;                                         ///< Table: CSV path, relative to the model file
  double cutoff = 0.0;                                      ///< Table: low-pass cutoff in Hz; 0 = none
  bool operator==(const Motion&) const = default;
};

/// Display limits of one coordinate (the solvers do not enforce them).
struct Limit {
  double lower = 0.0;
  double upper = 0.0;
  bool operator==(const Limit&) const = default;
};

/// What a joint may carry (docs/model-format.md, "Load ratings"): the largest |force| and |moment|
/// of the wrench it transmits, optionally the largest |λ_k| of each reaction coordinate and the
/// largest |τ_k| of each actuated coordinate (a motor's peak torque).
/// Zero (or an empty list) means no rating. The peak-load table, the load arrows' colours and the
/// utilisation figures use it; the solvers do not.
struct LoadRating {
  double force = 0.0;            ///< N
  double moment = 0.0;           ///< N·m
  std::vector<double> reaction;  ///< (6 − nv) N or N·m, in the order of the reaction:<joint>.* signals
  std::vector<double> effort;    ///< (nv) largest |τ_k| the joint's actuator gives, N·m or N (tau:<joint>[k])
  bool empty() const { return force == 0.0 && moment == 0.0 && reaction.empty() && effort.empty(); }
  bool operator==(const LoadRating&) const = default;
};

struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  Placement origin;            ///< joint frame in the parent body frame
  Vec3 axis = Vec3::UnitZ();   ///< revolute, prismatic, cylindrical: the axis; planar: the normal;
                               ///< universal, gimbal: the first (parent-side) axis
  Vec3 axis2 = Vec3::UnitY();  ///< universal: the second (child-side) axis; gimbal: the second
  Vec3 axis3 = Vec3::UnitX();  ///< gimbal: the third (child-side) axis (z, y, x: free of gimbal lock at 0)
  /// universal, gimbal: a point axis2 passes through, body coordinates (axis 1 passes through the
  /// joint origin); zero, the default, puts every axis through it (JointModel::offset)
  Vec3 point2 = Vec3::Zero();
  Vec3 point3 = Vec3::Zero();  ///< gimbal: a point axis3 passes through
  std::vector<double> q0;      ///< initial position (nq); empty = neutral
  std::vector<double> v0;      ///< initial velocity (nv); empty = zero
  std::vector<Limit> limits;   ///< display limits per coordinate (joints with nq == nv); may be empty
  Drive drive;
  Motion motion;  ///< when set, the joint follows it and `drive` is none (validate.cpp)
  LoadRating rating;
  bool operator==(const JointSpec&) const = default;
};

struct Inertial {
  bool fromShapes = false;  ///< compute mass properties from the visual shapes
  double density = 1000.0;  ///< kg/m³, when fromShapes
  double mass = 1.0;        ///< kg
  Vec3 com = Vec3::Zero();  ///< centre of mass in the body frame
  /// Inertia about the centre of mass in body axes (symmetric): ixx, iyy, izz, ixy, ixz, iyz.
  Mat3 inertia = Mat3::Identity();
  bool operator==(const Inertial&) const = default;
};

enum class ShapeType { Box, Cylinder, Sphere, Capsule, Prism, Mesh };

/// A visual shape in the body frame. Cylinders, capsules and prisms have their axis along the
/// shape frame's z axis and are centred on the shape origin.
struct Shape {
  ShapeType type = ShapeType::Box;
  Placement origin;
  Vec3 size = Vec3::Ones();  ///< box: full edge lengths
  double radius = 0.1;       ///< cylinder, sphere, capsule; prism: circumradius
  double length = 1.0;       ///< cylinder, capsule (between hemisphere centres), prism
  int sides = 6;             ///< prism
  std::string mesh;          ///< mesh file path (STL, OBJ, COLLADA, PLY, glTF), relative to the model file
  Vec3 meshScale = Vec3::Ones();
  Eigen::Vector4d color{0.7, 0.7, 0.7, 1.0};  ///< RGBA in [0, 1]
  bool operator==(const Shape&) const = default;
};

struct BodySpec {
  std::string name;
  std::string parent = "world";
  JointSpec joint;
  Inertial inertial;
  std::vector<Shape> shapes;
  Vec6 appliedWrench = Vec6::Zero();  ///< constant [moment; force] in body coordinates at the body origin
  bool operator==(const BodySpec&) const = default;
};

struct SimulationSettings {
  std::string solver = "aba";
  std::string integrator = "rk4";
  double step = 0.002;      ///< s (fixed-step integrators; output interval for dopri5)
  double duration = 10.0;   ///< s
  double tolerance = 1e-8;  ///< relative tolerance for adaptive integrators
  bool operator==(const SimulationSettings&) const = default;
};

struct Model {
  int formatVersion = 1;
  std::string name = "untitled";
  std::string description;  ///< free text
  Vec3 gravity{0.0, 0.0, -9.81};
  std::vector<BodySpec> bodies;
  SimulationSettings simulation;
  /// Directory of the file the model was loaded from (set by the loader, not written): mesh
  /// paths are relative to it. Empty for models built in code or loaded from a string.
  std::string sourceDirectory;
  bool operator==(const Model&) const = default;

  /// Index of the body with this name, or -1.
  int findBody(const std::string& name) const;
};

/// The joints a drive could move, and those of them nothing moves: no drive and no motion, or a
/// constant drive of zero (an imported MJCF motor before its control is set). An imported robot
/// with passive joints falls under gravity when run; the import says so. Fixed joints have no
/// coordinates and a free joint (a floating base) is moved by the forces on its body, not by an
/// actuator: neither is counted.
struct PassiveJoints {
  int moving = 0;   ///< joints with coordinates, but free ones
  int passive = 0;  ///< of which passive
};
PassiveJoints passiveJoints(const Model& model);

/// YAML spellings of the enums (docs/model-format.md), also used in menus and messages.
std::string_view driveTypeName(DriveType type);
std::optional<DriveType> driveTypeFromName(std::string_view name);
std::string_view motionTypeName(MotionType type);
std::optional<MotionType> motionTypeFromName(std::string_view name);
std::string_view shapeTypeName(ShapeType type);
std::optional<ShapeType> shapeTypeFromName(std::string_view name);

/// The rule for body and joint names: letters, digits, '_' and '-', starting with a letter or '_'.
bool isValidName(const std::string& name);
/// The same rule as messages state it, after "'NAME' is not a valid name; ".
inline constexpr const char* kNameRule = "use letters, digits, '_' and '-', starting with a letter or '_'";

}  // namespace kt
