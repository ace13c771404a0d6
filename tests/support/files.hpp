// SPDX-License-Identifier: BSD-3-Clause
// Reading and writing whole files in the tests (model files written for one test, outputs read
// back).
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace kt::test {

/// The bytes of the file at `path`; empty when it cannot be read.
inline QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Writes `bytes` as the whole file at `path`; false when it cannot be written.
inline bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace kt::test
