// SPDX-License-Identifier: BSD-3-Clause
#include "ui/teaching/algorithm_stepper_dock.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "core/dynamics/cfa/elimination_fill.hpp"
#include "core/results/signals.hpp"
#include "render/charts/matrix_view.hpp"
#include "render/overlays/step_arrows.hpp"
#include "render/scene/model_scene.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

// A value as one line of the table: vectors in full (a spatial vector's two halves split by |),
// matrices by their size.
QString valueText(const kt::TracedValue& v) {
  const Eigen::MatrixXd& m = v.value;
  const bool spatial = v.kind == kt::TracedValue::Kind::Motion || v.kind == kt::TracedValue::Kind::Force;
  if (spatial || (m.cols() == 1 && m.rows() <= 12)) {
    QStringList parts;
    for (Eigen::Index k = 0; k < m.rows(); ++k) {
      if (spatial && k == 3) parts << QStringLiteral("|");
      parts << fourDigits(m(k, 0));
    }
    const QString numbers = QStringLiteral("[ %1 ]").arg(parts.join(QLatin1Char(' ')));
    if (!spatial) return numbers;
    const kt::SpatialUnits u = kt::spatialUnits(v.quantity);  // the units of the two halves, after them
    return QStringLiteral("%1 %2 | %3").arg(numbers, QString::fromUtf8(u.angular), QString::fromUtf8(u.linear));
  }
  if (m.rows() == 1 && m.cols() == 1) return fourDigits(m(0, 0));
  return QObject::tr("%1 × %2 matrix").arg(m.rows()).arg(m.cols());
}

// Symbols with their dots (q̈, ν̇, S̊) as rich text that shows the dots: the common sans-serif UI
// font (DejaVu Sans) draws q, ν and ω and drops a combining mark over them, so that q̈ read as q.
// Each letter with its marks is set in the monospaced font of the equations, which places them.
QString withMarksShown(const QString& plain) {
  QString out;
  for (qsizetype k = 0; k < plain.size();) {
    qsizetype end = k + 1;
    while (end < plain.size() && plain[end].category() == QChar::Mark_NonSpacing) ++end;
    const QString cluster = plain.mid(k, end - k).toHtmlEscaped();
    out +=
        end - k > 1 ? QStringLiteral("<span style=\"font-family:'DejaVu Sans Mono'\">%1</span>").arg(cluster) : cluster;
    k = end;
  }
  return out;
}

// What a value is made of: a spatial vector's two halves (an acceleration's are not ω and v, a
// momentum's not n and f; their units follow the value).
QString kindText(const kt::TracedValue& v) {
  switch (v.kind) {
    case kt::TracedValue::Kind::Motion:
    case kt::TracedValue::Kind::Force: {
      using Q = kt::TracedValue::Quantity;
      return v.quantity == Q::Velocity ? QObject::tr("[ω | v]")
             : v.quantity == Q::Wrench ? QObject::tr("[n | f]")
                                       : QObject::tr("[angular | linear]");
    }
    case kt::TracedValue::Kind::Coordinates: return QObject::tr("joint coordinates");
    case kt::TracedValue::Kind::Matrix: break;
  }
  return QObject::tr("matrix");
}

// The elimination views' states (kt::kPattern*), their colours and names.
const std::vector<QColor>& patternColours() {
  static const std::vector<QColor> colours = {Qt::white, QColor(120, 150, 200), QColor(215, 50, 40),
                                              QColor(205, 205, 205), QColor(240, 175, 30)};
  return colours;
}

QStringList patternNames() {
  return {QObject::tr("zero"), QObject::tr("nonzero in the matrix"),
          QObject::tr("fill: zero in the matrix, not in the factor"), QObject::tr("eliminated"),
          QObject::tr("this step's block")};
}

// The entries the record of an elimination holds: a matrix of rows² entries per step.
long long eliminationEntries(const kt::Tree& tree, int choice) {
  long long steps = 0, rows = 0;
  if (choice == AlgorithmStepperDock::CrbaCholesky) {
    rows = tree.nv;
    for (const kt::JointModel& j : tree.joints) steps += j.nv > 0 ? 2 : 0;  // M's columns, L's
  } else if (choice == AlgorithmStepperDock::CfaOddEven) {
    rows = tree.nlambda;
    for (const std::vector<int>& segment : kt::chainSegments(tree)) {
      long long blocks = 0;
      for (int i : segment) blocks += tree.joints[static_cast<std::size_t>(i)].nv < 6 ? 1 : 0;
      long long rounds = 0;
      for (std::size_t s = 1; s < segment.size(); s *= 2) ++rounds;
      steps += blocks * rounds;
    }
  } else {
    rows = tree.nlambda;
    for (const kt::JointModel& j : tree.joints) steps += j.nv < 6 ? 1 : 0;
  }
  return steps * rows * rows;
}

