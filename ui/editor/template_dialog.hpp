// SPDX-License-Identifier: BSD-3-Clause
// Insert ▸ Template…: a serial arm of N links, a chain of N bodies or an n-sided prism base
// (core/model/editing/edit_ops.hpp ArmTemplate, ChainTemplate, PrismBaseTemplate), every parameter of
// the template in a form, the parent body and the placement of the first new body in the parent
// frame (xyz in m, rpy in degrees; the file stores radians), which a face of the parent's shapes
// can fill (core/model/geometry/mount_faces.hpp). The arm is a table, one row per joint and link (joint
// type, axis, link shape, length, width, mass or density, drive as a model file writes it), with
// presets; new rows copy the first. A preview line says what OK adds or, in red, why the
// parameters are refused; OK only closes with parameters the edit accepts.
#pragma once

#include <QDialog>
#include <QUndoCommand>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/editing/edit_ops.hpp"
#include "core/model/geometry/mount_faces.hpp"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
class QWidget;

namespace kt::ui {

class Document;

class TemplateDialog : public QDialog {
  Q_OBJECT

 public:
  enum class Kind { Arm, Chain, PrismBase };

  /// `parentBody`: "world" or a body name (the parent chooser starts there).
  TemplateDialog(Document* document, const QString& parentBody, QWidget* parent = nullptr);
  ~TemplateDialog() override;

  void setKind(Kind kind);
  Kind kind() const;

  /// The template parameters as the widgets show them (angles converted to radians). A cell of
  /// the arm table that does not read (an axis, a number, a drive) is named in `error`.
  kt::ArmTemplate armTemplate(QString* error = nullptr) const;
  /// The arm's table: one row per link, columns as ArmColumn.
  QTableWidget* armTable() const { return armTable_; }
  enum ArmColumn { JointCol, AxisCol, ShapeCol, LengthCol, WidthCol, MassCol, DriveCol, ArmColumns };
  /// Fills the table from `links` (the link count follows).
  void setArmLinks(const std::vector<kt::ArmLink>& links);
  /// Fills the placement from face `index` of mountFaces() (−1: the parent frame's origin).
  void mountOnFace(int index);
  /// The faces of the chosen parent's shapes offered in the "Mount on" list.
  const std::vector<kt::MountFace>& mountFaces() const { return faces_; }
  kt::ChainTemplate chainTemplate() const;
  kt::PrismBaseTemplate prismTemplate() const;
  /// The chosen parent: "world" or a body name.
  QString parentBody() const;

  /// Builds the command for the current parameters (edit::insertArm/insertChain/insertPrismBase),
  /// or nullptr with the reason in `error`.
  QUndoCommand* makeCommand(QString* error = nullptr);
  /// After exec() == Accepted: the command to push (ownership to the caller), else nullptr.
  QUndoCommand* takeCommand();

  /// Closes only when makeCommand() succeeds; otherwise shows the reason in the dialog.
  void accept() override;

 private:
  struct AxisEdit {
    QDoubleSpinBox* x = nullptr;
    QDoubleSpinBox* y = nullptr;
    QDoubleSpinBox* z = nullptr;
  };

  QWidget* buildArmPage();
  QWidget* buildChainPage();
  QWidget* buildPrismPage();
  QWidget* buildPlacement();
  QDoubleSpinBox* length(const QString& objectName, double value, const QString& suffix, const QString& tip);
  AxisEdit axisEdit(const QString& objectName, const kt::Vec3& value, QWidget** row);
  QComboBox* jointCombo(const QString& objectName, kt::JointType value);
  kt::Placement placement() const;
  /// Why the name part of the parameters is refused (the core edit would silently sanitize it).
  QString nameProblem() const;
  void updateHelpAndAxes();
  void updatePreview();

  Document* document_;
  std::unique_ptr<QUndoCommand> command_;

  QComboBox* kindCombo_;
  QComboBox* parentCombo_;
  QStackedWidget* pages_;
  QLabel* kindHelp_;

  /// Sets row `r` of the arm table to `link`.
  void setArmRow(int r, const kt::ArmLink& link);
  /// Rows added or removed to match the link count; new rows copy the first.
  void resizeArmTable(int rows);
  /// Refills the "Mount on" list for the chosen parent.
  void updateFaces();

  // arm
  QComboBox* armPreset_ = nullptr;
  QSpinBox* armLinks_ = nullptr;
  QComboBox* armMassMode_ = nullptr;
  QTableWidget* armTable_ = nullptr;
  QLineEdit* armPrefix_ = nullptr;
  QLineEdit* armJointPrefix_ = nullptr;
  bool fillingTable_ = false;
  /// Each drive text read once per joint type (every table change re-reads the whole table, and
  /// a 10,000-link table holds as many drive cells): the drive, or the reason it is refused.
  struct ReadDrive {
    kt::Drive drive;
    std::string error;
  };
  mutable std::map<std::pair<kt::JointType, std::string>, ReadDrive> readDrives_;
  // chain
  QSpinBox* chainBodies_ = nullptr;
  QComboBox* chainJoint_ = nullptr;
  AxisEdit chainAxis_;
  QWidget* chainAxisRow_ = nullptr;
  QDoubleSpinBox* chainSpacing_ = nullptr;
  QDoubleSpinBox* chainMass_ = nullptr;
  AxisEdit chainBox_;
  QLineEdit* chainPrefix_ = nullptr;
  // prism base
  QSpinBox* prismSides_ = nullptr;
  QDoubleSpinBox* prismRadius_ = nullptr;
  QDoubleSpinBox* prismHeight_ = nullptr;
  QDoubleSpinBox* prismMass_ = nullptr;
  QComboBox* prismJoint_ = nullptr;
  QLineEdit* prismName_ = nullptr;
  QLineEdit* prismJointName_ = nullptr;
  // placement of the first new body in the parent frame
  QComboBox* mountOn_ = nullptr;
  std::vector<kt::MountFace> faces_;
  std::optional<kt::Placement> facePlacement_;  ///< the chosen face's placement, exact, until edited
  bool settingPlacement_ = false;
  bool constructed_ = false;
  AxisEdit xyz_;
  AxisEdit rpyDeg_;

  QLabel* preview_;
  QDialogButtonBox* buttons_;
};

}  // namespace kt::ui
