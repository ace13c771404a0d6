// SPDX-License-Identifier: BSD-3-Clause
#include "render/charts/matrix_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace kt::render {

namespace {

constexpr int kViewMargin = 6;
constexpr double kLabelCell = 11.0;  // names are written when a cell is at least this tall

QColor colourOf(double value, double max) {
  if (value == 0.0 || !(max > 0.0)) return Qt::white;
  const double s = std::sqrt(std::min(1.0, std::abs(value) / max));
  const int fade = static_cast<int>(std::lround(255.0 * (1.0 - s)));
  return value > 0.0 ? QColor(255, fade, fade) : QColor(fade, fade, 255);
}

}  // namespace

MatrixView::MatrixView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(160, 160);
}

void MatrixView::setMatrix(const Eigen::MatrixXd& m, QStringList labels, std::vector<int> blockStarts, QString name) {
  m_ = m;
  pattern_.resize(0, 0);
  labels_ = std::move(labels);
  blockStarts_ = std::move(blockStarts);
  name_ = std::move(name);
  max_ = m_.size() > 0 ? m_.cwiseAbs().maxCoeff() : 0.0;
  labelWidth_ = 0;
  const QFontMetrics fm(font());
  for (const QString& l : labels_) labelWidth_ = std::max(labelWidth_, fm.horizontalAdvance(l) + 4);
  // the blocks' names, for cells too small for the coordinates': a joint's name is its labels' stem
  blockNames_.clear();
  blockWidth_ = 0;
  if (labels_.size() == m_.rows() && m_.rows() > 0) {
    std::vector<int> starts{0};
    starts.insert(starts.end(), blockStarts_.begin(), blockStarts_.end());
    for (const int b : starts) {
      const QString& l = labels_[std::clamp(b, 0, static_cast<int>(labels_.size()) - 1)];
      const qsizetype cut = l.indexOf(QRegularExpression(QStringLiteral("[\\[.]")));
      blockNames_ << (cut > 0 ? l.left(cut) : l);
      blockWidth_ = std::max(blockWidth_, fm.horizontalAdvance(blockNames_.back()) + 6);
    }
  }
  update();
}

void MatrixView::setPattern(Eigen::MatrixXi pattern, std::vector<QColor> colours, QStringList stateNames) {
  if (pattern.rows() != m_.rows() || pattern.cols() != m_.cols()) return;
  pattern_ = std::move(pattern);
  patternColours_ = std::move(colours);
  stateNames_ = std::move(stateNames);
  update();
}

void MatrixView::clear() { setMatrix({}, {}, {}, {}); }

Eigen::Index MatrixView::zeroCount() const { return (m_.array() == 0.0).count(); }

bool MatrixView::labelled() const {
  const int n = static_cast<int>(m_.rows());
  const double side = std::min(width(), height()) - 2.0 * kViewMargin;
  return n > 0 && labels_.size() == n && (side - labelWidth_) / n >= kLabelCell;
}

double MatrixView::margin() const { return labelled() ? labelWidth_ : blockWidth_; }

double MatrixView::cell() const {
  const int n = static_cast<int>(m_.rows());
  if (n == 0) return 0.0;
  const double side = std::min(width(), height()) - 2.0 * kViewMargin;
  return (side - margin()) / n;
}

QRectF MatrixView::grid() const {
  const double c = cell();
  const double labels = margin();
  const double n = static_cast<double>(m_.rows());
  return {kViewMargin + labels, kViewMargin + labels, c * n, c * n};
}

