// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/import_urdf.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
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
#include <cmath>

#include "core/io/model_yaml.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/model/diagnostic.hpp"
#include "core/model/tree.hpp"
#include "ui/files/imported_model.hpp"
#include "ui/shared/number_text.hpp"

namespace kt::ui {

namespace {
const QString kPackagePathsKey = QStringLiteral("urdfPackagePaths");
const QString kLastDirectoryKey = QStringLiteral("lastImportDirectory");
const QString kDensityKey = QStringLiteral("urdfDensity");
const QString kStrictKey = QStringLiteral("urdfStrictInertias");
const QString kFloatingKey = QStringLiteral("urdfFloatingBase");
const QString kMergeFixedKey = QStringLiteral("urdfMergeFixed");
}  // namespace

bool importUrdf(Document& doc, const QString& path, QWidget* parent, QString& status, QString& error) {
  kt::UrdfImport imported;
  try {
    kt::UrdfImportOptions options;  // meshes by absolute paths: the document has no file yet
    for (const QString& folder : ImportUrdfDialog::rememberedPackagePaths())
      options.packagePaths.push_back(QFile::encodeName(folder).toStdString());
    options.density = ImportUrdfDialog::rememberedDensity();
    options.strict = ImportUrdfDialog::rememberedStrict();
    options.floatingBase = ImportUrdfDialog::rememberedFloatingBase();
    options.mergeFixed = ImportUrdfDialog::rememberedMergeFixed();
    imported = kt::importUrdfFile(QFile::encodeName(path).toStdString(), options);
  } catch (const kt::ModelLoadError& e) {
    error = QString::fromStdString(kt::formatDiagnostics(e.diagnostics())).trimmed();
    if (error.contains(QStringLiteral("(import with --density RHO)")))  // a kinematic description: the dialog's way out
      error += QObject::tr(
          "\n\nFile ▸ Import URDF… gives links without <inertial> the mass of their shapes at a "
          "density you choose.");
    status = QObject::tr("Could not import %1").arg(QDir::toNativeSeparators(path));
    return false;
  }
  adoptImportedModel(doc, imported.model, path);
  const int bodies = static_cast<int>(imported.model.bodies.size());
  const int notes = static_cast<int>(imported.warnings.size());
  status = importStatus(path, bodies, notes, QObject::tr("on what was left out or changed"));
  if (!imported.missingMeshes.empty()) status += QObject::tr(" (mesh files not found)");
  // URDF has no actuators (docs/urdf.md): every joint comes in passive and the robot falls when run.
  const QString passive = passiveJointsNote(imported.model, QObject::tr("no drive"));
  // placeholder inertias and the like, which the Problems dock lists (kt::modelWarnings)
  const int mistakes = static_cast<int>(kt::modelWarnings(imported.model).size());
  const int repairs = static_cast<int>(imported.repaired.size() + imported.merged.size());
  if (notes == 0 && passive.isEmpty() && mistakes == 0) return true;
  QStringList informative;
  if (!passive.isEmpty()) informative << passive;
  if (repairs > 0) {
    const auto names = [](const std::vector<std::string>& links) {
      QStringList out;
      for (const std::string& l : links) out << QString::fromStdString(l);
      return out.join(QStringLiteral(", "));
    };
    QStringList what;
    if (!imported.repaired.empty())
      what << QObject::tr("replaced by the nearest physical one (%1)").arg(names(imported.repaired));
    if (!imported.merged.empty())
      what << QObject::tr("merged into the parent across a fixed joint (%1)").arg(names(imported.merged));
    informative << QObject::tr(
                       "%1 not physical and %2: %3. Where such a link moves, its dynamics are an approximation. "
                       "File ▸ Import URDF… can refuse such inertias instead.")
                       .arg(countText(repairs, QObject::tr("link's inertia was"), QObject::tr("links' inertias were")),
                            repairs == 1 ? QObject::tr("was repaired") : QObject::tr("were repaired"),
                            what.join(QObject::tr("; ")));
  }
  if (mistakes > 0) {
    informative << QObject::tr(
                       "%1 in the robot's values (View ▸ Problems), such as a placeholder inertia: the robot runs, "
                       "but its motion may be wrong.")
                       .arg(countText(mistakes, QObject::tr("likely mistake"), QObject::tr("likely mistakes")));
  }
  if (!imported.missingMeshes.empty()) {
    QStringList meshes;
    for (const std::string& mesh : imported.missingMeshes)
      if (!meshes.contains(QString::fromStdString(mesh))) meshes << QString::fromStdString(mesh);
    constexpr int kShownMeshes = 3;
    const QString shown =
        meshes.size() > kShownMeshes
            ? QStringList(meshes.mid(0, kShownMeshes)).join(QStringLiteral(", ")) + QStringLiteral(", …")
            : meshes.join(QStringLiteral(", "));
    informative << QObject::tr(
                       "%1 not found (%2): the links they draw are shown by their collision geometry or as a "
                       "skeleton. Add the folder that holds the robot's package under Package folders in "
                       "File ▸ Import URDF… and import again.")
                       .arg(countText(meshes.size(), QObject::tr("mesh file was"), QObject::tr("mesh files were")),
                            shown);
  }
  if (notes > 0) {
    informative << QObject::tr("%1 of the file %2 not carried over or %3 changed (Show Details…).")
                       .arg(countText(notes, QObject::tr("part"), QObject::tr("parts")),
                            notes == 1 ? QObject::tr("was") : QObject::tr("were"),
                            notes == 1 ? QObject::tr("was") : QObject::tr("were"));
  }
  showImportNotes(parent, path, bodies, informative.join(QStringLiteral("\n\n")),
                  notes > 0 ? QString::fromStdString(kt::formatDiagnostics(imported.warnings)) : QString());
  return true;
}

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

