// SPDX-License-Identifier: BSD-3-Clause
#include "ui/teaching/compare_solvers_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"
#include "render/charts/figure_view.hpp"
#include "render/output/atomic_write.hpp"
#include "ui/results/export/export_file.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

QString relative(const kt::DifferenceMeasure& m) {
  return m.measured ? QString::number(m.rel(), 'e', 2) : QStringLiteral("–");
}

bool writeText(const QString& path, const QString& text, QString* error) {
  return render::writeFileAtomically(path, text.toUtf8(), error);
}

// The signals Liu et al. plot (Figs. 11–12): the base attitude when there is a free body,
// otherwise the joint angles.
QString defaultSignals(const kt::SignalLayout* layout) {
  return layout && !layout->freeBodies().empty() ? QStringLiteral("attitude:*") : QStringLiteral("q:*");
}

}  // namespace

CompareSolversDialog::CompareSolversDialog(const SimulationController& simulation, QWidget* parent)
    : QDialog(parent),
      simulation_(simulation),
      pointwiseMode_(new QRadioButton(tr("At the run's states (the solver alone)"))),
      trajectoryMode_(new QRadioButton(tr("Each solver's own run (solver and integrator)"))),
      intro_(new QLabel),
      integratorRow_(new QWidget),
      integratorLabel_(new QLabel),
      secondIntegrator_(new QComboBox),
      summary_(new QLabel),
      table_(new QTableWidget),
      quantity_(new QComboBox),
      signals_(new QLineEdit),
      log_(new QCheckBox(tr("Log scale"))),
      degrees_(new QCheckBox(tr("Angles in degrees"))),
      figure_(new render::FigureView),
      readout_(new QLabel),
      compareButton_(new QPushButton(tr("Compare"))),
      exportTable_(new QPushButton(tr("Export Table…"))),
      exportCurves_(new QPushButton(tr("Export Curves…"))),
      exportFigure_(new QPushButton(tr("Export Figure…"))),
      progressTimer_(new QTimer(this)),
      result_(std::make_unique<ComparisonResult>()) {
  setObjectName(QStringLiteral("compareSolversDialog"));
  setWindowTitle(tr("Compare Solvers"));
  intro_->setWordWrap(true);
  pointwiseMode_->setChecked(true);
  auto* modes = new QHBoxLayout;
  modes->addWidget(pointwiseMode_);
  modes->addWidget(trajectoryMode_);
  modes->addStretch(1);

  auto* box = new QGroupBox(tr("Solvers"));
  auto* grid = new QGridLayout(box);
  int k = 0;
  for (const kt::SolverInfo& info : kt::solverRegistry()) {
    auto* check = new QCheckBox(QString::fromStdString(info.name));
    check->setObjectName(QString::fromStdString(info.name));
    check->setToolTip(QString::fromStdString(info.description));
    check->setChecked(true);
    solvers_.push_back(check);
    grid->addWidget(check, k / 4, k % 4);
    ++k;
  }
  secondIntegrator_->setObjectName(QStringLiteral("secondIntegrator"));
  auto* integrators = new QHBoxLayout(integratorRow_);
  integrators->setContentsMargins(0, 0, 0, 0);
  integrators->addWidget(integratorLabel_);
  integrators->addWidget(new QLabel(tr("and also with")));
  integrators->addWidget(secondIntegrator_);
  integrators->addStretch(1);

  table_->setObjectName(QStringLiteral("compareTable"));
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  summary_->setObjectName(QStringLiteral("compareSummary"));
  summary_->setWordWrap(true);

  quantity_->addItem(tr("qdd"), static_cast<int>(ComparedQuantity::Qdd));
  quantity_->addItem(tr("joint loads"), static_cast<int>(ComparedQuantity::Load));
  quantity_->addItem(tr("p (impulse solvers)"), static_cast<int>(ComparedQuantity::P));
  quantity_->addItem(tr("ν from p (impulse solvers)"), static_cast<int>(ComparedQuantity::V));
  quantity_->addItem(tr("ṗ (impulse solvers)"), static_cast<int>(ComparedQuantity::Pdot));
  signals_->setObjectName(QStringLiteral("compareSignals"));
  signals_->setToolTip(
      tr("Signals to draw, as in kinetree-cli simulate --signals: names or patterns with * and ?, "
         "separated by commas (attitude:*, q:J1*)"));
  log_->setChecked(true);
  figure_->setObjectName(QStringLiteral("compareFigure"));
  readout_->setObjectName(QStringLiteral("compareReadout"));
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  readout_->setWordWrap(true);
  table_->setMinimumHeight(150);
  auto* figureControls = new QHBoxLayout;
  figureControls->addWidget(new QLabel(tr("Draw")));
  figureControls->addWidget(quantity_);
  figureControls->addWidget(signals_, 3);
  figureControls->addStretch(1);
  figureControls->addWidget(log_);
  figureControls->addWidget(degrees_);
  auto* figurePane = new QWidget;
  auto* figureLayout = new QVBoxLayout(figurePane);
  figureLayout->setContentsMargins(0, 0, 0, 0);
  figureLayout->addLayout(figureControls);
  figureLayout->addWidget(figure_, 1);
  figureLayout->addWidget(readout_);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(table_);
  split->addWidget(figurePane);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 2);
  split->setSizes({230, 460});

  for (QPushButton* b : {exportTable_, exportCurves_, exportFigure_}) b->setEnabled(false);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  buttons->addButton(compareButton_, QDialogButtonBox::ActionRole);
  buttons->addButton(exportTable_, QDialogButtonBox::ActionRole);
  buttons->addButton(exportCurves_, QDialogButtonBox::ActionRole);
  buttons->addButton(exportFigure_, QDialogButtonBox::ActionRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(compareButton_, &QPushButton::clicked, this, [this] {
    if (worker_) {
      stop_ = true;  // the button says Stop while the runs go on
    } else {
      compare();
    }
  });
  const auto exporter = [this](const QString& title, const QString& name, const QString& filters, auto write) {
    return [this, title, name, filters, write] {
      const QString path = askExportFile(this, title, name, filters);
      QString error;
      if (!path.isEmpty() && !(this->*write)(path, &error)) QMessageBox::warning(this, title, error);
    };
  };
  connect(exportTable_, &QPushButton::clicked, this,
          exporter(tr("Export Comparison Table"), QStringLiteral("comparison.csv"), tr("CSV files (*.csv)"),
                   &CompareSolversDialog::exportCsv));
  connect(exportCurves_, &QPushButton::clicked, this,
          exporter(tr("Export Comparison Curves"), QStringLiteral("comparison_curves.csv"), tr("CSV files (*.csv)"),
                   &CompareSolversDialog::exportCurves));
  connect(exportFigure_, &QPushButton::clicked, this,
          exporter(tr("Export Comparison Figure"), QStringLiteral("comparison.pdf"),
                   tr("PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)"), &CompareSolversDialog::exportFigure));
  connect(pointwiseMode_, &QRadioButton::toggled, this, &CompareSolversDialog::updateMode);
  connect(quantity_, &QComboBox::currentIndexChanged, this, &CompareSolversDialog::updateFigure);
  connect(signals_, &QLineEdit::editingFinished, this, &CompareSolversDialog::updateFigure);
  connect(log_, &QCheckBox::toggled, this, &CompareSolversDialog::updateFigure);
  connect(degrees_, &QCheckBox::toggled, this, &CompareSolversDialog::updateFigure);
  connect(figure_, &render::FigureView::timeClicked, this, &CompareSolversDialog::timeRequested);
  connect(figure_, &render::FigureView::hovered, this, [this](double t) {
    if (std::isnan(t)) {
      followTimeline();
    } else {
      readout_->setText(curvesAt(curves_, t));
    }
  });
  connect(&simulation_, &SimulationController::shownSampleChanged, this, &CompareSolversDialog::followTimeline);
  connect(&simulation_, &SimulationController::sessionStarted, this, &CompareSolversDialog::updateReference);
  connect(progressTimer_, &QTimer::timeout, this,
          [this] { summary_->setText(tr("Comparing: %1 of %2 done…").arg(progress_.load()).arg(progressTotal_)); });
  progressTimer_->setInterval(250);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(modes);
  layout->addWidget(intro_);
  layout->addWidget(box);
  layout->addWidget(integratorRow_);
  layout->addWidget(split, 1);
  layout->addWidget(summary_);
  layout->addWidget(buttons);
  updateReference();
  signals_->setText(defaultSignals(simulation_.signalLayout()));
  updateMode();
  resize(1000, 760);
}

