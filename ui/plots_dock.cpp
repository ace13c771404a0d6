#include "ui/plots_dock.hpp"

#include <vtkAxis.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextActor.h>
#include <vtkContextInteractorStyle.h>
#include <vtkContextMouseEvent.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkPDFExporter.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSplitter>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/sim/recorder.hpp"
#include "core/sim/signals.hpp"
#include "render/vtk_widget.hpp"
#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"

namespace kt::ui {

struct PlotPane {
  QString title;
  render::VtkWidget* widget = nullptr;
  QLabel* hint = nullptr;  ///< over an empty pane (a VTK chart without plots draws nothing at all)
  vtkSmartPointer<vtkContextActor> actor;
  vtkSmartPointer<vtkChartXY> chart;
  vtkSmartPointer<vtkTable> table;
  vtkSmartPointer<vtkContextInteractorStyle> style;
  std::vector<int> defaults;  ///< signal columns that follow the selection
  std::vector<int> extras;    ///< columns the user added
  std::vector<int> columns;   ///< drawn: defaults then extras, no duplicates
  std::vector<int> plotted;   ///< the columns the chart's plots were made for
  bool autoscale = true;
  std::size_t drawn = 0;
};

namespace {

constexpr unsigned char kPalette[][3] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                                         {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                                         {188, 189, 34},  {23, 190, 207}};
constexpr int kPaletteSize = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);

void setAxesBehavior(vtkChartXY* chart, int behavior) {
  for (int a : {vtkAxis::LEFT, vtkAxis::BOTTOM}) chart->GetAxis(a)->SetBehavior(behavior);
}

// Nice tick step for a range spanning `span` with about `count` ticks.
double tickStep(double span, int count) {
  if (!(span > 0.0)) return 1.0;
  const double raw = span / count;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

}  // namespace

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
  filter_ = new QLineEdit;
  filter_->setObjectName(QStringLiteral("signalFilter"));
  filter_->setPlaceholderText(tr("Search signals (glob: load:*.fz)"));
  filter_->setClearButtonEnabled(true);
  list_ = new QListWidget;
  list_->setObjectName(QStringLiteral("signalList"));
  list_->setToolTip(tr("Tick a signal to show it on the chosen pane"));
  auto* buttons = new QHBoxLayout;
  auto* autoscaleButton = new QPushButton(tr("Autoscale"));
  autoscaleButton->setToolTip(tr("Fit the axes of the chosen pane to its data again"));
  auto* exportButton = new QPushButton(tr("Export…"));
  exportButton->setToolTip(tr("Save the chosen pane as PNG, SVG or PDF"));
  buttons->addWidget(autoscaleButton);
  buttons->addWidget(exportButton);
  sideLayout->addWidget(paneBox_);
  sideLayout->addWidget(filter_);
  sideLayout->addWidget(list_, 1);
  sideLayout->addLayout(buttons);
  split->addWidget(side);

