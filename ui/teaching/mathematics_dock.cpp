// SPDX-License-Identifier: BSD-3-Clause
#include "ui/teaching/mathematics_dock.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/dynamics/cfa/cfa_dense.hpp"
#include "core/dynamics/cfa/elimination_fill.hpp"
#include "core/dynamics/free_body.hpp"
#include "core/dynamics/kernels/articulated_inertia.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"
#include "render/charts/matrix_view.hpp"
#include "render/overlays/free_body_arrows.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

QLabel* note() {
  auto* l = new QLabel;
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

QWidget* page(QWidget* view, QLabel* text) {
  auto* w = new QWidget;
  auto* layout = new QVBoxLayout(w);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(view, 1);
  layout->addWidget(text);
  return w;
}

}  // namespace

MathematicsDock::MathematicsDock(SimulationController* simulation, render::SceneView* view, QWidget* parent)
    : QDockWidget(tr("Mathematics"), parent),
      simulation_(simulation),
      tabs_(new QTabWidget),
      header_(new QLabel),
      mass_(new render::MatrixView),
      massNote_(note()),
      constraint_(new render::MatrixView),
      constraintNote_(note()),
      impulse_(new QTableWidget),
      factor_(new render::MatrixView),
      impulseNote_(note()),
      freeBody_(new QTableWidget),
      freeBodyNote_(note()),
      freeBodyArrowsOn_(new QCheckBox(tr("Draw in the 3D view"))),
      view_(view),
      rigid_(new render::MatrixView),
      articulated_(new render::MatrixView),
      inertiaNote_(note()),
      conservation_(new QTableWidget),
      conservationNote_(note()),
      readout_(new QLabel) {
  setObjectName(QStringLiteral("mathematicsDock"));
  mass_->setObjectName(QStringLiteral("massMatrixView"));
  constraint_->setObjectName(QStringLiteral("constraintMatrixView"));
  freeBody_->setObjectName(QStringLiteral("freeBodyTable"));
  freeBody_->setColumnCount(7);
  freeBody_->setHorizontalHeaderLabels(
      {tr("wrench on the body"), tr("mx (N·m)"), tr("my"), tr("mz"), tr("fx (N)"), tr("fy"), tr("fz")});
  freeBody_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  freeBody_->verticalHeader()->hide();
  freeBody_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  tabs_->addTab(page(mass_, massNote_), tr("Mass matrix M(q)"));
  tabs_->addTab(page(constraint_, constraintNote_), tr("CFA system A = TᵀΦT"));
  impulse_->setObjectName(QStringLiteral("impulseTable"));
  impulse_->setColumnCount(3);
  impulse_->setHorizontalHeaderLabels({tr("coordinate"), tr("ν"), tr("p = M ν")});
  impulse_->verticalHeader()->hide();
  impulse_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  impulse_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  impulse_->setMinimumWidth(280);
  factor_->setObjectName(QStringLiteral("impulseFactorView"));
  auto* impulses = new QWidget;
  auto* impulseRow = new QHBoxLayout(impulses);
  impulseRow->setContentsMargins(0, 0, 0, 0);
  impulseRow->addWidget(impulse_, 2);
  impulseRow->addWidget(factor_, 3);
  tabs_->addTab(page(impulses, impulseNote_), tr("Poisson impulses"));
  freeBodyArrowsOn_->setObjectName(QStringLiteral("freeBodyArrows"));
  freeBodyArrowsOn_->setChecked(true);
  freeBodyArrowsOn_->setToolTip(
      tr("Each wrench as a force arrow (one tip) and a moment arrow (two tips) where it acts, in the colours "
         "the 3D view's legend names; the rate of change of the momentum in grey at the centre of mass"));
  freeBodyPage_ = page(freeBody_, freeBodyNote_);
  freeBodyPage_->layout()->addWidget(freeBodyArrowsOn_);
  tabs_->addTab(freeBodyPage_, tr("Free body"));
  auto* inertias = new QWidget;
  auto* pair = new QHBoxLayout(inertias);
  pair->setContentsMargins(0, 0, 0, 0);
  pair->addWidget(rigid_);
  pair->addWidget(articulated_);
  tabs_->addTab(page(inertias, inertiaNote_), tr("Articulated inertia"));
  conservation_->setObjectName(QStringLiteral("conservationTable"));
  conservation_->setColumnCount(5);
  conservation_->setHorizontalHeaderLabels(
      {tr("quantity"), tr("at t = 0"), tr("now"), tr("change"), tr("drift (relative)")});
  conservation_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  conservation_->verticalHeader()->hide();
  conservation_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  tabs_->addTab(page(conservation_, conservationNote_), tr("Conservation"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(header_);
  layout->addWidget(tabs_, 1);
  layout->addWidget(readout_);
  setWidget(content);
  for (render::MatrixView* v : {mass_, constraint_, factor_, rigid_, articulated_})
    connect(v, &render::MatrixView::hovered, readout_, &QLabel::setText);
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    if (isVisible()) refresh();
  });
  connect(simulation_, &SimulationController::sessionEnded, this, [this] {
    cfa_.reset();  // it refers to the session's tree
    cfaTree_ = nullptr;
    showFreeBodyArrows(nullptr);
  });
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    if (isVisible()) refresh();
  });
  connect(freeBodyArrowsOn_, &QCheckBox::toggled, this, [this] {
    if (isVisible()) refresh();
  });
  // tabbed behind the Plots, the dock is out of sight but not hidden: the free-body diagram
  // leaves the 3D view with it, and comes back with it
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    inSight_ = visible;
    if (visible)
      refresh();
    else
      showFreeBodyArrows(nullptr);
  });
  refresh();
}

