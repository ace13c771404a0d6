// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/plots_dock.hpp"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <numbers>

#include "core/analysis/spectrum.hpp"
#include "core/io/csv.hpp"
#include "core/results/recorder.hpp"
#include "core/results/series_statistics.hpp"
#include "core/results/signals.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/charts/figure_view.hpp"
#include "ui/results/export/export_plots_dialog.hpp"
#include "ui/results/signal_figures.hpp"
#include "ui/results/signal_list_model.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

struct PlotPane {
  render::ChartPane* view = nullptr;
  QString defaultTitle;       ///< what the defaults are ("Base attitude: base")
  std::vector<int> defaults;  ///< signal columns that follow the selection
  std::vector<int> extras;    ///< columns the user added
  std::vector<int> columns;   ///< drawn: defaults then extras, no duplicates
};

PlotsDock::PlotsDock(SimulationController* simulation, QWidget* parent)
    : QDockWidget(tr("Plots"), parent), simulation_(simulation) {
  setObjectName(QStringLiteral("plotsDock"));
  auto* body = new QWidget;
  auto* layout = new QHBoxLayout(body);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* split = new QSplitter(Qt::Horizontal);
  layout->addWidget(split);

  // Left: pane choice, signal search, signal list, buttons.
  auto* side = new QWidget;
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  paneBox_ = new QComboBox;
  paneBox_->setObjectName(QStringLiteral("plotPaneBox"));
  paneBox_->setToolTip(tr("The pane the list edits"));
  // the entries are the panes' titles, which can be long: the box does not widen the dock for them
  paneBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  paneBox_->setMinimumContentsLength(16);
  filter_ = new QLineEdit;
  filter_->setObjectName(QStringLiteral("signalFilter"));
  filter_->setPlaceholderText(tr("Search signals (glob: load:*.fz)"));
  filter_->setClearButtonEnabled(true);
  list_ = new QListView;
  listModel_ = new SignalListModel(this);
  list_->setModel(listModel_);
  list_->setObjectName(QStringLiteral("signalList"));
  list_->setToolTip(tr("Tick a signal to show it on the chosen pane"));
  list_->setUniformItemSizes(true);  // one size for every row: a 10,000-body model lists 200,000 signals
  filterHint_ = new QLabel;
  filterHint_->setObjectName(QStringLiteral("signalFilterHint"));
  filterHint_->setWordWrap(true);
  filterHint_->setTextFormat(Qt::PlainText);
  filterHint_->hide();
  auto* buttons = new QHBoxLayout;
  auto* autoscaleButton = new QPushButton(tr("Autoscale"));
  autoscaleButton->setToolTip(tr("Fit the axes of the chosen pane to its data again"));
  auto* exportButton = new QPushButton(tr("Export…"));
  exportButton->setToolTip(tr("Save the chosen pane, or all of them, as PNG, SVG or PDF"));
  statisticsButton_ = new QPushButton(tr("Statistics"));
  statisticsButton_->setObjectName(QStringLiteral("plotStatisticsButton"));
  statisticsButton_->setCheckable(true);
  spectrumButton_ = new QPushButton(tr("Spectrum"));
  spectrumButton_->setObjectName(QStringLiteral("plotSpectrumButton"));
  spectrumButton_->setCheckable(true);
  spectrumButton_->setToolTip(
      tr("Under the panes: the amplitude spectrum or PSD of the chosen pane's series over "
         "the time range it shows (Welch, Hann window)"));
  statisticsButton_->setToolTip(
      tr("Under the chosen pane: min, max, mean, RMS, peak-to-peak and the time of the "
         "maximum of each series over the time range it shows"));
  buttons->addWidget(autoscaleButton);
  buttons->addWidget(exportButton);
  sideLayout->addWidget(paneBox_);
  sideLayout->addWidget(filter_);
  sideLayout->addWidget(filterHint_);
  sideLayout->addWidget(list_, 1);
  auto* analysisButtons = new QHBoxLayout;
  analysisButtons->addWidget(statisticsButton_);
  analysisButtons->addWidget(spectrumButton_);
  sideLayout->addLayout(analysisButtons);
  sideLayout->addLayout(buttons);
  split->addWidget(side);

  // Right: the stacked panes. Each keeps its minimum height (render/charts/chart_pane: room for a title,
  // the axes and a few lines of legend); when the dock is lower than the three, they scroll, so
  // the dock never squeezes them unreadable nor sets the window's minimum height.
  auto* stack = new QSplitter(Qt::Vertical);
  stack->setChildrenCollapsible(false);
  const QString titles[kPaneCount] = {tr("Base attitude"), tr("Joint coordinates"), tr("Joint loads")};
  for (int p = 0; p < kPaneCount; ++p) {
    auto pane = std::make_unique<PlotPane>();
    pane->view = new render::ChartPane;
    pane->view->setObjectName(QStringLiteral("plotPane%1").arg(p));
    pane->view->setTitle(titles[p]);
    pane->view->hintLabel()->setObjectName(QStringLiteral("plotPaneHint%1").arg(p));
    stack->addWidget(pane->view);
    connect(pane->view, &render::ChartPane::timeClicked, this, [this](double t) { simulation_->showTime(t); });
    connect(pane->view, &render::ChartPane::visibleRangeChanged, this, [this, view = pane->view, p] {
      // a pan or zoom: the visible range is decimated again from the recording (and its
      // statistics follow the range the pane now shows)
      if (!view->autoscale()) {
        drawPane(p);
      } else {
        updateStatistics(p);
        updateSpectrum(p);
      }
      emit visibleRangeChanged();
    });
    paneBox_->addItem(QStringLiteral("%1 · %2").arg(p + 1).arg(titles[p]));
    panes_.push_back(std::move(pane));
  }
  std::vector<render::ChartPane*> views;
  for (const auto& pane : panes_) views.push_back(pane->view);
  render::alignTimeAxes(views);  // one time at one x in the three panes
  auto* scroll = panesScroll_ = new QScrollArea;
  scroll->setObjectName(QStringLiteral("plotPanesScroll"));
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(stack);
  // one pane's height at least: with the statistics and the spectrum open under them the panes
  // were squeezed to a 50 px sliver, which showed no curve (the others scroll into it)
  scroll->setMinimumHeight(panes_.front()->view->minimumHeight());
  // under the panes, the statistics of the chosen one (hidden until asked for)
  statisticsBox_ = new QWidget;
  auto* statisticsLayout = new QVBoxLayout(statisticsBox_);
  statisticsLayout->setContentsMargins(0, 2, 0, 0);
  statisticsCaption_ = new QLabel;
  statisticsCaption_->setObjectName(QStringLiteral("plotStatisticsCaption"));
  statistics_ = new QTableWidget(0, kStatisticsColumns);
  statistics_->setObjectName(QStringLiteral("plotStatistics"));
  statistics_->setHorizontalHeaderLabels(
      {tr("Signal"), tr("Min"), tr("Max"), tr("Mean"), tr("RMS"), tr("Peak-to-peak"), tr("t of max (s)")});
  statistics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  statistics_->verticalHeader()->hide();
  statistics_->verticalHeader()->setDefaultSectionSize(statistics_->fontMetrics().height() + 4);
  statistics_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  statistics_->horizontalHeader()->setStretchLastSection(true);
  statistics_->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* copy = new QAction(tr("Copy Table"), statistics_);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  statistics_->addAction(copy);
  connect(copy, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(statisticsText()); });
  statisticsLayout->addWidget(statisticsCaption_);
  statisticsLayout->addWidget(statistics_, 1);
  statisticsBox_->hide();
  // and its spectrum (hidden until asked for)
  spectrumBox_ = new QWidget;
  auto* spectrumLayout = new QVBoxLayout(spectrumBox_);
  spectrumLayout->setContentsMargins(0, 2, 0, 0);
  auto* spectrumControls = new QHBoxLayout;
  spectrumKind_ = new QComboBox;
  spectrumKind_->setObjectName(QStringLiteral("plotSpectrumKind"));
  spectrumKind_->addItem(tr("Amplitude"));
  spectrumKind_->addItem(tr("PSD"));
  spectrumKind_->setToolTip(tr("Amplitude: the peak amplitude of a sinusoid; PSD: power per hertz (units²/Hz)"));
  spectrumLog_ = new QCheckBox(tr("Log scale"));
  spectrumLog_->setObjectName(QStringLiteral("plotSpectrumLog"));
  spectrumLog_->setToolTip(tr("A logarithmic value axis (the left one: a second unit on the right stays linear)"));
  spectrumSegment_ = new QComboBox;
  spectrumSegment_->setObjectName(QStringLiteral("plotSpectrumSegment"));
  spectrumSegment_->addItem(tr("Segment: auto"), 0);
  for (int n = 128; n <= 16384; n *= 2) spectrumSegment_->addItem(tr("Segment: %1").arg(n), n);
  spectrumSegment_->setToolTip(
      tr("Samples per Welch segment: longer gives finer frequency resolution and a noisier "
         "estimate"));
  spectrumControls->addWidget(spectrumKind_);
  spectrumControls->addWidget(spectrumSegment_);
  spectrumControls->addWidget(spectrumLog_);
  spectrumControls->addStretch(1);
  auto* spectrumExport = new QPushButton(tr("Export…"));
  spectrumExport->setObjectName(QStringLiteral("plotSpectrumExport"));
  spectrumExport->setToolTip(tr("Save the spectrum as CSV (as kinetree-cli spectrum writes it), PDF, SVG or PNG"));
  spectrumControls->addWidget(spectrumExport);
  connect(spectrumExport, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Spectrum"), render::safeFileName(spectrumView_->figure().title) + QStringLiteral(".csv"),
        tr("CSV (*.csv);;PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)"));
    if (path.isEmpty()) return;
    if (QString error; !exportSpectrum(path, &error))
      QMessageBox::warning(this, tr("Export Spectrum"), tr("Could not write %1: %2").arg(path, error));
  });
  spectrumCaption_ = new QLabel;
  spectrumCaption_->setObjectName(QStringLiteral("plotSpectrumCaption"));
  spectrumCaption_->setWordWrap(true);
  spectrumView_ = new render::FigureView;
  spectrumView_->setObjectName(QStringLiteral("plotSpectrumView"));
  spectrumView_->setMinimumHeight(180);
  connect(spectrumView_, &render::FigureView::hovered, spectrumView_,
          [view = spectrumView_](double, const QString& text) { view->setToolTip(text); });
  spectrumLayout->addLayout(spectrumControls);
  spectrumLayout->addWidget(spectrumView_, 1);
  spectrumLayout->addWidget(spectrumCaption_);
  spectrumBox_->setMinimumHeight(300);  // the controls, a readable figure and its caption
  spectrumBox_->hide();
  for (QComboBox* box : {spectrumKind_, spectrumSegment_})
    connect(box, &QComboBox::currentIndexChanged, this, [this] { updateSpectrum(paneBox_->currentIndex()); });
  connect(spectrumLog_, &QCheckBox::toggled, this, [this] { updateSpectrum(paneBox_->currentIndex()); });
  right_ = new QSplitter(Qt::Vertical);
  right_->setChildrenCollapsible(false);
  right_->addWidget(scroll);
  right_->addWidget(statisticsBox_);
  right_->addWidget(spectrumBox_);
  right_->setStretchFactor(0, 1);
  split->addWidget(right_);
  split->setStretchFactor(1, 1);
  split->setSizes({200, 700});
  setWidget(body);

  connect(paneBox_, &QComboBox::currentIndexChanged, this, [this](int p) {
    showPaneInView(p);
    refreshList();
    if (p >= 0) updateStatistics(p);
    if (p >= 0) updateSpectrum(p);
  });
  connect(spectrumButton_, &QPushButton::toggled, this, &PlotsDock::setSpectrumShown);
  connect(statisticsButton_, &QPushButton::toggled, this, &PlotsDock::setStatisticsShown);
  connect(filter_, &QLineEdit::textChanged, this, [this] { refreshList(); });
  connect(listModel_, &SignalListModel::toggled, this, [this](const QString& name, bool checked) {
    const int pane = paneBox_->currentIndex();
    if (checked) {
      addSignal(pane, name);
    } else {
      removeSignal(pane, name);
    }
  });
  connect(autoscaleButton, &QPushButton::clicked, this, [this] { autoscale(paneBox_->currentIndex()); });
  connect(exportButton, &QPushButton::clicked, this, [this] {
    ExportPlotsDialog dialog(*this, *simulation_, this);
    dialog.exec();
  });

  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible && stale_) redraw();
  });
  connect(simulation_, &SimulationController::sessionStarted, this, &PlotsDock::onSessionStarted);
  connect(simulation_, &SimulationController::sessionEnded, this, &PlotsDock::onSessionEnded);
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    updateCursors();  // at once: a scrub moves the cursors in the same frame as the 3D view
    readNewSamples(false);
  });
  connect(simulation_, &SimulationController::runningChanged, this, [this] { readNewSamples(true); });
  redrawClock_.start();
  if (simulation_->signalLayout()) onSessionStarted();
}

