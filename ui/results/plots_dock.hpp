// SPDX-License-Identifier: BSD-3-Clause
// The plots dock: three stacked chart panes (render/charts/chart_pane), by default the picture of Liu,
// Hu & Zhang (2016), Figs. 8–10:
//   1. the base attitude (roll, pitch, yaw of the first free-joint body; the energies when the
//      model has no floating base),
//   2. the joint coordinates of the selected joint; with none selected, of the first branch of
//      the tree (the space robot's first arm, J11 … J16),
//   3. the constraint forces and moments of the selected joint (reaction:<joint>.*, joint frame;
//      the transmitted wrench load:<joint>.* for a free joint, which has no reaction); with none
//      selected, of the first joint of that branch (J11).
// A searchable list adds or removes any recorded signal to the current pane; each pane has a
// legend, pan (left drag) and zoom (wheel, right drag) from vtkChartXY, autoscale (on until the
// user pans or zooms; the Autoscale button brings it back) and PNG / SVG / PDF export.
//
// The dock chooses what each pane shows; the panes draw it from the simulation's Recorder, which
// holds the run: the dock keeps no copy of it. They redraw as samples arrive
// (SimulationController::shownSampleChanged, at most 10 times a second), the whole recording decimated to ≤ 2
// points per pixel column, with a time cursor at the shown sample's time when the views show a
// chosen time rather than the live end of the run (SimulationController::showTime); a click on a
// pane moves the shown time there. When the simulator goes away (sessionEnded) the panes keep
// what they drew last.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/analysis/spectrum.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTableWidget;
class vtkChartXY;

namespace kt::render {
class FigureView;
class VtkWidget;
struct ChartSeries;
}  // namespace kt::render

namespace kt::ui {

class SimulationController;
struct PlotPane;
class SignalListModel;

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
  /// What the loads pane shows by default, as the load arrows do: the constraint forces
  /// (reaction:<joint>.*) or the whole wrench (load:<joint>.*), in the joint frame, or the whole
  /// wrench in world axes (load_world:<joint>.*: the reaction part is recorded in the joint frame).
  void setLoadView(bool reactionOnly, bool worldAxes);
  /// Angles (rad, rad/s, rad/s²) shown in degrees (the default) or radians; the recording and
  /// the CSV stay in SI units.
  void setAnglesInDegrees(bool degrees);
  bool anglesInDegrees() const { return degrees_; }
  /// The pane's title: after its default content, or after what it shows when the user changed it.
  QString paneTitle(int pane) const;
  /// Writes the pane as PNG, SVG or PDF (chosen by the file suffix). False with `error` set on failure.
  bool exportPane(int pane, const QString& path, QString* error = nullptr);
  /// Writes `panes` stacked into one figure of `size` (PNG: × pngScale pixels), with a caption
  /// line when `caption` is not empty. False with `error` set on failure.
  bool exportPanes(const std::vector<int>& panes, const QString& path, QSizeF size, double pngScale,
                   const QString& caption, QString* error = nullptr);
  /// The pane the signal list edits.
  int currentPane() const;
  /// The statistics under the panes (docs/reports.md): for the chosen pane, per series over the
  /// time range it shows, min, max, mean, RMS, peak-to-peak and the time of the maximum, as shown
  /// (an angle in degrees when the panes show degrees). The Statistics button toggles them.
  void setStatisticsShown(bool shown);
  bool statisticsShown() const;
  QTableWidget* statisticsTable() const { return statistics_; }
  /// The table as copied (Ctrl+C, Copy Table): tab-separated, a header line, numbers in full.
  QString statisticsText() const;
  /// The spectrum under the panes (docs/reports.md): for the chosen pane, each series' amplitude
  /// spectrum or PSD over the time range it shows (kt::welchSpectrum, mean removed per segment),
  /// in the units drawn, with the resolution and each series' largest line. The Spectrum button
  /// toggles it.
  void setSpectrumShown(bool shown);
  bool spectrumShown() const;
  /// PSD (else amplitude), a logarithmic value axis, samples per segment (0: kt::defaultSegment).
  void setSpectrumOptions(bool psd, bool logScale, int segment);
  /// The samples per segment chosen (0: kt::defaultSegment).
  int spectrumSegment() const;
  /// The spectra drawn, one per series of the chosen pane (empty when none could be made).
  const std::vector<kt::Spectrum>& spectra() const { return spectrum_; }
  render::FigureView* spectrumView() const { return spectrumView_; }
  QLabel* spectrumCaption() const { return spectrumCaption_; }
  /// Writes the spectrum shown, by the suffix of `path`: CSV as `kinetree-cli spectrum` writes it
  /// (f_Hz, then NAME.amplitude and NAME.psd of each series, a unit drawn other than the signal's,
  /// degrees, after its name, as Export Results writes them), or the figure as PNG, SVG or PDF.
  /// False with `error` when there is no spectrum or the file cannot be written (atomically).
  bool exportSpectrum(const QString& path, QString* error = nullptr) const;

