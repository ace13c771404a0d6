// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Import Motion… (docs/motion.md), driven through its dialog: what it reports for a file
// (the joints that will follow it, the columns that name no joint, the drives replaced, a duration
// longer than the samples), Import as one undo step that the run then follows, and files that
// cannot be used.
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <numbers>

#include "core/io/model_yaml.hpp"
#include "core/sim/simulator.hpp"
#include "ui/document/document.hpp"
#include "ui/files/import_motion.hpp"

using namespace kt;
using namespace kt::ui;

namespace {

const QString kPendulum = QStringLiteral(KINETREE_SOURCE_DIR "/examples/pendulum.yaml");

QString write(const QTemporaryDir& dir, const char* name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (f.open(QIODevice::WriteOnly)) f.write(text);
  return path;
}

}  // namespace

class TestImportMotion : public QObject {
  Q_OBJECT

 private slots:
  void reportsImportsAndUndoes() {
    QTemporaryDir dir;
    // the model in the folder, so that the file is stored relative to it
    QVERIFY(QFile::copy(kPendulum, dir.filePath("pendulum.yaml")));
    Document doc;
    QString error;
    QVERIFY2(doc.open(dir.filePath("pendulum.yaml"), &error), qPrintable(error));
    QByteArray text = "time,q:hinge[0] (deg),q:hnge[0],qd:hinge[0]\n";
    for (int k = 0; k <= 40; ++k)
      text += QByteArray::number(0.05 * k) + "," + QByteArray::number(20.0 * std::sin(0.1 * k), 'g', 17) + ",0,0\n";
    const QString file = write(dir, "swing.csv", text);
    const std::string before = saveModelToString(doc.model());

    ImportMotionDialog dialog(doc, file);
    const QString report = dialog.report();
    QVERIFY2(report.contains("41 samples from t = 0 s to 2 s."), qPrintable(report));
    QVERIFY2(report.contains("This joint will follow it"), qPrintable(report));
    QVERIFY2(report.contains("✓ hinge"), qPrintable(report));
    QVERIFY2(report.contains("✗ line 1, column 23: the column 'q:hnge[0]' names no joint of the model (did you "
                             "mean 'hinge'?)"),
             qPrintable(report));
    QVERIFY2(!report.contains("does not follow"), qPrintable(report));  // hinge does, by its own column
    QVERIFY2(report.contains("1 column of another signal is not read."), qPrintable(report));
    QVERIFY2(report.contains("The model runs 10 s, longer than the samples: its duration becomes 2 s."),
             qPrintable(report));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(QString(dialog.summary()), QStringLiteral("hinge follows swing.csv"));
    const JointSpec& hinge = doc.model().bodies[static_cast<std::size_t>(doc.model().findBody("link"))].joint;
    QCOMPARE(hinge.motion.type, MotionType::Table);
    QCOMPARE(hinge.motion.file, std::string("swing.csv"));
    QCOMPARE(doc.model().simulation.duration, 2.0);
    QCOMPARE(doc.undoStack()->count(), 1);  // one step
    // the run follows the file, in degrees
    SimulatorOptions options = SimulatorOptions::fromSettings(doc.model().simulation);
    options.step = 0.05;
    Simulator sim(doc.model(), options);
    QVERIFY(sim.advanceTo(1.0));
    QVERIFY(std::abs(sim.q()[0] - 20.0 * std::sin(2.0) * std::numbers::pi / 180.0) < 1e-9);
    doc.undoStack()->undo();
    QCOMPARE(saveModelToString(doc.model()), before);
  }

  void refusesWhatCannotBeUsed() {
    QTemporaryDir dir;
    Document doc;
    QString error;
    QVERIFY2(doc.open(kPendulum, &error), qPrintable(error));
    ImportMotionDialog dialog(doc, write(dir, "bad.csv", "time,q:hinge[0]\n0,0\n1,x\n"));
    QVERIFY2(dialog.report().contains("bad.csv:3:3: error: expected a finite number in column 'q:hinge[0]', got 'x'"),
             qPrintable(dialog.report()));
    dialog.setPath(write(dir, "none.csv", "time,q:other[0]\n0,0\n1,1\n"));
    QVERIFY2(dialog.report().contains("No joint of the model would follow it."), qPrintable(dialog.report()));
    // a misspelt joint: the one meant is named, with what it keeps
    dialog.setPath(write(dir, "misspelt.csv", "time,q:hingee[0]\n0,0\n1,1\n"));
    QVERIFY2(dialog.report().contains("so joint hinge does not follow the file: it "), qPrintable(dialog.report()));
    dialog.setPath(write(dir, "few.csv", "time,q:hinge[0]\n0,0\n0.5,0\n1,1\n"));
    dialog.setCutoff(5.0);
    QVERIFY2(dialog.report().contains("The filter cannot be used: filtering needs at least 10 samples"),
             qPrintable(dialog.report()));
    QCOMPARE(doc.undoStack()->count(), 0);
  }
};

QTEST_MAIN(TestImportMotion)
#include "test_import_motion.moc"
