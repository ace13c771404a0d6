// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/template_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/io/model_yaml.hpp"

#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/editor/properties/property_widgets.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/shared/qt_text.hpp"

namespace kt::ui {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
constexpr int kMaxTableRows = 10000;  ///< as many links as insertArm takes

QString num(double x) { return QString::number(x, 'g', 6); }

// "z", "-x" for the coordinate axes, else "0.6, 0, 0.8".
QString axisText(const kt::Vec3& a) {
  for (int k = 0; k < 3; ++k) {
    if (a[k] != 0.0 && a[(k + 1) % 3] == 0.0 && a[(k + 2) % 3] == 0.0 && std::abs(a[k]) == 1.0)
      return QString(a[k] < 0 ? QStringLiteral("-") : QString()) + QLatin1Char("xyz"[k]);
  }
  return formatNumber(a.x()) + QStringLiteral(", ") + formatNumber(a.y()) + QStringLiteral(", ") + formatNumber(a.z());
}

// axisText's forms back (also with a Unicode minus), or three numbers separated by commas or spaces.
bool parseAxis(QString text, kt::Vec3& out) {
  text = text.trimmed().toLower().replace(QChar(0x2212), QLatin1Char('-'));
  const bool negative = text.startsWith(QLatin1Char('-'));
  const QString name = negative || text.startsWith(QLatin1Char('+')) ? text.mid(1) : text;
  if (name.size() == 1 && QStringLiteral("xyz").contains(name)) {
    out = kt::Vec3::Unit(QStringLiteral("xyz").indexOf(name)) * (negative ? -1.0 : 1.0);
    return true;
  }
  const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
  if (parts.size() != 3) return false;
  for (int k = 0; k < 3; ++k)
    if (!parseNumber(parts[k], out[k], nullptr)) return false;
  return true;
}

// A cell chosen from a fixed list: a combo box while it is edited, plain text otherwise.
class ChoiceDelegate : public QStyledItemDelegate {
 public:
  ChoiceDelegate(QStringList choices, QObject* parent) : QStyledItemDelegate(parent), choices_(std::move(choices)) {}
  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override {
    auto* box = new QComboBox(parent);
    box->addItems(choices_);
    return box;
  }
  void setEditorData(QWidget* editor, const QModelIndex& index) const override {
    auto* box = static_cast<QComboBox*>(editor);
    box->setCurrentIndex(std::max(0, box->findText(index.data().toString())));
  }
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override {
    model->setData(index, static_cast<QComboBox*>(editor)->currentText());
  }

 private:
  QStringList choices_;
};

QSpinBox* countBox(const QString& objectName, int value, const QString& tip) {
  auto* box = new QSpinBox;
  box->setObjectName(objectName);
  // The range admits refused values (0, more than the edit accepts) so that the dialog can say
  // why instead of clamping silently.
  box->setRange(0, 100000);
  box->setValue(value);
  box->setToolTip(tip);
  return box;
}

/// Names and total mass of the bodies appended to `after` (from index `first`).
QString describeAdded(const kt::Model& after, std::size_t first) {
  const std::size_t n = after.bodies.size() - first;
  if (n == 0) return {};
  double mass = 0.0;
  for (std::size_t i = first; i < after.bodies.size(); ++i) mass += after.bodies[i].inertial.mass;
  const QString firstName = q(after.bodies[first].name);
  const QString lastName = q(after.bodies.back().name);
  QString names = firstName;
  if (n == 2)
    names += QStringLiteral(", ") + lastName;
  else if (n > 2)
    names += QStringLiteral(" … ") + lastName;
  if (n == 1) return QObject::tr("Adds 1 body: %1, mass %2 kg").arg(names, num(mass));
  return QObject::tr("Adds %1: %2, total mass %3 kg")
      .arg(countText(n, QObject::tr("body"), QObject::tr("bodies")), names, num(mass));
}

}  // namespace

