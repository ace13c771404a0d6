// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/file_actions.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTextDocument>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include "core/io/mjcf/mjcf.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/recovery.hpp"
#include "ui/files/import_mjcf.hpp"
#include "ui/files/import_motion.hpp"
#include "ui/files/import_urdf.hpp"
#include "ui/files/recent_files.hpp"
#include "ui/shared/status_message.hpp"

namespace kt::ui {

namespace {

// Files above this size (about 2,000 bodies) show a progress dialog while they open.
constexpr qint64 kProgressFileBytes = 1'000'000;

bool isModelFile(const QUrl& url) {
  if (!url.isLocalFile()) return false;
  const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
  if (suffix == QLatin1String("xml"))  // a MuJoCo model
    return kt::isMjcfFile(QFile::encodeName(url.toLocalFile()).toStdString());
  return suffix == QLatin1String("yaml") || suffix == QLatin1String("yml") || suffix == QLatin1String("urdf");
}

// The model file a drag carries, or an empty string.
QString droppedModel(const QMimeData* mime) {
  if (!mime->hasUrls() || mime->urls().isEmpty() || !isModelFile(mime->urls().front())) return {};
  return mime->urls().front().toLocalFile();
}

}  // namespace

FileActions::FileActions(Document* doc, render::SceneView* view, QMainWindow* window)
    : QObject(window), doc_(doc), view_(view), window_(window) {
  menu_ = window->menuBar()->addMenu(tr("&File"));
  menu_->addAction(tr("&New"), QKeySequence::New, this, &FileActions::newModel);
  menu_->addAction(tr("&Open…"), QKeySequence::Open, this, &FileActions::showOpenDialog);

  QMenu* recentMenu = menu_->addMenu(tr("Open &Recent"));
  recent_ = new RecentFiles(recentMenu, this);
  connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
    if (!QFileInfo::exists(path)) {
      QMessageBox::warning(window_, tr("Open Recent"), tr("%1 no longer exists.").arg(QDir::toNativeSeparators(path)));
      recent_->remove(path);
      return;
    }
    openModel(path);
  });

  examplesMenu_ = menu_->addMenu(tr("&Examples"));
  examplesMenu_->setObjectName(QStringLiteral("examplesMenu"));
  const QStringList models = resources::exampleModels();
  for (const QString& path : models) {
    QAction* action = examplesMenu_->addAction(resources::exampleTitle(path));
    action->setData(path);
    connect(action, &QAction::triggered, this, [this, path] { openModel(path); });
  }
  examplesMenu_->setEnabled(!models.isEmpty());
  QAction* importUrdf = menu_->addAction(tr("&Import URDF…"), this, &FileActions::showImportUrdfDialog);
  importUrdf->setObjectName(QStringLiteral("importUrdfAction"));
  importUrdf->setStatusTip(tr("Read a robot from a URDF file into a new, unsaved model"));
  QAction* importMjcf = menu_->addAction(tr("Import M&JCF…"), this, &FileActions::showImportMjcfDialog);
  importMjcf->setObjectName(QStringLiteral("importMjcfAction"));
  importMjcf->setStatusTip(tr("Read a MuJoCo model (MJCF) into a new, unsaved model"));
  QAction* importMotion = menu_->addAction(tr("Import &Motion…"), this, &FileActions::showImportMotionDialog);
  importMotion->setObjectName(QStringLiteral("importMotionAction"));
  importMotion->setStatusTip(tr("Make joints of this model follow the histories of a CSV file (docs/motion.md)"));

  menu_->addSeparator();
  menu_->addAction(tr("&Save"), QKeySequence::Save, this, &FileActions::save);
  QAction* saveAs = menu_->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &FileActions::saveAs);
  saveAs->setObjectName(QStringLiteral("saveAsAction"));
  // the platform's Save As key, or Ctrl+Shift+S where it has none (X11 without a desktop's theme)
  if (saveAs->shortcuts().isEmpty()) saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));

  window_->setAcceptDrops(true);
  window_->installEventFilter(this);
  connect(view_, &render::SceneView::buildProgress, this, &FileActions::showBuildProgress);
}

void FileActions::showMessage(const QString& message) const {
  window_->statusBar()->showMessage(message, kStatusMessageMs);
}

bool FileActions::eventFilter(QObject* watched, QEvent* event) {
  if (watched != window_) return false;
  if (event->type() == QEvent::DragEnter) {
    auto* drag = static_cast<QDragEnterEvent*>(event);
    if (droppedModel(drag->mimeData()).isEmpty()) return false;
    drag->acceptProposedAction();
    return true;
  }
  if (event->type() == QEvent::Drop) {
    auto* drop = static_cast<QDropEvent*>(event);
    const QString path = droppedModel(drop->mimeData());
    if (path.isEmpty()) return false;
    drop->acceptProposedAction();
    // Not inside the drop: the unsaved-changes question and errors are modal.
    QTimer::singleShot(0, this, [this, path] { openModel(path); });
    return true;
  }
  return false;
}

