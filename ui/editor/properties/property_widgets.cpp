// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/properties/property_widgets.hpp"

#include <QComboBox>
#include <QFocusEvent>
#include <QFormLayout>
#include <QKeyEvent>
#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <charconv>
#include <cmath>
#include <numbers>

namespace kt::ui {
namespace {

// Degrees in the UI, radians in the file: d = (r / π)·180 and r = π·(d / 180), so that the
// round angles (±90°, 45°, 180°) map to exactly the same doubles as ±π/2, π/4, π.
double toDisplay(double x, DisplayUnit unit) {
  return unit == DisplayUnit::Degrees ? (x / std::numbers::pi) * 180.0 : x;
}
double toModel(double x, DisplayUnit unit) { return unit == DisplayUnit::Degrees ? std::numbers::pi * (x / 180.0) : x; }

QStringList tokens(QString text) {
  text = text.trimmed();
  if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']'))) text = text.mid(1, text.size() - 2);
  if (text.startsWith(QLatin1Char('(')) && text.endsWith(QLatin1Char(')'))) text = text.mid(1, text.size() - 2);
  static const QRegularExpression sep(QStringLiteral("[,;\\s]+"));
  return text.split(sep, Qt::SkipEmptyParts);
}

}  // namespace

QString degreesHint() {
  return QObject::tr("In degrees; a value written with rad (\"1.5 rad\") is read in radians, exactly as typed");
}

void narrow(QComboBox* box) {
  box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  box->setMinimumContentsLength(5);
}

QString formatNumber(double x) {
  if (x == 0.0) return QStringLiteral("0");  // also for −0
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x);
  return QString::fromLatin1(buf, static_cast<int>(r.ptr - buf));
}

bool parseNumber(const QString& text, double& out, QString* error) {
  const QByteArray s = text.trimmed().toLatin1();
  if (s.isEmpty()) {
    if (error) *error = QObject::tr("expected a number");
    return false;
  }
  const char* first = s.constData();
  if (*first == '+') ++first;
  double x = 0.0;
  const std::from_chars_result r = std::from_chars(first, s.constData() + s.size(), x);
  if (r.ec == std::errc::result_out_of_range) {
    if (error) *error = QObject::tr("'%1' is out of the range of a number").arg(text.trimmed());
    return false;
  }
  if (r.ec != std::errc() || r.ptr != s.constData() + s.size()) {
    if (error) *error = QObject::tr("'%1' is not a number").arg(text.trimmed());
    return false;
  }
  if (!std::isfinite(x)) {
    if (error) *error = QObject::tr("must be a finite number, got %1").arg(text.trimmed());
    return false;
  }
  out = x;
  return true;
}

// ---- NumberListEdit ----

NumberListEdit::NumberListEdit(int count, DisplayUnit unit, bool broadcast, QWidget* parent)
    : QLineEdit(parent), count_(count), units_{unit}, broadcast_(broadcast) {
  if (count_ > 1) setPlaceholderText(tr("%1 numbers").arg(count_));
}

void NumberListEdit::setUnits(std::vector<DisplayUnit> units) {
  units_ = std::move(units);
  const std::vector<double> shown = shown_;
  shown_.clear();  // show them again in the new units
  setValues(shown);
}

void NumberListEdit::setValues(const std::vector<double>& values) {
  QStringList text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Converted values are shown to 12 digits (30° rather than 29.999999999999996); an untouched
    // component keeps its exact model value anyway (values()).
    const DisplayUnit unit = unitOf(i);
    const double d = toDisplay(values[i], unit);
    const QString exact = formatNumber(d), rounded = QString::number(d, 'g', 12);
    text << (unit != DisplayUnit::Same && rounded.size() < exact.size() ? rounded : exact);
  }
  shown_ = values;
  shownText_ = text;
  const QString joined = text.join(QStringLiteral(", "));
  if (joined != this->text()) {
    setText(joined);
    setCursorPosition(0);
  }
  setModified(false);
}

