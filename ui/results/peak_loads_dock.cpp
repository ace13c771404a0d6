// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/peak_loads_dock.hpp"

#include <QAbstractTableModel>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/results/load_cases.hpp"
#include "core/results/recorder.hpp"
#include "render/output/atomic_write.hpp"
#include "ui/results/export/export_file.hpp"
#include "ui/results/run_results.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

QString peakNumber(double x, int digits = 6) { return std::isnan(x) ? QString() : QString::number(x, 'g', digits); }

const QString kDash = QStringLiteral("\u2014");  // "—": no value, or under the dead band

// Decimals that give the largest of a column's values four significant digits, so that every
// figure of the column has as many decimals and they line up (0.1234, 12.35, 1235).
int decimalsFor(double largest) {
  if (!(largest > 0.0) || !std::isfinite(largest)) return 3;
  return std::clamp(3 - static_cast<int>(std::floor(std::log10(largest))), 0, 6);
}

}  // namespace

// The table: one row per joint (tree order); Qt::DisplayRole is the text, Qt::UserRole the number
// the column sorts by (NaN, "none" or under the dead band, first), Qt::ToolTipRole the full name
// or number.
class PeakLoadsDock::Model : public QAbstractTableModel {
 public:
  explicit Model(QObject* parent) : QAbstractTableModel(parent) {}

  // The figures changed (same joints: the views keep their selection and sorting) or the joints did.
  void set(const std::vector<kt::JointPeaks>* peaks) {
    const bool sameRows = peaks_ == peaks && peaks && static_cast<int>(peaks->size()) == rows_;
    if (!sameRows) beginResetModel();
    peaks_ = peaks;
    rows_ = peaks ? static_cast<int>(peaks->size()) : 0;
    governing_.clear();
    scale_ = peaks ? kt::deadBandReferences(kt::loadScale(*peaks)) : kt::LoadScale();
    if (peaks)  // once per refresh, not once per comparison of a sort
      for (const kt::JointPeaks& j : *peaks)
        governing_.push_back({100.0 * j.utilisation(), QString::fromStdString(j.utilisationOf()), j.utilisationTime()});
    // one number of decimals per column, from its largest figure
    std::array<double, ColumnCount> largest{};
    for (int r = 0; r < rows_; ++r)
      for (int c = Force; c < ColumnCount; ++c) {
        double& l = largest[static_cast<std::size_t>(c)];
        if (c != UtilisationOf) l = std::max(l, std::abs(valueAt(r, c)));  // NaN leaves l as it is
      }
    for (std::size_t c = 0; c < ColumnCount; ++c)
      decimals_[c] = isTimeColumn(static_cast<int>(c)) ? timeDecimals_ : decimalsFor(largest[c]);
    const QString unit = QString::fromStdString(peaks ? kt::effortUnit(*peaks) : std::string("N·m or N"));
    if (unit != effortUnit_) {
      effortUnit_ = unit;
      emit headerDataChanged(Qt::Horizontal, Effort, Effort);
    }
    if (!sameRows) {
      endResetModel();
    } else if (rows_ > 0) {
      emit dataChanged(index(0, 0), index(rows_ - 1, ColumnCount - 1));
    }
  }
  struct Governing {
    double percent;  ///< NaN: no rating
    QString of;
    double time;
  };
  const Governing& governing(int row) const { return governing_[static_cast<std::size_t>(row)]; }

  /// The run's interactions and the names of its bodies: a peak they acted during is marked.
  void setInteractions(std::vector<kt::InteractionSpan> spans, std::vector<std::string> bodies) {
    spans_ = std::move(spans);
    bodies_ = std::move(bodies);
    if (rows_ > 0) emit dataChanged(index(0, 0), index(rows_ - 1, ColumnCount - 1));
  }
  /// What acted on the run at time t ("the drag of L13 (2)"), empty when nothing did.
  QString interactionAt(double t) const {
    QStringList what;
    for (const kt::InteractionSpan& s : spans_) {
      if (!s.covers(t)) continue;
      const QString body = s.body >= 0 && static_cast<std::size_t>(s.body) < bodies_.size()
                               ? QString::fromStdString(bodies_[static_cast<std::size_t>(s.body)])
                               : QString();
      what << (s.kind == kt::InteractionKind::Drag ? PeakLoadsDock::tr("the drag of %1 (%2)")
                                                   : PeakLoadsDock::tr("push %2 on %1"))
                  .arg(body)
                  .arg(s.id);
    }
    return what.join(QStringLiteral(", "));
  }
  static bool isTimeColumn(int c) {
    return c == ForceTime || c == MomentTime || c == ReactionForceTime || c == ReactionMomentTime || c == EffortTime;
  }