  // Right: the stacked panes.
  auto* stack = new QSplitter(Qt::Vertical);
  const QString titles[kPaneCount] = {tr("Base attitude"), tr("Joint coordinates"), tr("Joint loads")};
  for (int p = 0; p < kPaneCount; ++p) {
    auto pane = std::make_unique<PlotPane>();
    pane->title = titles[p];
    pane->widget = new render::VtkWidget;
    pane->widget->setObjectName(QStringLiteral("plotPane%1").arg(p));
    pane->widget->setMinimumHeight(120);
    pane->widget->renderer()->SetBackground(1.0, 1.0, 1.0);
    pane->widget->renderer()->GradientBackgroundOff();
    pane->chart = vtkSmartPointer<vtkChartXY>::New();
    pane->chart->SetShowLegend(true);
    pane->chart->GetLegend()->SetInline(true);
    pane->chart->GetLegend()->GetLabelProperties()->SetFontSize(10);
    pane->chart->SetTitle(pane->title.toStdString());
    pane->chart->GetTitleProperties()->SetFontSize(12);
    pane->chart->GetAxis(vtkAxis::BOTTOM)->SetTitle("t (s)");
    pane->chart->GetAxis(vtkAxis::LEFT)->SetTitle("");
    pane->chart->SetActionToButton(vtkChart::PAN, vtkContextMouseEvent::LEFT_BUTTON);
    pane->chart->SetActionToButton(vtkChart::ZOOM_AXIS, vtkContextMouseEvent::RIGHT_BUTTON);
    pane->actor = vtkSmartPointer<vtkContextActor>::New();
    pane->actor->GetScene()->AddItem(pane->chart);
    pane->actor->GetScene()->SetRenderer(pane->widget->renderer());
    pane->widget->renderer()->AddActor(pane->actor);
    pane->style = vtkSmartPointer<vtkContextInteractorStyle>::New();
    pane->style->SetScene(pane->actor->GetScene());
    pane->widget->interactor()->SetInteractorStyle(pane->style);
    pane->widget->installEventFilter(this);
    pane->hint = new QLabel(pane->widget);
    pane->hint->setObjectName(QStringLiteral("plotPaneHint%1").arg(p));
    pane->hint->setAlignment(Qt::AlignCenter);
    pane->hint->setWordWrap(true);
    pane->hint->setAttribute(Qt::WA_TransparentForMouseEvents);
    pane->hint->setStyleSheet(QStringLiteral("color: #505050; background: transparent;"));
    auto* overlay = new QVBoxLayout(pane->widget);
    overlay->addWidget(pane->hint);
    pane->table = vtkSmartPointer<vtkTable>::New();
    stack->addWidget(pane->widget);
    paneBox_->addItem(pane->title);
    panes_.push_back(std::move(pane));
  }
  split->addWidget(stack);
  split->setStretchFactor(1, 1);
  split->setSizes({200, 700});
  setWidget(body);

  connect(paneBox_, &QComboBox::currentIndexChanged, this, [this](int) { refreshList(); });
  connect(filter_, &QLineEdit::textChanged, this, [this] { refreshList(); });
  connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    if (updatingList_) return;
    const int pane = paneBox_->currentIndex();
    if (item->checkState() == Qt::Checked) {
      addSignal(pane, item->text());
    } else {
      removeSignal(pane, item->text());
    }
  });
  connect(autoscaleButton, &QPushButton::clicked, this, [this] { autoscale(paneBox_->currentIndex()); });
  connect(exportButton, &QPushButton::clicked, this, [this] {
    const int pane = paneBox_->currentIndex();
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Plot"), panes_[static_cast<std::size_t>(pane)]->title + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty()) return;
    QString error;
    if (!exportPane(pane, path, &error)) QMessageBox::warning(this, tr("Export Plot"), error);
  });

  connect(simulation_, &SimulationController::sessionStarted, this, &PlotsDock::onSessionStarted);
  connect(simulation_, &SimulationController::sessionEnded, this, &PlotsDock::onSessionEnded);
  connect(simulation_, &SimulationController::frame, this, [this] { fetch(false); });
  connect(simulation_, &SimulationController::runningChanged, this, [this] { fetch(true); });
  redrawClock_.start();
  if (simulation_->signalLayout()) onSessionStarted();
}

PlotsDock::~PlotsDock() = default;

render::VtkWidget* PlotsDock::paneWidget(int pane) const { return panes_[static_cast<std::size_t>(pane)]->widget; }
vtkChartXY* PlotsDock::chart(int pane) const { return panes_[static_cast<std::size_t>(pane)]->chart; }
std::size_t PlotsDock::drawnPoints(int pane) const { return panes_[static_cast<std::size_t>(pane)]->drawn; }

QStringList PlotsDock::paneSignals(int pane) const {
  QStringList out;
  for (int c : panes_[static_cast<std::size_t>(pane)]->columns) out << names_[static_cast<std::size_t>(c)];
  return out;
}

int PlotsDock::columnOf(const QString& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  return it == names_.end() ? -1 : static_cast<int>(it - names_.begin());
}

