// The plots dock: three stacked vtkChartXY panes, each in a bridge widget (render/vtk_widget):
//   1. the base attitude (roll, pitch, yaw of the first free-joint body; the energies when the
//      model has no floating base),
//   2. the joint coordinates of the selected joint,
//   3. the selected joint's load components (load:<joint>.fx … mz, child-joint frame).
// A searchable list adds or removes any recorded signal to the current pane; each pane has a
// legend, pan (left drag) and zoom (wheel, right drag) from vtkChartXY, autoscale (on until the
// user pans or zooms; the Autoscale button brings it back) and PNG / SVG / PDF export.
//
// Storage and drawing: the dock copies the recorded columns it shows (whole run) from the
// simulation's Recorder as they arrive (SimulationController::frame; redrawn at most 10 times a second),
// and draws a decimated view: for every pixel column of the visible time range the first and
// the last of (min, max) in time order, so a 10⁵-sample series becomes ≤ 2 × width points.
//
// SVG: vtkGL2PSExporter needs the legacy OpenGL feedback path, so the SVG is written from the
// same decimated series with QSvgGenerator (vector lines, axes, ticks, legend). PDF uses
// vtkPDFExporter on the pane's render window; PNG is the pane's rendered image.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

class QComboBox;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class vtkChartXY;

namespace kt::render {
class VtkWidget;
}

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
  /// Adds or removes a recorded signal (by name) on a pane; false if there is no such signal.
  bool addSignal(int pane, const QString& name);
  bool removeSignal(int pane, const QString& name);
  /// The pane the signal list edits.
  void setCurrentPane(int pane);
  /// Samples stored per signal (the whole run so far).
  std::size_t sampleCount() const { return time_.size(); }
  /// Points the pane drew at the last redraw (all series; ≤ 2 × pixel width each).
  std::size_t drawnPoints(int pane) const;
  /// Back to automatic axes for a pane.
  void autoscale(int pane);
  /// Writes the pane as PNG, SVG or PDF (chosen by the file suffix). False with `error` set on failure.
  bool exportPane(int pane, const QString& path, QString* error = nullptr);

 public slots:
  /// Default series for the selected joint (tree index, −1: none).
  void setSelectedJoint(int joint);
  /// Copies new samples from the recorder and redraws (at most ~10 times a second unless forced).
  void fetch(bool forceRedraw = false);
  void redraw();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void onSessionStarted();
  void onSessionEnded();
  void rebuildDefaults();
  void refreshList();
  void setPaneColumns(int pane);
  void drawPane(PlotPane& pane);
  bool writeSvg(const PlotPane& pane, const QString& path, QString* error) const;
  int columnOf(const QString& name) const;
  std::vector<double>& columnData(int column);

  SimulationController* simulation_;
  std::vector<std::unique_ptr<PlotPane>> panes_;
  QComboBox* paneBox_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QListWidget* list_ = nullptr;

  // signals of the current session (copied: they outlive the simulator)
  std::vector<QString> names_;
  std::vector<QString> units_;
  QString baseBody_;  ///< the first free-joint body ("" when none)
  std::vector<QString> jointNames_;
  std::vector<int> jointNq_;
  int selectedJoint_ = -1;

  // whole-run storage of the shown columns; time_ is column 0
  std::vector<double> time_;
  std::vector<std::vector<double>> data_;  ///< (signals) empty unless shown
  std::uint64_t generation_ = ~std::uint64_t{0};
  QElapsedTimer redrawClock_;
  bool updatingList_ = false;
};

}  // namespace kt::ui
