// SPDX-License-Identifier: BSD-3-Clause
// The property editor's body, joint, initial-state, limits, motion and drive sections (the page
// machinery is in properties_dock.cpp; inertial data, shapes and loads in property_sections.cpp).
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <algorithm>
#include <numbers>

#include "core/io/model_yaml.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/editor/properties/motion_preview.hpp"
#include "ui/editor/properties/properties_dock.hpp"
#include "ui/editor/properties/property_coordinates.hpp"
#include "ui/editor/properties/property_vectors.hpp"
#include "ui/shared/qt_text.hpp"

namespace kt::ui {
namespace {

constexpr kt::DriveType kDriveTypes[] = {
    kt::DriveType::None,        kt::DriveType::Constant,     kt::DriveType::Sinusoid, kt::DriveType::PdSinusoid,
    kt::DriveType::PdPiecewise, kt::DriveType::SpringDamper, kt::DriveType::Table};

// A drive of type `type` for a joint with `nv` coordinates: the parameters that type uses, taken
// from `old` where they fit, defaults otherwise (a PD drive starts with kp 100, kd 10 and a target
// at 0; a spring-damper with stiffness 10 and damping 1).
kt::Drive driveOfType(const kt::Drive& old, kt::DriveType type, int nv) {
  kt::Drive d;
  d.type = type;
  const auto take = [nv](const std::vector<double>& from, std::vector<double>& to, double fallback) {
    to = static_cast<int>(from.size()) == nv ? from : std::vector<double>(static_cast<std::size_t>(nv), fallback);
  };
  switch (type) {
    case kt::DriveType::None: break;
    case kt::DriveType::Constant: take(old.value, d.value, 0.0); break;
    case kt::DriveType::Sinusoid:
    case kt::DriveType::PdSinusoid:
      take(old.amplitude, d.amplitude, 0.0);
      take(old.frequency, d.frequency, 0.5);
      take(old.phase, d.phase, 0.0);
      take(old.offset, d.offset, 0.0);
      break;
    case kt::DriveType::PdPiecewise:
      d.knots = static_cast<int>(old.knots.size()) == nv
                    ? old.knots
                    : std::vector<std::vector<kt::Knot>>(static_cast<std::size_t>(nv), {{0.0, 0.0}});
      break;
    case kt::DriveType::SpringDamper:
      take(old.stiffness, d.stiffness, 10.0);
      take(old.damping, d.damping, 1.0);
      take(old.restPosition, d.restPosition, 0.0);
      break;
    case kt::DriveType::Table: d.file = old.file; break;
  }
  if (type == kt::DriveType::PdSinusoid || type == kt::DriveType::PdPiecewise) {
    const bool gains = old.kp != 0.0 || old.kd != 0.0;
    d.kp = gains ? old.kp : 100.0;
    d.kd = gains ? old.kd : 10.0;
  }
  return d;
}

QString formatKnots(const std::vector<kt::Knot>& knots) {
  QStringList parts;
  for (const kt::Knot& k : knots) parts << formatNumber(k.t) + QStringLiteral(", ") + formatNumber(k.value);
  return parts.join(QStringLiteral("; "));
}

// "t, value; t, value; …" (pairs separated by ';', the two numbers by ',' or spaces).
bool parseKnots(const QString& text, std::vector<kt::Knot>& out, QString* error) {
  out.clear();
  static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
  for (const QString& pair : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
    const QStringList xy = pair.trimmed().split(sep, Qt::SkipEmptyParts);
    if (xy.isEmpty()) continue;
    kt::Knot k;
    if (xy.size() != 2) {
      if (error)
        *error = QObject::tr("each knot is 'time, value' (knots separated by ';'), got '%1'").arg(pair.trimmed());
      return false;
    }
    if (!parseNumber(xy[0], k.t, error) || !parseNumber(xy[1], k.value, error)) return false;
    out.push_back(k);
  }
  return true;
}

constexpr kt::MotionType kMotionTypes[] = {kt::MotionType::None, kt::MotionType::Spline, kt::MotionType::RestToRest,
                                           kt::MotionType::Sinusoid, kt::MotionType::Table};

// A motion of `type` for a joint with `nv` coordinates that starts where the joint is (q0): a
// spline that holds it for a second, a half-radian (or 0.1 m) move from 0.5 s to 1.5 s, a sinusoid
// about it. The user edits the numbers from there.
kt::Motion motionOfType(kt::MotionType type, const kt::JointSpec& joint, int nv) {
  kt::Motion m;
  m.type = type;
  const auto start = [&](int k) {
    return static_cast<int>(joint.q0.size()) == nv ? joint.q0[static_cast<std::size_t>(k)] : 0.0;
  };
  for (int k = 0; k < nv; ++k) {
    const double q = start(k), step = isAngular(joint.type, k) ? 0.5 : 0.1;
    switch (type) {
      case kt::MotionType::None:
      case kt::MotionType::Table: break;
      case kt::MotionType::Spline: m.knots.push_back({{0.0, q}, {1.0, q + step}, {2.0, q}}); break;
      case kt::MotionType::RestToRest: m.moves.push_back({{0.5, 1.5, q, q + step}}); break;
      case kt::MotionType::Sinusoid:
        m.amplitude.push_back(step);
        m.frequency.push_back(0.5);
        m.phase.push_back(0.0);
        m.offset.push_back(q);
        break;
    }
  }
  return m;
}

QString formatMoves(const std::vector<kt::Move>& moves) {
  QStringList parts;
  for (const kt::Move& m : moves)
    parts << QStringList{formatNumber(m.ta), formatNumber(m.tb), formatNumber(m.qa), formatNumber(m.qb)}.join(
        QStringLiteral(", "));
  return parts.join(QStringLiteral("; "));
}

// "t_a, t_b, q_a, q_b; …" (moves separated by ';', the numbers by ',' or spaces).
bool parseMoves(const QString& text, std::vector<kt::Move>& out, QString* error) {
  out.clear();
  static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
  for (const QString& part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
    const QStringList x = part.trimmed().split(sep, Qt::SkipEmptyParts);
    if (x.isEmpty()) continue;
    if (x.size() != 4) {
      if (error)
        *error =
            QObject::tr("each move is 't_a, t_b, q_a, q_b' (moves separated by ';'), got '%1'").arg(part.trimmed());
      return false;
    }
    kt::Move m;
    if (!parseNumber(x[0], m.ta, error) || !parseNumber(x[1], m.tb, error) || !parseNumber(x[2], m.qa, error) ||
        !parseNumber(x[3], m.qb, error))
      return false;
    out.push_back(m);
  }
  return true;
}

}  // namespace

// ---- body page: body, joint, state, limits, motion, drive ----

void PropertiesDock::buildBodySection() {
  QFormLayout* f = addSection(tr("Body"));
  addText(
      f, tr("Name"), QStringLiteral("name"), [this] { return q(spec().name); },
      [this](const QString& t, QString* e) { return edit::renameBody(*doc_, index(), t, e); });
  // Parent: the world or any body outside this body's subtree (a move in the tree).
  auto* parent = new QComboBox;
  parent->setObjectName(QStringLiteral("parent"));
  narrow(parent);
  connect(parent, &QComboBox::activated, this, [this, parent](int i) {
    commit(parent, [&](QString* e) -> QUndoCommand* {
      if (parent->itemText(i) == q(spec().parent)) return nullptr;
      return edit::reparent(*doc_, index(), parent->itemText(i), false, e);
    });
  });
  bind(parent, nullptr, [this, parent] {
    QStringList items{QStringLiteral("world")};
    const std::vector<int> below = kt::subtreeOf(model(), index());
    for (std::size_t k = 0; k < model().bodies.size(); ++k)
      if (std::find(below.begin(), below.end(), static_cast<int>(k)) == below.end()) items << q(model().bodies[k].name);
    QStringList shown;
    for (int i = 0; i < parent->count(); ++i) shown << parent->itemText(i);
    if (shown != items) {
      parent->clear();
      parent->addItems(items);
    }
    parent->setCurrentIndex(static_cast<int>(items.indexOf(q(spec().parent))));
  });
  parent->setToolTip(tr("Moving a body keeps its joint placement relative to the new parent"));
  addRow(f, tr("Parent"), parent);
}

void PropertiesDock::buildJointSection() {
  const kt::JointType type = spec().joint.type;
  QFormLayout* f = addSection(tr("Joint"));
  QLineEdit* name = addText(
      f, tr("Name"), QStringLiteral("joint.name"), [this] { return q(spec().joint.name); },
      [this](const QString& t, QString* e) { return edit::renameJoint(*doc_, index(), t, e); });
  name->setPlaceholderText(tr("(the body's name)"));
  QStringList types;
  for (kt::JointType t : kt::kAllJointTypes)
    types << tr("%1  (%2 DoF)").arg(q(kt::jointTypeName(t))).arg(kt::jointNv(t));
  QComboBox* typeBox = comboEdit(
      QStringLiteral("joint.type"), types,
      [this] {
        const auto& all = kt::kAllJointTypes;
        return static_cast<int>(std::find(all.begin(), all.end(), spec().joint.type) - all.begin());
      },
      [this](int i, QString* e) {
        return edit::setJointType(*doc_, index(), kt::kAllJointTypes[static_cast<std::size_t>(i)], e);
      });
  typeBox->setToolTip(
      tr("Changing the number of coordinates clears the initial state, the limits and the per-reaction ratings"));
  addRow(f, tr("Type"), typeBox);
  addPlacementRows(
      f, QStringLiteral("joint.origin"), [this] { return spec().joint.origin; },
      [this](const kt::Placement& p, QString* e) { return edit::setJointOrigin(*doc_, index(), p, e); });
  if (kt::jointHasAxis(type)) {
    const QString label = type == kt::JointType::Planar                                       ? tr("Normal")
                          : type == kt::JointType::Universal || type == kt::JointType::Gimbal ? tr("Axis 1 (parent)")
                                                                                              : tr("Axis");
    addNumbers(
        f, label, QStringLiteral("joint.axis"), 3, [this] { return list(spec().joint.axis); },
        [this](const Values& v, QString* e) { return edit::setJointAxis(*doc_, index(), vec3(v), e); });
  }
  if (type == kt::JointType::Universal || type == kt::JointType::Gimbal)
    addNumbers(
        f, type == kt::JointType::Gimbal ? tr("Axis 2") : tr("Axis 2 (child)"), QStringLiteral("joint.axis2"), 3,
        [this] { return list(spec().joint.axis2); },
        [this](const Values& v, QString* e) { return edit::setJointAxis2(*doc_, index(), vec3(v), e); });
  if (type == kt::JointType::Gimbal)
    addNumbers(
        f, tr("Axis 3 (child)"), QStringLiteral("joint.axis3"), 3, [this] { return list(spec().joint.axis3); },
        [this](const Values& v, QString* e) { return edit::setJointAxis3(*doc_, index(), vec3(v), e); });
  // where axes 2 and 3 pass (body frame; axis 1 passes through the joint origin): 0, 0, 0 puts
  // them through it too, MuJoCo's hinges at their own anchors do not (a humanoid's ankle)
  if (type == kt::JointType::Universal || type == kt::JointType::Gimbal)
    addNumbers(
        f, tr("Axis 2 through (m)"), QStringLiteral("joint.point2"), 3, [this] { return list(spec().joint.point2); },
        [this](const Values& v, QString* e) { return edit::setJointPoint2(*doc_, index(), vec3(v), e); });
  if (type == kt::JointType::Gimbal)
    addNumbers(
        f, tr("Axis 3 through (m)"), QStringLiteral("joint.point3"), 3, [this] { return list(spec().joint.point3); },
        [this](const Values& v, QString* e) { return edit::setJointPoint3(*doc_, index(), vec3(v), e); });
}

// Placement rows: translation (m) and rotation, as roll-pitch-yaw in degrees (radians in the
// file) or as a quaternion (w, x, y, z) when the placement uses one. The form box converts.
void PropertiesDock::addPlacementRows(QFormLayout* form, const QString& path, const std::function<kt::Placement()>& get,
                                      const std::function<QUndoCommand*(const kt::Placement&, QString*)>& set) {
  addNumbers(
      form, tr("Origin (m)"), path + QStringLiteral(".xyz"), 3, [get] { return list(get().xyz); },
      [get, set](const Values& v, QString* e) {
        kt::Placement p = get();
        p.xyz = vec3(v);
        return set(p, e);
      });
  const bool quat = get().useQuaternion;
  auto* row = new QWidget;
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  h->setSpacing(3);
  QComboBox* formBox = comboEdit(
      path + QStringLiteral(".form"), {tr("rpy"), tr("quat")}, [get] { return get().useQuaternion ? 1 : 0; },
      [get, set](int i, QString* e) -> QUndoCommand* {
        kt::Placement p = get();
        if ((i == 1) == p.useQuaternion) return nullptr;
        if (i == 1) {
          const kt::Quat r(kt::rotationFromRpy(p.rpy));
          p.quat = Eigen::Vector4d(r.w(), r.x(), r.y(), r.z());
        } else {
          const kt::Quat r(p.quat[0], p.quat[1], p.quat[2], p.quat[3]);
          p.rpy = kt::rpyFromRotation(r.normalized().toRotationMatrix());
        }
        p.useQuaternion = i == 1;
        return set(p, e);
      });
  formBox->setToolTip(tr("Rotation as roll, pitch, yaw in degrees (R = Rz Ry Rx) or as a unit quaternion"));
  formBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  h->addWidget(formBox);
  NumberListEdit* rotation = nullptr;
  if (quat) {
    rotation = numberEdit(
        path + QStringLiteral(".quaternion"), 4, DisplayUnit::Same, false,
        [get] {
          const kt::Placement p = get();
          return Values{p.quat[0], p.quat[1], p.quat[2], p.quat[3]};
        },
        [get, set](const Values& v, QString* e) {
          kt::Placement p = get();
          p.quat = Eigen::Vector4d(v[0], v[1], v[2], v[3]);
          return set(p, e);
        });
    rotation->setToolTip(tr("Unit quaternion w, x, y, z"));
  } else {
    rotation = numberEdit(
        path + QStringLiteral(".rpy"), 3, DisplayUnit::Degrees, false, [get] { return list(get().rpy); },
        [get, set](const Values& v, QString* e) {
          kt::Placement p = get();
          p.rpy = vec3(v);
          return set(p, e);
        });
    rotation->setToolTip(tr("Roll, pitch, yaw in degrees about the fixed x, y, z axes (stored in radians)"));
  }
  h->addWidget(rotation, 1);
  addRow(form, quat ? tr("Rotation") : tr("Rotation (°)"), row);
}

void PropertiesDock::buildStateSection() {
  const kt::JointType type = spec().joint.type;
  if (kt::jointNq(type) == 0) return;
  QFormLayout* f = addSection(tr("Initial state"));
  const auto groupRows = [&](const std::vector<CoordinateGroup>& groups, const QString& base, bool position) {
    for (const CoordinateGroup& g : groups) {
      const auto full = [this, position] {
        const kt::JointSpec& j = spec().joint;
        return position ? (j.q0.empty() ? neutralPosition(j.type) : j.q0)
                        : (j.v0.empty() ? Values(static_cast<std::size_t>(kt::jointNv(j.type)), 0.0) : j.v0);
      };
      NumberListEdit* e = addNumbers(
          f, g.label, g.start == 0 ? base : base + QStringLiteral("[%1]").arg(g.start), g.count,
          [full, g] {
            const Values v = full();
            return Values(v.begin() + g.start, v.begin() + g.start + g.count);
          },
          [this, full, g, position](const Values& part, QString* e) {
            Values v = full();
            std::copy(part.begin(), part.end(), v.begin() + g.start);
            return position ? edit::setInitialPosition(*doc_, index(), v, e)
                            : edit::setInitialVelocity(*doc_, index(), v, e);
          },
          g.degrees ? DisplayUnit::Degrees : DisplayUnit::Same);
      e->setProperty("ktBase", base);
      e->setProperty("ktStart", g.start);
      e->setToolTip(g.degrees ? g.tip + QLatin1Char('\n') + degreesHint() : g.tip);
    }
  };
  groupRows(positionGroups(type), QStringLiteral("joint.q0"), true);
  groupRows(velocityGroups(type), QStringLiteral("joint.v0"), false);
}

void PropertiesDock::buildLimitsSection() {
  const kt::JointType type = spec().joint.type;
  if (!hasLimits(type)) return;
  QFormLayout* f = addSection(tr("Limits"));
  QCheckBox* on = checkEdit(
      QStringLiteral("joint.limits"), tr("Display limits"), [this] { return !spec().joint.limits.empty(); },
      [this](bool limited, QString* e) {
        const kt::JointType t = spec().joint.type;
        std::vector<kt::Limit> limits;
        if (limited)
          for (int i = 0; i < kt::jointNv(t); ++i) {
            const double r = isAngular(t, i) ? std::numbers::pi : 1.0;
            limits.push_back({-r, r});
          }
        return edit::setLimits(*doc_, index(), limits, e);
      });
  on->setToolTip(tr("Limits are drawn by the views; the solvers do not enforce them"));
  addRow(f, QString(), on);
  if (spec().joint.limits.empty()) return;
  // a row for each bound: two fields side by side cut a number such as -179.999847961 at the
  // dock's usual width
  const QStringList names = coordinateNames(type);
  for (int i = 0; i < kt::jointNv(type); ++i) {
    // "θ (°)" → "θ min (°)", "θ max (°)"
    const QString name = names.value(i);
    const qsizetype unit = name.indexOf(QStringLiteral(" ("));
    for (const bool upper : {false, true}) {
      NumberListEdit* e = numberEdit(
          QStringLiteral("joint.limits[%1].%2").arg(i).arg(upper ? QStringLiteral("upper") : QStringLiteral("lower")),
          1, isAngular(type, i) ? DisplayUnit::Degrees : DisplayUnit::Same, false,
          [this, i, upper] {
            const kt::Limit& l = spec().joint.limits[static_cast<std::size_t>(i)];
            return Values{upper ? l.upper : l.lower};
          },
          [this, i, upper](const Values& v, QString* e) {
            std::vector<kt::Limit> limits = spec().joint.limits;
            (upper ? limits[static_cast<std::size_t>(i)].upper : limits[static_cast<std::size_t>(i)].lower) = v[0];
            return edit::setLimits(*doc_, index(), limits, e);
          });
      e->setToolTip((upper ? tr("Upper limit") : tr("Lower limit")) +
                    (isAngular(type, i) ? QLatin1Char('\n') + degreesHint() : QString()));
      const QString bound = upper ? tr("max") : tr("min");
      addRow(f,
             unit < 0 ? name + QLatin1Char(' ') + bound : name.left(unit) + QLatin1Char(' ') + bound + name.mid(unit),
             e);
    }
  }
}

// What the joint may carry (docs/model-format.md, "Load ratings"): the peak-load table and the
// arrows compare the run's loads with it.
void PropertiesDock::buildRatingSection() {
  const kt::JointType type = spec().joint.type;
  QFormLayout* f = addSection(tr("Load rating"));
  const auto one = [this](double kt::LoadRating::*field) {
    return [this, field](const Values& v, QString* e) {
      kt::LoadRating r = spec().joint.rating;
      r.*field = v[0];
      return edit::setRating(*doc_, index(), r, e);
    };
  };
  addNumbers(
      f, tr("Force (N)"), QStringLiteral("joint.rating.force"), 1, [this] { return Values{spec().joint.rating.force}; },
      one(&kt::LoadRating::force))
      ->setToolTip(tr("Largest |force| the joint may transmit; 0: not rated"));
  addNumbers(
      f, tr("Moment (N·m)"), QStringLiteral("joint.rating.moment"), 1,
      [this] { return Values{spec().joint.rating.moment}; }, one(&kt::LoadRating::moment))
      ->setToolTip(tr("Largest |moment| the joint may transmit, the drive's torque included; 0: not rated"));
  const int efforts = kt::jointNv(type);
  if (efforts > 0) {
    auto* effort = new NumberListEdit(-1);
    effort->setObjectName(QStringLiteral("joint.rating.effort"));
    effort->setPlaceholderText(efforts == 1 ? tr("none") : tr("none (%1 values, or one for all)").arg(efforts));
    effort->setToolTip(
        tr("Largest |τ_k| the joint's actuator gives (a motor's peak torque; a URDF's effort), N·m or N per "
           "coordinate: checked against the drive forces and the required efforts of a motion; empty: not rated"));
    connect(effort, &QLineEdit::editingFinished, this, [this, effort, efforts] {
      commit(effort, [&](QString* error) -> QUndoCommand* {
        Values v;
        if (!effort->text().trimmed().isEmpty() && !effort->values(v, error)) return nullptr;
        if (v.size() == 1) v.assign(static_cast<std::size_t>(efforts), v[0]);
        if (v == spec().joint.rating.effort) return nullptr;
        kt::LoadRating r = spec().joint.rating;
        r.effort = v;
        return edit::setRating(*doc_, index(), r, error);
      });
    });
    bind(effort, nullptr, [this, effort] {
      if (effort->hasFocus() && effort->isModified()) return;
      effort->setValues(spec().joint.rating.effort);
    });
    addRow(f, tr("Effort (%1)").arg(coordinateUnits(type, QStringLiteral("N·m"), QStringLiteral("N"))), effort);
  }
  const int reactions = 6 - kt::jointNv(type);
  if (reactions == 0) return;
  auto* perAxis = new NumberListEdit(-1);
  perAxis->setObjectName(QStringLiteral("joint.rating.reaction"));
  perAxis->setPlaceholderText(tr("none (%n values, or one for all)", nullptr, reactions));
  perAxis->setToolTip(
      tr("Largest |λ_k| of each reaction coordinate (N·m or N, in the order of "
         "the reaction:<joint>.* signals); empty: not rated per coordinate"));
  connect(perAxis, &QLineEdit::editingFinished, this, [this, perAxis, reactions] {
    commit(perAxis, [&](QString* error) -> QUndoCommand* {
      Values v;
      if (!perAxis->text().trimmed().isEmpty() && !perAxis->values(v, error)) return nullptr;
      if (v.size() == 1) v.assign(static_cast<std::size_t>(reactions), v[0]);
      if (v == spec().joint.rating.reaction) return nullptr;
      kt::LoadRating r = spec().joint.rating;
      r.reaction = v;
      return edit::setRating(*doc_, index(), r, error);
    });
  });
  bind(perAxis, nullptr, [this, perAxis] {
    if (perAxis->hasFocus() && perAxis->isModified()) return;
    perAxis->setValues(spec().joint.rating.reaction);
  });
  addRow(f, tr("Per reaction"), perAxis);
}

void PropertiesDock::buildMotionSection() {
  const kt::JointType type = spec().joint.type;
  const int nv = kt::jointNv(type);
  if (nv == 0 || kt::jointNq(type) != nv || kt::jointUsesQuasiVelocity(type)) return;
  QFormLayout* f = addSection(tr("Motion"));
  QStringList names;
  for (kt::MotionType t : kMotionTypes) names << q(kt::motionTypeName(t));
  const auto directory = [this] {
    return model().sourceDirectory.empty() ? QFileInfo(doc_->filePath()).absolutePath() : q(model().sourceDirectory);
  };
  QComboBox* kind = comboEdit(
      QStringLiteral("joint.motion.type"), names,
      [this] {
        const auto* it = std::find(std::begin(kMotionTypes), std::end(kMotionTypes), spec().joint.motion.type);
        return static_cast<int>(it - std::begin(kMotionTypes));
      },
      [this, nv, directory](int i, QString* e) -> QUndoCommand* {
        if (kMotionTypes[i] == spec().joint.motion.type) return nullptr;
        kt::Motion m = motionOfType(kMotionTypes[i], spec().joint, nv);
        if (m.type == kt::MotionType::Table) {
          // a table needs its file: chosen now, stored relative to the model's folder
          const QString path = QFileDialog::getOpenFileName(this, tr("Motion Table"), directory(),
                                                            tr("Joint histories (*.csv);;All files (*)"));
          if (path.isEmpty()) return nullptr;
          m.file = (doc_->filePath().isEmpty() ? path : QDir(directory()).relativeFilePath(path)).toStdString();
        }
        return edit::setMotion(*doc_, index(), m, e);
      });
  kind->setToolTip(
      tr("The joint follows q(t) exactly and the run gives the effort it needs (docs/motion.md); a motion "
         "replaces the drive\nspline: C² cubic through (time, position) knots\n"
         "rest_to_rest: quintic moves (t_a, t_b, q_a, q_b), at rest at both ends\n"
         "sinusoid: q = offset + amplitude·sin(2π f t + phase)\ntable: the q:<joint>[k] columns of a CSV file"));
  addRow(f, tr("Type"), kind);

  const kt::MotionType mt = spec().joint.motion.type;
  if (mt == kt::MotionType::None) return;
  const auto setMotion = [this](const std::function<void(kt::Motion&)>& change, QString* e) {
    kt::Motion m = spec().joint.motion;
    change(m);
    return edit::setMotion(*doc_, index(), m, e);
  };
  const QStringList coords = coordinateNames(type, true);
  const QString position = coordinateUnits(type, QStringLiteral("rad"), QStringLiteral("m"));
  switch (mt) {
    case kt::MotionType::None: break;
    case kt::MotionType::Spline:
      for (int k = 0; k < nv; ++k) {
        QLineEdit* e = addText(
            f, nv == 1 ? tr("Knots (s, %1)").arg(position) : tr("Knots %1").arg(coords.value(k)),
            QStringLiteral("joint.motion.knots[%1]").arg(k),
            [this, k] {
              const auto& knots = spec().joint.motion.knots;
              return k < static_cast<int>(knots.size()) ? formatKnots(knots[static_cast<std::size_t>(k)]) : QString();
            },
            [setMotion, k](const QString& text, QString* e) -> QUndoCommand* {
              std::vector<kt::Knot> knots;
              if (!parseKnots(text, knots, e)) return nullptr;
              return setMotion(
                  [&](kt::Motion& m) {
                    // one list per coordinate (a file may hold fewer: the validator says so)
                    if (m.knots.size() <= static_cast<std::size_t>(k)) m.knots.resize(static_cast<std::size_t>(k) + 1);
                    m.knots[static_cast<std::size_t>(k)] = knots;
                  },
                  e);
            });
        e->setPlaceholderText(tr("time, position; time, position; …"));
        e->setToolTip(tr("A C² cubic spline through (time s, position) knots, natural ends; straight on outside"));
      }
      break;
    case kt::MotionType::RestToRest:
      for (int k = 0; k < nv; ++k) {
        QLineEdit* e = addText(
            f, nv == 1 ? tr("Moves (s, s, %1, %1)").arg(position) : tr("Moves %1").arg(coords.value(k)),
            QStringLiteral("joint.motion.moves[%1]").arg(k),
            [this, k] {
              const auto& moves = spec().joint.motion.moves;
              return k < static_cast<int>(moves.size()) ? formatMoves(moves[static_cast<std::size_t>(k)]) : QString();
            },
            [setMotion, k](const QString& text, QString* e) -> QUndoCommand* {
              std::vector<kt::Move> moves;
              if (!parseMoves(text, moves, e)) return nullptr;
              return setMotion(
                  [&](kt::Motion& m) {
                    if (m.moves.size() <= static_cast<std::size_t>(k)) m.moves.resize(static_cast<std::size_t>(k) + 1);
                    m.moves[static_cast<std::size_t>(k)] = moves;
                  },
                  e);
            });
        e->setPlaceholderText(tr("t_a, t_b, q_a, q_b; …"));
        e->setToolTip(
            tr("Quintic moves from q_a at t_a to q_b at t_b, at rest at both ends, each starting where the "
               "previous one ended; held outside"));
      }
      break;
    case kt::MotionType::Sinusoid: {
      std::vector<DisplayUnit> positionUnits;
      for (int i = 0; i < nv; ++i)
        positionUnits.push_back(isAngular(type, i) ? DisplayUnit::Degrees : DisplayUnit::Same);
      const QString shown = coordinateUnits(type, QStringLiteral("°"), QStringLiteral("m"));
      const auto perCoordinate = [&](const QString& label, const char* key, std::vector<double> kt::Motion::*member,
                                     const std::vector<DisplayUnit>& units) {
        NumberListEdit* e = addNumbers(
            f, label, QStringLiteral("joint.motion.") + QLatin1String(key), nv,
            [this, member] { return spec().joint.motion.*member; },
            [setMotion, member](const Values& v, QString* e) {
              return setMotion([&](kt::Motion& m) { m.*member = v; }, e);
            },
            DisplayUnit::Same, true);
        e->setUnits(units);
      };
      perCoordinate(tr("Amplitude (%1)").arg(shown), "amplitude", &kt::Motion::amplitude, positionUnits);
      perCoordinate(tr("Frequency (Hz)"), "frequency", &kt::Motion::frequency, {DisplayUnit::Same});
      perCoordinate(tr("Phase (°)"), "phase", &kt::Motion::phase, {DisplayUnit::Degrees});
      perCoordinate(tr("Offset (%1)").arg(shown), "offset", &kt::Motion::offset, positionUnits);
      break;
    }
    case kt::MotionType::Table: {
      QLineEdit* e = addText(
          f, tr("File"), QStringLiteral("joint.motion.file"), [this] { return q(spec().joint.motion.file); },
          [setMotion](const QString& text, QString* e) -> QUndoCommand* {
            return setMotion([&](kt::Motion& m) { m.file = text.trimmed().toStdString(); }, e);
          });
      e->setToolTip(
          tr("A CSV with a time column and q:<joint>[k] columns (File ▸ Import Motion… assigns one to "
             "every joint it names)"));
      addNumbers(
          f, tr("Cutoff (Hz)"), QStringLiteral("joint.motion.cutoff"), 1,
          [this] { return Values{spec().joint.motion.cutoff}; },
          [setMotion](const Values& v, QString* e) { return setMotion([&](kt::Motion& m) { m.cutoff = v[0]; }, e); })
          ->setToolTip(tr("Zero-phase low-pass of the samples before the spline, for measured data; 0: none"));
      break;
    }
  }
  auto* preview = new MotionPreview;
  bind(preview, nullptr, [this, preview, directory] {
    const kt::BodySpec& b = spec();
    preview->show(b.joint, b.joint.name.empty() ? b.name : b.joint.name, model().simulation.duration, directory());
  });
  f->addRow(preview);
}

void PropertiesDock::buildDriveSection() {
  const kt::JointType type = spec().joint.type;
  const int nv = kt::jointNv(type);
  if (nv == 0 || spec().joint.motion.type != kt::MotionType::None) return;  // a motion replaces the drive
  QFormLayout* f = addSection(tr("Drive"));
  QStringList names;
  for (kt::DriveType t : kDriveTypes) names << q(kt::driveTypeName(t));
  QComboBox* kind = comboEdit(
      QStringLiteral("joint.drive.type"), names,
      [this] {
        const auto* it = std::find(std::begin(kDriveTypes), std::end(kDriveTypes), spec().joint.drive.type);
        return static_cast<int>(it - std::begin(kDriveTypes));
      },
      [this, nv](int i, QString* e) -> QUndoCommand* {
        if (kDriveTypes[i] == spec().joint.drive.type) return nullptr;
        kt::Drive d = driveOfType(spec().joint.drive, kDriveTypes[i], nv);
        if (d.type == kt::DriveType::Table && d.file.empty()) {
          // a table needs its file: chosen now, stored relative to the model's folder
          const QString directory =
              model().sourceDirectory.empty() ? QFileInfo(doc_->filePath()).absolutePath() : q(model().sourceDirectory);
          const QString path = QFileDialog::getOpenFileName(this, tr("Drive Table"), directory,
                                                            tr("Generalized forces (*.csv);;All files (*)"));
          if (path.isEmpty()) return nullptr;
          d.file = (doc_->filePath().isEmpty() ? path : QDir(directory).relativeFilePath(path)).toStdString();
        }
        return edit::setDrive(*doc_, index(), d, e);
      });
  kind->setToolTip(
      tr("constant: τ = value\nsinusoid: τ = offset + amplitude·sin(2π f t + phase)\n"
         "pd_sinusoid: PD tracking of q* = offset + amplitude·sin(2π f t + phase)\n"
         "pd_piecewise: PD tracking of q* through (time, value) knots\n"
         "spring_damper: τ = −stiffness·(q − rest) − damping·ν (ν = dq/dt)\n"
         "table: τ from the tau:<joint>[k] columns of a CSV file (docs/motion.md)"));
  addRow(f, tr("Type"), kind);

  const kt::DriveType dt = spec().joint.drive.type;
  const QString effort = coordinateUnits(type, QStringLiteral("N·m"), QStringLiteral("N"));
  const QString position = coordinateUnits(type, QStringLiteral("°"), QStringLiteral("m"));
  // Angles (target positions, phases) in degrees as everywhere on the page; rates, gains and
  // knots in the file's SI units.
  std::vector<DisplayUnit> positionUnits;
  for (int i = 0; i < nv; ++i) positionUnits.push_back(isAngular(type, i) ? DisplayUnit::Degrees : DisplayUnit::Same);
  const auto setDrive = [this](const std::function<void(kt::Drive&)>& change, QString* e) {
    kt::Drive d = spec().joint.drive;
    change(d);
    return edit::setDrive(*doc_, index(), d, e);
  };
  const auto perCoordinate = [&](const QString& label, const char* key, std::vector<double> kt::Drive::*member,
                                 const std::vector<DisplayUnit>& units = {DisplayUnit::Same}) {
    NumberListEdit* e = addNumbers(
        f, label, QStringLiteral("joint.drive.") + QLatin1String(key), nv,
        [this, member] { return spec().joint.drive.*member; },
        [setDrive, member](const Values& v, QString* e) { return setDrive([&](kt::Drive& d) { d.*member = v; }, e); },
        DisplayUnit::Same, true);
    e->setUnits(units);
    QStringList tip;
    if (nv > 1) tip << tr("One value per coordinate (%1), or one value for all").arg(nv);
    if (std::find(units.begin(), units.end(), DisplayUnit::Degrees) != units.end()) tip << degreesHint();
    if (!tip.isEmpty()) e->setToolTip(tip.join(QLatin1Char('\n')));
  };
  const auto gain = [&](const QString& label, const char* key, double kt::Drive::*member) {
    addNumbers(
        f, label, QStringLiteral("joint.drive.") + QLatin1String(key), 1,
        [this, member] { return Values{spec().joint.drive.*member}; },
        [setDrive, member](const Values& v, QString* e) {
          return setDrive([&](kt::Drive& d) { d.*member = v[0]; }, e);
        });
  };
  const bool pd = dt == kt::DriveType::PdSinusoid || dt == kt::DriveType::PdPiecewise;
  if (pd) {
    gain(tr("kp (%1)").arg(coordinateUnits(type, QStringLiteral("N·m/rad"), QStringLiteral("N/m"))), "kp",
         &kt::Drive::kp);
    gain(tr("kd (%1)").arg(coordinateUnits(type, QStringLiteral("N·m·s/rad"), QStringLiteral("N·s/m"))), "kd",
         &kt::Drive::kd);
  }
  switch (dt) {
    case kt::DriveType::None: break;
    case kt::DriveType::Constant: perCoordinate(tr("Value (%1)").arg(effort), "value", &kt::Drive::value); break;
    case kt::DriveType::Sinusoid:
    case kt::DriveType::PdSinusoid: {
      const bool target = dt == kt::DriveType::PdSinusoid;  // amplitude and offset are positions
      const QString u = target ? position : effort;
      const std::vector<DisplayUnit> units = target ? positionUnits : std::vector<DisplayUnit>{DisplayUnit::Same};
      perCoordinate(tr("Amplitude (%1)").arg(u), "amplitude", &kt::Drive::amplitude, units);
      perCoordinate(tr("Frequency (Hz)"), "frequency", &kt::Drive::frequency);
      perCoordinate(tr("Phase (°)"), "phase", &kt::Drive::phase, {DisplayUnit::Degrees});
      perCoordinate(tr("Offset (%1)").arg(u), "offset", &kt::Drive::offset, units);
      break;
    }
    case kt::DriveType::PdPiecewise: {
      const QStringList coords = coordinateNames(type, true);
      for (int k = 0; k < nv; ++k) {
        QLineEdit* e = addText(
            f,
            nv == 1 ? tr("Knots (s, %1)").arg(coordinateUnits(type, QStringLiteral("rad"), QStringLiteral("m")))
                    : tr("Knots %1").arg(coords.value(k)),
            QStringLiteral("joint.drive.knots[%1]").arg(k),
            [this, k] {
              const auto& knots = spec().joint.drive.knots;
              return k < static_cast<int>(knots.size()) ? formatKnots(knots[static_cast<std::size_t>(k)]) : QString();
            },
            [setDrive, k](const QString& text, QString* e) -> QUndoCommand* {
              std::vector<kt::Knot> knots;
              if (!parseKnots(text, knots, e)) return nullptr;
              return setDrive([&](kt::Drive& d) { d.knots[static_cast<std::size_t>(k)] = knots; }, e);
            });
        e->setPlaceholderText(tr("time, value; time, value; …"));
        e->setToolTip(tr("Target position through (time s, value) knots, linear in between, held outside"));
      }
      break;
    }
    case kt::DriveType::SpringDamper:
      perCoordinate(tr("Stiffness (%1)").arg(coordinateUnits(type, QStringLiteral("N·m/rad"), QStringLiteral("N/m"))),
                    "stiffness", &kt::Drive::stiffness);
      perCoordinate(tr("Damping (%1)").arg(coordinateUnits(type, QStringLiteral("N·m·s/rad"), QStringLiteral("N·s/m"))),
                    "damping", &kt::Drive::damping);
      perCoordinate(tr("Rest (%1)").arg(position), "rest_position", &kt::Drive::restPosition, positionUnits);
      break;
    case kt::DriveType::Table: {
      QLineEdit* e = addText(
          f, tr("File"), QStringLiteral("joint.drive.file"), [this] { return q(spec().joint.drive.file); },
          [setDrive](const QString& text, QString* e) -> QUndoCommand* {
            return setDrive([&](kt::Drive& d) { d.file = text.trimmed().toStdString(); }, e);
          });
      e->setPlaceholderText(tr("torques.csv (relative to the model file)"));
      e->setToolTip(tr("A CSV with a time column and tau:<joint>[k] columns, splined between samples"));
      break;
    }
  }
}

}  // namespace kt::ui
