// SPDX-License-Identifier: BSD-3-Clause
// The property editor: every field of the selected body (joint, initial state, limits, drive,
// inertial data, shapes, applied wrench) or of the model (name, description, gravity, default
// simulation settings), each in an editor whose objectName is the field's YAML path below the
// body ("joint.origin.xyz", "inertial.mass", "shapes[1].radius", "simulation.step").
//
// Every change goes through the undo-command factories (ui/document/field_commands.hpp,
// edit_commands.hpp) and Document::push; the dock never writes the model. A refused value
// (the factory returns nullptr with a reason) is shown under its field, the field is restored
// to the model's value and editRefused is emitted.
//
// The dock follows the document: after each change it refreshes the values in place and rebuilds
// its widgets only when the page's shape changes (another body, joint type, rotation form, drive
// type, shapes). The shown body is tracked by its stable id, so edits that shift indices keep it;
// when it is deleted the model page is shown.
#pragma once

#include <QDockWidget>
#include <QHash>
#include <QPointer>
#include <QString>
#include <functional>
#include <vector>

#include "core/model/model.hpp"
#include "ui/editor/properties/property_widgets.hpp"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QScrollArea;
class QUndoCommand;
class QVBoxLayout;

namespace kt::ui {

class Document;
struct FieldLocation;

class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit PropertiesDock(Document* document, QWidget* parent = nullptr);
  /// Shows the fields of body `body` (an index into document->model().bodies), or the model-level
  /// fields (name, description, gravity, default simulation settings) for -1.
  void showBody(int body);
  /// The body shown (-1: the model-level page).
  int body() const;
  /// Bodies selected together with the shown one: an edit of a field of the shown body applies the
  /// same change to each of them (the field's new value; the rest of each body stays its own), as
  /// one undo step; refused for all when one of them cannot take it. The page says so at its top.
  void setAlsoEdited(const std::vector<int>& bodies);
  /// Shows the body of `location` and gives the keyboard focus to the editor of its field
  /// (location.field like "joint.origin.xyz", "inertial.mass", "shapes[1].radius"; model fields like "gravity",
  /// "simulation.step").
  void focusField(const FieldLocation& location);

 signals:
  /// An edit was refused; the reason is also shown next to the field.
  void editRefused(const QString& reason);

 private:
  using Values = std::vector<double>;
  using Factory = std::function<QUndoCommand*(QString* error)>;

  struct Binding {
    QPointer<QWidget> editor;
    QLabel* error = nullptr;
    std::function<void()> refresh;  // shows the model's value
  };

  // Following the document.
  void documentChanged();
  QString layoutKey() const;
  void rebuild();
  void refreshValues();
  void showProblems();
  void alignLabels();
  QWidget* findEditor(const QString& field) const;

  // Pages (properties_dock.cpp: the model page; property_joint_sections.cpp: body, joint, state, limits,
  // motion, drive; property_sections.cpp: inertial, shapes, applied wrench).
  void buildModelPage();
  void buildBodySection();
  void buildJointSection();
  void buildStateSection();
  void buildLimitsSection();
  void buildMotionSection();
  void buildDriveSection();
  void buildRatingSection();
  void buildInertialSection();
  void buildShapesSection();
  void buildWrenchSection();
  void addPlacementRows(QFormLayout* form, const QString& path, const std::function<kt::Placement()>& get,
                        const std::function<QUndoCommand*(const kt::Placement&, QString*)>& set);

  // Field helpers: each adds a labelled row (editor + error label) and binds it.
  QFormLayout* addSection(const QString& title);
  QLabel* addRow(QFormLayout* form, const QString& label, QWidget* field);
  void bind(QWidget* editor, QLabel* error, std::function<void()> refresh);
  NumberListEdit* numberEdit(const QString& path, int count, DisplayUnit unit, bool broadcast,
                             std::function<Values()> get, std::function<QUndoCommand*(const Values&, QString*)> set);
  NumberListEdit* addNumbers(QFormLayout* form, const QString& label, const QString& path, int count,
                             std::function<Values()> get, std::function<QUndoCommand*(const Values&, QString*)> set,
                             DisplayUnit unit = DisplayUnit::Same, bool broadcast = false);
  QComboBox* comboEdit(const QString& path, const QStringList& items, std::function<int()> current,
                       std::function<QUndoCommand*(int, QString*)> set);
  QCheckBox* checkEdit(const QString& path, const QString& text, std::function<bool()> get,
                       std::function<QUndoCommand*(bool, QString*)> set);
  QLineEdit* addText(QFormLayout* form, const QString& label, const QString& path, std::function<QString()> get,
                     std::function<QUndoCommand*(const QString&, QString*)> set);
  /// Commits an edit of `editor`: pushes the command, or shows the refusal and restores the field.
  bool commit(QWidget* editor, const Factory& factory);
  void showError(QWidget* editor, const QString& reason);

  int index() const;                 ///< index of the shown body, −1 on the model page
  const kt::BodySpec& spec() const;  ///< the shown body (only while index() >= 0)
  const kt::Model& model() const;

  Document* doc_;
  quint64 bodyId_ = 0;            // 0: the model page
  std::vector<quint64> alsoIds_;  // setAlsoEdited's bodies (Document::bodyId), the shown one not among them
  QLabel* alsoBanner_ = nullptr;
  QScrollArea* scroll_;
  QWidget* page_ = nullptr;
  QVBoxLayout* pageLayout_ = nullptr;
  QString key_;
  std::vector<Binding> bindings_;
  QHash<QString, bool> expanded_;  // section title → expanded
  bool rebuilding_ = false;
  int pendingScroll_ = -1;          // the scroll position a rebuild restores once its page is laid out
  double computeDensity_ = 1000.0;  // kg/m³ for "compute from shapes" when the body's density is not used
};

}  // namespace kt::ui
