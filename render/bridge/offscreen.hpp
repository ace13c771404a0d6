// SPDX-License-Identifier: BSD-3-Clause
// Rendering without a widget (tests, screenshots, batch export): an off-screen VTK render window
// with a main and an overlay layer, and small image helpers.
#pragma once

#include <vtkSmartPointer.h>
#include <QImage>

class vtkRenderWindow;
class vtkRenderer;
class vtkImageData;

namespace kt::render {

class OffscreenView {
 public:
  OffscreenView(int width, int height);
  ~OffscreenView();
  OffscreenView(const OffscreenView&) = delete;
  OffscreenView& operator=(const OffscreenView&) = delete;

  vtkRenderer* renderer() const { return renderer_; }
  vtkRenderer* overlay() const { return overlay_; }
  vtkRenderWindow* window() const { return window_; }

  /// Renders once and returns the image (RGB, top row first).
  QImage render();

 private:
  vtkSmartPointer<vtkRenderWindow> window_;
  vtkSmartPointer<vtkRenderer> renderer_;
  vtkSmartPointer<vtkRenderer> overlay_;
};

/// Converts VTK image data (RGB or RGBA, unsigned char, bottom row first) to a QImage.
QImage toQImage(vtkImageData* image);

/// Mean absolute difference per channel (0–255) over all pixels; images of different sizes
/// differ by 255.
double meanAbsoluteDifference(const QImage& a, const QImage& b);

/// The fraction of pixels whose largest channel difference exceeds `tolerance` (0–255).
double fractionOfDifferentPixels(const QImage& a, const QImage& b, int tolerance);

/// Variance of the grey level (0–255) over all pixels: near zero for a blank image.
double greyVariance(const QImage& image);

}  // namespace kt::render