MathematicsDock::~MathematicsDock() = default;

void MathematicsDock::showEvent(QShowEvent* event) {
  QDockWidget::showEvent(event);
  refresh();
}

void MathematicsDock::hideEvent(QHideEvent* event) {
  QDockWidget::hideEvent(event);
  showFreeBodyArrows(nullptr);
}

void MathematicsDock::showFreeBodyArrows(const kt::FreeBodyDiagram* d) {
  const kt::Tree* tree = simulation_->tree();
  const bool show =
      d && tree && isVisible() && inSight_ && tabs_->currentWidget() == freeBodyPage_ && freeBodyArrowsOn_->isChecked();
  if (!show && !arrows_) return;
  if (!arrows_) arrows_ = std::make_unique<render::FreeBodyArrows>(view_->overlayRenderer());
  if (show) {
    arrows_->show(simulation_->shownSample().poses, *d, view_->scene().characteristicLength());
  } else if (arrows_->visible()) {
    arrows_->hide();
  } else {
    return;
  }
  view_->update();
}

void MathematicsDock::setSelectedBody(int treeIndex) {
  selected_ = treeIndex;
  if (isVisible()) refresh();
}

QString MathematicsDock::freeBodySummary() const { return freeBodyNote_->text(); }
QString MathematicsDock::constraintSummary() const { return constraintNote_->text(); }
QString MathematicsDock::massSummary() const { return massNote_->text(); }
QString MathematicsDock::impulseSummary() const { return impulseNote_->text(); }
QString MathematicsDock::conservationSummary() const { return conservationNote_->text(); }