PlotsDock::~PlotsDock() = default;

render::VtkWidget* PlotsDock::paneWidget(int pane) const { return panes_[static_cast<std::size_t>(pane)]->view; }
vtkChartXY* PlotsDock::chart(int pane) const { return panes_[static_cast<std::size_t>(pane)]->view->chart(); }
std::size_t PlotsDock::drawnPoints(int pane) const {
  return panes_[static_cast<std::size_t>(pane)]->view->drawnPoints();
}
std::size_t PlotsDock::sampleCount() const { return panes_.front()->view->rowCount(); }

QStringList PlotsDock::paneSignals(int pane) const {
  QStringList out;
  for (int c : panes_[static_cast<std::size_t>(pane)]->columns) out << names_[static_cast<std::size_t>(c)];
  return out;
}

QStringList PlotsDock::plottedSignals() const {
  QStringList out;
  for (int p = 0; p < kPaneCount; ++p)
    for (const QString& name : paneSignals(p))
      if (!out.contains(name)) out << name;
  return out;
}

std::vector<std::pair<QString, std::vector<render::ChartSeries>>> PlotsDock::paneContents() const {
  std::vector<std::pair<QString, std::vector<render::ChartSeries>>> out;
  for (const auto& pane : panes_) out.emplace_back(pane->view->title(), pane->view->series());
  return out;
}