QString patternLegend() {
  const QStringList names = patternNames();
  QStringList items;
  for (int s = 1; s < names.size(); ++s)
    items << QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
                 .arg(patternColours()[static_cast<std::size_t>(s)].name(), names[s]);
  return items.join(QStringLiteral("&nbsp;&nbsp; "));
}

}  // namespace

AlgorithmStepperDock::AlgorithmStepperDock(SimulationController* simulation, render::SceneView* view, QWidget* parent)
    : QDockWidget(tr("Algorithm Stepper"), parent),
      simulation_(simulation),
      view_(view),
      choice_(new QComboBox),
      header_(new QLabel),
      passBack_(new QPushButton(tr("|◀ Pass"))),
      back_(new QPushButton(tr("◀ Step"))),
      forward_(new QPushButton(tr("Step ▶"))),
      passForward_(new QPushButton(tr("Pass ▶|"))),
      play_(new QPushButton(tr("Play"))),
      speed_(new QSpinBox),
      slider_(new QSlider(Qt::Horizontal)),
      position_(new QLabel),
      pass_(new QLabel),
      equation_(new QLabel),
      filled_(new QLabel),
      values_(new QTableWidget),
      matrix_(new render::MatrixView),
      matrixNote_(new QLabel),
      handed_(new QLabel),
      arrowsOn_(new QCheckBox(tr("Draw in the 3D view"))),
      timer_(new QTimer(this)),
      retrace_(new QTimer(this)) {
  setObjectName(QStringLiteral("algorithmStepperDock"));
  choice_->setObjectName(QStringLiteral("stepperAlgorithm"));
  choice_->addItems({tr("ABA: articulated-body algorithm (3 passes, then the loads)"),
                     tr("RNEA: recursive Newton–Euler (2 passes)"), tr("CRBA + Cholesky: M(q), its factor, the solve"),
                     tr("CFA on a tree: elimination leaves first (cfa-tree)"),
                     tr("CFA on a tree: elimination root first (to see the fill)"),
                     tr("CFA odd-even rounds (cfa-oddeven: rows 2, 4, 8 … apart fill)"),
                     tr("Poisson-impulse sweep: ν and ṗ from the impulses p = M ν (poisson-sweep)")});
  choice_->setToolTip(tr("The algorithm to step through, at the state the timeline shows"));
  for (QPushButton* b : {passBack_, back_, forward_, passForward_, play_}) b->setAutoDefault(false);
  passBack_->setToolTip(tr("To the start of this pass (or of the previous one)"));
  back_->setToolTip(tr("One body back"));
  forward_->setToolTip(tr("One body on"));
  passForward_->setToolTip(tr("To the start of the next pass"));
  play_->setToolTip(tr("Step on by itself, at the speed beside"));
  speed_->setRange(1, 20);
  speed_->setValue(2);
  speed_->setSuffix(tr(" steps/s"));
  speed_->setToolTip(tr("How fast Play steps"));
  slider_->setObjectName(QStringLiteral("stepperSlider"));
  slider_->setToolTip(tr("Every step of the algorithm: drag to any"));
  pass_->setWordWrap(true);
  pass_->setTextFormat(Qt::RichText);
  QFont bold = pass_->font();
  bold.setBold(true);
  pass_->setFont(bold);
  for (QLabel* l : {header_, equation_, filled_, matrixNote_, handed_}) {
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  QFont mono = equation_->font();
  mono.setFamily(QStringLiteral("DejaVu Sans Mono"));
  equation_->setFont(mono);
  filled_->setFont(mono);
  equation_->setStyleSheet(QStringLiteral("QLabel { background: #f4f4f0; padding: 4px; }"));
  values_->setObjectName(QStringLiteral("stepperValues"));
  values_->setColumnCount(3);
  values_->setHorizontalHeaderLabels({tr("symbol"), tr("what it is"), tr("value")});
  values_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  // the values (with their units) as wide as they are; what they are takes the rest
  values_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  values_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
  values_->setWordWrap(false);
  values_->verticalHeader()->hide();
  values_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  values_->setSelectionBehavior(QAbstractItemView::SelectRows);
  values_->setSelectionMode(QAbstractItemView::SingleSelection);
  values_->setToolTip(tr("Pick a matrix to see it below; the vectors are drawn on their bodies"));
  matrix_->setObjectName(QStringLiteral("stepperMatrix"));
  matrix_->setMinimumSize(200, 200);
  arrowsOn_->setObjectName(QStringLiteral("stepperArrows"));
  arrowsOn_->setChecked(true);
  arrowsOn_->setToolTip(
      tr("The step's vectors on their bodies (two tips: ω or a moment; one tip: v or a force), "
         "and what it hands on as a black arrow along the tree"));

  // two columns: the step (controls, pass, equations, values) and its matrix
  auto* left = new QWidget;
  auto* layout = new QVBoxLayout(left);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(choice_);
  auto* buttons = new QHBoxLayout;
  for (QWidget* w : {static_cast<QWidget*>(passBack_), static_cast<QWidget*>(back_), static_cast<QWidget*>(forward_),
                     static_cast<QWidget*>(passForward_), static_cast<QWidget*>(play_), static_cast<QWidget*>(speed_)})
    buttons->addWidget(w);
  buttons->addStretch(1);
  layout->addLayout(buttons);
  auto* track = new QHBoxLayout;
  track->addWidget(slider_, 1);
  track->addWidget(position_);
  layout->addLayout(track);
  layout->addWidget(header_);  // under the controls: its length changes, their place does not
  layout->addWidget(pass_);
  layout->addWidget(equation_);
  layout->addWidget(filled_);
  layout->addWidget(values_, 1);
  layout->addWidget(handed_);
  layout->addWidget(arrowsOn_);
  auto* right = new QWidget;
  auto* matrixColumn = new QVBoxLayout(right);
  matrixColumn->setContentsMargins(4, 4, 4, 4);
  matrixColumn->addWidget(matrix_, 1);
  matrixColumn->addWidget(matrixNote_);
  auto* content = new QSplitter(Qt::Horizontal);
  content->setObjectName(QStringLiteral("stepperSplitter"));
  content->addWidget(left);
  content->addWidget(right);
  content->setStretchFactor(0, 3);
  content->setStretchFactor(1, 2);
  content->setChildrenCollapsible(false);
  setWidget(content);

  connect(choice_, &QComboBox::currentIndexChanged, this, [this] {
    step_ = 0;
    refresh();
  });
  connect(passBack_, &QPushButton::clicked, this, &AlgorithmStepperDock::passBack);
  connect(back_, &QPushButton::clicked, this, &AlgorithmStepperDock::stepBack);
  connect(forward_, &QPushButton::clicked, this, &AlgorithmStepperDock::stepForward);
  connect(passForward_, &QPushButton::clicked, this, &AlgorithmStepperDock::passForward);
  connect(play_, &QPushButton::clicked, this, [this] { setPlaying(!playing()); });
  connect(speed_, &QSpinBox::valueChanged, this, [this](int perSecond) { timer_->setInterval(1000 / perSecond); });
  timer_->setInterval(1000 / speed_->value());
  connect(timer_, &QTimer::timeout, this, [this] {
    if (step_ + 1 >= static_cast<int>(trace_.steps.size())) {
      setPlaying(false);
      return;
    }
    stepForward();
  });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (v != step_) setStep(v);
  });
  connect(values_, &QTableWidget::currentCellChanged, this, [this](int row) { showMatrix(row); });
  connect(arrowsOn_, &QCheckBox::toggled, this, [this] { showArrows(); });
  // the record is taken again once the shown sample has stopped changing: not at every frame of
  // a run or of the timeline's playback, and after a pose at the same time too
  retrace_->setSingleShot(true);
  retrace_->setInterval(kRetraceDelayMs);
  connect(retrace_, &QTimer::timeout, this, [this] {
    if (isVisible()) refresh();
  });
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    if (!isVisible()) return;
    retrace_->start();
    // until then the record is of an earlier time: said so, not shown as the present one
    if (!trace_.steps.empty() && simulation_->hasShownSample() && simulation_->shownTime() != tracedTime_)
      header_->setText(tr("Recorded at t = %1 s; the views show t = %2 s. It is recorded again when the shown time "
                          "stops changing (pause the run, or let go of the timeline).")
                           .arg(tracedTime_, 0, 'f', 3)
                           .arg(simulation_->shownTime(), 0, 'f', 3));
  });
  connect(simulation_, &SimulationController::sessionEnded, this, [this] {
    retrace_->stop();
    clearViews(tr("Run the model (or move the timeline): the algorithms are stepped at the state shown."));
  });
  // tabbed behind the Plots or Mathematics, the dock is not hidden but out of sight: its vectors
  // and legend leave the 3D view with it, and come back with it
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    inSight_ = visible;
    if (visible) {
      refresh();
      return;
    }
    setPlaying(false);
    if (arrows_ && arrows_->visible()) {
      arrows_->hide();
      view_->update();
    }
  });
  refresh();
}

