// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/model_tree_dock.hpp"

#include <QAction>
#include <QCompleter>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStringListModel>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/editor/flat_chain_proxy.hpp"
#include "ui/shared/number_text.hpp"

namespace kt::ui {

namespace {

// Level of an item in the view: 0 for a top-level row.
int depthOf(QModelIndex index) {
  int depth = 0;
  for (index = index.parent(); index.isValid(); index = index.parent()) ++depth;
  return depth;
}

// Ancestors shown at each end of a long path; the ones between are elided.
constexpr int kPathHead = 2;
constexpr int kPathTail = 3;

}  // namespace

ModelTreeDock::ModelTreeDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Model"), parent),
      doc_(document),
      layout_(new FlatChainProxy(document->bodyTree(), this)),
      find_(new QLineEdit),
      path_(new QLabel),
      view_(new QTreeView) {
  setObjectName(QStringLiteral("modelTreeDock"));
  view_->setObjectName(QStringLiteral("modelTreeView"));
  view_->setModel(layout_);
  // the body's name in full, the joint's name in what is left (imported joints carry long names,
  // such as MJCF's hinges joined into one, which squeezed the body names out of a narrow dock)
  view_->header()->setSectionResizeMode(BodyTreeModel::NameColumn, QHeaderView::ResizeToContents);
  view_->header()->setSectionResizeMode(BodyTreeModel::JointTypeColumn, QHeaderView::ResizeToContents);
  view_->header()->setSectionResizeMode(BodyTreeModel::JointNameColumn, QHeaderView::Stretch);
  view_->header()->setSectionResizeMode(FlatChainProxy::LevelColumn, QHeaderView::Fixed);
  view_->header()->setStretchLastSection(false);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);  // several bodies: edited together
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
  // the find box and the path line take two rows: the tree may shrink to a few so that the dock
  // asks no more height of the window than before them
  view_->setMinimumHeight(view_->fontMetrics().height());

  find_->setObjectName(QStringLiteral("modelTreeFind"));
  find_->setPlaceholderText(tr("Find body… (Ctrl+Shift+F)"));
  find_->setClearButtonEnabled(true);
  find_->setToolTip(tr("Type part of a body's name and press Enter to select it"));
  auto* completer = new QCompleter(new QStringListModel(this), this);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setFilterMode(Qt::MatchContains);
  completer->setMaxVisibleItems(12);
  find_->setCompleter(completer);
  auto* findAction = new QAction(tr("Find Body"), this);
  findAction->setObjectName(QStringLiteral("findBodyAction"));
  findAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));  // Ctrl+F follows the body
  findAction->setShortcutContext(Qt::WindowShortcut);
  connect(findAction, &QAction::triggered, this, [this] {
    find_->setFocus(Qt::ShortcutFocusReason);
    find_->selectAll();
  });
  addAction(findAction);

  path_->setObjectName(QStringLiteral("modelTreePath"));
  path_->setTextFormat(Qt::RichText);
  path_->setWordWrap(false);  // one line; a long path is elided in the middle (updatePath)
  path_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  path_->setContentsMargins(4, 0, 4, 2);
  path_->setToolTip(tr("Where the selected body hangs; click an ancestor to select it"));
  path_->installEventFilter(this);

  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(find_);
  layout->addWidget(path_);
  layout->addWidget(view_, 1);
  setWidget(content);

  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ModelTreeDock::onCurrentChanged);
  // A click on a selected name renames it only when it is the one selected body: with several
  // selected the click selects just that one (an edit started on release would keep them all).
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    const bool one = view_->selectionModel()->selectedRows().size() <= 1;
    view_->setEditTriggers(one ? QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked
                               : QAbstractItemView::EditKeyPressed);
  });
  // Any change of the tree lays it out anew: expanded again, down to kMaxExpandedDepth levels,
  // with the selection kept, or moved to the parent of a body that went away.
  connect(layout_, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
    const int body = selectedBody();
    keptSelection_ = {0, 0};
    keptOthers_.clear();
    if (body < 0) return;
    for (int other : selectedBodies())
      if (other != body) keptOthers_.push_back(doc_->bodyId(other));
    keptSelection_.first = doc_->bodyId(body);
    const int parent = doc_->bodyTree()->bodyOf(doc_->bodyTree()->indexOfBody(body).parent());
    keptSelection_.second = parent >= 0 ? doc_->bodyId(parent) : 0;
  });
  connect(layout_, &QAbstractItemModel::modelReset, this, [this] {
    fitLevelColumn();
    expandAllowed();
    completionsStale_ = true;
    if (keptSelection_.first != 0) {
      const int kept = doc_->indexOfId(keptSelection_.first);
      const int body = kept >= 0 || keptSelection_.second == 0 ? kept : doc_->indexOfId(keptSelection_.second);
      selectBody(body);
      // the others of a selection of several, those still there
      selecting_ = true;
      for (const quint64 id : keptOthers_) {
        const QModelIndex other = layout_->indexOfBody(doc_->indexOfId(id));
        if (other.isValid())
          view_->selectionModel()->select(other, QItemSelectionModel::Select | QItemSelectionModel::Rows);
      }
      selecting_ = false;
      if (kept < 0) emit bodySelected(body);
    }
    updatePath();
  });
  connect(layout_, &QAbstractItemModel::dataChanged, this, [this] {
    completionsStale_ = true;  // a rename
    updatePath();
  });
  connect(find_, &QLineEdit::textEdited, this, [this] {
    if (completionsStale_) updateCompletions();
  });
  connect(find_, &QLineEdit::returnPressed, this, &ModelTreeDock::findBody);
  connect(completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& name) {
    find_->setText(name);
    findBody();
  });
  connect(path_, &QLabel::linkActivated, this, [this](const QString& link) {
    bool ok = false;
    const int body = link.mid(5).toInt(&ok);  // "body:N"
    if (!ok) return;
    selectBody(body);
    emit bodySelected(selectedBody());
  });
  connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    if (contextActions_.isEmpty()) return;
    const QModelIndex index = view_->indexAt(at);
    selectBody(layout_->bodyOf(index));
    emit bodySelected(selectedBody());
    QMenu menu(this);
    menu.addActions(contextActions_);
    menu.exec(view_->viewport()->mapToGlobal(at));
  });
  fitLevelColumn();
  expandAllowed();
  updatePath();
}

