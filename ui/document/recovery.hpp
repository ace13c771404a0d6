// SPDX-License-Identifier: BSD-3-Clause
// Autosave and crash recovery. While the document is modified, every interval (60 s by
// default) the Autosaver writes the model to a recovery file in
// QStandardPaths::AppDataLocation/recovery (atomically: Document::writeModelFile). The file is the
// canonical YAML preceded by comment lines naming the original file, so it is also a readable
// model file. It is removed when the document is saved, replaced (new/open) or closed normally;
// after a crash it stays, and findRecoveries() offers it at the next start. While the file exists
// its process holds an exclusive lock on "<file>.lock" (flock), which the kernel releases when the
// process ends: a file whose lock is free belongs to no running session.
#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace kt::ui {

class Document;

struct RecoveryEntry {
  QString recoveryFile;  ///< the autosaved copy
  QString originalPath;  ///< the document's file, empty for a never-saved document
  QString modelName;
  QDateTime saved;
};

class Autosaver : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultIntervalMs = 60'000;

  explicit Autosaver(Document* document);
  ~Autosaver() override;

  /// Default: AppDataLocation + "/recovery". Tests point it at a temporary directory.
  static QString defaultDirectory();
  void setDirectory(const QString& dir);
  const QString& directory() const { return dir_; }
  void setInterval(int ms) { timer_.setInterval(ms); }
  int interval() const { return timer_.interval(); }
  /// The recovery file of this document (unique per process and document; a file of that name
  /// left by another session makes the first write choose another name).
  const QString& recoveryFile() const { return file_; }

  /// Writes the recovery file now if the document changed since the last write and is modified.
  /// Returns true when the file is up to date.
  bool autosaveNow();
  /// Removes this document's recovery file.
  void discard();

  /// Recovery files left by documents that are not open in a running process, newest first.
  static QList<RecoveryEntry> findRecoveries(const QString& dir = defaultDirectory());
  /// Loads a recovery file into `document` (modified, path = the original file). The document
  /// then autosaves to its own recovery file at once and the old one is removed.
  static bool restore(Document& document, const RecoveryEntry& entry, QString* error = nullptr);
  /// Deletes a recovery file the user declined.
  static void discardRecovery(const RecoveryEntry& entry);

 private:
  void changed();
  Document* doc_;
  QTimer timer_;
  QString dir_;
  QString file_;
  quint64 generation_ = 0;       // bumped on every document change
  quint64 savedGeneration_ = 0;  // generation the recovery file holds
  bool hasFile_ = false;
  int lockFd_ = -1;  // the flock on the recovery file's lock, held while the file exists
};

}  // namespace kt::ui