TemplateDialog::TemplateDialog(Document* document, const QString& parentBody, QWidget* parent)
    : QDialog(parent),
      document_(document),
      kindCombo_(new QComboBox),
      parentCombo_(new QComboBox),
      pages_(new QStackedWidget),
      kindHelp_(new QLabel),
      preview_(new QLabel),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
  setWindowTitle(tr("Insert Template"));
  setObjectName(QStringLiteral("templateDialog"));

  kindCombo_->setObjectName(QStringLiteral("kind"));
  kindCombo_->addItem(tr("Serial arm"), static_cast<int>(Kind::Arm));
  kindCombo_->addItem(tr("Chain"), static_cast<int>(Kind::Chain));
  kindCombo_->addItem(tr("Prism base"), static_cast<int>(Kind::PrismBase));

  parentCombo_->setObjectName(QStringLiteral("parent"));
  parentCombo_->addItem(QStringLiteral("world"));
  for (const kt::BodySpec& b : document_->model().bodies) parentCombo_->addItem(q(b.name));
  parentCombo_->setCurrentIndex(std::max(0, parentCombo_->findText(parentBody)));
  parentCombo_->setToolTip(tr("The body the new bodies hang from (world: a new root)"));

  kindHelp_->setWordWrap(true);
  kindHelp_->setForegroundRole(QPalette::PlaceholderText);

  auto* top = new QFormLayout;
  top->addRow(tr("&Template:"), kindCombo_);
  top->addRow(tr("&Parent:"), parentCombo_);

  pages_->addWidget(buildArmPage());
  pages_->addWidget(buildChainPage());
  pages_->addWidget(buildPrismPage());
  auto* parameters = new QGroupBox(tr("Parameters"));
  auto* parametersLayout = new QVBoxLayout(parameters);
  parametersLayout->addWidget(kindHelp_);
  parametersLayout->addWidget(pages_);

  preview_->setObjectName(QStringLiteral("preview"));
  preview_->setWordWrap(true);
  preview_->setTextFormat(Qt::PlainText);
  preview_->setMinimumHeight(preview_->fontMetrics().lineSpacing() * 2);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(parameters);
  layout->addWidget(buildPlacement());
  layout->addWidget(preview_);
  layout->addWidget(buttons_);

  connect(buttons_, &QDialogButtonBox::accepted, this, &TemplateDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &TemplateDialog::reject);
  connect(kindCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
    pages_->setCurrentIndex(index);
    updatePreview();
  });
  connect(parentCombo_, &QComboBox::currentIndexChanged, this, [this] {
    updateFaces();
    updatePreview();
  });
  updateFaces();
  // Every parameter widget refreshes the preview.
  for (QSpinBox* w : findChildren<QSpinBox*>())
    connect(w, &QSpinBox::valueChanged, this, &TemplateDialog::updatePreview);
  for (QDoubleSpinBox* w : findChildren<QDoubleSpinBox*>())
    connect(w, &QDoubleSpinBox::valueChanged, this, &TemplateDialog::updatePreview);
  for (QLineEdit* w : findChildren<QLineEdit*>())
    if (!qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
      connect(w, &QLineEdit::textChanged, this, &TemplateDialog::updatePreview);
  for (QComboBox* w : {chainJoint_, prismJoint_})
    connect(w, &QComboBox::currentIndexChanged, this, &TemplateDialog::updatePreview);
  constructed_ = true;
  updatePreview();
}

TemplateDialog::~TemplateDialog() = default;

// ---- pages ----

QDoubleSpinBox* TemplateDialog::length(const QString& objectName, double value, const QString& suffix,
                                       const QString& tip) {
  auto* box = new QDoubleSpinBox;
  box->setObjectName(objectName);
  box->setDecimals(4);
  box->setRange(-1e6, 1e6);  // refused values are explained, not clamped
  box->setSingleStep(0.05);
  box->setSuffix(suffix);
  box->setValue(value);
  box->setToolTip(tip);
  return box;
}

TemplateDialog::AxisEdit TemplateDialog::axisEdit(const QString& objectName, const kt::Vec3& value, QWidget** row) {
  AxisEdit e;
  auto* w = new QWidget;
  auto* h = new QHBoxLayout(w);
  h->setContentsMargins(0, 0, 0, 0);
  const char* parts[3] = {"x", "y", "z"};
  QDoubleSpinBox** boxes[3] = {&e.x, &e.y, &e.z};
  for (int k = 0; k < 3; ++k) {
    auto* box = new QDoubleSpinBox;
    box->setObjectName(objectName + QLatin1Char('.') + QLatin1String(parts[k]));
    box->setDecimals(4);
    box->setRange(-1e6, 1e6);
    box->setSingleStep(0.1);
    box->setValue(value[k]);
    box->setPrefix(QLatin1String(parts[k]) + QStringLiteral(" "));
    h->addWidget(box);
    *boxes[k] = box;
  }
  *row = w;
  return e;
}

