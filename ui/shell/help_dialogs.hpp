// SPDX-License-Identifier: BSD-3-Clause
// The Help menu and its windows: the user manual, the keyboard shortcuts, About.
//
// The manual is docs/*.md as the package installs it (installer/CMakeLists.txt: the documents
// and their images in share/doc/kinetree), read in the application: a QTextBrowser renders the
// Markdown (QTextDocument's Markdown reader), so no viewer for .md files needs to be installed,
// and links from one document to another open there. Run from a build tree, the source tree's
// docs/ is read instead.
//
// The shortcuts are read from the window's actions when the dialog opens, so the list is always
// the one the menus have.
#pragma once

#include <QDialog>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <vector>

class QAction;
class QLabel;
class QListWidget;
class QMainWindow;
class QMenu;
class QTableWidget;
class QTextBrowser;
class QToolButton;
class QUrl;

namespace kt::ui {

/// The folders the manual is looked for in, in order: the installed documentation relative to
/// the binary (<prefix>/bin → <prefix>/share/doc/kinetree, so a relocated package finds it), the
/// folder the package installs it in, and the source tree's docs/ (a build tree).
QStringList manualSearchFolders();
/// The first of manualSearchFolders() that holds the manual (application.md); empty when none.
QString manualFolder();

class ManualDialog : public QDialog {
  Q_OBJECT

 public:
  /// The manual in `folder` (manualFolder()), opened at application.md.
  explicit ManualDialog(const QString& folder, QWidget* parent = nullptr);

  QTextBrowser* browser() const { return browser_; }
  QListWidget* documentList() const { return documents_; }
  /// Shows `fileName` (a document of the manual's folder, "model-format.md"); false when the
  /// folder has no such document.
  bool showDocument(const QString& fileName);
  /// The document shown (its file name).
  QString currentDocument() const;
  /// A link of the shown document, as a click on it follows it: a document of the manual opens
  /// here, a web address or another local file in the desktop's application for it.
  void followLink(const QUrl& link);

 private:
  /// Images wider than the view are drawn at its width (the screenshots are 1600 px wide).
  void fitImages();

  QString folder_;
  QListWidget* documents_;
  QTextBrowser* browser_;
  QToolButton* back_;
  QToolButton* forward_;
  QLabel* note_;
};

/// One row of the shortcuts list: where the action is ("Edit ▸ Undo") and its keys ("Ctrl+Z").
struct ShortcutEntry {
  QString action;
  QString keys;
};

/// Every action of `window` that has a shortcut: those of its menus in menu order, with their
/// menu path, then any other action under the window that has one.
std::vector<ShortcutEntry> shortcutEntries(QWidget* window);

class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  /// The shortcuts of `window`'s actions (shortcutEntries()); the dialog's parent is `window`.
  explicit ShortcutsDialog(QWidget* window);

  QTableWidget* table() const { return table_; }

 private:
  QTableWidget* table_;
};

/// The Help menu: User Manual (F1), Keyboard Shortcuts, the examples, About.
class HelpMenu : public QObject {
  Q_OBJECT

 public:
  /// Adds the Help menu to `window`'s menu bar, with `examples` (File ▸ Examples) in it.
  HelpMenu(QMenu* examples, QMainWindow* window);

  QMenu* menu() const { return menu_; }
  /// Help ▸ User Manual: the installed documentation (docs/), read in the application; not
  /// modal, so it can be read beside the window.
  void showManual();
  /// Help ▸ Keyboard Shortcuts: every action of the window that has a shortcut.
  void showShortcuts();
  void showAbout();

 private:
  QMainWindow* window_;
  QMenu* menu_;
  QPointer<QDialog> manual_;
};

}  // namespace kt::ui
