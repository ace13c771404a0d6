// SPDX-License-Identifier: BSD-3-Clause
// Input that must not edit the model behind the user's back (docs/application.md, "Editing"):
//
// - The mouse wheel over a combo box, a spin box or a slider scrolls the page around it. A spin
//   box or a slider takes the wheel only while it has the keyboard focus, which it gets from a
//   click into it or from Tab, never from the wheel; a combo box never takes it (after a choice
//   from its list it keeps the focus, and the next turn of the wheel over it while scrolling the
//   page would change the choice again, for every selected body). Its list, once open, still
//   scrolls with the wheel.
//   Installed once for the whole application, so every dock and dialog is covered, new ones too.
//
// - Undo and redo act on the model wherever the focus is in the main window: a text field's own
//   undo (which reverted only its text, leaving a value the model does not hold) does not take
//   Ctrl+Z or Ctrl+Shift+Z from the window's Edit actions. The actions first commit what the
//   focused field holds (as leaving the field would), so Undo takes that edit back too and Redo
//   brings it again; text the model cannot take (not a number) is refused with its reason, as on
//   leaving, and dropped. Likewise a window shortcut that a field would take only to move its cursor
//   (on X11 a line edit reads Ctrl+E as "end of line": File ▸ Export Results did nothing while
//   the Model dock's search field had the focus) goes to the window; the field keeps its editing
//   keys (copy, paste, select all, delete).
#pragma once

#include <QPointer>
#include <QWidget>

namespace kt::ui {

/// Installs the wheel rule above on the application (once; later calls do nothing).
void installWheelGuard();

/// Lets `window`'s Edit ▸ Undo/Redo shortcuts, and its other shortcuts that a field would only
/// use to move its cursor, act while a text field inside it (docks included, floating or not)
/// has the focus. Dialogs, which are windows of their own, keep their fields' own keys.
void routeUndoShortcutsTo(QWidget* window);

/// Commits the edit the focused field inside `window` holds, the way leaving it does (the
/// Properties dock's fields and the model tree's rename editor commit when they lose the focus),
/// then gives the focus back if the field is still there. Returns the field, or null.
QPointer<QWidget> commitFocusedField(QWidget* window);

}  // namespace kt::ui
