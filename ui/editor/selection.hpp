// SPDX-License-Identifier: BSD-3-Clause
// The selected body, one thing wherever it was chosen: a body picked in the 3D view, clicked in
// the Model dock or reached through a problem is shown in all three, and in the Properties dock
// (the plots and the load arrows follow selectionChanged(), in tree indices).
//
// Body numbers are indices into Document::model().bodies; the finalized tree (setTree) numbers
// bodies parent-first, and treeIndexOf() / bodyOfTreeIndex() map between the two by name. The
// selection is kept by the body's Document::bodyId, so it follows its body through edits that
// move its index, and goes with the body.
#pragma once

#include <QHash>
#include <QObject>
#include <string>
#include <vector>

namespace kt {
struct Tree;
}
namespace kt::render {
class SceneView;
}

namespace kt::ui {

class Document;
class ModelTreeDock;
class PropertiesDock;

class Selection : public QObject {
  Q_OBJECT

 public:
  Selection(Document* doc, ModelTreeDock* tree, PropertiesDock* properties, render::SceneView* view,
            QObject* parent = nullptr);

  /// The selected body (index into the document's bodies), or −1.
  int selectedBody() const;
  /// Selects a body everywhere (−1: none).
  void selectBody(int body);
  /// Keeps the selected body after an edit (its index may have moved), or clears it if it went.
  void followEdit();
  /// Forgets the selection without announcing it (the document was replaced).
  void forget() { selectedId_ = 0; }
  /// The finalized model the tree indices refer to (an empty tree while the model has problems).
  void setTree(const kt::Tree& tree);
  /// Tree index of a document body (−1 if it is not in the tree), and back.
  int treeIndexOf(int body) const;
  int bodyOfTreeIndex(int treeIndex) const;

 signals:
  /// The selection changed: document body and tree index (−1 for none).
  void selectionChanged(int body, int treeIndex);
  /// The set of bodies selected in the Model dock changed (the Edit menu's paste acts on all).
  void selectionSetChanged();

 private:
  void onTreeSelection(int body);
  /// The 3D view highlights every selected body.
  void showInView();

  Document* doc_;
  ModelTreeDock* treeDock_;
  PropertiesDock* properties_;
  render::SceneView* view_;
  QHash<QString, int> treeIndexByName_;
  std::vector<std::string> treeBodyNames_;
  quint64 selectedId_ = 0;  // Document::bodyId of the selection, 0 for none
  bool fromTree_ = false;   // selectBody() called for a selection the tree made
};

}  // namespace kt::ui