  int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : rows_; }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

  QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
    if (orientation != Qt::Horizontal) return {};
    static const char* const titles[ColumnCount] = {QT_TR_NOOP("Joint"), QT_TR_NOOP("|F| (N)"),
                                                    QT_TR_NOOP("t (s)"), QT_TR_NOOP("|M| (N·m)"),
                                                    QT_TR_NOOP("t (s)"), QT_TR_NOOP("Utilisation (%)"),
                                                    QT_TR_NOOP("of"),    QT_TR_NOOP("Reaction |F| (N)"),
                                                    QT_TR_NOOP("t (s)"), QT_TR_NOOP("Reaction |M| (N·m)"),
                                                    QT_TR_NOOP("t (s)"), QT_TR_NOOP("|τ| (%1)"),
                                                    QT_TR_NOOP("t (s)")};
    if (role == Qt::DisplayRole)
      return section == Effort ? PeakLoadsDock::tr(titles[section]).arg(effortUnit_)
                               : PeakLoadsDock::tr(titles[section]);
    if (role != Qt::ToolTipRole) return {};
    switch (section) {
      case Force: return PeakLoadsDock::tr("Largest |force| of the wrench the joint transmits");
      case Moment: return PeakLoadsDock::tr("Largest |moment| of that wrench, about the joint origin");
      case ReactionForce:
        return PeakLoadsDock::tr(
            "Largest |force| of its reaction (constraint) part T λ: what the joint's structure "
            "carries");
      case ReactionMoment: return PeakLoadsDock::tr("Largest |moment| of the reaction part");
      case Effort:
        return PeakLoadsDock::tr(
            "Largest |τ| of the joint's coordinates: its drive's force, or the effort its prescribed motion needs");
      case Utilisation:
        return PeakLoadsDock::tr("Largest ratio of a peak to the joint's load rating (model file: joint.rating)");
      case ForceTime:
      case MomentTime:
      case ReactionForceTime:
      case ReactionMomentTime:
      case EffortTime: return PeakLoadsDock::tr("When the peak on its left was first reached");
      default: return {};
    }
  }

  QVariant data(const QModelIndex& index, int role) const override {
    if (!peaks_ || !index.isValid()) return {};
    const kt::JointPeaks& j = (*peaks_)[static_cast<std::size_t>(index.row())];
    const Governing& g = governing(index.row());
    const int c = index.column();
    const double value = valueAt(index.row(), c);
    switch (role) {
      case Qt::DisplayRole:
        if (c == Joint) return QString::fromStdString(j.name);
        if (c == UtilisationOf) return g.of;
        if (std::isnan(value)) return c == Utilisation ? QString() : kDash;
        return QString::number(value, 'f', decimals_[static_cast<std::size_t>(c)]);
      case Qt::UserRole:
        if (c == Joint) return j.joint;
        if (c == UtilisationOf) return g.of;
        return value;
      case Qt::TextAlignmentRole:
        return c == Joint || c == UtilisationOf ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
      case Qt::BackgroundRole:
        if (c != Utilisation || std::isnan(value)) return {};
        if (value >= 100.0) return QColor(240, 150, 150);
        if (value >= 80.0) return QColor(250, 210, 140);
        return {};
      case Qt::ForegroundRole:
        // a peak reached while the user pushed or dragged the model: the interaction's colour
        if (isTimeColumn(c) && !std::isnan(value) && !interactionAt(value).isEmpty()) return QColor(190, 20, 120);
        return {};
      case Qt::ToolTipRole: {
        const QVariant tip = toolTip(j, g, c);
        if (!isTimeColumn(c) || std::isnan(value)) return tip;
        const QString during = interactionAt(value);
        if (during.isEmpty()) return tip;
        return PeakLoadsDock::tr("%1, during %2: the peak came from an interaction").arg(tip.toString(), during);
      }
      default: return {};
    }
  }

  // The figure of a cell (NaN where the joint has none or it lies under the dead band).
  double valueAt(int row, int column) const {
    const kt::JointPeaks& j = (*peaks_)[static_cast<std::size_t>(row)];
    const auto peak = [](const kt::Peak& p, double reference, bool time) {
      if (!kt::aboveDeadBand(p, reference)) return std::nan("");
      return time ? p.time : p.value;
    };
    switch (column) {
      case Force: return peak(j.force, scale_.force, false);
      case ForceTime: return peak(j.force, scale_.force, true);
      case Moment: return peak(j.moment, scale_.moment, false);
      case MomentTime: return peak(j.moment, scale_.moment, true);
      case ReactionForce: return peak(j.reactionForce, scale_.force, false);
      case ReactionForceTime: return peak(j.reactionForce, scale_.force, true);
      case ReactionMoment: return peak(j.reactionMoment, scale_.moment, false);
      case ReactionMomentTime: return peak(j.reactionMoment, scale_.moment, true);
      case Effort:
      case EffortTime: {
        const kt::Peak e = j.largestEffort();  // a joint that never acts (passive) has none
        if (!(e.value > 0.0)) return std::nan("");
        return column == Effort ? e.value : e.time;
      }
      case Utilisation: return governing(row).percent;
      default: return std::nan("");
    }
  }

 private:
  // The peak a column shows, its unit and the run's largest of its kind.
  struct Shown {
    const kt::Peak* peak = nullptr;
    const char* unit = "";
    double reference = 0.0;
  };
  Shown shownOf(const kt::JointPeaks& j, int column) const {
    switch (column) {
      case Force:
      case ForceTime: return {&j.force, "N", scale_.force};
      case Moment:
      case MomentTime: return {&j.moment, "N·m", scale_.moment};
      case ReactionForce:
      case ReactionForceTime: return {&j.reactionForce, "N", scale_.force};
      case ReactionMoment:
      case ReactionMomentTime: return {&j.reactionMoment, "N·m", scale_.moment};
      default: return {};
    }
  }

  QVariant toolTip(const kt::JointPeaks& j, const Governing& g, int c) const {
    if (c == Joint) return QString::fromStdString(j.name);
    if (c == Utilisation || c == UtilisationOf) {
      if (std::isnan(g.percent)) return PeakLoadsDock::tr("No load rating");
      QStringList rating;
      if (j.rating.force > 0) rating << PeakLoadsDock::tr("force %1 N").arg(peakNumber(j.rating.force));
      if (j.rating.moment > 0) rating << PeakLoadsDock::tr("moment %1 N·m").arg(peakNumber(j.rating.moment));
      if (!j.rating.reaction.empty()) rating << PeakLoadsDock::tr("one per reaction coordinate");
      if (!j.rating.effort.empty()) rating << PeakLoadsDock::tr("effort per coordinate");
      return PeakLoadsDock::tr("%1 % of the %2 rating; rating: %3; the utilisation peaked at t = %4 s")
          .arg(peakNumber(g.percent), g.of, rating.join(QStringLiteral(", ")), peakNumber(g.time));
    }
    const Shown s = shownOf(j, c);
    if (!s.peak) return {};
    const QString unit = QString::fromUtf8(s.unit);
    if (std::isnan(s.peak->time))
      return c >= ReactionForce && j.lambdaNames.empty()
                 ? PeakLoadsDock::tr("%1 has no reaction part: a free joint constrains nothing")
                       .arg(QString::fromStdString(j.name))
                 : PeakLoadsDock::tr("No sample");
    if (!std::isfinite(s.reference))  // every load of this kind is noise (kt::deadBandReferences)
      return unit == QLatin1String("N")
                 ? PeakLoadsDock::tr(
                       "%1 N: rounding noise, as is every force of this run: the largest is under %2 /m × "
                       "the largest moment")
                       .arg(peakNumber(s.peak->value, 3), peakNumber(kt::kNoiseArm))
                 : PeakLoadsDock::tr(
                       "%1 N·m: rounding noise, as is every moment of this run: the largest is under %2 m "
                       "× the largest force")
                       .arg(peakNumber(s.peak->value, 3), peakNumber(kt::kNoiseArm));
    if (!kt::aboveDeadBand(*s.peak, s.reference))
      return PeakLoadsDock::tr("%1 %2: rounding noise, under the dead band (%3 % of the run's largest, %4 %2)")
          .arg(peakNumber(s.peak->value, 3), unit, peakNumber(100.0 * kt::kLoadDeadBand), peakNumber(s.reference, 4));
    return PeakLoadsDock::tr("%1 %2 at t = %3 s")
        .arg(peakNumber(s.peak->value, 10), unit, peakNumber(s.peak->time, 10));
  }

  const std::vector<kt::JointPeaks>* peaks_ = nullptr;
  int rows_ = 0;
  std::vector<Governing> governing_;  ///< (rows) the utilisation, what it is of and when
  std::vector<kt::InteractionSpan> spans_;
  std::vector<std::string> bodies_;
  kt::LoadScale scale_;  ///< the dead band's references (kt::deadBandReferences)
  std::array<int, ColumnCount> decimals_{};
  QString effortUnit_ = QStringLiteral("N·m or N");  ///< kt::effortUnit of the rows
  int timeDecimals_ = 3;                             ///< of every time column: the run's output interval's

 public:
  /// The decimals of the time columns: as many as the run's output interval has (3 for 2 ms), so
  /// that every time reads to the same place (set before set()).
  void setOutputInterval(double interval) {
    timeDecimals_ = interval > 0.0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(interval) - 1e-9)), 3, 6) : 3;
  }
  int timeDecimals() const { return timeDecimals_; }
};