AlgorithmStepperDock::~AlgorithmStepperDock() = default;

void AlgorithmStepperDock::showEvent(QShowEvent* event) {
  QDockWidget::showEvent(event);
  refresh();
}

void AlgorithmStepperDock::hideEvent(QHideEvent* event) {
  QDockWidget::hideEvent(event);
  setPlaying(false);
  if (arrows_ && arrows_->visible()) {
    arrows_->hide();
    view_->update();
  }
}

void AlgorithmStepperDock::setAlgorithm(Choice choice) { choice_->setCurrentIndex(static_cast<int>(choice)); }

AlgorithmStepperDock::Choice AlgorithmStepperDock::algorithm() const {
  return static_cast<Choice>(choice_->currentIndex());
}

bool AlgorithmStepperDock::playing() const { return timer_->isActive(); }

void AlgorithmStepperDock::setPlaying(bool on) {
  if (on && !trace_.steps.empty()) {
    if (step_ + 1 >= static_cast<int>(trace_.steps.size())) setStep(0);  // play again from the start
    timer_->start();
  } else {
    timer_->stop();
  }
  play_->setText(playing() ? tr("Pause") : tr("Play"));
}

void AlgorithmStepperDock::setStep(int step) {
  const int n = static_cast<int>(trace_.steps.size());
  step_ = n == 0 ? 0 : std::clamp(step, 0, n - 1);
  showStep();
}

