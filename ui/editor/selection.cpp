// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/selection.hpp"

#include "core/model/tree.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/document/document.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/editor/properties/properties_dock.hpp"

namespace kt::ui {

Selection::Selection(Document* doc, ModelTreeDock* tree, PropertiesDock* properties, render::SceneView* view,
                     QObject* parent)
    : QObject(parent), doc_(doc), treeDock_(tree), properties_(properties), view_(view) {
  connect(treeDock_, &ModelTreeDock::bodySelected, this, &Selection::onTreeSelection);
  connect(treeDock_, &ModelTreeDock::selectionSetChanged, this, [this] {
    properties_->setAlsoEdited(treeDock_->selectedBodies());
    showInView();
    emit selectionSetChanged();
  });
  connect(view_, &render::SceneView::bodyPicked, this,
          [this](int treeIndex) { selectBody(bodyOfTreeIndex(treeIndex)); });
  connect(view_, &render::SceneView::bodyToggled, this,
          [this](int treeIndex) { treeDock_->toggleBody(bodyOfTreeIndex(treeIndex)); });
}

int Selection::selectedBody() const { return selectedId_ != 0 ? doc_->indexOfId(selectedId_) : -1; }

void Selection::selectBody(int body) {
  if (body < 0 || body >= static_cast<int>(doc_->model().bodies.size())) body = -1;
  selectedId_ = body >= 0 ? doc_->bodyId(body) : 0;
  const int treeIndex = treeIndexOf(body);
  if (!fromTree_) treeDock_->selectBody(body);  // a selection made in the tree stays as it is (several bodies)
  showInView();
  // The dock follows edits of the body it shows by itself; re-showing it would rebuild its page.
  if (properties_->body() != body) properties_->showBody(body);
  properties_->setAlsoEdited(treeDock_->selectedBodies());
  emit selectionChanged(body, treeIndex);
}

void Selection::followEdit() { selectBody(selectedId_ != 0 ? doc_->indexOfId(selectedId_) : -1); }

void Selection::setTree(const kt::Tree& tree) {
  treeBodyNames_ = tree.bodyNames;
  treeIndexByName_.clear();
  for (int i = 0; i < tree.nb; ++i) treeIndexByName_.insert(QString::fromStdString(tree.bodyNames[i]), i);
}

int Selection::treeIndexOf(int body) const {
  if (body < 0 || body >= static_cast<int>(doc_->model().bodies.size())) return -1;
  return treeIndexByName_.value(QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(body)].name), -1);
}

int Selection::bodyOfTreeIndex(int treeIndex) const {
  if (treeIndex < 0 || treeIndex >= static_cast<int>(treeBodyNames_.size())) return -1;
  return doc_->model().findBody(treeBodyNames_[static_cast<std::size_t>(treeIndex)]);
}

void Selection::onTreeSelection(int body) {
  if (body == selectedBody()) return;
  fromTree_ = true;
  selectBody(body);
  fromTree_ = false;
}

void Selection::showInView() {
  const int current = selectedBody();
  std::vector<int> others;
  for (int b : treeDock_->selectedBodies())
    if (b != current) others.push_back(treeIndexOf(b));
  view_->selectBodies(treeIndexOf(current), others);
}

}  // namespace kt::ui
