// SPDX-License-Identifier: BSD-3-Clause
// What the 3D-view tests share: a model's scene drawn off screen, a scene view shown on screen,
// and where a world point appears in a widget. Header-only: the core tests link no renderer.
#pragma once

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <Eigen/Core>
#include <QPoint>
#include <QTest>
#include <cmath>
#include <optional>

#include "core/dynamics/kinematics.hpp"
#include "core/io/model_files.hpp"
#include "core/results/signals.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/scene/model_scene.hpp"
#include "render/scene/scene_view.hpp"

namespace kt::test {

/// A model's scene built into a 320 × 240 off-screen window; bind it as
/// `auto& [model, tree, view, scene] = fixture;`.
struct OffscreenScene {
  explicit OffscreenScene(Model m)
      : model(std::move(m)), tree(finalizeOrThrow(model)), view(320, 240), scene(view.renderer(), view.overlay()) {
    scene.build(model, tree, "");
  }
  const Model model;
  const Tree tree;
  render::OffscreenView view;
  render::ModelScene scene;
};

/// Shows `view` at `size`, waits until it is exposed (the test program stops when it is not),
/// and shows the model in it.
inline void showModelIn(render::SceneView& view, const Model& model, const Tree& tree, QSize size = QSize(320, 240)) {
  view.resize(size);
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) qFatal("scene view not exposed");
  view.showModel(model, tree, "");
}

/// Widget coordinates (logical pixels, top-left origin, the nearest pixel) of a world point.
inline QPoint widgetPoint(render::VtkWidget& widget, const Eigen::Vector3d& p) {
  vtkRenderer* r = widget.renderer();
  r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  r->WorldToDisplay();
  double d[3];
  r->GetDisplayPoint(d);
  const double dpr = widget.devicePixelRatioF();
  const int h = widget.renderWindow()->GetSize()[1];
  return QPoint(static_cast<int>(std::lround(d[0] / dpr)), static_cast<int>(std::lround((h - 1 - d[1]) / dpr)));
}

/// Where body `treeBody` shows in `view`: the centre of one of its shapes where a pick hits that
/// body (what a click or drag on it in a test aims at); none when no shape of it shows.
inline std::optional<QPoint> bodySpot(render::SceneView& view, int treeBody) {
  const render::ModelScene& scene = view.scene();
  for (const render::ShapeActor& a : scene.shapeActors()) {
    if (a.body != treeBody) continue;
    const Eigen::Vector4d c = scene.bodyPose(treeBody) * a.placement.col(3);
    const QPoint p = widgetPoint(view, c.head<3>());
    vtkIdType cell = -1;
    if (scene.bodyAt(view.pickProp(p, &cell), cell) == treeBody) return p;
  }
  return std::nullopt;
}

/// The loads a recorded row would hold for joint wrenches `body` (joint frames) at q, as
/// render::LoadArrows::update takes them, with the poses at q into `poses`.
inline SignalLayout::RecordedLoads recordedLoads(const Tree& tree, const Eigen::VectorXd& q,
                                                 const std::vector<Vec6>& body, Kinematics& poses) {
  poses.resize(tree);
  computePositionKinematics(tree, q, poses);
  SignalLayout::RecordedLoads loads;
  loads.f = body;
  loads.lambda.setZero(tree.nlambda);
  Mat6N T;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const Mat3 R = poses.X_0[i].E.transpose();  // body axes → world axes
    Vec6 w;
    w << R * body[i].head<3>(), R * body[i].tail<3>();
    loads.fWorld.push_back(w);
    tree.joints[i].constraintSubspace(q.data() + tree.qOffset[i], T);
    loads.lambda.segment(tree.lambdaOffset[i], T.cols()) = T.transpose() * body[i];
  }
  return loads;
}

}  // namespace kt::test
