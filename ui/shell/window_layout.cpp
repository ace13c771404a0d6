// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/window_layout.hpp"

#include <QDataStream>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenuBar>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <algorithm>

#include "ui/shared/status_message.hpp"

namespace kt::ui {

namespace {

// The Plots dock's share of the height the docks have: three panes of 160 px or more at 1600 × 1000.
constexpr int kPlotsPercent = 58;

// True when `geometry` is a whole QWidget::saveGeometry() record (versions 1 to 3) with valid
// rectangles: QWidget::restoreGeometry() accepts records cut short.
bool completeGeometry(const QByteArray& geometry) {
  QDataStream in(geometry);
  in.setVersion(QDataStream::Qt_4_0);
  quint32 magic = 0;
  quint16 major = 0;
  quint16 minor = 0;
  in >> magic >> major >> minor;
  if (magic != 0x1D9D0CB || major < 1 || major > 3) return false;
  QRect frame;
  QRect normal;
  qint32 screen = 0;
  quint8 maximized = 0;
  quint8 fullScreen = 0;
  in >> frame >> normal >> screen >> maximized >> fullScreen;
  if (major > 1) {
    qint32 screenWidth = 0;
    in >> screenWidth;
  }
  if (major > 2) {
    QRect screenGeometry;
    in >> screenGeometry;
  }
  return in.status() == QDataStream::Ok && frame.isValid() && normal.isValid();
}

}  // namespace

WindowLayout::WindowLayout(QMainWindow* window, Docks docks) : QObject(window), window_(window), docks_(docks) {
  window_->installEventFilter(this);
}

void WindowLayout::showMessage(const QString& message) const {
  window_->statusBar()->showMessage(message, kStatusMessageMs);
}

void WindowLayout::startFromSettings() {
  // The first start: most of the screen, never more than it (a 1366 × 768 laptop included).
  const QSize screen = window_->screen()->availableGeometry().size();
  window_->resize(
      QSize(screen.width() * 9 / 10, screen.height() * 9 / 10).expandedTo(QSize(1024, 640)).boundedTo(screen));
  applyDefaultDockSizes();
  defaultState_ = window_->saveState();
  QSettings settings;
  const QByteArray savedState = settings.value(QStringLiteral("mainWindow/state")).toByteArray();
  const bool restored = restoreLayout(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray(), savedState);
  // the default docks are sized again for the window as it first shows (eventFilter)
  sizeDocksWhenShown_ = !restored || savedState.isEmpty();
  if (!restored) {
    layoutMessage_ = tr("The saved window layout could not be restored: the default layout is used");
    // After the first model's message (main() opens it before the event loop starts).
    QTimer::singleShot(0, this, [this] { showMessage(layoutMessage_); });
  }
}

void WindowLayout::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("mainWindow/geometry"), window_->saveGeometry());
  settings.setValue(QStringLiteral("mainWindow/state"), window_->saveState());
}

int WindowLayout::dockRoomHeight() const {
  int height = window_->height() - window_->menuBar()->sizeHint().height() - window_->statusBar()->sizeHint().height();
  for (QToolBar* bar : window_->findChildren<QToolBar*>())
    if (!bar->isHidden() &&
        (window_->toolBarArea(bar) == Qt::TopToolBarArea || window_->toolBarArea(bar) == Qt::BottomToolBarArea))
      height -= bar->sizeHint().height();
  return height;
}

int WindowLayout::defaultColumnWidth() const { return std::clamp(window_->width() / 5, 240, 380); }

void WindowLayout::applyDefaultDockSizes() {
  const int height = dockRoomHeight();
  const int side = defaultColumnWidth();
  window_->resizeDocks({docks_.tree, docks_.problems}, {side, side}, Qt::Horizontal);
  // the tree keeps room for ten bodies or more below its find box and path line; the Properties
  // dock, where a model is built, gets the rest
  window_->resizeDocks({docks_.tree, docks_.properties}, {height * 36 / 100, height * 64 / 100}, Qt::Vertical);
  window_->resizeDocks({docks_.plots}, {height * kPlotsPercent / 100}, Qt::Vertical);
}

