// The properties dock: the fields of the selected body or joint, read-only (the editor issue
// makes them editable).
#pragma once

#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace kt {
struct Model;
struct Tree;
}  // namespace kt

namespace kt::ui {

class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit PropertiesDock(QWidget* parent = nullptr);

  /// A summary of the whole model (shown when nothing is selected).
  void showModel(const kt::Model& model, const kt::Tree& tree);
  /// Body `index` of the tree (-1 clears the dock).
  void showBody(const kt::Model& model, const kt::Tree& tree, int index);
  /// The joint between body `index` and its parent.
  void showJoint(const kt::Model& model, const kt::Tree& tree, int index);
  void clear();

  QTreeWidget* treeWidget() const { return fields_; }

 private:
  QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& field, const QString& value);

  QTreeWidget* fields_;
};

}  // namespace kt::ui