void FileActions::showOpenDialog() {
  if (!maybeSave()) return;
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("lastOpenDirectory")).toString();
  const QString path =
      QFileDialog::getOpenFileName(window_, tr("Open Model"), dir, tr("Kinetree models (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(path).absolutePath());
  QString error;
  if (!loadModel(path, error)) showOpenFailure(path, error);
}

void FileActions::showOpenFailure(const QString& path, const QString& error) {
  // The box must fit the screen whatever the number of diagnostics (the reader reports up to
  // 100): the first few are shown, all of them are in the scrolling details.
  constexpr int kShownLines = 8;
  constexpr int kLineChars = 300;
  const QStringList lines = error.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QStringList shown;
  bool cut = lines.size() > kShownLines;
  for (const QString& line : lines.mid(0, kShownLines)) {
    cut = cut || line.size() > kLineChars;
    shown.append(line.size() > kLineChars ? line.left(kLineChars) + QStringLiteral("…") : line);
  }
  if (lines.size() > kShownLines)
    shown.append(tr("… and %n more (Show Details…)", nullptr, static_cast<int>(lines.size() - kShownLines)));
  QMessageBox box(QMessageBox::Critical, tr("Cannot open model"),
                  tr("%1 could not be opened.").arg(QDir::toNativeSeparators(path)), QMessageBox::Ok, window_);
  box.setObjectName(QStringLiteral("openFailureBox"));
  // Plain text whatever the diagnostics contain (a name or value that starts like an HTML tag is
  // shown as written, not rendered): the path as plain text, the diagnostics converted explicitly.
  box.setTextFormat(Qt::PlainText);
  box.setInformativeText(Qt::convertFromPlainText(shown.join(QLatin1Char('\n')), Qt::WhiteSpaceNormal));
  if (cut) box.setDetailedText(error);
  box.setTextInteractionFlags(Qt::TextSelectableByMouse);
  box.exec();
}

bool FileActions::loadModel(const QString& path, QString& error, std::future<Document::ReadModel> preread) {
  error.clear();
  if (path.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive)) return importRobot(&kt::ui::importUrdf, path, error);
  if (path.endsWith(QStringLiteral(".xml"), Qt::CaseInsensitive) &&
      kt::isMjcfFile(QFile::encodeName(path).toStdString()))
    return importRobot(&kt::ui::importMjcf, path, error);
  // A large file takes seconds to read and validate: say so before, the scene's progress follows.
  opening_ = QFileInfo(path).size() > kProgressFileBytes;
  if (opening_) {
    QProgressDialog* dialog = progressDialog();
    dialog->setLabelText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    dialog->setRange(0, 0);
    dialog->setValue(0);
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
  }
  const bool opened = preread.valid() ? doc_->open(preread.get(), &error) : doc_->open(path, &error);
  if (opening_) {
    opening_ = false;
    closeProgress();
  }
  if (!opened) {
    showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(path)));
    return false;
  }
  importedFrom_.clear();
  recent_->add(path);
  return true;
}

bool FileActions::openModel(const QString& path, std::future<Document::ReadModel> preread) {
  if (!maybeSave()) return false;
  QString error;
  if (loadModel(path, error, std::move(preread))) return true;
  showOpenFailure(path, error);
  return false;
}

void FileActions::showImportUrdfDialog() {
  if (!maybeSave()) return;
  ImportUrdfDialog dialog(QString(), window_);  // remembers its package folders for every import
  if (dialog.exec() != QDialog::Accepted) return;
  const QString path = QDir::fromNativeSeparators(dialog.path());
  QString error;
  if (!importRobot(&kt::ui::importUrdf, path, error)) showOpenFailure(path, error);
}

void FileActions::showImportMotionDialog() {
  ImportMotionDialog dialog(*doc_, QString(), window_);
  if (dialog.exec() == QDialog::Accepted) showMessage(dialog.summary());
}

void FileActions::showImportMjcfDialog() {
  if (!maybeSave()) return;
  QSettings settings;
  const QString start = settings.value(QStringLiteral("lastImportDirectory")).toString();
  const QString path = QFileDialog::getOpenFileName(window_, tr("Import MJCF"), start,
                                                    tr("MuJoCo models (*.xml *.mjcf);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastImportDirectory"), QFileInfo(path).absolutePath());
  QString error;
  if (!importRobot(&kt::ui::importMjcf, path, error)) showOpenFailure(path, error);
}

bool FileActions::importRobot(Importer importer, const QString& path, QString& error) {
  QString status;
  const bool imported = importer(*doc_, path, window_, status, error);
  if (imported) {
    view_->resetView();  // the view fitted the empty document: fit the robot
    importedFrom_ = QFileInfo(path).absoluteFilePath();
  }
  showMessage(status);
  return imported;
}

bool FileActions::newModel() {
  if (!maybeSave()) return false;
  importedFrom_.clear();
  doc_->newDocument();
  showMessage(tr("New model: add a body (Edit ▸ Add Body) or insert a template"));
  return true;
}

bool FileActions::saveTo(const QString& path, QString& error) {
  error.clear();
  if (!doc_->saveAs(path, &error)) return false;
  recent_->add(path);
  showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

bool FileActions::save() {
  const QString path = doc_->filePath();
  if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) return saveAs();
  QString error;
  if (saveTo(path, error)) return true;
  QMessageBox::critical(window_, tr("Cannot save"),
                        tr("The model was not saved; the file on disk is unchanged.\n\n%1").arg(error));
  return false;
}

