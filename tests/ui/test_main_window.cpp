// SPDX-License-Identifier: BSD-3-Clause
// The main window: every embedded example opens with one actor per shape and a non-blank
// picture (saved as screenshot_<example>.png in the working directory); the model tree, the
// properties dock and picking in the 3D view stay in sync; read errors carry file:line:col and
// keep the open model; a model with problems opens but cannot run; recent files and window state
// persist; Run after scrubbing shows the run live; the plots' pane chooser names what each pane
// shows and the signal filter goes with the model; Save As names an untitled model after its
// file; the Help menu's manual, shortcuts and examples; the exported results' message names the
// file. Runs under xvfb-run.
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkRenderer.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <cmath>
#include <functional>

#include "core/io/model_yaml.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "support/cli_runner.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/flat_chain_proxy.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/editor/properties/properties_dock.hpp"
#include "ui/editor/selection.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/files/import_mjcf.hpp"
#include "ui/files/import_urdf.hpp"
#include "ui/files/recent_files.hpp"
#include "ui/results/export/export_actions.hpp"
#include "ui/results/export/export_results_dialog.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/shell/help_dialogs.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/simulation/timeline_bar.hpp"

using kt::ui::MainWindow;
using kt::ui::SimulationController;

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

// The corners of the model's bounds that project outside the 3D view's viewport ("" when all
// are inside: the camera frames the model).
QString cornersOutsideView(kt::render::SceneView* view) {
  double b[6];
  if (!view->scene().modelBounds(b)) return QStringLiteral("no model bounds");
  QString outside;
  vtkRenderer* renderer = view->renderer();
  for (int corner = 0; corner < 8; ++corner) {
    renderer->SetWorldPoint(b[corner & 1], b[2 + ((corner >> 1) & 1)], b[4 + ((corner >> 2) & 1)], 1.0);
    renderer->WorldToView();
    const double* v = renderer->GetViewPoint();  // -1 to 1 across the viewport
    if (std::abs(v[0]) > 1.0 || std::abs(v[1]) > 1.0) outside += QStringLiteral("(%1 %2) ").arg(v[0]).arg(v[1]);
  }
  return outside;
}

// Runs the window's model as fast as possible until `done`.
bool runUntil(MainWindow& w, double duration, const std::function<bool()>& done) {
  SimulationController* sim = w.simulation();
  sim->setDuration(duration);
  sim->setUntilStopped(false);
  sim->setSpeed(0.0);
  sim->run();
  return QTest::qWaitFor(done, 60000);
}

// The undo of an import, the one step it made: the new document File ▸ New gives (not a robot
// without bodies, named as before), unmodified; redo brings back `name` with `bodies` bodies.
void checkUndoOfImport(MainWindow& w, const std::string& name, std::size_t bodies) {
  QCOMPARE(w.document().undoStack()->count(), 1);
  w.document().undoStack()->undo();
  kt::Model blank = w.document().model();
  blank.sourceDirectory.clear();
  QCOMPARE(blank, kt::Model{});
  QVERIFY(!w.document().isModified());
  w.document().undoStack()->redo();
  QCOMPARE(w.document().model().name, name);
  QCOMPARE(w.document().model().bodies.size(), bodies);
}

