// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/edit_guards.hpp"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QScrollBar>

namespace kt::ui {
namespace {

// A widget whose value the wheel steps: a combo box, a spin box or a slider. A scroll bar is a
// slider too, but its wheel is the scrolling itself.
bool isValueWidget(const QWidget* w) {
  return qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
         (qobject_cast<const QAbstractSlider*>(w) && !qobject_cast<const QScrollBar*>(w));
}

// The value widget a wheel event over `w` would change: `w` itself or, for the line edit inside
// a spin box or an editable combo, its parent.
QWidget* valueWidget(QObject* o) {
  auto* w = qobject_cast<QWidget*>(o);
  for (int depth = 0; w && depth < 2; ++depth, w = w->parentWidget())
    if (isValueWidget(w)) return w;
  return nullptr;
}

class WheelGuard : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Polish) {
      // focused by a click or Tab, not by the wheel (Qt::WheelFocus is their default)
      if (auto* w = qobject_cast<QWidget*>(watched); w && isValueWidget(w) && w->focusPolicy() == Qt::WheelFocus)
        w->setFocusPolicy(Qt::StrongFocus);
    } else if (event->type() == QEvent::Wheel) {
      if (QWidget* w = valueWidget(watched)) {
        const bool takes = !qobject_cast<QComboBox*>(w) && w->hasFocus();
        if (!takes) {
          // ignored and filtered: QApplication hands the event on up the parent chain, to the
          // scroll area around the page
          event->ignore();
          return true;
        }
      }
    }
    return QObject::eventFilter(watched, event);
  }
};

bool isUndoOrRedo(const QKeyEvent* key) {
  const QKeyCombination combination = key->keyCombination();
  const QKeySequence pressed(combination);
  for (QKeySequence::StandardKey k : {QKeySequence::Undo, QKeySequence::Redo})
    for (const QKeySequence& s : QKeySequence::keyBindings(k))
      if (s == pressed) return true;
  return false;
}

// True when `pressed` is one of `window`'s enabled action shortcuts and a text field would use it
// for nothing but moving its cursor (Ctrl+E: end of line), never for an edit of its text.
bool isWindowShortcutTheFieldOnlyMovesBy(const QKeySequence& pressed, const QWidget* window) {
  bool moves = false;
  for (QKeySequence::StandardKey k :
       {QKeySequence::MoveToEndOfLine, QKeySequence::MoveToStartOfLine, QKeySequence::MoveToNextChar,
        QKeySequence::MoveToPreviousChar, QKeySequence::MoveToNextLine, QKeySequence::MoveToPreviousLine})
    for (const QKeySequence& s : QKeySequence::keyBindings(k)) moves = moves || s == pressed;
  if (!moves) return false;
  for (const QAction* a : window->findChildren<QAction*>())
    if (a->isEnabled() && a->shortcuts().contains(pressed)) return true;
  return false;
}

// The window a widget belongs to for the Edit actions: the main window itself also for a field
// in a floating dock (a window of its own, parented to it), not for a dialog.
bool belongsTo(const QWidget* w, const QWidget* window) {
  for (; w; w = w->parentWidget()) {
    if (w == window) return true;
    if (w->isWindow() && w->windowType() == Qt::Dialog) return false;
  }
  return false;
}

class UndoRouter : public QObject {
 public:
  explicit UndoRouter(QWidget* window) : QObject(window), window_(window) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::ShortcutOverride) {
      auto* key = static_cast<QKeyEvent*>(event);
      auto* w = qobject_cast<QWidget*>(watched);
      const bool route =
          key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier) &&
          (isUndoOrRedo(key) || isWindowShortcutTheFieldOnlyMovesBy(QKeySequence(key->keyCombination()), window_));
      if (w && route && belongsTo(w, window_)) {
        // not overridden: the key goes to the window's shortcut, not to the field's own undo
        event->ignore();
        return true;
      }
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  QWidget* window_;
};

}  // namespace

void installWheelGuard() {
  static QPointer<WheelGuard> guard;
  if (guard || !qApp) return;
  guard = new WheelGuard(qApp);
  qApp->installEventFilter(guard);
}

void routeUndoShortcutsTo(QWidget* window) { qApp->installEventFilter(new UndoRouter(window)); }

QPointer<QWidget> commitFocusedField(QWidget* window) {
  QPointer<QWidget> field = QApplication::focusWidget();
  if (!field || !belongsTo(field, window)) return nullptr;
  field->clearFocus();  // the field commits as on leaving it
  if (field && field->isVisible()) field->setFocus(Qt::OtherFocusReason);
  return field;
}

}  // namespace kt::ui
