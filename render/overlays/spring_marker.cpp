// SPDX-License-Identifier: BSD-3-Clause
#include "render/overlays/spring_marker.hpp"

#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSphereSource.h>
#include <vtkTextProperty.h>

#include <algorithm>

namespace kt::render {

SpringMarker::SpringMarker(vtkRenderer* overlay) : overlay_(overlay) {
  line_ = vtkSmartPointer<vtkLineSource>::New();
  auto lineMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  lineMapper->SetInputConnection(line_->GetOutputPort());
  lineActor_ = vtkSmartPointer<vtkActor>::New();
  lineActor_->SetMapper(lineMapper);
  lineActor_->GetProperty()->SetColor(0.85, 0.1, 0.55);  // magenta: no load arrow uses it
  lineActor_->GetProperty()->SetLineWidth(3.0);
  lineActor_->GetProperty()->SetLighting(false);
  lineActor_->SetPickable(false);
  // a dot where the spring holds the body
  auto dot = vtkSmartPointer<vtkSphereSource>::New();
  dot->SetRadius(1.0);
  dot->SetThetaResolution(16);
  dot->SetPhiResolution(12);
  auto dotMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  dotMapper->SetInputConnection(dot->GetOutputPort());
  endActor_ = vtkSmartPointer<vtkActor>::New();
  endActor_->SetMapper(dotMapper);
  endActor_->GetProperty()->SetColor(0.85, 0.1, 0.55);
  endActor_->SetPickable(false);
  text_ = vtkSmartPointer<vtkBillboardTextActor3D>::New();
  vtkTextProperty* p = text_->GetTextProperty();
  p->SetFontSize(15);
  p->SetBold(true);
  p->SetColor(0.55, 0.0, 0.35);
  p->SetBackgroundColor(1.0, 1.0, 1.0);
  p->SetBackgroundOpacity(0.75);
  p->SetJustificationToLeft();
  p->SetVerticalJustificationToBottom();
  text_->SetDisplayOffset(10, 6);
  text_->SetPickable(false);
  for (vtkProp* prop :
       {static_cast<vtkProp*>(lineActor_), static_cast<vtkProp*>(endActor_), static_cast<vtkProp*>(text_)}) {
    prop->SetVisibility(false);
    overlay_->AddViewProp(prop);
  }
}

SpringMarker::~SpringMarker() {
  overlay_->RemoveViewProp(lineActor_);
  overlay_->RemoveViewProp(endActor_);
  overlay_->RemoveViewProp(text_);
}

void SpringMarker::show(const Eigen::Vector3d& from, const Eigen::Vector3d& to, const std::string& label) {
  line_->SetPoint1(from.x(), from.y(), from.z());
  line_->SetPoint2(to.x(), to.y(), to.z());
  // the dot: 1.5 % of the spring's length, at least 4 mm, so that it stays visible when short
  const double r = std::max(0.004, 0.015 * (to - from).norm());
  endActor_->SetScale(r);
  endActor_->SetPosition(from.x(), from.y(), from.z());
  text_->SetPosition(to.x(), to.y(), to.z());
  text_->SetInput(label.c_str());
  label_ = label;
  if (!visible_)
    for (vtkProp* prop :
         {static_cast<vtkProp*>(lineActor_), static_cast<vtkProp*>(endActor_), static_cast<vtkProp*>(text_)})
      prop->SetVisibility(true);
  visible_ = true;
}

void SpringMarker::hide() {
  if (!visible_) return;
  for (vtkProp* prop :
       {static_cast<vtkProp*>(lineActor_), static_cast<vtkProp*>(endActor_), static_cast<vtkProp*>(text_)})
    prop->SetVisibility(false);
  visible_ = false;
}

}  // namespace kt::render