void MathematicsDock::showConservation(const kt::Tree& tree, const double* row) {
  const kt::SignalLayout& layout = *simulation_->signalLayout();
  const kt::Recorder* rec = simulation_->recorder();
  std::vector<double> first(static_cast<std::size_t>(layout.size()));
  if (!rec || rec->copyRows(0, 1, first.data()) == 0) return;
  // what the model should conserve: no drive and no applied wrench keep the energy; roots that
  // are free, without gravity or applied wrenches, keep the momentum (joint forces are internal)
  bool driven = false, applied = false, freeRoots = true;
  if (const kt::Model* model = simulation_->sessionModel())
    for (const kt::BodySpec& b : model->bodies) {
      driven = driven || b.joint.drive.type != kt::DriveType::None;
      applied = applied || !b.appliedWrench.isZero(0.0);
    }
  for (int i = 0; i < tree.nb; ++i)
    if (tree.parent[i] < 0) freeRoots = freeRoots && tree.joints[i].type == kt::JointType::Free;
  const bool energy = !driven && !applied;
  const bool momentum = freeRoots && !applied && tree.gravity.isZero(0.0);
  QStringList kept, notKept;
  (energy ? kept : notKept) << tr("the total energy");
  (momentum ? kept : notKept) << tr("the linear and angular momentum");
  QString why;
  if (!energy) why += driven ? tr(" Drives do work on it.") : tr(" Applied wrenches do work on it.");
  if (!momentum)
    why += !freeRoots                  ? tr(" A joint to the world takes up momentum.")
           : !tree.gravity.isZero(0.0) ? tr(" Gravity changes the momentum.")
                                       : tr(" Applied wrenches change the momentum.");
  else
    why += tr(" Joint forces and drives are internal: they cannot change the system's momentum.");
  conservationNote_->setText(
      (kept.isEmpty()
           ? tr("This model conserves neither energy nor momentum.")
           : tr("This model should conserve %1; drift there is the integrator's error.").arg(kept.join(tr(" and ")))) +
      why);
  std::vector<int> rows;
  for (int k = 0; k < layout.size(); ++k) {
    const kt::SignalKind kind = layout.infos()[static_cast<std::size_t>(k)].kind;
    if (kind == kt::SignalKind::Energy || kind == kt::SignalKind::Momentum) rows.push_back(k);
  }
  conservation_->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    const kt::SignalInfo& info = layout.infos()[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)])];
    const double a = first[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)])];
    const double b = row[rows[static_cast<std::size_t>(r)]];
    // drift relative to the quantity's size at t = 0 (or, for a quantity that starts at zero, to
    // 1), for what is conserved: the kinetic and potential energy trade, only their total is kept
    const double drift = (b - a) / std::max(std::abs(a), 1.0);
    const bool conserved = info.kind == kt::SignalKind::Energy ? energy && info.name == "energy.total" : momentum;
    const QString drifted = conserved                                       ? QString::number(drift, 'g', 2)
                            : info.kind == kt::SignalKind::Energy && energy ? tr("exchanged (the total is kept)")
                                                                            : tr("not conserved");
    const QStringList cells = {QStringLiteral("%1 (%2)").arg(QString::fromStdString(info.name),
                                                             QString::fromStdString(info.unit)
                                                                 .replace(QLatin1Char('*'), QChar(0x00B7))
                                                                 .replace(QStringLiteral("^2"), QStringLiteral("²"))),
                               fourDigits(a), fourDigits(b), QString::number(b - a, 'g', 3), drifted};
    for (int c = 0; c < 5; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      conservation_->setItem(r, c, item);
    }
  }
  conservation_->resizeColumnsToContents();
}