CompareSolversDialog::~CompareSolversDialog() {
  stop_ = true;
  if (worker_) worker_->wait();  // it writes into this dialog
}

void CompareSolversDialog::setTrajectory(bool trajectory) {
  (trajectory ? trajectoryMode_ : pointwiseMode_)->setChecked(true);
}

void CompareSolversDialog::setSolvers(const QStringList& names) {
  for (QCheckBox* c : solvers_) c->setChecked(names.isEmpty() || names.contains(c->objectName()));
}

void CompareSolversDialog::setSecondIntegrator(const QString& name) {
  secondIntegrator_->setCurrentIndex(std::max(0, secondIntegrator_->findData(name)));
}

void CompareSolversDialog::setSignals(const QString& patterns) {
  signals_->setText(patterns);
  updateFigure();
}

void CompareSolversDialog::setLogScale(bool log) { log_->setChecked(log); }

// The run's solver is the reference; the run's integrator the first integrator.
void CompareSolversDialog::updateReference() {
  reference_ = QString::fromStdString(simulation_.activeOptions().solver);
  for (QCheckBox* c : solvers_) {
    const bool reference = c->objectName() == reference_;
    c->setEnabled(!reference);
    c->setText(reference ? tr("%1 (reference)").arg(c->objectName()) : c->objectName());
  }
  const QString runIntegrator = QString::fromStdString(simulation_.activeOptions().integrator);
  integratorLabel_->setText(tr("Integrator: %1 (the run's)").arg(runIntegrator));
  const QString chosen = secondIntegrator_->currentData().toString();
  secondIntegrator_->clear();
  secondIntegrator_->addItem(tr("none"), QString());
  for (const std::string& name : kt::integratorNames())
    if (QString::fromStdString(name) != runIntegrator)
      secondIntegrator_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  secondIntegrator_->setCurrentIndex(std::max(0, secondIntegrator_->findData(chosen)));
  updateMode();
}

