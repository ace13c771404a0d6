// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/properties/motion_preview.hpp"

#include <QDir>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/io/motion_table.hpp"
#include "core/model/joint.hpp"
#include "core/motion/joint_motion.hpp"
#include "render/charts/figure_view.hpp"
#include "ui/editor/properties/property_coordinates.hpp"

namespace kt::ui {

namespace {

constexpr int kSamples = 400;  // per curve: smooth at the preview's size

}  // namespace

MotionPreview::MotionPreview(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("motionPreview"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  layout->addWidget(message_);
  for (auto*& plot : plots_) {
    plot = new render::FigureView(this);
    // as wide as the dock is, not the 720 px a figure asks for: the page must not scroll sideways
    plot->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    plot->setMinimumWidth(160);
    plot->setFixedHeight(120);
    layout->addWidget(plot);
  }
}

QString MotionPreview::message() const { return message_->isVisible() ? message_->text() : QString(); }

void MotionPreview::show(const kt::JointSpec& joint, const std::string& name, double duration,
                         const QString& directory) {
  const int nv = kt::jointNv(joint.type);
  const auto fail = [this](const QString& why) {
    message_->setText(why);
    message_->setVisible(true);
    for (auto* plot : plots_) plot->setVisible(false);
  };
  if (joint.motion.type == kt::MotionType::None || nv == 0) return fail(QString());
  kt::JointMotion motion;
  try {
    if (joint.motion.type == kt::MotionType::Table) {
      if (joint.motion.file.empty()) return fail(tr("No file."));
      const QString path = QDir(directory).absoluteFilePath(QString::fromStdString(joint.motion.file));
      const kt::MotionTable table = kt::readMotionTable(path.toStdString());
      kt::CoordinateSamples samples;
      samples.time = table.time;
      samples.cutoff = joint.motion.cutoff;
      // the columns of this joint, as the run reads them
      for (int k = 0; k < nv; ++k)
        if (const kt::MotionTable::Column* c = table.find("q:" + name + "[" + std::to_string(k) + "]"))
          samples.values.emplace_back(c->values);
      if (static_cast<int>(samples.values.size()) != nv)
        return fail(tr("%1 has no q:%2[0…%3] columns.")
                        .arg(QString::fromStdString(joint.motion.file), QString::fromStdString(name))
                        .arg(nv - 1));
      motion = kt::JointMotion(joint.motion, nv, &samples);
      duration = std::min(duration, table.time.back());
    } else {
      motion = kt::JointMotion(joint.motion, nv);
    }
  } catch (const kt::TableError& e) {
    return fail(QString::fromStdString(e.what()));
  } catch (const std::invalid_argument& e) {
    return fail(QString::fromStdString(e.what()));
  }
  message_->setVisible(false);
  const QStringList names = coordinateNames(joint.type, true);
  static const char* kTitles[3] = {"position", "velocity", "acceleration"};
  for (int d = 0; d < 3; ++d) {
    render::ChartFigure f;
    f.title = tr(kTitles[d]);
    f.t0 = 0.0;
    f.t1 = duration > 0.0 ? duration : 1.0;
    double lo = 0.0, hi = 0.0;
    QString unit;
    for (int k = 0; k < nv; ++k) {
      const bool angular = isAngular(joint.type, k);
      const double scale = angular ? 180.0 / std::numbers::pi : 1.0;
      const QString base = angular ? QStringLiteral("°") : QStringLiteral("m");
      unit = d == 0 ? base : d == 1 ? base + QStringLiteral("/s") : base + QStringLiteral("/s²");
      render::FigureSeries s;
      // the coordinate's symbol alone ("θ1"): the axis gives the unit of each plot (°, °/s, °/s²),
      // and the title which derivative it is
      s.name = names.value(k, QStringLiteral("q[%1]").arg(k)).section(QStringLiteral(" ("), 0, 0);
      s.color = render::seriesColor(k);
      for (int i = 0; i <= kSamples; ++i) {
        const double t = f.t1 * i / kSamples;
        const kt::MotionSample m = motion.at(k, t);
        const double y = scale * (d == 0 ? m.q : d == 1 ? m.qd : m.qdd);
        s.t.push_back(t);
        s.y.push_back(y);
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
      f.series.push_back(std::move(s));
    }
    const double pad = std::max(0.05 * (hi - lo), 1e-9);
    f.left.min = lo - pad;
    f.left.max = hi + pad;
    f.left.label = unit;
    plots_[d]->setFigure(std::move(f));
    plots_[d]->setVisible(true);
  }
}

}  // namespace kt::ui
