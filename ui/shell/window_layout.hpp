// SPDX-License-Identifier: BSD-3-Clause
// Where the docks are and how large: the default layout (each side column about a fifth of the
// width, the Plots dock a little over half the height), the saved one (QSettings
// mainWindow/geometry and mainWindow/state, restored only when it is whole and fits a screen),
// View ▸ Reset Layout, and docks squeezed by a smaller window that get their room back when it
// grows (docs/application.md, "The window").
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>
#include <QString>

class QDockWidget;
class QMainWindow;

namespace kt::ui {

class WindowLayout : public QObject {
  Q_OBJECT

 public:
  /// The docks whose sizes the default layout sets.
  struct Docks {
    QDockWidget* tree = nullptr;
    QDockWidget* properties = nullptr;
    QDockWidget* problems = nullptr;
    QDockWidget* plots = nullptr;
  };
  WindowLayout(QMainWindow* window, Docks docks);

  /// Takes the window's present docks as the default layout (Reset Layout goes back to it), at
  /// sizes for most of the screen, then restores the saved layout.
  void startFromSettings();
  /// Saves the geometry and the docks for the next start.
  void saveSettings() const;
  /// Restores a saved geometry and dock state (QMainWindow::saveGeometry, saveState); empty
  /// arrays keep the default. Anything that cannot be restored safely (unreadable, off the
  /// screens, larger than the screen) leaves the default layout in full and returns false.
  bool restoreLayout(const QByteArray& savedGeometry, const QByteArray& savedState);
  /// Why the saved layout was not used at the start (empty when it was).
  const QString& layoutMessage() const { return layoutMessage_; }
  /// View ▸ Reset Layout: the default docks, where they start, at sizes that suit the window's
  /// present size; the saved layout is forgotten (a broken one does not come back).
  void resetLayout();
  /// The docks' default sizes for the window's present size: each side column about a fifth of
  /// the width, the Model dock a third of its column, the Plots dock a little over half the
  /// height (three panes of at least 160 px at 1600 × 1000). The default layout gets them when
  /// the window first shows, and Reset Layout.
  void applyDefaultDockSizes();

 protected:
  /// A window that grows gives docks squeezed by a smaller size their default share back.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  /// Docks squeezed far below their default size (by a smaller window, a smaller screen) get it
  /// back; docks the user merely narrowed keep their size.
  void growSqueezedDocks();
  /// The height the docks share (the window less its menu bar, status bar and toolbars), and the
  /// default width of a dock column: the measures of applyDefaultDockSizes().
  int dockRoomHeight() const;
  int defaultColumnWidth() const;
  void showMessage(const QString& message) const;

  QMainWindow* window_;
  Docks docks_;
  QString layoutMessage_;
  QByteArray defaultState_;  ///< saveState() of the default layout (Reset Layout)
  QSize shownSize_;          ///< the size of the last resize event: growth is measured from it
  bool growPending_ = false;
  bool sizeDocksWhenShown_ = false;  ///< the default layout: its sizes follow the first shown size
};

}  // namespace kt::ui