void CompareSolversDialog::updateMode() {
  const bool trajectory = trajectoryMode_->isChecked();
  if (!worker_ && result_->trajectory != trajectory && (!result_->pointwise.empty() || !result_->runs.empty())) {
    result_ = std::make_unique<ComparisonResult>();  // the other mode's result: Compare makes this one's
    showResults();
    summary_->setText(tr("Press Compare."));
  }
  integratorRow_->setVisible(trajectory);
  quantity_->setVisible(!trajectory);
  signals_->setVisible(trajectory);
  degrees_->setVisible(trajectory);
  const QString run = simulation_.runLabel();
  intro_->setText(
      trajectory
          ? tr("Every chosen solver integrates the model over the recorded span with the integrator and step of the "
               "run (%1), as Liu, Hu & Zhang compare their CFA with a recursive algorithm (Figs. 11–12). The "
               "velocity-form and the Poisson-impulse solvers integrate different state variables, so their runs "
               "differ by the integrator's truncation error too: %2 is run once more with a finer integration "
               "(half the step, or a 32 times tighter tolerance), and that difference, the integrator's own, is "
               "drawn in grey.")
                .arg(run, reference_)
          : tr("Every chosen solver is evaluated at the states of the recorded run (%1), so that what differs is "
               "the solver alone: the accelerations (qdd) and the joint loads against %2, and for the "
               "Poisson-impulse solvers p, ν and ṗ against M ν, ν and d/dt (M ν). Differences are relative to the "
               "largest value over the run.")
                .arg(run, reference_));
}

