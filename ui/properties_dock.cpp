#include "ui/properties_dock.hpp"

#include <QHeaderView>
#include <QTreeWidget>

#include "core/model/tree.hpp"

namespace kt::ui {

namespace {

QString number(double x) { return QString::number(x, 'g', 6); }

QString vec(const kt::Vec3& v) {
  return QStringLiteral("(%1, %2, %3)").arg(number(v.x()), number(v.y()), number(v.z()));
}

QString list(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << number(v);
  return QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
}

QString placement(const kt::Placement& p) {
  if (p.useQuaternion) {
    return QStringLiteral("xyz %1, quaternion (%2, %3, %4, %5)")
        .arg(vec(p.xyz), number(p.quat[0]), number(p.quat[1]), number(p.quat[2]), number(p.quat[3]));
  }
  return QStringLiteral("xyz %1, rpy %2").arg(vec(p.xyz), vec(p.rpy));
}

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<int>(s.size())); }

QString shapeName(kt::ShapeType type) {
  switch (type) {
    case kt::ShapeType::Box: return QStringLiteral("box");
    case kt::ShapeType::Cylinder: return QStringLiteral("cylinder");
    case kt::ShapeType::Sphere: return QStringLiteral("sphere");
    case kt::ShapeType::Capsule: return QStringLiteral("capsule");
    case kt::ShapeType::Prism: return QStringLiteral("prism");
    case kt::ShapeType::Mesh: return QStringLiteral("mesh");
  }
  return {};
}

QString shapeSummary(const kt::Shape& s) {
  switch (s.type) {
    case kt::ShapeType::Box: return QStringLiteral("box %1").arg(vec(s.size));
    case kt::ShapeType::Cylinder:
    case kt::ShapeType::Capsule:
      return QStringLiteral("%1 r %2, length %3").arg(shapeName(s.type), number(s.radius), number(s.length));
    case kt::ShapeType::Sphere: return QStringLiteral("sphere r %1").arg(number(s.radius));
    case kt::ShapeType::Prism:
      return QStringLiteral("prism %1 sides, r %2, length %3").arg(s.sides).arg(number(s.radius), number(s.length));
    case kt::ShapeType::Mesh: return QStringLiteral("mesh %1").arg(QString::fromStdString(s.mesh));
  }
  return {};
}

}  // namespace

PropertiesDock::PropertiesDock(QWidget* parent)
    : QDockWidget(tr("Properties"), parent), fields_(new QTreeWidget(this)) {
  setObjectName(QStringLiteral("propertiesDock"));
  fields_->setColumnCount(2);
  fields_->setHeaderLabels({tr("Field"), tr("Value")});
  fields_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  fields_->setSelectionMode(QAbstractItemView::NoSelection);
  fields_->setUniformRowHeights(true);
  setWidget(fields_);
}

QTreeWidgetItem* PropertiesDock::addRow(QTreeWidgetItem* parent, const QString& field, const QString& value) {
  auto* item = new QTreeWidgetItem({field, value});
  item->setToolTip(1, value);
  if (parent != nullptr) {
    parent->addChild(item);
  } else {
    fields_->addTopLevelItem(item);
  }
  return item;
}

void PropertiesDock::clear() { fields_->clear(); }

void PropertiesDock::showModel(const kt::Model& model, const kt::Tree& tree) {
  clear();
  addRow(nullptr, tr("Model"), QString::fromStdString(model.name));
  if (!model.description.empty()) addRow(nullptr, tr("Description"), QString::fromStdString(model.description));
  addRow(nullptr, tr("Bodies"), QString::number(tree.nb));
  addRow(nullptr, tr("Coordinates"), tr("nq %1, nv %2").arg(tree.nq).arg(tree.nv));
  addRow(nullptr, tr("Total mass"), number(tree.totalMass()) + QStringLiteral(" kg"));
  addRow(nullptr, tr("Gravity"), vec(model.gravity) + QStringLiteral(" m/s²"));
  const kt::SimulationSettings& sim = model.simulation;
  QTreeWidgetItem* s = addRow(nullptr, tr("Simulation"), QString::fromStdString(sim.solver));
  addRow(s, tr("Integrator"), QString::fromStdString(sim.integrator));
  addRow(s, tr("Step"), number(sim.step) + QStringLiteral(" s"));
  addRow(s, tr("Duration"), number(sim.duration) + QStringLiteral(" s"));
  addRow(s, tr("Tolerance"), number(sim.tolerance));
  fields_->expandAll();
}

