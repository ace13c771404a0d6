// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/export_dialog.hpp"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include "core/model/model.hpp"
#include "ui/results/export/export_file.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

ExportDialog::ExportDialog(const QString& objectName, const QString& title, QWidget* parent) : QDialog(parent) {
  setObjectName(objectName);
  setWindowTitle(title);
}

void ExportDialog::accept() {
  const FileQuestion question = fileQuestion();
  const QString path = askExportFile(this, question.title, question.suggestedName, question.filters);
  if (path.isEmpty()) return;
  if (exportTo(path)) {
    QDialog::accept();
    return;
  }
  if (!error_.isEmpty()) QMessageBox::warning(this, question.title, error_);
}

QVBoxLayout* ExportDialog::layoutWithIntro(const QString& intro) {
  auto* layout = new QVBoxLayout(this);
  auto* label = new QLabel(intro);
  label->setWordWrap(true);
  layout->addWidget(label);
  return layout;
}

QString ExportDialog::runLine(const SimulationController& simulation) {
  return tr("Run: %1 — %2").arg(simulation.runLabel(), simulation.runStateText());
}

QString ExportDialog::runFileName(const SimulationController& simulation) {
  const kt::Model* model = simulation.sessionModel();
  return model && !model->name.empty() ? QString::fromStdString(model->name) : tr("run");
}

QDialogButtonBox* ExportDialog::exportButtons() {
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
  exportButton_ = buttons->addButton(tr("Export…"), QDialogButtonBox::AcceptRole);
  exportButton_->setDefault(true);
  connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
  return buttons;
}

ExportDialog::RangeButtons ExportDialog::addRangeButtons(QVBoxLayout* layout, std::pair<double, double> plotsRange) {
  RangeButtons b{new QRadioButton(tr("The whole run")), new QRadioButton};
  bool haveRange = false;
  b.plotsRange->setText(plotsRangeText(plotsRange, haveRange));
  b.plotsRange->setEnabled(haveRange);
  b.wholeRun->setChecked(true);
  layout->addWidget(b.wholeRun);
  layout->addWidget(b.plotsRange);
  auto* group = new QButtonGroup(this);
  group->addButton(b.wholeRun);
  group->addButton(b.plotsRange);
  return b;
}

}  // namespace kt::ui
