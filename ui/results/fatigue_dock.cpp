// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/fatigue_dock.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/analysis/rainflow.hpp"
#include "core/model/text_util.hpp"
#include "core/results/peak_loads.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"
#include "render/output/atomic_write.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {
QString fiveDigits(double x) { return QString::fromStdString(kt::formatSignificant(x, 5)); }
}  // namespace

FatigueDock::FatigueDock(SimulationController* simulation, QWidget* parent)
    : QDockWidget(tr("Fatigue"), parent), simulation_(simulation) {
  setObjectName(QStringLiteral("fatigueDock"));
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  auto* controls = new QHBoxLayout;
  joints_ = new QComboBox;
  joints_->setObjectName(QStringLiteral("fatigueJoint"));
  joints_->setToolTip(tr("The joint whose loads are counted (follows the selection)"));
  wohler_ = new QDoubleSpinBox;
  wohler_->setObjectName(QStringLiteral("fatigueWohler"));
  wohler_->setRange(1.0, 30.0);
  wohler_->setDecimals(1);
  wohler_->setValue(m_);
  wohler_->setToolTip(
      tr("Wöhler exponent m of the S–N curve N ∝ S⁻ᵐ: 3–5 for steel and welds, about 10 for "
         "composites"));
  equivalent_ = new QDoubleSpinBox;
  equivalent_->setObjectName(QStringLiteral("fatigueNeq"));
  equivalent_->setRange(0.0, 1e12);
  equivalent_->setDecimals(0);
  equivalent_->setSpecialValueText(tr("1 per s"));
  equivalent_->setToolTip(
      tr("N_eq, the equivalent cycles the DEL is given for; \"1 per s\": one per second of "
         "the run"));
  controls->addWidget(new QLabel(tr("Joint")));
  controls->addWidget(joints_, 1);
  controls->addWidget(new QLabel(tr("m")));
  controls->addWidget(wohler_);
  controls->addWidget(new QLabel(tr("N_eq")));
  controls->addWidget(equivalent_);
  layout->addLayout(controls);
  table_ = new QTableWidget(0, ColumnCount);
  table_->setObjectName(QStringLiteral("fatigueTable"));
  table_->setHorizontalHeaderLabels(
      {tr("Signal"), tr("Cycles"), tr("Largest range"), tr("Its mean"), tr("From t (s)"), tr("DEL")});
  table_->horizontalHeaderItem(Cycles)->setToolTip(tr("Rainflow cycles (ASTM E1049-85), half cycles as ½"));
  table_->horizontalHeaderItem(Del)->setToolTip(
      tr("Damage-equivalent load (Σ nᵢ Sᵢᵐ / N_eq)^(1/m): the constant range doing the same damage in N_eq cycles"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(table_, 1);
  auto* bottom = new QHBoxLayout;
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  exportButton_ = new QPushButton(tr("Export CSV…"));
  exportButton_->setObjectName(QStringLiteral("fatigueExport"));
  bottom->addWidget(summary_, 1);
  bottom->addWidget(exportButton_);
  layout->addLayout(bottom);
  setWidget(body);

  connect(joints_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(joints_, &QComboBox::activated, this, [this] { chosen_ = true; });
  connect(wohler_, &QDoubleSpinBox::valueChanged, this, [this](double m) {
    m_ = m;
    refresh();
  });
  connect(equivalent_, &QDoubleSpinBox::valueChanged, this, [this](double n) {
    nEq_ = n;
    refresh();
  });
  connect(exportButton_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Fatigue Table"), QString(),
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    if (QString error; !exportCsv(path, &error))
      QMessageBox::warning(this, tr("Export Fatigue Table"), tr("Could not write %1: %2").arg(path, error));
  });
  connect(simulation_, &SimulationController::sessionStarted, this, &FatigueDock::rebuildJoints);
  connect(simulation_, &SimulationController::runningChanged, this, [this](bool running) {
    if (!running) refresh();
  });
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    // a step or a pose while paused: the counts follow (a running count waits for the pause; a
    // scrub changes nothing counted)
    const kt::Recorder* rec = simulation_->recorder();
    if (!rec || simulation_->isRunning() || !isVisible()) return;
    if (rec->size() != countedRows_ || rec->generation() != countedGeneration_) refresh();
  });
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) refresh();
  });
  rebuildJoints();
}

void FatigueDock::rebuildJoints() {
  const int previous = joint();
  joints_->blockSignals(true);
  joints_->clear();
  if (const kt::Tree* tree = simulation_->tree())
    for (int i = 0; i < tree->nb; ++i)  // a fixed joint transmits loads too
      joints_->addItem(QString::fromStdString(tree->jointNames[static_cast<std::size_t>(i)]), i);
  const int at = joints_->findData(previous);
  joints_->setCurrentIndex(at >= 0 ? at : 0);
  joints_->blockSignals(false);
  refresh();
}

void FatigueDock::setJoint(int joint) {
  if (joint < 0) return;
  chosen_ = true;
  if (const int at = joints_->findData(joint); at >= 0) joints_->setCurrentIndex(at);
}

int FatigueDock::joint() const { return joints_->currentIndex() >= 0 ? joints_->currentData().toInt() : -1; }

