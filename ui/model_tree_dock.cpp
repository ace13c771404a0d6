// SPDX-License-Identifier: BSD-3-Clause
#include "ui/model_tree_dock.hpp"

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QTreeView>

#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"

namespace kt::ui {

namespace {

// Level of an item: 0 for a root body.
int depthOf(QModelIndex index) {
  int depth = 0;
  for (index = index.parent(); index.isValid(); index = index.parent()) ++depth;
  return depth;
}

}  // namespace

ModelTreeDock::ModelTreeDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Model"), parent), doc_(document), view_(new QTreeView(this)) {
  setObjectName(QStringLiteral("modelTreeDock"));
  BodyTreeModel* model = doc_->bodyTree();
  view_->setObjectName(QStringLiteral("modelTreeView"));
  view_->setModel(model);
  view_->header()->setSectionResizeMode(BodyTreeModel::NameColumn, QHeaderView::Stretch);
  view_->header()->setSectionResizeMode(BodyTreeModel::JointTypeColumn, QHeaderView::ResizeToContents);
  view_->header()->setSectionResizeMode(BodyTreeModel::JointNameColumn, QHeaderView::ResizeToContents);
  view_->header()->setStretchLastSection(false);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setUniformRowHeights(true);
  view_->setIndentation(14);
  view_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
  // Re-parenting by drag and drop (the model refuses cycles and says why).
  view_->setDragEnabled(true);
  view_->setAcceptDrops(true);
  view_->setDropIndicatorShown(true);
  view_->setDragDropMode(QAbstractItemView::DragDrop);
  view_->setDefaultDropAction(Qt::MoveAction);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  setWidget(view_);

  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ModelTreeDock::onCurrentChanged);
  // New bodies and opened models show expanded (down to kMaxExpandedDepth levels).
  connect(model, &QAbstractItemModel::modelReset, this, &ModelTreeDock::expandAllowed);
  connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent, int first, int last) {
    const int depth = parent.isValid() ? depthOf(parent) + 1 : 0;  // of the new rows
    if (depth > kMaxExpandedDepth) return;
    view_->expand(parent);
    if (depth == kMaxExpandedDepth) return;
    // expandRecursively's depth: levels below the row (0: the row only).
    for (int r = first; r <= last; ++r) {
      view_->expandRecursively(doc_->bodyTree()->index(r, 0, parent), kMaxExpandedDepth - 1 - depth);
    }
  });
  connect(model, &QAbstractItemModel::rowsMoved, this,
          [this](const QModelIndex&, int, int, const QModelIndex& destination, int) { view_->expand(destination); });
  connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    if (contextActions_.isEmpty()) return;
    const QModelIndex index = view_->indexAt(at);
    selectBody(doc_->bodyTree()->bodyOf(index));
    emit bodySelected(selectedBody());
    QMenu menu(this);
    menu.addActions(contextActions_);
    menu.exec(view_->viewport()->mapToGlobal(at));
  });
  expandAllowed();
}

void ModelTreeDock::expandAllowed() { view_->expandToDepth(kMaxExpandedDepth - 1); }

int ModelTreeDock::selectedBody() const {
  const QModelIndexList rows = view_->selectionModel()->selectedRows();
  return rows.isEmpty() ? -1 : doc_->bodyTree()->bodyOf(rows.front());
}

void ModelTreeDock::renameSelected() {
  const QModelIndexList rows = view_->selectionModel()->selectedRows();
  if (!rows.isEmpty()) view_->edit(rows.front());
}

void ModelTreeDock::selectBody(int body) {
  const QModelIndex index = doc_->bodyTree()->indexOfBody(body);
  selecting_ = true;
  if (!index.isValid()) {
    view_->selectionModel()->clear();
  } else {
    // Deeper, the ancestors stay as they are: scrollTo(), also the view's automatic one on a new
    // current item, would expand them all.
    const bool shown = depthOf(index) <= kMaxExpandedDepth;
    if (shown) {
      for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) view_->expand(p);
    }
    const bool autoScroll = view_->hasAutoScroll();
    view_->setAutoScroll(autoScroll && shown);
    view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->setAutoScroll(autoScroll);
    if (shown) view_->scrollTo(index);
  }
  selecting_ = false;
}

void ModelTreeDock::onCurrentChanged() {
  if (selecting_) return;
  emit bodySelected(selectedBody());
}

}  // namespace kt::ui
