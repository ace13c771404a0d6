// SPDX-License-Identifier: BSD-3-Clause
#include "render/output/atomic_write.hpp"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QObject>
#include <exception>

#include "core/io/atomic_file.hpp"

namespace kt::render {

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  try {
    kt::writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    return true;
  } catch (const std::exception& e) {
    if (error) {
      *error = QString::fromLocal8Bit(e.what());
      if (!error->isEmpty()) (*error)[0] = (*error)[0].toUpper();  // a sentence for a message box
    }
    return false;
  }
}

bool saveImage(const QImage& image, const QString& path, QString* error) {
  QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
  if (format.isEmpty() || !QImageWriter::supportedImageFormats().contains(format)) format = "png";
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter writer(&buffer, format);
  if (!writer.write(image)) {
    if (error) *error = QObject::tr("Cannot write %1: %2").arg(path, writer.errorString());
    return false;
  }
  return writeFileAtomically(path, bytes, error);
}

}  // namespace kt::render