int PlotsDock::columnOf(const QString& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  return it == names_.end() ? -1 : static_cast<int>(it - names_.begin());
}

void PlotsDock::onSessionStarted() {
  const kt::SignalLayout* layout = simulation_->signalLayout();
  const kt::Tree* tree = simulation_->tree();
  if (!layout || !tree) return;
  // A new simulator: same model (Reset) keeps the user's choices by name; a new model drops them.
  std::vector<QStringList> extrasByName(panes_.size());
  for (std::size_t p = 0; p < panes_.size(); ++p)
    for (int c : panes_[p]->extras) extrasByName[p] << names_[static_cast<std::size_t>(c)];
  const std::vector<QString> oldJoints = jointNames_;

  names_.clear();
  units_.clear();
  for (const kt::SignalInfo& info : layout->infos()) {
    names_.push_back(QString::fromStdString(info.name));
    // as a reader writes them: N·m, rad/s², kg·m²/s (the layout's are ASCII, as in the CSV docs)
    units_.push_back(QString::fromStdString(info.unit)
                         .replace(QLatin1Char('*'), QStringLiteral("·"))
                         .replace(QStringLiteral("^2"), QStringLiteral("²")));
  }
  baseBody_ = layout->freeBodies().empty()
                  ? QString()
                  : QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(layout->freeBodies().front())]);
  jointNames_.clear();
  jointNq_.clear();
  jointQuaternion_.clear();
  for (int i = 0; i < tree->nb; ++i) {
    jointNames_.push_back(QString::fromStdString(tree->jointNames[static_cast<std::size_t>(i)]));
    jointQuaternion_.push_back(tree->joints[static_cast<std::size_t>(i)].hasQuaternion() ? 1 : 0);
    const int next = i + 1 < tree->nb ? tree->qOffset[static_cast<std::size_t>(i) + 1] : tree->nq;
    jointNq_.push_back(next - tree->qOffset[static_cast<std::size_t>(i)]);
  }
  // the first branch: from the first root (past a free joint) down the first children that move
  // or carry something that does (a humanoid's torso carries a fixed head first, then the arms)
  std::vector<char> moves(static_cast<std::size_t>(tree->nb), 0);  // the joint or one below it has coordinates
  for (int i = tree->nb - 1; i >= 0; --i) {
    const auto n = static_cast<std::size_t>(i);
    if (tree->joints[n].nv > 0) moves[n] = 1;
    if (const int p = tree->parent[n]; p >= 0 && moves[n]) moves[static_cast<std::size_t>(p)] = 1;
  }
  const auto firstMovingChild = [&](int i) {
    for (int c : tree->children[static_cast<std::size_t>(i)])
      if (moves[static_cast<std::size_t>(c)]) return c;
    return -1;
  };
  firstBranch_.clear();
  int body = tree->roots.empty() ? -1 : tree->roots.front();
  if (body >= 0 && tree->joints[static_cast<std::size_t>(body)].type == kt::JointType::Free)
    body = firstMovingChild(body);
  for (; body >= 0 && firstBranch_.size() < 8; body = firstMovingChild(body))
    if (tree->joints[static_cast<std::size_t>(body)].nv > 0) firstBranch_.push_back(body);
  // joints on a prescribed motion: the run's question is their required efforts (docs/motion.md)
  prescribed_.clear();
  if (const kt::Model* model = simulation_->sessionModel())
    for (int i = 0; i < tree->nb; ++i)
      if (tree->joints[static_cast<std::size_t>(i)].nv > 0 &&
          model->bodies[static_cast<std::size_t>(tree->specIndex[static_cast<std::size_t>(i)])].joint.motion.type !=
              kt::MotionType::None)
        prescribed_.push_back(i);
  const bool sameModel = oldJoints == jointNames_;
  if (!sameModel) selectedJoint_ = -1;
  for (std::size_t p = 0; p < panes_.size(); ++p) {
    panes_[p]->extras.clear();
    if (sameModel)
      for (const QString& n : extrasByName[p])
        if (const int c = columnOf(n); c >= 0) panes_[p]->extras.push_back(c);
    panes_[p]->view->setAutoscale(true);
  }
  rebuildDefaults();
  refreshList();
  for (const auto& pane : panes_) pane->view->setRecorder(simulation_->recorder());
  readNewSamples(true);
}