void CompareSolversDialog::compare() {
  if (worker_) return;
  const kt::Recorder* rec = simulation_.recorder();
  const kt::SignalLayout* layout = simulation_.signalLayout();
  const kt::Tree* tree = simulation_.tree();
  const kt::Model* model = simulation_.sessionModel();
  if (!rec || !layout || !tree || !model || rec->size() < 2) {
    summary_->setText(tr("There is no recorded run to compare: run the model first."));
    return;
  }
  updateReference();
  std::vector<std::string> names{reference_.toStdString()};
  for (QCheckBox* c : solvers_)
    if (c->isChecked() && c->objectName() != reference_) names.push_back(c->objectName().toStdString());
  auto pending = std::make_unique<ComparisonResult>();
  pending->reference = names.front();
  pending->trajectory = trajectoryMode_->isChecked();
  std::vector<double> row(static_cast<std::size_t>(rec->width()));
  rec->copyRows(rec->size() - 1, rec->size(), row.data());
  const double duration = row[0];
  const kt::SimulatorOptions options = simulation_.activeOptions();
  const QString second = secondIntegrator_->currentData().toString();
  pending->label = QStringLiteral("%1, %2 s").arg(simulation_.runLabel()).arg(duration, 0, 'g', 6);

  std::function<void(ComparisonResult&)> work;
  if (!pending->trajectory) {
    // the states: q, ν, τ of the recorded rows (every k-th of a long run), copied for the worker
    const std::size_t rows = rec->size(), every = rows / kMaxStates + 1;
    std::vector<kt::ComparisonState> states;
    for (std::size_t r = 0; r < rows; r += every) {
      rec->copyRows(r, r + 1, row.data());
      kt::ComparisonState s;
      s.t = row[0];
      layout->positionsFromRow(row.data(), s.q);
      layout->velocityVectorFromRow(kt::SignalKind::Qd, row.data(), s.v);
      layout->velocityVectorFromRow(kt::SignalKind::Tau, row.data(), s.tau);
      pending->stateTimes.push_back(s.t);
      states.push_back(std::move(s));
    }
    progressTotal_ = 1;
    work = [tree = *tree, names, states = std::move(states)](ComparisonResult& r) {
      r.pointwise = kt::compareAtStates(tree, names, states);
    };
    summary_->setText(tr("Comparing %n solvers at %1 states…", nullptr, static_cast<int>(names.size()))
                          .arg(pending->stateTimes.size()));
  } else {
    // the runs: the reference, its integrator check, then every other (solver, integrator)
    std::vector<kt::SimulatorOptions> runs;
    kt::SimulatorOptions o = options;
    o.solver = names.front();
    runs.push_back(o);
    runs.push_back(kt::integratorCheckOptions(o));
    QStringList integrators{QString::fromStdString(options.integrator)};
    if (!second.isEmpty() && !integrators.contains(second)) integrators << second;
    for (const QString& integrator : integrators) {
      for (const std::string& name : names) {
        o.solver = name;
        o.integrator = integrator.toStdString();
        if (o.solver == options.solver && o.integrator == options.integrator) continue;  // the reference
        runs.push_back(o);
      }
    }
    // each run records every signal, as the session did: refused beyond what a run may record
    const double bytes = static_cast<double>(runs.size()) * static_cast<double>(rec->size()) *
                         static_cast<double>(rec->width()) * sizeof(double);
    if (bytes > static_cast<double>(SimulationController::recordingLimitBytes())) {
      summary_->setText(tr("The %1 runs would record %2 MB, more than the %3 MB a recording may take: compare a "
                           "shorter run, or fewer solvers.")
                            .arg(runs.size())
                            .arg(bytes / 1e6, 0, 'f', 0)
                            .arg(static_cast<double>(SimulationController::recordingLimitBytes()) / 1e6, 0, 'f', 0));
      return;
    }
    progressTotal_ = static_cast<int>(runs.size());
    work = [this, model = *model, runs = std::move(runs), duration](ComparisonResult& r) {
      for (std::size_t k = 0; k < runs.size() && !stop_; ++k) {
        r.runs.push_back(kt::runForComparison(model, runs[k], duration, &stop_));
        r.runs.back().integratorCheck = k == 1;
        const kt::ComparedRun& reference = r.runs.front();
        r.differences.push_back(kt::trajectoryDifference(r.runs.back().sim->recorder(), reference.sim->recorder(),
                                                         reference.sim->signalLayout()));
        ++progress_;
      }
      if (stop_) r.error = "stopped";
    };
    summary_->setText(tr("Running %n simulations…", nullptr, progressTotal_));
  }
  stop_ = false;
  progress_ = 0;
  pending_ = std::move(pending);
  // the runs can be stopped between steps; the evaluation at the states is a few seconds at most
  if (pending_->trajectory) {
    compareButton_->setText(tr("Stop"));
  } else {
    compareButton_->setEnabled(false);
  }
  worker_ = QThread::create([this, work = std::move(work)] {
    try {
      work(*pending_);
    } catch (const std::exception& e) {
      pending_->error = e.what();
    }
  });
  worker_->setParent(this);  // waited for and deleted with the dialog if it closes first
  connect(worker_, &QThread::finished, this, [this] {
    progressTimer_->stop();
    worker_->deleteLater();
    worker_ = nullptr;
    result_ = std::move(pending_);
    compareButton_->setText(tr("Compare"));
    compareButton_->setEnabled(true);
    showResults();
    emit finished();
  });
  if (pending_->trajectory) progressTimer_->start();
  worker_->start();
}