std::vector<double>& PlotsDock::columnData(int column) {
  std::vector<double>& d = data_[static_cast<std::size_t>(column)];
  if (d.size() != time_.size()) {
    // Newly shown: copy its whole history (possible while the recorder exists).
    const kt::Recorder* rec = simulation_->recorder();
    d.assign(time_.size(), 0.0);
    if (!rec || rec->copyColumn(column, 0, time_.size(), d.data()) != time_.size()) d.clear();
  }
  return d;
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
    units_.push_back(QString::fromStdString(info.unit));
  }
  baseBody_ = layout->freeBodies().empty()
                  ? QString()
                  : QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(layout->freeBodies().front())]);
  jointNames_.clear();
  jointNq_.clear();
  for (int i = 0; i < tree->nb; ++i) {
    jointNames_.push_back(QString::fromStdString(tree->jointNames[static_cast<std::size_t>(i)]));
    const int next = i + 1 < tree->nb ? tree->qOffset[static_cast<std::size_t>(i) + 1] : tree->nq;
    jointNq_.push_back(next - tree->qOffset[static_cast<std::size_t>(i)]);
  }
  const bool sameModel = oldJoints == jointNames_;
  if (!sameModel) selectedJoint_ = -1;
  time_.clear();
  data_.assign(names_.size(), {});
  generation_ = ~std::uint64_t{0};
  for (std::size_t p = 0; p < panes_.size(); ++p) {
    panes_[p]->extras.clear();
    if (sameModel)
      for (const QString& n : extrasByName[p])
        if (const int c = columnOf(n); c >= 0) panes_[p]->extras.push_back(c);
    panes_[p]->autoscale = true;
  }
  rebuildDefaults();
  refreshList();
  fetch(true);
}

void PlotsDock::onSessionEnded() {
  // Keep what was copied; nothing more will come from this recorder.
  fetch(true);
}

void PlotsDock::setSelectedJoint(int joint) {
  selectedJoint_ = joint >= 0 && joint < static_cast<int>(jointNames_.size()) ? joint : -1;
  rebuildDefaults();
  refreshList();
  redraw();
}

void PlotsDock::rebuildDefaults() {
  if (names_.empty()) return;
  auto add = [this](std::vector<int>& out, const QString& name) {
    if (const int c = columnOf(name); c >= 0) out.push_back(c);
  };
  std::vector<int> attitude, joint, load;
  if (!baseBody_.isEmpty()) {
    const QString& body = baseBody_;
    for (const char* c : {"roll", "pitch", "yaw"}) add(attitude, QStringLiteral("attitude:%1.%2").arg(body, c));
    panes_[0]->title = tr("Base attitude: %1 (rad)").arg(body);
  } else {
    for (const char* c : {"kinetic", "potential", "total"}) add(attitude, QStringLiteral("energy.%1").arg(c));
    panes_[0]->title = tr("Energy (J; no floating base)");
  }
  if (selectedJoint_ >= 0) {
    const QString j = jointNames_[static_cast<std::size_t>(selectedJoint_)];
    for (int k = 0; k < jointNq_[static_cast<std::size_t>(selectedJoint_)]; ++k)
      add(joint, QStringLiteral("q:%1[%2]").arg(j).arg(k));
    for (const char* c : {"fx", "fy", "fz", "mx", "my", "mz"}) add(load, QStringLiteral("load:%1.%2").arg(j, c));
    panes_[1]->title = tr("Joint coordinates: %1").arg(j);
    panes_[2]->title = tr("Joint loads: %1 (N, N·m; joint frame)").arg(j);
  } else {
    panes_[1]->title = tr("Joint coordinates (select a joint)");
    panes_[2]->title = tr("Joint loads (select a joint)");
  }
  panes_[0]->defaults = attitude;
  panes_[1]->defaults = joint;
  panes_[2]->defaults = load;
  for (int p = 0; p < kPaneCount; ++p) {
    panes_[static_cast<std::size_t>(p)]->chart->SetTitle(panes_[static_cast<std::size_t>(p)]->title.toStdString());
    setPaneColumns(p);
  }
}

