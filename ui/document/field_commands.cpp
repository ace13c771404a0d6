// SPDX-License-Identifier: BSD-3-Clause
#include "ui/document/field_commands.hpp"

#include <QCoreApplication>
#include <cmath>
#include <functional>

#include "core/io/model_files.hpp"
#include "core/model/editing/round_values.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/joint.hpp"
#include "core/model/tree.hpp"
#include "ui/document/document.hpp"
#include "ui/document/problems_model.hpp"

namespace kt::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("kt::ui::edit", text); }
QString q(const std::string& s) { return QString::fromStdString(s); }

kt::Model headerOf(const kt::Model& m) {
  kt::Model h;
  h.formatVersion = m.formatVersion;
  h.name = m.name;
  h.description = m.description;
  h.gravity = m.gravity;
  h.simulation = m.simulation;
  return h;
}

bool startsWithPath(const std::string& path, const std::string& prefix) {
  if (path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

// The first problem of `candidate` that the current model does not have, worded for the field
// at `fieldPath` (its path is left out when it is that field's own problem).
QString newProblem(const Document& doc, const kt::Model& candidate, const std::string& fieldPath) {
  const std::vector<kt::Diagnostic>& now = doc.problems()->diagnostics();
  for (const kt::Diagnostic& d : kt::validateWithSettings(candidate)) {
    bool known = false;
    for (const kt::Diagnostic& o : now)
      if (o.path == d.path && o.message == d.message) {
        known = true;
        break;
      }
    if (known) continue;
    if (startsWithPath(d.path, fieldPath)) return q(d.message);
    return q(d.path + ": " + d.message);
  }
  return {};
}

const char* fieldLabel(Field f) {
  switch (f) {
    case Field::ModelName: return "name";
    case Field::Description: return "description";
    case Field::Gravity: return "gravity";
    case Field::Simulation: return "simulation settings";
    case Field::JointType: return "joint type";
    case Field::JointName: return "joint name";
    case Field::JointOrigin: return "joint placement";
    case Field::JointAxis: return "joint axis";
    case Field::JointAxis2: return "second joint axis";
    case Field::JointAxis3: return "third joint axis";
    case Field::JointPoint2: return "point of the second joint axis";
    case Field::JointPoint3: return "point of the third joint axis";
    case Field::InitialPosition: return "initial position";
    case Field::InitialVelocity: return "initial velocity";
    case Field::Limits: return "limits";
    case Field::Drive: return "drive";
    case Field::Motion: return "motion";
    case Field::Rating: return "load rating";
    case Field::Inertial: return "inertial data";
    case Field::Mass: return "mass";
    case Field::CenterOfMass: return "centre of mass";
    case Field::InertiaTensor: return "inertia";
    case Field::FromShapes: return "mass from shapes";
    case Field::Density: return "density";
    case Field::AddShape: return "shape added";
    case Field::RemoveShape: return "shape removed";
    case Field::ShapeEdit: return "shape";
    case Field::Shapes: return "shapes";
    case Field::AppliedWrench: return "applied wrench";
  }
  return "field";
}

QUndoCommand* bodyEdit(Document& doc, int body, Field field, int sub, const std::function<void(kt::BodySpec&)>& change,
                       QString* error) {
  if (error) error->clear();
  const kt::Model& m = doc.model();
  if (body < 0 || body >= static_cast<int>(m.bodies.size())) {
    if (error) *error = tr("no such body");
    return nullptr;
  }
  if ((field == Field::RemoveShape || field == Field::ShapeEdit) &&
      (sub < 0 || sub >= static_cast<int>(m.bodies[body].shapes.size()))) {
    if (error) *error = tr("no such shape");
    return nullptr;
  }
  kt::BodySpec after = m.bodies[body];
  change(after);
  if (after == m.bodies[body]) return nullptr;  // nothing changes: nothing to undo
  kt::Model candidate = m;
  candidate.bodies[body] = after;
  const int pathSub = field == Field::RemoveShape ? -1 : sub;
  if (const QString why = newProblem(doc, candidate, fieldPath(field, body, pathSub)); !why.isEmpty()) {
    if (error) *error = why;
    return nullptr;
  }
  return new BodyFieldCommand(doc, body, field, sub, std::move(after),
                              tr("Set %1 of %2").arg(tr(fieldLabel(field)), q(m.bodies[body].name)));
}

QUndoCommand* modelEdit(Document& doc, Field field, const std::function<void(kt::Model&)>& change, QString* error) {
  if (error) error->clear();
  kt::Model after = headerOf(doc.model());
  change(after);
  if (after == headerOf(doc.model())) return nullptr;
  kt::Model candidate = doc.model();
  candidate.name = after.name;
  candidate.description = after.description;
  candidate.gravity = after.gravity;
  candidate.simulation = after.simulation;
  if (const QString why = newProblem(doc, candidate, fieldPath(field, -1)); !why.isEmpty()) {
    if (error) *error = why;
    return nullptr;
  }
  return new ModelFieldCommand(doc, field, after, tr("Set %1").arg(tr(fieldLabel(field))));
}

}  // namespace

std::string fieldPath(Field field, int body, int sub) {
  const std::string b = "bodies[" + std::to_string(body) + "]";
  switch (field) {
    case Field::ModelName: return "name";
    case Field::Description: return "description";
    case Field::Gravity: return "gravity";
    case Field::Simulation: return "simulation";
    case Field::JointType: return b + ".joint";
    case Field::JointName: return b + ".joint.name";
    case Field::JointOrigin: return b + ".joint.origin";
    case Field::JointAxis: return b + ".joint.axis";
    case Field::JointAxis2: return b + ".joint.axis2";
    case Field::JointAxis3: return b + ".joint.axis3";
    case Field::JointPoint2: return b + ".joint.point2";
    case Field::JointPoint3: return b + ".joint.point3";
    case Field::InitialPosition: return b + ".joint.q0";
    case Field::InitialVelocity: return b + ".joint.v0";
    case Field::Limits: return b + ".joint.limits";
    case Field::Drive: return b + ".joint.drive";
    case Field::Motion: return b + ".joint.motion";
    case Field::Rating: return b + ".joint.rating";
    case Field::Inertial: return b + ".inertial";
    case Field::Mass: return b + ".inertial.mass";
    case Field::CenterOfMass: return b + ".inertial.com";
    case Field::InertiaTensor: return b + ".inertial.inertia";
    case Field::FromShapes: return b + ".inertial";
    case Field::Density: return b + ".inertial.density";
    case Field::AddShape:
    case Field::RemoveShape:
    case Field::ShapeEdit: return sub >= 0 ? b + ".shapes[" + std::to_string(sub) + "]" : b + ".shapes";
    case Field::Shapes: return b + ".shapes";
    case Field::AppliedWrench: return b + ".applied_wrench";
  }
  return b;
}

// ---- BodyFieldCommand ----

BodyFieldCommand::BodyFieldCommand(Document& doc, int body, Field field, int sub, kt::BodySpec after,
                                   const QString& text)
    : QUndoCommand(text),
      doc_(doc),
      body_(body),
      field_(field),
      sub_(sub),
      before_(doc.model().bodies[body]),
      after_(std::move(after)) {}

void BodyFieldCommand::redo() { doc_.replaceBody(body_, after_); }
void BodyFieldCommand::undo() { doc_.replaceBody(body_, before_); }

bool BodyFieldCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const BodyFieldCommand*>(other);
  if (!o || o->body_ != body_ || o->field_ != field_ || o->sub_ != sub_) return false;
  if (field_ == Field::AddShape || field_ == Field::RemoveShape) return false;
  after_ = o->after_;
  setObsolete(after_ == before_);
  return true;
}