void CompareSolversDialog::compareAndWait() {
  QEventLoop loop;
  connect(this, &CompareSolversDialog::finished, &loop, &QEventLoop::quit);
  compare();
  if (worker_) loop.exec();
}

void CompareSolversDialog::showResults() {
  table_->clear();
  table_->setRowCount(0);
  if (result_->trajectory) {
    showTrajectory();
  } else {
    showPointwise();
  }
  table_->resizeColumnsToContents();
  const bool any = result_->error.empty() && (!result_->pointwise.empty() || !result_->runs.empty());
  for (QPushButton* b : {exportTable_, exportCurves_, exportFigure_}) b->setEnabled(any);
  updateFigure();
}

void CompareSolversDialog::showPointwise() {
  const ComparisonResult& r = *result_;
  table_->setColumnCount(9);
  table_->setHorizontalHeaderLabels(
      {tr("solver"), tr("form"), tr("qdd"), tr("loads"), tr("p"), tr("ν"), tr("ṗ"), tr("µs per call"), tr("verdict")});
  table_->horizontalHeaderItem(2)->setToolTip(
      tr("Largest difference of the accelerations qdd (d²q/dt²) from the reference's, relative to "
         "their largest value over the run"));
  table_->horizontalHeaderItem(7)->setToolTip(
      tr("Wall time of one evaluation (forward or impulse dynamics with "
         "the joint loads)"));
  table_->setRowCount(static_cast<int>(r.pointwise.size()));
  double worst = 0.0;                              // beyond the references' own error (the verdict)
  double motion = 0.0, impulse = 0.0, rate = 0.0;  // as shown: qdd and loads; p and ν; ṗ
  for (int row = 0; row < static_cast<int>(r.pointwise.size()); ++row) {
    const kt::SolverDifference& d = r.pointwise[static_cast<std::size_t>(row)];
    worst = std::max(worst, d.worst());
    motion = std::max({motion, d.qdd.rel(), d.load.rel()});
    if (d.p.measured) impulse = std::max({impulse, d.p.rel(), d.v.rel()});
    if (d.pdot.measured) rate = std::max(rate, d.pdot.rel());
    const QStringList cells = {QString::fromStdString(d.solver),
                               d.impulse ? tr("impulse (q, p)") : tr("velocity (q, ν)"),
                               relative(d.qdd),
                               relative(d.load),
                               relative(d.p),
                               relative(d.v),
                               relative(d.pdot),
                               QString::number(1e6 * d.secondsPerCall, 'f', 2),
                               d.worst() <= kt::kPointwiseTolerance ? tr("agrees") : tr("DIFFERS")};
    for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c >= 2 && c <= 7) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, c, item);
    }
  }
  const QString reference = QString::fromStdString(r.reference);
  if (!r.error.empty()) {
    summary_->setText(tr("The comparison failed: %1").arg(QString::fromStdString(r.error)));
  } else {
    summary_->setText(
        worst <= kt::kPointwiseTolerance
            ? tr("At the %1 states of the run every solver agrees with %2: qdd and the loads within %3 relative%4. "
                 "The differences are rounding: each solver orders the same arithmetic differently. (The "
                 "tolerance of kinetree-cli compare is %5.)")
                  .arg(r.stateTimes.size())
                  .arg(reference)
                  .arg(motion, 0, 'e', 1)
                  .arg(impulse > 0.0 || rate > 0.0
                           ? tr("; p and ν within %1; ṗ within %2, against finite differences of M ν that have "
                                "an error of their own")
                                 .arg(impulse, 0, 'e', 1)
                                 .arg(rate, 0, 'e', 1)
                           : QString())
                  .arg(kt::kPointwiseTolerance, 0, 'g', 2)
            : tr("At the %1 states of the run a solver differs from %2 by %3, more than %4.")
                  .arg(r.stateTimes.size())
                  .arg(reference)
                  .arg(worst, 0, 'e', 1)
                  .arg(kt::kPointwiseTolerance, 0, 'g', 2));
  }
}