void ModelTreeDock::fitLevelColumn() {
  // as wide as the largest level (the number of bodies bounds it) or the header, whichever is wider;
  // ResizeToContents would measure only the rows in view
  const QFontMetrics metrics(view_->font());
  const QString widest = QString::number(std::max<std::size_t>(doc_->model().bodies.size(), 1));
  const int header = view_->header()->fontMetrics().horizontalAdvance(
                         layout_->headerData(FlatChainProxy::LevelColumn, Qt::Horizontal).toString()) +
                     view_->header()->style()->pixelMetric(QStyle::PM_HeaderMargin) * 4;
  view_->header()->resizeSection(FlatChainProxy::LevelColumn, std::max(header, metrics.horizontalAdvance(widest) + 12));
}

void ModelTreeDock::expandAllowed() { view_->expandToDepth(kMaxExpandedDepth - 1); }

int ModelTreeDock::selectedBody() const {
  const QItemSelectionModel* selection = view_->selectionModel();
  const QModelIndex current = selection->currentIndex();
  if (current.isValid() && selection->isRowSelected(current.row(), current.parent())) return layout_->bodyOf(current);
  const QModelIndexList rows = selection->selectedRows();
  return rows.isEmpty() ? -1 : layout_->bodyOf(rows.front());
}

std::vector<int> ModelTreeDock::selectedBodies() const {
  std::vector<int> bodies;
  const int first = selectedBody();
  if (first < 0) return bodies;
  bodies.push_back(first);
  for (const QModelIndex& row : view_->selectionModel()->selectedRows()) {
    const int body = layout_->bodyOf(row);
    if (body >= 0 && body != first) bodies.push_back(body);
  }
  return bodies;
}

void ModelTreeDock::renameSelected() {
  const QModelIndexList rows = view_->selectionModel()->selectedRows();
  if (!rows.isEmpty()) view_->edit(rows.front());
}

void ModelTreeDock::selectBody(int body) {
  const QModelIndex index = layout_->indexOfBody(body);
  // already the current one of the selection: the others selected with it stay
  if (index.isValid() && body == selectedBody()) {
    updatePath();
    return;
  }
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
  updatePath();
}

void ModelTreeDock::toggleBody(int body) {
  const QModelIndex index = layout_->indexOfBody(body);
  if (!index.isValid()) return;
  QItemSelectionModel* selection = view_->selectionModel();
  if (selection->isRowSelected(index.row(), index.parent())) {
    // (when it was the current one, the first selected body left becomes it: selectedBody())
    selection->select(index, QItemSelectionModel::Deselect | QItemSelectionModel::Rows);
    return;
  }
  const bool shown = depthOf(index) <= kMaxExpandedDepth;  // as in selectBody()
  if (shown)
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) view_->expand(p);
  selection->setCurrentIndex(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
  if (shown) view_->scrollTo(index);
}