QComboBox* TemplateDialog::jointCombo(const QString& objectName, kt::JointType value) {
  auto* box = new QComboBox;
  box->setObjectName(objectName);
  for (kt::JointType t : kt::kAllJointTypes) {
    box->addItem(q(kt::jointTypeName(t)), static_cast<int>(t));
    box->setItemData(box->count() - 1,
                     tr("%1 degree(s) of freedom, %2 position coordinate(s)")
                         .arg(QString::number(kt::jointNv(t)), QString::number(kt::jointNq(t))),
                     Qt::ToolTipRole);
  }
  box->setCurrentIndex(box->findData(static_cast<int>(value)));
  return box;
}

QWidget* TemplateDialog::buildArmPage() {
  const kt::ArmTemplate d;
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* form = new QFormLayout;
  armPreset_ = new QComboBox;
  armPreset_->setObjectName(QStringLiteral("arm.preset"));
  armPreset_->addItem(tr("(as in the table)"));
  for (const kt::ArmPreset& preset : kt::armPresets()) armPreset_->addItem(q(preset.name));
  armPreset_->setToolTip(tr("Fills the table with a common layout of joint axes and link lengths"));
  armLinks_ =
      countBox(QStringLiteral("arm.links"), static_cast<int>(d.links.size()), tr("Number of links (1 to 10000)"));
  armLinks_->setToolTip(tr("Number of links (1 to 10000); new rows copy the first row"));
  armMassMode_ = new QComboBox;
  armMassMode_->setObjectName(QStringLiteral("arm.massMode"));
  armMassMode_->addItem(tr("mass of each link (kg)"));
  armMassMode_->addItem(tr("density (kg/m³)"));
  armMassMode_->setToolTip(tr("What the table's mass column gives: each link is a solid of that mass or density"));
  armPrefix_ = new QLineEdit(q(d.prefix));
  armPrefix_->setObjectName(QStringLiteral("arm.prefix"));
  armPrefix_->setToolTip(tr("Links are named <prefix>1, <prefix>2, … (\"L1\" gives L11, L12, …)"));
  armJointPrefix_ = new QLineEdit;
  armJointPrefix_->setObjectName(QStringLiteral("arm.jointPrefix"));
  armJointPrefix_->setPlaceholderText(tr("as the links"));
  armJointPrefix_->setToolTip(tr("Joints are named <prefix>1, <prefix>2, …; empty: each joint takes its link's name"));
  auto* names = new QHBoxLayout;
  names->addWidget(armPrefix_);
  names->addWidget(new QLabel(tr("joints:")));
  names->addWidget(armJointPrefix_);
  form->addRow(tr("Preset:"), armPreset_);
  form->addRow(tr("Links:"), armLinks_);
  form->addRow(tr("Mass column:"), armMassMode_);
  form->addRow(tr("Name prefix:"), names);
  layout->addLayout(form);

  armTable_ = new QTableWidget(0, ArmColumns);
  armTable_->setObjectName(QStringLiteral("arm.table"));
  armTable_->setHorizontalHeaderLabels(
      {tr("Joint"), tr("Axis"), tr("Link"), tr("Length (m)"), tr("Width (m)"), tr("Mass (kg)"), tr("Drive")});
  armTable_->horizontalHeaderItem(AxisCol)->setToolTip(
      tr("x, y, z (or −x …) or three numbers, in the joint frame; z points out of a mounting face"));
  armTable_->horizontalHeaderItem(WidthCol)->setToolTip(tr("The cylinder's diameter or the box's section edge"));
  armTable_->horizontalHeaderItem(DriveCol)->setToolTip(
      tr("As in a model file, e.g. {type: pd_sinusoid, kp: 200, kd: 40, amplitude: 0.5, frequency: 0.1, phase: 0, "
         "offset: 0}; empty for none"));
  armTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  armTable_->horizontalHeader()->setSectionResizeMode(DriveCol, QHeaderView::Stretch);
  // one line per row: a long drive is cut at the end of its cell and shown whole in its tooltip
  armTable_->setWordWrap(false);
  armTable_->setTextElideMode(Qt::ElideRight);
  armTable_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  armTable_->setMinimumWidth(720);
  connect(armTable_, &QTableWidget::itemChanged, this, [](QTableWidgetItem* item) {
    if (item->column() == DriveCol && item->toolTip() != item->text()) item->setToolTip(item->text());
  });
  armTable_->setMinimumHeight(armTable_->verticalHeader()->defaultSectionSize() * 7);
  // joint type and link shape: chosen from a list when edited (a delegate: no widget per row)
  QStringList jointNames;
  for (kt::JointType t : kt::kAllJointTypes) jointNames << q(kt::jointTypeName(t));
  armTable_->setItemDelegateForColumn(JointCol, new ChoiceDelegate(jointNames, armTable_));
  armTable_->setItemDelegateForColumn(ShapeCol, new ChoiceDelegate({q(kt::shapeTypeName(kt::ShapeType::Cylinder)),
                                                                    q(kt::shapeTypeName(kt::ShapeType::Box))},
                                                                   armTable_));
  armTable_->setEditTriggers(QAbstractItemView::AllEditTriggers);
  layout->addWidget(armTable_);
  setArmLinks(d.links);

  connect(armLinks_, &QSpinBox::valueChanged, this, [this](int n) {
    if (fillingTable_) return;
    resizeArmTable(n);
  });
  connect(armPreset_, &QComboBox::activated, this, [this](int index) {
    if (index > 0) setArmLinks(kt::armPresets()[static_cast<std::size_t>(index - 1)].links);
  });
  connect(armMassMode_, &QComboBox::currentIndexChanged, this, [this](int mode) {
    armTable_->horizontalHeaderItem(MassCol)->setText(mode == 1 ? tr("Density (kg/m³)") : tr("Mass (kg)"));
    updatePreview();
  });
  connect(armTable_, &QTableWidget::itemChanged, this, [this] {
    if (fillingTable_) return;
    armPreset_->setCurrentIndex(0);  // edited: no longer the preset
    updatePreview();
  });
  return page;
}