using kt::test::shownWindow;

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
    QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
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
    QVERIFY(w->windowTitle().startsWith(w->document().displayName()));
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
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
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
    const int body = w->selection().bodyOfTreeIndex(expected);
    QVERIFY(body >= 0);
    QCOMPARE(w->selection().selectedBody(), body);
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
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    const int last = static_cast<int>(w->document().model().bodies.size()) - 1;
    QSignalSpy spy(&w->selection(), &kt::ui::Selection::selectionChanged);
    QTreeView* t = w->modelTreeDock()->treeView();
    t->setCurrentIndex(w->modelTreeDock()->layout()->indexOfBody(last));
    QCOMPARE(w->selection().selectedBody(), last);
    QCOMPARE(w->propertiesDock()->body(), last);
    QCOMPARE(w->sceneView()->scene().selectedBody(), w->selection().treeIndexOf(last));
    QVERIFY(!spy.isEmpty());
    QCOMPARE(spy.last().at(1).toInt(), w->selection().treeIndexOf(last));
  }

  void loadErrorsKeepTheModelAndNameTheLine() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    const int bodies = w->tree().nb;

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: broken\nbodies:\n  - name: a\n    parent: world\n    joint: {type: revolute}\n"
        "    inertial: {mass: heavy, com: [0, 0, 0], inertia: {ixx: 1, iyy: 1, izz: 1}}\n");
    file.close();
    QVERIFY(!w->files().loadModel(path, error));
    QVERIFY2(QRegularExpression(QStringLiteral("broken\\.yaml:7:\\d+: error: ")).match(error).hasMatch(),
             qPrintable(error));
    QCOMPARE(w->tree().nb, bodies);
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), shapeCount(w->document().model()));
    QVERIFY(!w->files().recentFiles()->files().contains(QFileInfo(path).absoluteFilePath()));
  }

  // File ▸ Import URDF: a new, unsaved document whose bodies are one undo step; a file that cannot
  // be imported keeps the current model and names its line.
  void importsUrdfAsANewUnsavedModel() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    QVERIFY(!w->files().loadModel(QStringLiteral(KINETREE_TEST_DATA "/urdf/bad/syntax.urdf"), error));
    QVERIFY2(error.contains(QStringLiteral("syntax.urdf:10:")), qPrintable(error));
    QCOMPARE(w->document().model().name, std::string("space_robot"));

    QVERIFY2(w->files().loadModel(QStringLiteral(KINETREE_SOURCE_DIR "/examples/arm7.urdf"), error), qPrintable(error));
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
    QVERIFY2(notes->informativeText().contains(
                 QStringLiteral("All 7 joints are passive (no drive): the robot will fall under gravity.")),
             qPrintable(notes->informativeText()));
    QVERIFY(notes->informativeText().contains(QStringLiteral("Properties dock ▸ Drive")));
    notes->close();
    checkUndoOfImport(*w, "kt_arm7", 8);
  }

  // An MJCF file opened (or dropped, which takes the same path) is imported the same way: a new,
  // unsaved document in one undo step, every geom drawn (the ellipsoid as a written mesh), a box
  // listing what was left out; a refusal (three slides on one body) names the body and keeps the
  // current model.
  void importsMjcfAsANewUnsavedModel() {
    QStandardPaths::setTestModeEnabled(true);  // the written meshes go to the test's data folder
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    QTemporaryDir dir;
    const QString hips = dir.filePath(QStringLiteral("hips.xml"));
    QFile file(hips);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "<mujoco><worldbody><body name=\"thigh\"><joint type=\"slide\" axis=\"1 0 0\"/>"
        "<joint type=\"slide\" axis=\"0 1 0\"/><joint type=\"slide\" axis=\"0 0 1\"/>"
        "<geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>");
    file.close();
    QVERIFY(!w->files().loadModel(hips, error));
    QVERIFY2(error.contains(QStringLiteral("body 'thigh' has 3 joints")), qPrintable(error));
    QCOMPARE(w->document().model().name, std::string("space_robot"));

    QVERIFY2(w->files().loadModel(QStringLiteral(KINETREE_TEST_DATA "/mjcf/arm.xml"), error), qPrintable(error));
    const kt::Model& model = w->document().model();
    QCOMPARE(model.name, std::string("arm"));
    QCOMPARE(model.bodies.size(), std::size_t(5));
    QVERIFY(w->document().filePath().isEmpty());
    QVERIFY(w->document().isModified());
    QCOMPARE(w->tree().nv, 9);
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), shapeCount(model));
    const kt::BodySpec& tool = model.bodies[static_cast<std::size_t>(model.findBody("tool"))];
    QCOMPARE(tool.shapes.front().type, kt::ShapeType::Mesh);  // the ellipsoid, written as a mesh
    QVERIFY(QFileInfo::exists(QString::fromStdString(tool.shapes.front().mesh)));
    // each imported file has its own mesh folder: another robot's "arm.xml" does not overwrite these
    const QString folder = kt::ui::meshFolderName(QStringLiteral(KINETREE_TEST_DATA "/mjcf/arm.xml"));
    QVERIFY2(QString::fromStdString(tool.shapes.front().mesh).contains(folder + QLatin1Char('/')), qPrintable(folder));
    QVERIFY(folder.startsWith(QStringLiteral("arm-")));
    QVERIFY(folder != kt::ui::meshFolderName(dir.filePath(QStringLiteral("arm.xml"))));
    QVERIFY(QString::fromStdString(tool.shapes.front().mesh).startsWith(kt::ui::Document::generatedMeshRoot()));
    auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY2(notes->informativeText().contains(QStringLiteral("Kinetree does not simulate contacts")),
             qPrintable(notes->informativeText()));
    notes->close();
    // Save As starts beside the robot's own file, not in the home folder
    QCOMPARE(w->files().saveAsStartPath(), QStringLiteral(KINETREE_TEST_DATA "/mjcf/arm.yaml"));
    checkUndoOfImport(*w, "arm", 5);
  }

  // Saving an imported robot copies the meshes the import made in the data folder beside the
  // file: the saved model opens on another machine, or after the data folder is cleared.
  void savedImportCarriesItsMeshes() {
    QStandardPaths::setTestModeEnabled(true);
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(QStringLiteral(KINETREE_TEST_DATA "/mjcf/arm.xml"), error), qPrintable(error));
    if (auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"))) notes->close();
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("my arm.yaml"));
    QVERIFY2(w->document().saveAs(saved, &error), qPrintable(error));
    const auto toolMesh = [](const kt::Model& m) {
      return QString::fromStdString(m.bodies[static_cast<std::size_t>(m.findBody("tool"))].shapes.front().mesh);
    };
    QCOMPARE(toolMesh(w->document().model()),
             QStringLiteral("my arm_meshes/") + QFileInfo(toolMesh(w->document().model())).fileName());
    QVERIFY(!w->document().isModified());
    // the file names the copies, relative to it, and they are whole
    const kt::Model reread = kt::loadModelFromFile(QFile::encodeName(saved).toStdString());
    const QString copy = dir.filePath(toolMesh(reread));
    QVERIFY2(QFileInfo::exists(copy), qPrintable(copy));
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), shapeCount(w->document().model()));
    // the same files: a run made before the save stays the current model's
    kt::ui::SimulationController* sim = w->simulation();
    QVERIFY(runUntil(*w, 0.05, [sim] { return sim->runState() == kt::ui::SimulationController::RunState::Finished; }));
    QVERIFY2(w->document().saveAs(dir.filePath(QStringLiteral("third.yaml")), &error), qPrintable(error));
    QVERIFY(!sim->outdated());
    // saved into another folder: the mesh paths lead to the same files from there
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
    const QString deeper = dir.filePath(QStringLiteral("sub/deeper.yaml"));
    QVERIFY2(w->document().saveAs(deeper, &error), qPrintable(error));
    QCOMPARE(toolMesh(w->document().model()), QStringLiteral("../") + toolMesh(reread));
    const kt::Model fromSub = kt::loadModelFromFile(QFile::encodeName(deeper).toStdString());
    QVERIFY(QFileInfo::exists(QDir(dir.filePath(QStringLiteral("sub"))).filePath(toolMesh(fromSub))));
    QVERIFY(!sim->outdated());
    QVERIFY2(w->document().saveAs(dir.filePath(QStringLiteral("back.yaml")), &error), qPrintable(error));
    // a model whose meshes are already its own is saved as it is
    QVERIFY2(w->document().saveAs(dir.filePath(QStringLiteral("again.yaml")), &error), qPrintable(error));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("again_meshes"))));
    QCOMPARE(toolMesh(w->document().model()), toolMesh(reread));
  }

  // A robot with no geometry to draw (inertials only) shows a skeleton, and the camera is fitted
  // to it after the import: all of it projects inside the viewport.
  void importWithoutGeometryIsSeenWhole() {
    auto w = shownWindow();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("bare.urdf"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const char* inertial =
        "<inertial><origin xyz=\"0 0 2\"/><mass value=\"3\"/>"
        "<inertia ixx=\"1\" iyy=\"1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
    file.write(QStringLiteral("<robot name=\"bare\"><link name=\"base\">%1</link><link name=\"boom\">%1</link>"
                              "<link name=\"tip\">%1</link>"
                              "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"boom\"/>"
                              "<origin xyz=\"0 0 4\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" "
                              "effort=\"1\" velocity=\"1\"/></joint>"
                              "<joint name=\"j2\" type=\"revolute\"><parent link=\"boom\"/><child link=\"tip\"/>"
                              "<origin xyz=\"0 0 4\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" "
                              "effort=\"1\" velocity=\"1\"/></joint></robot>")
                   .arg(QLatin1String(inertial))
                   .toUtf8());
    file.close();
    QString error;
    QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
    QCOMPARE(w->tree().nb, 3);
    if (auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"))) notes->close();
    const kt::render::ModelScene& scene = w->sceneView()->scene();
    double b[6];
    QVERIFY(scene.modelBounds(b));
    QVERIFY2(b[5] - b[4] > 8.0, qPrintable(QString::number(b[5] - b[4])));  // joints at 4 and 8 m, tip's ball at 10
    const QString outside = cornersOutsideView(w->sceneView());
    QVERIFY2(outside.isEmpty(), qPrintable(outside));
    for (const kt::render::ShapeActor& a : scene.shapeActors()) QCOMPARE(a.shape, -1);  // all skeleton
    QCOMPARE(scene.shapeActorCount(), 5);                                               // two rods, three balls
  }

  // A robot with collision geometry only is drawn from it (the link with neither as a skeleton),
  // the import says so, and the camera frames it wherever it looked before.
  void importCollisionOnlyIsSeenWhole() {
    auto w = shownWindow();
    vtkCamera* camera = w->sceneView()->renderer()->GetActiveCamera();
    camera->SetFocalPoint(50.0, 50.0, 50.0);  // looking far away, from close by
    camera->SetPosition(51.0, 51.0, 51.0);
    QString error;
    QVERIFY2(w->files().loadModel(QStringLiteral(KINETREE_TEST_DATA "/urdf/collision_only.urdf"), error),
             qPrintable(error));
    QCOMPARE(w->tree().nb, 3);
    auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY2(notes->detailedText().contains(QStringLiteral("each drawn from its collision geometry: base, upper")),
             qPrintable(notes->detailedText()));
    notes->close();
    const kt::render::ModelScene& scene = w->sceneView()->scene();
    int collisions = 0, skeleton = 0;
    for (const kt::render::ShapeActor& a : scene.shapeActors()) ++(a.shape >= 0 ? collisions : skeleton);
    QCOMPARE(collisions, 2);  // base's box, upper's cylinder
    QCOMPARE(skeleton, 1);    // hand: its ball (no children, no rods)
    double b[6];
    QVERIFY(scene.modelBounds(b));
    QVERIFY2(b[4] < 1e-6 && b[5] > 0.5, qPrintable(QStringLiteral("%1 %2").arg(b[4]).arg(b[5])));  // box to hand
    const QString outside = cornersOutsideView(w->sceneView());
    QVERIFY2(outside.isEmpty(), qPrintable(outside));
    // framed, not merely inside: the model fills a good part of the view
    double low[3] = {b[0], b[2], b[4]}, high[3] = {b[1], b[3], b[5]};
    const QPoint a = project(w->sceneView(), low), c = project(w->sceneView(), high);
    QVERIFY2(std::abs(a.y() - c.y()) > w->sceneView()->height() / 4,
             qPrintable(QStringLiteral("%1 of %2 px").arg(std::abs(a.y() - c.y())).arg(w->sceneView()->height())));
  }

  // File ▸ Import URDF's dialog remembers the package folders, and every import then finds
  // package:// meshes in them (a URDF copied away from its package).
  // Implausible inertials of an imported robot: the import box points to the Problems dock, which
  // lists them by body.
  void importPointsToLikelyMistakes() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(QStringLiteral(KINETREE_TEST_DATA "/urdf/implausible.urdf"), error),
             qPrintable(error));
    auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY2(notes->informativeText().contains(QStringLiteral(
                 "2 likely mistakes in the robot's values (View ▸ Problems), such as a placeholder inertia")),
             qPrintable(notes->informativeText()));
    delete notes;
    QStringList problems;
    for (const kt::Diagnostic& d : w->document().problems()->warnings()) problems << QString::fromStdString(d.message);
    QCOMPARE(problems.size(), 2);
    const QString listed = problems.join(QLatin1Char('\n'));
    QVERIFY2(listed.contains(QStringLiteral("body 'hand' has a radius of gyration of 1.58 m")), qPrintable(listed));
    QVERIFY2(listed.contains(QStringLiteral("body 'finger' moves on its joint but has a mass of only 0.0001 kg")),
             qPrintable(listed));
  }

  void importUrdfDialogRemembersPackageFolders() {
    auto w = shownWindow();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString urdf = dir.filePath(QStringLiteral("humanoid.urdf"));
    QVERIFY(QFile::copy(QStringLiteral(KINETREE_TEST_DATA "/urdf/kt_humanoid/urdf/humanoid.urdf"), urdf));
    const auto meshShapes = [&] {
      int n = 0;
      for (const kt::BodySpec& b : w->document().model().bodies)
        for (const kt::Shape& s : b.shapes) n += s.type == kt::ShapeType::Mesh ? 1 : 0;
      return n;
    };
    QSettings().remove(QStringLiteral("urdfPackagePaths"));
    QString error;
    QVERIFY2(w->files().loadModel(urdf, error), qPrintable(error));
    QCOMPARE(meshShapes(), 0);  // outside its package: no mesh is found, and the import says so
    QVERIFY2(w->statusBar()->currentMessage().endsWith(QStringLiteral("(mesh files not found)")),
             qPrintable(w->statusBar()->currentMessage()));
    auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY2(notes->informativeText().contains(QStringLiteral(
                 "3 mesh files were not found (package://kt_humanoid/meshes/head.obj, "
                 "package://kt_humanoid/meshes/missing_glove.stl, package://kt_humanoid/meshes/foot.stl): the "
                 "links they draw are shown by their collision geometry or as a skeleton. Add the folder that "
                 "holds the robot's package under Package folders")),
             qPrintable(notes->informativeText()));
    delete notes;

    kt::ui::ImportUrdfDialog dialog(QString(), w.get());
    dialog.setPath(urdf);
    dialog.setPackagePaths({QStringLiteral(KINETREE_TEST_DATA "/urdf")});
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(kt::ui::ImportUrdfDialog::rememberedPackagePaths(),
             QStringList{QStringLiteral(KINETREE_TEST_DATA "/urdf")});
    kt::ui::ImportUrdfDialog again(QString(), w.get());
    QCOMPARE(again.packagePaths(), QStringList{QStringLiteral(KINETREE_TEST_DATA "/urdf")});
    QVERIFY2(w->files().loadModel(QDir::fromNativeSeparators(dialog.path()), error), qPrintable(error));
    QCOMPARE(meshShapes(), 3);  // the head and both feet from the package folder
    notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY2(notes->informativeText().contains(
                 QStringLiteral("1 mesh file was not found (package://kt_humanoid/meshes/missing_glove.stl)")),
             qPrintable(notes->informativeText()));  // not in the package either
    delete notes;
    QSettings().remove(QStringLiteral("urdfPackagePaths"));
  }

  // A kinematic description is refused with the dialog's way out named; with a density from the
  // dialog it opens with the shapes' masses; a CAD inertia is repaired with a note, or refused
  // when the dialog asks for strictness. The choices apply to every import (drop, Open).
  void importUrdfDialogDensityAndStrictness() {
    auto w = shownWindow();
    QSettings().remove(QStringLiteral("urdfDensity"));
    QSettings().remove(QStringLiteral("urdfStrictInertias"));
    const QString kinematic = QStringLiteral(KINETREE_TEST_DATA "/urdf/repair/kinematic.urdf");
    const QString cad = QStringLiteral(KINETREE_TEST_DATA "/urdf/repair/cad_arm.urdf");
    QString error;
    QVERIFY(!w->files().loadModel(kinematic, error));
    QVERIFY2(error.contains(QStringLiteral("has no mass but moves")) &&
                 error.contains(QStringLiteral("File ▸ Import URDF… gives links without <inertial>")),
             qPrintable(error));
    kt::ui::ImportUrdfDialog dialog(kinematic, w.get());
    QCOMPARE(dialog.density(), 0.0);
    dialog.findChild<QCheckBox*>(QStringLiteral("urdfUseDensity"))->setChecked(true);
    dialog.findChild<QDoubleSpinBox*>(QStringLiteral("urdfDensity"))->setValue(2700.0);
    dialog.accept();
    QCOMPARE(kt::ui::ImportUrdfDialog::rememberedDensity(), 2700.0);
    QVERIFY2(w->files().loadModel(kinematic, error), qPrintable(error));
    QCOMPARE(w->document().model().bodies.size(), std::size_t{2});
    QVERIFY(std::abs(w->document().model().bodies[0].inertial.mass - 10.8) < 1e-12);
    delete w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));

    QVERIFY2(w->files().loadModel(cad, error), qPrintable(error));  // repaired
    auto* notes = w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QVERIFY(notes);
    QVERIFY2(notes->detailedText().contains(QStringLiteral("link 'upper': its inertia is not physical")),
             qPrintable(notes->detailedText()));
    QVERIFY2(notes->informativeText().contains(QStringLiteral(
                 "3 links' inertias were not physical and were repaired: replaced by the nearest physical one "
                 "(upper, fore); merged into the parent across a fixed joint (gripper_tip). Where such a link "
                 "moves, its dynamics are an approximation.")),
             qPrintable(notes->informativeText()));
    delete notes;
    kt::ui::ImportUrdfDialog strict(cad, w.get());
    QVERIFY(strict.findChild<QDoubleSpinBox*>(QStringLiteral("urdfDensity"))->isEnabled());  // remembered
    strict.findChild<QCheckBox*>(QStringLiteral("urdfStrict"))->setChecked(true);
    strict.accept();
    QVERIFY(!w->files().loadModel(cad, error));
    QVERIFY2(error.contains(QStringLiteral("violate the triangle inequality")), qPrintable(error));
    QSettings().remove(QStringLiteral("urdfDensity"));
    QSettings().remove(QStringLiteral("urdfStrictInertias"));

    // a floating base and merged fixed links, as kinetree-cli import --floating --merge-fixed
    const QString arm = QStringLiteral(KINETREE_SOURCE_DIR "/examples/arm7.urdf");
    QVERIFY2(w->files().loadModel(arm, error), qPrintable(error));
    delete w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QCOMPARE(w->document().model().bodies.front().joint.type, kt::JointType::Fixed);
    const std::size_t bodies = w->document().model().bodies.size();
    kt::ui::ImportUrdfDialog floating(arm, w.get());
    QVERIFY(!floating.floatingBase() && !floating.mergeFixed());
    floating.findChild<QCheckBox*>(QStringLiteral("urdfFloatingBase"))->setChecked(true);
    floating.findChild<QCheckBox*>(QStringLiteral("urdfMergeFixed"))->setChecked(true);
    floating.accept();
    QVERIFY(kt::ui::ImportUrdfDialog::rememberedFloatingBase() && kt::ui::ImportUrdfDialog::rememberedMergeFixed());
    QVERIFY2(w->files().loadModel(arm, error), qPrintable(error));
    delete w->findChild<QMessageBox*>(QStringLiteral("importNotesBox"));
    QCOMPARE(w->document().model().bodies.front().joint.type, kt::JointType::Free);
    const kt::test::CliRun cli = kt::test::runCli({"import", arm, "--floating", "--merge-fixed", "-o", "-"});
    QCOMPARE(cli.code, 0);
    QCOMPARE(QString::fromStdString(kt::saveModelToString(w->document().model())).count("- name: "),
             cli.out.count("- name: "));
    QVERIFY(w->document().model().bodies.size() <= bodies);
    QSettings().remove(QStringLiteral("urdfFloatingBase"));
    QSettings().remove(QStringLiteral("urdfMergeFixed"));
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
    QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
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

  // A Save As of the model the session runs: the session's file is the saved one, so that the
  // exports and the report name it (they named the example it was opened from, "with unsaved
  // changes", and its checksum).
  void saveAsNamesTheSessionsFile() {
    auto w = shownWindow();
    QString error;
    const QString example = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    QVERIFY2(w->files().loadModel(example, error), qPrintable(error));
    const int l11 = w->document().model().findBody("L11");
    QVERIFY2(kt::ui::edit::apply(w->document(), kt::ui::edit::setMass(w->document(), l11, 9.0, &error)),
             qPrintable(error));
    auto* sim = w->simulation();
    sim->step();  // a session of the edited model
    QTRY_VERIFY(sim->hasShownSample() && !sim->outdated());
    QCOMPARE(sim->sessionFile(), QFileInfo(example).absoluteFilePath());
    QVERIFY(sim->sessionUnsaved());
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("edited.yaml"));
    QVERIFY2(w->document().saveAs(saved, &error), qPrintable(error));
    QCOMPARE(sim->sessionFile(), saved);
    QVERIFY(!sim->sessionUnsaved());
  }

  // F5 after scrubbing: the views leave the scrubbed time for the run's newest sample, whether
  // the run goes on (Run from paused) or starts over (Run after the end), and a replay stops.
  void runAfterScrubbingShowsTheRunLive() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    SimulationController* sim = w->simulation();
    sim->setDuration(1000.0);
    sim->setSpeed(1.0);  // real time: paused long before the end
    sim->run();
    QTRY_VERIFY(sim->simulationTime() > 0.3);
    sim->pause();
    QTRY_VERIFY(!sim->isRunning());
    sim->setDuration(sim->simulationTime() + 1.0);
    w->timeline()->slider()->setValue(10);  // scrub back to t = 0.02 s
    QVERIFY(!sim->showsLive());
    const double paused = sim->simulationTime();
    sim->run();  // F5: goes on from the paused time
    QVERIFY(sim->showsLive());
    QTRY_VERIFY(sim->shownTime() > paused);
    QVERIFY(std::isnan(w->plotsDock()->cursorTime(0)));  // no time cursor: the plots show the live end
    sim->pause();
    QTRY_VERIFY(!sim->isRunning());

    // a replay is stopped by Run, not left to take the views back
    w->timeline()->replay(true);
    QVERIFY(w->timeline()->isReplaying());
    sim->step();  // Step shows the step it takes, and ends the replay as Run does
    QVERIFY(sim->showsLive());
    QVERIFY(!w->timeline()->isReplaying());
    w->timeline()->replay(true);
    QVERIFY(w->timeline()->isReplaying());
    sim->setSpeed(0.0);
    sim->run();
    QVERIFY(!w->timeline()->isReplaying());
    QTRY_VERIFY(sim->runState() == SimulationController::RunState::Finished);

    // after the end, Run starts a new run: it shows live too
    w->timeline()->slider()->setValue(5);
    QVERIFY(!sim->showsLive());
    sim->run();
    QVERIFY(sim->showsLive());
    QTRY_VERIFY(sim->simulationTime() > 0.1);
    QVERIFY(sim->showsLive());
    QVERIFY(w->timeline()->timeLabel()->text().contains(QStringLiteral("live")));
  }

  // The pane chooser names each pane as its title does: the energies of a model without a
  // floating base, not "Base attitude".
  void paneChooserNamesWhatEachPaneShows() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(QStringLiteral(":/examples/double_pendulum.yaml"), error), qPrintable(error));
    auto* box = w->plotsDock()->findChild<QComboBox*>(QStringLiteral("plotPaneBox"));
    QVERIFY(box);
    QVERIFY2(box->itemText(0).contains(QStringLiteral("Energy")), qPrintable(box->itemText(0)));
    QVERIFY(!box->itemText(0).contains(QStringLiteral("attitude")));
    for (int p = 0; p < kt::ui::PlotsDock::kPaneCount; ++p)
      QVERIFY2(box->itemText(p).contains(w->plotsDock()->paneTitle(p)), qPrintable(box->itemText(p)));
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    QVERIFY2(box->itemText(0).contains(QStringLiteral("Base attitude")), qPrintable(box->itemText(0)));
    w->selection().selectBody(3);  // the joint pane follows the selection, and its entry with it
    QVERIFY2(box->itemText(1).contains(w->plotsDock()->paneTitle(1)), qPrintable(box->itemText(1)));
  }

  // A filter that hides every signal says so; File ▸ New clears it.
  void signalFilterSaysWhatItHidesAndGoesWithTheModel() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    auto* filter = w->plotsDock()->findChild<QLineEdit*>(QStringLiteral("signalFilter"));
    auto* hint = w->plotsDock()->findChild<QLabel*>(QStringLiteral("signalFilterHint"));
    QVERIFY(filter && hint);
    QVERIFY(hint->isHidden());
    filter->setText(QStringLiteral("J11"));
    QVERIFY(hint->isHidden());  // it matches signals
    filter->setText(QStringLiteral("no_such_signal"));
    QVERIFY(!hint->isHidden());
    QCOMPARE(hint->text(), QStringLiteral("No signal matches 'no_such_signal'"));

    w->files().setUnsavedChangesAnswerForTesting([] { return QMessageBox::Discard; });
    QVERIFY(w->files().newModel());
    QVERIFY(filter->text().isEmpty());
    QVERIFY(hint->isHidden());
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    QVERIFY(filter->text().isEmpty());
    QVERIFY(hint->isHidden());
  }

  // A model built by hand is "untitled" until saved: Save As names it after its file, in the file,
  // the title and the run label, as one undo step; a model with a name keeps it.
  void saveAsNamesAnUntitledModelAfterItsFile() {
    auto w = shownWindow();
    w->files().setUnsavedChangesAnswerForTesting([] { return QMessageBox::Discard; });
    QVERIFY(w->files().newModel());
    QString error;
    QVERIFY2(kt::ui::edit::apply(w->document(), kt::ui::edit::addBody(w->document(), QStringLiteral("world"),
                                                                      kt::JointType::Revolute, {}, &error)),
             qPrintable(error));
    QCOMPARE(w->document().model().name, std::string("untitled"));
    SimulationController* sim = w->simulation();
    QVERIFY(runUntil(*w, 5.0, [&] { return sim->simulationTime() > 0.1; }));
    QVERIFY(w->timeline()->runText().contains(QStringLiteral("untitled")));
    const int steps = w->document().undoStack()->count();

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("my_arm.yaml"));
    QVERIFY2(w->files().saveAsTo(path, error), qPrintable(error));
    QCOMPARE(w->document().model().name, std::string("my_arm"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("name: my_arm"));
    QVERIFY(!w->isWindowModified());
    QVERIFY2(w->windowTitle().startsWith(QStringLiteral("my_arm")), qPrintable(w->windowTitle()));
    // the run is kept as it is under the new name: naming the model is no edit of what it simulates
    QVERIFY(!sim->outdated());
    QVERIFY(sim->simulationTime() > 0.1);
    QVERIFY2(w->timeline()->runText().contains(QStringLiteral("my_arm")), qPrintable(w->timeline()->runText()));
    // one undo step, and undoing it is a change to save
    QCOMPARE(w->document().undoStack()->count(), steps + 1);
    QCOMPARE(w->document().undoStack()->text(steps), QStringLiteral("Name the model after its file"));
    w->document().undoStack()->undo();
    QCOMPARE(w->document().model().name, std::string("untitled"));
    QVERIFY(w->document().isModified());
    w->document().undoStack()->redo();

    // a model with its own name keeps it
    const QString other = dir.filePath(QStringLiteral("copy.yaml"));
    QVERIFY2(w->files().saveAsTo(other, error), qPrintable(error));
    QCOMPARE(w->document().model().name, std::string("my_arm"));

    // a save that fails names nothing
    QVERIFY(w->files().newModel());
    QVERIFY(!w->files().saveAsTo(dir.filePath(QStringLiteral("no_folder/x.yaml")), error));
    QCOMPARE(w->document().model().name, std::string("untitled"));
    QCOMPARE(w->document().undoStack()->index(), 0);
    QVERIFY(!w->document().isModified());
  }

  // Help: the manual (read in the application, links between its documents followed there), the
  // keyboard shortcuts read from the actions, and the examples.
  void helpMenuHasTheManualShortcutsAndExamples() {
    auto w = shownWindow();
    const QString folder = kt::ui::manualFolder();
    QVERIFY2(!folder.isEmpty(), qPrintable(kt::ui::manualSearchFolders().join(QLatin1Char(' '))));
    // an installed package is looked in first, beside the binary (a relocated package too)
    const QDir prefix(QCoreApplication::applicationDirPath() + QStringLiteral("/.."));
    QVERIFY2(kt::ui::manualSearchFolders().front().startsWith(QDir::cleanPath(prefix.absolutePath()) + '/'),
             qPrintable(kt::ui::manualSearchFolders().front()));
    auto* manualAction = w->findChild<QAction*>(QStringLiteral("manualAction"));
    QVERIFY(manualAction);
    QCOMPARE(manualAction->shortcut(), QKeySequence(QKeySequence::HelpContents));
    manualAction->trigger();
    auto* manual = w->findChild<kt::ui::ManualDialog*>(QStringLiteral("manualDialog"));
    QVERIFY(manual && manual->isVisible());
    QCOMPARE(manual->currentDocument(), QStringLiteral("application.md"));
    const QString text = manual->browser()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Reset Layout")), qPrintable(text.left(300)));
    QVERIFY(!text.contains(QStringLiteral("**")));  // rendered, not shown as Markdown source
    QVERIFY(manual->documentList()->count() >= 5);
    manual->followLink(QUrl(QStringLiteral("model-format.md")));
    QCOMPARE(manual->currentDocument(), QStringLiteral("model-format.md"));
    QCOMPARE(manual->documentList()->currentItem()->data(Qt::UserRole).toString(), QStringLiteral("model-format.md"));
    manual->browser()->backward();
    QCOMPARE(manual->currentDocument(), QStringLiteral("application.md"));
    QTest::qWait(50);
    QVERIFY(manual->grab().save(QDir::current().filePath(QStringLiteral("screenshot_manual.png"))));
    manual->close();

    // the shortcuts: every action with one, Undo among them
    auto* shortcutsAction = w->findChild<QAction*>(QStringLiteral("shortcutsAction"));
    QVERIFY(shortcutsAction);
    shortcutsAction->trigger();
    auto* dialog = w->findChild<kt::ui::ShortcutsDialog*>(QStringLiteral("shortcutsDialog"));
    QVERIFY(dialog);
    QTableWidget* table = dialog->table();
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r) rows << table->item(r, 0)->text() + " = " + table->item(r, 1)->text();
    const QString undoKeys = QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText);
    QVERIFY2(rows.contains(QStringLiteral("Edit ▸ Undo = ") + undoKeys), qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY2(rows.contains(QStringLiteral("Simulation ▸ Run = F5")), qPrintable(rows.join(QLatin1Char('\n'))));
    QVERIFY2(rows.contains(QStringLiteral("View ▸ Standard Views ▸ Isometric = Ctrl+5")),
             qPrintable(rows.join(QLatin1Char('\n'))));
    int withShortcut = 0;
    for (QAction* a : w->findChildren<QAction*>()) withShortcut += a->shortcut().isEmpty() ? 0 : 1;
    QCOMPARE(table->rowCount(), withShortcut);
    QTest::qWait(50);
    QVERIFY(dialog->grab().save(QDir::current().filePath(QStringLiteral("screenshot_shortcuts.png"))));
    dialog->close();

    // the examples, as in the File menu
    QMenu* help = nullptr;
    for (QAction* a : w->menuBar()->actions())
      if (a->text() == QStringLiteral("&Help")) help = a->menu();
    QVERIFY(help);
    QMenu* examples = nullptr;
    for (QAction* a : help->actions())
      if (a->menu() && a->menu()->objectName() == QStringLiteral("examplesMenu")) examples = a->menu();
    QVERIFY(examples);
    QCOMPARE(examples->actions().size(), kt::resources::exampleModels().size());
  }

  // "Results exported" says where to.
  void exportedResultsMessageNamesTheFile() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    SimulationController* sim = w->simulation();
    QVERIFY(runUntil(*w, 0.1, [&] { return sim->runState() == SimulationController::RunState::Finished; }));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("results.csv"));
    bool exported = false;
    QTimer::singleShot(200, w.get(), [&] {
      auto* dialog = qobject_cast<kt::ui::ExportResultsDialog*>(QApplication::activeModalWidget());
      if (dialog == nullptr) return;
      exported = dialog->exportTo(path);
      dialog->done(QDialog::Accepted);
    });
    w->exports().showExportResults();
    QVERIFY(exported);
    QVERIFY2(w->statusBar()->currentMessage().contains(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())),
             qPrintable(w->statusBar()->currentMessage()));
  }

  // Ctrl+E with the focus in the Model dock's search field (where it is at start-up) opens
  // Export Results: on X11 the line edit would take it as "end of line" and nothing happened.
  // The field keeps its editing keys: Ctrl+A still selects its text.
  void windowShortcutsWorkFromASearchField() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    SimulationController* sim = w->simulation();
    QVERIFY(runUntil(*w, 0.1, [&] { return sim->runState() == SimulationController::RunState::Finished; }));
    auto* find = w->findChild<QLineEdit*>(QStringLiteral("findBody"));
    if (!find)
      for (QLineEdit* e : w->findChildren<QLineEdit*>())
        if (e->placeholderText().startsWith(QStringLiteral("Find body"))) find = e;
    QVERIFY(find);
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w.get()));
    find->setFocus(Qt::OtherFocusReason);
    QVERIFY(QTest::qWaitFor([&] { return find->hasFocus(); }));
    find->setText(QStringLiteral("L1"));
    bool opened = false;
    QTimer::singleShot(200, w.get(), [&] {
      if (auto* dialog = qobject_cast<kt::ui::ExportResultsDialog*>(QApplication::activeModalWidget())) {
        opened = true;
        dialog->done(QDialog::Rejected);
      }
    });
    QTest::keyClick(find, Qt::Key_E, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(opened, 5000);
    find->setFocus(Qt::OtherFocusReason);
    QTest::keyClick(find, Qt::Key_A, Qt::ControlModifier);
    QCOMPARE(find->selectedText(), QStringLiteral("L1"));
    // Save As has a key on every platform
    auto* saveAs = w->findChild<QAction*>(QStringLiteral("saveAsAction"));
    QVERIFY(saveAs && !saveAs->shortcuts().isEmpty());
  }

  void recentFilesAndWindowStatePersist() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pendulum copy.yaml"));
    QVERIFY(QFile::copy(kt::resources::exampleModels().front(), path));
    {
      auto w = shownWindow();
      w->files().recentFiles()->clear();
      QString error;
      QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
      QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));  // not remembered
      QCOMPARE(w->files().recentFiles()->files(), QStringList{QFileInfo(path).absoluteFilePath()});
      w->resize(900, 700);
      QVERIFY(w->close());
    }
    QSettings settings;
    QCOMPARE(settings.value(QStringLiteral("recentFiles")).toStringList(),
             QStringList{QFileInfo(path).absoluteFilePath()});
    QVERIFY(!settings.value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
    auto again = shownWindow(QSize());  // restores the saved geometry
    QCOMPARE(again->size(), QSize(900, 700));
    QCOMPARE(again->files().recentFiles()->files().size(), 1);
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestMainWindow>(argc, argv, "test_main_window"); }
#include "test_main_window.moc"