void PropertiesDock::showBody(const kt::Model& model, const kt::Tree& tree, int index) {
  clear();
  if (index < 0 || index >= tree.nb) return;
  const kt::BodySpec& body = model.bodies[tree.specIndex[index]];
  addRow(nullptr, tr("Body"), QString::fromStdString(body.name));
  addRow(nullptr, tr("Parent"), QString::fromStdString(body.parent));
  addRow(
      nullptr, tr("Joint"),
      QStringLiteral("%1 (%2)").arg(QString::fromStdString(body.joint.name), text(kt::jointTypeName(body.joint.type))));
  const kt::MassProperties mp = kt::bodyMassProperties(body);
  QTreeWidgetItem* inertial = addRow(
      nullptr, tr("Inertial"),
      body.inertial.fromShapes ? tr("from shapes, density %1 kg/m³").arg(number(body.inertial.density)) : tr("given"));
  addRow(inertial, tr("Mass"), number(mp.mass) + QStringLiteral(" kg"));
  addRow(inertial, tr("Centre of mass"), vec(mp.com) + QStringLiteral(" m"));
  const kt::Mat3& I = mp.inertia;
  addRow(inertial, tr("Ixx, Iyy, Izz"), vec(I.diagonal()) + QStringLiteral(" kg m²"));
  addRow(inertial, tr("Ixy, Ixz, Iyz"), vec(kt::Vec3(I(0, 1), I(0, 2), I(1, 2))) + QStringLiteral(" kg m²"));
  QTreeWidgetItem* shapes = addRow(nullptr, tr("Shapes"), QString::number(body.shapes.size()));
  for (const kt::Shape& s : body.shapes) {
    QTreeWidgetItem* row = addRow(shapes, shapeName(s.type), shapeSummary(s));
    addRow(row, tr("Placement"), placement(s.origin));
    addRow(row, tr("Colour"),
           QStringLiteral("(%1, %2, %3, %4)")
               .arg(number(s.color[0]), number(s.color[1]), number(s.color[2]), number(s.color[3])));
  }
  if (body.appliedWrench.norm() > 0.0) {
    addRow(nullptr, tr("Applied moment"), vec(body.appliedWrench.head<3>()) + QStringLiteral(" N m"));
    addRow(nullptr, tr("Applied force"), vec(body.appliedWrench.tail<3>()) + QStringLiteral(" N"));
  }
  fields_->expandAll();
}

void PropertiesDock::showJoint(const kt::Model& model, const kt::Tree& tree, int index) {
  clear();
  if (index < 0 || index >= tree.nb) return;
  const kt::BodySpec& body = model.bodies[tree.specIndex[index]];
  const kt::JointSpec& joint = body.joint;
  const kt::JointType type = joint.type;
  addRow(nullptr, tr("Joint"), QString::fromStdString(joint.name));
  addRow(nullptr, tr("Type"), text(kt::jointTypeName(type)));
  addRow(nullptr, tr("Connects"),
         QStringLiteral("%1 → %2").arg(QString::fromStdString(body.parent), QString::fromStdString(body.name)));
  addRow(nullptr, tr("Coordinates"),
         tr("nq %1, nv %2 (q[%3], v[%4])")
             .arg(kt::jointNq(type))
             .arg(kt::jointNv(type))
             .arg(tree.qOffset[index])
             .arg(tree.vOffset[index]));
  addRow(nullptr, tr("Origin"), placement(joint.origin));
  if (kt::jointHasAxis(type)) {
    addRow(nullptr, type == kt::JointType::Planar ? tr("Normal") : tr("Axis"), vec(joint.axis));
  }
  if (type == kt::JointType::Universal) addRow(nullptr, tr("Second axis"), vec(joint.axis2));
  if (!joint.q0.empty()) addRow(nullptr, tr("Initial position"), list(joint.q0));
  if (!joint.v0.empty()) addRow(nullptr, tr("Initial velocity"), list(joint.v0));
  if (!joint.limits.empty()) {
    QStringList parts;
    for (const kt::Limit& l : joint.limits) parts << QStringLiteral("[%1, %2]").arg(number(l.lower), number(l.upper));
    addRow(nullptr, tr("Display limits"), parts.join(QStringLiteral(", ")));
  }
  static const char* const driveNames[] = {"none",        "constant",     "sinusoid",
                                           "pd_sinusoid", "pd_piecewise", "spring_damper"};
  addRow(nullptr, tr("Drive"), QString::fromLatin1(driveNames[static_cast<int>(joint.drive.type)]));
  fields_->expandAll();
}

}  // namespace kt::ui
