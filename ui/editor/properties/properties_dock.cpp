// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/properties/properties_dock.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/mesh.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/tree.hpp"
#include "ui/document/document.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/properties/property_vectors.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/shared/qt_text.hpp"

namespace kt::ui {
PropertiesDock::PropertiesDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Properties"), parent), doc_(document), scroll_(new QScrollArea(this)) {
  setObjectName(QStringLiteral("propertiesDock"));
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  // a dock narrower than its page (a window under about 1600 px wide) scrolls sideways rather
  // than cut its fields; a minimum width would hold the window's squeezed layouts
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setWidget(scroll_);
  connect(doc_, &Document::modelReplaced, this, [this] { bodyId_ = 0; });
  connect(doc_, &Document::changed, this, &PropertiesDock::documentChanged);
  // a save may rename mesh files (Document::saveAs): the fields show what the file says
  connect(doc_, &Document::filePathChanged, this, &PropertiesDock::documentChanged);
  rebuild();
}

const kt::Model& PropertiesDock::model() const { return doc_->model(); }

int PropertiesDock::index() const { return bodyId_ == 0 ? -1 : doc_->indexOfId(bodyId_); }

int PropertiesDock::body() const { return index(); }

const kt::BodySpec& PropertiesDock::spec() const { return model().bodies[static_cast<std::size_t>(index())]; }

void PropertiesDock::showBody(int body) {
  const int n = static_cast<int>(model().bodies.size());
  const quint64 id = body >= 0 && body < n ? doc_->bodyId(body) : 0;
  if (id == bodyId_ && layoutKey() == key_) return;
  // A value being typed belongs to the body shown so far: commit it before switching.
  if (auto* line = qobject_cast<QLineEdit*>(QApplication::focusWidget());
      line && page_ && page_->isAncestorOf(line) && line->isModified())
    emit line->editingFinished();
  bodyId_ = id;
  if (id != 0) computeDensity_ = spec().inertial.density;
  rebuild();
}

void PropertiesDock::setAlsoEdited(const std::vector<int>& bodies) {
  std::vector<quint64> ids;
  for (int b : bodies)
    if (b >= 0 && b < static_cast<int>(model().bodies.size()) && doc_->bodyId(b) != bodyId_)
      ids.push_back(doc_->bodyId(b));
  if (ids == alsoIds_) return;
  alsoIds_ = std::move(ids);
  rebuild();
}

void PropertiesDock::focusField(const FieldLocation& location) {
  showBody(location.body);
  QWidget* editor = findEditor(location.field);
  if (!editor) return;
  for (QWidget* w = editor->parentWidget(); w && w != page_; w = w->parentWidget())
    if (auto* section = qobject_cast<PropertySection*>(w)) section->setExpanded(true);
  if (!isVisible()) show();
  raise();
  editor->setFocus(Qt::OtherFocusReason);
  if (auto* line = qobject_cast<QLineEdit*>(editor)) line->selectAll();
  QPointer<QWidget> target(editor);
  scroll_->ensureWidgetVisible(editor);
  QTimer::singleShot(0, this, [this, target] {  // once the layout has placed the expanded section
    if (target) scroll_->ensureWidgetVisible(target);
  });
}

// The editor for a field path: the editor of that name, else the editor of the coordinate group
// holding an indexed entry ("joint.q0[5]"), else the first editor below the path ("shapes[1]"),
// else the same for the enclosing path.
QWidget* PropertiesDock::findEditor(const QString& field) const {
  static const QRegularExpression indexed(QStringLiteral("^(.*)\\[(\\d+)\\]$"));
  QString path = field;
  while (!path.isEmpty()) {
    for (const Binding& b : bindings_)
      if (b.editor && b.editor->objectName() == path) return b.editor;
    if (const QRegularExpressionMatch m = indexed.match(path); m.hasMatch()) {
      QWidget* best = nullptr;
      int bestStart = -1;
      const int k = m.captured(2).toInt();
      for (const Binding& b : bindings_) {
        if (!b.editor || b.editor->property("ktBase").toString() != m.captured(1)) continue;
        const int start = b.editor->property("ktStart").toInt();
        if (start <= k && start > bestStart) best = b.editor, bestStart = start;
      }
      if (best) return best;
    }
    for (const Binding& b : bindings_) {
      if (!b.editor || !b.editor->isEnabled()) continue;
      const QString name = b.editor->objectName();
      if (name.startsWith(path + QLatin1Char('.')) || name.startsWith(path + QLatin1Char('['))) return b.editor;
    }
    const int cut = std::max(path.lastIndexOf(QLatin1Char('.')), path.lastIndexOf(QLatin1Char('[')));
    path = cut > 0 ? path.left(cut) : QString();
  }
  return nullptr;
}

