// SPDX-License-Identifier: BSD-3-Clause
// The Algorithm Stepper dock (ui/teaching/algorithm_stepper_dock.hpp) in the running window: a
// step selects the body it visits, shows the solver's own numbers, draws its vectors and its
// hand-over in the 3D view; stepping forward and back returns the same view; passes, play and the
// timeline; every algorithm on the space robot and on the cardan chain.
#include <QApplication>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/dynamics/aba.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/results/signals.hpp"
#include "render/charts/matrix_view.hpp"
#include "render/overlays/step_arrows.hpp"
#include "resources/resources.hpp"
#include "tests/support/window_fixture.hpp"
#include "tests/support/window_test_main.hpp"
#include "ui/editor/selection.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/teaching/algorithm_stepper_dock.hpp"

using kt::test::openWindow;
using kt::test::runToEnd;
using kt::ui::AlgorithmStepperDock;

namespace {

// Everything the dock and the 3D view show for the current step.
struct View {
  QString pass, equation, filled, handed, note;
  QStringList cells;
  Eigen::MatrixXd matrix;
  int selected = -1;
  std::vector<std::string> legend;
  bool operator==(const View&) const = default;
};

View viewOf(kt::ui::MainWindow& w, AlgorithmStepperDock* dock) {
  View v{dock->passText(),
         dock->equationText(),
         dock->filledText(),
         dock->handedText(),
         dock->matrixNote(),
         {},
         dock->matrixView()->matrix(),
         w.selection().selectedBody(),
         {}};
  for (int r = 0; r < dock->valuesTable()->rowCount(); ++r)
    for (int c = 0; c < dock->valuesTable()->columnCount(); ++c) v.cells << dock->valuesTable()->item(r, c)->text();
  if (dock->arrows()) v.legend = dock->arrows()->legendLines();
  return v;
}

AlgorithmStepperDock* openStepper(kt::ui::MainWindow& w) {
  AlgorithmStepperDock* dock = w.stepperDock();
  dock->show();
  dock->raise();
  QApplication::processEvents();
  return dock;
}

}  // namespace

class TestAlgorithmStepper : public QObject {
  Q_OBJECT

