// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Video and `kinetree MODEL --video`: the recorded run rendered frame by frame
// off screen (not in real time) into an MP4 (H.264) or a numbered PNG sequence
// (render::VideoWriter): the 3D view as the window shows it (camera, followed body, load arrows),
// optionally with the plot panes beside it, and a caption with the run and the time.
//
// Frame k shows the recorded sample at or before t_k = t0 + k · speed / fps, for t_k up to t1:
// a playback speed of 1 is real time, 0.1 slow motion. The views are the run's own: the scene
// is built from the session's model (SimulationController::sessionModel), so a run kept after
// an edit is shown as it was simulated. The load arrows keep one scale through the video, that of
// the whole recording (VideoSource::arrowScale), as the window's do after the run.
#pragma once

#include <QString>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/results/peak_loads.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/overlays/load_arrows.hpp"

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class SimulationController;

/// What a video shows besides the recording: the window's views as they are set up.
struct VideoSource {
  const SimulationController* simulation = nullptr;
  std::string modelDirectory;                      ///< for mesh files of the model
  const render::SceneView* view = nullptr;         ///< the camera (may be null)
  std::optional<render::LoadArrowOptions> arrows;  ///< when the view draws load arrows
  kt::LoadScale arrowScale;                        ///< their scale: the whole recording's (RunResults)
  int selectedJoint = -1;                          ///< tree index
  int followBody = -1;                             ///< tree index of the body the camera follows
  struct Pane {
    QString title;
    std::vector<render::ChartSeries> series;
  };
  std::vector<Pane> panes;  ///< the plot panes, top to bottom
};

struct VideoExportOptions {
  int width = 1280, height = 720;  ///< pixels of the whole frame (made even)
  double fps = 30.0;
  double speed = 1.0;  ///< playback: simulated seconds per second of video
  double t0 = -std::numeric_limits<double>::infinity();
  double t1 = std::numeric_limits<double>::infinity();
  bool plots = false;   ///< the plot panes beside the 3D view (the right 40 %)
  bool caption = true;  ///< run label and time in the corner
};

class VideoExport {
 public:
  /// (frame, frames); return false to cancel.
  using Progress = std::function<bool(int frame, int frames)>;

  /// Frames the options give for the current recording (0 without one).
  static int frameCount(const SimulationController& simulation, const VideoExportOptions& options);
  /// Renders and writes the video; false with `error` on failure or cancel (`cancelled` set, no
  /// file left behind).
  static bool write(const VideoSource& source, const VideoExportOptions& options, const QString& path, QString* error,
                    const Progress& progress = {}, bool* cancelled = nullptr);
};

}  // namespace kt::ui