 signals:
  /// The time range a pane shows changed (visibleTimeRange()).
  void visibleRangeChanged();

 public slots:
  /// Another model replaced the document: every pane starts empty (no series of the old model)
  /// and the signal filter is cleared.
  void clear();
  /// Default series for the selected joint (tree index, −1: none).
  void setSelectedJoint(int joint);
  /// Redraws with the newest samples of the recorder (at most ~10 times a second unless forced;
  /// a hidden dock draws when it is shown again).
  void readNewSamples(bool forceRedraw = false);
  void redraw();

 private:
  /// Scrolls the panes to pane `p` (when they scroll: the statistics or the spectrum are open).
  void showPaneInView(int p);
  void onSessionStarted();
  void onSessionEnded();
  void rebuildDefaults();
  void refreshList();
  void setPaneColumns(int pane);
  void drawPane(int pane);
  void updateCursors();
  void updateStatistics(int pane);
  void updateSpectrum(int pane);
  int columnOf(const QString& name) const;

  SimulationController* simulation_;
  std::vector<std::unique_ptr<PlotPane>> panes_;
  static constexpr int kStatisticsColumns = 7;
  QComboBox* paneBox_ = nullptr;
  QPushButton* statisticsButton_ = nullptr;
  QSplitter* right_ = nullptr;          ///< the panes over the statistics
  QScrollArea* panesScroll_ = nullptr;  ///< the panes, which scroll when the dock is lower than them
  QWidget* statisticsBox_ = nullptr;
  QLabel* statisticsCaption_ = nullptr;
  QTableWidget* statistics_ = nullptr;
  QPushButton* spectrumButton_ = nullptr;
  QWidget* spectrumBox_ = nullptr;
  QComboBox* spectrumKind_ = nullptr;
  QComboBox* spectrumSegment_ = nullptr;
  QCheckBox* spectrumLog_ = nullptr;
  QLabel* spectrumCaption_ = nullptr;
  render::FigureView* spectrumView_ = nullptr;
  std::vector<kt::Spectrum> spectrum_;
  std::vector<QString> spectrumNames_;  ///< (spectrum_) the series' CSV names
  QLineEdit* filter_ = nullptr;
  QLabel* filterHint_ = nullptr;  ///< "No signal matches 'pattern'" when the filter hides every signal
  QListView* list_ = nullptr;
  SignalListModel* listModel_ = nullptr;

  // signal names of the current session (copied: they outlive the simulator)
  std::vector<QString> names_;
  std::vector<QString> units_;
  QString baseBody_;  ///< the first free-joint body ("" when none)
  std::vector<QString> jointNames_;
  std::vector<int> jointNq_;
  std::vector<char> jointQuaternion_;  ///< (joints) q holds a quaternion: its coordinates are not read, ν is
  std::vector<int> firstBranch_;       ///< joints (tree indices, nv > 0) from the base down its first children
  std::vector<int> prescribed_;        ///< joints (tree indices) on a prescribed motion
  int selectedJoint_ = -1;

  QElapsedTimer redrawClock_;
  bool stale_ = false;                 ///< samples arrived while the dock was hidden
  std::uint64_t drawnGeneration_ = 0;  ///< the recorder generation drawn (Recorder::generation)
  bool degrees_ = true;
  bool reactionOnly_ = true, worldAxes_ = false;
};

}  // namespace kt::ui
