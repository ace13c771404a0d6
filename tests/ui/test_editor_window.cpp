// SPDX-License-Identifier: BSD-3-Clause
// The editor in the main window: File ▸ New / Save / Save As with the modified mark, the
// unsaved-changes question on open and close, opening a dropped file, the recovery offer after a
// crash, the Edit menu's tree edits with undo, a problem click selecting the body and its field,
// and an edit while the simulation runs stopping and resetting it. Runs under xvfb-run.
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <QUrl>
#include <QWheelEvent>
#include <optional>

#include "core/io/model_yaml.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "support/files.hpp"
#include "support/scene_fixture.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/document/recovery.hpp"
#include "ui/editor/flat_chain_proxy.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/editor/properties/properties_dock.hpp"
#include "ui/editor/properties/property_widgets.hpp"
#include "ui/editor/selection.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/export/export_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

using kt::ui::Document;
using kt::ui::MainWindow;
namespace edit = kt::ui::edit;

namespace {

// Notches of the wheel over the middle of `w`, delivered as QApplication delivers the window
// system's (spontaneous) wheel events: to the widget under the cursor, then up its parents while
// ignored. A QWheelEvent sent by a test is not spontaneous, and Qt hands those to no parent.
void wheelOver(QWidget* w, int notches) {
  const QPointF at(w->width() / 2.0, w->height() / 2.0);
  const QPointF global = w->mapToGlobal(at);
  for (QWidget* r = w; r; r = r->parentWidget()) {
    QWheelEvent e(r->mapFromGlobal(global), global, QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(r, &e);
    if (e.isAccepted() || r->isWindow()) break;
  }
}

using kt::test::shownWindow;

using kt::test::readAll;

std::string yamlOf(const Document& doc) { return kt::saveModelToString(doc.model()); }

QAction* findAction(QWidget* w, const QString& text) {
  for (QAction* a : w->findChildren<QAction*>()) {
    if (a->text() == text || a->objectName() == text) return a;
  }
  return nullptr;
}

QString pendulum() { return QStringLiteral(":/examples/pendulum.yaml"); }

}  // namespace

class TestEditorWindow : public QObject {
  Q_OBJECT

 private slots:
  void newAddUndoSave() {
    auto w = shownWindow();
    QTemporaryDir dir;
    QVERIFY(w->files().newModel());
    Document& doc = w->document();
    QVERIFY(doc.model().bodies.empty());
    QVERIFY(!w->isRunnable());

    QAction* addFree = findAction(w.get(), QStringLiteral("addBody_free"));
    QAction* addRevolute = findAction(w.get(), QStringLiteral("addBody_revolute"));
    QVERIFY(addFree && addRevolute);
    addFree->trigger();
    QCOMPARE(doc.model().bodies.size(), std::size_t{1});
    QCOMPARE(w->selection().selectedBody(), 0);
    QVERIFY(w->isRunnable());
    QVERIFY(w->isWindowModified());
    addRevolute->trigger();  // under the selected body
    QCOMPARE(doc.model().bodies.size(), std::size_t{2});
    QCOMPARE(doc.model().bodies[1].parent, doc.model().bodies[0].name);
    QCOMPARE(w->selection().selectedBody(), 1);
    QCOMPARE(w->tree().nb, 2);
    QCOMPARE(w->sceneView()->scene().bodyCount(), 2);

    doc.undoStack()->undo();
    QCOMPARE(doc.model().bodies.size(), std::size_t{1});
    // The selected body went away: the tree moves the selection to its parent, everywhere.
    QCOMPARE(w->selection().selectedBody(), 0);
    QCOMPARE(w->propertiesDock()->body(), 0);
    QCOMPARE(w->sceneView()->scene().selectedBody(), w->selection().treeIndexOf(0));
    doc.undoStack()->redo();
    QCOMPARE(doc.model().bodies.size(), std::size_t{2});

    const QString path = dir.filePath(QStringLiteral("built.yaml"));
    QString error;
    QVERIFY2(w->files().saveTo(path, error), qPrintable(error));
    QCOMPARE(readAll(path).toStdString(), yamlOf(doc));
    QVERIFY(!w->isWindowModified());
    QVERIFY2(w->windowTitle().startsWith(QStringLiteral("built.yaml[*]")), qPrintable(w->windowTitle()));
    doc.undoStack()->undo();  // undo after save: modified again
    QVERIFY(w->isWindowModified());
    doc.undoStack()->redo();
    QVERIFY(!w->isWindowModified());
  }