void CompareSolversDialog::showTrajectory() {
  const ComparisonResult& r = *result_;
  table_->setColumnCount(7);
  table_->setHorizontalHeaderLabels(
      {tr("run"), tr("q"), tr("ν"), tr("loads"), tr("÷ integrator's"), tr("µs per step"), tr("verdict")});
  table_->horizontalHeaderItem(4)->setToolTip(
      tr("The run's largest relative difference divided by the integrator's own (the reference run again with the "
         "finer integration): below about 10 the integration explains it"));
  table_->horizontalHeaderItem(5)->setToolTip(tr("Wall time per output step of the run"));
  table_->setRowCount(static_cast<int>(r.runs.size()));
  const double integrator = r.differences.size() > 1 ? r.differences[1].worst() : 0.0;
  int beyond = 0;
  for (int row = 0; row < static_cast<int>(r.runs.size()); ++row) {
    const auto k = static_cast<std::size_t>(row);
    const kt::ComparedRun& run = r.runs[k];
    const kt::TrajectoryDifference& d = r.differences[k];
    QString verdict;
    QString ratio;
    if (k == 0) {
      verdict = tr("reference");
    } else if (run.integratorCheck) {
      verdict = tr("the integrator's own difference");
      ratio = QStringLiteral("1");
    } else {
      ratio = integrator > 0.0 ? QString::number(d.worst() / integrator, 'e', 2) : QStringLiteral("–");
      const bool explained = kt::trajectoryAgrees(d.worst(), integrator);
      if (!explained) ++beyond;
      verdict = explained ? tr("agrees") : tr("DIFFERS");
    }
    if (!run.error.empty()) verdict = tr("stopped: %1").arg(QString::fromStdString(run.error));
    const QStringList cells = {QString::fromStdString(run.label()),
                               k == 0 ? QStringLiteral("–") : relative(d.q),
                               k == 0 ? QStringLiteral("–") : relative(d.v),
                               k == 0 ? QStringLiteral("–") : relative(d.load),
                               ratio,
                               QString::number(1e6 * run.secondsPerStep, 'f', 2),
                               verdict};
    for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c >= 1 && c <= 5) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, c, item);
    }
  }
  const QString reference = QString::fromStdString(r.reference);
  if (!r.error.empty()) {
    summary_->setText(r.error == "stopped" ? tr("Stopped: the runs finished so far are shown.")
                                           : tr("The comparison failed: %1").arg(QString::fromStdString(r.error)));
  } else if (beyond == 0) {
    summary_->setText(
        tr("Every run agrees with %1 within %2 relative or within %3 times the integrator's own difference "
           "(%4): what differs between the velocity-form and the impulse-form runs is the integration of "
           "different state variables, not the solvers (compare them at the run's states to see the solvers alone).")
            .arg(reference)
            .arg(kt::kTrajectoryTolerance, 0, 'g', 2)
            .arg(kt::kIntegratorFactor, 0, 'g', 2)
            .arg(integrator, 0, 'e', 1));
  } else {
    summary_->setText(tr("%1 %2 from %3 by more than %4 relative and more than %5 times the "
                         "integrator's own difference (%6).")
                          .arg(countText(beyond, tr("run"), tr("runs")), beyond == 1 ? tr("differs") : tr("differ"))
                          .arg(reference)
                          .arg(kt::kTrajectoryTolerance, 0, 'g', 2)
                          .arg(kt::kIntegratorFactor, 0, 'g', 2)
                          .arg(integrator, 0, 'e', 1));
  }
}

