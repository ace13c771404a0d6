// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/mirror_dialog.hpp"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/shared/qt_text.hpp"

namespace kt::ui {
namespace {

/// "a", "a, b" or "a … z" for the names of `bodies` in `model`.
QString nameRange(const kt::Model& model, const std::vector<int>& bodies) {
  if (bodies.empty()) return {};
  QString first = q(model.bodies[bodies.front()].name);
  if (bodies.size() == 1) return first;
  const QString last = q(model.bodies[bodies.back()].name);
  return first + (bodies.size() == 2 ? QStringLiteral(", ") : QStringLiteral(" … ")) + last;
}

QLabel* note(const QString& text) {
  auto* label = new QLabel(text);
  label->setWordWrap(true);
  label->setForegroundRole(QPalette::PlaceholderText);
  label->setIndent(22);  // under the radio button's text
  return label;
}

bool hasNameChars(const QString& s) {
  // A fragment of a name: valid once a letter is put in front of it.
  return kt::isValidName("a" + s.toStdString());
}

}  // namespace

MirrorDialog::MirrorDialog(Document* document, int body, QWidget* parent)
    : QDialog(parent),
      document_(document),
      body_(body),
      plane_(new QButtonGroup(this)),
      copy_(new QRadioButton(tr("&Copy: add the mirrored subtree beside the original"))),
      inPlace_(new QRadioButton(tr("&In place: replace the subtree by its mirror (names kept)"))),
      mirrorImage_(new QRadioButton(tr("True &mirror image"))),
      mountOnly_(new QRadioButton(tr("Mount &only: identical arm on the opposite side"))),
      names_(new QGroupBox(tr("Names of the copy"))),
      renames_(new QTableWidget(0, 2)),
      addRow_(new QPushButton(tr("&Add"))),
      removeRow_(new QPushButton(tr("&Remove"))),
      suffix_(new QLineEdit(q(kt::MirrorOptions().suffix))),
      preview_(new QLabel),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
  setWindowTitle(tr("Mirror Subtree"));
  setObjectName(QStringLiteral("mirrorDialog"));
  const kt::Model& model = document_->model();
  const bool valid = body_ >= 0 && body_ < static_cast<int>(model.bodies.size());
  const QString rootName = valid ? q(model.bodies[body_].name) : QString();
  const QString parentName = valid ? q(model.bodies[body_].parent) : QString();
  const std::size_t count = valid ? kt::subtreeOf(model, body_).size() : 0;

  auto* intro = new QLabel(
      valid ? tr("Mirror the subtree of <b>%1</b> (%2) across a plane through the origin of its parent frame, "
                 "<b>%3</b>.")
                  .arg(rootName.toHtmlEscaped(), count == 1 ? tr("1 body") : tr("%1 bodies").arg(count),
                       parentName.toHtmlEscaped())
            : tr("No body is selected."));
  intro->setWordWrap(true);

  // ---- plane ----
  auto* planeBox = new QGroupBox(tr("Plane of %1's frame").arg(parentName));
  auto* planeLayout = new QVBoxLayout(planeBox);
  struct PlaneRow {
    kt::MirrorPlane plane;
    const char* name;
    QString sentence;
  };
  const PlaneRow rows[3] = {
      {kt::MirrorPlane::YZ, "YZ", tr("x changes sign: (x, y, z) → (−x, y, z); what is in front goes behind.")},
      {kt::MirrorPlane::ZX, "ZX", tr("y changes sign: (x, y, z) → (x, −y, z); the +y side goes to the −y side.")},
      {kt::MirrorPlane::XY, "XY", tr("z changes sign: (x, y, z) → (x, y, −z); what is above goes below.")},
  };
  for (const PlaneRow& r : rows) {
    auto* button = new QRadioButton(tr("%1 plane").arg(QLatin1String(r.name)));
    button->setObjectName(QStringLiteral("plane") + QLatin1String(r.name));
    plane_->addButton(button, static_cast<int>(r.plane));
    planeLayout->addWidget(button);
    planeLayout->addWidget(note(r.sentence));
  }
  // Default: the plane that sends the root's mount to the opposite side (its largest offset).
  kt::MirrorPlane initial = kt::MirrorOptions().plane;
  if (valid) {
    const kt::Vec3 xyz = model.bodies[body_].joint.origin.xyz.cwiseAbs();
    if (xyz.maxCoeff() > 0.0) {
      int axis = 0;
      xyz.maxCoeff(&axis);
      initial = axis == 0 ? kt::MirrorPlane::YZ : axis == 1 ? kt::MirrorPlane::ZX : kt::MirrorPlane::XY;
    }
  }
  plane_->button(static_cast<int>(initial))->setChecked(true);

