// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/help_dialogs.hpp"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImageReader>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollBar>
#include <QSet>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "core/version.hpp"

namespace kt::ui {

namespace {

// The manual's first page: what the application does and how (docs/application.md).
const QString kFirstPage = QStringLiteral("application.md");

// A document's title: its first "# " heading, or its file name.
QString documentTitle(const QString& path) {
  QFile file(path);
  if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    for (int line = 0; line < 20 && !file.atEnd(); ++line) {
      const QString text = QString::fromUtf8(file.readLine()).trimmed();
      if (text.startsWith(QLatin1String("# "))) return text.mid(2).trimmed();
    }
  }
  return QFileInfo(path).completeBaseName();
}

bool isManualPage(const QUrl& url) {
  return url.isLocalFile() && url.path().endsWith(QLatin1String(".md"), Qt::CaseInsensitive);
}

// A menu entry's text as the user reads it: without the '&' of its access key ("&&" is an '&').
QString plainText(const QString& text) {
  QString out;
  out.reserve(text.size());
  for (qsizetype i = 0; i < text.size(); ++i) {
    if (text[i] == QLatin1Char('&') && i + 1 < text.size()) ++i;
    out += text[i];
  }
  return out;
}

QString keysText(const QList<QKeySequence>& keys) {
  QStringList parts;
  for (const QKeySequence& k : keys)
    if (!k.isEmpty()) parts << k.toString(QKeySequence::NativeText);
  return parts.join(QStringLiteral(", "));
}

void collectMenu(const QList<QAction*>& actions, const QString& path, std::vector<ShortcutEntry>& out,
                 QSet<const QAction*>& seen) {
  for (QAction* a : actions) {
    if (a->isSeparator() || seen.contains(a)) continue;
    seen.insert(a);
    const QString text = plainText(a->text());
    if (QMenu* menu = a->menu()) {
      collectMenu(menu->actions(), path + text + QStringLiteral(" ▸ "), out, seen);
      continue;
    }
    if (const QString keys = keysText(a->shortcuts()); !keys.isEmpty()) out.push_back({path + text, keys});
  }
}

}  // namespace

// ---- the manual ----

QStringList manualSearchFolders() {
  QStringList folders;
  // the binary in <prefix>/bin, the documents in <prefix>/<docdir> (GNUInstallDirs)
  const QString installed = QStringLiteral(KINETREE_INSTALL_DOCDIR);
  if (QDir::isRelativePath(installed))
    folders << QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../") + installed);
  folders << QDir::cleanPath(QStringLiteral(KINETREE_INSTALL_FULL_DOCDIR));
  folders << QDir::cleanPath(QStringLiteral(KINETREE_SOURCE_DOCDIR));
  folders.removeDuplicates();
  return folders;
}

QString manualFolder() {
  for (const QString& folder : manualSearchFolders())
    if (QFileInfo::exists(QDir(folder).filePath(kFirstPage))) return folder;
  return {};
}

