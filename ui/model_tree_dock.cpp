#include "ui/model_tree_dock.hpp"

#include <QHeaderView>
#include <QTreeWidget>

#include "core/model/tree.hpp"

namespace kt::ui {

ModelTreeDock::ModelTreeDock(QWidget* parent) : QDockWidget(tr("Model"), parent), tree_(new QTreeWidget(this)) {
  setObjectName(QStringLiteral("modelTreeDock"));
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Name"), tr("Type")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(false);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setUniformRowHeights(true);
  tree_->setIndentation(14);
  setWidget(tree_);
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &ModelTreeDock::onSelectionChanged);
}

void ModelTreeDock::setTree(const kt::Tree& tree) {
  const QSignalBlocker blocker(tree_);
  tree_->clear();
  bodyItems_.assign(tree.nb, nullptr);
  // parent[i] < i: every parent item exists before its children.
  for (int i = 0; i < tree.nb; ++i) {
    auto* body = new QTreeWidgetItem({QString::fromStdString(tree.bodyNames[i]), tr("body")});
    body->setData(0, kKindRole, BodyItem);
    body->setData(0, kIndexRole, i);
    const int p = tree.parent[i];
    if (p < 0) {
      tree_->addTopLevelItem(body);
    } else {
      bodyItems_[p]->addChild(body);
    }
    bodyItems_[i] = body;

    const auto type = QString::fromUtf8(kt::jointTypeName(tree.joints[i].type).data(),
                                        static_cast<int>(kt::jointTypeName(tree.joints[i].type).size()));
    auto* joint = new QTreeWidgetItem({tr("joint %1").arg(QString::fromStdString(tree.jointNames[i])), type});
    joint->setData(0, kKindRole, JointItem);
    joint->setData(0, kIndexRole, i);
    joint->setForeground(0, tree_->palette().brush(QPalette::Disabled, QPalette::Text));
    body->addChild(joint);
  }
  tree_->expandAll();
  emit bodySelected(-1);
}

void ModelTreeDock::selectBody(int body) {
  if (body < 0 || body >= static_cast<int>(bodyItems_.size())) {
    tree_->clearSelection();
    return;
  }
  tree_->setCurrentItem(bodyItems_[body]);
  tree_->scrollToItem(bodyItems_[body]);
}

void ModelTreeDock::onSelectionChanged() {
  const QList<QTreeWidgetItem*> selected = tree_->selectedItems();
  if (selected.isEmpty()) {
    emit bodySelected(-1);
    return;
  }
  const QTreeWidgetItem* item = selected.front();
  const int index = item->data(0, kIndexRole).toInt();
  if (item->data(0, kKindRole).toInt() == BodyItem) {
    emit bodySelected(index);
  } else {
    emit jointSelected(index);
  }
}

}  // namespace kt::ui
