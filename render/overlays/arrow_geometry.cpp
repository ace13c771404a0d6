// SPDX-License-Identifier: BSD-3-Clause
#include "render/overlays/arrow_geometry.hpp"

#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkConeSource.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkTextProperty.h>
#include <Eigen/Geometry>
#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace kt::render {

namespace {

constexpr double kShaftRadius = 0.03;  // of vtkArrowSource, unit length along +x
constexpr double kTipRadius = 0.08;
constexpr double kTipLength = 0.25;

}  // namespace

// With point normals, sharp edges kept (a batch of arrows needs them; VTK would shade an
// actor's faces flat without them).
vtkSmartPointer<vtkPolyData> arrowShape(bool doubleTip) {
  vtkNew<vtkArrowSource> arrow;
  arrow->SetShaftRadius(kShaftRadius);
  arrow->SetTipRadius(kTipRadius);
  arrow->SetTipLength(kTipLength);
  arrow->SetShaftResolution(12);
  arrow->SetTipResolution(16);
  vtkNew<vtkPolyDataNormals> normals;
  normals->SetFeatureAngle(40.0);
  normals->SplittingOn();
  normals->ConsistencyOff();  // the cones' bases face inwards by construction; keep the sources' order
  if (!doubleTip) {
    normals->SetInputConnection(arrow->GetOutputPort());
  } else {
    // A moment: the usual double-headed arrow.
    vtkNew<vtkConeSource> cone;
    cone->SetResolution(16);
    cone->SetRadius(kTipRadius);
    cone->SetHeight(kTipLength);
    cone->SetDirection(1.0, 0.0, 0.0);
    cone->SetCenter(1.0 - 1.5 * kTipLength, 0.0, 0.0);
    vtkNew<vtkAppendPolyData> both;
    both->AddInputConnection(arrow->GetOutputPort());
    both->AddInputConnection(cone->GetOutputPort());
    normals->SetInputConnection(both->GetOutputPort());
  }
  normals->Update();
  return normals->GetOutput();
}

vtkSmartPointer<vtkActor> arrowActor(vtkPolyData* shape) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(shape);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  vtkNew<vtkMatrix4x4> placement;
  actor->SetUserMatrix(placement);
  actor->SetPickable(false);
  actor->SetVisibility(false);
  actor->GetProperty()->SetAmbient(0.3);
  return actor;
}

bool arrowMatrix(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector, double scale, double deadBand,
                 double size, Eigen::Matrix4d& m) {
  const double magnitude = vector.norm();
  const double length = magnitude * scale;
  if (!(magnitude > deadBand) || !(length > 1e-6 * size) || !std::isfinite(length) || !origin.allFinite()) return false;
  // Columns: the arrow's x axis along the vector (scaled to its length), y and z across it.
  const Eigen::Vector3d x = vector / magnitude;
  const Eigen::Vector3d helper = std::abs(x.z()) < 0.9 ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d::UnitX();
  const Eigen::Vector3d y = helper.cross(x).normalized();
  const Eigen::Vector3d z = x.cross(y);
  // Shaft radius 0.006 × the model size; short arrows get thinner so that they keep their shape.
  const double width = std::min(0.2 * size, 1.5 * length);
  m = Eigen::Matrix4d::Identity();
  m.block<3, 1>(0, 0) = x * length;
  m.block<3, 1>(0, 1) = y * width;
  m.block<3, 1>(0, 2) = z * width;
  m.block<3, 1>(0, 3) = origin;
  return true;
}

vtkSmartPointer<vtkTextActor> legendLine(vtkCoordinate* corner, bool right, bool top) {
  static constexpr const char* kSymbolFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  static const bool symbolFont = QFileInfo::exists(QString::fromLatin1(kSymbolFont));
  auto text = vtkSmartPointer<vtkTextActor>::New();
  vtkTextProperty* p = text->GetTextProperty();
  p->SetFontSize(13);
  if (symbolFont) {
    p->SetFontFamily(VTK_FONT_FILE);
    p->SetFontFile(kSymbolFont);
  }
  p->SetBold(false);
  p->SetShadow(false);
  p->SetBackgroundColor(1.0, 1.0, 1.0);
  p->SetBackgroundOpacity(0.75);
  if (right)
    p->SetJustificationToRight();
  else
    p->SetJustificationToLeft();
  if (top) p->SetVerticalJustificationToTop();
  text->GetPositionCoordinate()->SetCoordinateSystemToViewport();
  text->GetPositionCoordinate()->SetReferenceCoordinate(corner);
  text->SetPickable(false);
  text->SetVisibility(false);
  return text;
}

}  // namespace kt::render
