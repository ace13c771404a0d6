// SPDX-License-Identifier: BSD-3-Clause
#include "ui/template_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <numbers>

#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"

namespace kt::ui {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

QString q(const std::string& s) { return QString::fromStdString(s); }
QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString num(double x) { return QString::number(x, 'g', 6); }

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
  return QObject::tr("Adds %1 bodies: %2, total mass %3 kg").arg(QString::number(n), names, num(mass));
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
  connect(parentCombo_, &QComboBox::currentIndexChanged, this, &TemplateDialog::updatePreview);
  // Every parameter widget refreshes the preview.
  for (QSpinBox* w : findChildren<QSpinBox*>())
    connect(w, &QSpinBox::valueChanged, this, &TemplateDialog::updatePreview);
  for (QDoubleSpinBox* w : findChildren<QDoubleSpinBox*>())
    connect(w, &QDoubleSpinBox::valueChanged, this, &TemplateDialog::updatePreview);
  for (QLineEdit* w : findChildren<QLineEdit*>())
    if (!qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
      connect(w, &QLineEdit::textChanged, this, &TemplateDialog::updatePreview);
  for (QComboBox* w : {armJoint_, chainJoint_, prismJoint_})
    connect(w, &QComboBox::currentIndexChanged, this, &TemplateDialog::updatePreview);
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
  auto* form = new QFormLayout(page);
  armLinks_ = countBox(QStringLiteral("arm.links"), d.links, tr("Number of links (1 to 10000)"));
  armJoint_ = jointCombo(QStringLiteral("arm.joint"), d.joint);
  armAxis_ = axisEdit(QStringLiteral("arm.axis"), d.axis, &armAxisRow_);
  armAxisRow_->setToolTip(tr("Joint axis in each link's joint frame (universal: the first axis)"));
  armLength_ = length(QStringLiteral("arm.length"), d.linkLength, tr(" m"),
                      tr("Length of each link; the next joint sits at the tip of the previous link"));
  armRadius_ = length(QStringLiteral("arm.radius"), d.linkRadius, tr(" m"), tr("Radius of each link's cylinder"));
  armMass_ = length(QStringLiteral("arm.mass"), d.linkMass, tr(" kg"), tr("Mass of each link (solid cylinder)"));
  armPrefix_ = new QLineEdit(q(d.prefix));
  armPrefix_->setObjectName(QStringLiteral("arm.prefix"));
  armPrefix_->setToolTip(tr("Links are named <prefix>_1, <prefix>_2, …"));
  form->addRow(tr("Links:"), armLinks_);
  form->addRow(tr("Joint type:"), armJoint_);
  form->addRow(tr("Joint axis:"), armAxisRow_);
  form->addRow(tr("Link length:"), armLength_);
  form->addRow(tr("Link radius:"), armRadius_);
  form->addRow(tr("Link mass:"), armMass_);
  form->addRow(tr("Name prefix:"), armPrefix_);
  return page;
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
  prismHeight_ = length(QStringLiteral("prism.height"), d.height, tr(" m"), tr("Height along the body's z axis"));
  prismMass_ = length(QStringLiteral("prism.mass"), d.mass, tr(" kg"), tr("Mass of the base (solid prism)"));
  prismJoint_ = jointCombo(QStringLiteral("prism.joint"), d.joint);
  prismJoint_->setToolTip(tr("Joint to the parent (free: a floating base); its axis is z"));
  prismName_ = new QLineEdit(q(kt::uniqueName(d.name, kt::usedNames(document_->model()))));
  prismName_->setObjectName(QStringLiteral("prism.name"));
  prismName_->setToolTip(tr("Name of the base body (made unique when taken)"));
  form->addRow(tr("Sides:"), prismSides_);
  form->addRow(tr("Radius:"), prismRadius_);
  form->addRow(tr("Height:"), prismHeight_);
  form->addRow(tr("Mass:"), prismMass_);
  form->addRow(tr("Joint type:"), prismJoint_);
  form->addRow(tr("Name:"), prismName_);
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
  xyzRow->setToolTip(tr("Position of the first joint frame in the parent body's frame"));
  rpyRow->setToolTip(
      tr("Orientation of the first joint frame: roll about x, pitch about y, yaw about z "
         "(fixed axes), in degrees; the file stores radians"));
  form->addRow(tr("Position:"), xyzRow);
  form->addRow(tr("Orientation:"), rpyRow);
  return group;
}

// ---- parameters ----

void TemplateDialog::setKind(Kind kind) { kindCombo_->setCurrentIndex(kindCombo_->findData(static_cast<int>(kind))); }

TemplateDialog::Kind TemplateDialog::kind() const { return static_cast<Kind>(kindCombo_->currentData().toInt()); }

QString TemplateDialog::parentBody() const { return parentCombo_->currentText(); }

kt::Placement TemplateDialog::placement() const {
  kt::Placement p;
  p.xyz = kt::Vec3(xyz_.x->value(), xyz_.y->value(), xyz_.z->value());
  p.rpy = kt::Vec3(rpyDeg_.x->value(), rpyDeg_.y->value(), rpyDeg_.z->value()) * kDegree;
  return p;
}

kt::ArmTemplate TemplateDialog::armTemplate() const {
  kt::ArmTemplate t;
  t.links = armLinks_->value();
  t.joint = static_cast<kt::JointType>(armJoint_->currentData().toInt());
  t.axis = kt::Vec3(armAxis_.x->value(), armAxis_.y->value(), armAxis_.z->value());
  t.linkLength = armLength_->value();
  t.linkRadius = armRadius_->value();
  t.linkMass = armMass_->value();
  t.prefix = armPrefix_->text().trimmed().toStdString();
  t.base = placement();
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
  t.base = placement();
  return t;
}

QString TemplateDialog::nameProblem() const {
  switch (kind()) {
    case Kind::Arm:
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
      return {};
    }
  }
  return {};
}

void TemplateDialog::updateHelpAndAxes() {
  armAxisRow_->setEnabled(kt::jointHasAxis(armTemplate().joint));
  chainAxisRow_->setEnabled(kt::jointHasAxis(chainTemplate().joint));
  switch (kind()) {
    case Kind::Arm:
      kindHelp_->setText(
          tr("Cylindrical links along +z of their joint frames, each hinged at the tip of the "
             "previous one."));
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
