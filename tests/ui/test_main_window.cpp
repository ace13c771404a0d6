// SPDX-License-Identifier: BSD-3-Clause
// The main window: every embedded example opens with one actor per shape and a non-blank
// picture (saved as screenshot_<example>.png in the working directory); the model tree, the
// properties dock and picking in the 3D view stay in sync; read errors carry file:line:col and
// keep the open model; a model with problems opens but cannot run; recent files and window state
// persist. Runs under xvfb-run.
#include <vtkActor.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "render/offscreen.hpp"
#include "render/scene_view.hpp"
#include "resources/resources.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/flat_chain_proxy.hpp"
#include "ui/main_window.hpp"
#include "ui/model_tree_dock.hpp"
#include "ui/plots_dock.hpp"
#include "ui/properties_dock.hpp"
#include "ui/recent_files.hpp"
#include "ui/simulation_controller.hpp"

using kt::ui::MainWindow;

namespace {

int shapeCount(const kt::Model& model) {
  int n = 0;
  for (const kt::BodySpec& b : model.bodies) n += static_cast<int>(b.shapes.size());
  return n;
}

// Items under `parent` in an item model, recursively.
int countRows(const QAbstractItemModel* model, const QModelIndex& parent = {}) {
  int n = 0;
  for (int r = 0; r < model->rowCount(parent); ++r) n += 1 + countRows(model, model->index(r, 0, parent));
  return n;
}

// Widget position (logical pixels) of a world point in the 3D view.
QPoint project(kt::render::SceneView* view, const double p[3]) {
  vtkRenderer* r = view->renderer();
  r->SetWorldPoint(p[0], p[1], p[2], 1.0);
  r->WorldToDisplay();
  double d[3];
  r->GetDisplayPoint(d);
  const double dpr = view->devicePixelRatioF();
  const int h = view->renderWindow()->GetSize()[1];
  return QPoint(static_cast<int>(d[0] / dpr), static_cast<int>((h - 1 - d[1]) / dpr));
}

std::unique_ptr<MainWindow> shownWindow(bool defaultSize = true) {
  auto w = std::make_unique<MainWindow>();
  if (defaultSize) w->resize(1280, 800);
  w->show();
  if (!QTest::qWaitForWindowExposed(w.get())) qFatal("main window not exposed");
  return w;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void examplesAreEmbedded() {
    const QStringList examples = kt::resources::exampleModels();
    QVERIFY(examples.contains(kt::resources::kDefaultModel));
    // Every examples/*.yaml of the source tree is in the binary.
    const QStringList onDisk = QDir(QStringLiteral(KINETREE_SOURCE_DIR "/examples")).entryList({"*.yaml"}, QDir::Files);
    QCOMPARE(examples.size(), onDisk.size());
    for (const QString& name : onDisk) QVERIFY2(examples.contains(":/examples/" + name), qPrintable(name));
  }

  void opensEachExample_data() {
    QTest::addColumn<QString>("path");
    for (const QString& path : kt::resources::exampleModels())
      QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
  }
  void opensEachExample() {
    QFETCH(QString, path);
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(path, error), qPrintable(error));
    const kt::Model& model = w->document().model();
    const kt::Tree& tree = w->tree();
    QVERIFY(w->isRunnable());

    // One actor per shape, each belonging to a body of the tree.
    const kt::render::ModelScene& scene = w->sceneView()->scene();
    QCOMPARE(scene.shapeActorCount(), shapeCount(model));
    QVERIFY(scene.shapeActorCount() > 0);
    for (const auto& s : scene.shapeActors()) {
      QVERIFY(s.body >= 0 && s.body < tree.nb);
      QVERIFY(w->sceneView()->renderer()->HasViewProp(s.actor));
    }
    // The tree dock lists every body (each with its joint), the title names the model, unmodified.
    QCOMPARE(countRows(w->modelTreeDock()->treeView()->model()), tree.nb);
    QVERIFY(w->windowTitle().startsWith(w->displayName()));
    QVERIFY(!w->isWindowModified());

    // The screenshot is kept as a test artifact and is not blank.
    QTest::qWait(50);
    const QImage shot = w->grab().toImage();
    const QString file = QDir::current().filePath("screenshot_" + QFileInfo(path).completeBaseName() + ".png");
    QVERIFY(shot.save(file));
    const double variance = kt::render::greyVariance(shot);
    QVERIFY2(variance > 100.0, qPrintable(QString::number(variance)));
    // The 3D view itself shows the model, not only the background (the whole centre: plots hidden).
    w->plotsDock()->hide();
    QTest::qWait(50);
    const QImage view = w->sceneView()->renderToImage();
    for (const auto& s : scene.shapeActors()) s.actor->VisibilityOff();
    const QImage withoutModel = w->sceneView()->renderToImage();
    const double changed = kt::render::fractionOfDifferentPixels(view, withoutModel, 30);
    QVERIFY2(changed > 0.005, qPrintable(QString::number(changed)));
  }

