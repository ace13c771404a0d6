// SPDX-License-Identifier: BSD-3-Clause
// The property editor's inertial, shapes and applied-wrench sections (the page machinery is in
// properties_dock.cpp; body, joint, state, limits and drive in property_joint_sections.cpp).
#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>
#include <cmath>

#include "core/io/mesh.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "ui/document/document.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/editor/properties/properties_dock.hpp"
#include "ui/editor/properties/property_coordinates.hpp"
#include "ui/editor/properties/property_vectors.hpp"
#include "ui/shared/qt_text.hpp"

namespace kt::ui {
namespace {

constexpr kt::ShapeType kShapeTypes[] = {kt::ShapeType::Box,     kt::ShapeType::Cylinder, kt::ShapeType::Sphere,
                                         kt::ShapeType::Capsule, kt::ShapeType::Prism,    kt::ShapeType::Mesh};

kt::Shape defaultShape(kt::ShapeType type) {
  kt::Shape s;
  s.type = type;
  s.size = kt::Vec3(0.1, 0.1, 0.1);
  s.radius = 0.05;
  s.length = 0.2;
  return s;
}

QString shapeLabel(kt::ShapeType t) {
  QString name = q(kt::shapeTypeName(t));
  if (!name.isEmpty()) name[0] = name[0].toUpper();
  return name;
}

}  // namespace

void PropertiesDock::buildInertialSection() {
  QFormLayout* f = addSection(tr("Inertial"));
  const bool fromShapes = spec().inertial.fromShapes;
  QCheckBox* from = checkEdit(
      QStringLiteral("inertial.from_shapes"), tr("From shapes"), [this] { return spec().inertial.fromShapes; },
      [this](bool on, QString* e) { return edit::setFromShapes(*doc_, index(), on, e); });
  from->setToolTip(tr("Compute mass, centre of mass and inertia from the shapes at every change"));
  addRow(f, QString(), from);

  // Density: the body's own when it takes its mass from its shapes; otherwise the density used
  // by "Compute from shapes" (not part of the file).
  NumberListEdit* density = addNumbers(
      f, tr("Density (kg/m³)"), QStringLiteral("inertial.density"), 1,
      [this, fromShapes] { return Values{fromShapes ? spec().inertial.density : computeDensity_}; },
      [this, fromShapes](const Values& v, QString* e) -> QUndoCommand* {
        if (fromShapes) return edit::setDensity(*doc_, index(), v[0], e);
        if (!(v[0] > 0.0)) {
          if (e) *e = tr("the density must be > 0");
          return nullptr;
        }
        computeDensity_ = v[0];
        return nullptr;
      });
  density->setToolTip(fromShapes ? tr("Uniform density of the shapes")
                                 : tr("Density used by \"Compute from shapes\" (not stored in the file)"));
  auto* compute = new QPushButton(tr("Compute from shapes"));
  compute->setObjectName(QStringLiteral("inertial.compute"));
  compute->setToolTip(
      tr("Fill mass, centre of mass and inertia from the shapes at the density above "
         "(closed forms; meshes by the divergence theorem); one undo step"));
  connect(compute, &QPushButton::clicked, this, [this, compute] {
    commit(compute, [&](QString* e) {
      const double rho = spec().inertial.fromShapes ? spec().inertial.density : computeDensity_;
      return edit::computeInertialFromShapes(*doc_, index(), rho, e);
    });
  });
  bind(compute, nullptr,
       [this, compute] { compute->setEnabled(!spec().inertial.fromShapes && !spec().shapes.empty()); });
  addRow(f, QString(), compute);

  // Mass, centre of mass, inertia: the block's values, or (read-only) those computed from the shapes.
  const auto props = [this, fromShapes] {
    if (!fromShapes) {
      const kt::Inertial& in = spec().inertial;
      return kt::MassProperties{in.mass, in.com, in.inertia};
    }
    return kt::bodyMassProperties(spec(), model().sourceDirectory, kt::meshFiles());
  };
  NumberListEdit* mass = addNumbers(
      f, tr("Mass (kg)"), QStringLiteral("inertial.mass"), 1, [props] { return Values{props().mass}; },
      [this](const Values& v, QString* e) { return edit::setMass(*doc_, index(), v[0], e); });
  NumberListEdit* com = addNumbers(
      f, tr("CoM (m)"), QStringLiteral("inertial.com"), 3, [props] { return list(props().com); },
      [this](const Values& v, QString* e) { return edit::setCenterOfMass(*doc_, index(), vec3(v), e); });
  com->setToolTip(tr("Centre of mass in the body frame"));
  auto* grid = new QWidget;
  auto* g = new QGridLayout(grid);
  g->setContentsMargins(0, 0, 0, 0);
  g->setHorizontalSpacing(3);
  g->setVerticalSpacing(2);
  static constexpr int kRc[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  static constexpr const char* kNames[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  std::vector<NumberListEdit*> inertia;
  for (int k = 0; k < 6; ++k) {
    const int r = kRc[k][0], c = kRc[k][1];
    NumberListEdit* e = numberEdit(
        QStringLiteral("inertial.inertia.") + QLatin1String(kNames[k]), 1, DisplayUnit::Same, false,
        [props, r, c] { return Values{props().inertia(r, c)}; },
        [this, r, c](const Values& v, QString* e) {
          kt::Mat3 I = spec().inertial.inertia;
          I(r, c) = I(c, r) = v[0];
          return edit::setInertiaTensor(*doc_, index(), I, e);
        });
    e->setToolTip(QLatin1String(kNames[k]) + tr(" about the centre of mass, body axes (kg·m²)"));
    auto* label = new QLabel(QLatin1String(kNames[k] + 1));
    label->setBuddy(e);
    // One per row, the moments (xx, yy, zz) then the products, each as wide as the dock: two
    // columns cut values such as 0.05146666666666666 in a dock of the default width.
    g->addWidget(label, k, 0);
    g->addWidget(e, k, 1);
    g->setColumnStretch(1, 1);
    inertia.push_back(e);
  }
  addRow(f, tr("Inertia (kg·m²)"), grid);
  if (fromShapes) {
    inertia.push_back(mass);
    inertia.push_back(com);
    for (NumberListEdit* e : inertia) {
      e->setReadOnly(true);
      e->setToolTip(tr("Computed from the shapes (turn off \"from shapes\" to enter it)"));
    }
  }
}

void PropertiesDock::buildShapesSection() {
  QFormLayout* f = addSection(tr("Shapes"));
  const auto askMesh = [this]() -> QString {
    const QString dir = doc_->filePath().isEmpty() ? QString::fromStdString(model().sourceDirectory)
                                                   : QFileInfo(doc_->filePath()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Mesh file"), dir, tr("Meshes (*.stl *.obj);;All files (*)"));
    if (path.isEmpty() || dir.isEmpty()) return path;
    return QDir(dir).relativeFilePath(path);  // mesh paths are relative to the model file
  };
  const int count = static_cast<int>(spec().shapes.size());
  for (int k = 0; k < count; ++k) {
    const QString base = QStringLiteral("shapes[%1]").arg(k);
    const auto get = [this, k] { return spec().shapes[static_cast<std::size_t>(k)]; };
    const auto set = [this, k](const kt::Shape& s, QString* e) { return edit::setShape(*doc_, index(), k, s, e); };
    const auto change = [get, set](const std::function<void(kt::Shape&)>& how, QString* e) {
      kt::Shape s = get();
      how(s);
      return set(s, e);
    };
    if (k > 0) {
      auto* line = new QFrame;
      line->setFrameShape(QFrame::HLine);
      line->setFrameShadow(QFrame::Sunken);
      f->addRow(line);
    }
    // Header: type, colour, remove.
    auto* head = new QWidget;
    auto* h = new QHBoxLayout(head);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(3);
    QStringList types;
    for (kt::ShapeType t : kShapeTypes) types << shapeLabel(t);
    QComboBox* type = comboEdit(
        base + QStringLiteral(".type"), types,
        [get] {
          return static_cast<int>(std::find(std::begin(kShapeTypes), std::end(kShapeTypes), get().type) -
                                  std::begin(kShapeTypes));
        },
        [get, set, askMesh](int i, QString* e) -> QUndoCommand* {
          kt::Shape s = get();
          s.type = kShapeTypes[i];
          if (s.type == kt::ShapeType::Mesh && s.mesh.empty()) {
            s.mesh = askMesh().toStdString();
            if (s.mesh.empty()) return nullptr;
          }
          return set(s, e);
        });
    h->addWidget(type, 1);
    auto* color = new ColorButton;
    color->setObjectName(base + QStringLiteral(".color"));
    connect(color, &QPushButton::clicked, this, [this, color, get, set] {
      const Eigen::Vector4d c = get().color;
      const QColor initial = QColor::fromRgbF(static_cast<float>(c[0]), static_cast<float>(c[1]),
                                              static_cast<float>(c[2]), static_cast<float>(c[3]));
      const QColor chosen = QColorDialog::getColor(initial, this, tr("Shape colour"),
                                                   QColorDialog::ShowAlphaChannel | QColorDialog::DontUseNativeDialog);
      if (!chosen.isValid() || chosen == initial) return;
      commit(color, [&](QString* e) {
        kt::Shape s = get();
        const auto round = [](float x) { return std::round(static_cast<double>(x) * 1000.0) / 1000.0; };
        s.color = Eigen::Vector4d(round(chosen.redF()), round(chosen.greenF()), round(chosen.blueF()),
                                  round(chosen.alphaF()));
        return set(s, e);
      });
    });
    bind(color, nullptr, [color, get] { color->setColor(get().color); });
    h->addWidget(color);
    auto* remove = new QToolButton;
    remove->setObjectName(base + QStringLiteral(".remove"));
    remove->setText(QStringLiteral("✕"));
    remove->setToolTip(tr("Remove this shape"));
    remove->setAutoRaise(true);
    connect(remove, &QToolButton::clicked, this,
            [this, remove, k] { commit(remove, [&](QString* e) { return edit::removeShape(*doc_, index(), k, e); }); });
    bind(remove, nullptr, {});
    h->addWidget(remove);
    addRow(f, tr("Shape %1").arg(k + 1), head);

    addPlacementRows(
        f, base + QStringLiteral(".origin"), [get] { return get().origin; },
        [change](const kt::Placement& p, QString* e) { return change([&](kt::Shape& s) { s.origin = p; }, e); });
    const auto scalar = [&](const QString& label, const char* key, double kt::Shape::*member) {
      addNumbers(
          f, label, base + QLatin1Char('.') + QLatin1String(key), 1, [get, member] { return Values{get().*member}; },
          [change, member](const Values& v, QString* e) { return change([&](kt::Shape& s) { s.*member = v[0]; }, e); });
    };
    switch (get().type) {
      case kt::ShapeType::Box:
        addNumbers(
            f, tr("Size (m)"), base + QStringLiteral(".size"), 3, [get] { return list(get().size); },
            [change](const Values& v, QString* e) { return change([&](kt::Shape& s) { s.size = vec3(v); }, e); });
        break;
      case kt::ShapeType::Cylinder:
      case kt::ShapeType::Capsule:
        scalar(tr("Radius (m)"), "radius", &kt::Shape::radius);
        scalar(tr("Length (m)"), "length", &kt::Shape::length);
        break;
      case kt::ShapeType::Sphere: scalar(tr("Radius (m)"), "radius", &kt::Shape::radius); break;
      case kt::ShapeType::Prism:
        addNumbers(
            f, tr("Sides"), base + QStringLiteral(".sides"), 1, [get] { return Values{double(get().sides)}; },
            [change](const Values& v, QString* e) -> QUndoCommand* {
              if (v[0] != std::floor(v[0]) || std::abs(v[0]) > 1e6) {
                if (e) *e = tr("the number of sides must be a whole number");
                return nullptr;
              }
              return change([&](kt::Shape& s) { s.sides = static_cast<int>(v[0]); }, e);
            });
        scalar(tr("Circumradius (m)"), "radius", &kt::Shape::radius);
        scalar(tr("Length (m)"), "length", &kt::Shape::length);
        break;
      case kt::ShapeType::Mesh: {
        auto* fileRow = new QWidget;
        auto* fh = new QHBoxLayout(fileRow);
        fh->setContentsMargins(0, 0, 0, 0);
        fh->setSpacing(3);
        auto* file = new QLineEdit;
        file->setObjectName(base + QStringLiteral(".file"));
        file->setToolTip(tr("STL or OBJ file, relative to the model file"));
        connect(file, &QLineEdit::editingFinished, this, [this, file, get, change] {
          commit(file, [&](QString* e) -> QUndoCommand* {
            if (file->text().toStdString() == get().mesh) return nullptr;
            return change([&](kt::Shape& s) { s.mesh = file->text().toStdString(); }, e);
          });
        });
        bind(file, nullptr, [file, get] {
          if (file->hasFocus() && file->isModified()) return;
          if (const QString t = QString::fromStdString(get().mesh); t != file->text()) file->setText(t);
        });
        fh->addWidget(file, 1);
        auto* browse = new QToolButton;
        browse->setText(QStringLiteral("…"));
        browse->setToolTip(tr("Choose the mesh file"));
        connect(browse, &QToolButton::clicked, this, [this, file, askMesh, change] {
          const QString path = askMesh();
          if (path.isEmpty()) return;
          commit(file, [&](QString* e) { return change([&](kt::Shape& s) { s.mesh = path.toStdString(); }, e); });
        });
        fh->addWidget(browse);
        addRow(f, tr("Mesh file"), fileRow);
        addNumbers(
            f, tr("Scale"), base + QStringLiteral(".scale"), 3, [get] { return list(get().meshScale); },
            [change](const Values& v, QString* e) { return change([&](kt::Shape& s) { s.meshScale = vec3(v); }, e); });
        break;
      }
    }
  }
  // Add a shape of a chosen type (a mesh asks for its file first).
  auto* add = new QToolButton;
  add->setObjectName(QStringLiteral("shapes.add"));
  add->setText(tr("Add shape"));
  add->setPopupMode(QToolButton::InstantPopup);
  add->setToolButtonStyle(Qt::ToolButtonTextOnly);
  auto* menu = new QMenu(add);
  for (kt::ShapeType t : kShapeTypes) {
    QAction* a = menu->addAction(shapeLabel(t));
    a->setObjectName(QStringLiteral("shapes.add.") + q(kt::shapeTypeName(t)));
    connect(a, &QAction::triggered, this, [this, add, t, askMesh] {
      kt::Shape s = defaultShape(t);
      if (t == kt::ShapeType::Mesh) {
        s.mesh = askMesh().toStdString();
        if (s.mesh.empty()) return;
      }
      commit(add, [&](QString* e) { return edit::addShape(*doc_, index(), s, e); });
    });
  }
  add->setMenu(menu);
  bind(add, nullptr, {});
  addRow(f, count == 0 ? tr("No shapes") : QString(), add);
}

void PropertiesDock::buildWrenchSection() {
  QFormLayout* f = addSection(tr("Applied wrench"));
  NumberListEdit* moment = addNumbers(
      f, tr("Moment (N·m)"), QStringLiteral("applied_wrench.moment"), 3,
      [this] { return list(spec().appliedWrench.head<3>()); },
      [this](const Values& v, QString* e) {
        kt::Vec6 w = spec().appliedWrench;
        w.head<3>() = vec3(v);
        return edit::setAppliedWrench(*doc_, index(), w, e);
      });
  NumberListEdit* force = addNumbers(
      f, tr("Force (N)"), QStringLiteral("applied_wrench.force"), 3,
      [this] { return list(spec().appliedWrench.tail<3>()); },
      [this](const Values& v, QString* e) {
        kt::Vec6 w = spec().appliedWrench;
        w.tail<3>() = vec3(v);
        return edit::setAppliedWrench(*doc_, index(), w, e);
      });
  moment->setToolTip(tr("Constant moment in body coordinates"));
  force->setToolTip(tr("Constant force in body coordinates, applied at the body origin"));
}

}  // namespace kt::ui