// ---- following the document ----

void PropertiesDock::documentChanged() {
  if (bodyId_ != 0 && doc_->indexOfId(bodyId_) < 0) bodyId_ = 0;  // the body was deleted
  if (layoutKey() != key_)
    rebuild();
  else
    refreshValues();
}

// What decides which widgets the page has; the values are refreshed in place otherwise.
QString PropertiesDock::layoutKey() const {
  const int b = index();
  if (b < 0) return QStringLiteral("model");
  const kt::BodySpec& s = spec();
  QString key = QStringLiteral("body %1 %2 %3 %4 %5 %6")
                    .arg(bodyId_)
                    .arg(static_cast<int>(s.joint.type))
                    .arg(s.joint.origin.useQuaternion)
                    .arg(s.joint.limits.empty())
                    .arg(static_cast<int>(s.joint.drive.type))
                    .arg(s.inertial.fromShapes);
  key += QStringLiteral(" m%1").arg(static_cast<int>(s.joint.motion.type));
  for (const kt::Shape& shape : s.shapes)
    key += QStringLiteral(" s%1%2").arg(static_cast<int>(shape.type)).arg(shape.origin.useQuaternion);
  return key;
}

void PropertiesDock::rebuild() {
  rebuilding_ = true;
  QWidget* focus = QApplication::focusWidget();
  const QString focusName = focus && page_ && page_->isAncestorOf(focus) ? focus->objectName() : QString();
  const bool samePage = key_.section(QLatin1Char(' '), 0, 1) == layoutKey().section(QLatin1Char(' '), 0, 1);
  // from body to body the page stays where it was scrolled to: the drive of the next joint is
  // where the drive of the last one was
  const bool keepScroll =
      samePage || (key_.startsWith(QLatin1String("body ")) && layoutKey().startsWith(QLatin1String("body ")));
  // (two rebuilds in a row, e.g. a new body and then its fellow selected bodies: the first one's
  // position, not the new page's top)
  const int scrollPos = pendingScroll_ >= 0 ? pendingScroll_ : scroll_->verticalScrollBar()->value();
  bindings_.clear();
  if (QWidget* old = scroll_->takeWidget()) {
    old->hide();
    old->deleteLater();
  }
  page_ = new QWidget;
  page_->setObjectName(QStringLiteral("propertiesPage"));
  pageLayout_ = new QVBoxLayout(page_);
  pageLayout_->setContentsMargins(2, 2, 2, 2);
  pageLayout_->setSpacing(2);
  key_ = layoutKey();
  alsoBanner_ = nullptr;
  if (index() < 0) {
    buildModelPage();
  } else {
    // several bodies selected: say what an edit does
    std::vector<quint64> also;
    for (const quint64 id : alsoIds_)
      if (doc_->indexOfId(id) >= 0 && id != bodyId_) also.push_back(id);
    if (!also.empty()) {
      QStringList names;
      for (std::size_t k = 0; k < also.size() && k < 4; ++k)
        names << QString::fromStdString(model().bodies[static_cast<std::size_t>(doc_->indexOfId(also[k]))].name);
      if (also.size() > 4) names << tr("…");
      alsoBanner_ = new QLabel(tr("<b>%1 selected</b>: %2 and %3. A field you change here changes on each of them "
                                  "(one undo step); their other fields stay their own.")
                                   .arg(countText(static_cast<long long>(also.size()) + 1, tr("body"), tr("bodies")),
                                        QString::fromStdString(spec().name).toHtmlEscaped(),
                                        names.join(QStringLiteral(", ")).toHtmlEscaped()));
      alsoBanner_->setObjectName(QStringLiteral("multiEditBanner"));
      alsoBanner_->setWordWrap(true);
      alsoBanner_->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; padding: 4px; }"));
      pageLayout_->addWidget(alsoBanner_);
    }
    buildBodySection();
    buildJointSection();
    buildStateSection();
    buildLimitsSection();
    buildMotionSection();
    buildDriveSection();
    buildRatingSection();
    buildInertialSection();
    buildShapesSection();
    buildWrenchSection();
  }
  pageLayout_->addStretch(1);
  alignLabels();
  scroll_->setWidget(page_);
  refreshValues();
  if (keepScroll) {
    pendingScroll_ = scrollPos;
    QTimer::singleShot(0, this, [this] {
      if (pendingScroll_ >= 0) scroll_->verticalScrollBar()->setValue(pendingScroll_);
      pendingScroll_ = -1;
    });
  } else {
    pendingScroll_ = -1;
  }
  if (samePage) {
    if (QWidget* w = focusName.isEmpty() ? nullptr : findEditor(focusName)) w->setFocus(Qt::OtherFocusReason);
  }
  rebuilding_ = false;
}

