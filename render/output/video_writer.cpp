// SPDX-License-Identifier: BSD-3-Clause
#include "render/output/video_writer.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/io/atomic_file.hpp"
#include "render/output/atomic_write.hpp"

namespace kt::render {

namespace {

std::string averror(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

}  // namespace

// FFmpeg's state for one MP4 file.
struct VideoWriter::Encoder {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* scale = nullptr;
  QString tempPath;

  ~Encoder() {
    sws_freeContext(scale);
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&codec);
    if (format) {
      if (format->pb) avio_closep(&format->pb);
      avformat_free_context(format);
    }
  }

  // Sends `f` (null: flush) and writes every packet the encoder has ready.
  void encode(AVFrame* f) {
    int rc = avcodec_send_frame(codec, f);
    if (rc < 0) throw std::runtime_error("video encoder: " + averror(rc));
    for (;;) {
      rc = avcodec_receive_packet(codec, packet);
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return;
      if (rc < 0) throw std::runtime_error("video encoder: " + averror(rc));
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      rc = av_interleaved_write_frame(format, packet);
      if (rc < 0) throw std::runtime_error("writing the video: " + averror(rc));
    }
  }
};

QString VideoWriter::pngFramePath(const QString& path, int index) {
  const QFileInfo info(path);
  return info.dir().filePath(
      QStringLiteral("%1_%2.png").arg(info.completeBaseName()).arg(index, 5, 10, QLatin1Char('0')));
}

VideoWriter::VideoWriter(const QString& path, int width, int height, double framesPerSecond)
    : path_(path), size_(std::max(2, width - width % 2), std::max(2, height - height % 2)) {
  png_ = QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0;
  if (png_) {
    if (!QFileInfo(QFileInfo(path).absolutePath()).isDir())
      throw std::runtime_error("no such folder: " + QFileInfo(path).absolutePath().toStdString());
    frameSet_ = std::make_unique<StagedFileSet>(QFile::encodeName(QFileInfo(path).absolutePath()).toStdString());
    return;
  }
  av_log_set_level(AV_LOG_ERROR);  // the encoder's statistics are not for the user's terminal
  if (!(framesPerSecond > 0.0 && framesPerSecond <= 240.0))
    throw std::runtime_error("the frame rate must lie in (0, 240] frames per second");
  // The encoder writes a temporary file beside the target (AtomicFile), renamed over it by finish().
  file_ = std::make_unique<AtomicFile>(QFile::encodeName(path).toStdString());
  file_->handOver();
  try {
    open(QFile::decodeName(file_->writePath().c_str()), framesPerSecond);
  } catch (...) {
    encoder_.reset();  // closes the file before file_ removes it
    throw;
  }
}

void VideoWriter::open(const QString& tempPath, double framesPerSecond) {
  encoder_ = std::make_unique<Encoder>();  // owned from here: a throw below closes what it opened
  Encoder* e = encoder_.get();
  e->tempPath = tempPath;
  const std::string temp = e->tempPath.toStdString();
  int rc = avformat_alloc_output_context2(&e->format, nullptr, "mp4", temp.c_str());
  if (rc < 0 || !e->format) throw std::runtime_error("cannot make an MP4 file: " + averror(rc));
  const AVCodec* h264 = avcodec_find_encoder(AV_CODEC_ID_H264);
  if (!h264) throw std::runtime_error("this FFmpeg has no H.264 encoder (libx264)");
  e->stream = avformat_new_stream(e->format, nullptr);
  e->codec = avcodec_alloc_context3(h264);
  if (!e->stream || !e->codec) throw std::runtime_error("out of memory for the video encoder");
  // the frame rate as a rational: whole rates exactly, others to 1/1000
  const AVRational rate = std::abs(framesPerSecond - std::round(framesPerSecond)) < 1e-9
                              ? AVRational{static_cast<int>(std::round(framesPerSecond)), 1}
                              : AVRational{static_cast<int>(std::round(framesPerSecond * 1000.0)), 1000};
  e->codec->codec_id = AV_CODEC_ID_H264;
  e->codec->width = size_.width();
  e->codec->height = size_.height();
  e->codec->pix_fmt = AV_PIX_FMT_YUV420P;
  e->codec->time_base = av_inv_q(rate);
  e->codec->framerate = rate;
  e->codec->gop_size = 2 * static_cast<int>(std::ceil(framesPerSecond));
  if (e->format->oformat->flags & AVFMT_GLOBALHEADER) e->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  av_opt_set(e->codec->priv_data, "preset", "medium", 0);
  av_opt_set(e->codec->priv_data, "crf", "20", 0);  // visually lossless for lines and text
  rc = avcodec_open2(e->codec, h264, nullptr);
  if (rc < 0) throw std::runtime_error("cannot open the H.264 encoder: " + averror(rc));
  rc = avcodec_parameters_from_context(e->stream->codecpar, e->codec);
  if (rc < 0) throw std::runtime_error("video stream: " + averror(rc));
  e->stream->time_base = e->codec->time_base;
  e->stream->avg_frame_rate = rate;
  rc = avio_open(&e->format->pb, temp.c_str(), AVIO_FLAG_WRITE);
  if (rc < 0) throw std::runtime_error("cannot write " + path_.toStdString() + ": " + averror(rc));
  rc = avformat_write_header(e->format, nullptr);
  if (rc < 0) throw std::runtime_error("cannot write the MP4 header: " + averror(rc));
  e->frame = av_frame_alloc();
  e->packet = av_packet_alloc();
  if (!e->frame || !e->packet) throw std::runtime_error("out of memory for the video encoder");
  e->frame->format = AV_PIX_FMT_YUV420P;
  e->frame->width = size_.width();
  e->frame->height = size_.height();
  rc = av_frame_get_buffer(e->frame, 0);
  if (rc < 0) throw std::runtime_error("video frame: " + averror(rc));
  e->scale = sws_getContext(size_.width(), size_.height(), AV_PIX_FMT_RGB32, size_.width(), size_.height(),
                            AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
  if (!e->scale) throw std::runtime_error("cannot convert frames to YUV 4:2:0");
}

VideoWriter::~VideoWriter() {
  encoder_.reset();  // closes the file; file_ and frameSet_ then remove what was not finished
}

void VideoWriter::add(const QImage& image) {
  const QImage frame =
      (image.size() == size_ ? image : image.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation))
          .convertToFormat(QImage::Format_RGB32);
  ++frames_;
  if (png_) {
    // into the set's temporary folder: the old sequence stays until every frame was written
    const QString name = QFileInfo(pngFramePath(path_, frames_)).fileName();
    const QString file = QFile::decodeName(frameSet_->stagingPath(QFile::encodeName(name).toStdString()).c_str());
    QString error;
    if (!saveImage(frame, file, &error))
      throw std::runtime_error(error.replace(file, pngFramePath(path_, frames_)).toStdString());
    return;
  }
  Encoder& e = *encoder_;
  int rc = av_frame_make_writable(e.frame);
  if (rc < 0) throw std::runtime_error("video frame: " + averror(rc));
  const uint8_t* src[1] = {frame.constBits()};
  const int stride[1] = {static_cast<int>(frame.bytesPerLine())};
  sws_scale(e.scale, src, stride, 0, size_.height(), e.frame->data, e.frame->linesize);
  e.frame->pts = frames_ - 1;
  e.encode(e.frame);
}

void VideoWriter::finish() {
  if (finished_) return;
  if (png_) {
    frameSet_->commit();
  } else {
    Encoder& e = *encoder_;
    e.encode(nullptr);
    int rc = av_write_trailer(e.format);
    if (rc < 0) throw std::runtime_error("cannot finish the MP4 file: " + averror(rc));
    rc = avio_closep(&e.format->pb);  // the last buffered bytes: a full disk shows here
    if (rc < 0) throw std::runtime_error("cannot write " + path_.toStdString() + ": " + averror(rc));
    encoder_.reset();
    // synced and renamed over the target in one step: an old file is never lost to a failed export
    file_->commit();
  }
  finished_ = true;
}

}  // namespace kt::render