void PlotsDock::onSessionEnded() {
  // Draw the last samples; the panes keep them once this recorder is gone.
  readNewSamples(true);
  for (const auto& pane : panes_) pane->view->setRecorder(nullptr);
}

void PlotsDock::clear() {
  // a filter typed for the old model's signals would hide the new model's (and say nothing)
  filter_->clear();
  names_.clear();
  units_.clear();
  jointNames_.clear();
  jointNq_.clear();
  firstBranch_.clear();
  prescribed_.clear();
  baseBody_.clear();
  selectedJoint_ = -1;
  for (const auto& pane : panes_) {
    pane->defaults.clear();
    pane->extras.clear();
    pane->columns.clear();
    pane->view->setSeries({});
    pane->view->setAutoscale(true);
  }
  rebuildDefaults();
  refreshList();
  redraw();
}

void PlotsDock::setSelectedJoint(int joint) {
  selectedJoint_ = joint >= 0 && joint < static_cast<int>(jointNames_.size()) ? joint : -1;
  rebuildDefaults();
  refreshList();
  redraw();
}

void PlotsDock::rebuildDefaults() {
  auto add = [this](std::vector<int>& out, const QString& name) {
    if (const int c = columnOf(name); c >= 0) out.push_back(c);
  };
  std::vector<int> attitude, joint, load;
  if (names_.empty()) {
    panes_[0]->defaultTitle = tr("Base attitude");
  } else if (baseBody_.isEmpty() && !prescribed_.empty()) {
    // a fixed base driven along a motion: energy is what the motors put in, their power says how
    for (int i : prescribed_) add(attitude, QStringLiteral("power:%1").arg(jointNames_[static_cast<std::size_t>(i)]));
    panes_[0]->defaultTitle = tr("Power the joints supply");
  } else if (!baseBody_.isEmpty()) {
    for (const char* c : {"roll", "pitch", "yaw"}) add(attitude, QStringLiteral("attitude:%1.%2").arg(baseBody_, c));
    panes_[0]->defaultTitle = tr("Base attitude: %1").arg(baseBody_);
  } else {
    for (const char* c : {"kinetic", "potential", "total"}) add(attitude, QStringLiteral("energy.%1").arg(c));
    panes_[0]->defaultTitle = tr("Energy (no floating base)");
  }
  // the constraint forces and moments of joint i (the transmitted wrench where it has none)
  const auto loadsOf = [&](int i) {
    const QString j = jointNames_[static_cast<std::size_t>(i)];
    if (reactionOnly_ && !worldAxes_) {
      for (std::size_t c = 0; c < names_.size(); ++c)
        if (names_[c].startsWith(QStringLiteral("reaction:%1.").arg(j))) load.push_back(static_cast<int>(c));
      if (!load.empty()) return tr("Constraint forces and moments: %1 (joint frame)").arg(j);
    }
    const QString prefix = worldAxes_ ? QStringLiteral("load_world") : QStringLiteral("load");
    for (const char* c : {"fx", "fy", "fz", "mx", "my", "mz"}) add(load, QStringLiteral("%1:%2.%3").arg(prefix, j, c));
    return worldAxes_ ? tr("Joint loads: %1 (whole wrench, world axes)").arg(j)
                      : tr("Joint loads: %1 (whole wrench, joint frame)").arg(j);
  };
  // a quaternion's four numbers say little on a plot: a ball joint shows its angular velocity
  const auto coordinatesOf = [&](int i) {
    const QString j = jointNames_[static_cast<std::size_t>(i)];
    if (jointQuaternion_[static_cast<std::size_t>(i)] != 0) {
      for (int k = 0; k < 3; ++k) add(joint, QStringLiteral("qd:%1[%2]").arg(j).arg(k));
      return;
    }
    for (int k = 0; k < jointNq_[static_cast<std::size_t>(i)]; ++k)
      add(joint, QStringLiteral("q:%1[%2]").arg(j).arg(k));
  };
  if (!prescribed_.empty()) {
    // the efforts the prescribed joints need; the loads of the selected joint (or the first)
    for (int i : prescribed_)
      for (std::size_t c = 0; c < names_.size(); ++c)
        if (names_[c].startsWith(QStringLiteral("tau:%1[").arg(jointNames_[static_cast<std::size_t>(i)])))
          joint.push_back(static_cast<int>(c));
    const QString first = jointNames_[static_cast<std::size_t>(prescribed_.front())];
    const QString last = jointNames_[static_cast<std::size_t>(prescribed_.back())];
    panes_[1]->defaultTitle = prescribed_.size() == 1 ? tr("Required effort: %1").arg(first)
                                                      : tr("Required efforts: %1 … %2").arg(first, last);
    panes_[2]->defaultTitle = loadsOf(selectedJoint_ >= 0 ? selectedJoint_ : prescribed_.front());
  } else if (selectedJoint_ >= 0) {
    coordinatesOf(selectedJoint_);
    panes_[1]->defaultTitle =
        (jointQuaternion_[static_cast<std::size_t>(selectedJoint_)] != 0 ? tr("Angular velocity: %1 (body axes)")
                                                                         : tr("Joint coordinates: %1"))
            .arg(jointNames_[static_cast<std::size_t>(selectedJoint_)]);
    panes_[2]->defaultTitle = loadsOf(selectedJoint_);
  } else if (!firstBranch_.empty()) {  // the paper's picture: the first arm and its first joint
    // the joints whose angles are drawn: the branch's, but a ball joint's quaternion
    std::vector<int> angles;
    for (int i : firstBranch_)
      if (jointQuaternion_[static_cast<std::size_t>(i)] == 0) angles.push_back(i);
    if (angles.empty()) angles.push_back(firstBranch_.front());  // ball joints alone: the first one's rates
    for (int i : angles) coordinatesOf(i);
    const QString first = jointNames_[static_cast<std::size_t>(angles.front())];
    const QString last = jointNames_[static_cast<std::size_t>(angles.back())];
    panes_[1]->defaultTitle = jointQuaternion_[static_cast<std::size_t>(angles.front())] != 0
                                  ? tr("Angular velocity: %1 (body axes)").arg(first)
                              : angles.size() == 1 ? tr("Joint coordinates: %1").arg(first)
                              : angles.size() == 2 ? tr("Joint coordinates: %1, %2").arg(first, last)
                                                   : tr("Joint coordinates: %1 … %2").arg(first, last);
    panes_[2]->defaultTitle = loadsOf(firstBranch_.front());
  } else {
    panes_[1]->defaultTitle = tr("Joint coordinates (select a joint)");
    panes_[2]->defaultTitle = tr("Joint loads (select a joint)");
  }
  panes_[0]->defaults = attitude;
  panes_[1]->defaults = joint;
  panes_[2]->defaults = load;
  for (int p = 0; p < kPaneCount; ++p) setPaneColumns(p);
}

