// SPDX-License-Identifier: BSD-3-Clause
#include "ui/document/recovery.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QUrl>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <exception>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#endif

#include "core/io/atomic_file.hpp"
#include "core/io/model_yaml.hpp"
#include "ui/document/document.hpp"

namespace kt::ui {
namespace {

constexpr const char* kMagic = "# kinetree recovery file";
constexpr const char* kOriginal = "# original: ";
constexpr const char* kSaved = "# saved: ";
constexpr const char* kPid = "# pid: ";

std::atomic<int> g_serial{0};

// The lock next to a recovery file. Its writer holds an exclusive flock on it while the document
// is open; the kernel releases it when the process ends, however it ends. A recorded pid cannot
// tell this: in a pid namespace every session is pid 1, and pids are reused after a reboot.
QString lockFileOf(const QString& recoveryFile) { return recoveryFile + QStringLiteral(".lock"); }

// Takes the lock of `recoveryFile` for this process: an open descriptor holding the flock, or −1
// when another process holds it.
int takeLock(const QString& recoveryFile) {
#ifdef Q_OS_UNIX
  const QByteArray name = QFile::encodeName(lockFileOf(recoveryFile));
  const int fd = ::open(name.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
#else
  Q_UNUSED(recoveryFile);
  return 0;  // no lock here: every recovery file is offered
#endif
}

// Removes the lock file and then releases the lock (in this order, so that nobody takes a lock on
// a file that is about to disappear).
void releaseLock(const QString& recoveryFile, int& fd) {
  if (fd < 0) return;
  QFile::remove(lockFileOf(recoveryFile));
#ifdef Q_OS_UNIX
  ::close(fd);
#endif
  fd = -1;
}

// A recovery file name: the pid and a serial number, which are unique in one pid namespace, and a
// random part, as sessions in different namespaces (containers, Flatpak) can have the same pid.
QString freshFileName() {
  return QStringLiteral("doc-%1-%2-%3.kinetree-recovery.yaml")
      .arg(QCoreApplication::applicationPid())
      .arg(++g_serial)
      .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

// True when a running process (this one included) holds the lock of `recoveryFile`.
bool lockHeld(const QString& recoveryFile) {
#ifdef Q_OS_UNIX
  const QByteArray name = QFile::encodeName(lockFileOf(recoveryFile));
  const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // no lock file: nobody holds it
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // releases the lock if this test took it
  return held;
#else
  Q_UNUSED(recoveryFile);
  return false;
#endif
}

}  // namespace

Autosaver::Autosaver(Document* document) : QObject(document), doc_(document) {
  dir_ = defaultDirectory();
  file_ = QStringLiteral("%1/%2").arg(dir_, freshFileName());
  timer_.setInterval(kDefaultIntervalMs);
  connect(&timer_, &QTimer::timeout, this, [this] { autosaveNow(); });
  connect(document, &Document::changed, this, [this] { changed(); });
  timer_.start();
}

Autosaver::~Autosaver() { releaseLock(file_, lockFd_); }

QString Autosaver::defaultDirectory() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

void Autosaver::setDirectory(const QString& dir) {
  discard();
  dir_ = dir;
  file_ = QStringLiteral("%1/%2").arg(dir_, QFileInfo(file_).fileName());
}

void Autosaver::changed() { ++generation_; }

bool Autosaver::autosaveNow() {
  if (!doc_->isModified()) return true;
  if (hasFile_ && savedGeneration_ == generation_) return true;
  QDir().mkpath(dir_);
  // The lock first: the file is never on disk without it while this process lives.
  // A file of that name that this process did not write is another session's: a new name then.
  for (int attempt = 0; lockFd_ < 0 && attempt < 100; ++attempt) {
    if (!QFile::exists(file_) && !QFile::exists(lockFileOf(file_))) lockFd_ = takeLock(file_);
    if (lockFd_ < 0) file_ = QStringLiteral("%1/%2").arg(dir_, freshFileName());
  }
  const QString header =
      QStringLiteral("%1\n%2%3\n%4%5\n%6%7\n")
          .arg(QLatin1String(kMagic), QLatin1String(kOriginal),
               QString::fromLatin1(QUrl::toPercentEncoding(doc_->filePath(), "/")), QLatin1String(kSaved),
               QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs), QLatin1String(kPid))
          .arg(QCoreApplication::applicationPid());
  if (!Document::writeModelFile(doc_->model(), file_, nullptr, header)) return false;
  hasFile_ = true;
  savedGeneration_ = generation_;
  return true;
}

void Autosaver::discard() {
  if (QFile::exists(file_)) QFile::remove(file_);
  releaseLock(file_, lockFd_);
  hasFile_ = false;
}

QList<RecoveryEntry> Autosaver::findRecoveries(const QString& dir) {
  // the half-written autosaves of sessions killed while writing one: never a recovery to offer
  kt::removeStaleTemporaries(QFile::encodeName(dir).toStdString());
  QList<RecoveryEntry> out;
  const QFileInfoList files =
      QDir(dir).entryInfoList({QStringLiteral("*.kinetree-recovery.yaml")}, QDir::Files, QDir::Time);
  for (const QFileInfo& info : files) {
    QFile f(info.absoluteFilePath());
    if (!f.open(QIODevice::ReadOnly)) continue;
    if (f.readLine().trimmed() != kMagic) continue;
    RecoveryEntry e;
    e.recoveryFile = info.absoluteFilePath();
    while (!f.atEnd()) {
      const QByteArray line = f.readLine().trimmed();
      if (!line.startsWith('#')) {
        if (line.startsWith("name:")) e.modelName = QString::fromUtf8(line.mid(5).trimmed());
        if (line.startsWith("bodies")) break;
        continue;
      }
      if (line.startsWith(kOriginal))
        e.originalPath = QUrl::fromPercentEncoding(line.mid(static_cast<qsizetype>(qstrlen(kOriginal))));
      else if (line.startsWith(kSaved))
        e.saved = QDateTime::fromString(QString::fromLatin1(line.mid(static_cast<qsizetype>(qstrlen(kSaved)))),
                                        Qt::ISODateWithMs);
    }
    // A record of an older version may hold a path relative to a working directory nobody knows:
    // saving to it from here could overwrite an unrelated file, so it is offered as unsaved.
    if (!e.originalPath.startsWith(QLatin1Char(':')) && !QDir::isAbsolutePath(e.originalPath)) e.originalPath.clear();
    // Files of documents open right now (in this process or another running one) are not offered.
    if (lockHeld(e.recoveryFile)) continue;
    out.append(e);
  }
  return out;
}

bool Autosaver::restore(Document& document, const RecoveryEntry& entry, QString* error) {
  QFile f(entry.recoveryFile);
  if (!f.open(QIODevice::ReadOnly)) {
    if (error) *error = entry.recoveryFile + QStringLiteral(": cannot read: ") + f.errorString();
    return false;
  }
  const QByteArray bytes = f.readAll();
  kt::Model model;
  try {
    // An autosaved model may have had problems the user was fixing: restore it with them.
    std::vector<kt::Diagnostic> problems;
    model = kt::loadModelForEditingFromString(bytes.toStdString(), entry.recoveryFile.toStdString(), problems);
  } catch (const kt::ModelLoadError& e) {
    if (error) *error = QString::fromStdString(kt::formatDiagnostics(e.diagnostics())).trimmed();
    return false;
  }
  if (!entry.originalPath.isEmpty()) model.sourceDirectory = QFileInfo(entry.originalPath).absolutePath().toStdString();
  document.setModel(model, entry.originalPath);
  // Restored work is unsaved: the clean state is unreachable until the next save.
  document.undoStack()->resetClean();
  // The restored document has its own recovery file from now on; the old one goes once that is written.
  if (document.autosaver()->autosaveNow()) discardRecovery(entry);
  return true;
}

void Autosaver::discardRecovery(const RecoveryEntry& entry) {
  QFile::remove(entry.recoveryFile);
  QFile::remove(lockFileOf(entry.recoveryFile));  // left behind by the session that crashed
}

}  // namespace kt::ui