  void unsavedChangesAreAskedAbout() {
    auto w = shownWindow();
    QTemporaryDir dir;
    Document& doc = w->document();
    const QString path = dir.filePath(QStringLiteral("pendulum.yaml"));
    QVERIFY(QFile::copy(pendulum(), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    QString error;
    QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
    QVERIFY(edit::apply(doc, edit::setMass(doc, 0, 7.5, &error)));
    const std::string edited = yamlOf(doc);

    int asked = 0;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    w->files().setUnsavedChangesAnswerForTesting([&] {
      ++asked;
      return answer;
    });
    // Cancel keeps everything: open, new and close all stop.
    QVERIFY(!w->files().openModel(kt::resources::kDefaultModel));
    QVERIFY(!w->files().newModel());
    QVERIFY(!w->close());
    QVERIFY(w->isVisible());
    QCOMPARE(asked, 3);
    QCOMPARE(yamlOf(doc), edited);

    // Save writes the file, then opens the other model.
    answer = QMessageBox::Save;
    QVERIFY(w->files().openModel(kt::resources::kDefaultModel));
    QCOMPARE(readAll(path).toStdString(), edited);
    QCOMPARE(asked, 4);

    // Discard drops the changes; nothing unsaved: no question.
    QVERIFY(edit::apply(doc, edit::setGravity(doc, kt::Vec3(0, 0, -1.62), &error)));
    answer = QMessageBox::Discard;
    QVERIFY(w->files().newModel());
    QCOMPARE(asked, 5);
    QVERIFY(w->files().openModel(path));
    QCOMPARE(asked, 5);
    QCOMPARE(yamlOf(doc), edited);
  }

  void droppedModelFilesOpen() {
    auto w = shownWindow();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dropped.yaml"));
    QVERIFY(QFile::copy(pendulum(), path));
    const QString other = dir.filePath(QStringLiteral("notes.txt"));
    QVERIFY(QFile::copy(pendulum(), other));

    auto drop = [&](const QString& file) {
      QMimeData mime;
      mime.setUrls({QUrl::fromLocalFile(file)});
      const QPoint at(w->width() / 2, w->height() / 2);
      QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(w.get(), &enter);
      if (!enter.isAccepted()) return false;
      QDropEvent dropEvent(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(w.get(), &dropEvent);
      return dropEvent.isAccepted();
    };
    QVERIFY(!drop(other));  // not a model file
    QVERIFY(drop(path));
    QTRY_COMPARE(w->document().filePath(), path);
    QVERIFY(w->isRunnable());
  }

  void recoveryIsOfferedAfterACrash() {
    QTemporaryDir dir;
    const QString recoveryDir = dir.filePath(QStringLiteral("recovery"));
    std::string edited;
    QString recoveryFile;
    {
      // A document of a session that crashed: its autosaved copy stays behind.
      auto* doc = new Document;
      doc->autosaver()->setDirectory(recoveryDir);
      QVERIFY(doc->open(pendulum()));
      QVERIFY(edit::apply(*doc, edit::setMass(*doc, 0, 3.25)));
      QVERIFY(doc->autosaver()->autosaveNow());
      recoveryFile = doc->autosaver()->recoveryFile();
      edited = yamlOf(*doc);
      QVERIFY(QFile::copy(recoveryFile, recoveryFile + ".crash"));
      delete doc;
      // The session's document is gone without its normal close: nobody holds the file's lock
      // (the pid it records, this process's, is alive and does not matter).
      QVERIFY(QFile::rename(recoveryFile + ".crash", recoveryFile));
    }

    auto w = shownWindow();
    w->document().autosaver()->setDirectory(recoveryDir);
    QString seen;
    QTimer::singleShot(200, this, [&seen] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      seen = box->text();
      for (QAbstractButton* b : box->buttons()) {
        if (b->text().remove(QLatin1Char('&')) == QStringLiteral("Recover")) b->click();
      }
    });
    w->files().offerRecovery();
    QVERIFY2(seen.contains(QStringLiteral("did not close normally")), qPrintable(seen));
    QCOMPARE(yamlOf(w->document()), edited);
    QVERIFY(w->isWindowModified());
    QVERIFY(w->isRunnable());
    QVERIFY(!QFile::exists(recoveryFile));
  }

  void editMenuEditsTheTree() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    Document& doc = w->document();
    const std::string before = yamlOf(doc);
    const int bodies = static_cast<int>(doc.model().bodies.size());
    // The first arm's root: the first child of the base.
    const int base = 0;
    const int arm = kt::childrenOf(doc.model(), doc.model().bodies[base].name).front();
    const int armSize = static_cast<int>(kt::subtreeOf(doc.model(), arm).size());
    w->selection().selectBody(arm);

    findAction(w.get(), QStringLiteral("&Duplicate Subtree"))->trigger();
    QCOMPARE(static_cast<int>(doc.model().bodies.size()), bodies + armSize);
    const int copy = w->selection().selectedBody();
    QCOMPARE(copy, bodies);
    QVERIFY(QString::fromStdString(doc.model().bodies[static_cast<std::size_t>(copy)].name).endsWith("_copy"));
    QCOMPARE(w->tree().nb, bodies + armSize);

    findAction(w.get(), QStringLiteral("Delete &Subtree"))->trigger();
    QCOMPARE(static_cast<int>(doc.model().bodies.size()), bodies);
    QCOMPARE(yamlOf(doc), before);
    w->selection().selectBody(arm);
    const std::string armName = doc.model().bodies[static_cast<std::size_t>(arm)].name;
    findAction(w.get(), QStringLiteral("De&lete Body"))->trigger();  // its children move up
    QCOMPARE(static_cast<int>(doc.model().bodies.size()), bodies - 1);
    QCOMPARE(doc.model().findBody(armName), -1);
    QCOMPARE(w->modelTreeDock()->selectedBody(), w->selection().selectedBody());  // one selection, wherever it went
    QCOMPARE(w->propertiesDock()->body(), w->selection().selectedBody());

    while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
    QCOMPARE(yamlOf(doc), before);
    QVERIFY(!w->isWindowModified());
  }

  // Several bodies selected in the tree: a field changed in the Properties dock changes on each,
  // as one undo step that undoes to the same bytes; Copy Body Settings and Paste put one part of a
  // body's settings on every selected body, also as one step.
  void severalBodiesEditedTogether() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    Document& doc = w->document();
    const std::string before = yamlOf(doc);
    const kt::Model start = doc.model();
    const int l12 = start.findBody("L12"), l13 = start.findBody("L13"), l14 = start.findBody("L14"),
              l21 = start.findBody("L21");
    w->selection().selectBody(l12);
    QTreeView* tree = w->modelTreeDock()->treeView();
    const auto* layout = w->modelTreeDock()->layout();
    // the Properties dock stays where it was scrolled to as the selection grows
    auto* scroll = w->propertiesDock()->findChild<QScrollArea*>();
    QVERIFY(scroll);
    QApplication::processEvents();
    const int scrolled = std::min(150, scroll->verticalScrollBar()->maximum());
    QVERIFY(scrolled > 0);
    scroll->verticalScrollBar()->setValue(scrolled);
    for (int b : {l13, l14})  // Ctrl+click: added to the selection, L12 stays the one shown
      tree->selectionModel()->select(layout->indexOfBody(b), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QApplication::processEvents();
    QCOMPARE(scroll->verticalScrollBar()->value(), scrolled);
    // also when the current body changes with it (a Shift+click: two rebuilds in a row)
    tree->selectionModel()->setCurrentIndex(layout->indexOfBody(l21),
                                            QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(w->selection().selectedBody(), l21);
    QApplication::processEvents();
    QCOMPARE(scroll->verticalScrollBar()->value(), scrolled);
    w->selection().selectBody(l12);  // L12 alone again, then L13 and L14 with it
    for (int b : {l13, l14})
      tree->selectionModel()->select(layout->indexOfBody(b), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(w->selection().selectedBody(), l12);
    QCOMPARE(w->modelTreeDock()->selectedBodies().size(), std::size_t{3});
    auto* banner = w->propertiesDock()->findChild<QLabel*>(QStringLiteral("multiEditBanner"));
    QVERIFY(banner);
    QVERIFY2(banner->text().contains(QStringLiteral("3 bodies")), qPrintable(banner->text()));

    const int steps = doc.undoStack()->count();
    auto* mass = w->propertiesDock()->findChild<QLineEdit*>(QStringLiteral("inertial.mass"));
    QVERIFY(mass);
    mass->setText(QStringLiteral("7.5"));
    emit mass->editingFinished();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    for (int b : {l12, l13, l14}) {
      const kt::BodySpec& s = doc.model().bodies[static_cast<std::size_t>(b)];
      QCOMPARE(s.inertial.mass, 7.5);
      // the rest of each body its own
      QCOMPARE(s.inertial.com, start.bodies[static_cast<std::size_t>(b)].inertial.com);
      QCOMPARE(s.joint.drive, start.bodies[static_cast<std::size_t>(b)].joint.drive);
    }
    doc.undoStack()->undo();
    QCOMPARE(yamlOf(doc), before);

    // copy L11's settings, paste its drive onto L21 and L22
    const int l11 = start.findBody("L11"), l22 = start.findBody("L22");
    w->selection().selectBody(l11);
    findAction(w.get(), QStringLiteral("copyBodySettings"))->trigger();
    w->selection().selectBody(l21);
    tree->selectionModel()->select(layout->indexOfBody(l22), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    const int pasteSteps = doc.undoStack()->index();
    findAction(w.get(), QStringLiteral("pasteDrive"))->trigger();
    QCOMPARE(doc.undoStack()->index(), pasteSteps + 1);
    for (int b : {l21, l22}) {
      QCOMPARE(doc.model().bodies[static_cast<std::size_t>(b)].joint.drive,
               start.bodies[static_cast<std::size_t>(l11)].joint.drive);
      QCOMPARE(doc.model().bodies[static_cast<std::size_t>(b)].inertial,
               start.bodies[static_cast<std::size_t>(b)].inertial);
    }
    findAction(w.get(), QStringLiteral("pasteShapes"))->trigger();
    QCOMPARE(doc.model().bodies[static_cast<std::size_t>(l22)].shapes,
             start.bodies[static_cast<std::size_t>(l11)].shapes);
    while (doc.undoStack()->index() > pasteSteps) doc.undoStack()->undo();
    QCOMPARE(yamlOf(doc), before);
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    w->selection().selectBody(l12);
    for (int b : {l13, l14})
      tree->selectionModel()->select(layout->indexOfBody(b), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/multi-select.png")));
  }

  // Ctrl+click in the 3D view adds a body to the selection (and takes it out again); the view
  // highlights every selected body, the Properties dock edits them together.
  void severalBodiesSelectedInThe3DView() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    kt::render::SceneView* view = w->sceneView();
    view->renderToImage();
    const kt::render::ModelScene& scene = view->scene();
    // where each body shows in the view: the centre of one of its shapes that a click there picks
    const auto spotOf = [&](int treeIndex) { return kt::test::bodySpot(*view, treeIndex); };
    const kt::Model& m = w->document().model();
    std::vector<int> picked;  // bodies that show in the view
    for (const char* name : {"base", "L12", "L22", "L13", "L23"})
      if (spotOf(w->selection().treeIndexOf(m.findBody(name)))) picked.push_back(m.findBody(name));
    QVERIFY2(picked.size() >= 3, "three bodies show in the default view");
    const int a = picked[0], b = picked[1], c = picked[2];
    QTest::mouseClick(view, Qt::LeftButton, {}, *spotOf(w->selection().treeIndexOf(a)));
    QCOMPARE(w->selection().selectedBody(), a);
    for (int other : {b, c})
      QTest::mouseClick(view, Qt::LeftButton, Qt::ControlModifier, *spotOf(w->selection().treeIndexOf(other)));
    QCOMPARE(w->selection().selectedBody(), c);  // the last one clicked is the one shown
    std::vector<int> selected = w->modelTreeDock()->selectedBodies();
    std::sort(selected.begin(), selected.end());
    std::vector<int> want{a, b, c};
    std::sort(want.begin(), want.end());
    QCOMPARE(selected, want);
    std::vector<int> lit;
    for (int body : want) lit.push_back(w->selection().treeIndexOf(body));
    std::sort(lit.begin(), lit.end());
    QCOMPARE(scene.highlightedBodies(), lit);
    QVERIFY(w->propertiesDock()->findChild<QLabel*>(QStringLiteral("multiEditBanner")));
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/multi-select-3d.png")));
    // Ctrl+click on a selected body takes it out; a plain click selects just one
    QTest::mouseClick(view, Qt::LeftButton, Qt::ControlModifier, *spotOf(w->selection().treeIndexOf(b)));
    QCOMPARE(w->modelTreeDock()->selectedBodies().size(), std::size_t{2});
    QCOMPARE(scene.highlightedBodies().size(), std::size_t{2});
    QTest::mouseClick(view, Qt::LeftButton, {}, *spotOf(w->selection().treeIndexOf(b)));
    QCOMPARE(w->modelTreeDock()->selectedBodies(), std::vector<int>{b});
    QCOMPARE(scene.highlightedBodies(), std::vector<int>{w->selection().treeIndexOf(b)});
  }

  void problemClickSelectsTheField() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    kt::Model bad = w->document().model();
    bad.bodies[2].inertial.mass = -4.0;
    w->document().setModel(bad);
    QVERIFY(!w->isRunnable());
    QCOMPARE(w->tree().nb, 0);  // nothing valid to show yet
    QAbstractItemView* view = w->problemsDock()->view();
    QCOMPARE(view->model()->rowCount(), 1);
    const QModelIndex row = view->model()->index(0, 1);
    view->scrollTo(row);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(row).center());
    QCOMPARE(w->selection().selectedBody(), 2);
    QCOMPARE(w->propertiesDock()->body(), 2);
    QWidget* focus = w->propertiesDock()->focusWidget();
    QVERIFY(focus != nullptr);
    QCOMPARE(focus->objectName(), QStringLiteral("inertial.mass"));
  }

  // A refused edit's reason in the status bar goes once an edit lands, as the field's note does.
  void refusalMessageGoesWithTheNextEdit() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    w->selection().selectBody(w->document().model().findBody("L12"));
    QApplication::processEvents();
    const auto typeMass = [&](const char* text) {
      auto* mass = w->propertiesDock()->findChild<QLineEdit*>(QStringLiteral("inertial.mass"));
      QVERIFY(mass);
      mass->setText(QString::fromLatin1(text));
      mass->setModified(true);
      emit mass->editingFinished();
    };
    typeMass("-2");
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("must be > 0")),
             qPrintable(w->statusBar()->currentMessage()));
    typeMass("9");
    QCOMPARE(
        w->document().model().bodies[static_cast<std::size_t>(w->document().model().findBody("L12"))].inertial.mass,
        9.0);
    QVERIFY2(!w->statusBar()->currentMessage().contains(QStringLiteral("must be > 0")),
             qPrintable(w->statusBar()->currentMessage()));
  }