void AlgorithmStepperDock::passForward() {
  if (trace_.steps.empty()) return;
  const int pass = trace_.steps[static_cast<std::size_t>(step_)].pass;
  setStep(pass + 1 < static_cast<int>(trace_.passes.size()) ? trace_.passStart(pass + 1)
                                                            : static_cast<int>(trace_.steps.size()) - 1);
}

void AlgorithmStepperDock::passBack() {
  if (trace_.steps.empty()) return;
  const int pass = trace_.steps[static_cast<std::size_t>(step_)].pass;
  const int start = trace_.passStart(pass);
  if (step_ > start || start == 0) {
    setStep(start);
    return;
  }
  // the start of the pass before, skipping passes without steps (no reaction coordinates, …)
  int previous = pass - 1;
  while (previous > 0 && trace_.passStart(previous) == start) --previous;
  setStep(trace_.passStart(previous));
}

void AlgorithmStepperDock::clearViews(const QString& why) {
  trace_ = {};
  tracedTree_ = nullptr;
  header_->setText(why);
  for (QLabel* l : {position_, pass_, equation_, filled_, matrixNote_, handed_}) l->clear();
  values_->setRowCount(0);
  matrix_->clear();
  slider_->setRange(0, 0);
  for (QWidget* w : {static_cast<QWidget*>(passBack_), static_cast<QWidget*>(back_), static_cast<QWidget*>(forward_),
                     static_cast<QWidget*>(passForward_), static_cast<QWidget*>(play_), static_cast<QWidget*>(slider_)})
    w->setEnabled(false);
  setPlaying(false);
  if (arrows_ && arrows_->visible()) {
    arrows_->hide();
    view_->update();
  }
}