void PropertiesDock::refreshValues() {
  for (const Binding& b : bindings_)
    if (b.editor && b.refresh) b.refresh();
  showProblems();
}

// The model's current problems (the problems dock's list) under the fields they are about;
// a refusal shown under a field stays until that field is edited again.
void PropertiesDock::showProblems() {
  for (const Binding& b : bindings_)
    if (b.error && b.error->property("ktProblem").toBool()) {
      b.error->setProperty("ktProblem", false);
      b.error->hide();
    }
  const int shown = index();
  for (const kt::Diagnostic& d : doc_->problems()->diagnostics()) {
    const FieldLocation where = ProblemsModel::locate(q(d.path));
    if (where.body != shown || where.field.isEmpty()) continue;
    QWidget* editor = findEditor(where.field);
    QLabel* label = nullptr;
    for (const Binding& b : bindings_)
      if (editor && b.editor == editor) label = b.error;
    if (!label || (label->isVisibleTo(page_) && !label->property("ktProblem").toBool())) continue;
    const QString text = q(d.message);
    label->setText(label->property("ktProblem").toBool() ? label->text() + QLatin1Char('\n') + text : text);
    label->setProperty("ktProblem", true);
    label->show();
  }
}

// One label column for the whole page, so that the fields of every section line up.
void PropertiesDock::alignLabels() {
  std::vector<QWidget*> labels;
  int width = 0;
  for (PropertySection* section : page_->findChildren<PropertySection*>()) {
    QFormLayout* form = section->form();
    for (int r = 0; r < form->rowCount(); ++r)
      if (QLayoutItem* item = form->itemAt(r, QFormLayout::LabelRole); item && item->widget()) {
        labels.push_back(item->widget());
        width = std::max(width, item->widget()->sizeHint().width());
      }
  }
  for (QWidget* label : labels) label->setMinimumWidth(width);
}

// ---- field helpers ----

QFormLayout* PropertiesDock::addSection(const QString& title) {
  auto* section = new PropertySection(title, expanded_.value(title, true), page_);
  section->setObjectName(QStringLiteral("section:") + title);
  connect(section, &PropertySection::expandedChanged, this, [this, title](bool on) { expanded_[title] = on; });
  pageLayout_->addWidget(section);
  return section->form();
}

