// The 3D view of a model: the bridge widget showing a ModelScene, with body picking.
#pragma once

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <memory>

#include "render/model_scene.hpp"
#include "render/vtk_widget.hpp"

namespace kt::render {

class SceneView : public VtkWidget {
  Q_OBJECT

 public:
  explicit SceneView(QWidget* parent = nullptr);
  ~SceneView() override;

  ModelScene& scene() { return *scene_; }
  const ModelScene& scene() const { return *scene_; }
  vtkRenderer* overlayRenderer() const { return overlay_; }

  /// Shows `model` at its initial pose and frames it in the isometric view.
  void showModel(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory);
  /// Moves the bodies to q and repaints.
  void showState(const Eigen::VectorXd& q);

 public slots:
  /// Highlights a body (tree index; -1 for none) without emitting bodyPicked.
  void selectBody(int body);
  void setJointFramesVisible(bool visible);
  void setCentresOfMassVisible(bool visible);
  void setGridVisible(bool visible);

 signals:
  /// The user clicked a body (tree index), or empty space (-1).
  void bodyPicked(int body);

 protected:
  bool sceneBounds(double bounds[6]) const override;

 private:
  vtkSmartPointer<vtkRenderer> overlay_;
  std::unique_ptr<ModelScene> scene_;
};

/// Puts `overlay` on a layer above `main` in `window`, sharing its camera: what it draws stays
/// visible in front of the geometry.
void attachOverlay(vtkRenderWindow* window, vtkRenderer* main, vtkRenderer* overlay);

}  // namespace kt::render
