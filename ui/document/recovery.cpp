#include "ui/document/recovery.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUrl>
#include <algorithm>
#include <atomic>
#include <exception>

#include "core/io/model_yaml.hpp"
#include "ui/document/document.hpp"

namespace kt::ui {
namespace {

constexpr const char* kMagic = "# kinetree recovery file";
constexpr const char* kOriginal = "# original: ";
constexpr const char* kSaved = "# saved: ";
constexpr const char* kPid = "# pid: ";

std::atomic<int> g_serial{0};

// True when a process with this id is running (Linux /proc; elsewhere: assume not).
bool processAlive(qint64 pid) {
  if (pid <= 0) return false;
  if (pid == QCoreApplication::applicationPid()) return true;
  return QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}

}  // namespace

Autosaver::Autosaver(Document* document) : QObject(document), doc_(document) {
  dir_ = defaultDirectory();
  file_ = QStringLiteral("%1/doc-%2-%3.kinetree-recovery.yaml")
              .arg(dir_)
              .arg(QCoreApplication::applicationPid())
              .arg(++g_serial);
  timer_.setInterval(kDefaultIntervalMs);
  connect(&timer_, &QTimer::timeout, this, [this] { autosaveNow(); });
  connect(document, &Document::changed, this, [this] { changed(); });
  timer_.start();
}

Autosaver::~Autosaver() = default;

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
  hasFile_ = false;
}

QList<RecoveryEntry> Autosaver::findRecoveries(const QString& dir) {
  QList<RecoveryEntry> out;
  const QFileInfoList files =
      QDir(dir).entryInfoList({QStringLiteral("*.kinetree-recovery.yaml")}, QDir::Files, QDir::Time);
  for (const QFileInfo& info : files) {
    QFile f(info.absoluteFilePath());
    if (!f.open(QIODevice::ReadOnly)) continue;
    if (f.readLine().trimmed() != kMagic) continue;
    RecoveryEntry e;
    e.recoveryFile = info.absoluteFilePath();
    qint64 pid = 0;
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
      else if (line.startsWith(kPid))
        pid = line.mid(static_cast<qsizetype>(qstrlen(kPid))).toLongLong();
    }
    // Files of documents open right now (this process or another running one) are not offered.
    if (processAlive(pid)) continue;
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

void Autosaver::discardRecovery(const RecoveryEntry& entry) { QFile::remove(entry.recoveryFile); }

}  // namespace kt::ui