void PlotsDock::setPaneColumns(int p) {
  PlotPane& pane = *panes_[static_cast<std::size_t>(p)];
  pane.columns = pane.defaults;
  for (int c : pane.extras)
    if (std::find(pane.columns.begin(), pane.columns.end(), c) == pane.columns.end()) pane.columns.push_back(c);
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

void PlotsDock::refreshList() {
  updatingList_ = true;
  list_->clear();
  const int p = std::max(0, paneBox_->currentIndex());
  const std::vector<int>& shown = panes_[static_cast<std::size_t>(p)]->columns;
  QString pattern = filter_->text().trimmed();
  if (!pattern.isEmpty() && !pattern.contains(QLatin1Char('*')) && !pattern.contains(QLatin1Char('?')))
    pattern = QStringLiteral("*%1*").arg(pattern);
  const std::string glob = pattern.toStdString();
  for (std::size_t c = 1; c < names_.size(); ++c) {  // column 0 is time, the x axis
    if (!glob.empty() && !kt::globMatch(glob, names_[c].toStdString())) continue;
    // Filled before it joins the list: each change of an item in a list looks the item up by a
    // linear search, which made the list of a 10,000-body model take seconds.
    auto* item = new QListWidgetItem(names_[c]);
    item->setToolTip(units_[c]);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    const bool on = std::find(shown.begin(), shown.end(), static_cast<int>(c)) != shown.end();
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    list_->addItem(item);
  }
  updatingList_ = false;
}

void PlotsDock::fetch(bool forceRedraw) {
  const kt::Recorder* rec = simulation_->recorder();
  if (rec && !names_.empty()) {
    if (rec->generation() != generation_) {
      generation_ = rec->generation();
      time_.clear();
      for (auto& d : data_) d.clear();
    }
    const std::size_t n0 = time_.size();
    const std::size_t n = rec->size();
    if (n > n0) {
      time_.resize(n);
      bool complete = rec->copyColumn(0, n0, n, time_.data() + n0) == n - n0;
      std::vector<bool> shown(names_.size(), false);
      for (const auto& pane : panes_)
        for (int c : pane->columns) shown[static_cast<std::size_t>(c)] = true;
      for (std::size_t c = 1; c < names_.size() && complete; ++c) {
        std::vector<double>& d = data_[c];
        if (!shown[c]) {
          d.clear();
          continue;
        }
        if (d.size() != n0) {  // shown since the last fetch: copy its history
          d.resize(n);
          complete = rec->copyColumn(static_cast<int>(c), 0, n, d.data()) == n;
        } else {
          d.resize(n);
          complete = rec->copyColumn(static_cast<int>(c), n0, n, d.data() + n0) == n - n0;
        }
      }
      if (!complete) {  // cleared under us: start over at the next poll
        generation_ = ~std::uint64_t{0};
        return;
      }
    }
  }
  if (forceRedraw || redrawClock_.elapsed() >= 100) redraw();  // 10 Hz is plenty for plots
}

void PlotsDock::redraw() {
  redrawClock_.restart();
  for (auto& pane : panes_) drawPane(*pane);
}

void PlotsDock::autoscale(int pane) {
  if (pane < 0 || pane >= kPaneCount) return;
  panes_[static_cast<std::size_t>(pane)]->autoscale = true;
  drawPane(*panes_[static_cast<std::size_t>(pane)]);
}

bool PlotsDock::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type t = event->type();
  if (t == QEvent::MouseButtonPress || t == QEvent::Wheel) {
    for (auto& pane : panes_) {
      if (pane->widget != watched) continue;
      // The user takes over the axes: pan and zoom keep them; Autoscale gives them back.
      pane->autoscale = false;
      setAxesBehavior(pane->chart, vtkAxis::FIXED);
    }
  }
  return QDockWidget::eventFilter(watched, event);
}

