// kinetree: opens the embedded default model, or the model file given on the command line.
//   kinetree [MODEL.yaml] [--screenshot FILE.png]
#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>

#include "core/version.hpp"
#include "render/vtk_widget.hpp"
#include "resources/resources.hpp"
#include "ui/main_window.hpp"

int main(int argc, char* argv[]) {
  // Every OpenGL context of the window must suit VTK (3.2 core), so set it before the app exists.
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Kinetree"));
  QApplication::setApplicationName(QStringLiteral("Kinetree"));
  QApplication::setApplicationVersion(QString::fromLatin1(kt::kVersion));
  QApplication::setDesktopFileName(QStringLiteral("io.github.kinetree.Kinetree"));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Build, simulate and inspect tree-structured rigid multibody systems."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("model"),
                               QStringLiteral("Model file to open (default: the embedded space robot)."),
                               QStringLiteral("[model.yaml]"));
  const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                      QStringLiteral("Save a PNG of the window once it is shown, then quit."),
                                      QStringLiteral("file.png"));
  parser.addOption(screenshot);
  parser.process(app);

  kt::ui::MainWindow window;
  window.show();

  const QStringList args = parser.positionalArguments();
  const QString model = args.isEmpty() ? kt::resources::kDefaultModel : args.front();
  if (!parser.isSet(screenshot)) {
    window.openModel(model);  // a message box explains a failure
    return app.exec();
  }

  // Screenshot mode: no dialogs; errors go to stderr.
  QString error;
  const bool opened = window.loadModel(model, error);
  if (!opened) std::fprintf(stderr, "%s\n", qPrintable(error));
  {
    const QString file = parser.value(screenshot);
    // Let the window map and paint once before grabbing it.
    QTimer::singleShot(300, &window, [&window, &app, file, opened] {
      const bool saved = window.grab().save(file);
      if (!saved) std::fprintf(stderr, "kinetree: cannot write %s\n", qPrintable(file));
      app.exit(saved && opened ? 0 : 1);
    });
  }
  return app.exec();
}