QString PlotsDock::paneTitle(int p) const {
  const PlotPane& pane = *panes_[static_cast<std::size_t>(p)];
  if (pane.columns == pane.defaults || pane.columns.empty()) return pane.defaultTitle;
  // what it shows: the signals' stems ("attitude:base", "momentum"), at most three
  QStringList stems;
  for (int c : pane.columns) {
    const QString& name = names_[static_cast<std::size_t>(c)];
    const qsizetype cut = std::max(name.lastIndexOf(QLatin1Char('.')), name.lastIndexOf(QLatin1Char('[')));
    const QString stem = cut > 0 ? name.left(cut) : name;
    if (!stems.contains(stem)) stems << stem;
  }
  const QString shown = stems.mid(0, 3).join(QStringLiteral(", "));
  return stems.size() > 3 ? tr("%1 and %n more", nullptr, static_cast<int>(stems.size() - 3)).arg(shown) : shown;
}

void PlotsDock::setLoadView(bool reactionOnly, bool worldAxes) {
  reactionOnly_ = reactionOnly;
  worldAxes_ = worldAxes;
  rebuildDefaults();
  refreshList();
  redraw();
}

void PlotsDock::setAnglesInDegrees(bool degrees) {
  degrees_ = degrees;
  for (int p = 0; p < kPaneCount; ++p) setPaneColumns(p);
  redraw();
}

void PlotsDock::setPaneColumns(int p) {
  PlotPane& pane = *panes_[static_cast<std::size_t>(p)];
  pane.columns = pane.defaults;
  for (int c : pane.extras)
    if (std::find(pane.columns.begin(), pane.columns.end(), c) == pane.columns.end()) pane.columns.push_back(c);
  std::vector<render::ChartSeries> series;
  for (std::size_t j = 0; j < pane.columns.size(); ++j) {
    const auto c = static_cast<std::size_t>(pane.columns[j]);
    render::ChartSeries s{pane.columns[j], names_[c], units_[c], render::seriesColor(static_cast<int>(j))};
    s.style = render::seriesStyle(static_cast<int>(j));
    if (degrees_ && s.unit.startsWith(QLatin1String("rad"))) {  // rad, rad/s, rad/s^2
      s.unit.replace(0, 3, QStringLiteral("deg"));
      s.scale = 180.0 / std::numbers::pi;
    }
    series.push_back(std::move(s));
  }
  pane.view->setSeries(std::move(series));
  const QString title = paneTitle(p);
  pane.view->setTitle(title);
  // the chooser names the pane as its title does (the energies, not the base attitude, without a
  // floating base; the joint the pane follows)
  paneBox_->setItemText(p, QStringLiteral("%1 · %2").arg(p + 1).arg(title));
  paneBox_->setItemData(p, title, Qt::ToolTipRole);
}

