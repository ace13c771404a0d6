// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/video/video_export.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "core/results/peak_loads.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"
#include "render/output/video_writer.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

// The recorded time span [first, last] of the options' range.
bool span(const SimulationController& simulation, const VideoExportOptions& o, double& first, double& last) {
  const kt::Recorder* rec = simulation.recorder();
  if (!rec || rec->size() == 0) return false;
  first = std::max(rec->timeOf(0), o.t0);
  last = std::min(rec->timeOf(rec->size() - 1), o.t1);
  return last >= first && o.fps > 0.0 && o.speed > 0.0;
}

}  // namespace

int VideoExport::frameCount(const SimulationController& simulation, const VideoExportOptions& options) {
  double first = 0.0, last = 0.0;
  if (!span(simulation, options, first, last)) return 0;
  // frame k at first + k · speed / fps, up to last (1e-9: an exact multiple counts)
  return static_cast<int>(std::floor((last - first) * options.fps / options.speed + 1e-9)) + 1;
}

bool VideoExport::write(const VideoSource& source, const VideoExportOptions& o, const QString& path, QString* error,
                        const Progress& progress, bool* cancelled) {
  if (cancelled) *cancelled = false;
  const auto fail = [error](const QString& message) {
    if (error) *error = message;
    return false;
  };
  const SimulationController& simulation = *source.simulation;
  const kt::Recorder* rec = simulation.recorder();
  const kt::SignalLayout* layout = simulation.signalLayout();
  const kt::Tree* tree = simulation.tree();
  const kt::Model* model = simulation.sessionModel();
  double first = 0.0, last = 0.0;
  if (!rec || !layout || !tree || !model || !span(simulation, o, first, last))
    return fail(QObject::tr("There is no recorded run in the chosen range to render"));
  if (o.width < 16 || o.height < 16 || o.width > 7680 || o.height > 4320)
    return fail(QObject::tr("The video size must lie between 16 × 16 and 7680 × 4320 pixels"));
  const int frames = frameCount(simulation, o);

  try {
    render::VideoWriter writer(path, o.width, o.height, o.fps);
    const QSize size = writer.size();
    std::vector<const VideoSource::Pane*> shown;  // the panes with something to draw
    for (const VideoSource::Pane& p : source.panes)
      if (!p.series.empty()) shown.push_back(&p);
    const bool withPlots = o.plots && !shown.empty();
    const int sceneWidth = withPlots ? (size.width() * 3 / 5) & ~1 : size.width();

    // the 3D view: the run's model, the window's camera and followed body
    render::SceneView scene;
    scene.setAttribute(Qt::WA_DontShowOnScreen);
    scene.resize(sceneWidth, size.height());
    scene.showModel(*model, *tree, source.modelDirectory, true);
    if (source.view) {
      scene.copyCamera(*source.view);
      scene.setFollowBody(source.followBody);
      scene.setJointFramesVisible(false);
    }
    std::unique_ptr<render::LoadArrows> arrows;
    if (source.arrows && source.arrows->visible) {
      arrows = std::make_unique<render::LoadArrows>(scene.overlayRenderer());
      arrows->build(*tree, scene.scene().characteristicLength());
      arrows->setOptions(*source.arrows);
      arrows->setRatings(kt::PeakLoads::ratingsOf(*model, *tree));
      arrows->setSelectedJoint(source.selectedJoint);
      // the scale of the whole recording, as the window shows it after the run: every frame
      // draws a load as long as every other frame does
      arrows->setReference(source.arrowScale.force, source.arrowScale.moment, true);
    }
    // the plot panes: the whole recording drawn once, a time cursor moved per frame
    std::vector<std::unique_ptr<render::ChartPane>> panes;
    std::vector<QImage> paneImages;
    if (withPlots) {
      const int paneHeight = size.height() / static_cast<int>(shown.size());
      for (const VideoSource::Pane* p : shown) {
        auto pane = std::make_unique<render::ChartPane>();
        pane->setAttribute(Qt::WA_DontShowOnScreen);
        pane->resize(size.width() - sceneWidth, paneHeight);
        pane->setTitle(p->title);
        pane->setSeries(p->series);
        pane->draw(*rec, std::numeric_limits<double>::infinity());
        pane->renderToImage();  // its margins, for alignPanes
        panes.push_back(std::move(pane));
      }
      // one time at one x in every pane, as in the Plots dock: the first render fits the ticks to
      // the axes' length, which may change the labels and so the margins
      std::vector<render::ChartPane*> stack;
      for (const auto& pane : panes) stack.push_back(pane.get());
      for (int pass = 0; pass < 3; ++pass) {
        std::vector<render::PaneMargins> before;
        for (const render::ChartPane* pane : stack) before.push_back(pane->margins());
        render::alignPanes(stack);
        for (render::ChartPane* pane : stack) pane->renderToImage();
        bool held = true;
        for (std::size_t p = 0; p < stack.size(); ++p) held = held && stack[p]->margins() == before[p];
        if (held) break;
      }
      for (const auto& pane : panes)
        paneImages.push_back(pane->renderWithLegend());  // the same picture in every frame, but for the cursor
    }

    std::vector<double> row(static_cast<std::size_t>(rec->width()));
    Eigen::VectorXd q;
    kt::Kinematics poses;  // of the frame's sample, for the scene and the arrows alike
    poses.resize(*tree);
    kt::SignalLayout::RecordedLoads loads;
    const QString label = simulation.runLabel();
    QImage frame(size, QImage::Format_RGB32);
    for (int k = 0; k < frames; ++k) {
      const double t = first + k * o.speed / o.fps;
      const std::size_t r = rec->rowAtTime(t + 1e-9 * std::max(1.0, std::abs(t)));
      rec->copyRows(r, r + 1, row.data());
      layout->positionsFromRow(row.data(), q);
      kt::computePositionKinematics(*tree, q, poses);
      scene.showPoses(poses);
      if (arrows) {
        layout->loadsFromRow(row.data(), loads);
        arrows->update(poses, q, loads);
      }
      frame.fill(Qt::white);
      QPainter painter(&frame);
      painter.drawImage(QRect(0, 0, sceneWidth, size.height()), scene.renderToImage());
      int y = 0;
      for (std::size_t p = 0; p < panes.size(); ++p) {
        const render::ChartPane* pane = panes[p].get();
        const int h = size.height() / static_cast<int>(panes.size());
        const QRect at(sceneWidth, y, size.width() - sceneWidth, h);
        painter.drawImage(at, paneImages[p]);
        // the time cursor, where the pane would draw it over the chart
        const double x = pane->xOfTime(row[0]);
        const auto [top, bottom] = pane->plotTopBottom();
        if (std::isfinite(x)) {
          const double sx = static_cast<double>(at.width()) / pane->width();
          const double sy = static_cast<double>(at.height()) / pane->height();
          painter.setPen(QPen(QColor(60, 60, 60), 1.0));
          painter.drawLine(QPointF(at.left() + x * sx, at.top() + top * sy),
                           QPointF(at.left() + x * sx, at.top() + bottom * sy));
        }
        y += h;
      }
      if (o.caption) {
        QFont font = painter.font();
        font.setPixelSize(std::max(12, size.height() / 40));
        painter.setFont(font);
        const QString text = QStringLiteral("%1    t = %2 s").arg(label).arg(row[0], 0, 'f', 3);
        const QRect box = painter.fontMetrics().boundingRect(text).adjusted(-8, -4, 8, 4);
        const QRect at(8, size.height() - box.height() - 8, box.width(), box.height());
        painter.fillRect(at, QColor(255, 255, 255, 200));
        painter.setPen(Qt::black);
        painter.drawText(at, Qt::AlignCenter, text);
      }
      painter.end();
      writer.add(frame);
      if (progress && !progress(k + 1, frames)) {
        if (cancelled) *cancelled = true;
        return fail(QObject::tr("The export was cancelled; no file was written"));
      }
    }
    writer.finish();
  } catch (const std::exception& e) {
    return fail(QString::fromUtf8(e.what()));
  }
  return true;
}

}  // namespace kt::ui
