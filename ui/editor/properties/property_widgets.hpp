// SPDX-License-Identifier: BSD-3-Clause
// Small editors used by the property editor (properties_dock.hpp): a line edit for a list of
// numbers that round-trips values exactly, a collapsible section, a colour swatch button and a
// text box that reports editingFinished like a line edit.
//
// Numbers are shown in their shortest exact decimal form (std::to_chars), so a value the user
// typed (0.1) is stored and shown unchanged. When a list is edited, components whose text was
// not touched keep the model's exact value, so converted units (degrees shown for radians) never
// drift through a display round trip.
#pragma once

#include <Eigen/Core>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QWidget>
#include <algorithm>
#include <vector>

class QFormLayout;
class QToolButton;
class QComboBox;

namespace kt::ui {

/// Lets a combo box shrink below its longest entry (the property page fits a narrow dock).
void narrow(QComboBox* box);

/// The shortest decimal text that reads back as exactly `x` ("0.1", "1e-08", "-90").
QString formatNumber(double x);

/// Reads one number (C locale, "1e-3" form); refuses empty text, trailing text and non-finite
/// values with a reason.
bool parseNumber(const QString& text, double& out, QString* error);

/// Unit conversion between the model (file) value and the shown value.
enum class DisplayUnit { Same, Degrees };

/// The tooltip line of a field shown in degrees: how to type radians.
QString degreesHint();

/// A line edit holding `count` numbers separated by commas or spaces (optionally in brackets).
class NumberListEdit : public QLineEdit {
  Q_OBJECT

 public:
  /// `count` < 0: any number of values; `broadcast`: a single value is repeated `count` times.
  NumberListEdit(int count, DisplayUnit unit = DisplayUnit::Same, bool broadcast = false, QWidget* parent = nullptr);
  /// One unit per value (a cylindrical joint's θ in degrees beside its slide in metres); values
  /// past the end use the last.
  void setUnits(std::vector<DisplayUnit> units);

  /// Shows `values` (model units). Does nothing when the text already shows them.
  void setValues(const std::vector<double>& values);
  /// The values in model units; false with `error` when the text does not read as `count` finite numbers.
  /// In a field shown in degrees a value may carry its unit: "1.5 rad" is taken in radians as
  /// typed, "90°" and "90 deg" in degrees.
  bool values(std::vector<double>& out, QString* error) const;
  const std::vector<double>& shownValues() const { return shown_; }

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  /// A click into the field selects its text: typing replaces the value.
  void focusInEvent(QFocusEvent* event) override;

 private:
  DisplayUnit unitOf(std::size_t i) const {
    return units_.empty() ? DisplayUnit::Same : units_[std::min(i, units_.size() - 1)];
  }

  int count_;
  std::vector<DisplayUnit> units_;
  bool broadcast_;
  std::vector<double> shown_;  // model values last shown
  QStringList shownText_;      // their text, one token per value
};

/// A text box (description) that emits editingFinished when it loses the focus.
class TextBlockEdit : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit TextBlockEdit(QWidget* parent = nullptr);
  /// Shows `text` (the model's), keeping the cursor when it is shown already; either way the box
  /// then holds nothing typed (isModified() is false).
  void setTextKeepingCursor(const QString& text);
  /// True when text was typed since the model's was last shown, as QLineEdit::isModified.
  bool isModified() const;

 signals:
  void editingFinished();

 protected:
  void focusOutEvent(QFocusEvent* event) override;
};

/// A button showing an RGBA colour (components in [0, 1]).
class ColorButton : public QPushButton {
  Q_OBJECT

 public:
  explicit ColorButton(QWidget* parent = nullptr);
  void setColor(const Eigen::Vector4d& rgba);
  const Eigen::Vector4d& color() const { return color_; }

 private:
  Eigen::Vector4d color_{0.7, 0.7, 0.7, 1.0};
};

/// A titled, collapsible part of the property page: a header button and a form below it.
class PropertySection : public QWidget {
  Q_OBJECT

 public:
  PropertySection(const QString& title, bool expanded, QWidget* parent = nullptr);
  QFormLayout* form() const { return form_; }
  bool isExpanded() const;
  void setExpanded(bool expanded);

 signals:
  void expandedChanged(bool expanded);

 private:
  QToolButton* header_;
  QWidget* body_;
  QFormLayout* form_;
};

}  // namespace kt::ui
