// SPDX-License-Identifier: BSD-3-Clause
#include "ui/import_urdf_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace kt::ui {

namespace {
const QString kPackagePathsKey = QStringLiteral("urdfPackagePaths");
const QString kLastDirectoryKey = QStringLiteral("lastImportDirectory");
}  // namespace

ImportUrdfDialog::ImportUrdfDialog(const QString& path, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Import URDF"));
  setObjectName(QStringLiteral("importUrdfDialog"));

  file_ = new QLineEdit(this);
  file_->setObjectName(QStringLiteral("urdfFile"));
  file_->setPlaceholderText(tr("robot.urdf"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  connect(browse, &QPushButton::clicked, this, &ImportUrdfDialog::browseFile);
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(file_, 1);
  fileRow->addWidget(browse);

  folders_ = new QListWidget(this);
  folders_->setObjectName(QStringLiteral("packagePaths"));
  folders_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  folders_->setMinimumHeight(90);
  auto* add = new QPushButton(tr("Add Folder…"), this);
  connect(add, &QPushButton::clicked, this, &ImportUrdfDialog::addFolder);
  remove_ = new QPushButton(tr("Remove"), this);
  connect(remove_, &QPushButton::clicked, this, &ImportUrdfDialog::removeFolders);
  auto* folderButtons = new QVBoxLayout;
  folderButtons->addWidget(add);
  folderButtons->addWidget(remove_);
  folderButtons->addStretch(1);
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(folders_, 1);
  folderRow->addLayout(folderButtons);

  auto* help = new QLabel(tr("Meshes named package://NAME/… are looked for in each folder (FOLDER/NAME/…, or the "
                             "folder itself when it is named NAME), then next to the URDF and in its parents."),
                          this);
  help->setWordWrap(true);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setText(tr("Import"));
  connect(buttons, &QDialogButtonBox::accepted, this, &ImportUrdfDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ImportUrdfDialog::reject);

  auto* form = new QFormLayout;
  form->addRow(tr("URDF file:"), fileRow);
  form->addRow(tr("Package folders:"), folderRow);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(help);
  layout->addWidget(buttons);

  connect(file_, &QLineEdit::textChanged, this, &ImportUrdfDialog::updateButtons);
  connect(folders_, &QListWidget::itemSelectionChanged, this, &ImportUrdfDialog::updateButtons);
  setPath(path);
  setPackagePaths(rememberedPackagePaths());
  resize(560, sizeHint().height());
}

QString ImportUrdfDialog::path() const { return file_->text().trimmed(); }

QStringList ImportUrdfDialog::packagePaths() const {
  QStringList out;
  for (int k = 0; k < folders_->count(); ++k) out << folders_->item(k)->data(Qt::UserRole).toString();
  return out;
}

void ImportUrdfDialog::setPath(const QString& path) {
  file_->setText(QDir::toNativeSeparators(path));
  updateButtons();
}

void ImportUrdfDialog::setPackagePaths(const QStringList& paths) {
  folders_->clear();
  for (const QString& p : paths) {
    if (p.isEmpty() || packagePaths().contains(p)) continue;
    auto* item = new QListWidgetItem(QDir::toNativeSeparators(p), folders_);
    item->setData(Qt::UserRole, p);
    item->setToolTip(QFileInfo(p).isDir() ? QString() : tr("This folder does not exist"));
  }
  updateButtons();
}

QStringList ImportUrdfDialog::rememberedPackagePaths() { return QSettings().value(kPackagePathsKey).toStringList(); }

void ImportUrdfDialog::accept() {
  const QFileInfo info(QDir::fromNativeSeparators(path()));
  if (!info.isFile()) {
    QMessageBox::warning(this, tr("Import URDF"),
                         tr("%1 is not a file. Choose the robot's URDF file.").arg(QDir::toNativeSeparators(path())));
    return;
  }
  QSettings settings;
  settings.setValue(kPackagePathsKey, packagePaths());
  settings.setValue(kLastDirectoryKey, info.absolutePath());
  QDialog::accept();
}

void ImportUrdfDialog::browseFile() {
  const QString start =
      path().isEmpty() ? QSettings().value(kLastDirectoryKey).toString() : QFileInfo(path()).absolutePath();
  const QString chosen =
      QFileDialog::getOpenFileName(this, tr("Import URDF"), start, tr("URDF robots (*.urdf *.xml);;All files (*)"));
  if (!chosen.isEmpty()) setPath(chosen);
}

void ImportUrdfDialog::addFolder() {
  const QString start = path().isEmpty() ? QString() : QFileInfo(path()).absolutePath();
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Package Folder"), start);
  if (!folder.isEmpty()) setPackagePaths(packagePaths() << folder);
}

void ImportUrdfDialog::removeFolders() {
  qDeleteAll(folders_->selectedItems());
  updateButtons();
}

void ImportUrdfDialog::updateButtons() {
  remove_->setEnabled(!folders_->selectedItems().isEmpty());
  ok_->setEnabled(!path().isEmpty());
}

}  // namespace kt::ui
