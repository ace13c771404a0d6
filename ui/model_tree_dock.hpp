// The model-tree dock: bodies nested under their parents, each with its joint as the first
// child. Selecting an item announces the body or joint; selectBody() follows picks in the 3D view.
#pragma once

#include <QDockWidget>
#include <vector>

class QTreeWidget;
class QTreeWidgetItem;

namespace kt {
struct Tree;
}

namespace kt::ui {

class ModelTreeDock : public QDockWidget {
  Q_OBJECT

 public:
  enum ItemKind { BodyItem = 1, JointItem = 2 };
  static constexpr int kKindRole = Qt::UserRole + 1;
  static constexpr int kIndexRole = Qt::UserRole + 2;

  explicit ModelTreeDock(QWidget* parent = nullptr);

  void setTree(const kt::Tree& tree);
  QTreeWidget* treeWidget() const { return tree_; }

 public slots:
  /// Selects the item of a body (tree index; -1 clears the selection).
  void selectBody(int body);

 signals:
  /// -1 when nothing (or a joint) is selected.
  void bodySelected(int body);
  void jointSelected(int joint);

 private:
  void onSelectionChanged();

  QTreeWidget* tree_;
  std::vector<QTreeWidgetItem*> bodyItems_;
};

}  // namespace kt::ui