namespace {

// Sorts numbers as numbers, "none" (NaN) first.
class NumericSort : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

 protected:
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
    const QVariant a = left.data(Qt::UserRole), b = right.data(Qt::UserRole);
    if (a.typeId() == QMetaType::Double && b.typeId() == QMetaType::Double) {
      const double x = a.toDouble(), y = b.toDouble();
      if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && !std::isnan(y);
      return x < y;
    }
    return QString::localeAwareCompare(left.data().toString(), right.data().toString()) < 0;
  }
};

}  // namespace

PeakLoadsDock::PeakLoadsDock(SimulationController* simulation, RunResults* results,
                             std::function<std::pair<double, double>()> visibleRange, QWidget* parent)
    : QDockWidget(tr("Peak Loads"), parent),
      simulation_(simulation),
      results_(results),
      visibleRange_(std::move(visibleRange)),
      rangeBox_(new QComboBox),
      summary_(new QLabel),
      exportButton_(new QPushButton(tr("Export CSV…"))),
      casesButton_(new QPushButton(tr("Load Cases…"))),
      model_(new Model(this)),
      sorted_(new NumericSort(this)),
      table_(new QTableView) {
  setObjectName(QStringLiteral("peakLoadsDock"));
  rangeBox_->setObjectName(QStringLiteral("peakRangeBox"));
  rangeBox_->addItem(tr("Whole run"));
  rangeBox_->addItem(tr("Time range of the plots"));
  rangeBox_->setToolTip(tr("Over which samples the peaks are taken"));
  summary_->setObjectName(QStringLiteral("peakSummary"));
  exportButton_->setObjectName(QStringLiteral("peakExportButton"));
  exportButton_->setToolTip(tr("The table as CSV, as kinetree-cli peaks --csv writes it"));
  exportButton_->setEnabled(false);
  casesButton_->setObjectName(QStringLiteral("peakCasesButton"));
  casesButton_->setToolTip(
      tr("For each joint's peak |force| and |moment|: the instant, the joint positions and every "
         "joint's wrench then, as CSV or JSON (kinetree-cli peaks --cases)"));
  casesButton_->setEnabled(false);
  table_->setObjectName(QStringLiteral("peakTable"));
  sorted_->setSourceModel(model_);
  table_->setModel(sorted_);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // tree order until the user sorts
  table_->verticalHeader()->setVisible(false);
  // a narrow dock scrolls the table sideways; numbers are never cut, a long name is cut in its
  // middle ("RLEG_…_PITCH" tells the joints apart; "RLEG_H…" six times does not)
  table_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
  table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(false);
  connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int) {
    if (!fitting_ && column >= 0 && column < ColumnCount) userSized_[static_cast<std::size_t>(column)] = true;
  });
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->setToolTip(tr("Double-click a row to show the time of the peak in every view and select the joint"));

  auto* top = new QHBoxLayout;
  top->addWidget(rangeBox_, 1);
  top->addWidget(exportButton_);
  top->addWidget(casesButton_);
  // the summary on a line of its own, wrapped: on the row above, a long one set the width of the
  // whole right-hand dock column (about 470 px, a third of the default window)
  summary_->setWordWrap(true);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  setWidget(body);

  connect(rangeBox_, &QComboBox::currentIndexChanged, this, &PeakLoadsDock::refresh);
  connect(exportButton_, &QPushButton::clicked, this, [this] {
    const QString path =
        askExportFile(this, tr("Export Peak Loads"), QStringLiteral("peak_loads.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export Peak Loads"), error);
  });
  // the cases at each joint's peak |F| and |M|, or also at each reaction and effort component's
  const auto exportCases = [this](bool components) {
    const QString path = askExportFile(this, tr("Export Load Cases"), QStringLiteral("load_cases.csv"),
                                       tr("CSV files (*.csv);;JSON files (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportLoadCases(path, &error, components)) QMessageBox::warning(this, tr("Export Load Cases"), error);
  };
  auto* casesMenu = new QMenu(casesButton_);
  QAction* wrenchCases = casesMenu->addAction(tr("At Each Joint's Peak |F| and |M|…"));
  wrenchCases->setObjectName(QStringLiteral("wrenchCasesAction"));
  connect(wrenchCases, &QAction::triggered, this, [exportCases] { exportCases(false); });
  QAction* componentCases = casesMenu->addAction(tr("Also at Each Reaction and Effort Component's Peak…"));
  componentCases->setObjectName(QStringLiteral("componentCasesAction"));
  componentCases->setToolTip(tr("A case also at the peak of each reaction:<joint>.* and tau:<joint>[k] signal"));
  connect(componentCases, &QAction::triggered, this, [exportCases] { exportCases(true); });
  casesButton_->setMenu(casesMenu);
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    const int joint = jointOfRow(index.row());
    if (joint < 0) return;
    const kt::JointPeaks& j = shown_[static_cast<std::size_t>(joint)];
    // the time of the peak in the column clicked; elsewhere the governing one
    double t = !std::isnan(j.utilisation())      ? j.utilisationTime()
               : j.force.value >= j.moment.value ? j.force.time
                                                 : j.moment.time;
    const int column = index.column();
    if (column == Force || column == ForceTime) t = j.force.time;
    if (column == Moment || column == MomentTime) t = j.moment.time;
    if (column == ReactionForce || column == ReactionForceTime) t = j.reactionForce.time;
    if (column == ReactionMoment || column == ReactionMomentTime) t = j.reactionMoment.time;
    if (column == Effort || column == EffortTime) t = j.largestEffort().time;
    if (!std::isnan(t)) emit jointActivated(joint, t);
  });
  connect(simulation_, &SimulationController::sessionStarted, this, &PeakLoadsDock::onSessionStarted);
  connect(simulation_, &SimulationController::sessionEnded, this, &PeakLoadsDock::onSessionEnded);
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    if (isVisible() && clock_.elapsed() >= 500) refresh();  // twice a second is plenty for a table
  });
  connect(simulation_, &SimulationController::stateChanged, this, [this] {
    if (isVisible()) refresh();
  });
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) refresh();
  });
  model_->set(&shown_);
  clock_.start();
  if (simulation_->signalLayout()) onSessionStarted();
}