void TemplateDialog::setArmRow(int r, const kt::ArmLink& link) {
  const bool filling = fillingTable_;
  fillingTable_ = true;
  const auto set = [this, r](int column, const QString& text) {
    if (QTableWidgetItem* item = armTable_->item(r, column))
      item->setText(text);
    else
      armTable_->setItem(r, column, new QTableWidgetItem(text));
  };
  set(JointCol, q(kt::jointTypeName(link.joint)));
  set(ShapeCol, q(kt::shapeTypeName(link.shape)));
  set(AxisCol, axisText(link.axis));
  set(LengthCol, formatNumber(link.length));
  set(WidthCol, formatNumber(link.width));
  set(MassCol, formatNumber(link.mass));
  set(DriveCol, link.drive.type == kt::DriveType::None ? QString() : q(kt::driveText(link.drive)));
  fillingTable_ = filling;
}

void TemplateDialog::resizeArmTable(int rows) {
  if (rows > kMaxTableRows) {  // refused with the edit's reason (armTemplate), the table kept
    updatePreview();
    return;
  }
  rows = std::max(rows, 0);
  const int old = armTable_->rowCount();
  if (rows == old) return;
  // new rows copy the first row as it reads now (a default link when it does not)
  kt::ArmLink first;
  if (old > 0) {
    QString ignored;
    const kt::ArmTemplate t = armTemplate(&ignored);
    if (!t.links.empty()) first = t.links.front();
  }
  fillingTable_ = true;
  armTable_->setRowCount(rows);
  for (int r = old; r < rows; ++r) setArmRow(r, first);
  fillingTable_ = false;
  updatePreview();
}

void TemplateDialog::setArmLinks(const std::vector<kt::ArmLink>& links) {
  fillingTable_ = true;
  armTable_->setRowCount(static_cast<int>(links.size()));
  for (int r = 0; r < static_cast<int>(links.size()); ++r) setArmRow(r, links[static_cast<std::size_t>(r)]);
  armLinks_->setValue(static_cast<int>(links.size()));
  fillingTable_ = false;
  updatePreview();
}

