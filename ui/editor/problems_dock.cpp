// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/problems_dock.hpp"

#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <utility>

#include "ui/document/document.hpp"

namespace kt::ui {
namespace {

// Adds an error or a warning icon to the path column of the problems list, and the body's name
// to the tooltip of problems in a body.
class ProblemIcons : public QIdentityProxyModel {
 public:
  ProblemIcons(const Document* document, QIcon error, QIcon warning, QObject* parent)
      : QIdentityProxyModel(parent), document_(document), error_(std::move(error)), warning_(std::move(warning)) {}
  QVariant data(const QModelIndex& index, int role) const override {
    if (role == Qt::DecorationRole && index.column() == ProblemsModel::PathColumn)
      return QIdentityProxyModel::data(index, ProblemsModel::WarningRole).toBool() ? warning_ : error_;
    if (role == Qt::ToolTipRole) {
      const int body = QIdentityProxyModel::data(index, ProblemsModel::BodyIndexRole).toInt();
      const QString tip = QIdentityProxyModel::data(index, role).toString();
      if (body >= 0 && body < static_cast<int>(document_->model().bodies.size()))
        return QObject::tr("In body %1\n%2").arg(QString::fromStdString(document_->model().bodies[body].name), tip);
      return tip;
    }
    return QIdentityProxyModel::data(index, role);
  }

 private:
  const Document* document_;
  QIcon error_, warning_;
};

}  // namespace

ProblemsDock::ProblemsDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Problems"), parent),
      document_(document),
      icon_(new QLabel),
      summary_(new QLabel),
      view_(new QTableView) {
  setObjectName(QStringLiteral("problemsDock"));

  auto* proxy = new ProblemIcons(document_, style()->standardIcon(QStyle::SP_MessageBoxCritical),
                                 style()->standardIcon(QStyle::SP_MessageBoxWarning), this);
  proxy->setSourceModel(document_->problems());
  view_->setObjectName(QStringLiteral("problemsView"));
  view_->setModel(proxy);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->setAlternatingRowColors(true);
  view_->setShowGrid(false);
  // messages wrap at word boundaries into as many lines as the column's width needs (rows grow
  // to fit): a narrow dock shows all of every message, never one cut mid-word
  view_->setWordWrap(true);
  view_->setTextElideMode(Qt::ElideNone);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setSectionResizeMode(ProblemsModel::PathColumn, QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setSectionResizeMode(ProblemsModel::MessageColumn, QHeaderView::Stretch);
  view_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  view_->setIconSize(QSize(16, 16));

  const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
  icon_->setFixedSize(iconSize, iconSize);
  summary_->setObjectName(QStringLiteral("problemsSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(false);  // one line: a wrapped label would set the dock's height by its width

  auto* header = new QHBoxLayout;
  header->setContentsMargins(6, 4, 6, 4);
  header->setSpacing(6);
  header->addWidget(icon_);
  header->addWidget(summary_, 1);

  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(header);
  layout->addWidget(view_);
  setWidget(content);

  connect(document_->problems(), &ProblemsModel::countChanged, this, &ProblemsDock::updateSummary);
  connect(view_, &QAbstractItemView::clicked, this, &ProblemsDock::onRowChosen);
  connect(view_, &QAbstractItemView::activated, this, &ProblemsDock::onRowChosen);
  updateSummary(document_->problems()->rowCount());
}

QAbstractItemView* ProblemsDock::view() const { return view_; }

QString ProblemsDock::summary() const { return summary_->text(); }

void ProblemsDock::updateSummary(int) {
  const int size = icon_->width();
  const int errors = static_cast<int>(kt::problemCount(document_->problems()->diagnostics()));
  const int warnings = static_cast<int>(document_->problems()->warnings().size());
  if (errors == 0 && warnings == 0) {
    summary_->setText(tr("No problems"));
    summary_->setToolTip(tr("The model can be run"));
    icon_->setPixmap(style()->standardIcon(QStyle::SP_DialogApplyButton).pixmap(size, size));
  } else if (errors == 0) {
    // warnings point at likely mistakes; they do not stop a run
    summary_->setText(warnings == 1 ? tr("1 warning — the model can be run")
                                    : tr("%1 warnings — the model can be run").arg(warnings));
    summary_->setToolTip(tr("Warnings point at likely mistakes; they do not stop the model from running"));
    icon_->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
  } else {
    QString text = errors == 1 ? tr("1 problem — the model cannot be run")
                               : tr("%1 problems — the model cannot be run").arg(errors);
    if (warnings > 0) text += warnings == 1 ? tr(" (and 1 warning)") : tr(" (and %1 warnings)").arg(warnings);
    summary_->setText(text);
    summary_->setToolTip(document_->runBlocker());
    icon_->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(size, size));
  }
}

void ProblemsDock::onRowChosen(const QModelIndex& index) {
  if (!index.isValid()) return;
  const QModelIndex row = index.siblingAtColumn(0);
  if (row == lastChosen_ && sinceChosen_.isValid() && sinceChosen_.elapsed() < QApplication::doubleClickInterval())
    return;
  lastChosen_ = row;
  sinceChosen_.start();
  emit problemActivated(document_->problems()->locationOf(index.row()));
}

}  // namespace kt::ui