QLabel* PropertiesDock::addRow(QFormLayout* form, const QString& label, QWidget* field) {
  auto* cell = new QWidget;
  auto* layout = new QVBoxLayout(cell);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  layout->addWidget(field);
  auto* error = new QLabel(cell);
  error->setObjectName(QStringLiteral("error:") + field->objectName());
  error->setWordWrap(true);
  error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette p = error->palette();
  p.setColor(QPalette::WindowText, QColor(190, 20, 20));
  error->setPalette(p);
  QFont small = error->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  error->setFont(small);
  error->hide();
  layout->addWidget(error);
  auto* text = new QLabel(label);
  text->setBuddy(field);
  form->addRow(text, cell);
  for (Binding& b : bindings_)  // editors created for this row report their refusals here
    if (!b.error && b.editor && (b.editor == field || field->isAncestorOf(b.editor))) b.error = error;
  return error;
}

void PropertiesDock::bind(QWidget* editor, QLabel* error, std::function<void()> refresh) {
  bindings_.push_back({editor, error, std::move(refresh)});
}

NumberListEdit* PropertiesDock::numberEdit(const QString& path, int count, DisplayUnit unit, bool broadcast,
                                           std::function<Values()> get,
                                           std::function<QUndoCommand*(const Values&, QString*)> set) {
  auto* e = new NumberListEdit(count, unit, broadcast);
  e->setObjectName(path);
  e->setMinimumWidth(40);
  connect(e, &QLineEdit::editingFinished, this, [this, e, set = std::move(set)] {
    commit(e, [&](QString* error) -> QUndoCommand* {
      Values v;
      if (!e->values(v, error)) return nullptr;
      if (v == e->shownValues()) return nullptr;  // unchanged
      return set(v, error);
    });
  });
  bind(e, nullptr, [e, get = std::move(get)] {
    if (e->hasFocus() && e->isModified()) return;  // the user is typing
    e->setValues(get());
  });
  return e;
}

NumberListEdit* PropertiesDock::addNumbers(QFormLayout* form, const QString& label, const QString& path, int count,
                                           std::function<Values()> get,
                                           std::function<QUndoCommand*(const Values&, QString*)> set, DisplayUnit unit,
                                           bool broadcast) {
  NumberListEdit* e = numberEdit(path, count, unit, broadcast, std::move(get), std::move(set));
  addRow(form, label, e);
  return e;
}

QLineEdit* PropertiesDock::addText(QFormLayout* form, const QString& label, const QString& path,
                                   std::function<QString()> get,
                                   std::function<QUndoCommand*(const QString&, QString*)> set) {
  auto* e = new QLineEdit;
  e->setObjectName(path);
  connect(e, &QLineEdit::editingFinished, this, [this, e, get, set = std::move(set)] {
    commit(e, [&](QString* error) -> QUndoCommand* {
      if (e->text() == get()) return nullptr;
      return set(e->text(), error);
    });
  });
  bind(e, nullptr, [e, get] {
    if (e->hasFocus() && e->isModified()) return;
    if (const QString t = get(); t != e->text()) e->setText(t);
    e->setModified(false);
  });
  addRow(form, label, e);
  return e;
}

QComboBox* PropertiesDock::comboEdit(const QString& path, const QStringList& items, std::function<int()> current,
                                     std::function<QUndoCommand*(int, QString*)> set) {
  auto* c = new QComboBox;
  c->setObjectName(path);
  c->addItems(items);
  narrow(c);
  connect(c, &QComboBox::activated, this,
          [this, c, set = std::move(set)](int i) { commit(c, [&](QString* error) { return set(i, error); }); });
  bind(c, nullptr, [c, current = std::move(current)] {
    if (c->currentIndex() != current()) c->setCurrentIndex(current());
  });
  return c;
}

QCheckBox* PropertiesDock::checkEdit(const QString& path, const QString& text, std::function<bool()> get,
                                     std::function<QUndoCommand*(bool, QString*)> set) {
  auto* c = new QCheckBox(text);
  c->setObjectName(path);
  connect(c, &QCheckBox::clicked, this,
          [this, c, set = std::move(set)](bool on) { commit(c, [&](QString* error) { return set(on, error); }); });
  bind(c, nullptr, [c, get = std::move(get)] { c->setChecked(get()); });
  return c;
}