void PlotsDock::drawPane(PlotPane& pane) {
  vtkChartXY* chart = pane.chart;
  // Series whose history we have (a signal added after its recorder went away has none).
  std::vector<int> series;
  for (int c : pane.columns) {
    const std::vector<double>& d = columnData(c);
    if (d.size() == time_.size()) series.push_back(c);
  }
  pane.hint->setVisible(series.empty());
  if (series.empty()) {
    const bool jointPane = &pane != panes_.front().get();
    pane.hint->setText(jointPane && selectedJoint_ < 0
                           ? tr("%1\nSelect a body in the Model dock or the 3D view to plot its joint.")
                                 .arg(pane.title.section(QLatin1Char('('), 0, 0).trimmed())
                       : pane.columns.empty() ? tr("%1\nNo signals: tick them in the list on the left.").arg(pane.title)
                                              : tr("%1\nNo samples of these signals in this run.").arg(pane.title));
  }
  if (series != pane.plotted || pane.table->GetNumberOfColumns() == 0) {
    chart->ClearPlots();
    pane.table = vtkSmartPointer<vtkTable>::New();
    vtkNew<vtkDoubleArray> t;
    t->SetName("t");
    pane.table->AddColumn(t);
    QString unit;
    bool oneUnit = true;
    for (std::size_t j = 0; j < series.size(); ++j) {
      const std::size_t c = static_cast<std::size_t>(series[j]);
      vtkNew<vtkDoubleArray> a;
      a->SetName(names_[c].toStdString().c_str());
      pane.table->AddColumn(a);
      if (j == 0) unit = units_[c];
      oneUnit = oneUnit && units_[c] == unit;
    }
    for (std::size_t j = 0; j < series.size(); ++j) {
      vtkPlot* plot = chart->AddPlot(vtkChart::LINE);
      plot->SetInputData(pane.table, 0, static_cast<vtkIdType>(j + 1));
      const unsigned char* rgb = kPalette[j % kPaletteSize];
      plot->SetColor(rgb[0], rgb[1], rgb[2], 255);
      plot->SetWidth(1.5);
    }
    chart->GetAxis(vtkAxis::LEFT)->SetTitle(oneUnit && !series.empty() ? unit.toStdString() : std::string());
    pane.plotted = series;
  }

  // Visible time range: the whole run (autoscale) or the axis range the user chose.
  const std::size_t n = time_.size();
  std::size_t i0 = 0, i1 = n;
  if (!pane.autoscale && n > 0) {
    const double lo = chart->GetAxis(vtkAxis::BOTTOM)->GetMinimum();
    const double hi = chart->GetAxis(vtkAxis::BOTTOM)->GetMaximum();
    i0 = static_cast<std::size_t>(std::lower_bound(time_.begin(), time_.end(), lo) - time_.begin());
    i1 = static_cast<std::size_t>(std::upper_bound(time_.begin(), time_.end(), hi) - time_.begin());
    i0 = i0 > 0 ? i0 - 1 : 0;  // one sample beyond each edge, so lines reach the border
    i1 = std::min(n, i1 + 1);
  }
  const std::size_t count = i1 > i0 ? i1 - i0 : 0;
  const std::size_t pixels =
      static_cast<std::size_t>(std::max(100.0, pane.widget->width() * pane.widget->devicePixelRatioF()));
  const bool decimate = count > 2 * pixels;
  const std::size_t rows = decimate ? 2 * pixels : count;
  pane.table->SetNumberOfRows(static_cast<vtkIdType>(rows));
  auto* t = vtkDoubleArray::SafeDownCast(pane.table->GetColumn(0));
  if (!decimate) {
    for (std::size_t r = 0; r < rows; ++r) t->SetValue(static_cast<vtkIdType>(r), time_[i0 + r]);
    for (std::size_t j = 0; j < series.size(); ++j) {
      auto* a = vtkDoubleArray::SafeDownCast(pane.table->GetColumn(static_cast<vtkIdType>(j + 1)));
      const std::vector<double>& d = data_[static_cast<std::size_t>(series[j])];
      for (std::size_t r = 0; r < rows; ++r) a->SetValue(static_cast<vtkIdType>(r), d[i0 + r]);
    }
  } else {
    // Per pixel column b, samples [k0, k1): two points, the extremes in time order, at the
    // column's first and last time (min/max decimation: the drawn envelope is exact).
    for (std::size_t b = 0; b < pixels; ++b) {
      const std::size_t k0 = i0 + b * count / pixels, k1 = i0 + (b + 1) * count / pixels;
      t->SetValue(static_cast<vtkIdType>(2 * b), time_[k0]);
      t->SetValue(static_cast<vtkIdType>(2 * b + 1), time_[k1 - 1]);
    }
    for (std::size_t j = 0; j < series.size(); ++j) {
      auto* a = vtkDoubleArray::SafeDownCast(pane.table->GetColumn(static_cast<vtkIdType>(j + 1)));
      const double* d = data_[static_cast<std::size_t>(series[j])].data();
      for (std::size_t b = 0; b < pixels; ++b) {
        const std::size_t k0 = i0 + b * count / pixels, k1 = i0 + (b + 1) * count / pixels;
        std::size_t kMin = k0, kMax = k0;
        for (std::size_t k = k0 + 1; k < k1; ++k) {
          if (d[k] < d[kMin]) kMin = k;
          if (d[k] > d[kMax]) kMax = k;
        }
        const bool minFirst = kMin <= kMax;
        a->SetValue(static_cast<vtkIdType>(2 * b), d[minFirst ? kMin : kMax]);
        a->SetValue(static_cast<vtkIdType>(2 * b + 1), d[minFirst ? kMax : kMin]);
      }
    }
  }
  for (vtkIdType c = 0; c < pane.table->GetNumberOfColumns(); ++c) pane.table->GetColumn(c)->Modified();
  pane.table->Modified();
  pane.drawn = rows * series.size();
  for (vtkIdType j = 0; j < chart->GetNumberOfPlots(); ++j) chart->GetPlot(j)->SetVisible(rows >= 2);
  if (pane.autoscale) {
    setAxesBehavior(chart, vtkAxis::AUTO);
    chart->RecalculateBounds();
  }
  pane.widget->update();
}