void CompareSolversDialog::updateFigure() {
  CurveRequest request;
  request.quantity = static_cast<ComparedQuantity>(quantity_->currentData().toInt());
  request.patterns = signals_->text();
  request.degrees = degrees_->isChecked();
  curves_ = comparisonCurves(*result_, request);
  figure_->setFigure(comparisonFigure(*result_, curves_, log_->isChecked()));
  if (!curves_.problem.isEmpty() && (!result_->pointwise.empty() || !result_->runs.empty())) {
    readout_->setText(curves_.problem);
  } else {
    followTimeline();
  }
}

// The figure's cursor and the readout at the time the other views show.
void CompareSolversDialog::followTimeline() {
  if (!isVisible() || !simulation_.hasShownSample()) return;
  const double t = simulation_.shownTime();
  figure_->setCursorTime(t);
  if (!curves_.series.empty()) readout_->setText(curvesAt(curves_, t));
}

QString CompareSolversDialog::summary() const { return summary_->text(); }

bool CompareSolversDialog::exportCsv(const QString& path, QString* error) const {
  const auto num = [](const kt::DifferenceMeasure& m) {
    return m.measured ? QString::number(m.rel(), 'g', 6) : QString();
  };
  const ComparisonResult& r = *result_;
  QString text;
  if (r.trajectory) {
    text = QStringLiteral("run,solver,integrator,integrator_check,q_rel,v_rel,load_rel,us_per_step,error\n");
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
      const kt::ComparedRun& run = r.runs[k];
      const kt::TrajectoryDifference& d = r.differences[k];
      text += QStringList{QString::fromStdString(run.label()),
                          QString::fromStdString(run.solver),
                          QString::fromStdString(run.integrator),
                          run.integratorCheck ? QStringLiteral("1") : QStringLiteral("0"),
                          num(d.q),
                          num(d.v),
                          num(d.load),
                          QString::number(1e6 * run.secondsPerStep, 'g', 6),
                          QString::fromStdString(run.error)}
                  .join(QLatin1Char(',')) +
              QLatin1Char('\n');
    }
  } else {
    text = QStringLiteral("solver,form,qdd_rel,load_rel,p_rel,v_rel,pdot_rel,pdot_fd_error_rel,us_per_call\n");
    for (const kt::SolverDifference& d : r.pointwise) {
      kt::DifferenceMeasure fd = d.pdot;
      fd.abs = d.pdot.referenceError;
      text += QStringList{QString::fromStdString(d.solver),
                          d.impulse ? QStringLiteral("impulse") : QStringLiteral("velocity"),
                          num(d.qdd),
                          num(d.load),
                          num(d.p),
                          num(d.v),
                          num(d.pdot),
                          num(fd),
                          QString::number(1e6 * d.secondsPerCall, 'g', 6)}
                  .join(QLatin1Char(',')) +
              QLatin1Char('\n');
    }
  }
  return writeText(path, text, error);
}

bool CompareSolversDialog::exportCurves(const QString& path, QString* error) const {
  return writeText(path, curvesCsv(curves_), error);
}

bool CompareSolversDialog::exportFigure(const QString& path, QString* error) const {
  render::ChartFigure f = figure_->figure();
  f.cursor = std::numeric_limits<double>::quiet_NaN();  // the cursor is the screen's, not the report's
  return render::writeFigures({f}, path, QSizeF(1200, 700), 2.0, error);
}

}  // namespace kt::ui
