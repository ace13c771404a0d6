#include "render/scene_view.hpp"

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

namespace kt::render {

void attachOverlay(vtkRenderWindow* window, vtkRenderer* main, vtkRenderer* overlay) {
  window->SetNumberOfLayers(std::max(window->GetNumberOfLayers(), 2));
  overlay->SetLayer(1);
  overlay->PreserveDepthBufferOff();  // its own depth test: drawn over the geometry below
  overlay->SetActiveCamera(main->GetActiveCamera());
  overlay->InteractiveOff();
  if (!window->HasRenderer(overlay)) window->AddRenderer(overlay);
}

SceneView::SceneView(QWidget* parent) : VtkWidget(parent) {
  overlay_ = vtkSmartPointer<vtkRenderer>::New();
  attachOverlay(renderWindow(), renderer(), overlay_);
  scene_ = std::make_unique<ModelScene>(renderer(), overlay_);
  connect(this, &VtkWidget::propClicked, this, [this](vtkProp* prop) {
    const int body = scene_->bodyOfProp(prop);
    selectBody(body);
    emit bodyPicked(body);
  });
}

SceneView::~SceneView() = default;

void SceneView::showModel(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory) {
  scene_->build(model, tree, modelDirectory);
  setStandardView(StandardView::Isometric);
}

void SceneView::showState(const Eigen::VectorXd& q) {
  scene_->update(q);
  renderer()->ResetCameraClippingRange();
  update();
}

void SceneView::selectBody(int body) {
  scene_->setSelectedBody(body);
  update();
}

void SceneView::setJointFramesVisible(bool visible) {
  scene_->setJointFramesVisible(visible);
  update();
}

void SceneView::setCentresOfMassVisible(bool visible) {
  scene_->setCentresOfMassVisible(visible);
  update();
}

void SceneView::setGridVisible(bool visible) {
  scene_->setGridVisible(visible);
  update();
}

bool SceneView::sceneBounds(double bounds[6]) const {
  return scene_->modelBounds(bounds) || VtkWidget::sceneBounds(bounds);
}

}  // namespace kt::render
