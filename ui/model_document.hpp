// The open model: the document form (kt::Model), its finalized Tree and where it came from.
// Files on disk and embedded examples (":/examples/…") load the same way. The editor issue adds
// the undo stack here.
#pragma once

#include <QObject>
#include <QString>

#include "core/model/model.hpp"
#include "core/model/tree.hpp"

namespace kt::ui {

class ModelDocument : public QObject {
  Q_OBJECT

 public:
  explicit ModelDocument(QObject* parent = nullptr);

  /// Loads and finalizes a model file or Qt resource. On failure keeps the current model,
  /// returns false and sets `error` to every diagnostic, one per line ("file:line:col: error: …").
  bool load(const QString& path, QString& error);

  bool isEmpty() const { return tree_.nb == 0 && filePath_.isEmpty(); }
  const kt::Model& model() const { return model_; }
  const kt::Tree& tree() const { return tree_; }
  /// The path as given (a file path or ":/examples/…").
  const QString& filePath() const { return filePath_; }
  /// True for models compiled into the binary.
  bool isEmbedded() const { return filePath_.startsWith(QLatin1Char(':')); }
  /// Folder that relative mesh paths refer to (empty for embedded models).
  QString directory() const;
  /// The model's name, or the file name.
  QString displayName() const;

 signals:
  /// A new model replaced the old one (every view rebuilds).
  void modelReplaced();

 private:
  kt::Model model_;
  kt::Tree tree_;
  QString filePath_;
};

}  // namespace kt::ui