  // ---- result ----
  auto* resultBox = new QGroupBox(tr("Result"));
  auto* resultLayout = new QVBoxLayout(resultBox);
  copy_->setObjectName(QStringLiteral("copy"));
  inPlace_->setObjectName(QStringLiteral("inPlace"));
  auto* placeGroup = new QButtonGroup(this);
  placeGroup->addButton(copy_);
  placeGroup->addButton(inPlace_);
  copy_->setChecked(true);
  resultLayout->addWidget(copy_);
  resultLayout->addWidget(inPlace_);

  // ---- kind ----
  auto* kindBox = new QGroupBox(tr("Mirror"));
  auto* kindLayout = new QVBoxLayout(kindBox);
  mirrorImage_->setObjectName(QStringLiteral("mirrorImage"));
  mountOnly_->setObjectName(QStringLiteral("mountOnly"));
  auto* kindGroup = new QButtonGroup(this);
  kindGroup->addButton(mirrorImage_);
  kindGroup->addButton(mountOnly_);
  mirrorImage_->setChecked(true);
  const QString imageText =
      tr("Every frame, shape, centre of mass, inertia and joint axis is reflected: at the same coordinates the "
         "mirrored joints move as the mirror image of the original (a left hand from a right hand).");
  const QString mountText =
      tr("Only the root's mount is mirrored; everything below keeps its local description. The result is the "
         "original subtree moved rigidly onto the mirrored mount: an identical arm on the opposite face, with the "
         "same joint axes and the same motion for the same coordinates (not the mirror image).");
  mirrorImage_->setToolTip(imageText);
  mountOnly_->setToolTip(mountText);
  kindLayout->addWidget(mirrorImage_);
  kindLayout->addWidget(note(imageText));
  kindLayout->addWidget(mountOnly_);
  kindLayout->addWidget(note(mountText));

  // ---- names ----
  renames_->setObjectName(QStringLiteral("renames"));
  renames_->setHorizontalHeaderLabels({tr("Replace"), tr("With")});
  renames_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  renames_->verticalHeader()->hide();
  renames_->setSelectionBehavior(QAbstractItemView::SelectRows);
  renames_->setToolTip(
      tr("Each pair replaces every occurrence of the first text by the second, in order, in the "
         "copied body and joint names"));
  renames_->setMinimumHeight(renames_->horizontalHeader()->sizeHint().height() +
                             4 * renames_->verticalHeader()->defaultSectionSize());
  addRow_->setObjectName(QStringLiteral("addRename"));
  removeRow_->setObjectName(QStringLiteral("removeRename"));
  suffix_->setObjectName(QStringLiteral("suffix"));
  suffix_->setToolTip(tr("Added to every copied name that no replacement changes"));
  auto* namesLayout = new QVBoxLayout(names_);
  auto* tableRow = new QHBoxLayout;
  auto* tableButtons = new QVBoxLayout;
  tableButtons->addWidget(addRow_);
  tableButtons->addWidget(removeRow_);
  tableButtons->addStretch();
  tableRow->addWidget(renames_);
  tableRow->addLayout(tableButtons);
  namesLayout->addLayout(tableRow);
  auto* suffixForm = new QFormLayout;
  suffixForm->addRow(tr("Otherwise add the &suffix:"), suffix_);
  namesLayout->addLayout(suffixForm);
  // A replacement proposed from the root's name (left ↔ right).
  for (const auto& [from, to] : {std::pair{"left", "right"}, {"right", "left"}, {"Left", "Right"}, {"Right", "Left"}})
    if (rootName.contains(QLatin1String(from))) {
      addRename(QLatin1String(from), QLatin1String(to));
      break;
    }

  preview_->setObjectName(QStringLiteral("preview"));
  preview_->setWordWrap(true);
  preview_->setTextFormat(Qt::PlainText);

  auto* columns = new QHBoxLayout;
  auto* left = new QVBoxLayout;
  left->addWidget(planeBox);
  left->addWidget(resultBox);
  left->addStretch();
  auto* right = new QVBoxLayout;
  right->addWidget(kindBox);
  right->addWidget(names_);
  columns->addLayout(left, 1);
  columns->addLayout(right, 1);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(columns);
  layout->addWidget(preview_);
  layout->addWidget(buttons_);
  resize(760, sizeHint().height());

  connect(buttons_, &QDialogButtonBox::accepted, this, &MirrorDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &MirrorDialog::reject);
  connect(addRow_, &QPushButton::clicked, this, [this] {
    addRename({}, {});
    renames_->setCurrentCell(renames_->rowCount() - 1, 0);
    renames_->editItem(renames_->item(renames_->rowCount() - 1, 0));
  });
  connect(removeRow_, &QPushButton::clicked, this, [this] {
    if (renames_->currentRow() >= 0) renames_->removeRow(renames_->currentRow());
    updatePreview();
  });
  connect(renames_, &QTableWidget::itemChanged, this, &MirrorDialog::updatePreview);
  connect(suffix_, &QLineEdit::textChanged, this, &MirrorDialog::updatePreview);
  connect(plane_, &QButtonGroup::idToggled, this, &MirrorDialog::updatePreview);
  connect(copy_, &QRadioButton::toggled, this, [this] {
    updateEnabled();
    updatePreview();
  });
  connect(mountOnly_, &QRadioButton::toggled, this, &MirrorDialog::updatePreview);
  updateEnabled();
  updatePreview();
}

