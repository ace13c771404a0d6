#include "ui/peak_loads_dock.hpp"

#include <QAbstractTableModel>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

#include "core/sim/recorder.hpp"
#include "ui/simulation_controller.hpp"

namespace kt::ui {

namespace {

QString number(double x, int digits = 6) { return std::isnan(x) ? QString() : QString::number(x, 'g', digits); }

}  // namespace

// The table: one row per joint (tree order); Qt::DisplayRole is the text, Qt::UserRole the number
// the column sorts by (NaN, "none", first).
class PeakLoadsDock::Model : public QAbstractTableModel {
 public:
  explicit Model(QObject* parent) : QAbstractTableModel(parent) {}

  void set(const std::vector<kt::JointPeaks>* peaks) {
    beginResetModel();
    peaks_ = peaks;
    endResetModel();
  }
  int rowCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() || !peaks_ ? 0 : static_cast<int>(peaks_->size());
  }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

  QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
    if (orientation != Qt::Horizontal) return {};
    static const char* const titles[ColumnCount] = {
        QT_TR_NOOP("Joint"), QT_TR_NOOP("Utilisation (%)"),    QT_TR_NOOP("of"),    QT_TR_NOOP("|F| (N)"),
        QT_TR_NOOP("t (s)"), QT_TR_NOOP("|M| (N·m)"),          QT_TR_NOOP("t (s)"), QT_TR_NOOP("Reaction |F| (N)"),
        QT_TR_NOOP("t (s)"), QT_TR_NOOP("Reaction |M| (N·m)"), QT_TR_NOOP("t (s)")};
    if (role == Qt::DisplayRole) return PeakLoadsDock::tr(titles[section]);
    if (role != Qt::ToolTipRole) return {};
    switch (section) {
      case Force: return PeakLoadsDock::tr("Largest |force| of the wrench the joint transmits");
      case Moment: return PeakLoadsDock::tr("Largest |moment| of that wrench, about the joint origin");
      case ReactionForce:
        return PeakLoadsDock::tr(
            "Largest |force| of its reaction (constraint) part T λ: what the joint's structure "
            "carries");
      case ReactionMoment: return PeakLoadsDock::tr("Largest |moment| of the reaction part");
      case Utilisation:
        return PeakLoadsDock::tr("Largest ratio of a peak to the joint's load rating (model file: joint.rating)");
      default: return {};
    }
  }

  QVariant data(const QModelIndex& index, int role) const override {
    if (!peaks_ || !index.isValid()) return {};
    const kt::JointPeaks& j = (*peaks_)[static_cast<std::size_t>(index.row())];
    const int c = index.column();
    const double value = numberOf(j, c);
    switch (role) {
      case Qt::DisplayRole:
        if (c == Joint) return QString::fromStdString(j.name);
        if (c == UtilisationOf)
          return std::isnan(j.utilisation()) ? QString() : QString::fromStdString(j.utilisationOf());
        return number(value, c == Utilisation ? 4 : 6);
      case Qt::UserRole:
        if (c == Joint) return j.joint;
        if (c == UtilisationOf) return QString::fromStdString(j.utilisationOf());
        return value;
      case Qt::TextAlignmentRole:
        return c == Joint || c == UtilisationOf ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
      case Qt::BackgroundRole:
        if (c != Utilisation || std::isnan(value)) return {};
        if (value >= 100.0) return QColor(240, 150, 150);
        if (value >= 80.0) return QColor(250, 210, 140);
        return {};
      case Qt::ToolTipRole: {
        if (c != Utilisation && c != UtilisationOf) return {};
        if (std::isnan(j.utilisation())) return PeakLoadsDock::tr("No load rating");
        QStringList rating;
        if (j.rating.force > 0) rating << PeakLoadsDock::tr("force %1 N").arg(number(j.rating.force));
        if (j.rating.moment > 0) rating << PeakLoadsDock::tr("moment %1 N·m").arg(number(j.rating.moment));
        if (!j.rating.reaction.empty()) rating << PeakLoadsDock::tr("one per reaction coordinate");
        return PeakLoadsDock::tr("Rating: %1").arg(rating.join(QStringLiteral(", ")));
      }
      default: return {};
    }
  }

  // The number of a column (NaN when the joint has none).
  static double numberOf(const kt::JointPeaks& j, int column) {
    const auto peak = [](const kt::Peak& p) { return std::isnan(p.time) ? std::nan("") : p.value; };
    switch (column) {
      case Force: return peak(j.force);
      case ForceTime: return j.force.time;
      case Moment: return peak(j.moment);
      case MomentTime: return j.moment.time;
      case ReactionForce: return peak(j.reactionForce);
      case ReactionForceTime: return j.reactionForce.time;
      case ReactionMoment: return peak(j.reactionMoment);
      case ReactionMomentTime: return j.reactionMoment.time;
      case Utilisation: return 100.0 * j.utilisation();
      default: return std::nan("");
    }
  }

 private:
  const std::vector<kt::JointPeaks>* peaks_ = nullptr;
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

