// SPDX-License-Identifier: BSD-3-Clause
#include "render/bridge/offscreen.hpp"

#include <vtkImageData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkWindowToImageFilter.h>
#include <algorithm>
#include <cstdlib>

#include "render/scene/scene_view.hpp"

namespace kt::render {

OffscreenView::OffscreenView(int width, int height) {
  window_ = vtkSmartPointer<vtkRenderWindow>::New();
  window_->SetOffScreenRendering(1);
  window_->SetSize(width, height);
  renderer_ = vtkSmartPointer<vtkRenderer>::New();
  window_->AddRenderer(renderer_);
  overlay_ = vtkSmartPointer<vtkRenderer>::New();
  attachOverlay(window_, renderer_, overlay_);
}

OffscreenView::~OffscreenView() { window_->Finalize(); }

QImage OffscreenView::render() {
  window_->Render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window_);
  grab->SetInputBufferTypeToRGB();
  grab->Update();
  return toQImage(grab->GetOutput());
}

QImage toQImage(vtkImageData* image) {
  int dims[3];
  image->GetDimensions(dims);
  const int w = dims[0], h = dims[1];
  const int comps = image->GetNumberOfScalarComponents();
  QImage out(w, h, QImage::Format_RGB888);
  if (w <= 0 || h <= 0 || (comps != 3 && comps != 4)) return {};
  const auto* src = static_cast<const unsigned char*>(image->GetScalarPointer());
  for (int y = 0; y < h; ++y) {
    const unsigned char* row = src + static_cast<size_t>(h - 1 - y) * w * comps;
    unsigned char* dst = out.scanLine(y);
    for (int x = 0; x < w; ++x) {
      dst[3 * x + 0] = row[comps * x + 0];
      dst[3 * x + 1] = row[comps * x + 1];
      dst[3 * x + 2] = row[comps * x + 2];
    }
  }
  return out;
}

double meanAbsoluteDifference(const QImage& a, const QImage& b) {
  if (a.size() != b.size() || a.isNull()) return 255.0;
  const QImage x = a.convertToFormat(QImage::Format_RGB888);
  const QImage y = b.convertToFormat(QImage::Format_RGB888);
  double sum = 0.0;
  for (int r = 0; r < x.height(); ++r) {
    const uchar* p = x.constScanLine(r);
    const uchar* q = y.constScanLine(r);
    for (int c = 0; c < 3 * x.width(); ++c) sum += std::abs(int(p[c]) - int(q[c]));
  }
  return sum / (3.0 * x.width() * x.height());
}

double fractionOfDifferentPixels(const QImage& a, const QImage& b, int tolerance) {
  if (a.size() != b.size() || a.isNull()) return 1.0;
  const QImage x = a.convertToFormat(QImage::Format_RGB888);
  const QImage y = b.convertToFormat(QImage::Format_RGB888);
  long different = 0;
  for (int r = 0; r < x.height(); ++r) {
    const uchar* p = x.constScanLine(r);
    const uchar* q = y.constScanLine(r);
    for (int c = 0; c < x.width(); ++c) {
      int d = 0;
      for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(int(p[3 * c + k]) - int(q[3 * c + k])));
      if (d > tolerance) ++different;
    }
  }
  return static_cast<double>(different) / (double(x.width()) * x.height());
}

double greyVariance(const QImage& image) {
  if (image.isNull()) return 0.0;
  const QImage g = image.convertToFormat(QImage::Format_Grayscale8);
  double sum = 0.0, sum2 = 0.0;
  const double n = double(g.width()) * g.height();
  for (int r = 0; r < g.height(); ++r) {
    const uchar* p = g.constScanLine(r);
    for (int c = 0; c < g.width(); ++c) {
      sum += p[c];
      sum2 += double(p[c]) * p[c];
    }
  }
  const double mean = sum / n;
  return sum2 / n - mean * mean;
}

}  // namespace kt::render