void WindowLayout::resetLayout() {
  window_->restoreState(defaultState_);  // which docks show, where, and which tab is in front
  applyDefaultDockSizes();
  QSettings().remove(QStringLiteral("mainWindow/state"));
  layoutMessage_.clear();
  showMessage(tr("The default layout is back"));
}

bool WindowLayout::eventFilter(QObject* watched, QEvent* event) {
  if (watched != window_ || event->type() != QEvent::Resize) return false;
  const QSize size = static_cast<QResizeEvent*>(event)->size();
  const QSize was = shownSize_;
  shownSize_ = size;
  // the first size a shown window gets counts as growth: a restored layout may be a squeezed one
  const bool grew = !was.isValid() || size.width() > was.width() || size.height() > was.height();
  if (!grew || growPending_) return false;
  growPending_ = true;
  // once the layout has the new size (the maximising resizes come in several steps)
  QTimer::singleShot(0, this, [this] {
    growPending_ = false;
    if (sizeDocksWhenShown_ && window_->isVisible()) {
      sizeDocksWhenShown_ = false;
      applyDefaultDockSizes();
      return;
    }
    growSqueezedDocks();
  });
  return false;
}

void WindowLayout::growSqueezedDocks() {
  if (!window_->isVisible()) return;
  const int side = defaultColumnWidth();
  const int across = dockRoomHeight() * kPlotsPercent / 100;
  // the largest extent of the docks in each area: a column is as wide as its widest dock
  const Qt::DockWidgetArea areas[] = {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea, Qt::TopDockWidgetArea,
                                      Qt::BottomDockWidgetArea};
  for (Qt::DockWidgetArea area : areas) {
    const bool column = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
    QDockWidget* widest = nullptr;
    int extent = 0;
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
      if (!dock->isVisible() || dock->isFloating() || window_->dockWidgetArea(dock) != area) continue;
      const int e = column ? dock->width() : dock->height();
      if (widest == nullptr || e > extent) {
        widest = dock;
        extent = e;
      }
    }
    // squeezed: under two fifths of the default (a dock squeezed to its minimum is 60–120 px)
    const int wanted = column ? side : across;
    if (widest != nullptr && extent < wanted * 2 / 5)
      window_->resizeDocks({widest}, {wanted}, column ? Qt::Horizontal : Qt::Vertical);
  }
}

bool WindowLayout::restoreLayout(const QByteArray& savedGeometry, const QByteArray& savedState) {
  if (savedGeometry.isEmpty() && savedState.isEmpty()) return true;  // a first start: the default layout
  const QByteArray defaultState = window_->saveState();
  const QRect defaultGeometry = window_->geometry();
  bool ok = savedGeometry.isEmpty() || (completeGeometry(savedGeometry) && window_->restoreGeometry(savedGeometry));
  // The normal (not maximised) frame must be on a screen and fit its available area.
  if (ok && !savedGeometry.isEmpty()) {
    const QRect frame = window_->normalGeometry();
    const QScreen* screen = QGuiApplication::screenAt(frame.center());
    ok = screen != nullptr && frame.isValid() && frame.width() <= screen->availableGeometry().width() &&
         frame.height() <= screen->availableGeometry().height() && screen->availableGeometry().intersects(frame);
  }
  // Restore the docks onto the window in its normal state. Restored onto a hidden window that is
  // about to be maximised, a state that does not fit the normal size is kept by QMainWindow and
  // applied again during the maximising resizes, with layout items that no longer exist by then
  // (the crash on start after a session that was made smaller than its minimum and maximised).
  // The maximised state comes back afterwards, as a user's resize would.
  const Qt::WindowStates states = window_->windowState();
  if (ok && (states & (Qt::WindowMaximized | Qt::WindowFullScreen)))
    window_->setWindowState(states & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
  if (ok && !savedState.isEmpty()) ok = window_->restoreState(savedState);
  if (ok) {
    window_->setWindowState(states);
    return true;
  }
  // Something is off: the default layout, in full (a failed restoreState keeps the old state).
  window_->setWindowState(Qt::WindowNoState);
  window_->restoreState(defaultState);
  window_->setGeometry(defaultGeometry);
  return false;
}

}  // namespace kt::ui