PeakLoadsDock::PeakLoadsDock(SimulationController* simulation, std::function<std::pair<double, double>()> visibleRange,
                             QWidget* parent)
    : QDockWidget(tr("Peak Loads"), parent),
      simulation_(simulation),
      visibleRange_(std::move(visibleRange)),
      rangeBox_(new QComboBox),
      summary_(new QLabel),
      model_(new Model(this)),
      sorted_(new NumericSort(this)),
      table_(new QTableView) {
  setObjectName(QStringLiteral("peakLoadsDock"));
  rangeBox_->setObjectName(QStringLiteral("peakRangeBox"));
  rangeBox_->addItem(tr("Whole run"));
  rangeBox_->addItem(tr("Time range of the plots"));
  rangeBox_->setToolTip(tr("Over which samples the peaks are taken"));
  summary_->setObjectName(QStringLiteral("peakSummary"));
  auto* exportButton = new QPushButton(tr("Export CSV…"));
  exportButton->setObjectName(QStringLiteral("peakExportButton"));
  exportButton->setToolTip(tr("The table as CSV, as kinetree-cli peaks --csv writes it"));
  table_->setObjectName(QStringLiteral("peakTable"));
  sorted_->setSourceModel(model_);
  table_->setModel(sorted_);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // tree order until the user sorts
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->setToolTip(tr("Double-click a row to show the time of the peak in every view and select the joint"));

  auto* top = new QHBoxLayout;
  top->addWidget(rangeBox_);
  top->addWidget(summary_, 1);
  top->addWidget(exportButton);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(table_, 1);
  setWidget(body);

  connect(rangeBox_, &QComboBox::currentIndexChanged, this, [this] {
    scanned_ = 0;
    if (scan_) scan_->reset();
    refresh();
  });
  connect(exportButton, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Peak Loads"), tr("peak_loads.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export Peak Loads"), error);
  });
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
    if (!std::isnan(t)) emit jointActivated(joint, t);
  });
  connect(simulation_, &SimulationController::sessionStarted, this, &PeakLoadsDock::onSessionStarted);
  connect(simulation_, &SimulationController::sessionEnded, this, &PeakLoadsDock::onSessionEnded);
  connect(simulation_, &SimulationController::frame, this, [this] {
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
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  const kt::Model* model = simulation_->sessionModel();
  if (!tree || !layout || !model) return;
  scan_ = std::make_unique<kt::PeakLoads>(*tree, *layout, kt::PeakLoads::ratingsOf(*model, *tree));
  scanned_ = 0;
  refresh();
}

void PeakLoadsDock::onSessionEnded() {
  if (isVisible()) refresh();  // the last rows; the table stays as it is once the run is gone
  scan_.reset();
  scanned_ = 0;
}

void PeakLoadsDock::refresh() {
  clock_.restart();
  const kt::Recorder* rec = simulation_->recorder();
  if (!scan_ || !rec) return;
  const bool whole = rangeBox_->currentIndex() == 0;
  double t0 = -std::numeric_limits<double>::infinity(), t1 = std::numeric_limits<double>::infinity();
  if (!whole) {
    std::tie(t0, t1) = visibleRange_();
    scan_->reset();
    scanned_ = 0;
  }
  // the rows not scanned yet (whole run) or the rows of the range, read in place
  rec->read([&](const kt::Recorder::Rows& rows) {
    rows.forEachRow(scanned_, rows.size(), [&](std::size_t, const double* row) {
      if (row[0] >= t0 && row[0] <= t1) scan_->add(row);
    });
    scanned_ = rows.size();
  });
  shown_ = scan_->joints();
  model_->set(&shown_);
  summary_->setText(scan_->samples() == 0
                        ? tr("no samples")
                        : tr("%n samples, t = %1 s to %2 s", nullptr, static_cast<int>(scan_->samples()))
                              .arg(scan_->firstTime(), 0, 'f', 3)
                              .arg(scan_->lastTime(), 0, 'f', 3));
  if (shown_.size() <= 200) table_->resizeColumnsToContents();  // a long table keeps its widths
}

bool PeakLoadsDock::exportCsv(const QString& path, QString* error) const {
  QSaveFile file(path);
  const std::string text = kt::peakLoadsCsv(shown_);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
      !file.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace kt::ui