QWidget* TemplateDialog::buildChainPage() {
  const kt::ChainTemplate d;
  auto* page = new QWidget;
  auto* form = new QFormLayout(page);
  chainBodies_ = countBox(QStringLiteral("chain.bodies"), d.bodies, tr("Number of bodies (1 to 10000)"));
  chainJoint_ = jointCombo(QStringLiteral("chain.joint"), d.joint);
  chainAxis_ = axisEdit(QStringLiteral("chain.axis"), d.axis, &chainAxisRow_);
  chainAxisRow_->setToolTip(tr("Joint axis in each body's joint frame (universal: the first axis)"));
  chainSpacing_ =
      length(QStringLiteral("chain.spacing"), d.spacing, tr(" m"), tr("Distance between consecutive joints, along −z"));
  chainMass_ = length(QStringLiteral("chain.mass"), d.bodyMass, tr(" kg"), tr("Mass of each body (solid box)"));
  QWidget* boxRow = nullptr;
  chainBox_ = axisEdit(QStringLiteral("chain.box"), d.boxSize, &boxRow);
  for (QDoubleSpinBox* b : {chainBox_.x, chainBox_.y, chainBox_.z}) b->setSuffix(tr(" m"));
  boxRow->setToolTip(tr("Edge lengths of each body's box"));
  chainPrefix_ = new QLineEdit(q(d.prefix));
  chainPrefix_->setObjectName(QStringLiteral("chain.prefix"));
  chainPrefix_->setToolTip(tr("Bodies are named <prefix>_1, <prefix>_2, …"));
  form->addRow(tr("Bodies:"), chainBodies_);
  form->addRow(tr("Joint type:"), chainJoint_);
  form->addRow(tr("Joint axis:"), chainAxisRow_);
  form->addRow(tr("Spacing:"), chainSpacing_);
  form->addRow(tr("Body mass:"), chainMass_);
  form->addRow(tr("Box size:"), boxRow);
  form->addRow(tr("Name prefix:"), chainPrefix_);
  return page;
}

QWidget* TemplateDialog::buildPrismPage() {
  const kt::PrismBaseTemplate d;
  auto* page = new QWidget;
  auto* form = new QFormLayout(page);
  prismSides_ = countBox(QStringLiteral("prism.sides"), d.sides, tr("Number of sides (3 to 1024)"));
  prismRadius_ = length(QStringLiteral("prism.radius"), d.radius, tr(" m"),
                        tr("Circumradius: distance from the axis to each vertex"));
  prismHeight_ = length(QStringLiteral("prism.height"), d.height, tr(" m"), tr("Length along the body's z axis"));
  prismMass_ = length(QStringLiteral("prism.mass"), d.mass, tr(" kg"), tr("Mass of the base (solid prism)"));
  prismJoint_ = jointCombo(QStringLiteral("prism.joint"), d.joint);
  prismJoint_->setToolTip(tr("Joint to the parent (free: a floating base); its axis is z"));
  prismName_ = new QLineEdit(q(kt::uniqueName(d.name, kt::usedNames(document_->model()))));
  prismName_->setObjectName(QStringLiteral("prism.name"));
  prismName_->setToolTip(tr("Name of the base body (made unique when taken)"));
  prismJointName_ = new QLineEdit;
  prismJointName_->setObjectName(QStringLiteral("prism.jointName"));
  prismJointName_->setPlaceholderText(tr("as the body"));
  prismJointName_->setToolTip(tr("Name of its joint, e.g. base_joint (made unique when taken); empty: the body's"));
  form->addRow(tr("Sides:"), prismSides_);
  form->addRow(tr("Circumradius:"), prismRadius_);
  form->addRow(tr("Length:"), prismHeight_);
  form->addRow(tr("Mass:"), prismMass_);
  form->addRow(tr("Joint type:"), prismJoint_);
  form->addRow(tr("Name:"), prismName_);
  form->addRow(tr("Joint name:"), prismJointName_);
  return page;
}

