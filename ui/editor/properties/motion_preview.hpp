// SPDX-License-Identifier: BSD-3-Clause
// The Properties dock's preview of a joint's prescribed motion: q, q̇ and q̈ of each coordinate over
// the model's run (0 to its duration), three small plots drawn as the exports draw them. Angles
// in degrees, as on the rest of the page. A table motion reads its file (relative to the model's
// folder); what cannot be shown says why in place of the plots.
#pragma once

#include <QWidget>
#include <string>

#include "core/model/model.hpp"

class QLabel;

namespace kt::render {
class FigureView;
}

namespace kt::ui {

class MotionPreview : public QWidget {
  Q_OBJECT

 public:
  explicit MotionPreview(QWidget* parent = nullptr);

  /// Shows the motion of `joint` (named `name`, the name its table columns carry) over
  /// [0, duration]; `directory` resolves a table's relative file.
  void show(const kt::JointSpec& joint, const std::string& name, double duration, const QString& directory);
  /// What the preview says instead of plots (empty while it plots).
  QString message() const;

 private:
  QLabel* message_;
  kt::render::FigureView* plots_[3];
};

}  // namespace kt::ui
