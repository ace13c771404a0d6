// SPDX-License-Identifier: BSD-3-Clause
// Pictures compared with a stored baseline (tests/data/baselines/<name>.png), for the render and
// window tests. The picture is always written to the working directory as <name>.actual.png, to
// look at when a comparison fails; KINETREE_UPDATE_BASELINES=1 replaces the baseline with it
// (after looking at it) and skips the comparison. Header-only: the core tests link no renderer.
#pragma once

#include <vtkRenderWindow.h>  // complete types for offscreen.hpp's smart pointers
#include <vtkRenderer.h>
#include <QDir>
#include <QImage>
#include <QString>

#include "render/bridge/offscreen.hpp"

namespace kt::test {

/// Whether the run replaces the baselines instead of comparing with them.
inline bool updatingBaselines() { return qEnvironmentVariableIntValue("KINETREE_UPDATE_BASELINES") == 1; }

/// Empty when `image` looks like the baseline `name`, else why not. Anti-aliasing, driver and
/// font-hinting rounding pass (under 1 % of the pixels more than 40 of 255 apart in a channel,
/// a mean difference under 2); a moved, missing or recoloured part, or another size, does not.
/// With updatingBaselines(), writes the baseline and returns empty.
inline QString differenceFromBaseline(const QImage& image, const QString& name) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
  if (!rgb.save(QDir::current().filePath(name + QStringLiteral(".actual.png"))))
    return QStringLiteral("cannot write %1.actual.png in %2").arg(name, QDir::currentPath());
  const QString path = QStringLiteral(KINETREE_TEST_DATA "/baselines/") + name + QStringLiteral(".png");
  if (updatingBaselines()) return rgb.save(path) ? QString() : QStringLiteral("cannot write ") + path;
  const QImage baseline = QImage(path).convertToFormat(QImage::Format_RGB888);
  if (baseline.isNull()) return QStringLiteral("missing baseline ") + path;
  if (baseline.size() != rgb.size())
    return QStringLiteral("%1 is %2 × %3, the baseline %4 × %5")
        .arg(name)
        .arg(rgb.width())
        .arg(rgb.height())
        .arg(baseline.width())
        .arg(baseline.height());
  const double different = render::fractionOfDifferentPixels(rgb, baseline, 40);
  const double mean = render::meanAbsoluteDifference(rgb, baseline);
  if (different < 0.01 && mean < 2.0) return {};
  return QStringLiteral("%1 differs from its baseline: %2% of the pixels, mean %3 (see %1.actual.png)")
      .arg(name)
      .arg(100.0 * different)
      .arg(mean);
}

}  // namespace kt::test