QWidget* TemplateDialog::buildPlacement() {
  auto* group = new QGroupBox(tr("Placement of the first new body in the parent frame"));
  auto* form = new QFormLayout(group);
  QWidget* xyzRow = nullptr;
  QWidget* rpyRow = nullptr;
  xyz_ = axisEdit(QStringLiteral("base.xyz"), kt::Vec3::Zero(), &xyzRow);
  for (QDoubleSpinBox* b : {xyz_.x, xyz_.y, xyz_.z}) b->setSuffix(tr(" m"));
  rpyDeg_ = axisEdit(QStringLiteral("base.rpy"), kt::Vec3::Zero(), &rpyRow);
  const char* angles[3] = {"roll ", "pitch ", "yaw "};
  QDoubleSpinBox* rpyBoxes[3] = {rpyDeg_.x, rpyDeg_.y, rpyDeg_.z};
  for (int k = 0; k < 3; ++k) {
    rpyBoxes[k]->setObjectName(QStringLiteral("base.rpy.") + QLatin1String(angles[k]).trimmed());
    rpyBoxes[k]->setPrefix(QLatin1String(angles[k]));
    rpyBoxes[k]->setSuffix(QStringLiteral(" °"));
    rpyBoxes[k]->setDecimals(3);
    rpyBoxes[k]->setRange(-360.0, 360.0);
    rpyBoxes[k]->setSingleStep(15.0);
  }
  mountOn_ = new QComboBox;
  mountOn_->setObjectName(QStringLiteral("base.mountOn"));
  mountOn_->setToolTip(
      tr("Puts the first joint frame on a face of the parent's shapes: at the face centre, its z axis along the "
         "outward normal (an axis z points out of the face, x and y lie in it). Position and orientation stay "
         "editable."));
  connect(mountOn_, &QComboBox::activated, this, [this](int index) { mountOnFace(index - 1); });
  form->addRow(tr("Mount on:"), mountOn_);
  xyzRow->setToolTip(tr("Position of the first joint frame in the parent body's frame"));
  rpyRow->setToolTip(
      tr("Orientation of the first joint frame: roll about x, pitch about y, yaw about z "
         "(fixed axes), in degrees; the file stores radians"));
  form->addRow(tr("Position:"), xyzRow);
  form->addRow(tr("Orientation:"), rpyRow);
  for (QDoubleSpinBox* b : {xyz_.x, xyz_.y, xyz_.z, rpyDeg_.x, rpyDeg_.y, rpyDeg_.z}) {
    connect(b, &QDoubleSpinBox::valueChanged, this, [this] {
      if (settingPlacement_) return;
      facePlacement_.reset();  // edited by hand: the boxes' values from now on
      mountOn_->setCurrentIndex(0);
    });
  }
  return group;
}

void TemplateDialog::updateFaces() {
  const QString parent = parentBody();
  const int body = document_->model().findBody(parent.toStdString());
  faces_ = body >= 0 ? kt::mountFaces(document_->model().bodies[static_cast<std::size_t>(body)])
                     : std::vector<kt::MountFace>();
  facePlacement_.reset();
  mountOn_->clear();
  mountOn_->addItem(body >= 0 ? tr("(the position and orientation below)") : tr("(world: no shapes to mount on)"));
  for (const kt::MountFace& f : faces_) mountOn_->addItem(q(f.label));
  mountOn_->setEnabled(!faces_.empty());
}

void TemplateDialog::mountOnFace(int index) {
  if (index < 0 || index >= static_cast<int>(faces_.size())) return;
  const kt::Placement p = kt::facePlacement(faces_[static_cast<std::size_t>(index)]);
  const QDoubleSpinBox* boxes[6] = {xyz_.x, xyz_.y, xyz_.z, rpyDeg_.x, rpyDeg_.y, rpyDeg_.z};
  settingPlacement_ = true;
  for (int k = 0; k < 6; ++k) {
    auto* box = const_cast<QDoubleSpinBox*>(boxes[k]);
    box->setValue(k < 3 ? p.xyz[k] : (p.rpy[k - 3] / std::numbers::pi) * 180.0);
  }
  settingPlacement_ = false;
  // the boxes show 4 decimals; the joint gets the face's placement exactly until one is edited
  facePlacement_ = p;
  mountOn_->setCurrentIndex(index + 1);
  updatePreview();
}

// ---- parameters ----

void TemplateDialog::setKind(Kind kind) { kindCombo_->setCurrentIndex(kindCombo_->findData(static_cast<int>(kind))); }

TemplateDialog::Kind TemplateDialog::kind() const { return static_cast<Kind>(kindCombo_->currentData().toInt()); }

QString TemplateDialog::parentBody() const { return parentCombo_->currentText(); }

kt::Placement TemplateDialog::placement() const {
  if (facePlacement_) return *facePlacement_;
  kt::Placement p;
  p.xyz = kt::Vec3(xyz_.x->value(), xyz_.y->value(), xyz_.z->value());
  p.rpy = kt::Vec3(rpyDeg_.x->value(), rpyDeg_.y->value(), rpyDeg_.z->value()) * kDegree;
  return p;
}

