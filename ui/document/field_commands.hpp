// SPDX-License-Identifier: BSD-3-Clause
// "Set field" undo commands for every field of the model format. A body field edit stores the
// body's whole spec before and after (undo is exact); a model field edit stores the model-level
// settings (name, description, gravity, simulation) before and after.
//
// Refusal: each factory applies the change to a copy of the model and runs kt::validate (the
// loader's checks); when the change adds a problem that the model did not have, it returns
// nullptr and sets `error` to that problem's message (the UI shows it in the field). Fields are
// never accepted silently with an invalid value.
//
// Merging: consecutive commands on the same field of the same body (and the same shape, for
// shape edits) merge into one undo step (QUndoCommand::id/mergeWith): a slider drag is one step.
// QUndoStack never merges into the command at the clean index, so an edit after a save stays
// undoable back to the saved state. A merge that returns to the original value makes the command
// obsolete (it disappears from the stack).
#pragma once

#include <QString>
#include <QUndoCommand>
#include <string>
#include <vector>

#include "core/model/model.hpp"

namespace kt::ui {

class Document;

enum class Field {
  // model level
  ModelName,
  Description,
  Gravity,
  Simulation,
  // joint
  JointType,
  JointName,
  JointOrigin,
  JointAxis,
  JointAxis2,
  JointAxis3,
  JointPoint2,
  JointPoint3,
  InitialPosition,
  InitialVelocity,
  Limits,
  Drive,
  Motion,
  Rating,
  // inertial
  Inertial,
  Mass,
  CenterOfMass,
  InertiaTensor,
  FromShapes,
  Density,
  // shapes and loads
  AddShape,
  RemoveShape,
  ShapeEdit,
  Shapes,  ///< every shape at once (a paste)
  AppliedWrench,
};

/// YAML path of a field ("bodies[2].joint.origin", "gravity"); `sub` is the shape index.
std::string fieldPath(Field field, int body, int sub = -1);

/// Body field edit: the body's spec before and after.
class BodyFieldCommand : public QUndoCommand {
 public:
  static constexpr int kId = 0x4b54'0001;
  BodyFieldCommand(Document& doc, int body, Field field, int sub, kt::BodySpec after, const QString& text);
  void redo() override;
  void undo() override;
  int id() const override { return kId; }
  bool mergeWith(const QUndoCommand* other) override;
  Field field() const { return field_; }
  int body() const { return body_; }

 private:
  Document& doc_;
  int body_;
  Field field_;
  int sub_;
  kt::BodySpec before_, after_;
};

/// Model-level field edit (name, description, gravity, simulation settings).
class ModelFieldCommand : public QUndoCommand {
 public:
  static constexpr int kId = 0x4b54'0002;
  ModelFieldCommand(Document& doc, Field field, const kt::Model& afterHeader, const QString& text);
  void redo() override;
  void undo() override;
  int id() const override { return kId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  Document& doc_;
  Field field_;
  kt::Model before_, after_;  // headers only (no bodies)
};

namespace edit {

// Joint. Changing the type keeps the origin and axes, clears q0, v0 and limits when the number
// of coordinates changes, and drops a drive or a motion the new type cannot take.
QUndoCommand* setJointType(Document& doc, int body, kt::JointType type, QString* error = nullptr);
QUndoCommand* setJointOrigin(Document& doc, int body, const kt::Placement& origin, QString* error = nullptr);
QUndoCommand* setJointAxis(Document& doc, int body, const kt::Vec3& axis, QString* error = nullptr);
QUndoCommand* setJointAxis2(Document& doc, int body, const kt::Vec3& axis2, QString* error = nullptr);
QUndoCommand* setJointAxis3(Document& doc, int body, const kt::Vec3& axis3, QString* error = nullptr);
/// The points axis 2 and axis 3 of a universal or gimbal joint pass through (body frame, m).
QUndoCommand* setJointPoint2(Document& doc, int body, const kt::Vec3& point2, QString* error = nullptr);
QUndoCommand* setJointPoint3(Document& doc, int body, const kt::Vec3& point3, QString* error = nullptr);
QUndoCommand* setInitialPosition(Document& doc, int body, const std::vector<double>& q0, QString* error = nullptr);
QUndoCommand* setInitialVelocity(Document& doc, int body, const std::vector<double>& v0, QString* error = nullptr);
QUndoCommand* setLimits(Document& doc, int body, const std::vector<kt::Limit>& limits, QString* error = nullptr);
QUndoCommand* setDrive(Document& doc, int body, const kt::Drive& drive, QString* error = nullptr);
/// A prescribed motion (docs/motion.md); one that is not none replaces the joint's drive (a joint
/// follows a motion or a drive), and undo gives the drive back.
QUndoCommand* setMotion(Document& doc, int body, const kt::Motion& motion, QString* error = nullptr);
QUndoCommand* setRating(Document& doc, int body, const kt::LoadRating& rating, QString* error = nullptr);
// Inertial data.
QUndoCommand* setInertial(Document& doc, int body, const kt::Inertial& inertial, QString* error = nullptr);
QUndoCommand* setMass(Document& doc, int body, double mass, QString* error = nullptr);
QUndoCommand* setCenterOfMass(Document& doc, int body, const kt::Vec3& com, QString* error = nullptr);
QUndoCommand* setInertiaTensor(Document& doc, int body, const kt::Mat3& inertia, QString* error = nullptr);
QUndoCommand* setFromShapes(Document& doc, int body, bool fromShapes, QString* error = nullptr);
QUndoCommand* setDensity(Document& doc, int body, double density, QString* error = nullptr);
/// Fills the explicit inertial block from the shapes at `density` (closed forms; meshes by the
/// divergence theorem), keeping fromShapes off: "compute from shapes" in the property editor.
QUndoCommand* computeInertialFromShapes(Document& doc, int body, double density, QString* error = nullptr);
// Shapes.
QUndoCommand* addShape(Document& doc, int body, const kt::Shape& shape, QString* error = nullptr);
QUndoCommand* removeShape(Document& doc, int body, int shape, QString* error = nullptr);
QUndoCommand* setShape(Document& doc, int body, int shape, const kt::Shape& value, QString* error = nullptr);
/// Replaces all of the body's shapes (Edit ▸ Paste Shapes).
QUndoCommand* setShapes(Document& doc, int body, const std::vector<kt::Shape>& shapes, QString* error = nullptr);
QUndoCommand* setAppliedWrench(Document& doc, int body, const kt::Vec6& wrench, QString* error = nullptr);
// Model level.
QUndoCommand* setModelName(Document& doc, const QString& name, QString* error = nullptr);
QUndoCommand* setDescription(Document& doc, const QString& description, QString* error = nullptr);
QUndoCommand* setGravity(Document& doc, const kt::Vec3& gravity, QString* error = nullptr);
QUndoCommand* setSimulation(Document& doc, const kt::SimulationSettings& settings, QString* error = nullptr);

}  // namespace edit
}  // namespace kt::ui