ManualDialog::ManualDialog(const QString& folder, QWidget* parent)
    : QDialog(parent),
      folder_(folder),
      documents_(new QListWidget),
      browser_(new QTextBrowser),
      back_(new QToolButton),
      forward_(new QToolButton),
      note_(new QLabel) {
  setObjectName(QStringLiteral("manualDialog"));
  setWindowTitle(tr("Kinetree User Manual"));
  documents_->setObjectName(QStringLiteral("manualDocuments"));
  browser_->setObjectName(QStringLiteral("manualBrowser"));
  browser_->setOpenLinks(false);  // followLink() decides where a link opens
  browser_->setSearchPaths({folder});
  note_->setObjectName(QStringLiteral("manualNote"));
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  note_->setText(tr("From %1").arg(QDir::toNativeSeparators(folder)));

  back_->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
  back_->setToolTip(tr("Back"));
  back_->setEnabled(false);
  forward_->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
  forward_->setToolTip(tr("Forward"));
  forward_->setEnabled(false);

  // the documents: the application's manual first, then the others by title
  QStringList files = QDir(folder).entryList({QStringLiteral("*.md")}, QDir::Files);
  std::vector<std::pair<QString, QString>> entries;  // title, file
  for (const QString& f : files) entries.emplace_back(documentTitle(QDir(folder).filePath(f)), f);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    if ((a.second == kFirstPage) != (b.second == kFirstPage)) return a.second == kFirstPage;
    return QString::localeAwareCompare(a.first, b.first) < 0;
  });
  for (const auto& [title, file] : entries) {
    auto* item = new QListWidgetItem(title, documents_);
    item->setData(Qt::UserRole, file);
    item->setToolTip(file);
  }

  auto* navigation = new QHBoxLayout;
  navigation->addWidget(back_);
  navigation->addWidget(forward_);
  navigation->addWidget(note_, 1);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(documents_);
  split->addWidget(browser_);
  split->setStretchFactor(1, 1);
  split->setSizes({220, 760});
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(navigation);
  layout->addWidget(split, 1);
  layout->addWidget(buttons);
  resize(1000, 720);

  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(back_, &QToolButton::clicked, browser_, &QTextBrowser::backward);
  connect(forward_, &QToolButton::clicked, browser_, &QTextBrowser::forward);
  connect(browser_, &QTextBrowser::backwardAvailable, back_, &QToolButton::setEnabled);
  connect(browser_, &QTextBrowser::forwardAvailable, forward_, &QToolButton::setEnabled);
  connect(browser_, &QTextBrowser::anchorClicked, this, &ManualDialog::followLink);
  // every new page, whether a link, the list or Back and Forward showed it
  connect(browser_, &QTextBrowser::historyChanged, this, [this] {
    fitImages();
    const QString current = currentDocument();
    for (int i = 0; i < documents_->count(); ++i) {
      if (documents_->item(i)->data(Qt::UserRole).toString() != current) continue;
      const QSignalBlocker block(documents_);
      documents_->setCurrentRow(i);
    }
  });
  connect(documents_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item) showDocument(item->data(Qt::UserRole).toString());
  });
  showDocument(kFirstPage);
}

bool ManualDialog::showDocument(const QString& fileName) {
  const QString path = QDir(folder_).filePath(fileName);
  if (!QFileInfo::exists(path)) return false;
  browser_->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
  return true;
}

QString ManualDialog::currentDocument() const { return QFileInfo(browser_->source().toLocalFile()).fileName(); }

void ManualDialog::followLink(const QUrl& link) {
  const QUrl target = browser_->source().resolved(link);
  if (isManualPage(target) && QFileInfo::exists(target.toLocalFile())) {
    browser_->setSource(target, QTextDocument::MarkdownResource);
    return;
  }
  if (target.isLocalFile() && !QFileInfo::exists(target.toLocalFile())) {
    note_->setText(tr("%1 is not installed with the manual").arg(QDir::toNativeSeparators(target.toLocalFile())));
    return;
  }
  if (!QDesktopServices::openUrl(target)) note_->setText(tr("No application opens %1").arg(target.toDisplayString()));
}

void ManualDialog::fitImages() {
  // the view's width less its scroll bar and margins; images keep their aspect (width only)
  const int room = std::max(200, browser_->viewport()->width() - 24);
  QTextDocument* document = browser_->document();
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      if (!fragment.isValid() || !fragment.charFormat().isImageFormat()) continue;
      QTextImageFormat image = fragment.charFormat().toImageFormat();
      const QString path = browser_->source().resolved(QUrl(image.name())).toLocalFile();
      if (path.isEmpty()) continue;
      const QSize size = QImageReader(path).size();
      if (!size.isValid() || size.width() <= room) continue;
      image.setWidth(room);
      QTextCursor cursor(document);
      cursor.setPosition(fragment.position());
      cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
      cursor.setCharFormat(image);
    }
  }
}

// ---- the shortcuts ----