kt::ArmTemplate TemplateDialog::armTemplate(QString* error) const {
  kt::ArmTemplate t;
  t.links.clear();
  t.byDensity = armMassMode_->currentIndex() == 1;
  t.prefix = armPrefix_->text().trimmed().toStdString();
  t.jointPrefix = armJointPrefix_->text().trimmed().toStdString();
  t.base = placement();
  QString problem;
  for (int r = 0; r < armTable_->rowCount(); ++r) {
    kt::ArmLink link;
    const auto cell = [this, r](int column) {
      const QTableWidgetItem* item = armTable_->item(r, column);
      return item ? item->text().trimmed() : QString();
    };
    const auto fail = [&](const QString& why) {
      if (problem.isEmpty()) problem = tr("link %1: %2").arg(r + 1).arg(why);
    };
    if (const auto type = kt::jointTypeFromName(cell(JointCol).toStdString()))
      link.joint = *type;
    else
      fail(tr("\"%1\" is not a joint type").arg(cell(JointCol)));
    const auto shape = kt::shapeTypeFromName(cell(ShapeCol).toStdString());
    if (shape == kt::ShapeType::Box || shape == kt::ShapeType::Cylinder)
      link.shape = *shape;
    else
      fail(tr("a link is a cylinder or a box, not \"%1\"").arg(cell(ShapeCol)));
    if (!parseAxis(cell(AxisCol), link.axis))
      fail(tr("the axis \"%1\" is not x, y, z, −x, −y, −z or three numbers").arg(cell(AxisCol)));
    const std::pair<int, double kt::ArmLink::*> numbers[] = {
        {LengthCol, &kt::ArmLink::length}, {WidthCol, &kt::ArmLink::width}, {MassCol, &kt::ArmLink::mass}};
    for (const auto& [column, member] : numbers) {
      QString why;
      if (!parseNumber(cell(column), link.*member, &why))
        fail(tr("%1: %2").arg(armTable_->horizontalHeaderItem(column)->text().toLower(), why));
    }
    const std::pair<kt::JointType, std::string> key{link.joint, cell(DriveCol).toStdString()};
    auto read = readDrives_.find(key);
    if (read == readDrives_.end()) {
      ReadDrive r;
      if (!kt::parseDriveText(key.second, link.joint, r.drive, r.error) && r.error.empty()) r.error = "not a drive";
      read = readDrives_.emplace(key, std::move(r)).first;
    }
    if (read->second.error.empty())
      link.drive = read->second.drive;
    else
      fail(tr("drive: %1").arg(q(read->second.error)));
    t.links.push_back(link);
  }
  // more links than a table may hold: the edit refuses the count (and says so)
  if (armLinks_->value() > static_cast<int>(t.links.size()) && !t.links.empty())
    t.links.resize(static_cast<std::size_t>(armLinks_->value()), t.links.front());
  if (error) *error = problem;
  return t;
}

kt::ChainTemplate TemplateDialog::chainTemplate() const {
  kt::ChainTemplate t;
  t.bodies = chainBodies_->value();
  t.joint = static_cast<kt::JointType>(chainJoint_->currentData().toInt());
  t.axis = kt::Vec3(chainAxis_.x->value(), chainAxis_.y->value(), chainAxis_.z->value());
  t.spacing = chainSpacing_->value();
  t.bodyMass = chainMass_->value();
  t.boxSize = kt::Vec3(chainBox_.x->value(), chainBox_.y->value(), chainBox_.z->value());
  t.prefix = chainPrefix_->text().trimmed().toStdString();
  t.base = placement();
  return t;
}

kt::PrismBaseTemplate TemplateDialog::prismTemplate() const {
  kt::PrismBaseTemplate t;
  t.sides = prismSides_->value();
  t.radius = prismRadius_->value();
  t.height = prismHeight_->value();
  t.mass = prismMass_->value();
  t.joint = static_cast<kt::JointType>(prismJoint_->currentData().toInt());
  t.name = prismName_->text().trimmed().toStdString();
  t.jointName = prismJointName_->text().trimmed().toStdString();
  t.base = placement();
  return t;
}

