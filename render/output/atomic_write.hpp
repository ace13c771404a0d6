// SPDX-License-Identifier: BSD-3-Clause
// The Qt side of core/io/atomic_file.hpp: what the render and ui layers write (figures,
// screenshots, metadata, tables) goes through kt::writeFileAtomically, so that a failed write
// leaves the old file as it was and says why.
#pragma once

#include <QByteArray>
#include <QString>

class QImage;

namespace kt::render {

/// `bytes` to `path` atomically; false with the reason in `error` ("Cannot write /x/plot.svg: No
/// space left on device").
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);

/// `image` to `path` atomically, in the format its suffix names (PNG when it names none); false
/// with the reason in `error`.
bool saveImage(const QImage& image, const QString& path, QString* error = nullptr);

}  // namespace kt::render