bool PlotsDock::addSignal(int pane, const QString& name) {
  const int c = columnOf(name);
  if (c < 0 || pane < 0 || pane >= kPaneCount) return false;
  PlotPane& p = *panes_[static_cast<std::size_t>(pane)];
  if (std::find(p.columns.begin(), p.columns.end(), c) == p.columns.end()) p.extras.push_back(c);
  setPaneColumns(pane);
  refreshList();
  redraw();
  return true;
}

bool PlotsDock::removeSignal(int pane, const QString& name) {
  const int c = columnOf(name);
  if (c < 0 || pane < 0 || pane >= kPaneCount) return false;
  PlotPane& p = *panes_[static_cast<std::size_t>(pane)];
  p.extras.erase(std::remove(p.extras.begin(), p.extras.end(), c), p.extras.end());
  p.defaults.erase(std::remove(p.defaults.begin(), p.defaults.end(), c), p.defaults.end());
  setPaneColumns(pane);
  refreshList();
  redraw();
  return true;
}

void PlotsDock::setCurrentPane(int pane) { paneBox_->setCurrentIndex(pane); }

std::pair<double, double> PlotsDock::visibleTimeRange() const {
  const render::ChartPane& pane = *panes_[static_cast<std::size_t>(std::max(0, paneBox_->currentIndex()))]->view;
  if (!isVisible() || pane.drawnSeries() == 0) {
    const double none = std::numeric_limits<double>::quiet_NaN();
    return {none, none};
  }
  return pane.visibleTimeRange();
}

double PlotsDock::cursorTime(int pane) const { return panes_[static_cast<std::size_t>(pane)]->view->cursorTime(); }

void PlotsDock::refreshList() {
  const int p = std::max(0, paneBox_->currentIndex());
  QString pattern = filter_->text().trimmed();
  if (!pattern.isEmpty() && !pattern.contains(QLatin1Char('*')) && !pattern.contains(QLatin1Char('?')))
    pattern = QStringLiteral("*%1*").arg(pattern);
  const std::string glob = pattern.toStdString();
  std::vector<int> columns;
  columns.reserve(names_.size());
  for (std::size_t c = 1; c < names_.size(); ++c)  // column 0 is time, the x axis
    if (glob.empty() || kt::globMatch(glob, names_[c].toStdString())) columns.push_back(static_cast<int>(c));
  // a list emptied by the filter says so, and why
  const bool hidden = columns.empty() && !glob.empty() && names_.size() > 1;
  filterHint_->setText(hidden ? tr("No signal matches '%1'").arg(filter_->text().trimmed()) : QString());
  filterHint_->setVisible(hidden);
  listModel_->show(names_, units_, std::move(columns), panes_[static_cast<std::size_t>(p)]->columns);
}

void PlotsDock::readNewSamples(bool forceRedraw) {
  // new samples, at most 10 times a second (plenty for plots); a frame that only moves the shown
  // time (a scrub, a replay) moves the cursors and redraws nothing
  const kt::Recorder* rec = simulation_->recorder();
  // a new generation rewrote rows (a pose while paused replaces the newest sample)
  const bool newRows = rec && (rec->size() != sampleCount() || rec->generation() != drawnGeneration_);
  if (!isVisible()) {  // drawn when shown again
    stale_ = stale_ || newRows || forceRedraw;
    return;
  }
  if (forceRedraw || (newRows && (redrawClock_.elapsed() >= 100 || rec->generation() != drawnGeneration_))) redraw();
}

void PlotsDock::redraw() {
  redrawClock_.restart();
  stale_ = false;
  if (const kt::Recorder* rec = simulation_->recorder()) drawnGeneration_ = rec->generation();
  for (int p = 0; p < kPaneCount; ++p) drawPane(p);
}

void PlotsDock::autoscale(int pane) {
  if (pane < 0 || pane >= kPaneCount) return;
  panes_[static_cast<std::size_t>(pane)]->view->setAutoscale(true);
  drawPane(pane);
}

void PlotsDock::drawPane(int p) {
  PlotPane& pane = *panes_[static_cast<std::size_t>(p)];
  render::ChartPane& view = *pane.view;
  const bool jointPane = p != 0;
  const QString what = view.title().section(QLatin1Char('('), 0, 0).trimmed();
  view.setEmptyText(names_.empty() ? tr("%1\nNo run: open a model that can run, then Run (F5).").arg(what)
                    : jointPane && selectedJoint_ < 0 && pane.columns.empty()
                        ? tr("%1\nSelect a body in the Model dock or the 3D view to plot its joint.").arg(what)
                    : pane.columns.empty() ? tr("%1\nNo signals: tick them in the list on the left.").arg(what)
                    : sampleCount() < 2    ? tr("%1\nRun the simulation (F5) to plot it.").arg(what)
                                           : tr("%1\nNo samples of these signals in this run.").arg(what));
  // The whole recording, with a time cursor at the shown sample when it is a chosen time (not the
  // live end of the run); without a recorder the pane keeps what it drew.
  if (const kt::Recorder* rec = simulation_->recorder()) {
    view.draw(*rec, std::numeric_limits<double>::infinity());
    updateCursors();
    updateStatistics(p);
    updateSpectrum(p);
  } else {
    view.draw();
  }
}

bool PlotsDock::statisticsShown() const { return !statisticsBox_->isHidden(); }

void PlotsDock::showPaneInView(int p) {
  // the pane the statistics and the spectrum are of, in sight when the panes scroll
  if (p >= 0 && p < static_cast<int>(panes_.size()))
    QTimer::singleShot(
        0, this, [this, p] { panesScroll_->ensureWidgetVisible(panes_[static_cast<std::size_t>(p)]->view, 0, 0); });
}