QString TemplateDialog::nameProblem() const {
  switch (kind()) {
    case Kind::Arm: {
      QString tableProblem;
      armTemplate(&tableProblem);
      if (!tableProblem.isEmpty()) return tableProblem;
      const QString jointPrefix = armJointPrefix_->text().trimmed();
      if (!jointPrefix.isEmpty() && !kt::isValidName(jointPrefix.toStdString()))
        return tr("the joint name prefix \"%1\" is not a valid name").arg(jointPrefix);
      [[fallthrough]];
    }
    case Kind::Chain: {
      const QString prefix = (kind() == Kind::Arm ? armPrefix_ : chainPrefix_)->text().trimmed();
      if (prefix.isEmpty()) return tr("the name prefix is empty");
      if (!kt::isValidName(prefix.toStdString()))
        return tr("the name prefix \"%1\" is not a valid name (letters, digits, '_' and '-', starting with a letter "
                  "or '_')")
            .arg(prefix);
      return {};
    }
    case Kind::PrismBase: {
      const QString name = prismName_->text().trimmed();
      if (name.isEmpty()) return tr("the name is empty");
      if (name == QStringLiteral("world")) return tr("\"world\" is reserved for the fixed frame");
      if (!kt::isValidName(name.toStdString()))
        return tr("\"%1\" is not a valid name (letters, digits, '_' and '-', starting with a letter or '_')").arg(name);
      const QString joint = prismJointName_->text().trimmed();
      if (!joint.isEmpty() && (joint == QStringLiteral("world") || !kt::isValidName(joint.toStdString())))
        return tr("the joint name \"%1\" is not a valid name (letters, digits, '_' and '-', starting with a letter "
                  "or '_')")
            .arg(joint);
      return {};
    }
  }
  return {};
}

void TemplateDialog::updateHelpAndAxes() {
  chainAxisRow_->setEnabled(kt::jointHasAxis(chainTemplate().joint));
  switch (kind()) {
    case Kind::Arm:
      kindHelp_->setText(
          tr("One row per joint and link: links along +z of their joint frames, each hinged at the tip of "
             "the previous one. Edit any cell; more links copy the first row."));
      break;
    case Kind::Chain: kindHelp_->setText(tr("Boxes hanging along −z, each jointed to the one above.")); break;
    case Kind::PrismBase:
      kindHelp_->setText(tr("One body: an n-sided prism about its z axis with its closed-form inertia."));
      break;
  }
}

// ---- command ----

QUndoCommand* TemplateDialog::makeCommand(QString* error) {
  if (const QString why = nameProblem(); !why.isEmpty()) {
    if (error) *error = why;
    return nullptr;
  }
  QString reason;
  QUndoCommand* command = nullptr;
  switch (kind()) {
    case Kind::Arm: command = edit::insertArm(*document_, parentBody(), armTemplate(), &reason); break;
    case Kind::Chain: command = edit::insertChain(*document_, parentBody(), chainTemplate(), &reason); break;
    case Kind::PrismBase: command = edit::insertPrismBase(*document_, parentBody(), prismTemplate(), &reason); break;
  }
  if (error) *error = command ? QString() : reason;
  return command;
}

QUndoCommand* TemplateDialog::takeCommand() { return command_.release(); }

void TemplateDialog::accept() {
  QString error;
  std::unique_ptr<QUndoCommand> command(makeCommand(&error));
  if (!command) {
    preview_->setText(tr("Cannot insert: %1").arg(error));
    preview_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    return;
  }
  command_ = std::move(command);
  QDialog::accept();
}

void TemplateDialog::updatePreview() {
  if (!constructed_) return;  // the pages fill their tables while the dialog is being built
  updateHelpAndAxes();
  QString error = nameProblem();
  kt::Model after = document_->model();
  const std::size_t first = after.bodies.size();
  if (error.isEmpty()) {
    const std::string parent = parentBody().toStdString();
    kt::EditError e;
    switch (kind()) {
      case Kind::Arm: e = kt::insertArm(after, parent, armTemplate()); break;
      case Kind::Chain: e = kt::insertChain(after, parent, chainTemplate()); break;
      case Kind::PrismBase: e = kt::insertPrismBase(after, parent, prismTemplate()); break;
    }
    if (e) error = q(*e);
  }
  if (!error.isEmpty()) {
    preview_->setText(tr("Cannot insert: %1").arg(error));
    preview_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  } else {
    preview_->setText(describeAdded(after, first));
    preview_->setStyleSheet({});
  }
}

}  // namespace kt::ui