void AlgorithmStepperDock::refresh() {
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  if (!tree || !layout || !simulation_->hasShownSample() || simulation_->outdated()) {
    clearViews(simulation_->outdated()
                   ? tr("The model was edited since the run: run it again to step through its algorithms.")
                   : tr("Run the model (or move the timeline): the algorithms are stepped at the state shown."));
    return;
  }
  if (tree->nb > kMaxBodies) {
    clearViews(tr("This model has %1 bodies: the stepper shows models of up to %2.").arg(tree->nb).arg(kMaxBodies));
    return;
  }
  const Choice choice = algorithm();
  const bool elimination =
      choice == CrbaCholesky || choice == CfaLeavesFirst || choice == CfaRootFirst || choice == CfaOddEven;
  const int rows = choice == CrbaCholesky ? tree->nv : tree->nlambda;
  if (elimination && rows > kMaxRows) {
    clearViews(tr("This model has %1 rows to eliminate: the stepper shows up to %2. ABA and the RNEA step any model "
                  "of up to %3 bodies.")
                   .arg(rows)
                   .arg(kMaxRows)
                   .arg(kMaxBodies));
    return;
  }
  const double time = simulation_->shownTime();
  if (elimination && eliminationEntries(*tree, choice) > kMaxEliminationEntries) {
    clearViews(tr("The elimination of this model's %1 rows would be recorded in %2 MB: the stepper shows its "
                  "eliminations up to %3 MB. ABA, the RNEA and the Poisson sweep step any model of up to %4 bodies.")
                   .arg(rows)
                   .arg(eliminationEntries(*tree, choice) * 12 / 1000000)
                   .arg(kMaxEliminationEntries * 12 / 1000000)
                   .arg(kMaxBodies));
    return;
  }
  const double* row = simulation_->shownRow().data();
  const Eigen::VectorXd& q = simulation_->shownPositions();
  Eigen::VectorXd v, qdd, tau;
  layout->velocityVectorFromRow(kt::SignalKind::Qd, row, v);
  layout->velocityVectorFromRow(kt::SignalKind::Qdd, row, qdd);
  layout->velocityVectorFromRow(kt::SignalKind::Tau, row, tau);
  static constexpr kt::TracedAlgorithm kAlgorithms[] = {
      kt::TracedAlgorithm::Aba, kt::TracedAlgorithm::Rnea, kt::TracedAlgorithm::CrbaCholesky, kt::TracedAlgorithm::Cfa,
      kt::TracedAlgorithm::Cfa, kt::TracedAlgorithm::Cfa,  kt::TracedAlgorithm::PoissonSweep};
  trace_ = kt::traceAlgorithm(kAlgorithms[choice], *tree, q, v, tau, qdd, {},
                              choice == CfaRootFirst ? kt::EliminationOrder::RootFirst
                              : choice == CfaOddEven ? kt::EliminationOrder::OddEven
                                                     : kt::EliminationOrder::LeavesFirst);
  tracedTree_ = tree;
  tracedChoice_ = static_cast<int>(choice);
  tracedTime_ = time;
  header_->setText(choice == Rnea
                       ? tr("At t = %1 s (the shown sample): the RNEA at the run's positions q, velocities ν "
                            "and accelerations gives back its joint forces τ.")
                             .arg(time, 0, 'f', 3)
                   : choice == PoissonSweep
                       ? tr("At t = %1 s (the shown sample): the impulses p = M(q) ν of the run's state, swept back to "
                            "ν (largest difference from the run's: %2) and their rates ṗ.")
                             .arg(time, 0, 'f', 3)
                             .arg(v.size() > 0 ? (trace_.velocities - v).cwiseAbs().maxCoeff() : 0.0, 0, 'g', 2)
                       : tr("At t = %1 s (the shown sample): at the run's q, ν and drive forces τ. "
                            "%2 steps in %3 passes.")
                             .arg(time, 0, 'f', 3)
                             .arg(trace_.steps.size())
                             .arg(trace_.passes.size()));
  // a push or a drag acting at this time is not part of the record (the stepper applies no wrench)
  bool pushed = false;
  for (std::size_t k = 0; k < layout->infos().size(); ++k)
    pushed = pushed || (layout->infos()[k].kind == kt::SignalKind::Applied && row[k] != 0.0);
  if (pushed) header_->setText(header_->text() + tr(" The push or drag acting at this time is not included."));
  for (QWidget* w : {static_cast<QWidget*>(passBack_), static_cast<QWidget*>(back_), static_cast<QWidget*>(forward_),
                     static_cast<QWidget*>(passForward_), static_cast<QWidget*>(play_), static_cast<QWidget*>(slider_)})
    w->setEnabled(true);
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, static_cast<int>(trace_.steps.size()) - 1));
  }
  setStep(step_);
}

