// The main window: every embedded example opens with one actor per shape and a non-blank
// picture (saved as screenshot_<example>.png in the working directory); the model tree, the
// properties dock and picking in the 3D view stay in sync; load errors carry file:line:col;
// recent files and window state persist. Runs under xvfb-run.
#include <vtkActor.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "render/offscreen.hpp"
#include "render/scene_view.hpp"
#include "resources/resources.hpp"
#include "ui/main_window.hpp"
#include "ui/model_document.hpp"
#include "ui/model_tree_dock.hpp"
#include "ui/properties_dock.hpp"
#include "ui/recent_files.hpp"

using kt::ui::MainWindow;

namespace {

int shapeCount(const kt::Model& model) {
  int n = 0;
  for (const kt::BodySpec& b : model.bodies) n += static_cast<int>(b.shapes.size());
  return n;
}

int countItems(QTreeWidgetItem* item, int kind) {
  int n = item->data(0, kt::ui::ModelTreeDock::kKindRole).toInt() == kind ? 1 : 0;
  for (int i = 0; i < item->childCount(); ++i) n += countItems(item->child(i), kind);
  return n;
}

int countItems(QTreeWidget* tree, int kind) {
  int n = 0;
  for (int i = 0; i < tree->topLevelItemCount(); ++i) n += countItems(tree->topLevelItem(i), kind);
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
    const kt::Tree& tree = w->document().tree();

    // One actor per shape, each belonging to a body of the tree.
    const kt::render::ModelScene& scene = w->sceneView()->scene();
    QCOMPARE(scene.shapeActorCount(), shapeCount(model));
    QVERIFY(scene.shapeActorCount() > 0);
    for (const auto& s : scene.shapeActors()) {
      QVERIFY(s.body >= 0 && s.body < tree.nb);
      QVERIFY(w->sceneView()->renderer()->HasViewProp(s.actor));
    }
    // The tree dock lists every body and every joint.
    QCOMPARE(countItems(w->modelTreeDock()->treeWidget(), kt::ui::ModelTreeDock::BodyItem), tree.nb);
    QCOMPARE(countItems(w->modelTreeDock()->treeWidget(), kt::ui::ModelTreeDock::JointItem), tree.nb);
    QVERIFY(w->windowTitle().startsWith(w->document().displayName()));

    // The screenshot is kept as a test artifact and is not blank.
    QTest::qWait(50);
    const QImage shot = w->grab().toImage();
    const QString file = QDir::current().filePath("screenshot_" + QFileInfo(path).completeBaseName() + ".png");
    QVERIFY(shot.save(file));
    const double variance = kt::render::greyVariance(shot);
    QVERIFY2(variance > 100.0, qPrintable(QString::number(variance)));
    // The 3D view itself shows the model, not only the background.
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
    QTreeWidgetItem* current = w->modelTreeDock()->treeWidget()->currentItem();
    QVERIFY(current != nullptr);
    QCOMPARE(current->data(0, kt::ui::ModelTreeDock::kKindRole).toInt(), int(kt::ui::ModelTreeDock::BodyItem));
    QCOMPARE(current->data(0, kt::ui::ModelTreeDock::kIndexRole).toInt(), expected);
    QTreeWidget* properties = w->propertiesDock()->treeWidget();
    QVERIFY(properties->topLevelItemCount() > 0);
    QCOMPARE(properties->topLevelItem(0)->text(1), QString::fromStdString(w->document().tree().bodyNames[expected]));

    // Clicking empty space clears the selection everywhere; the dock shows the model summary.
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(3, 3));
    QCOMPARE(view->scene().selectedBody(), -1);
    QVERIFY(w->modelTreeDock()->treeWidget()->selectedItems().isEmpty());
    QCOMPARE(properties->topLevelItem(0)->text(0), QStringLiteral("Model"));
  }

  void selectingAJointShowsItsFields() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    const kt::Tree& tree = w->document().tree();
    const int last = tree.nb - 1;
    QTreeWidget* t = w->modelTreeDock()->treeWidget();
    QTreeWidgetItem* joint = nullptr;
    for (QTreeWidgetItemIterator it(t); *it; ++it) {
      if ((*it)->data(0, kt::ui::ModelTreeDock::kKindRole).toInt() == kt::ui::ModelTreeDock::JointItem &&
          (*it)->data(0, kt::ui::ModelTreeDock::kIndexRole).toInt() == last) {
        joint = *it;
      }
    }
    QVERIFY(joint != nullptr);
    t->setCurrentItem(joint);
    QTreeWidget* properties = w->propertiesDock()->treeWidget();
    QVERIFY(properties->topLevelItemCount() > 3);
    QCOMPARE(properties->topLevelItem(0)->text(0), QStringLiteral("Joint"));
    QCOMPARE(properties->topLevelItem(0)->text(1), QString::fromStdString(tree.jointNames[last]));
    QCOMPARE(w->sceneView()->scene().selectedBody(), last);
  }

  void loadErrorsKeepTheModelAndNameTheLine() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    const int bodies = w->document().tree().nb;

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: broken\nbodies:\n  - name: a\n    parent: world\n    joint: {type: revolute}\n"
        "    inertial: {mass: -1, com: [0, 0, 0], inertia: {ixx: 1, iyy: 1, izz: 1}}\n");
    file.close();
    QVERIFY(!w->loadModel(path, error));
    QVERIFY2(QRegularExpression(QStringLiteral("broken\\.yaml:\\d+:\\d+: error: ")).match(error).hasMatch(),
             qPrintable(error));
    QCOMPARE(w->document().tree().nb, bodies);
    QCOMPARE(w->sceneView()->scene().shapeActorCount(), shapeCount(w->document().model()));
    QVERIFY(!w->recentFiles()->files().contains(QFileInfo(path).absoluteFilePath()));
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

int main(int argc, char* argv[]) {
  // Settings of this run only.
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("KinetreeTests"));
  QApplication::setApplicationName(QStringLiteral("test_main_window"));
  TestMainWindow test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_main_window.moc"
