// SPDX-License-Identifier: BSD-3-Clause
// Writes frames (QImages of one size) as a video file: MP4 with H.264 through FFmpeg's libraries
// (libavformat, libavcodec with libx264, libswscale; yuv420p, which every player and slide deck
// takes), or as a numbered PNG sequence (name_00001.png, …) when the path ends in ".png".
//
// An MP4 is written to a temporary file beside the target and renamed over it by finish()
// (AtomicFile, core/io/atomic_file.hpp); a PNG sequence's frames are written into a temporary
// folder and moved in by finish() (StagedFileSet). A cancelled or failed export leaves no partial
// file and the old video or frames as they were.
#pragma once

#include <QImage>
#include <QString>
#include <memory>

namespace kt {
class AtomicFile;
class StagedFileSet;
}  // namespace kt

namespace kt::render {

class VideoWriter {
 public:
  /// width and height are made even (H.264 with 4:2:0 chroma needs it): frames are scaled to
  /// size(). Throws std::runtime_error when the file or the encoder cannot be opened.
  VideoWriter(const QString& path, int width, int height, double framesPerSecond);
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  QSize size() const { return size_; }
  /// Appends a frame. Throws std::runtime_error on an encoder or write error.
  void add(const QImage& frame);
  /// Flushes the encoder and closes (renames) the file. Throws std::runtime_error on failure.
  void finish();
  int frames() const { return frames_; }
  /// True when the output is a PNG sequence.
  bool pngSequence() const { return png_; }
  /// The file of PNG frame `index` (from 1) of a sequence written to `path`.
  static QString pngFramePath(const QString& path, int index);

 private:
  struct Encoder;
  /// Sets up the MP4 encoder writing to `tempPath` (encoder_ owns what it opens as it goes).
  void open(const QString& tempPath, double framesPerSecond);
  QString path_;
  QSize size_;
  bool png_ = false;
  int frames_ = 0;
  bool finished_ = false;
  std::unique_ptr<AtomicFile> file_;         ///< the MP4 being written
  std::unique_ptr<StagedFileSet> frameSet_;  ///< the PNG frames being written
  std::unique_ptr<Encoder> encoder_;
};

}  // namespace kt::render