void AlgorithmStepperDock::showStep() {
  const kt::Tree* tree = tracedTree_;
  if (!tree || trace_.steps.empty()) return;
  const kt::TracedStep& s = trace_.steps[static_cast<std::size_t>(step_)];
  const auto bodyName = [&](int b) { return QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(b)]); };
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(step_);
  }
  position_->setText(tr("step %1 of %2").arg(step_ + 1).arg(trace_.steps.size()));
  QString where;
  if (s.body >= 0) {
    const auto b = static_cast<std::size_t>(s.body);
    where = tr(" — body %1 (joint %2, %3 DoF)")
                .arg(bodyName(s.body), QString::fromStdString(tree->jointNames[b]))
                .arg(tree->joints[b].nv);
  }
  passText_ = tr("%1 of %2. %3%4")
                  .arg(s.pass + 1)
                  .arg(trace_.passes.size())
                  .arg(QString::fromStdString(trace_.passes[static_cast<std::size_t>(s.pass)]), where);
  pass_->setText(withMarksShown(passText_));
  equation_->setText(QString::fromStdString(s.equation));
  filled_->setText(QString::fromStdString(s.filled));
  filled_->setVisible(!s.filled.empty());
  QStringList targets;
  for (int t : s.targets) targets << bodyName(t);
  handed_->setText(
      s.handed.empty() || targets.isEmpty() ? QString()
      : s.takesFromTargets
          ? tr("Takes from %1: %2").arg(targets.join(QStringLiteral(", ")), QString::fromStdString(s.handed))
          : tr("Hands to %1: %2").arg(targets.join(QStringLiteral(", ")), QString::fromStdString(s.handed)));
  handed_->setVisible(!handed_->text().isEmpty());

  const int keep = values_->currentRow();
  const QString keptSymbol = keep >= 0 && values_->item(keep, 0) ? values_->item(keep, 0)->text() : QString();
  {
    const QSignalBlocker block(values_);
    values_->setRowCount(static_cast<int>(s.values.size()));
    for (int r = 0; r < static_cast<int>(s.values.size()); ++r) {
      const kt::TracedValue& v = s.values[static_cast<std::size_t>(r)];
      QString meaning = QString::fromStdString(v.meaning);
      if (v.body >= 0 && v.body != s.body) meaning += tr(" (in %1's axes)").arg(bodyName(v.body));
      meaning += QStringLiteral(", ") + kindText(v);
      const QStringList cells = {QString::fromStdString(v.symbol), meaning, valueText(v)};
      for (int c = 0; c < 3; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(cells[c]);
        if (c == 0 || c == 2) {  // the symbols as the equations write them, dots shown (withMarksShown)
          QFont mono = item->font();
          mono.setFamily(QStringLiteral("DejaVu Sans Mono"));
          item->setFont(mono);
        }
        values_->setItem(r, c, item);
      }
    }
    // the same symbol stays picked from step to step (I^A_i along pass 2)
    int pick = -1;
    for (int r = 0; r < values_->rowCount() && !keptSymbol.isEmpty(); ++r)
      if (values_->item(r, 0)->text() == keptSymbol) pick = r;
    // else the step's first square matrix (I^A_i in ABA's pass 2), unless the step has its own
    for (int r = 0; r < values_->rowCount() && pick < 0 && s.matrix.size() == 0; ++r) {
      const kt::TracedValue& v = s.values[static_cast<std::size_t>(r)];
      if (v.kind == kt::TracedValue::Kind::Matrix && v.value.rows() == v.value.cols() && v.value.rows() > 1) pick = r;
    }
    values_->setCurrentCell(pick, pick >= 0 ? 0 : -1);
  }
  showMatrix(values_->currentRow());
  showArrows();
  // the visited body is selected when the step moves, not when the same step is shown again at
  // another time (the user's own selection stays)
  if (s.body >= 0 && (step_ != visitedStep_ || tracedChoice_ != visitedChoice_)) emit bodyVisited(s.body);
  visitedStep_ = step_;
  visitedChoice_ = tracedChoice_;
}

