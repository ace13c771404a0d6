// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/import_motion.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

#include "core/model/text_util.hpp"
#include "ui/document/document.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/shared/qt_text.hpp"

namespace kt::ui {

namespace {

QString seconds(double t) { return q(kt::formatSignificant(t, 6)); }

}  // namespace

ImportMotionDialog::ImportMotionDialog(Document& doc, const QString& path, QWidget* parent)
    : QDialog(parent), doc_(doc) {
  setWindowTitle(tr("Import Motion"));
  setObjectName(QStringLiteral("importMotionDialog"));
  file_ = new QLineEdit(this);
  file_->setObjectName(QStringLiteral("motionFile"));
  file_->setPlaceholderText(tr("trajectory.csv"));
  file_->setToolTip(tr("A CSV with a time column and q:<joint>[k] columns, as Export Results writes them"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  connect(browse, &QPushButton::clicked, this, &ImportMotionDialog::browse);
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(file_, 1);
  fileRow->addWidget(browse);
  cutoff_ = new QDoubleSpinBox(this);
  cutoff_->setObjectName(QStringLiteral("motionCutoff"));
  cutoff_->setRange(0.0, 1.0e6);
  cutoff_->setDecimals(3);
  cutoff_->setSuffix(tr(" Hz"));
  cutoff_->setSpecialValueText(tr("none"));
  cutoff_->setToolTip(
      tr("Low-pass the samples first (second-order Butterworth, forward and backward: no delay), for measured "
         "data whose noise the second derivative would amplify into the loads; none for planned trajectories"));
  report_ = new QPlainTextEdit(this);
  report_->setObjectName(QStringLiteral("motionReport"));
  report_->setReadOnly(true);
  report_->setMinimumHeight(180);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setText(tr("Import"));
  connect(buttons, &QDialogButtonBox::accepted, this, &ImportMotionDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ImportMotionDialog::reject);
  auto* form = new QFormLayout;
  form->addRow(tr("CSV file:"), fileRow);
  form->addRow(tr("Filter cutoff:"), cutoff_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(report_, 1);
  layout->addWidget(buttons);
  connect(file_, &QLineEdit::editingFinished, this, &ImportMotionDialog::reread);
  connect(cutoff_, &QDoubleSpinBox::valueChanged, this, &ImportMotionDialog::reread);
  setPath(path);
  resize(620, 420);
}

ImportMotionDialog::~ImportMotionDialog() = default;

void ImportMotionDialog::setPath(const QString& path) {
  file_->setText(QDir::toNativeSeparators(path));
  reread();
}

void ImportMotionDialog::setCutoff(double hz) { cutoff_->setValue(hz); }

QString ImportMotionDialog::report() const { return report_->toPlainText(); }

void ImportMotionDialog::browse() {
  const QString start = file_->text().isEmpty() ? QFileInfo(doc_.filePath()).absolutePath() : file_->text();
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Import Motion"), start, tr("Joint histories (*.csv);;All files (*)"));
  if (!path.isEmpty()) setPath(path);
}

QString ImportMotionDialog::storedPath() const {
  const QString absolute = QFileInfo(QDir::fromNativeSeparators(file_->text().trimmed())).absoluteFilePath();
  if (doc_.filePath().isEmpty()) return absolute;
  return QFileInfo(doc_.filePath()).absoluteDir().relativeFilePath(absolute);
}

void ImportMotionDialog::reread() {
  table_.reset();
  match_ = kt::MotionTableMatch{};
  matched_ = doc_.model();
  const QString path = QDir::fromNativeSeparators(file_->text().trimmed());
  QStringList lines;
  if (path.isEmpty()) {
    report_->setPlainText(
        tr("Choose a CSV of joint histories: a column time (s) and one column q:<joint>[k] per "
           "coordinate of each joint to move (rad or m; “(deg)” after a name for degrees)."));
    ok_->setEnabled(false);
    return;
  }
  try {
    table_ = std::make_unique<kt::MotionTable>(kt::readMotionTable(QFileInfo(path).absoluteFilePath().toStdString()));
  } catch (const kt::TableError& e) {
    report_->setPlainText(tr("The file cannot be used:\n%1").arg(q(e.what())));
    ok_->setEnabled(false);
    return;
  }
  const kt::MotionTable& t = *table_;
  match_ = kt::applyMotionTable(matched_, t, storedPath().toStdString(), cutoff_->value(), true);
  lines << tr("%1 samples from t = %2 s to %3 s.")
               .arg(t.time.size())
               .arg(seconds(t.time.front()), seconds(t.time.back()));
  if (match_.joints.empty()) {
    lines << tr("No joint of the model would follow it.");
  } else {
    lines << (match_.joints.size() == 1
                  ? tr("This joint will follow it (its q:<joint>[k] columns):")
                  : tr("These %1 joints will follow it (their q:<joint>[k] columns):").arg(match_.joints.size()));
    for (const std::string& joint : match_.joints) {
      const int b = [&] {
        for (std::size_t k = 0; k < matched_.bodies.size(); ++k) {
          const kt::BodySpec& spec = matched_.bodies[k];
          if ((spec.joint.name.empty() ? spec.name : spec.joint.name) == joint) return static_cast<int>(k);
        }
        return -1;
      }();
      const kt::JointSpec& before = doc_.model().bodies[static_cast<std::size_t>(b)].joint;
      QString line = QStringLiteral("  ✓ ") + q(joint);
      if (before.drive.type != kt::DriveType::None)
        line += tr("  (its %1 drive is replaced)").arg(q(std::string(kt::driveTypeName(before.drive.type))));
      else if (before.motion.type != kt::MotionType::None)
        line += tr("  (its %1 motion is replaced)").arg(q(std::string(kt::motionTypeName(before.motion.type))));
      lines << line;
    }
  }
  if (!match_.unmatched.empty() || !match_.problems.empty() || !match_.skipped.empty()) {
    lines << tr("Not used:");
    // where in the file (the command line refuses such a file at the same place)
    const auto at = [](const kt::Diagnostic& d) {
      return d.line > 0 ? tr("line %1, column %2: ").arg(d.line).arg(d.column) : QString();
    };
    for (const kt::Diagnostic& d : match_.unmatched) {
      lines << QStringLiteral("  ✗ ") + at(d) + q(d.message);
      // a misspelt joint: the joint meant does not follow the file, and keeps what it had
      static const QRegularExpression meant(QStringLiteral("did you mean '([^']+)'"));
      const std::string joint = meant.match(q(d.message)).captured(1).toStdString();
      if (joint.empty() || std::find(match_.joints.begin(), match_.joints.end(), joint) != match_.joints.end())
        continue;
      for (const kt::BodySpec& spec : doc_.model().bodies)
        if ((spec.joint.name.empty() ? spec.name : spec.joint.name) == joint) {
          const QString keeps =
              spec.joint.drive.type != kt::DriveType::None
                  ? tr("keeps its %1 drive").arg(q(std::string(kt::driveTypeName(spec.joint.drive.type))))
              : spec.joint.motion.type != kt::MotionType::None
                  ? tr("keeps its %1 motion").arg(q(std::string(kt::motionTypeName(spec.joint.motion.type))))
                  : tr("stays free, moved only by the dynamics");
          lines << tr("      so joint %1 does not follow the file: it %2").arg(q(joint), keeps);
        }
    }
    for (const kt::Diagnostic& d : match_.problems) lines << QStringLiteral("  ✗ ") + at(d) + q(d.message);
    for (const kt::Diagnostic& d : match_.skipped) lines << QStringLiteral("  – ") + q(d.message);
  }
  int other = 0;
  for (const kt::MotionTable::Column& c : t.columns) other += c.name.starts_with("q:") ? 0 : 1;
  if (other > 0)
    lines << (other == 1 ? tr("1 column of another signal is not read.")
                         : tr("%1 columns of other signals (qd:, load:, …) are not read.").arg(other));
  if (!match_.joints.empty()) {
    if (t.time.front() > 1e-9)
      lines << tr("The samples start at t = %1 s, but a run starts at 0: add a row at t = 0.")
                   .arg(seconds(t.time.front()));
    if (doc_.model().simulation.duration > t.time.back())
      lines << tr("The model runs %1 s, longer than the samples: its duration becomes %2 s.")
                   .arg(seconds(doc_.model().simulation.duration), seconds(t.time.back()));
    // what a run would refuse (a table that starts late, too few samples to filter, …)
    try {
      for (const std::string& joint : match_.joints)
        for (const kt::BodySpec& spec : matched_.bodies)
          if ((spec.joint.name.empty() ? spec.name : spec.joint.name) == joint && cutoff_->value() > 0.0) {
            const int nv = kt::jointNv(spec.joint.type);
            kt::CoordinateSamples samples;
            samples.time = t.time;
            for (int k = 0; k < nv; ++k)
              if (const kt::MotionTable::Column* c = t.find("q:" + joint + "[" + std::to_string(k) + "]"))
                samples.values.emplace_back(c->values);
            samples.cutoff = cutoff_->value();
            if (static_cast<int>(samples.values.size()) == nv) kt::JointMotion(spec.joint.motion, nv, &samples);
          }
    } catch (const std::invalid_argument& e) {
      lines << tr("The filter cannot be used: %1.").arg(q(e.what()));
      match_.joints.clear();
    }
  }
  report_->setPlainText(lines.join(QLatin1Char('\n')));
  ok_->setEnabled(!match_.joints.empty());
}

void ImportMotionDialog::accept() {
  if (!table_ || match_.joints.empty()) {
    QMessageBox::warning(this, tr("Import Motion"), tr("No joint of the model would follow this file."));
    return;
  }
  const QString name = QFileInfo(file_->text()).fileName();
  doc_.undoStack()->beginMacro(tr("Import motion %1").arg(name));
  QString error;
  for (std::size_t b = 0; b < matched_.bodies.size() && error.isEmpty(); ++b) {
    const kt::Motion& motion = matched_.bodies[b].joint.motion;
    if (motion == doc_.model().bodies[b].joint.motion) continue;
    if (QUndoCommand* c = edit::setMotion(doc_, static_cast<int>(b), motion, &error)) doc_.push(c);
  }
  const double end = table_->time.back();
  if (error.isEmpty() && doc_.model().simulation.duration > end) {
    kt::SimulationSettings settings = doc_.model().simulation;
    settings.duration = end;
    if (QUndoCommand* c = edit::setSimulation(doc_, settings, &error)) doc_.push(c);
  }
  doc_.undoStack()->endMacro();
  if (!error.isEmpty()) {
    doc_.undoStack()->undo();  // nothing half done
    QMessageBox::warning(this, tr("Import Motion"), tr("The motion cannot be imported: %1").arg(error));
    return;
  }
  const QString first = q(match_.joints.front()), last = q(match_.joints.back());
  summary_ = match_.joints.size() == 1
                 ? tr("%1 follows %2").arg(first, name)
                 : tr("%1 … %2 (%3 joints) follow %4").arg(first, last).arg(match_.joints.size()).arg(name);
  QDialog::accept();
}

}  // namespace kt::ui