 private slots:
  // ABA on the space robot, through the first arm's pass 2: each step selects its body, shows
  // I^A_i and hands the parent its sums, drawn from the body to the parent; the values are ABA's.
  void abaThroughTheFirstArm() {
    auto w = openWindow(kt::resources::kDefaultModel, QSize(1400, 950));
    AlgorithmStepperDock* dock = openStepper(*w);
    QVERIFY(!dock->trace().steps.empty());  // the model's initial state, before any run
    QVERIFY(runToEnd(*w, 1.0));
    w->simulation()->showTime(0.5);
    QApplication::processEvents();
    dock->setAlgorithm(AlgorithmStepperDock::Aba);
    dock->refresh();
    const kt::Tree& tree = *w->simulation()->tree();
    QCOMPARE(dock->trace().steps.size(), static_cast<std::size_t>(4 * tree.nb));
    // the numbers are ABA's at the shown state
    const kt::SignalLayout& layout = *w->simulation()->signalLayout();
    Eigen::VectorXd v, tau, qdd(tree.nv);
    layout.velocityVectorFromRow(kt::SignalKind::Qd, w->simulation()->shownRow().data(), v);
    layout.velocityVectorFromRow(kt::SignalKind::Tau, w->simulation()->shownRow().data(), tau);
    kt::AbaSolver aba(tree);
    kt::JointLoads loads;
    loads.resize(tree);
    aba.forwardDynamics(w->simulation()->shownPositions(), v, tau, {}, qdd, &loads);
    QCOMPARE(dock->trace().qdd, qdd);
    QCOMPARE(dock->trace().loads.lambda, loads.lambda);

    dock->passForward();  // pass 2 starts at the last body, L26
    const int l16 = tree.jointIndex("J16"), l11 = tree.jointIndex("J11");
    while (dock->trace().steps[static_cast<std::size_t>(dock->step())].body != l16) dock->stepForward();
    for (int body = l16; body >= l11; --body) {
      const kt::TracedStep& s = dock->trace().steps[static_cast<std::size_t>(dock->step())];
      QCOMPARE(s.pass, 1);
      QCOMPARE(s.body, body);
      // selected: the Model dock and the 3D view show it
      QCOMPARE(w->selection().selectedBody(), w->selection().bodyOfTreeIndex(body));
      QVERIFY2(dock->passText().contains(QString::fromStdString(tree.bodyNames[static_cast<std::size_t>(body)])),
               qPrintable(dock->passText()));
      QVERIFY(dock->equationText().contains("I^a_i = I^A_i − U_i D_i⁻¹ U_iᵀ"));
      QVERIFY2(dock->filledText().startsWith("D_i = "), qPrintable(dock->filledText()));
      QCOMPARE(dock->valuesTable()->item(0, 0)->text(), QStringLiteral("I^A_i"));
      // symbols in the equations' monospaced font, whose marks show (q̈ read as q in the UI font);
      // spatial values with their units
      QCOMPARE(dock->valuesTable()->item(0, 0)->font().family(), QStringLiteral("DejaVu Sans Mono"));
      for (int r = 0; r < dock->valuesTable()->rowCount(); ++r)
        if (dock->valuesTable()->item(r, 0)->text() == QStringLiteral("p^A_i")) {
          QVERIFY2(dock->valuesTable()->item(r, 1)->text().endsWith(QStringLiteral("[n | f]")),
                   qPrintable(dock->valuesTable()->item(r, 1)->text()));
          QVERIFY2(dock->valuesTable()->item(r, 2)->text().endsWith(QStringLiteral("] N·m | N")),
                   qPrintable(dock->valuesTable()->item(r, 2)->text()));
        }
      QCOMPARE(dock->matrixView()->matrix(), s.values[0].value);  // I^A_i, picked at the first step
      // the hand-over to the parent, drawn from the body's origin to the parent's
      const int parent = tree.parent[static_cast<std::size_t>(body)];
      QVERIFY(dock->handedText().startsWith("Hands to " +
                                            QString::fromStdString(tree.bodyNames[static_cast<std::size_t>(parent)])));
      QVERIFY(dock->arrows() && dock->arrows()->visible());
      QCOMPARE(dock->arrows()->handovers().size(), std::size_t{1});
      const kt::Kinematics& poses = w->simulation()->shownSample().poses;
      QVERIFY(dock->arrows()->handovers()[0].first.isApprox(poses.X_0[static_cast<std::size_t>(body)].r));
      QVERIFY(dock->arrows()->handovers()[0].second.isApprox(poses.X_0[static_cast<std::size_t>(parent)].r));
      dock->stepForward();
    }
    // the base: its I^A arrives whole, the first arm's handed over last
    const kt::TracedStep& base = dock->trace().steps[static_cast<std::size_t>(dock->step())];
    QCOMPARE(base.body, 0);
    QCOMPARE(dock->trace().steps[static_cast<std::size_t>(dock->step() - 1)].values.back().symbol,
             std::string("p^A_p"));
    QCOMPARE(dock->matrixView()->matrix(), base.values[0].value);
    QVERIFY(dock->handedText().isEmpty());  // a root hands nothing on

    // forward then back: the same view
    dock->setStep(dock->trace().passStart(1) + 3);
    const View before = viewOf(*w, dock);
    dock->stepForward();
    QVERIFY(!(viewOf(*w, dock) == before));
    dock->stepBack();
    QVERIFY(viewOf(*w, dock) == before);
    dock->passForward();
    QCOMPARE(dock->step(), dock->trace().passStart(2));
    dock->stepForward();
    dock->passBack();  // to the start of this pass, then of the one before
    QCOMPARE(dock->step(), dock->trace().passStart(2));
    dock->passBack();
    QCOMPARE(dock->step(), dock->trace().passStart(1));

    // the timeline keeps the step and shows it at the new state, once the shown sample stops
    // changing; the user's own selection stays
    const int kept = dock->step();
    const Eigen::MatrixXd pA = dock->trace().steps[static_cast<std::size_t>(kept)].values[1].value;  // p^A_i
    w->selection().selectBody(w->selection().bodyOfTreeIndex(0));
    w->simulation()->showTime(0.8);
    QTRY_VERIFY(dock->trace().steps[static_cast<std::size_t>(kept)].values[1].value != pA);
    QCOMPARE(dock->step(), kept);
    QCOMPARE(w->selection().selectedBody(), w->selection().bodyOfTreeIndex(0));

    // play runs to the end and stops
    dock->setStep(static_cast<int>(dock->trace().steps.size()) - 3);
    dock->setPlaying(true);
    QVERIFY(dock->playing());
    QVERIFY(QTest::qWaitFor([&] { return !dock->playing(); }, 5000));
    QCOMPARE(dock->step(), static_cast<int>(dock->trace().steps.size()) - 1);

    // the arrows go with the dock: with its tab behind the Plots' (they stayed, with the legend
    // of a body visited long before), and when it is closed
    QVERIFY(dock->arrows()->visible());
    w->plotsDock()->raise();
    QApplication::processEvents();
    QTRY_VERIFY(!dock->arrows()->visible());
    w->selection().selectBody(w->selection().bodyOfTreeIndex(3));  // another body: they stay away
    QApplication::processEvents();
    QVERIFY(!dock->arrows()->visible());
    dock->raise();
    QTRY_VERIFY(dock->arrows()->visible());
    dock->hide();
    QApplication::processEvents();
    QVERIFY(!dock->arrows()->visible());
  }