QString FileActions::saveAsStartPath() const {
  const QString current = doc_->filePath();
  QString dir;
  if (!current.isEmpty() && !current.startsWith(QLatin1Char(':')))
    dir = QFileInfo(current).absolutePath();
  else if (current.isEmpty() && !importedFrom_.isEmpty())
    dir = QFileInfo(importedFrom_).absolutePath();  // beside the robot's own file
  else
    dir = QSettings().value(QStringLiteral("lastOpenDirectory"), QDir::homePath()).toString();
  return QDir(dir).filePath(QString::fromStdString(doc_->model().name) + QStringLiteral(".yaml"));
}

bool FileActions::saveAs() {
  QSettings settings;
  QString path = QFileDialog::getSaveFileName(window_, tr("Save Model As"), saveAsStartPath(),
                                              tr("Kinetree models (*.yaml *.yml)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".yaml");
  settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(path).absolutePath());
  QString error;
  if (saveAsTo(path, error)) return true;
  QMessageBox::critical(window_, tr("Cannot save"), tr("The model was not saved.\n\n%1").arg(error));
  return false;
}

bool FileActions::saveAsTo(const QString& path, QString& error) {
  // A model without a name of its own is named after its file, as an undo step of its own that
  // the save includes: the file, the title and the next run's label all say the file's name.
  const std::string& name = doc_->model().name;
  bool named = false;
  if (name.empty() || name == "untitled") {
    QString refused;
    if (QUndoCommand* rename = edit::setModelName(*doc_, QFileInfo(path).completeBaseName(), &refused)) {
      // a macro: never merged into an earlier edit of the name, so one undo takes exactly this back
      doc_->undoStack()->beginMacro(tr("Name the model after its file"));
      doc_->push(rename);
      doc_->undoStack()->endMacro();
      named = true;
    }
  }
  if (saveTo(path, error)) return true;
  if (named) doc_->undoStack()->undo();  // nothing was saved: the name is as it was
  return false;
}

bool FileActions::maybeSave() {
  if (!doc_->isModified()) return true;
  const QMessageBox::StandardButton answer =
      unsavedAnswer_
          ? unsavedAnswer_()
          : QMessageBox::warning(window_, tr("Unsaved changes"),
                                 tr("%1 has changes that are not saved. Save them?").arg(doc_->displayName()),
                                 QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  switch (answer) {
    case QMessageBox::Save: return save();
    case QMessageBox::Discard: return true;
    default: return false;
  }
}

void FileActions::offerRecovery() {
  const QList<RecoveryEntry> entries = Autosaver::findRecoveries(doc_->autosaver()->directory());
  for (const RecoveryEntry& entry : entries) {
    const QString what = entry.originalPath.isEmpty() ? tr("an unsaved model \"%1\"").arg(entry.modelName)
                                                      : QDir::toNativeSeparators(entry.originalPath);
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                    tr("Kinetree did not close normally. Changes to %1 were autosaved at %2.")
                        .arg(what, QLocale().toString(entry.saved, QLocale::ShortFormat)),
                    QMessageBox::NoButton, window_);
    box.setInformativeText(tr("Recover them? Discarding deletes the autosaved copy."));
    QPushButton* recover = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("&Not Now"), QMessageBox::RejectRole);
    box.setDefaultButton(recover);
    box.exec();
    if (box.clickedButton() == discard) {
      Autosaver::discardRecovery(entry);
    } else if (box.clickedButton() == recover) {
      if (!maybeSave()) return;
      QString error;
      if (Autosaver::restore(*doc_, entry, &error)) {
        window_->statusBar()->showMessage(tr("Recovered %1: save it to keep the changes").arg(what), kStatusMessageMs);
        return;  // one document at a time; the others are offered next time
      }
      QMessageBox::critical(window_, tr("Cannot recover"), error);
    }
  }
}

QProgressDialog* FileActions::progressDialog() {
  if (progress_ == nullptr) {
    progress_ = new QProgressDialog(window_);
    progress_->setObjectName(QStringLiteral("progressDialog"));
    progress_->setWindowTitle(tr("Kinetree"));
    progress_->setCancelButton(nullptr);  // a half-built scene cannot be kept
    progress_->setWindowModality(Qt::WindowModal);
    progress_->setMinimumDuration(0);
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    progress_->show();
  }
  return progress_;
}

void FileActions::closeProgress() {
  if (progress_ == nullptr) return;
  progress_->hide();
  progress_->deleteLater();
  progress_ = nullptr;
}

void FileActions::showBuildProgress(int done, int total) {
  QProgressDialog* dialog = progressDialog();
  dialog->setLabelText(tr("Building the 3D view: %1 of %2 bodies…").arg(done).arg(total));
  dialog->setRange(0, total);
  dialog->setValue(done);  // modal: runs the event loop
  if (done >= total && !opening_) closeProgress();
}

}  // namespace kt::ui