void PlotsDock::setStatisticsShown(bool shown) {
  statisticsBox_->setVisible(shown);
  if (statisticsButton_->isChecked() != shown) {
    const QSignalBlocker quiet(statisticsButton_);
    statisticsButton_->setChecked(shown);
  }
  updateStatistics(paneBox_->currentIndex());
  showPaneInView(paneBox_->currentIndex());
  // the table as tall as its rows, the panes the rest
  if (shown)
    right_->setSizes(
        {std::max(0, right_->height() - statisticsBox_->maximumHeight()), statisticsBox_->maximumHeight()});
}

void PlotsDock::updateStatistics(int p) {
  if (!statisticsShown() || p < 0 || p != paneBox_->currentIndex()) return;
  const render::ChartPane& view = *panes_[static_cast<std::size_t>(p)]->view;
  const kt::Recorder* rec = simulation_->recorder();
  const std::vector<render::ChartSeries>& series = view.series();
  const auto [t0, t1] =
      view.drawnSeries() > 0 ? view.visibleTimeRange() : std::pair(std::numeric_limits<double>::quiet_NaN(), 0.0);
  const bool any = rec && t0 <= t1;
  statistics_->setRowCount(any ? static_cast<int>(series.size()) : 0);
  statisticsCaption_->setText(any ? tr("%1, over %2 s to %3 s (as drawn; right-click or Ctrl+C copies)")
                                        .arg(view.title())
                                        .arg(t0, 0, 'g', 6)
                                        .arg(t1, 0, 'g', 6)
                                  : tr("%1: no samples shown").arg(view.title()));
  for (int r = 0; r < statistics_->rowCount(); ++r) {
    const render::ChartSeries& sr = series[static_cast<std::size_t>(r)];
    const kt::SeriesStatistics st = kt::seriesStatistics(*rec, sr.column, t0, t1);
    const double k = sr.scale;  // as shown (degrees for angles); the scales are positive
    const QString unit = sr.unit.isEmpty() ? QString() : QStringLiteral(" ") + sr.unit;
    const double values[kStatisticsColumns] = {0.0,        k * st.min,          k * st.max,  k * st.mean,
                                               k * st.rms, k * st.peakToPeak(), st.timeOfMax};
    for (int c = 0; c < kStatisticsColumns; ++c) {
      QTableWidgetItem* item = statistics_->item(r, c);
      if (!item) {
        item = new QTableWidgetItem;
        if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        statistics_->setItem(r, c, item);
      }
      const QString text = c == 0                        ? sr.name
                           : st.samples == 0             ? QStringLiteral("—")
                           : c == kStatisticsColumns - 1 ? QString::number(values[c], 'g', 6)
                                                         : QString::number(values[c], 'g', 6) + unit;
      item->setText(text);
      item->setData(Qt::UserRole, c == 0 || st.samples == 0 ? QVariant() : QVariant(values[c]));
    }
  }
  // no taller than its rows: the panes keep the rest
  statisticsBox_->setMaximumHeight(statisticsCaption_->sizeHint().height() +
                                   statistics_->horizontalHeader()->sizeHint().height() +
                                   statistics_->verticalHeader()->length() + 2 * statistics_->frameWidth() + 8);
}

bool PlotsDock::spectrumShown() const { return !spectrumBox_->isHidden(); }

void PlotsDock::setSpectrumShown(bool shown) {
  spectrumBox_->setVisible(shown);
  if (spectrumButton_->isChecked() != shown) {
    const QSignalBlocker quiet(spectrumButton_);
    spectrumButton_->setChecked(shown);
  }
  updateSpectrum(paneBox_->currentIndex());
  showPaneInView(paneBox_->currentIndex());
  // the spectrum takes about half of the height, the panes the rest
  if (shown) {
    const QList<int> sizes = right_->sizes();
    const int total = right_->height();
    right_->setSizes({total - total * 9 / 20 - sizes.value(1), sizes.value(1), total * 9 / 20});
  }
}

int PlotsDock::spectrumSegment() const { return spectrumSegment_->currentData().toInt(); }

void PlotsDock::setSpectrumOptions(bool psd, bool logScale, int segment) {
  spectrumKind_->setCurrentIndex(psd ? 1 : 0);
  spectrumLog_->setChecked(logScale);
  const int at = spectrumSegment_->findData(segment);
  spectrumSegment_->setCurrentIndex(at >= 0 ? at : 0);
  updateSpectrum(paneBox_->currentIndex());
}