  // Every algorithm steps on the space robot and on the cardan chain (universal joints): each step
  // has its equation and values, vectors are drawn, and the eliminations show the fill.
  void everyAlgorithmOnTwoModels_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("space robot") << kt::resources::kDefaultModel;
    QTest::newRow("cardan chain") << QStringLiteral(KINETREE_SOURCE_DIR "/examples/cardan_chain.yaml");
  }
  void everyAlgorithmOnTwoModels() {
    QFETCH(QString, model);
    auto w = openWindow(model, QSize(1400, 950));
    AlgorithmStepperDock* dock = openStepper(*w);
    QVERIFY(runToEnd(*w, 0.2));
    w->simulation()->showTime(0.1);
    QApplication::processEvents();
    const kt::Tree& tree = *w->simulation()->tree();
    for (const AlgorithmStepperDock::Choice choice :
         {AlgorithmStepperDock::Aba, AlgorithmStepperDock::Rnea, AlgorithmStepperDock::CrbaCholesky,
          AlgorithmStepperDock::CfaLeavesFirst, AlgorithmStepperDock::CfaRootFirst, AlgorithmStepperDock::CfaOddEven,
          AlgorithmStepperDock::PoissonSweep}) {
      dock->setAlgorithm(choice);
      QApplication::processEvents();
      QVERIFY(!dock->trace().steps.empty());
      QCOMPARE(dock->step(), 0);
      int drawn = 0;
      for (int k = 0; k < static_cast<int>(dock->trace().steps.size()); ++k) {
        dock->setStep(k);
        QVERIFY(!dock->equationText().isEmpty());
        QVERIFY(dock->valuesTable()->rowCount() > 0);
        if (dock->arrows() && !dock->arrows()->drawn().empty()) ++drawn;
      }
      QVERIFY(drawn > 0);
      if (choice == AlgorithmStepperDock::CfaOddEven) {  // the rounds fill on the chain: 800 entries
        dock->setStep(dock->trace().passStart(2) - 1);
        if (tree.nb == 20)
          QVERIFY2(dock->matrixNote().contains("Fill so far: 800 entries"), qPrintable(dock->matrixNote()));
        QVERIFY(dock->handedText().startsWith("Takes from "));
      }
      if (choice == AlgorithmStepperDock::CfaLeavesFirst || choice == AlgorithmStepperDock::CfaRootFirst) {
        dock->setStep(dock->trace().passStart(2) - 1);  // the last elimination
        const QString note = dock->matrixNote();
        QVERIFY2(note.contains("Fill so far"), qPrintable(note));
        QCOMPARE(dock->matrixView()->matrix().rows(), static_cast<Eigen::Index>(tree.nlambda));
        // a chain fills in neither order; the space robot root first fills 125 entries
        const bool fills = choice == AlgorithmStepperDock::CfaRootFirst && tree.nb == 13;
        QVERIFY2(note.contains(fills ? "Fill so far: 125 entries" : "Fill so far: 0 entries"), qPrintable(note));
      }
    }
  }

  // Models too large for a view say so, with the figure, instead of recording: 70 revolute links
  // have 350 reaction rows, whose leaves-first record would hold 70 matrices of 350²; 90 links
  // have more rows than the views show. ABA steps both.
  void largeModelsAreRefusedWithTheFigure() {
    QTemporaryDir dir;
    for (const int links : {70, 90}) {
      const QString path = dir.filePath(QStringLiteral("chain%1.yaml").arg(links));
      kt::saveModelToFile(kt::makeChain(links), path.toStdString());
      auto w = openWindow(path, QSize(1400, 950));
      AlgorithmStepperDock* dock = openStepper(*w);
      dock->setAlgorithm(AlgorithmStepperDock::CfaLeavesFirst);
      QApplication::processEvents();
      QVERIFY(dock->trace().steps.empty());
      const QString header = dock->headerText();
      QVERIFY2(header.contains(links == 70 ? QStringLiteral("would be recorded in 102 MB")
                                           : QStringLiteral("450 rows to eliminate")),
               qPrintable(header));
      dock->setAlgorithm(AlgorithmStepperDock::Aba);
      QApplication::processEvents();
      QCOMPARE(dock->trace().steps.size(), static_cast<std::size_t>(4 * links));
    }
  }
};

int main(int argc, char* argv[]) {
  return kt::test::runWindowTest<TestAlgorithmStepper>(argc, argv, "test_algorithm_stepper");
}
#include "test_algorithm_stepper.moc"