bool PlotsDock::exportPane(int p, const QString& path, QString* error) {
  auto fail = [error](const QString& message) {
    if (error) *error = message;
    return false;
  };
  if (p < 0 || p >= kPaneCount) return fail(tr("No pane %1").arg(p));
  PlotPane& pane = *panes_[static_cast<std::size_t>(p)];
  drawPane(pane);
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) {
    const QImage image = pane.widget->renderToImage();
    if (image.isNull()) return fail(tr("The pane could not be rendered"));
    if (!image.save(path, "PNG")) return fail(tr("Cannot write %1").arg(path));
    return true;
  }
  if (suffix == QLatin1String("pdf")) {
    pane.widget->renderToImage();  // lays the chart out at the widget's size
    vtkNew<vtkPDFExporter> exporter;
    exporter->SetRenderWindow(pane.widget->renderWindow());
    exporter->SetFileName(path.toStdString().c_str());
    exporter->SetTitle(pane.title.toStdString().c_str());
    exporter->Write();
    if (QFileInfo(path).size() <= 0) return fail(tr("Cannot write %1").arg(path));
    return true;
  }
  if (suffix == QLatin1String("svg")) return writeSvg(pane, path, error);
  return fail(tr("Unknown plot format '%1' (expected .png, .svg or .pdf)").arg(suffix));
}

