// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/timeline_bar.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/results/recorder.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

// The slider with a tick under the groove at each interaction (docs/interaction.md): where a push
// or drag began and where it was released, in the drag spring's colour.
class MarkedSlider : public QSlider {
 public:
  MarkedSlider() : QSlider(Qt::Horizontal) {}
  void setMarks(std::vector<int> values) {
    marks_ = std::move(values);
    update();
  }

 protected:
  void paintEvent(QPaintEvent* event) override {
    QSlider::paintEvent(event);
    if (marks_.empty() || maximum() <= minimum()) return;
    QStyleOptionSlider opt;
    initStyleOption(&opt);
    const QRect groove = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
    const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
    const int span = groove.width() - handle.width();
    QPainter p(this);
    p.setPen(QPen(QColor(217, 26, 140), 2));
    for (const int v : marks_) {
      const int x = groove.x() + handle.width() / 2 + QStyle::sliderPositionFromValue(minimum(), maximum(), v, span);
      p.drawLine(x, height() - 6, x, height() - 1);
    }
  }

 private:
  std::vector<int> marks_;
};

}  // namespace

const std::vector<double>& TimelineBar::replaySpeeds() {
  static const std::vector<double> speeds = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};
  return speeds;
}

TimelineBar::TimelineBar(SimulationController* simulation, QWidget* parent)
    : QWidget(parent),
      simulation_(simulation),
      playButton_(new QToolButton),
      liveButton_(new QToolButton),
      slider_(new MarkedSlider),
      timeLabel_(new QLabel),
      speedBox_(new QComboBox),
      runLabel_(new QLabel),
      replayTimer_(new QTimer(this)) {
  setObjectName(QStringLiteral("timeline"));
  playButton_->setObjectName(QStringLiteral("replayButton"));
  playButton_->setCheckable(true);
  playButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  playButton_->setToolTip(tr("Replay the recording from the shown time (no simulation)"));
  liveButton_->setObjectName(QStringLiteral("liveButton"));
  liveButton_->setText(tr("Live"));
  liveButton_->setCheckable(true);
  liveButton_->setToolTip(tr("Follow the newest sample of the run"));
  slider_->setObjectName(QStringLiteral("timelineSlider"));
  slider_->setFocusPolicy(Qt::StrongFocus);
  slider_->setToolTip(tr("Recorded time: drag, click, or use the arrow keys (one sample), Page Up/Down, Home, End"));
  slider_->setRange(0, 0);
  timeLabel_->setObjectName(QStringLiteral("timelineTime"));
  timeLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  speedBox_->setObjectName(QStringLiteral("replaySpeedBox"));
  speedBox_->setToolTip(tr("Replay speed (factor of real time)"));
  for (double f : replaySpeeds()) speedBox_->addItem(QStringLiteral("×%1").arg(f), f);
  speedBox_->setCurrentIndex(3);  // ×1
  runLabel_->setObjectName(QStringLiteral("runLabel"));
  runLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // as wide as the bar makes it, elided when narrower than its text: the label never sets the
  // window's minimum width (a 1366 × 768 screen)
  runLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* controls = new QHBoxLayout;
  controls->setContentsMargins(0, 0, 0, 0);
  controls->addWidget(playButton_);
  controls->addWidget(speedBox_);
  controls->addWidget(slider_, 1);
  controls->addWidget(timeLabel_);
  controls->addWidget(liveButton_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(1);
  layout->addLayout(controls);
  layout->addWidget(runLabel_);

  replayTimer_->setInterval(16);
  replayTimer_->setTimerType(Qt::PreciseTimer);
  connect(replayTimer_, &QTimer::timeout, this, &TimelineBar::replayTick);
  connect(playButton_, &QToolButton::toggled, this, &TimelineBar::replay);
  connect(liveButton_, &QToolButton::clicked, this, &TimelineBar::showLive);
  connect(speedBox_, &QComboBox::currentIndexChanged, this,
          [this](int index) { setReplaySpeed(speedBox_->itemData(index).toDouble()); });
  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    if (syncing_) return;
    if (replaying_) replay(false);  // the user took the timeline over
    showSample(static_cast<std::size_t>(std::max(0, value)));
  });
  connect(simulation_, &SimulationController::shownSampleChanged, this, &TimelineBar::sync);
  connect(simulation_, &SimulationController::stateChanged, this, &TimelineBar::sync);
  connect(simulation_, &SimulationController::settingsChanged, this, &TimelineBar::sync);
  connect(simulation_, &SimulationController::sessionStarted, this, [this] {
    replay(false);
    sync();
  });
  connect(simulation_, &SimulationController::sessionEnded, this, [this] { replay(false); });
  sync();
}

double TimelineBar::rowTime(std::size_t row) const {
  const kt::Recorder* rec = simulation_->recorder();
  if (rec && row < rec->size()) return rec->timeOf(row);
  return simulation_->shownTime();
}

void TimelineBar::showSample(std::size_t row) {
  const kt::Recorder* rec = simulation_->recorder();
  if (!rec || rec->size() == 0) return;
  row = std::min(row, rec->size() - 1);
  simulation_->showTime(rowTime(row));
}