bool PropertiesDock::commit(QWidget* editor, const Factory& factory) {
  if (rebuilding_) return false;
  QLabel* error = nullptr;
  std::function<void()> restore;
  for (const Binding& b : bindings_)
    if (b.editor == editor) {
      error = b.error;
      restore = b.refresh;
    }
  auto* line = qobject_cast<QLineEdit*>(editor);
  QString why;
  QUndoCommand* command = factory(&why);
  // The same edit for each body selected with the shown one: every command is made before any is
  // pushed (each reads its own body as it is now), so one refusal refuses all.
  std::vector<QUndoCommand*> more;
  if (command && bodyId_ != 0 && !alsoIds_.empty()) {
    const quint64 shown = bodyId_;
    for (const quint64 id : alsoIds_) {
      if (id == shown || doc_->indexOfId(id) < 0) continue;
      bodyId_ = id;
      QString otherWhy;
      QUndoCommand* other = factory(&otherWhy);
      const QString name = QString::fromStdString(spec().name);
      bodyId_ = shown;
      if (other) {
        more.push_back(other);
      } else if (!otherWhy.isEmpty()) {
        why = tr("%1: %2").arg(name, otherWhy);
        delete command;
        command = nullptr;
        for (QUndoCommand* c : more) delete c;
        more.clear();
        break;
      }
    }
  }
  if (command) {
    // an edit that lands ends what an earlier refusal said, in any field: the refused value was
    // put back, and its reason would sit beside a valid one (a model problem stays: ktProblem)
    for (const Binding& b : bindings_)
      if (b.error && !b.error->property("ktProblem").toBool()) b.error->hide();
    if (line) line->setModified(false);
    if (more.empty()) {
      doc_->push(command);  // may rebuild the page (the editor is deleted later)
      return true;
    }
    doc_->undoStack()->beginMacro(tr("%1 and %2")
                                      .arg(command->text(), countText(static_cast<long long>(more.size()),
                                                                      tr("other body"), tr("other bodies"))));
    doc_->push(command);
    for (QUndoCommand* c : more) doc_->push(c);
    doc_->undoStack()->endMacro();
    return true;
  }
  if (!why.isEmpty()) {
    showError(editor, why);
    emit editRefused(why);
  } else if (error) {
    error->hide();  // nothing changed
  }
  if (line) line->setModified(false);
  if (restore) restore();  // show the model's value again
  return false;
}

void PropertiesDock::showError(QWidget* editor, const QString& reason) {
  for (const Binding& b : bindings_)
    if (b.editor == editor && b.error) {
      b.error->setProperty("ktProblem", false);
      b.error->setText(reason);
      b.error->show();
      return;
    }
}

// ---- model page ----

