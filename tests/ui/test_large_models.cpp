// SPDX-License-Identifier: BSD-3-Clause
// Large models in the main window: a large file opens behind a progress dialog while the event
// loop keeps running, its scene is batched, and a deep chain shows expanded only down to
// ModelTreeDock::kMaxExpandedDepth levels (QTreeView lays out expanded levels recursively; a
// 50,000-body chain shown fully expanded overflowed the stack).
#include <QApplication>
#include <QFileInfo>
#include <QProgressDialog>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "render/scene_view.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/main_window.hpp"
#include "ui/model_tree_dock.hpp"

using kt::ui::MainWindow;
using kt::ui::ModelTreeDock;

namespace {

std::unique_ptr<MainWindow> shownWindow() {
  auto w = std::make_unique<MainWindow>();
  w->resize(1280, 800);
  w->show();
  if (!QTest::qWaitForWindowExposed(w.get())) qFatal("main window not exposed");
  return w;
}

QString writeChain(const QTemporaryDir& dir, int n) {
  const QString path = dir.filePath(QStringLiteral("chain%1.yaml").arg(n));
  kt::saveModelToFile(kt::makeChain(n), path.toStdString());
  return path;
}

}  // namespace

class TestLargeModels : public QObject {
  Q_OBJECT

 private slots:
  void aLargeModelOpensBehindAProgressDialog() {
    QTemporaryDir dir;
    const int n = 5000;
    const QString path = writeChain(dir, n);
    QVERIFY2(QFileInfo(path).size() > 1'000'000, qPrintable(QString::number(QFileInfo(path).size())));
    auto w = shownWindow();

    // A timer due at once fires only if the event loop runs while the model opens; it sees the
    // dialog then.
    bool fired = false;
    int shownMaximum = -1;
    QTimer::singleShot(0, w.get(), [&] {
      fired = true;
      auto* dialog = w->findChild<QProgressDialog*>(QStringLiteral("progressDialog"));
      if (dialog != nullptr && dialog->isVisible()) shownMaximum = dialog->maximum();
    });
    QString error;
    QVERIFY2(w->loadModel(path, error), qPrintable(error));
    QVERIFY(fired);
    QVERIFY(shownMaximum == 0 || shownMaximum == n);  // busy while reading, then counting bodies

    // Done: no dialog left, the whole chain in a batched scene.
    QApplication::processEvents();
    auto* dialog = w->findChild<QProgressDialog*>(QStringLiteral("progressDialog"));
    QVERIFY(dialog == nullptr || !dialog->isVisible());
    const kt::render::ModelScene& scene = w->sceneView()->scene();
    QCOMPARE(scene.bodyCount(), n);
    QVERIFY(scene.batched());
    QVERIFY(w->isRunnable());
  }

  void aDeepChainShowsExpandedToALimit() {
    QTemporaryDir dir;
    const int n = ModelTreeDock::kMaxExpandedDepth + 50;
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(writeChain(dir, n), error), qPrintable(error));
    QTreeView* view = w->modelTreeDock()->treeView();
    const kt::ui::BodyTreeModel* tree = w->document().bodyTree();
    // Body k of the chain is at level k.
    QVERIFY(view->isExpanded(tree->indexOfBody(0)));
    QVERIFY(view->isExpanded(tree->indexOfBody(ModelTreeDock::kMaxExpandedDepth - 1)));
    QVERIFY(!view->isExpanded(tree->indexOfBody(ModelTreeDock::kMaxExpandedDepth)));
    QVERIFY(!view->isExpanded(tree->indexOfBody(n - 2)));

    // A body below the limit is still selectable, everywhere; its ancestors stay as they were.
    w->modelTreeDock()->selectBody(n - 1);
    QCOMPARE(w->modelTreeDock()->selectedBody(), n - 1);
    QVERIFY(!view->isExpanded(tree->indexOfBody(n - 2)));
    // One above it expands its ancestors.
    w->modelTreeDock()->selectBody(ModelTreeDock::kMaxExpandedDepth - 10);
    QCOMPARE(w->modelTreeDock()->selectedBody(), ModelTreeDock::kMaxExpandedDepth - 10);
    QVERIFY(view->isExpanded(tree->indexOfBody(ModelTreeDock::kMaxExpandedDepth - 11)));
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestLargeModels>(argc, argv, "test_large_models"); }

#include "test_large_models.moc"