void TimelineBar::showLive() {
  replay(false);
  simulation_->showLive();
  sync();
}

void TimelineBar::replay(bool on) {
  const kt::Recorder* rec = simulation_->recorder();
  on = on && rec && rec->size() > 1;
  if (on == replaying_) {
    if (playButton_->isChecked() != on) playButton_->setChecked(on);
    return;
  }
  replaying_ = on;
  playButton_->setChecked(on);
  playButton_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  if (!on) {
    replayTimer_->stop();
    return;
  }
  const double last = rowTime(rec->size() - 1);
  replayFrom_ = simulation_->showsLive() || simulation_->shownTime() >= last ? rowTime(0) : simulation_->shownTime();
  simulation_->showTime(replayFrom_);
  replayClock_.start();
  replayTimer_->start();
}

void TimelineBar::setReplaySpeed(double factor) {
  if (!(factor > 0.0)) return;
  if (replaying_) {  // go on from where the replay is, at the new speed
    replayFrom_ = simulation_->shownTime();
    replayClock_.restart();
  }
  replaySpeed_ = factor;
  const int index = speedBox_->findData(factor);
  if (index >= 0 && index != speedBox_->currentIndex()) speedBox_->setCurrentIndex(index);
}

void TimelineBar::replayTick() {
  const kt::Recorder* rec = simulation_->recorder();
  if (!rec || rec->size() == 0) {
    replay(false);
    return;
  }
  const double last = rowTime(rec->size() - 1);
  const double t = replayFrom_ + replaySpeed_ * static_cast<double>(replayClock_.nsecsElapsed()) * 1e-9;
  simulation_->showTime(std::min(t, last));
  if (t >= last) replay(false);  // the end of the recording (a run still going on has more later)
}

void TimelineBar::sync() {
  const kt::Recorder* rec = simulation_->recorder();
  const std::size_t rows = rec ? rec->size() : 0;
  syncing_ = true;
  slider_->setEnabled(rows > 1);
  slider_->setMaximum(rows > 0 ? static_cast<int>(std::min<std::size_t>(
                                     rows - 1, static_cast<std::size_t>(std::numeric_limits<int>::max())))
                               : 0);
  slider_->setPageStep(std::max(1, slider_->maximum() / 20));
  if (simulation_->hasShownSample())
    slider_->setValue(static_cast<int>(
        std::min<std::size_t>(simulation_->shownIndex(), static_cast<std::size_t>(std::numeric_limits<int>::max()))));
  syncing_ = false;
  playButton_->setEnabled(rows > 1);
  const bool live = simulation_->showsLive();
  // the views went back to the newest sample (Run, Step, Live): a replay would take them away again
  if (live && replaying_) replay(false);
  liveButton_->setChecked(live);
  liveButton_->setEnabled(rec != nullptr);
  const double last = rows > 0 ? simulation_->simulationTime() : 0.0;
  timeLabel_->setText(rec == nullptr ? QString()
                      : live         ? tr("t = %1 s (live)").arg(simulation_->shownTime(), 0, 'f', 3)
                             : tr("t = %1 s of %2 s").arg(simulation_->shownTime(), 0, 'f', 3).arg(last, 0, 'f', 3));
  // the interactions: a tick where each began and where it was released
  if (const std::size_t count = simulation_->eventCount(); count != markedEvents_ || rows == 0) {
    markedEvents_ = count;
    eventTimes_.clear();
    std::vector<int> marks;
    const kt::SimulatorOptions& o = simulation_->activeOptions();
    const double interval = o.outputInterval > 0.0 ? o.outputInterval : o.step;
    std::vector<int> seen;
    for (const kt::InteractionEvent& e : simulation_->events()) {
      // a push or a drag where it began, a drive change (the live drive panel) or a pose every time
      const bool begins =
          e.kind == kt::InteractionKind::Drive || e.kind == kt::InteractionKind::Pose ||
          (e.kind != kt::InteractionKind::Release && std::find(seen.begin(), seen.end(), e.id) == seen.end());
      if (begins) seen.push_back(e.id);
      if (!begins && e.kind != kt::InteractionKind::Release) continue;  // a drag's new target
      eventTimes_.push_back(e.t);
      marks.push_back(static_cast<int>(std::lround(e.t / interval)));
    }
    static_cast<MarkedSlider*>(slider_)->setMarks(std::move(marks));
  }
  const QString label = simulation_->runLabel();
  // without a run, why: a refused duration or setting says so rather than blame the model
  runText_ = !label.isEmpty()                         ? tr("Run: %1 — %2").arg(label, simulation_->runStateText())
             : !simulation_->errorMessage().isEmpty() ? tr("No run. %1").arg(simulation_->errorMessage())
                                                      : tr("No run: the model cannot be simulated yet");
  showRunText();
}

void TimelineBar::showRunText() {
  const QString shown = runLabel_->fontMetrics().elidedText(runText_, Qt::ElideMiddle, runLabel_->width());
  runLabel_->setText(shown);
  const QString about = tr("What produced the run shown, and where it stands");
  runLabel_->setToolTip(shown == runText_ ? about : QStringLiteral("%1\n%2").arg(runText_, about));
}

void TimelineBar::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  showRunText();
}

}  // namespace kt::ui
