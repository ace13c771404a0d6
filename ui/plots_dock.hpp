// The plots dock: three stacked chart panes (render/chart_pane), one for each of
//   1. the base attitude (roll, pitch, yaw of the first free-joint body; the energies when the
//      model has no floating base),
//   2. the joint coordinates of the selected joint,
//   3. the selected joint's load components (load:<joint>.fx … mz, child-joint frame).
// A searchable list adds or removes any recorded signal to the current pane; each pane has a
// legend, pan (left drag) and zoom (wheel, right drag) from vtkChartXY, autoscale (on until the
// user pans or zooms; the Autoscale button brings it back) and PNG / SVG / PDF export.
//
// The dock chooses what each pane shows; the panes draw it from the simulation's Recorder, which
// holds the run: the dock keeps no copy of it. They redraw as samples arrive
// (SimulationController::frame, at most 10 times a second), the whole recording decimated to ≤ 2
// points per pixel column, with a time cursor at the shown sample's time when the views show a
// chosen time rather than the live end of the run (SimulationController::showTime); a click on a
// pane moves the shown time there. When the simulator goes away (sessionEnded) the panes keep
// what they drew last.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <memory>
#include <utility>
#include <vector>

class QComboBox;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class vtkChartXY;

namespace kt::render {
class VtkWidget;
struct ChartSeries;
}  // namespace kt::render

namespace kt::ui {

class SimulationController;
struct PlotPane;

class PlotsDock : public QDockWidget {
  Q_OBJECT

 public:
  static constexpr int kPaneCount = 3;

  PlotsDock(SimulationController* simulation, QWidget* parent = nullptr);
  ~PlotsDock() override;

  render::VtkWidget* paneWidget(int pane) const;
  vtkChartXY* chart(int pane) const;
  /// Names of the signals pane `pane` shows, in legend order.
  QStringList paneSignals(int pane) const;
  /// Every signal the panes show, pane by pane, without duplicates.
  QStringList plottedSignals() const;
  /// Each pane's title and series, top to bottom (what an exported video shows beside the view).
  std::vector<std::pair<QString, std::vector<render::ChartSeries>>> paneContents() const;
  /// Adds or removes a recorded signal (by name) on a pane; false if there is no such signal.
  bool addSignal(int pane, const QString& name);
  bool removeSignal(int pane, const QString& name);
  /// The pane the signal list edits.
  void setCurrentPane(int pane);
  /// The time range the pane the signal list edits shows (its bottom axis as last drawn); NaN
  /// when the dock is hidden or the pane draws nothing (it shows no time range then).
  std::pair<double, double> visibleTimeRange() const;
  /// The time cursor of a pane (NaN when it shows the live end of the run).
  double cursorTime(int pane) const;
  /// Samples each pane drew per signal at its last redraw (the whole run so far: rows [0, k]).
  std::size_t sampleCount() const;
  /// Points the pane drew at the last redraw (all series; ≤ 2 × pixel width each).
  std::size_t drawnPoints(int pane) const;
  /// Back to automatic axes for a pane.
  void autoscale(int pane);
  /// Writes the pane as PNG, SVG or PDF (chosen by the file suffix). False with `error` set on failure.
  bool exportPane(int pane, const QString& path, QString* error = nullptr);

 signals:
  /// The time range a pane shows changed (visibleTimeRange()).
  void visibleRangeChanged();

 public slots:
  /// Default series for the selected joint (tree index, −1: none).
  void setSelectedJoint(int joint);
  /// Redraws with the newest samples of the recorder (at most ~10 times a second unless forced;
  /// a hidden dock draws when it is shown again).
  void fetch(bool forceRedraw = false);
  void redraw();

 private:
  void onSessionStarted();
  void onSessionEnded();
  void rebuildDefaults();
  void refreshList();
  void setPaneColumns(int pane);
  void drawPane(int pane);
  void updateCursors();
  int columnOf(const QString& name) const;

  SimulationController* simulation_;
  std::vector<std::unique_ptr<PlotPane>> panes_;
  QComboBox* paneBox_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QListWidget* list_ = nullptr;

  // signal names of the current session (copied: they outlive the simulator)
  std::vector<QString> names_;
  std::vector<QString> units_;
  QString baseBody_;  ///< the first free-joint body ("" when none)
  std::vector<QString> jointNames_;
  std::vector<int> jointNq_;
  int selectedJoint_ = -1;

  QElapsedTimer redrawClock_;
  bool updatingList_ = false;
  bool stale_ = false;  ///< samples arrived while the dock was hidden
};

}  // namespace kt::ui