void FatigueDock::setWohler(double m) { wohler_->setValue(m); }

void FatigueDock::setEquivalentCycles(double n) { equivalent_->setValue(n); }

void FatigueDock::refresh() {
  rows_.clear();
  table_->setRowCount(0);
  const kt::Recorder* rec = simulation_->recorder();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  exportButton_->setEnabled(false);
  if (!rec || !layout || joint() < 0) {
    summary_->setText(tr("No run."));
    return;
  }
  if (simulation_->isRunning()) {
    summary_->setText(tr("Running: the cycles are counted when the run pauses or stops."));
    return;
  }
  // the rows recorded now, the same for every column (a paused run adds none; a pose rewrites one)
  const std::size_t n = rec->size();
  countedRows_ = n;
  countedGeneration_ = rec->generation();
  if (n < 2) {
    summary_->setText(tr("Run the simulation (F5) to count the cycles."));
    return;
  }
  std::vector<double> t(n), x(n);
  t.resize(rec->copyColumn(0, 0, n, t.data()));
  if (t.size() < 2) return;
  const double interval = t[1] - t[0];
  const double nEq = nEq_ > 0.0 ? nEq_ : std::max(t.back(), interval);
  nEqUsed_ = nEq;
  // the run's peaks: its noise floors, and, until a joint is asked for, the most loaded joint
  kt::LoadScale floors;
  if (const kt::Tree* tree = simulation_->tree()) {
    kt::PeakLoads peaks(*tree, *layout);
    peaks.addRecorded(*rec, 0);
    floors = kt::noiseFloors(kt::loadScale(peaks.joints()));
    if (!chosen_)
      if (const std::vector<std::size_t> most = kt::mostLoadedJoints(peaks.joints(), 1); !most.empty())
        if (const int at = joints_->findData(peaks.joints()[most.front()].joint);
            at >= 0 && at != joints_->currentIndex()) {
          const QSignalBlocker block(joints_);
          joints_->setCurrentIndex(at);
        }
  }
  const int j = joint();
  // the wrench, its reaction part, the effort: each in the layout's order
  for (const kt::SignalKind kind : {kt::SignalKind::Load, kt::SignalKind::Reaction, kt::SignalKind::Tau})
    for (const kt::SignalInfo& s : layout->infos()) {
      if (s.body != j || s.kind != kind) continue;
      x.resize(rec->copyColumn(layout->find(s.name), 0, t.size(), x.data()));
      const std::vector<kt::Cycle> cycles = kt::rainflow(x);
      const kt::CycleSummary summary = kt::summarizeCycles(cycles, m_, nEq);
      Row r;
      if (kind != kt::SignalKind::Tau) {  // a load all under its kind's floor is rounding noise
        double largest = 0.0;
        for (const double v : x) largest = std::max(largest, std::abs(v));
        r.noise = largest <= (s.unit == "N" ? floors.force : floors.moment);
      }
      r.signal = s.name;
      r.unit = s.unit;
      r.cycles = summary.cycles;
      r.del = summary.del;
      r.largest = summary.largestRange;
      r.mean = summary.largestMean;
      r.at = summary.cycles > 0.0 ? t[summary.largestFirst] : 0.0;
      rows_.push_back(r);
    }
  table_->setRowCount(static_cast<int>(rows_.size()));
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    const Row& r = rows_[k];
    const QString unit = QString::fromStdString(r.unit).replace(QLatin1Char('*'), QChar(0x00B7));  // N·m
    const QString none = QStringLiteral("-");  // as the peak table marks a load under the dead band
    const QString cells[ColumnCount] = {QString::fromStdString(r.signal),
                                        r.noise ? none : fiveDigits(r.cycles),
                                        r.noise ? none : fiveDigits(r.largest) + " " + unit,
                                        r.noise ? none : fiveDigits(r.mean) + " " + unit,
                                        r.noise ? none : fiveDigits(r.at),
                                        r.noise ? none : fiveDigits(r.del) + " " + unit};
    for (int c = 0; c < ColumnCount; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c != Signal) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (r.noise)
        item->setToolTip(tr("Rounding noise: every value of %1 lies under the run's noise floor (%2 %3), as the "
                            "peak table's \"-\"; the CSV keeps the numbers")
                             .arg(QString::fromStdString(r.signal))
                             .arg(fiveDigits(r.unit == "N" ? floors.force : floors.moment), unit));
      table_->setItem(static_cast<int>(k), c, item);
    }
  }
  summary_->setText(tr("%1 samples to t = %2 s; DEL for m = %3 and N_eq = %4")
                        .arg(n)
                        .arg(fiveDigits(t.back()), fiveDigits(m_), fiveDigits(nEq)));
  exportButton_->setEnabled(!rows_.empty());
}

std::string FatigueDock::csv() const {
  std::vector<kt::FatigueTableRow> table;
  for (const Row& r : rows_) table.push_back({r.signal, r.cycles, r.largest, r.mean, r.at, r.del});
  return kt::fatigueTableCsv(table, m_, nEqUsed_);  // the N_eq of the DELs shown
}

bool FatigueDock::exportCsv(const QString& path, QString* error) const {
  return render::writeFileAtomically(path, QByteArray::fromStdString(csv()), error);
}

}  // namespace kt::ui