bool NumberListEdit::values(std::vector<double>& out, QString* error) const {
  // a unit written apart from its number joins it: "1.5 rad" → "1.5rad"
  static const QRegularExpression spacedUnit(QStringLiteral("(\\S)\\s+(rad|deg|°)(?!\\w)"));
  const QStringList parts = tokens(QString(text()).replace(spacedUnit, QStringLiteral("\\1\\2")));
  const bool single = broadcast_ && count_ > 1 && parts.size() == 1;
  if (count_ >= 0 && parts.size() != count_ && !single) {
    if (error) {
      *error = count_ == 1 ? tr("expected one number")
                           : tr("expected %1 numbers separated by commas, got %2").arg(count_).arg(parts.size());
      if (broadcast_ && count_ > 1) *error += tr(" (or a single number for all)");
    }
    return false;
  }
  out.clear();
  const qsizetype n = single ? count_ : parts.size();
  for (qsizetype i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    // An untouched component keeps the exact model value (no unit round trip).
    if (!single && i < shownText_.size() && parts[i] == shownText_[i] && k < shown_.size()) {
      out.push_back(shown_[k]);
      continue;
    }
    QString part = parts[single ? 0 : i];
    DisplayUnit unit = unitOf(k);  // a single value is read in each component's unit
    if (unit == DisplayUnit::Degrees) {
      if (part.endsWith(QLatin1String("rad"))) {
        part.chop(3);
        unit = DisplayUnit::Same;  // radians as typed, exactly
      } else if (part.endsWith(QLatin1String("deg"))) {
        part.chop(3);
      } else if (part.endsWith(QChar(0x00B0))) {
        part.chop(1);
      }
    }
    double x = 0.0;
    if (!parseNumber(part, x, error)) return false;
    out.push_back(toModel(x, unit));
  }
  return true;
}

void NumberListEdit::focusInEvent(QFocusEvent* event) {
  QLineEdit::focusInEvent(event);
  // after the press that gave the focus has placed the cursor
  if (event->reason() == Qt::MouseFocusReason) QTimer::singleShot(0, this, &QLineEdit::selectAll);
}

void NumberListEdit::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape && isModified()) {  // give up the edit: show the model's value again
    setText(shownText_.join(QStringLiteral(", ")));
    setModified(false);
    event->accept();
    return;
  }
  QLineEdit::keyPressEvent(event);
}

// ---- TextBlockEdit ----

TextBlockEdit::TextBlockEdit(QWidget* parent) : QPlainTextEdit(parent) {
  setTabChangesFocus(true);
  setMaximumHeight(fontMetrics().lineSpacing() * 5 + 12);
}

void TextBlockEdit::setTextKeepingCursor(const QString& text) {
  if (toPlainText() != text) setPlainText(text);
  document()->setModified(false);
}

bool TextBlockEdit::isModified() const { return document()->isModified(); }

void TextBlockEdit::focusOutEvent(QFocusEvent* event) {
  QPlainTextEdit::focusOutEvent(event);
  emit editingFinished();
}

// ---- ColorButton ----

ColorButton::ColorButton(QWidget* parent) : QPushButton(parent) { setColor(color_); }

void ColorButton::setColor(const Eigen::Vector4d& rgba) {
  color_ = rgba;
  const auto c = [&](int i) { return std::clamp(rgba[i], 0.0, 1.0); };
  const QColor color = QColor::fromRgbF(static_cast<float>(c(0)), static_cast<float>(c(1)), static_cast<float>(c(2)),
                                        static_cast<float>(c(3)));
  QPixmap swatch(28, 14);
  swatch.fill(Qt::transparent);
  QPainter p(&swatch);
  p.fillRect(0, 0, 14, 14, Qt::white);  // a checker shows the alpha
  p.fillRect(14, 0, 14, 14, Qt::lightGray);
  p.fillRect(swatch.rect(), color);
  p.setPen(palette().color(QPalette::Mid));
  p.drawRect(swatch.rect().adjusted(0, 0, -1, -1));
  p.end();
  setIcon(QIcon(swatch));
  setIconSize(swatch.size());
  setToolTip(tr("Colour %1, opacity %2 (click to choose)").arg(color.name(QColor::HexRgb)).arg(formatNumber(rgba[3])));
}

// ---- PropertySection ----

PropertySection::PropertySection(const QString& title, bool expanded, QWidget* parent)
    : QWidget(parent), header_(new QToolButton(this)), body_(new QWidget(this)), form_(new QFormLayout(body_)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  header_->setText(title);
  header_->setCheckable(true);
  header_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  header_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  header_->setAutoRaise(true);
  QFont bold = header_->font();
  bold.setBold(true);
  header_->setFont(bold);
  layout->addWidget(header_);
  layout->addWidget(body_);
  form_->setContentsMargins(14, 2, 2, 6);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form_->setRowWrapPolicy(QFormLayout::DontWrapRows);
  form_->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  form_->setHorizontalSpacing(6);
  form_->setVerticalSpacing(3);
  connect(header_, &QToolButton::toggled, this, [this](bool on) {
    body_->setVisible(on);
    header_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    emit expandedChanged(on);
  });
  header_->setChecked(expanded);
  body_->setVisible(expanded);
  header_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
}

bool PropertySection::isExpanded() const { return header_->isChecked(); }
void PropertySection::setExpanded(bool expanded) { header_->setChecked(expanded); }

}  // namespace kt::ui
