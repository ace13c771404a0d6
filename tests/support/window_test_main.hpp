// SPDX-License-Identifier: BSD-3-Clause
// The main() of a test that opens windows: settings and autosaves of this run only (temporary
// XDG config and data folders), the 3D view's surface format, the test's own application name.
#pragma once

#include <QApplication>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>

#include "render/bridge/vtk_widget.hpp"

namespace kt::test {

template <class Test>
int runWindowTest(int argc, char* argv[], const char* name) {
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
  QTemporaryDir data;
  qputenv("XDG_DATA_HOME", data.path().toLocal8Bit());
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("KinetreeTests"));
  QApplication::setApplicationName(QString::fromLatin1(name));
  Test test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace kt::test