MirrorDialog::~MirrorDialog() = default;

void MirrorDialog::addRename(const QString& from, const QString& to) {
  QSignalBlocker blocker(renames_);
  const int row = renames_->rowCount();
  renames_->insertRow(row);
  renames_->setItem(row, 0, new QTableWidgetItem(from));
  renames_->setItem(row, 1, new QTableWidgetItem(to));
  blocker.unblock();
  updatePreview();
}

kt::MirrorOptions MirrorDialog::options() const {
  kt::MirrorOptions o;
  o.plane = static_cast<kt::MirrorPlane>(plane_->checkedId());
  o.copy = copy_->isChecked();
  o.mountOnly = mountOnly_->isChecked();
  for (int r = 0; r < renames_->rowCount(); ++r) {
    const QTableWidgetItem* from = renames_->item(r, 0);
    const QTableWidgetItem* to = renames_->item(r, 1);
    const QString f = from ? from->text().trimmed() : QString();
    const QString t = to ? to->text().trimmed() : QString();
    if (f.isEmpty() && t.isEmpty()) continue;  // a blank row
    o.renames.emplace_back(f.toStdString(), t.toStdString());
  }
  o.suffix = suffix_->text().trimmed().toStdString();
  return o;
}

QString MirrorDialog::nameProblem() const {
  const kt::MirrorOptions o = options();
  if (!o.copy) return {};  // names are kept
  for (std::size_t i = 0; i < o.renames.size(); ++i) {
    const QString from = q(o.renames[i].first), to = q(o.renames[i].second);
    if (from.isEmpty()) return tr("replacement %1: the text to replace is empty").arg(i + 1);
    if (!hasNameChars(from) || (!to.isEmpty() && !hasNameChars(to)))
      return tr("replacement %1: names may only contain letters, digits, '_' and '-'").arg(i + 1);
  }
  if (!o.suffix.empty() && !hasNameChars(q(o.suffix)))
    return tr("the suffix may only contain letters, digits, '_' and '-'");
  return {};
}

QUndoCommand* MirrorDialog::makeCommand(QString* error) {
  if (const QString why = nameProblem(); !why.isEmpty()) {
    if (error) *error = why;
    return nullptr;
  }
  QString reason;
  QUndoCommand* command = edit::mirrorSubtree(*document_, body_, options(), &reason);
  if (error) *error = command ? QString() : reason;
  return command;
}

QUndoCommand* MirrorDialog::takeCommand() { return command_.release(); }

void MirrorDialog::accept() {
  QString error;
  std::unique_ptr<QUndoCommand> command(makeCommand(&error));
  if (!command) {
    preview_->setText(tr("Cannot mirror: %1").arg(error));
    preview_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    return;
  }
  command_ = std::move(command);
  QDialog::accept();
}

void MirrorDialog::updateEnabled() { names_->setEnabled(copy_->isChecked()); }

void MirrorDialog::updatePreview() {
  const kt::Model& model = document_->model();
  QString error = nameProblem();
  QString text;
  if (error.isEmpty()) {
    if (body_ < 0 || body_ >= static_cast<int>(model.bodies.size())) {
      error = tr("no such body");
    } else {
      const kt::MirrorOptions o = options();
      kt::Model after = model;
      int newRoot = -1;
      if (const kt::EditError e = kt::mirrorSubtree(after, body_, o, &newRoot)) {
        error = q(*e);
      } else if (o.copy) {
        const std::vector<int> added = kt::subtreeOf(after, newRoot);
        text = tr("Adds %1 %2: %3, beside %4 under %5")
                   .arg(added.size())
                   .arg(added.size() == 1 ? tr("body") : tr("bodies"), nameRange(after, added),
                        q(model.bodies[body_].name), q(model.bodies[body_].parent));
      } else {
        const std::vector<int> changed = kt::subtreeOf(model, body_);
        text = tr("Mirrors %1 %2 in place: %3")
                   .arg(changed.size())
                   .arg(changed.size() == 1 ? tr("body") : tr("bodies"), nameRange(model, changed));
      }
    }
  }
  if (!error.isEmpty()) {
    preview_->setText(tr("Cannot mirror: %1").arg(error));
    preview_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  } else {
    preview_->setText(text);
    preview_->setStyleSheet({});
  }
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(body_ >= 0 && body_ < static_cast<int>(model.bodies.size()));
}

}  // namespace kt::ui