std::vector<ShortcutEntry> shortcutEntries(QWidget* window) {
  std::vector<ShortcutEntry> out;
  QSet<const QAction*> seen;
  if (auto* main = qobject_cast<QMainWindow*>(window)) collectMenu(main->menuBar()->actions(), QString(), out, seen);
  // actions outside the menus (a dock's or a view's own)
  for (QAction* a : window->findChildren<QAction*>()) {
    if (seen.contains(a) || a->isSeparator()) continue;
    seen.insert(a);
    if (const QString keys = keysText(a->shortcuts()); !keys.isEmpty()) out.push_back({plainText(a->text()), keys});
  }
  return out;
}

ShortcutsDialog::ShortcutsDialog(QWidget* window) : QDialog(window), table_(new QTableWidget) {
  setObjectName(QStringLiteral("shortcutsDialog"));
  setWindowTitle(tr("Keyboard Shortcuts"));
  const std::vector<ShortcutEntry> entries = shortcutEntries(window);
  table_->setObjectName(QStringLiteral("shortcutsTable"));
  table_->setColumnCount(2);
  table_->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
  table_->setRowCount(static_cast<int>(entries.size()));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);  // a list, not a form
  table_->setShowGrid(false);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  for (int r = 0; r < static_cast<int>(entries.size()); ++r) {
    table_->setItem(r, 0, new QTableWidgetItem(entries[static_cast<std::size_t>(r)].action));
    table_->setItem(r, 1, new QTableWidgetItem(entries[static_cast<std::size_t>(r)].keys));
  }
  auto* note = new QLabel(
      tr("In the timeline: the arrow keys move one sample, Page Up/Down a twentieth of the run, Home and End to its "
         "ends. In the 3D view: the left button rotates, the middle button (or Shift + left) pans, the right button or "
         "the wheel zooms, Ctrl + left spins; a click selects a body, Ctrl+click selects more."));
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addWidget(note);
  layout->addWidget(buttons);
  resize(560, 720);
}

HelpMenu::HelpMenu(QMenu* examples, QMainWindow* window) : QObject(window), window_(window) {
  menu_ = window->menuBar()->addMenu(tr("&Help"));
  QAction* manual = menu_->addAction(tr("User &Manual"), QKeySequence::HelpContents, this, &HelpMenu::showManual);
  manual->setObjectName(QStringLiteral("manualAction"));
  manual->setStatusTip(tr("The documentation installed with Kinetree: the application, the model format, the signals"));
  QAction* shortcuts = menu_->addAction(tr("&Keyboard Shortcuts"), this, &HelpMenu::showShortcuts);
  shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
  menu_->addMenu(examples);  // the File menu's: a model to start from
  menu_->addSeparator();
  menu_->addAction(tr("&About Kinetree"), this, &HelpMenu::showAbout);
  menu_->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void HelpMenu::showAbout() {
  QMessageBox::about(window_, tr("About Kinetree"),
                     tr("<h3>Kinetree %1</h3>"
                        "<p>Build, simulate and inspect tree-structured rigid multibody systems.</p>"
                        "<p>Built with Qt %2 and VTK.</p>")
                         .arg(QString::fromLatin1(kt::kVersion), QString::fromLatin1(qVersion())));
}

void HelpMenu::showManual() {
  if (!manual_) {
    const QString folder = manualFolder();
    if (folder.isEmpty()) {
      QStringList looked;
      for (const QString& f : manualSearchFolders()) looked << QDir::toNativeSeparators(f);
      QMessageBox::information(window_, tr("User Manual"),
                               tr("The user manual is not installed: none of these folders holds application.md:\n\n%1"
                                  "\n\nIt is part of the Kinetree package, and of its sources (docs/).")
                                   .arg(looked.join(QLatin1Char('\n'))));
      return;
    }
    manual_ = new ManualDialog(folder, window_);  // not modal: read it beside the window
  }
  manual_->show();
  manual_->raise();
  manual_->activateWindow();
}

void HelpMenu::showShortcuts() {
  auto* dialog = new ShortcutsDialog(window_);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

}  // namespace kt::ui