PeakLoadsDock::~PeakLoadsDock() = default;

void PeakLoadsDock::setWholeRun(bool whole) { rangeBox_->setCurrentIndex(whole ? 0 : 1); }

int PeakLoadsDock::jointOfRow(int row) const {
  const QModelIndex index = sorted_->mapToSource(sorted_->index(row, Joint));
  return index.isValid() ? index.row() : -1;
}

void PeakLoadsDock::onSessionStarted() {
  scanRange_ = {};
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  const kt::Model* model = simulation_->sessionModel();
  if (!tree || !layout || !model) return;
  scan_ = std::make_unique<kt::PeakLoads>(*tree, *layout, kt::PeakLoads::ratingsOf(*model, *tree));
  scanned_ = 0;
  refresh();
}

void PeakLoadsDock::onSessionEnded() {
  // the run goes (a new model, Reset, New): none of its figures stay to be taken for the next
  scan_.reset();
  scanned_ = 0;
  scanRange_ = {};
  shown_.clear();
  model_->set(&shown_);
  markedEvents_ = 0;
  model_->setInteractions({}, {});
  summary_->setText(tr("no run"));
  exportButton_->setEnabled(false);
}

bool PeakLoadsDock::canExport() const { return exportButton_->isEnabled(); }

void PeakLoadsDock::fitColumns() {
  QHeaderView* header = table_->horizontalHeader();
  const QFontMetrics metrics = table_->fontMetrics();
  const int nameLimit = metrics.horizontalAdvance(QLatin1Char('M')) * 14;
  const int padding = 2 * table_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table_) + 12;
  fitting_ = true;
  for (int c = 0; c < ColumnCount; ++c) {
    // the longest text of every row (sizeHintForColumn looks at the rows in view only) and the
    // title; a name longer than the limit is elided in its middle
    int longest = 0;
    for (int r = 0; r < model_->rowCount(); ++r)
      longest = std::max(longest, metrics.horizontalAdvance(model_->index(r, c).data().toString()));
    int wanted = std::max(longest + padding, header->sectionSizeHint(c));
    if (c == Joint) wanted = std::min(wanted, nameLimit);
    const bool userSized = userSized_[static_cast<std::size_t>(c)];
    // a width the user chose stays, but a number column never gets narrower than its figures
    if (!userSized || (c != Joint && header->sectionSize(c) < wanted)) header->resizeSection(c, wanted);
  }
  fitting_ = false;
}