  // An edit stops a run and keeps its recording (outdated: it belongs to the model before the
  // edit) for scrubbing and export; Run starts a new run of the edited model from t = 0.
  void editingWhileRunningKeepsTheRun() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    auto* sim = w->simulation();
    QVERIFY(sim);
    // real time: as fast as possible, the whole 10 s run can end (in about 0.1 s) between two of
    // QTRY's polls on a busy machine, and there is no run left to edit under
    sim->setSpeed(1.0);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(sim->simulationTime() > 0.05, 10000);
    QVERIFY(sim->isRunning());

    Document& doc = w->document();
    const double oldMass = sim->tree()->totalMass();
    const double mass = doc.model().bodies[0].inertial.mass + 10.0;
    QVERIFY(edit::apply(doc, edit::setMass(doc, 0, mass, &error)));
    QVERIFY(!sim->isRunning());
    QVERIFY(sim->hasSimulator());
    QVERIFY(sim->outdated());
    const double kept = sim->simulationTime();
    QVERIFY(kept > 0.05);
    QCOMPARE(sim->tree()->totalMass(), oldMass);  // the run's own model
    QVERIFY(sim->runStateText().contains(QStringLiteral("edited")));
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("kept")),
             qPrintable(w->statusBar()->currentMessage()));
    QVERIFY(w->exports().exportResultsAction()->isEnabled());
    // the same joints: the 3D view still shows the kept run's samples
    QVERIFY(sim->sessionFits(w->tree()));
    sim->showTime(0.5 * kept);
    QVERIFY(std::abs(sim->shownTime() - 0.5 * kept) <= sim->activeOptions().step);
    // Step does not extend an outdated run; Run starts the edited model over
    sim->step();
    QCOMPARE(sim->simulationTime(), kept);
    // undo takes the model back to the run's own: the run is current again, and redo outdates it
    doc.undoStack()->undo();
    QVERIFY(!sim->outdated());
    QVERIFY(!sim->runStateText().contains(QStringLiteral("edited")));
    doc.undoStack()->redo();
    QVERIFY(sim->outdated());
    sim->pause();
    sim->run();
    QVERIFY(!sim->outdated());
    QVERIFY(std::abs(sim->tree()->totalMass() - w->tree().totalMass()) < 1e-12);
    QTRY_VERIFY_WITH_TIMEOUT(sim->simulationTime() > 0.0, 10000);
    sim->pause();
  }

  // Scrolling the Properties dock over a combo box that kept the focus after a choice changes
  // nothing: the wheel scrolls the page (for every selected body, it used to switch them all). A
  // spin box takes the wheel only once clicked into; the rule covers widgets made later, anywhere.
  // The Properties page is never cut: at 1600 x 1000 the dock is as wide as the page, and in a
  // smaller window, where it is narrower, the page keeps its width and scrolls sideways. With the
  // horizontal scroll bar off, the fields lost their right end at 1280 x 800.
  void propertiesPageIsNeverCut() {
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
      auto w = shownWindow(size);
      QString error;
      QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
      const kt::Model& m = w->document().model();
      for (const char* name : {"base", "L12", ""}) {
        w->selection().selectBody(*name ? m.findBody(name) : -1);
        QApplication::processEvents();
        auto* area = w->propertiesDock()->findChild<QScrollArea*>();
        QVERIFY(area && area->widget());
        const QString what = QStringLiteral("%1 at %2 px: page %3 px (at least %4), the dock shows %5")
                                 .arg(name)
                                 .arg(size.width())
                                 .arg(area->widget()->width())
                                 .arg(area->widget()->minimumSizeHint().width())
                                 .arg(area->viewport()->width());
        QTRY_VERIFY2(area->widget()->width() >= area->widget()->minimumSizeHint().width(), qPrintable(what));
        if (size.width() == 1600)
          QTRY_VERIFY2(area->widget()->width() <= area->viewport()->width(), qPrintable(what));
        else
          QVERIFY(area->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff);
      }
    }
  }

  void wheelScrollsThePageNotTheValue() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    Document& doc = w->document();
    const kt::Model& m = doc.model();
    w->selection().selectBody(m.findBody("L12"));
    QTreeView* tree = w->modelTreeDock()->treeView();
    for (const char* name : {"L13", "L14"})
      tree->selectionModel()->select(w->modelTreeDock()->layout()->indexOfBody(m.findBody(name)),
                                     QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QApplication::processEvents();
    const std::string before = yamlOf(doc);
    const int steps = doc.undoStack()->count();
    auto* drive = w->propertiesDock()->findChild<QComboBox*>(QStringLiteral("joint.drive.type"));
    QVERIFY(drive);
    QCOMPARE(drive->focusPolicy(), Qt::StrongFocus);
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w.get()));
    drive->setFocus(Qt::MouseFocusReason);  // as after choosing from its list
    QVERIFY(QTest::qWaitFor([&] { return drive->hasFocus(); }));
    const int index = drive->currentIndex();
    auto* scroll = w->propertiesDock()->findChild<QScrollArea*>();
    QVERIFY(scroll);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum() / 2);
    const int scrolled = scroll->verticalScrollBar()->value();
    for (int notches : {-1, -1, 2, 1}) wheelOver(drive, notches);
    QCOMPARE(drive->currentIndex(), index);
    QCOMPARE(doc.undoStack()->count(), steps);
    QCOMPARE(yamlOf(doc), before);
    QVERIFY2(scroll->verticalScrollBar()->value() != scrolled, "the page did not scroll");

    // a spin box in a dialog made after the window: unfocused it passes the wheel on; clicked
    // into (focused), it steps
    QDialog dialog(w.get());
    auto* page = new QScrollArea(&dialog);
    auto* spin = new QDoubleSpinBox;
    spin->setValue(1.0);
    page->setWidget(spin);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(spin->focusPolicy(), Qt::StrongFocus);
    wheelOver(spin, 1);
    QCOMPARE(spin->value(), 1.0);
    dialog.activateWindow();
    spin->setFocus(Qt::MouseFocusReason);
    QVERIFY(QTest::qWaitFor([&] { return spin->hasFocus(); }));
    wheelOver(spin, 1);
    QCOMPARE(spin->value(), 2.0);

    // a slider likewise: the page scrolls until the slider is clicked into
    auto* slider = new QSlider(Qt::Horizontal);
    slider->setRange(0, 100);
    slider->setValue(50);
    page->setWidget(slider);
    slider->show();
    QApplication::processEvents();
    QCOMPARE(slider->focusPolicy(), Qt::StrongFocus);
    wheelOver(slider, 1);
    QCOMPARE(slider->value(), 50);
    slider->setFocus(Qt::MouseFocusReason);
    QVERIFY(QTest::qWaitFor([&] { return slider->hasFocus(); }));
    wheelOver(slider, 1);
    QVERIFY(slider->value() != 50);
  }

  // Ctrl+Z and Ctrl+Shift+Z with the focus in a Properties field or in the rename editor act on
  // the model: the text being typed is committed first (so Undo takes it back with the rest and
  // Redo brings it again), and the field then shows what the model holds.
  void undoActsOnTheModelFromAField() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    Document& doc = w->document();
    const int l12 = doc.model().findBody("L12");
    const double mass0 = doc.model().bodies[static_cast<std::size_t>(l12)].inertial.mass;
    w->selection().selectBody(l12);
    QApplication::processEvents();
    auto mass = [&] { return doc.model().bodies[static_cast<std::size_t>(l12)].inertial.mass; };
    auto* field = w->propertiesDock()->findChild<QLineEdit*>(QStringLiteral("inertial.mass"));
    QVERIFY(field);
    // the window active first (as in destroyedWithTypedTextInAField): on a loaded machine a focus
    // set before the X server activates the window stays pending past the wait
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w.get()));
    field->setFocus(Qt::MouseFocusReason);
    QVERIFY(QTest::qWaitFor([&] { return field->hasFocus(); }));
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("7.5"));
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(mass(), 7.5);
    const int steps = doc.undoStack()->count();
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("9"));  // typed, not committed
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    // the typed 9 was committed (merged with the 7.5 before it: consecutive edits of one field
    // are one step) and that step undone: the model's undo, not the field's text undo
    QCOMPARE(doc.undoStack()->count(), steps);
    QCOMPARE(doc.undoStack()->index(), steps - 1);
    QCOMPARE(mass(), mass0);
    QCOMPARE(field->text(), kt::ui::formatNumber(mass0));
    QVERIFY(!field->isModified());
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(mass(), 9.0);
    QCOMPARE(field->text(), QStringLiteral("9"));

    // text the model cannot take is dropped (and refused with its reason), the step before undone
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("heavy"));
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(doc.undoStack()->count(), steps);
    QCOMPARE(mass(), mass0);
    QCOMPARE(field->text(), kt::ui::formatNumber(mass0));
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(mass(), 9.0);
    QCOMPARE(field->text(), QStringLiteral("9"));

    // the rename editor of the model tree
    const std::string name0 = doc.model().bodies[static_cast<std::size_t>(l12)].name;
    w->modelTreeDock()->renameSelected();
    QLineEdit* editor = nullptr;
    QVERIFY2(QTest::qWaitFor([&] {
               editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
               return editor && w->modelTreeDock()->isAncestorOf(editor);
             }),
             "no rename editor");
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("Elbow"));
    QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
    QApplication::processEvents();
    QCOMPARE(doc.model().bodies[static_cast<std::size_t>(l12)].name, name0);
    QCOMPARE(mass(), 9.0);  // one step back: the rename only
    QTreeView* tree = w->modelTreeDock()->treeView();
    const auto shownName = [&] {
      return tree->model()->data(tree->currentIndex().siblingAtColumn(0), Qt::DisplayRole).toString();
    };
    QCOMPARE(shownName(), QString::fromStdString(name0));
    QTest::keyClick(tree, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(doc.model().bodies[static_cast<std::size_t>(l12)].name, std::string("Elbow"));
    QCOMPARE(shownName(), QStringLiteral("Elbow"));

    // the model's description, a text box of its own (it commits on leaving, not on Return)
    w->selection().selectBody(-1);
    QApplication::processEvents();
    const std::string description0 = doc.model().description;
    auto* description = w->propertiesDock()->findChild<kt::ui::TextBlockEdit*>(QStringLiteral("description"));
    QVERIFY(description);
    description->setFocus(Qt::MouseFocusReason);
    QVERIFY(QTest::qWaitFor([&] { return description->hasFocus(); }));
    description->selectAll();
    QTest::keyClicks(description, QStringLiteral("A test arm"));
    QTest::keyClick(description, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(doc.model().description, description0);
    QCOMPARE(description->toPlainText(), QString::fromStdString(description0));
    QTest::keyClick(description, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(doc.model().description, std::string("A test arm"));
    QCOMPARE(description->toPlainText(), QStringLiteral("A test arm"));
  }

  // A window destroyed while a field holds typed text (a test's end, a session's logout) commits
  // it before its own members go: the commit used to reach a half-destroyed window and crash.
  void destroyedWithTypedTextInAField() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    w->selection().selectBody(-1);
    QApplication::processEvents();
    auto* description = w->propertiesDock()->findChild<kt::ui::TextBlockEdit*>(QStringLiteral("description"));
    QVERIFY(description);
    // the window active first: a focus set before the X server activates it stays pending, and on
    // a loaded machine the wait for it ran out
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w.get()));
    description->setFocus(Qt::MouseFocusReason);
    QVERIFY(QTest::qWaitFor([&] { return description->hasFocus(); }));
    QTest::keyClicks(description, QStringLiteral(" More."));
    w.reset();
  }

  void screenshotOfTheEditor() {
    auto w = shownWindow();
    QString error;
    QVERIFY2(w->files().loadModel(kt::resources::kDefaultModel, error), qPrintable(error));
    w->selection().selectBody(3);
    QTest::qWait(50);
    const QImage shot = w->grab().toImage();
    QVERIFY(shot.save(QStringLiteral("screenshot_editor.png")));
    QVERIFY(kt::render::greyVariance(shot) > 100.0);
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestEditorWindow>(argc, argv, "test_editor_window"); }
#include "test_editor_window.moc"