void ModelTreeDock::onCurrentChanged() {
  updatePath();
  if (selecting_) return;
  emit bodySelected(selectedBody());
  emit selectionSetChanged();
}

void ModelTreeDock::updateCompletions() {
  QStringList names;
  names.reserve(static_cast<qsizetype>(doc_->model().bodies.size()));
  for (const kt::BodySpec& b : doc_->model().bodies) names << QString::fromStdString(b.name);
  static_cast<QStringListModel*>(find_->completer()->model())->setStringList(names);
  completionsStale_ = false;
}

void ModelTreeDock::findBody() {
  const QString text = find_->text().trimmed();
  if (text.isEmpty()) return;
  const kt::Model& m = doc_->model();
  int found = m.findBody(text.toStdString());
  for (int k = 0; found < 0 && k < static_cast<int>(m.bodies.size()); ++k) {
    if (QString::fromStdString(m.bodies[static_cast<std::size_t>(k)].name).contains(text, Qt::CaseInsensitive))
      found = k;
  }
  if (found < 0) {
    find_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    find_->setToolTip(tr("No body's name contains \"%1\"").arg(text));
    return;
  }
  find_->setStyleSheet({});
  find_->setToolTip(tr("Type part of a body's name and press Enter to select it"));
  selectBody(found);
  emit bodySelected(found);
  view_->setFocus(Qt::OtherFocusReason);
}

void ModelTreeDock::updatePath() {
  const int body = selectedBody();
  if (body < 0) {
    path_->setText(tr("<i>No body selected</i>"));
    return;
  }
  // ancestors through the tree model's parents (constant time each, also on a 10,000-link chain)
  const BodyTreeModel* tree = doc_->bodyTree();
  std::vector<int> chain;  // the body, its parent, …, a root
  for (QModelIndex i = tree->indexOfBody(body); i.isValid(); i = i.parent()) chain.push_back(tree->bodyOf(i));
  const auto nameOf = [this](int k) {
    return QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(k)].name);
  };
  const int ancestors = static_cast<int>(chain.size()) - 1;  // chain[ancestors] is the root
  const QString level = tr("level %1").arg(groupedNumber(ancestors + 1));
  // `head` ancestors from the root and `tail` next to the body, the rest counted ("… 9,994
  // more …", never "1 more"); as html with links, or as the plain text it shows
  const auto path = [&](int head, int tail, bool html, bool counted = true) {
    QStringList parts{tr("world")};
    for (int a = ancestors; a >= 1; --a) {
      const int fromRoot = ancestors - a;  // 0 for the root
      if (fromRoot == head && a - tail >= 2) {
        parts << (counted ? tr("… %1 more …").arg(groupedNumber(a - tail)) : QStringLiteral("…"));
        a = tail + 1;
        continue;
      }
      const int k = chain[static_cast<std::size_t>(a)];
      parts << (html ? QStringLiteral("<a href=\"body:%1\">%2</a>").arg(k).arg(nameOf(k).toHtmlEscaped()) : nameOf(k));
    }
    parts << (html ? QStringLiteral("<b>%1</b>").arg(nameOf(body).toHtmlEscaped()) : nameOf(body));
    const QString joined = parts.join(QStringLiteral(" › "));
    return html ? joined + QStringLiteral(" &nbsp;<span style=\"color:gray\">") + level + QStringLiteral("</span>")
                : joined + QStringLiteral("   ") + level;
  };
  // the longest form that fits the dock's width, down to world › … › the body (the level says
  // how deep it is)
  QFont bold = path_->font();
  bold.setBold(true);
  const QFontMetrics metrics(bold);  // bold throughout: a little room to spare
  const int room = path_->contentsRect().width();
  const std::pair<int, int> forms[] = {{kPathHead, kPathTail}, {1, 2}, {1, 1}, {0, 1}, {0, 0}};
  for (const auto& [head, tail] : forms) {
    if (metrics.horizontalAdvance(path(head, tail, false)) <= room) {
      path_->setText(path(head, tail, true));
      return;
    }
  }
  path_->setText(path(0, 0, true, false));
}

bool ModelTreeDock::eventFilter(QObject* watched, QEvent* event) {
  if (watched == path_ && event->type() == QEvent::Resize) updatePath();  // as much as fits the new width
  return QDockWidget::eventFilter(watched, event);
}

}  // namespace kt::ui