void PlotsDock::updateSpectrum(int p) {
  if (!spectrumShown() || p < 0 || p != paneBox_->currentIndex()) return;
  const render::ChartPane& view = *panes_[static_cast<std::size_t>(p)]->view;
  const kt::Recorder* rec = simulation_->recorder();
  const std::vector<render::ChartSeries>& series = view.series();
  SpectrumChoice choice;
  choice.psd = spectrumKind_->currentIndex() == 1;
  choice.log = spectrumLog_->isChecked();
  choice.segment = static_cast<std::size_t>(spectrumSegment_->currentData().toInt());
  const QString title = tr("%1: %2").arg(choice.psd ? tr("PSD") : tr("Amplitude spectrum"), view.title());
  spectrum_.clear();
  spectrumNames_.clear();
  const auto show = [&](const render::ChartFigure& figure, const QString& why) {
    spectrumCaption_->setText(why);
    spectrumView_->setFigure(figure);
  };
  render::ChartFigure none;
  none.title = title;
  none.xName = QStringLiteral("f");
  none.xUnit = QStringLiteral("Hz");
  if (!rec || rec->size() < 2 || view.drawnSeries() == 0 || series.empty())
    return show(none, tr("%1: no samples shown").arg(view.title()));
  const auto [t0, t1] = view.visibleTimeRange();
  const auto [k0, k1] = rowsInRange(*rec, t0, t1);  // the rows of the visible range
  SpectrumFigure made = spectrumFigure(*rec, series, k0, k1, choice, title);
  if (!made.problem.isEmpty()) {
    const bool tooFew = made.samples > 0;
    return show(none, tooFew ? tr("%1: zoom out or choose a shorter segment").arg(made.problem)
                             : tr("%1: no samples shown").arg(view.title()));
  }
  QStringList peaks;
  for (std::size_t r = 0; r < made.spectra.size(); ++r) {
    const kt::Spectrum& sp = made.spectra[r];
    const std::size_t peak = sp.peak();
    peaks << (!sp.peakAtLowestLine() ? tr("%1: %2 Hz, %3 %4")
              : sp.segments == 1     ? tr("%1: at or below %2 Hz, the lowest line, %3 %4, possibly read low (a "
                                              "longer run resolves it)")
                                     : tr("%1: at or below %2 Hz, the lowest line, %3 %4, possibly read low (longer "
                                              "segments, or a longer run, resolve it)"))
                 .arg(series[r].name)
                 .arg(sp.frequency[peak], 0, 'g', 4)
                 .arg(sp.amplitude[peak], 0, 'g', 4)
                 .arg(series[r].unit);
  }
  const kt::Spectrum& first = made.spectra.front();
  const QString caption = tr("Over %1 s to %2 s: %3 samples at %4 Hz, segments of %5 (%6 averaged), resolution "
                             "%7 Hz, drawn to %9 Hz of %10. Largest lines (amplitude): %8")
                              .arg(t0, 0, 'g', 6)
                              .arg(t1, 0, 'g', 6)
                              .arg(made.samples)
                              .arg(made.rate, 0, 'g', 6)
                              .arg(first.segment)
                              .arg(first.segments)
                              .arg(first.resolution, 0, 'g', 4)
                              .arg(peaks.join(QStringLiteral("; ")))
                              .arg(made.figure.t1, 0, 'g', 4)
                              .arg(0.5 * made.rate, 0, 'g', 4);
  spectrum_ = std::move(made.spectra);
  for (const render::ChartSeries& s : series) {
    // the CSV's names: the signal's, with the unit drawn where it is not the signal's own (degrees)
    const int column = columnOf(s.name);
    const QString own = column >= 0 ? units_[static_cast<std::size_t>(column)] : s.unit;
    spectrumNames_.push_back(s.unit == own ? s.name : QStringLiteral("%1 (%2)").arg(s.name, s.unit));
  }
  show(made.figure, caption);
}

bool PlotsDock::exportSpectrum(const QString& path, QString* error) const {
  const auto fail = [error](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (spectrum_.empty()) return fail(tr("there is no spectrum: show one first (Spectrum)"));
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QLatin1String("csv")) {
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
      return fail(tr("the file name should end in .csv, .pdf, .svg or .png"));
    return render::writeFigures({spectrumView_->figure()}, path, QSizeF(1600, 900), 2.0, error);
  }
  std::vector<std::string> names;
  for (const QString& n : spectrumNames_) names.push_back(n.toStdString());
  try {
    kt::CsvWriter csv(QFile::encodeName(path).toStdString());
    csv.header(kt::spectraHeader(names));
    kt::spectraRows(spectrum_, [&](std::span<const double> row) { csv.row(row); });
    csv.finish();
  } catch (const std::exception& e) {
    return fail(QString::fromStdString(e.what()));
  }
  return true;
}

QString PlotsDock::statisticsText() const {
  QString text;
  for (int c = 0; c < statistics_->columnCount(); ++c)
    text += (c ? QStringLiteral("\t") : QString()) + statistics_->horizontalHeaderItem(c)->text();
  text += QLatin1Char('\n');
  for (int r = 0; r < statistics_->rowCount(); ++r) {
    for (int c = 0; c < statistics_->columnCount(); ++c) {
      const QTableWidgetItem* item = statistics_->item(r, c);
      // numbers in full, for a spreadsheet
      const QVariant number = item ? item->data(Qt::UserRole) : QVariant();
      text += (c ? QStringLiteral("\t") : QString()) + (number.isValid() ? QString::number(number.toDouble(), 'g', 17)
                                                        : item           ? item->text()
                                                                         : QString());
    }
    text += QLatin1Char('\n');
  }
  return text;
}

void PlotsDock::updateCursors() {
  const double t = simulation_->recorder() && simulation_->hasShownSample() && !simulation_->showsLive()
                       ? simulation_->shownTime()
                       : std::numeric_limits<double>::quiet_NaN();
  for (const auto& pane : panes_) pane->view->setCursorTime(t);
}

bool PlotsDock::exportPane(int p, const QString& path, QString* error) {
  return exportPanes({p}, path, QSizeF(1600, 900), 2.0, QString(), error);
}

bool PlotsDock::exportPanes(const std::vector<int>& panes, const QString& path, QSizeF size, double pngScale,
                            const QString& caption, QString* error) {
  std::vector<render::ChartFigure> figures;
  for (int p : panes) {
    if (p < 0 || p >= kPaneCount) {
      if (error) *error = tr("No pane %1").arg(p);
      return false;
    }
    drawPane(p);
    panes_[static_cast<std::size_t>(p)]->view->renderToImage();  // lays its axes out
    figures.push_back(panes_[static_cast<std::size_t>(p)]->view->figure());
  }
  if (figures.empty()) return false;
  figures.back().caption = caption;  // one line under the whole figure
  return render::writeFigures(figures, path, size, pngScale, error);
}

int PlotsDock::currentPane() const { return std::max(0, paneBox_->currentIndex()); }

}  // namespace kt::ui
