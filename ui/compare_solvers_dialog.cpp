#include "ui/compare_solvers_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>
#include <stdexcept>

#include "core/dynamics/solver.hpp"
#include "core/sim/recorder.hpp"
#include "core/sim/signals.hpp"
#include "ui/export_file.hpp"
#include "ui/simulation_controller.hpp"

namespace kt::ui {

namespace {

constexpr double kTolerance = 1e-10;  // as kinetree-cli compare's default

QString relative(const kt::DifferenceMeasure& m) {
  return m.measured ? QString::number(m.rel(), 'e', 2) : QStringLiteral("–");
}

}  // namespace

CompareSolversDialog::CompareSolversDialog(const SimulationController& simulation, QWidget* parent)
    : QDialog(parent),
      simulation_(simulation),
      summary_(new QLabel),
      table_(new QTableWidget),
      compareButton_(new QPushButton(tr("Compare"))),
      exportButton_(new QPushButton(tr("Export CSV…"))) {
  setObjectName(QStringLiteral("compareSolversDialog"));
  setWindowTitle(tr("Compare Solvers"));
  reference_ = QString::fromStdString(simulation_.activeOptions().solver);
  auto* intro =
      new QLabel(tr("Every chosen solver is evaluated at the states of the recorded run (%1), so that what differs is "
                    "the solver alone: the accelerations (qdd) and the joint loads against %2, and for the "
                    "Poisson-impulse solvers p, ν and ṗ "
                    "against M ν, ν and d/dt (M ν). Differences are relative to the largest value over the run.")
                     .arg(simulation_.runLabel(), reference_));
  intro->setWordWrap(true);
  auto* box = new QGroupBox(tr("Solvers"));
  auto* grid = new QGridLayout(box);
  int k = 0;
  for (const kt::SolverInfo& info : kt::solverRegistry()) {
    auto* check = new QCheckBox(QString::fromStdString(info.name));
    check->setToolTip(QString::fromStdString(info.description));
    check->setChecked(true);
    if (check->text() == reference_) {
      check->setEnabled(false);  // the run's solver is the reference
      check->setText(check->text() + tr(" (reference)"));
    }
    solvers_.push_back(check);
    grid->addWidget(check, k / 4, k % 4);
    ++k;
  }
  table_->setObjectName(QStringLiteral("compareTable"));
  table_->setColumnCount(9);
  table_->setHorizontalHeaderLabels(
      {tr("solver"), tr("form"), tr("qdd"), tr("loads"), tr("p"), tr("ν"), tr("ṗ"), tr("µs per call"), tr("")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  summary_->setObjectName(QStringLiteral("compareSummary"));
  summary_->setWordWrap(true);
  exportButton_->setEnabled(false);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  buttons->addButton(compareButton_, QDialogButtonBox::ActionRole);
  buttons->addButton(exportButton_, QDialogButtonBox::ActionRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(compareButton_, &QPushButton::clicked, this, &CompareSolversDialog::compare);
  connect(exportButton_, &QPushButton::clicked, this, [this] {
    const QString path =
        askExportFile(this, tr("Export Comparison"), QStringLiteral("comparison.csv"), tr("CSV files (*.csv)"));
    QString error;
    if (!path.isEmpty() && !exportCsv(path, &error)) QMessageBox::warning(this, tr("Export Comparison"), error);
  });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(box);
  layout->addWidget(table_, 1);
  layout->addWidget(summary_);
  layout->addWidget(buttons);
  resize(900, 520);
}

CompareSolversDialog::~CompareSolversDialog() {
  if (worker_) worker_->wait();  // it writes into this dialog
}

void CompareSolversDialog::compare() {
  if (worker_) return;
  const kt::Recorder* rec = simulation_.recorder();
  const kt::SignalLayout* layout = simulation_.signalLayout();
  const kt::Tree* tree = simulation_.tree();
  if (!rec || !layout || !tree || rec->size() == 0) {
    summary_->setText(tr("There is no recorded run to compare at: run the model first."));
    return;
  }
  // the states: q, ν, τ of the recorded rows (every k-th of a long run), copied for the worker
  const std::size_t rows = rec->size();
  const std::size_t every = rows / kMaxStates + 1;
  std::vector<kt::ComparisonState> states;
  std::vector<double> row(static_cast<std::size_t>(rec->width()));
  for (std::size_t r = 0; r < rows; r += every) {
    rec->copyRows(r, r + 1, row.data());
    kt::ComparisonState s;
    s.t = row[0];
    layout->positionsFromRow(row.data(), s.q);
    layout->velocityVectorFromRow(kt::SignalKind::Qd, row.data(), s.v);
    layout->velocityVectorFromRow(kt::SignalKind::Tau, row.data(), s.tau);
    states.push_back(std::move(s));
  }
  states_ = states.size();
  std::vector<std::string> names{reference_.toStdString()};
  for (QCheckBox* c : solvers_) {
    const std::string name = c->text().section(QLatin1Char(' '), 0, 0).toStdString();
    if (c->isChecked() && name != names.front()) names.push_back(name);
  }
  compareButton_->setEnabled(false);
  summary_->setText(tr("Comparing %n solvers at %1 states…", nullptr, static_cast<int>(names.size())).arg(states_));
  worker_ = QThread::create([this, tree = *tree, names = std::move(names), states = std::move(states)] {
    try {
      pending_ = kt::compareAtStates(tree, names, states);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  });
  worker_->setParent(this);  // waited for and deleted with the dialog if it closes first
  connect(worker_, &QThread::finished, this, [this] {
    worker_->deleteLater();
    worker_ = nullptr;
    results_ = std::move(pending_);
    showResults();
    compareButton_->setEnabled(true);
    emit finished();
  });
  worker_->start();
}

void CompareSolversDialog::compareAndWait() {
  QEventLoop loop;
  connect(this, &CompareSolversDialog::finished, &loop, &QEventLoop::quit);
  compare();
  if (worker_) loop.exec();
}

void CompareSolversDialog::showResults() {
  table_->setRowCount(static_cast<int>(results_.size()));
  double worst = 0.0, largest = 0.0;  // beyond the references' own error (the verdict); as shown
  for (int r = 0; r < static_cast<int>(results_.size()); ++r) {
    const kt::SolverDifference& d = results_[static_cast<std::size_t>(r)];
    worst = std::max(worst, d.worst());
    for (const kt::DifferenceMeasure* m : {&d.qdd, &d.load, &d.p, &d.v, &d.pdot})
      if (m->measured) largest = std::max(largest, m->rel());
    const QStringList cells = {QString::fromStdString(d.solver),
                               d.impulse ? tr("impulse (q, p)") : tr("velocity (q, ν)"),
                               relative(d.qdd),
                               relative(d.load),
                               relative(d.p),
                               relative(d.v),
                               relative(d.pdot),
                               QString::number(1e6 * d.secondsPerCall, 'f', 2),
                               d.worst() <= kTolerance ? tr("agrees") : tr("DIFFERS")};
    for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c >= 2 && c <= 7) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(r, c, item);
    }
  }
  table_->resizeColumnsToContents();
  exportButton_->setEnabled(!results_.empty());
  if (!error_.empty()) {
    summary_->setText(tr("The comparison failed: %1").arg(QString::fromStdString(error_)));
  } else {
    summary_->setText(
        worst <= kTolerance
            ? tr("At the %1 states of the run every solver agrees with %2 within %3 (relative; the tolerance "
                 "of kinetree-cli compare is %4). The differences are rounding: each solver orders the same "
                 "arithmetic differently (and ṗ's reference, finite differences of M ν, has an error of its own).")
                  .arg(states_)
                  .arg(reference_)
                  .arg(largest, 0, 'e', 1)
                  .arg(kTolerance, 0, 'g', 2)
            : tr("At the %1 states of the run a solver differs from %2 by %3, more than %4.")
                  .arg(states_)
                  .arg(reference_)
                  .arg(worst, 0, 'e', 1)
                  .arg(kTolerance, 0, 'g', 2));
  }
}

QString CompareSolversDialog::summary() const { return summary_->text(); }

bool CompareSolversDialog::exportCsv(const QString& path, QString* error) const {
  QString text = QStringLiteral("solver,form,qdd_rel,load_rel,p_rel,v_rel,pdot_rel,pdot_fd_error_rel,us_per_call\n");
  const auto num = [](const kt::DifferenceMeasure& m) {
    return m.measured ? QString::number(m.rel(), 'g', 6) : QString();
  };
  for (const kt::SolverDifference& d : results_) {
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
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace kt::ui