void MatrixView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  const int n = static_cast<int>(m_.rows());
  if (n == 0) return;
  const QRectF g = grid();
  const double c = cell();
  painter.fillRect(g, Qt::white);
  const auto patterned = [this](int r, int k) -> const QColor* {
    if (pattern_.size() == 0) return nullptr;
    const int state = pattern_(r, k);
    return state >= 0 && state < static_cast<int>(patternColours_.size())
               ? &patternColours_[static_cast<std::size_t>(state)]
               : nullptr;
  };
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < n; ++k) {
      const QRectF box(g.left() + k * c, g.top() + r * c, c, c);
      if (pattern_.size() > 0) {
        if (const QColor* colour = patterned(r, k)) painter.fillRect(box, *colour);
      } else if (const double x = m_(r, k); x != 0.0) {
        painter.fillRect(box, colourOf(x, max_));
      }
    }
  painter.setPen(QPen(QColor(120, 120, 120), 1.0));
  for (int b : blockStarts_) {
    painter.drawLine(QPointF(g.left() + b * c, g.top()), QPointF(g.left() + b * c, g.bottom()));
    painter.drawLine(QPointF(g.left(), g.top() + b * c), QPointF(g.right(), g.top() + b * c));
  }
  painter.setPen(Qt::black);
  painter.drawRect(g);
  if (labelled()) {
    QFont small = font();
    small.setPixelSize(std::clamp(static_cast<int>(c * 0.75), 8, QFontMetrics(font()).height() - 2));
    painter.setFont(small);
    for (int r = 0; r < n; ++r) {
      painter.drawText(QRectF(kViewMargin, g.top() + r * c, labelWidth_ - 4, c), Qt::AlignRight | Qt::AlignVCenter,
                       labels_[r]);
      painter.save();
      painter.translate(g.left() + r * c, g.top() - 4);
      painter.rotate(-90);
      painter.drawText(QRectF(0, 0, labelWidth_ - 4, c), Qt::AlignLeft | Qt::AlignVCenter, labels_[r]);
      painter.restore();
    }
  } else if (!blockNames_.isEmpty()) {
    // each block's name beside its rows and above its columns, where the block is tall enough
    const double text = QFontMetrics(font()).height();
    std::vector<int> starts{0};
    starts.insert(starts.end(), blockStarts_.begin(), blockStarts_.end());
    starts.push_back(n);
    for (std::size_t b = 0; b + 1 < starts.size() && static_cast<qsizetype>(b) < blockNames_.size(); ++b) {
      const double from = starts[b] * c, span = (starts[b + 1] - starts[b]) * c;
      if (span < 0.8 * text) continue;
      const QString& name = blockNames_[static_cast<qsizetype>(b)];
      painter.drawText(QRectF(kViewMargin, g.top() + from, blockWidth_ - 4, span), Qt::AlignRight | Qt::AlignVCenter,
                       name);
      painter.save();
      painter.translate(g.left() + from, g.top() - 4);
      painter.rotate(-90);
      painter.drawText(QRectF(0, 0, blockWidth_ - 4, span), Qt::AlignLeft | Qt::AlignVCenter, name);
      painter.restore();
    }
  }
}

QString MatrixView::valueTextAt(QPoint pos) const {
  const QRectF g = grid();
  const double c = cell();
  if (m_.rows() == 0 || !g.contains(pos) || !(c > 0.0)) return {};
  const int k = std::clamp(static_cast<int>((pos.x() - g.left()) / c), 0, static_cast<int>(m_.cols()) - 1);
  const int r = std::clamp(static_cast<int>((pos.y() - g.top()) / c), 0, static_cast<int>(m_.rows()) - 1);
  QString text = QStringLiteral("%1[%2, %3] = %4").arg(name_).arg(r).arg(k).arg(m_(r, k), 0, 'g', 6);
  if (labels_.size() == m_.rows()) text += QStringLiteral("  (%1, %2)").arg(labels_[r], labels_[k]);
  if (pattern_.size() > 0 && pattern_(r, k) >= 0 && pattern_(r, k) < stateNames_.size())
    text += QStringLiteral(": ") + stateNames_[pattern_(r, k)];
  return text;
}

void MatrixView::mouseMoveEvent(QMouseEvent* event) {
  const QString text = valueTextAt(event->position().toPoint());
  setToolTip(text);
  emit hovered(text);
}

void MatrixView::leaveEvent(QEvent*) { emit hovered({}); }

}  // namespace kt::render
