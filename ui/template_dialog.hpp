// SPDX-License-Identifier: BSD-3-Clause
// Insert ▸ Template…: a serial arm of N links, a chain of N bodies or an n-sided prism base
// (core/model/edit_ops.hpp ArmTemplate, ChainTemplate, PrismBaseTemplate), every parameter of
// the template in a form, the parent body and the placement of the first new body in the parent
// frame (xyz in m, rpy in degrees; the file stores radians). A preview line says what OK adds
// or, in red, why the parameters are refused; OK only closes with parameters the edit accepts.
#pragma once

#include <QDialog>
#include <QUndoCommand>
#include <memory>

#include "core/model/edit_ops.hpp"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
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

  /// The template parameters as the widgets show them (angles converted to radians).
  kt::ArmTemplate armTemplate() const;
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

  // arm
  QSpinBox* armLinks_ = nullptr;
  QComboBox* armJoint_ = nullptr;
  AxisEdit armAxis_;
  QWidget* armAxisRow_ = nullptr;
  QDoubleSpinBox* armLength_ = nullptr;
  QDoubleSpinBox* armRadius_ = nullptr;
  QDoubleSpinBox* armMass_ = nullptr;
  QLineEdit* armPrefix_ = nullptr;
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
  // placement of the first new body in the parent frame
  AxisEdit xyz_;
  AxisEdit rpyDeg_;

  QLabel* preview_;
  QDialogButtonBox* buttons_;
};

}  // namespace kt::ui