void PropertiesDock::buildModelPage() {
  QFormLayout* f = addSection(tr("Model"));
  addText(
      f, tr("Name"), QStringLiteral("name"), [this] { return q(model().name); },
      [this](const QString& t, QString* e) { return edit::setModelName(*doc_, t, e); });
  auto* description = new TextBlockEdit;
  description->setObjectName(QStringLiteral("description"));
  description->setPlaceholderText(tr("What the model is, where its numbers come from"));
  connect(description, &TextBlockEdit::editingFinished, this, [this, description] {
    commit(description, [&](QString* e) -> QUndoCommand* {
      if (description->toPlainText() == q(model().description)) return nullptr;
      return edit::setDescription(*doc_, description->toPlainText(), e);
    });
  });
  bind(description, nullptr, [this, description] {
    // Only text being typed is kept: after Edit ▸ Undo, which commits the box first and gives it
    // the focus back, it shows what the model holds.
    if (description->hasFocus() && description->isModified()) return;
    description->setTextKeepingCursor(q(model().description));
  });
  addRow(f, tr("Description"), description);
  addNumbers(
      f, tr("Gravity (m/s²)"), QStringLiteral("gravity"), 3, [this] { return list(model().gravity); },
      [this](const Values& v, QString* e) { return edit::setGravity(*doc_, vec3(v), e); });
  // two short rows rather than one wrapped label: a form layout keeps the height a wrapped label
  // had when first laid out, and cut the text of a second, larger model to one line
  auto* contents = new QLabel;
  contents->setObjectName(QStringLiteral("contents"));
  bind(contents, nullptr, [this, contents] {
    int nq = 0, nv = 0;
    for (const kt::BodySpec& b : model().bodies) {
      nq += kt::jointNq(b.joint.type);
      nv += kt::jointNv(b.joint.type);
    }
    contents->setText(tr("%1, %2 DoF (nq %3)")
                          .arg(countText(static_cast<long long>(model().bodies.size()), tr("body"), tr("bodies")))
                          .arg(nv)
                          .arg(nq));
  });
  addRow(f, tr("Contents"), contents);
  auto* mass = new QLabel;
  mass->setObjectName(QStringLiteral("totalMass"));
  bind(mass, nullptr, [this, mass] {
    double total = 0.0;
    for (const kt::BodySpec& b : model().bodies)
      total += kt::bodyMassProperties(b, model().sourceDirectory, kt::meshFiles()).mass;
    mass->setText(tr("%1 kg").arg(QString::number(total, 'g', 6)));
  });
  addRow(f, tr("Total mass"), mass);

  QFormLayout* s = addSection(tr("Simulation defaults"));
  const auto setSim = [this](const std::function<void(kt::SimulationSettings&)>& change, QString* e) {
    kt::SimulationSettings settings = model().simulation;
    change(settings);
    return edit::setSimulation(*doc_, settings, e);
  };
  // Solver and integrator names come from the engine's tables; an unknown name in the file is
  // kept as an extra entry so that it shows (the problems list says why it is wrong).
  QStringList solvers;
  for (const kt::SolverInfo& info : kt::solverRegistry()) solvers << q(info.name);
  QStringList integrators;
  for (const std::string& name : kt::integratorNames()) integrators << q(name);
  const auto nameCombo = [this, setSim](const QString& path, const QStringList& names,
                                        std::string kt::SimulationSettings::*member) {
    auto* c = new QComboBox;
    c->setObjectName(path);
    narrow(c);
    connect(c, &QComboBox::activated, this, [this, c, setSim, member](int i) {
      commit(c, [&](QString* e) {
        return setSim([&](kt::SimulationSettings& st) { st.*member = c->itemText(i).toStdString(); }, e);
      });
    });
    bind(c, nullptr, [this, c, names, member] {
      QStringList items = names;
      const QString current = q(model().simulation.*member);
      if (!items.contains(current)) items << current;
      QStringList shown;
      for (int i = 0; i < c->count(); ++i) shown << c->itemText(i);
      if (shown != items) {
        c->clear();
        c->addItems(items);
      }
      c->setCurrentIndex(static_cast<int>(items.indexOf(current)));
    });
    return c;
  };
  QComboBox* solver = nameCombo(QStringLiteral("simulation.solver"), solvers, &kt::SimulationSettings::solver);
  for (int i = 0; i < static_cast<int>(kt::solverRegistry().size()); ++i)
    solver->setItemData(i, q(kt::solverRegistry()[static_cast<std::size_t>(i)].description), Qt::ToolTipRole);
  addRow(s, tr("Solver"), solver);
  addRow(s, tr("Integrator"),
         nameCombo(QStringLiteral("simulation.integrator"), integrators, &kt::SimulationSettings::integrator));
  const auto number = [&](const QString& label, const QString& path, double kt::SimulationSettings::*member) {
    addNumbers(
        s, label, path, 1, [this, member] { return Values{model().simulation.*member}; },
        [setSim, member](const Values& v, QString* e) {
          return setSim([&](kt::SimulationSettings& st) { st.*member = v[0]; }, e);
        });
  };
  number(tr("Step (s)"), QStringLiteral("simulation.step"), &kt::SimulationSettings::step);
  number(tr("Duration (s)"), QStringLiteral("simulation.duration"), &kt::SimulationSettings::duration);
  number(tr("Tolerance (rel.)"), QStringLiteral("simulation.tolerance"), &kt::SimulationSettings::tolerance);
}

}  // namespace kt::ui
