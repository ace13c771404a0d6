// SPDX-License-Identifier: BSD-3-Clause
// A report as a flow of blocks — headings, paragraphs, tables, figures and pictures — and its two
// renderings: a vector PDF (A4, the figures drawn by ChartFigure::paint as the plot export draws
// them, tables split across pages with their header repeated, "page k of n" in the footer) and a
// self-contained HTML page (the figures as inline SVG, the pictures as PNG data, each table with
// a link that downloads it as CSV). Both are made in memory: the caller writes the bytes in one
// atomic step (atomic_write.hpp).
#pragma once

#include <QByteArray>
#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>
#include <vector>

#include "render/charts/chart_figure.hpp"

namespace kt::render {

struct ReportTable {
  QStringList header;
  std::vector<QStringList> rows;
  std::vector<bool> rightAligned;  ///< per column (numbers); missing: left
  std::vector<QColor> rowColors;   ///< per row, the text colour; missing or invalid: black
  QString csvName;                 ///< HTML: the file name of its CSV download (empty: no link)
  QByteArray csv;                  ///< the CSV (full precision), when csvName is set
};

struct ReportBlock {
  enum class Kind { Heading, Subheading, Paragraph, Note, Table, Figure, Picture };
  Kind kind = Kind::Paragraph;
  QString text;          ///< Heading, Subheading, Paragraph, Note; Picture: its caption
  ReportTable table;     ///< Table
  ChartFigure figure;    ///< Figure
  double aspect = 0.42;  ///< Figure: height / width
  QImage picture;        ///< Picture
};

struct ReportDocument {
  QString title;
  QStringList subtitle;  ///< lines under the title
  std::vector<ReportBlock> blocks;

  void heading(const QString& text);
  void subheading(const QString& text);
  void paragraph(const QString& text);
  /// A paragraph in smaller, grey type: how a number was computed, what was left out.
  void note(const QString& text);
  void table(ReportTable table);
  void figure(ChartFigure figure, double aspect = 0.42);
  void picture(QImage image, const QString& caption);
};

/// The PDF: A4 portrait, 15 mm margins. Empty with `error` set when it could not be made.
QByteArray reportPdf(const ReportDocument& document, QString* error = nullptr);
/// The HTML page (UTF-8).
QByteArray reportHtml(const ReportDocument& document);

/// A table's cells as CSV (RFC 4180: fields with a comma, quote or line break quoted).
QByteArray tableCsv(const QStringList& header, const std::vector<QStringList>& rows);

}  // namespace kt::render