// ---- ModelFieldCommand ----

ModelFieldCommand::ModelFieldCommand(Document& doc, Field field, const kt::Model& afterHeader, const QString& text)
    : QUndoCommand(text), doc_(doc), field_(field), before_(headerOf(doc.model())), after_(afterHeader) {}

void ModelFieldCommand::redo() { doc_.setHeader(after_); }
void ModelFieldCommand::undo() { doc_.setHeader(before_); }

bool ModelFieldCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const ModelFieldCommand*>(other);
  if (!o || o->field_ != field_) return false;
  after_ = o->after_;
  setObsolete(after_ == before_);
  return true;
}

// ---- factories ----

namespace edit {

QUndoCommand* setJointType(Document& doc, int body, kt::JointType type, QString* error) {
  return bodyEdit(
      doc, body, Field::JointType, -1,
      [&](kt::BodySpec& b) {
        kt::JointSpec& j = b.joint;
        const kt::JointType old = j.type;
        if (old == type) return;
        j.type = type;
        const bool sameDims = kt::jointNq(old) == kt::jointNq(type) && kt::jointNv(old) == kt::jointNv(type);
        if (!sameDims) {
          j.q0.clear();
          j.v0.clear();
          j.limits.clear();
        }
        // a rating per reaction coordinate fits only a joint with as many of them
        if (kt::jointNv(old) != kt::jointNv(type)) j.rating.reaction.clear();
        if (kt::jointNv(old) != kt::jointNv(type)) j.rating.effort.clear();
        // a motion needs coordinates whose rates are the velocities, as many as it was written for
        if (!sameDims || kt::jointNv(type) == 0 || kt::jointUsesQuasiVelocity(type)) j.motion = kt::Motion{};
        const bool pd = j.drive.type == kt::DriveType::PdSinusoid || j.drive.type == kt::DriveType::PdPiecewise ||
                        j.drive.type == kt::DriveType::SpringDamper;
        if (!sameDims || type == kt::JointType::Fixed || (pd && kt::jointNq(type) != kt::jointNv(type)))
          j.drive = kt::Drive{};
        if (type == kt::JointType::Universal && j.axis.norm() > 0.0 &&
            j.axis.normalized().cross(j.axis2.normalized()).norm() < 1e-6)
          j.axis2 = kt::perpendicularTo(j.axis.normalized());
        // a gimbal's three axes: the axis, then the two others of a right-handed set, where the
        // ones written would leave it locked at its start, all angles zero (the new type's q0):
        // a·(a₂ × a₃) = 0, which neighbours parallel also give
        if (type == kt::JointType::Gimbal && j.axis.norm() > 0.0 && j.axis2.norm() > 0.0 && j.axis3.norm() > 0.0 &&
            std::abs(j.axis.normalized().dot(j.axis2.normalized().cross(j.axis3.normalized()))) < 1e-6) {
          j.axis2 = kt::perpendicularTo(j.axis.normalized());
          j.axis3 = j.axis.normalized().cross(j.axis2);
        }
      },
      error);
}

QUndoCommand* setJointOrigin(Document& doc, int body, const kt::Placement& origin, QString* error) {
  return bodyEdit(
      doc, body, Field::JointOrigin, -1, [&](kt::BodySpec& b) { b.joint.origin = origin; }, error);
}

QUndoCommand* setJointAxis(Document& doc, int body, const kt::Vec3& axis, QString* error) {
  return bodyEdit(
      doc, body, Field::JointAxis, -1, [&](kt::BodySpec& b) { b.joint.axis = axis; }, error);
}

QUndoCommand* setJointAxis2(Document& doc, int body, const kt::Vec3& axis2, QString* error) {
  return bodyEdit(
      doc, body, Field::JointAxis2, -1, [&](kt::BodySpec& b) { b.joint.axis2 = axis2; }, error);
}

QUndoCommand* setJointAxis3(Document& doc, int body, const kt::Vec3& axis3, QString* error) {
  return bodyEdit(
      doc, body, Field::JointAxis3, -1, [&](kt::BodySpec& b) { b.joint.axis3 = axis3; }, error);
}

QUndoCommand* setJointPoint2(Document& doc, int body, const kt::Vec3& point2, QString* error) {
  return bodyEdit(
      doc, body, Field::JointPoint2, -1, [&](kt::BodySpec& b) { b.joint.point2 = point2; }, error);
}

QUndoCommand* setJointPoint3(Document& doc, int body, const kt::Vec3& point3, QString* error) {
  return bodyEdit(
      doc, body, Field::JointPoint3, -1, [&](kt::BodySpec& b) { b.joint.point3 = point3; }, error);
}

QUndoCommand* setInitialPosition(Document& doc, int body, const std::vector<double>& q0, QString* error) {
  return bodyEdit(
      doc, body, Field::InitialPosition, -1, [&](kt::BodySpec& b) { b.joint.q0 = q0; }, error);
}

QUndoCommand* setInitialVelocity(Document& doc, int body, const std::vector<double>& v0, QString* error) {
  return bodyEdit(
      doc, body, Field::InitialVelocity, -1, [&](kt::BodySpec& b) { b.joint.v0 = v0; }, error);
}

QUndoCommand* setLimits(Document& doc, int body, const std::vector<kt::Limit>& limits, QString* error) {
  return bodyEdit(
      doc, body, Field::Limits, -1, [&](kt::BodySpec& b) { b.joint.limits = limits; }, error);
}

QUndoCommand* setDrive(Document& doc, int body, const kt::Drive& drive, QString* error) {
  return bodyEdit(
      doc, body, Field::Drive, -1, [&](kt::BodySpec& b) { b.joint.drive = drive; }, error);
}

QUndoCommand* setMotion(Document& doc, int body, const kt::Motion& motion, QString* error) {
  return bodyEdit(
      doc, body, Field::Motion, -1,
      [&](kt::BodySpec& b) {
        b.joint.motion = motion;
        if (motion.type != kt::MotionType::None) b.joint.drive = kt::Drive{};
      },
      error);
}

QUndoCommand* setRating(Document& doc, int body, const kt::LoadRating& rating, QString* error) {
  return bodyEdit(
      doc, body, Field::Rating, -1, [&](kt::BodySpec& b) { b.joint.rating = rating; }, error);
}

QUndoCommand* setInertial(Document& doc, int body, const kt::Inertial& inertial, QString* error) {
  return bodyEdit(
      doc, body, Field::Inertial, -1, [&](kt::BodySpec& b) { b.inertial = inertial; }, error);
}

QUndoCommand* setMass(Document& doc, int body, double mass, QString* error) {
  return bodyEdit(
      doc, body, Field::Mass, -1, [&](kt::BodySpec& b) { b.inertial.mass = mass; }, error);
}

QUndoCommand* setCenterOfMass(Document& doc, int body, const kt::Vec3& com, QString* error) {
  return bodyEdit(
      doc, body, Field::CenterOfMass, -1, [&](kt::BodySpec& b) { b.inertial.com = com; }, error);
}

QUndoCommand* setInertiaTensor(Document& doc, int body, const kt::Mat3& inertia, QString* error) {
  return bodyEdit(
      doc, body, Field::InertiaTensor, -1, [&](kt::BodySpec& b) { b.inertial.inertia = inertia; }, error);
}

QUndoCommand* setFromShapes(Document& doc, int body, bool fromShapes, QString* error) {
  return bodyEdit(
      doc, body, Field::FromShapes, -1, [&](kt::BodySpec& b) { b.inertial.fromShapes = fromShapes; }, error);
}

QUndoCommand* setDensity(Document& doc, int body, double density, QString* error) {
  return bodyEdit(
      doc, body, Field::Density, -1, [&](kt::BodySpec& b) { b.inertial.density = density; }, error);
}

QUndoCommand* computeInertialFromShapes(Document& doc, int body, double density, QString* error) {
  if (body < 0 || body >= static_cast<int>(doc.model().bodies.size())) {
    if (error) *error = tr("no such body");
    return nullptr;
  }
  kt::BodySpec probe = doc.model().bodies[body];
  if (probe.shapes.empty()) {
    if (error) *error = tr("the body has no shapes to compute its mass properties from");
    return nullptr;
  }
  if (!(density > 0.0 && std::isfinite(density))) {
    if (error) *error = tr("the density must be a positive number");
    return nullptr;
  }
  probe.inertial.fromShapes = true;
  probe.inertial.density = density;
  kt::MassProperties mp;
  std::string why;
  if (!kt::bodyMassProperties(probe, doc.model().sourceDirectory, kt::meshFiles(), mp, why)) {
    if (error) *error = q(why);
    return nullptr;
  }
  kt::roundComputed(mp);  // 400 kg, not 400.00000000000006 (core/model/editing/round_values.hpp)
  return bodyEdit(
      doc, body, Field::Inertial, -1,
      [&](kt::BodySpec& b) {
        b.inertial.fromShapes = false;
        b.inertial.mass = mp.mass;
        b.inertial.com = mp.com;
        b.inertial.inertia = mp.inertia;
      },
      error);
}

QUndoCommand* addShape(Document& doc, int body, const kt::Shape& shape, QString* error) {
  const int sub = body >= 0 && body < static_cast<int>(doc.model().bodies.size())
                      ? static_cast<int>(doc.model().bodies[body].shapes.size())
                      : -1;
  return bodyEdit(
      doc, body, Field::AddShape, sub, [&](kt::BodySpec& b) { b.shapes.push_back(shape); }, error);
}

QUndoCommand* removeShape(Document& doc, int body, int shape, QString* error) {
  return bodyEdit(
      doc, body, Field::RemoveShape, shape,
      [&](kt::BodySpec& b) {
        if (shape >= 0 && shape < static_cast<int>(b.shapes.size())) b.shapes.erase(b.shapes.begin() + shape);
      },
      error);
}

QUndoCommand* setShape(Document& doc, int body, int shape, const kt::Shape& value, QString* error) {
  return bodyEdit(
      doc, body, Field::ShapeEdit, shape,
      [&](kt::BodySpec& b) {
        if (shape >= 0 && shape < static_cast<int>(b.shapes.size())) b.shapes[shape] = value;
      },
      error);
}

QUndoCommand* setShapes(Document& doc, int body, const std::vector<kt::Shape>& shapes, QString* error) {
  return bodyEdit(
      doc, body, Field::Shapes, -1, [&](kt::BodySpec& b) { b.shapes = shapes; }, error);
}

QUndoCommand* setAppliedWrench(Document& doc, int body, const kt::Vec6& wrench, QString* error) {
  return bodyEdit(
      doc, body, Field::AppliedWrench, -1, [&](kt::BodySpec& b) { b.appliedWrench = wrench; }, error);
}

QUndoCommand* setModelName(Document& doc, const QString& name, QString* error) {
  return modelEdit(
      doc, Field::ModelName, [&](kt::Model& m) { m.name = name.toStdString(); }, error);
}

QUndoCommand* setDescription(Document& doc, const QString& description, QString* error) {
  return modelEdit(
      doc, Field::Description, [&](kt::Model& m) { m.description = description.toStdString(); }, error);
}

QUndoCommand* setGravity(Document& doc, const kt::Vec3& gravity, QString* error) {
  return modelEdit(
      doc, Field::Gravity, [&](kt::Model& m) { m.gravity = gravity; }, error);
}

QUndoCommand* setSimulation(Document& doc, const kt::SimulationSettings& settings, QString* error) {
  return modelEdit(
      doc, Field::Simulation, [&](kt::Model& m) { m.simulation = settings; }, error);
}

}  // namespace edit
}  // namespace kt::ui