void MathematicsDock::refresh() {
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  if (!tree || !layout || !simulation_->hasShownSample() || simulation_->outdated()) {
    header_->setText(simulation_->outdated()
                         ? tr("The model was edited since the run: run it again to see its mathematics.")
                         : tr("Run the model (or move the timeline): these views show the state at the shown time."));
    mass_->clear();
    constraint_->clear();
    impulse_->setRowCount(0);
    factor_->clear();
    freeBody_->setRowCount(0);
    showFreeBodyArrows(nullptr);
    conservation_->setRowCount(0);
    rigid_->clear();
    articulated_->clear();
    for (QLabel* l : {massNote_, constraintNote_, impulseNote_, freeBodyNote_, inertiaNote_, conservationNote_})
      l->clear();
    return;
  }
  const double* row = simulation_->shownRow().data();
  const Eigen::VectorXd& q = simulation_->shownPositions();
  Eigen::VectorXd v, qdd, tau;
  layout->velocityVectorFromRow(kt::SignalKind::Qd, row, v);
  layout->velocityVectorFromRow(kt::SignalKind::Qdd, row, qdd);
  layout->velocityVectorFromRow(kt::SignalKind::Tau, row, tau);
  header_->setText(tr("At t = %1 s (the shown sample), %2 coordinates, %3 reaction coordinates")
                       .arg(simulation_->shownTime(), 0, 'f', 3)
                       .arg(tree->nv)
                       .arg(tree->nlambda));

  // M(q): labels per coordinate, a block per joint
  QStringList coordinates;
  std::vector<int> jointStarts;
  for (int i = 0; i < tree->nb; ++i) {
    const int n = tree->joints[static_cast<std::size_t>(i)].nv;
    if (n > 0 && tree->vOffset[static_cast<std::size_t>(i)] > 0) jointStarts.push_back(tree->vOffset[i]);
    for (int k = 0; k < n; ++k)
      coordinates << QStringLiteral("%1[%2]").arg(QString::fromStdString(tree->jointNames[i])).arg(k);
  }
  if (tree->nv > kMaxCoordinates) {
    mass_->clear();
    massNote_->setText(tr("M is %1 × %1: shown for models up to %2 coordinates.").arg(tree->nv).arg(kMaxCoordinates));
    impulse_->setRowCount(0);
    factor_->clear();
    impulseNote_->setText(massNote_->text());
  } else {
    kt::RneaWorkspace ws(*tree);
    Eigen::MatrixXd M;
    kt::massMatrix(*tree, ws, q, M);
    mass_->setMatrix(M, coordinates, jointStarts, QStringLiteral("M"));
    const double n2 = static_cast<double>(M.size());
    const kt::BlockGraph blocks = kt::blockGraph(*tree, M, false);
    const long baseFirst = kt::eliminationFill(blocks, kt::rootFirstOrder(blocks));
    // entries zero at every q: joints on different branches (neither carries the other); the
    // others are a joint with itself and with each joint that carries it, both ways
    long related = 0;
    for (int j = 0; j < tree->nb; ++j) {
      const long nj = tree->joints[static_cast<std::size_t>(j)].nv;
      related += nj * nj;
      for (int a = tree->parent[static_cast<std::size_t>(j)]; a >= 0; a = tree->parent[static_cast<std::size_t>(a)])
        related += 2 * nj * tree->joints[static_cast<std::size_t>(a)].nv;
    }
    const long branches = static_cast<long>(tree->nv) * tree->nv - related;
    const long zeros = static_cast<long>(mass_->zeroCount());
    massNote_->setText(
        tr("M(q) ν is the joints' momentum p (Ivanov's Poisson impulses). Symmetric and positive definite; "
           "%1 of its %2 entries (%3 %) are exactly zero: %4 because joints on different branches of the tree "
           "(neither carries the other) never couple%5. Lines separate the joints; red positive, blue negative. "
           "Factored from the tips to the base (Ivanov §4) it fills %6 entries; from the base out, %7.")
            .arg(zeros)
            .arg(M.size())
            .arg(100.0 * static_cast<double>(zeros) / n2, 0, 'f', 1)
            .arg(branches)
            .arg(zeros > branches ? tr(", %1 by the geometry at this state").arg(zeros - branches) : QString())
            .arg(kt::eliminationFill(blocks, kt::leavesFirstOrder(blocks)))
            .arg(baseFirst));
    // Poisson impulses: p = M ν beside ν, and the block factor from the tips to the base
    const Eigen::VectorXd p = M * v;
    impulse_->setRowCount(static_cast<int>(tree->nv));
    for (int k = 0; k < tree->nv; ++k) {
      const QStringList cells = {coordinates[k], fourDigits(v[k]), fourDigits(p[k])};
      for (int c = 0; c < 3; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        impulse_->setItem(k, c, item);
      }
    }
    factor_->setMatrix(kt::tipsToBaseFactor(blocks, M), coordinates, jointStarts, QStringLiteral("U"));
    impulseNote_->setText(
        tr("Ivanov's solvers integrate p = M(q) ν, the Poisson impulses, instead of ν: ṗ needs no M⁻¹ "
           "(docs/dynamics.md §6), and ν = M⁻¹ p comes out of one O(N) pass. Right: M = U Uᵀ, factored "
           "from the tips to the base (Ivanov §4). U has no entry where M has none (%1 entries filled; "
           "from the base out, %2), and its diagonal blocks are the Cholesky factors L_i of S_iᵀ I^A_i S_i, "
           "the inertia joint i moves when the joints it carries are free: what poisson-ldl forms.")
            .arg(kt::eliminationFill(blocks, kt::leavesFirstOrder(blocks)))
            .arg(baseFirst));
  }

  // A = Tᵀ Φ T as cfa-dense assembles it
  if (tree->nlambda == 0 || tree->nlambda > kMaxCoordinates) {
    constraint_->clear();
    constraintNote_->setText(tree->nlambda == 0 ? tr("No joint transmits a constraint force: A is empty.")
                                                : tr("A is %1 × %1: shown for models up to %2 reaction coordinates.")
                                                      .arg(tree->nlambda)
                                                      .arg(kMaxCoordinates));
  } else {
    if (!cfa_ || cfaTree_ != tree) {
      cfa_ = std::make_unique<kt::CfaDenseSolver>(*tree);
      cfaTree_ = tree;
    }
    Eigen::VectorXd scratch(tree->nv);
    cfa_->forwardDynamics(q, v, tau, {}, scratch, nullptr);
    QStringList reactions;
    std::vector<int> starts;
    for (int i = 0; i < tree->nb; ++i) {
      const std::vector<kt::ReactionComponent> names = kt::reactionComponents(tree->joints[i]);
      if (!names.empty() && tree->lambdaOffset[i] > 0) starts.push_back(tree->lambdaOffset[i]);
      for (const kt::ReactionComponent& c : names)
        reactions << QStringLiteral("%1.%2").arg(QString::fromStdString(tree->jointNames[i]),
                                                 QString::fromStdString(c.name));
    }
    const Eigen::MatrixXd A = cfa_->constraintMatrix();
    constraint_->setMatrix(A, reactions, starts, QStringLiteral("A"));
    const kt::BlockGraph blocks = kt::blockGraph(*tree, A, true);
    const kt::OddEvenFill oddEven = kt::oddEvenFill(*tree, blocks);
    constraintNote_->setText(
        tr("A λ = b gives the constraint forces λ (Liu et al. eqs. 25–29). A joint's block couples only with "
           "its parent's and its siblings' (Φ is block-diagonal per body): block-tridiagonal for a chain. "
           "%1 of %2 entries are zero. Fill of the factor (entries, one triangle): leaves first, as cfa-tree "
           "eliminates, %3; root first, %4; cfa-oddeven's rounds (eqs. 39–40), which couple rows 2, 4, 8 … "
           "apart, %5, and its node system (eqs. 41–44), factored densely, %6.")
            .arg(constraint_->zeroCount())
            .arg(A.size())
            .arg(kt::eliminationFill(blocks, kt::leavesFirstOrder(blocks)))
            .arg(kt::eliminationFill(blocks, kt::rootFirstOrder(blocks)))
            .arg(oddEven.rounds)
            .arg(oddEven.nodeSystem));
  }

  showConservation(*tree, row);

  // the free-body diagram of the selected body
  std::vector<kt::Vec6> f;
  layout->jointWrenchesFromRow(row, f);
  if (selected_ >= 0 && selected_ < tree->nb) {
    const kt::FreeBodyDiagram d = kt::freeBodyDiagram(*tree, q, v, qdd, f, selected_);
    freeBody_->setRowCount(static_cast<int>(d.terms.size()) + 2);
    const auto put = [this](int r, const QString& what, const kt::Vec6& w) {
      freeBody_->setItem(r, 0, new QTableWidgetItem(what));
      for (int c = 0; c < 6; ++c) {
        auto* item = new QTableWidgetItem(fourDigits(w[c]));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        freeBody_->setItem(r, c + 1, item);
      }
    };
    int r = 0;
    for (const kt::FreeBodyDiagram::Term& t : d.terms) put(r++, QString::fromStdString(t.what), t.wrench);
    put(r++, tr("= rate of change of momentum, I a + v ×* I v"), d.momentumRate);
    put(r, tr("residual (sum − rate)"), d.residual);
    freeBody_->resizeColumnsToContents();
    freeBodyNote_->setText(tr("Body %1, in its own axes, moments about its origin: the wrenches on it add up to the "
                              "rate of change of its momentum (Newton–Euler). Residual %2 relative to the largest "
                              "term. The 3D view draws each moment about the point where its force acts (gravity's "
                              "about the centre of mass: zero), so its moments differ from these by r × f.")
                               .arg(QString::fromStdString(tree->bodyNames[selected_]))
                               .arg(d.residual.cwiseAbs().maxCoeff() / d.scale(), 0, 'g', 2));
    showFreeBodyArrows(&d);
  } else {
    showFreeBodyArrows(nullptr);
    freeBody_->setRowCount(0);
    freeBodyNote_->setText(tr("Select a body (in the Model dock or the 3D view) to see its free-body diagram."));
  }

  // the selected body's rigid and articulated inertia
  if (selected_ >= 0 && selected_ < tree->nb) {
    const auto b = static_cast<std::size_t>(selected_);
    const kt::Mat6 I = tree->I[b].matrix();
    const kt::Mat6 IA = kt::articulatedInertias(*tree, q)[b];
    const QStringList axes = {"wx", "wy", "wz", "vx", "vy", "vz"};
    rigid_->setMatrix(I, axes, {3}, QStringLiteral("I"));
    articulated_->setMatrix(IA, axes, {3}, QStringLiteral("IA"));
    // the mass a push feels: the translational block's smallest and largest eigenvalue
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> push(IA.bottomRightCorner<3, 3>());
    inertiaNote_->setText(
        tr("%1 alone (left, I) and as an articulated body (right, I^A: the bodies it carries move freely at "
           "their joints). A push on %1 feels a mass of %2 kg alone and between %3 and %4 kg articulated, "
           "depending on its direction; ABA (Featherstone) propagates I^A from the tips to the base.")
            .arg(QString::fromStdString(tree->bodyNames[b]))
            .arg(I(3, 3), 0, 'g', 4)
            .arg(push.eigenvalues()[0], 0, 'g', 4)
            .arg(push.eigenvalues()[2], 0, 'g', 4));
  } else {
    rigid_->clear();
    articulated_->clear();
    inertiaNote_->setText(tr("Select a body to compare its rigid and articulated inertia."));
  }
}

}  // namespace kt::ui