  void pickingSelectsTheBodyEverywhere() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    kt::render::SceneView* view = w->sceneView();
    view->renderToImage();
    // Click the centre of the first shape's bounding box; whatever body is hit must be selected.
    double b[6];
    view->scene().shapeActors().front().actor->GetBounds(b);
    const double centre[3] = {0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])};
    const QPoint at = project(view, centre);
    const int expected = view->scene().bodyOfProp(view->pickProp(at));
    QVERIFY(expected >= 0);
    QTest::mouseClick(view, Qt::LeftButton, {}, at);

    QCOMPARE(view->scene().selectedBody(), expected);
    const int body = w->bodyOfTreeIndex(expected);
    QVERIFY(body >= 0);
    QCOMPARE(w->selectedBody(), body);
    QCOMPARE(w->modelTreeDock()->selectedBody(), body);
    QCOMPARE(w->propertiesDock()->body(), body);

    // Clicking empty space clears the selection everywhere; the dock shows the model's page.
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(3, 3));
    QCOMPARE(view->scene().selectedBody(), -1);
    QCOMPARE(w->modelTreeDock()->selectedBody(), -1);
    QCOMPARE(w->propertiesDock()->body(), -1);
  }

  void selectingInTheTreeSelectsEverywhere() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    const int last = static_cast<int>(w->document().model().bodies.size()) - 1;
    QSignalSpy spy(w.get(), &MainWindow::selectionChanged);
    QTreeView* t = w->modelTreeDock()->treeView();
    t->setCurrentIndex(w->modelTreeDock()->layout()->indexOfBody(last));
    QCOMPARE(w->selectedBody(), last);
    QCOMPARE(w->propertiesDock()->body(), last);
    QCOMPARE(w->sceneView()->scene().selectedBody(), w->treeIndexOf(last));
    QVERIFY(!spy.isEmpty());
    QCOMPARE(spy.last().at(1).toInt(), w->treeIndexOf(last));
  }

  void loadErrorsKeepTheModelAndNameTheLine() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    const int bodies = w->tree().nb;

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: broken\nbodies:\n  - name: a\n    parent: world\n    joint: {type: revolute}\n"
        "    inertial: {mass: heavy, com: [0, 0, 0], inertia: {ixx: 1, iyy: 1, izz: 1}}\n");
    file.close();
    QVERIFY(!w->loadModel(path, error));
    QVERIFY2(QRegularExpression(QStringLiteral("broken\\.yaml:7:\\d+: error: ")).match(error).hasMatch(),
             qPrintable(error));
    QCOMPARE(w->tree().nb, bodies);
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), shapeCount(w->document().model()));
    QVERIFY(!w->recentFiles()->files().contains(QFileInfo(path).absoluteFilePath()));
  }

  // File ▸ Import URDF: a new, unsaved document whose bodies are one undo step; a file that cannot
  // be imported keeps the current model and names its line.
  void importsUrdfAsANewUnsavedModel() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    QVERIFY(!w->loadModel(QStringLiteral(KINETREE_TEST_DATA "/urdf/bad/syntax.urdf"), error));
    QVERIFY2(error.contains(QStringLiteral("syntax.urdf:10:")), qPrintable(error));
    QCOMPARE(w->document().model().name, std::string("space_robot"));

    QVERIFY2(w->loadModel(QStringLiteral(KINETREE_SOURCE_DIR "/examples/arm7.urdf"), error), qPrintable(error));
    const kt::Model& model = w->document().model();
    QCOMPARE(model.name, std::string("kt_arm7"));
    QCOMPARE(model.bodies.size(), std::size_t(8));
    QVERIFY(w->document().filePath().isEmpty());
    QVERIFY(w->document().isModified());  // closing asks to save it
    QCOMPARE(w->tree().nv, 7);
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), shapeCount(model));
    auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY(notes->detailedText().contains(QStringLiteral("arm7.urdf:")));
    QVERIFY(notes->detailedText().contains(QStringLiteral("<transmission> is not used")));
    notes->close();
    w->document().undoStack()->undo();
    QVERIFY(w->document().model().bodies.empty());
  }

  void aModelWithProblemsOpensButCannotRun() {
    auto w = shownWindow();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("negative.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: negative\nbodies:\n  - name: a\n    parent: world\n    joint: {type: revolute}\n"
        "    inertial: {mass: -1, com: [0, 0, 0], inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
        "    shapes: [{type: box, size: [0.1, 0.1, 0.4]}]\n");
    file.close();
    QString error;
    QVERIFY2(w->loadModel(path, error), qPrintable(error));
    QVERIFY(!w->isRunnable());
    kt::ui::ProblemsModel* problems = w->document().problems();
    QCOMPARE(problems->rowCount(), 1);
    QCOMPARE(problems->data(problems->index(0, kt::ui::ProblemsModel::PathColumn), kt::ui::ProblemsModel::PathRole)
                 .toString(),
             QStringLiteral("bodies[0].inertial.mass"));
    auto* sim = w->simulation();
    QVERIFY(sim);
    QVERIFY(!sim->hasSimulator());
    sim->run();
    QVERIFY(!sim->isRunning());
    QVERIFY2(sim->errorMessage().contains(QStringLiteral("cannot run")), qPrintable(sim->errorMessage()));
    QCOMPARE(w->modelTreeDock()->treeView()->model()->rowCount(), 1);  // still editable

    // Fixing the problem through an edit makes it runnable: scene, simulator and all.
    QVERIFY2(kt::ui::edit::apply(w->document(), kt::ui::edit::setMass(w->document(), 0, 2.0, &error)),
             qPrintable(error));
    QVERIFY(problems->isEmpty());
    QVERIFY(w->isRunnable());
    QCOMPARE(w->tree().nb, 1);
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), 1);
    QVERIFY(sim->hasSimulator());
    QVERIFY(w->isWindowModified());
  }

  void recentFilesAndWindowStatePersist() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pendulum copy.yaml"));
    QVERIFY(QFile::copy(kt::resources::exampleModels().front(), path));
    {
      auto w = shownWindow();
      w->recentFiles()->clear();
      QString error;
      QVERIFY2(w->loadModel(path, error), qPrintable(error));
      QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));  // not remembered
      QCOMPARE(w->recentFiles()->files(), QStringList{QFileInfo(path).absoluteFilePath()});
      w->resize(900, 700);
      QVERIFY(w->close());
    }
    QSettings settings;
    QCOMPARE(settings.value(QStringLiteral("recentFiles")).toStringList(),
             QStringList{QFileInfo(path).absoluteFilePath()});
    QVERIFY(!settings.value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
    auto again = shownWindow(false);  // restores the saved geometry
    QCOMPARE(again->size(), QSize(900, 700));
    QCOMPARE(again->recentFiles()->files().size(), 1);
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestMainWindow>(argc, argv, "test_main_window"); }

#include "test_main_window.moc"
