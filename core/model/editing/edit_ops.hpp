// SPDX-License-Identifier: BSD-3-Clause
// Structural edits of a Model for the editor: add, delete, re-parent, duplicate, mirror, rename,
// and templates (serial arm, chain, prism base). Each operation either changes the model and
// returns std::nullopt, or refuses with the reason (EditError holds the message) and leaves the
// model exactly as it was. The undo commands (ui/document) call these on a copy of the model.
//
// Order of Model::bodies (what the YAML file lists):
//   - new bodies (add, duplicate, mirror copy, templates) are appended at the END of
//     Model::bodies, parents before children, in the order of their originals;
//   - delete removes entries and keeps the relative order of every other body;
//   - re-parent and rename never move a body in the list.
// Names: body names and effective joint names (an unnamed joint takes its body's name) are
// unique, valid (letters, digits, '_' and '-', starting with a letter or '_') and never "world".
// Generated names take the first free "<base>_<k>" (k = 2, 3, …) when <base> is taken.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/model/model.hpp"

namespace kt {

/// std::nullopt when the edit was done; otherwise why it was refused (the model is unchanged).
using EditError = std::optional<std::string>;

// ---- names ----

/// Every name in use: body names and effective joint names.
std::set<std::string> usedNames(const Model& model);
/// `base` if it is valid and not in `taken`, else the first free "<base>_<k>" (k ≥ 2; a trailing
/// "_<digits>" of base is replaced). An invalid base is sanitized first.
std::string uniqueName(const std::string& base, const std::set<std::string>& taken);
/// Why `name` cannot be the name of body `body` (−1: a new body), or nullopt. Checks validity,
/// "world", other bodies' names and other joints' effective names (when the body's joint is unnamed).
EditError checkBodyName(const Model& model, int body, const std::string& name);
/// Why `name` cannot be the explicit name of body `body`'s joint (empty = the body's name).
EditError checkJointName(const Model& model, int body, const std::string& name);

// ---- structure queries ----

/// Direct children of the body named `parent` ("world" for the roots), in model order.
std::vector<int> childrenOf(const Model& model, const std::string& parent);
/// `root` and all its descendants, in model order.
std::vector<int> subtreeOf(const Model& model, int root);
/// True when `body` is `ancestor` or lies below it.
bool isInSubtree(const Model& model, int body, int ancestor);
/// Pose of a body frame in world coordinates with every joint at its neutral position
/// (neutral joints are identity transforms, so this composes the joint origins).
struct Pose {
  Mat3 R = Mat3::Identity();  ///< body axes → world axes
  Vec3 p = Vec3::Zero();      ///< body origin in world coordinates
};
Pose neutralPose(const Model& model, int body);

// ---- single bodies ----

/// A new body: 1 kg, a 0.2 m cube shape with its inertia (box closed form), joint of `type`
/// about z (universal: z then y) with neutral initial state; placed 0.3 m along z from a body
/// parent (at the origin under the world).
BodySpec defaultBody(const std::string& name, const std::string& parent, JointType type);

/// Adds a body under `parent` ("world" or a body name). Empty `name`: a unique "body_<k>".
/// The new body is appended; `newIndex` receives its index.
EditError addBody(Model& model, const std::string& parent, JointType type, const std::string& name = {},
                  int* newIndex = nullptr);
/// Adds a prepared body (its name and joint name are checked, its parent must exist).
EditError addBody(Model& model, const BodySpec& body, int* newIndex = nullptr);

/// Deletes one body; its children move up to its parent with their joint origins composed with
/// the deleted body's joint origin, so they keep their neutral pose. Children keep their
/// rotation form (rpy or quaternion).
EditError deleteBody(Model& model, int body);
/// Deletes a body and everything below it.
EditError deleteSubtree(Model& model, int root);

/// Hangs `body` from `newParent` ("world" or a body name). Refuses self-parenting, cycles (the
/// new parent inside the body's subtree) and unknown parents. With keepWorldPose the joint origin
/// is recomputed so that the body keeps its neutral world pose; otherwise the origin numbers are
/// kept (the body moves with its new parent).
EditError reparent(Model& model, int body, const std::string& newParent, bool keepWorldPose = false);

/// Renames a body (its children's parent fields follow). Checks unique, valid names.
EditError renameBody(Model& model, int body, const std::string& newName);
/// Sets the explicit joint name of a body (empty: the joint takes the body's name).
EditError renameJoint(Model& model, int body, const std::string& newName);

// ---- copies ----

/// Copies the subtree of `root` as a sibling of it (same parent, same joint origin). Names get
/// `suffix` (then made unique); explicit joint names too. `newRoot` receives the copy's root index.
EditError duplicateSubtree(Model& model, int root, const std::string& suffix = "_copy", int* newRoot = nullptr);

enum class MirrorPlane { XY, YZ, ZX };

struct MirrorOptions {
  MirrorPlane plane = MirrorPlane::ZX;  ///< plane through the origin of the root's parent frame
  bool copy = true;                     ///< false: mirror the subtree in place (names kept)
  /// Mirror only the root's joint placement (R → S R S, xyz → S xyz) and keep everything below
  /// in its local description: the result is the original subtree moved rigidly (by a proper
  /// rotation) onto the mirrored mount, i.e. an identical arm on the opposite face, with the
  /// same joint axes and the same motion for the same coordinates (not the mirror image).
  bool mountOnly = false;
  /// Copy names (bodies and explicit joint names): each (from, to) pair replaces every occurrence
  /// of `from` by `to`, in order ({"left", "right"}, {"L1", "L2"}); a name that none of them
  /// changes gets `suffix`. Then made unique.
  std::vector<std::pair<std::string, std::string>> renames;
  std::string suffix = "_mirror";
};

/// Mirrors the subtree of `root` across a plane of the root's parent frame. With S the
/// reflection (diag with −1 on the plane normal), each body frame F becomes S F S: a right-handed
/// frame, the mirror image of F with its normal-direction axis flipped. Consequently every
/// placement in the subtree (joint origins; shape origins) maps as R → S R S, xyz → S xyz; centres
/// of mass → S c; inertia → S I S (products with the normal axis change sign); applied moments
/// → −S m, forces → S f.
/// Joint convention: the mirrored joint, at the same coordinate values, moves as the mirror
/// image of the original, so q0, v0, limits and drives keep their values. Rotation axes are axial
/// vectors: revolute, universal (both axes) and the planar normal become −S a; prismatic axes
/// are polar: S a. Exceptions, where a coordinate changes sign: cylindrical joints (axis −S a, the
/// translation coordinate negated); spherical and free quaternions (w, v) → (w, −S v), free
/// positions → S p, angular velocities → −S ω, linear velocities → S v; planar in-plane
/// coordinates are re-expressed in the mirrored joint's in-plane basis (limits and drives follow
/// when that basis change is a signed permutation, as it is for axis-aligned normals).
/// Shapes: a prism is mirrored through its own y flip (its first vertex lies on +x), a mesh by
/// negating the scale along the normal (mesh mass properties must accept negative scales).
/// With copy, the mirrored bodies are appended (sibling of the original root); `newRoot` receives
/// the index of the mirrored root (the root itself when !copy).
EditError mirrorSubtree(Model& model, int root, const MirrorOptions& options, int* newRoot = nullptr);

// ---- templates ----

/// One joint and its link in a serial arm (a row of Insert Template ▸ Serial Arm's table): the
/// link is a solid cylinder or square-section box of `length` along +z of its joint frame, and
/// the next joint sits at its tip.
struct ArmLink {
  JointType joint = JointType::Revolute;
  Vec3 axis = Vec3::UnitY();              ///< joint axis in the joint frame (universal: the first axis)
  ShapeType shape = ShapeType::Cylinder;  ///< Cylinder or Box
  double length = 0.5;                    ///< m
  double width = 0.1;                     ///< m: the cylinder's diameter, the box's section edge
  double mass = 1.0;                      ///< kg, or kg/m³ when the template's byDensity
  Drive drive;                            ///< none by default
  bool operator==(const ArmLink&) const = default;
};
/// A serial arm: one link per entry of `links`, the first hinged at `base` in the parent frame,
/// each next one at the tip of the one before. Bodies are named <prefix>1, <prefix>2, … and,
/// with a joint prefix, joints <jointPrefix>1, … (else a joint takes its body's name).
struct ArmTemplate {
  std::vector<ArmLink> links = std::vector<ArmLink>(3);
  bool byDensity = false;  ///< ArmLink::mass is a density
  std::string prefix = "link";
  std::string jointPrefix;
  Placement base;
};
/// A named arm layout for the template's table: joint types, axes and link lengths (links of the
/// default width and mass, no drives).
struct ArmPreset {
  std::string name;
  std::vector<ArmLink> links;
};
const std::vector<ArmPreset>& armPresets();
/// A chain: `bodies` boxes hanging along −z, `spacing` apart, joints of `joint` type about `axis`.
struct ChainTemplate {
  int bodies = 5;
  JointType joint = JointType::Revolute;
  Vec3 axis = Vec3::UnitY();
  double spacing = 0.3;
  double bodyMass = 1.0;
  Vec3 boxSize{0.1, 0.1, 0.2};
  std::string prefix = "chain";
  Placement base;
};
/// One body: an n-sided prism (circumradius, height along z) with its closed-form inertia.
struct PrismBaseTemplate {
  int sides = 6;
  double radius = 0.5;
  double height = 0.4;
  double mass = 100.0;
  JointType joint = JointType::Free;
  std::string name = "base";
  std::string jointName;  ///< empty: the joint takes the body's name
  Placement base;
};

/// Each inserts under `parent`, appending the new bodies; `firstNew` receives the index of the
/// first one. Refuses non-positive sizes or counts (counts up to 10000).
EditError insertArm(Model& model, const std::string& parent, const ArmTemplate& t, int* firstNew = nullptr);
EditError insertChain(Model& model, const std::string& parent, const ChainTemplate& t, int* firstNew = nullptr);
EditError insertPrismBase(Model& model, const std::string& parent, const PrismBaseTemplate& t, int* firstNew = nullptr);

/// The serial-chain builder of the templates above and of the test models (generators.hpp):
/// appends one body per name, each a copy of `link` renamed, hinged to `parent` (the first) or
/// to the body before it, with its joint frame at `base` (the first) or at `offset` in the
/// previous body's frame (no rotation). Names are taken as given (valid and unused).
void appendSerialChain(Model& model, const std::string& parent, const BodySpec& link,
                       const std::vector<std::string>& names, const Placement& base, const Vec3& offset);

}  // namespace kt