bool PlotsDock::writeSvg(const PlotPane& pane, const QString& path, QString* error) const {
  // The decimated series as drawn, as vector paths, with the chart's axis ranges.
  const int width = 900, height = 420;
  const QRectF plot(70, 40, width - 70 - 20, height - 40 - 50);
  vtkAxis* xAxis = pane.chart->GetAxis(vtkAxis::BOTTOM);
  vtkAxis* yAxis = pane.chart->GetAxis(vtkAxis::LEFT);
  double x0 = xAxis->GetMinimum(), x1 = xAxis->GetMaximum();
  double y0 = yAxis->GetMinimum(), y1 = yAxis->GetMaximum();
  if (!(x1 > x0)) x1 = x0 + 1.0;
  if (!(y1 > y0)) y1 = y0 + 1.0;
  auto X = [&](double x) { return plot.left() + (x - x0) / (x1 - x0) * plot.width(); };
  auto Y = [&](double y) { return plot.bottom() - (y - y0) / (y1 - y0) * plot.height(); };

  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle(pane.title);
  svg.setDescription(tr("Kinetree plot"));
  QPainter painter;
  if (!painter.begin(&svg)) {
    if (error) *error = tr("Cannot write %1").arg(path);
    return false;
  }
  painter.fillRect(QRect(0, 0, width, height), Qt::white);
  painter.setRenderHint(QPainter::Antialiasing);
  QFont font = painter.font();
  font.setPixelSize(12);
  painter.setFont(font);
  painter.setPen(QPen(Qt::black, 1));
  painter.drawText(QRectF(0, 8, width, 24), Qt::AlignHCenter, pane.title);
  // Ticks and grid.
  const double xs = tickStep(x1 - x0, 8), ys = tickStep(y1 - y0, 6);
  painter.setPen(QPen(QColor(220, 220, 220), 1));
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs)
    painter.drawLine(QPointF(X(x), plot.top()), QPointF(X(x), plot.bottom()));
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys)
    painter.drawLine(QPointF(plot.left(), Y(y)), QPointF(plot.right(), Y(y)));
  painter.setPen(QPen(Qt::black, 1));
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs)
    painter.drawText(QRectF(X(x) - 40, plot.bottom() + 4, 80, 16), Qt::AlignHCenter, QString::number(x, 'g', 4));
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys)
    painter.drawText(QRectF(0, Y(y) - 8, plot.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(std::abs(y) < 1e-12 * ys ? 0.0 : y, 'g', 4));
  painter.drawText(QRectF(plot.left(), plot.bottom() + 22, plot.width(), 16), Qt::AlignHCenter,
                   QStringLiteral("t (s)"));
  painter.drawRect(plot);
  // Series.
  painter.setClipRect(plot);
  const vtkIdType rows = pane.table->GetNumberOfRows();
  for (std::size_t j = 0; j < pane.plotted.size(); ++j) {
    const unsigned char* rgb = kPalette[j % kPaletteSize];
    auto* t = vtkDoubleArray::SafeDownCast(pane.table->GetColumn(0));
    auto* a = vtkDoubleArray::SafeDownCast(pane.table->GetColumn(static_cast<vtkIdType>(j + 1)));
    QPainterPath line;
    bool pen = false;
    for (vtkIdType r = 0; r < rows; ++r) {
      const double v = a->GetValue(r);
      if (!std::isfinite(v)) {
        pen = false;
        continue;
      }
      const QPointF point(X(t->GetValue(r)), Y(v));
      if (pen) {
        line.lineTo(point);
      } else {
        line.moveTo(point);
        pen = true;
      }
    }
    painter.setPen(QPen(QColor(rgb[0], rgb[1], rgb[2]), 1.5));
    painter.drawPath(line);
  }
  painter.setClipping(false);
  // Legend.
  double ly = plot.top() + 8;
  for (std::size_t j = 0; j < pane.plotted.size(); ++j) {
    const unsigned char* rgb = kPalette[j % kPaletteSize];
    painter.setPen(QPen(QColor(rgb[0], rgb[1], rgb[2]), 2));
    painter.drawLine(QPointF(plot.right() - 190, ly + 6), QPointF(plot.right() - 170, ly + 6));
    painter.setPen(Qt::black);
    painter.drawText(QRectF(plot.right() - 165, ly, 160, 14), Qt::AlignLeft | Qt::AlignVCenter,
                     names_[static_cast<std::size_t>(pane.plotted[j])]);
    ly += 15;
  }
  painter.end();
  if (QFileInfo(path).size() <= 0) {
    if (error) *error = tr("Cannot write %1").arg(path);
    return false;
  }
  return true;
}

}  // namespace kt::ui