void AlgorithmStepperDock::showMatrix(int row) {
  if (trace_.steps.empty()) return;
  const kt::TracedStep& s = trace_.steps[static_cast<std::size_t>(step_)];
  const kt::Tree* tree = tracedTree_;
  if (row >= 0 && row < static_cast<int>(s.values.size())) {
    const kt::TracedValue& v = s.values[static_cast<std::size_t>(row)];
    if (v.kind == kt::TracedValue::Kind::Matrix && v.value.rows() == v.value.cols() && v.value.rows() > 1) {
      const bool six = v.value.rows() == 6;
      matrix_->setMatrix(v.value, six ? QStringList{"wx", "wy", "wz", "vx", "vy", "vz"} : QStringList{},
                         six ? std::vector<int>{3} : std::vector<int>{}, QString::fromStdString(v.symbol));
      matrixNote_->setText(tr("%1: %2. Largest entry %3 in size; red positive, blue negative; hover for the values.")
                               .arg(QString::fromStdString(v.symbol), QString::fromStdString(v.meaning))
                               .arg(v.value.cwiseAbs().maxCoeff(), 0, 'g', 4));
      return;
    }
  }
  if (s.matrix.size() > 0) {
    QStringList labels;
    if (trace_.algorithm == kt::TracedAlgorithm::Cfa && tree) {
      for (int i = 0; i < tree->nb; ++i)
        for (const kt::ReactionComponent& c : kt::reactionComponents(tree->joints[static_cast<std::size_t>(i)]))
          labels << QStringLiteral("%1.%2").arg(QString::fromStdString(tree->jointNames[static_cast<std::size_t>(i)]),
                                                QString::fromStdString(c.name));
    } else {
      for (const std::string& l : s.labels) labels << QString::fromStdString(l);
    }
    const bool cfa = trace_.algorithm == kt::TracedAlgorithm::Cfa;
    const bool building = !cfa && s.pass == 2;  // CRBA's M, column by column
    matrix_->setMatrix(s.matrix, labels, s.blockStarts,
                       cfa ? QStringLiteral("A") : (building ? QStringLiteral("M") : QStringLiteral("L")));
    matrix_->setPattern(s.pattern, patternColours(), patternNames());
    matrixNote_->setText(
        (cfa && tracedChoice_ == CfaOddEven
             ? tr("A = TᵀΦT as the rounds leave it: each row of a chain segment takes up the rows s = 1, 2, 4 … "
                  "away, losing its couplings with them and gaining theirs. Fill so far: %1 entries (pairs of "
                  "blocks coupled where A has none).")
                   .arg(s.fill)
         : cfa ? tr("A = TᵀΦT as the elimination leaves it: the joints not yet eliminated hold the Schur "
                    "complement, an eliminated joint its row as it was eliminated. Fill so far: %1 "
                    "entries (one triangle).")
                     .arg(s.fill)
         : building ? tr("M as the columns are written: each joint's column, up the tree to the base.")
                    : tr("L as its columns are computed (M = L Lᵀ from the base). Fill so far: %1 "
                         "entries where M is zero.")
                          .arg(s.fill)) +
        QStringLiteral("<br>") + patternLegend());
    return;
  }
  matrix_->clear();
  bool matrices = false;
  for (const kt::TracedValue& v : s.values)
    matrices =
        matrices || (v.kind == kt::TracedValue::Kind::Matrix && v.value.rows() == v.value.cols() && v.value.rows() > 1);
  matrixNote_->setText(matrices ? tr("Pick a matrix in the table to see it here.")
                                : tr("This step computes vectors: they are drawn on their bodies in the 3D view."));
}

void AlgorithmStepperDock::showArrows() {
  const kt::Tree* tree = tracedTree_;
  const bool show = tree && !trace_.steps.empty() && isVisible() && inSight_ && arrowsOn_->isChecked() &&
                    simulation_->hasShownSample() &&
                    simulation_->shownSample().poses.X_0.size() == static_cast<std::size_t>(tree->nb);
  if (!show && !arrows_) return;
  if (!arrows_) arrows_ = std::make_unique<render::StepArrows>(view_->overlayRenderer());
  if (show) {
    arrows_->show(simulation_->shownSample().poses, trace_.steps[static_cast<std::size_t>(step_)], tree->bodyNames,
                  view_->scene().characteristicLength());
  } else if (arrows_->visible()) {
    arrows_->hide();
  } else {
    return;
  }
  view_->update();
}

QString AlgorithmStepperDock::headerText() const { return header_->text(); }
QString AlgorithmStepperDock::passText() const { return passText_; }
QString AlgorithmStepperDock::equationText() const { return equation_->text(); }
QString AlgorithmStepperDock::filledText() const { return filled_->text(); }
QString AlgorithmStepperDock::handedText() const { return handed_->text(); }
QString AlgorithmStepperDock::matrixNote() const { return matrixNote_->text(); }

}  // namespace kt::ui