  // links without <inertial> (a kinematic description): the masses of their shapes, on request
  useDensity_ = new QCheckBox(tr("Links without <inertial>: mass and inertia of their shapes at"), this);
  useDensity_->setObjectName(QStringLiteral("urdfUseDensity"));
  density_ = new QDoubleSpinBox(this);
  density_->setObjectName(QStringLiteral("urdfDensity"));
  density_->setRange(1.0, 100000.0);
  density_->setDecimals(0);
  density_->setSuffix(tr(" kg/m³"));
  density_->setValue(1000.0);
  const double remembered = rememberedDensity();
  useDensity_->setChecked(remembered > 0.0);
  if (remembered > 0.0) density_->setValue(remembered);
  density_->setEnabled(useDensity_->isChecked());
  connect(useDensity_, &QCheckBox::toggled, density_, &QWidget::setEnabled);
  auto* densityRow = new QHBoxLayout;
  densityRow->addWidget(useDensity_);
  densityRow->addWidget(density_);
  densityRow->addStretch(1);
  strict_ = new QCheckBox(tr("Refuse inertias that are not physical instead of repairing them"), this);
  strict_->setObjectName(QStringLiteral("urdfStrict"));
  strict_->setChecked(rememberedStrict());
  strict_->setToolTip(
      tr("By default a point mass on a fixed joint is merged into its parent and any other "
         "inertia that is not physical is replaced by the nearest physical one, each with a "
         "note (docs/urdf.md, “Repairs”)"));

  floating_ =
      new QCheckBox(tr("Floating base: the root link moves freely (a mobile robot, a humanoid, a satellite)"), this);
  floating_->setObjectName(QStringLiteral("urdfFloatingBase"));
  floating_->setChecked(rememberedFloatingBase());
  floating_->setToolTip(
      tr("The root link's joint to the world is free instead of fixed (kinetree-cli import --floating; "
         "docs/urdf.md, “The root link”)"));
  mergeFixed_ = new QCheckBox(tr("Merge every link on a fixed joint into its parent (fewer bodies)"), this);
  mergeFixed_->setObjectName(QStringLiteral("urdfMergeFixed"));
  mergeFixed_->setChecked(rememberedMergeFixed());
  mergeFixed_->setToolTip(
      tr("Links without mass are merged in any case; this merges those with mass too, lumping their "
         "mass and shapes into the parent (kinetree-cli import --merge-fixed)"));

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
  layout->addLayout(densityRow);
  layout->addWidget(strict_);
  layout->addWidget(floating_);
  layout->addWidget(mergeFixed_);
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

double ImportUrdfDialog::rememberedDensity() {
  const double density = QSettings().value(kDensityKey, 0.0).toDouble();
  return std::isfinite(density) && density > 0.0 ? density : 0.0;
}

bool ImportUrdfDialog::rememberedStrict() { return QSettings().value(kStrictKey, false).toBool(); }

bool ImportUrdfDialog::rememberedFloatingBase() { return QSettings().value(kFloatingKey, false).toBool(); }

bool ImportUrdfDialog::rememberedMergeFixed() { return QSettings().value(kMergeFixedKey, false).toBool(); }

double ImportUrdfDialog::density() const { return useDensity_->isChecked() ? density_->value() : 0.0; }

bool ImportUrdfDialog::strict() const { return strict_->isChecked(); }

bool ImportUrdfDialog::floatingBase() const { return floating_->isChecked(); }

bool ImportUrdfDialog::mergeFixed() const { return mergeFixed_->isChecked(); }

void ImportUrdfDialog::accept() {
  const QFileInfo info(QDir::fromNativeSeparators(path()));
  if (!info.isFile()) {
    QMessageBox::warning(this, tr("Import URDF"),
                         tr("%1 is not a file. Choose the robot's URDF file.").arg(QDir::toNativeSeparators(path())));
    return;
  }
  QSettings settings;
  settings.setValue(kPackagePathsKey, packagePaths());
  settings.setValue(kDensityKey, density());
  settings.setValue(kStrictKey, strict());
  settings.setValue(kFloatingKey, floatingBase());
  settings.setValue(kMergeFixedKey, mergeFixed());
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