void PeakLoadsDock::plotsRangeChanged() {
  if (rangeBox_->currentIndex() == 1 && isVisible()) refresh();
}

void PeakLoadsDock::refresh() {
  clock_.restart();
  const kt::Recorder* rec = simulation_->recorder();
  if (!scan_ || !rec) return;
  const kt::PeakLoads* peaks = nullptr;
  if (rangeBox_->currentIndex() == 0) {
    peaks = results_->peaks();
    if (!peaks) return;
  } else {
    const std::pair<double, double> range = visibleRange_();
    if (!(range.first <= range.second)) {  // NaN: the plots show no time range
      scan_->reset();
      scanned_ = 0;
      scanRange_ = {};
      shown_.clear();
      model_->set(&shown_);
      summary_->setText(tr("the plots show no time range: open them (View ▸ Plots) or choose the whole run"));
      exportButton_->setEnabled(false);
      casesButton_->setEnabled(false);
      return;
    }
    if (range != scanRange_ || rec->generation() != scanGeneration_) {  // another range or a rewritten row: again
      scanGeneration_ = rec->generation();
      scan_->reset();
      scanned_ = 0;
      scanRange_ = range;
    }
    scanned_ = scan_->addRecorded(*rec, scanned_, range.first, range.second);  // the rows not looked at yet
    peaks = scan_.get();
  }
  shown_ = peaks->joints();
  const kt::SimulatorOptions& run = simulation_->activeOptions();
  model_->setOutputInterval(run.outputInterval > 0.0 ? run.outputInterval : run.step);
  model_->set(&shown_);
  if (const std::size_t count = simulation_->eventCount(); count != markedEvents_) {
    markedEvents_ = count;
    model_->setInteractions(kt::interactionSpans(simulation_->events()),
                            simulation_->tree() ? simulation_->tree()->bodyNames : std::vector<std::string>{});
  }
  summary_->setText(peaks->samples() == 0
                        ? tr("no samples")
                        : tr("%1, t = %2 s to %3 s%4")
                              .arg(countText(static_cast<long long>(peaks->samples()), tr("sample"), tr("samples")))
                              .arg(peaks->firstTime(), 0, 'f', model_->timeDecimals())
                              .arg(peaks->lastTime(), 0, 'f', model_->timeDecimals())
                              .arg(markedEvents_ > 0 ? tr("; magenta times: during a push or drag") : QString()));
  exportButton_->setEnabled(peaks->samples() > 0);
  casesButton_->setEnabled(peaks->samples() > 0);
  fitColumns();
}

bool PeakLoadsDock::exportLoadCases(const QString& path, QString* error, bool components) const {
  const kt::Recorder* rec = simulation_->recorder();
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  if (!rec || !tree || !layout) {
    if (error) *error = tr("There is no run to take load cases from");
    return false;
  }
  // the samples the table shows: the whole run or the plots' range
  kt::LoadCaseCollector cases(*tree, *layout, components);
  if (rangeBox_->currentIndex() == 0)
    cases.addRecorded(*rec, 0);
  else
    cases.addRecorded(*rec, 0, scanRange_.first, scanRange_.second);
  const std::string text = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)
                               ? kt::loadCasesJson(*tree, *layout, cases.cases())
                               : kt::loadCasesCsv(*tree, *layout, cases.cases());
  return render::writeFileAtomically(path, QByteArray::fromStdString(text), error);
}

bool PeakLoadsDock::exportCsv(const QString& path, QString* error) const {
  const std::string text = kt::peakLoadsCsv(shown_);
  return render::writeFileAtomically(path, QByteArray::fromStdString(text), error);
}

}  // namespace kt::ui
