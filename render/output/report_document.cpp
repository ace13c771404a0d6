// SPDX-License-Identifier: BSD-3-Clause
#include "render/output/report_document.hpp"

#include <QBuffer>
#include <QFontMetricsF>
#include <QObject>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextLayout>
#include <algorithm>
#include <utility>

namespace kt::render {

namespace {

ReportBlock textBlock(ReportBlock::Kind kind, const QString& text) {
  ReportBlock b;
  b.kind = kind;
  b.text = text;
  return b;
}

}  // namespace

void ReportDocument::heading(const QString& text) { blocks.push_back(textBlock(ReportBlock::Kind::Heading, text)); }

void ReportDocument::subheading(const QString& text) {
  blocks.push_back(textBlock(ReportBlock::Kind::Subheading, text));
}

void ReportDocument::paragraph(const QString& text) { blocks.push_back(textBlock(ReportBlock::Kind::Paragraph, text)); }

void ReportDocument::note(const QString& text) { blocks.push_back(textBlock(ReportBlock::Kind::Note, text)); }

void ReportDocument::table(ReportTable t) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::Table;
  b.table = std::move(t);
  blocks.push_back(std::move(b));
}

void ReportDocument::figure(ChartFigure f, double aspect) {
  ReportBlock b;
  b.kind = ReportBlock::Kind::Figure;
  b.figure = std::move(f);
  b.aspect = aspect;
  blocks.push_back(std::move(b));
}

void ReportDocument::picture(QImage image, const QString& caption) {
  ReportBlock b = textBlock(ReportBlock::Kind::Picture, caption);
  b.picture = std::move(image);
  blocks.push_back(std::move(b));
}

QByteArray tableCsv(const QStringList& header, const std::vector<QStringList>& rows) {
  const auto field = [](const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))) return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
  };
  QString out;
  const auto line = [&](const QStringList& cells) {
    for (qsizetype c = 0; c < cells.size(); ++c) out += (c ? QStringLiteral(",") : QString()) + field(cells[c]);
    out += QLatin1Char('\n');
  };
  line(header);
  for (const QStringList& r : rows) line(r);
  return out.toUtf8();
}

namespace {

// Sizes in pixels of 1/96 inch (the PDF writer's resolution): A4 is 793.7 × 1122.5.
constexpr double kPageMargin = 57.0;  // 15 mm
constexpr double kFooter = 24.0;

QFont sized(double pixels, bool bold = false) {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(static_cast<int>(std::lround(pixels)));
  f.setBold(bold);
  return f;
}

bool isRight(const ReportTable& t, int column) {
  return static_cast<std::size_t>(column) < t.rightAligned.size() && t.rightAligned[static_cast<std::size_t>(column)];
}

// Lays the blocks out on pages; paints them when given a painter (the second pass, once the
// number of pages is known from the first).
class PageFlow {
 public:
  PageFlow(QPdfWriter& pdf, QPainter* painter, QString footer, int pages)
      : pdf_(pdf), painter_(painter), footer_(std::move(footer)), pages_(pages) {
    page_ = QRectF(0, 0, pdf.width(), pdf.height());
    content_ = page_.adjusted(kPageMargin, kPageMargin, -kPageMargin, -kPageMargin - kFooter);
    y_ = content_.top();
  }

  int finish() {
    drawFooter();
    return pageIndex_ + 1;
  }

  void title(const QString& text, const QStringList& lines) {
    flowText(sized(22, true), text, Qt::black);
    y_ += 6;
    for (const QString& l : lines) {
      flowText(sized(11), l, QColor(80, 80, 80));
      y_ += 2;
    }
    y_ += 10;
    if (painter_) {
      painter_->setPen(QPen(QColor(160, 160, 160), 1.0));
      painter_->drawLine(QPointF(content_.left(), y_), QPointF(content_.right(), y_));
    }
    y_ += 12;
  }

  void heading(const QString& text, bool sub) {
    const QFont f = sized(sub ? 13 : 16.5, true);
    const double h = textHeight(f, text);
    y_ += sub ? 8 : 14;
    room(h + (sub ? 320 : 140));  // not alone at the foot of a page: with a figure or a few rows
    flowText(f, text, sub ? QColor(40, 40, 40) : QColor(20, 40, 90));
    y_ += sub ? 4 : 6;
  }

  void paragraph(const QString& text, bool note) {
    const QFont f = sized(note ? 9.5 : 11);
    // line by line, so that a paragraph longer than the page goes on to the next one
    const std::vector<double> heights = lineHeights(f, text);
    if (!heights.empty())  // not one or two lines alone at the foot of a page
      room(std::min(heights.front() * std::min<double>(3.0, static_cast<double>(heights.size())), content_.height()));
    flowText(f, text, note ? QColor(90, 90, 90) : QColor(Qt::black));
    y_ += note ? 6 : 8;
  }

  void figure(const ChartFigure& figure, double aspect) {
    const double h = std::min(content_.width() * aspect, content_.height());
    room(h);
    if (painter_) {
      painter_->save();
      figure.paint(*painter_, QRectF(content_.left(), y_, content_.width(), h));
      painter_->restore();
    }
    y_ += h + 10;
  }

  void picture(const QImage& image, const QString& caption) {
    if (image.isNull()) return;
    const double scale = std::min(content_.width() / image.width(), 0.45 * content_.height() / image.height());
    const QSizeF size(image.width() * scale, image.height() * scale);
    const QFont f = sized(9.5);
    const double ch = caption.isEmpty() ? 0.0 : textHeight(f, caption) + 4;
    room(size.height() + ch);
    const QRectF at(content_.left() + 0.5 * (content_.width() - size.width()), y_, size.width(), size.height());
    if (painter_) {
      painter_->drawImage(at, image);
      painter_->setPen(QPen(QColor(200, 200, 200), 0.8));
      painter_->drawRect(at);
    }
    y_ += size.height() + 4;
    if (!caption.isEmpty()) flowText(f, caption, QColor(90, 90, 90), Qt::AlignHCenter);
    y_ += 8;
  }

  void table(const ReportTable& t) {
    const int columns = static_cast<int>(t.header.size());
    if (columns == 0) return;
    // the natural widths; a table wider than the page is set in smaller type (not under 6 px),
    // then squeezed with its cells elided
    double px = 9.0;
    std::vector<double> w;
    const auto measure = [&] {
      // the PDF's own metrics (its fonts are not hinted as the screen's are): measured on the screen,
      // a number could come out wider on the page than its column and be cut
      const QFontMetricsF fm(sized(px), &pdf_), bm(sized(px, true), &pdf_);
      w.assign(static_cast<std::size_t>(columns), 0.0);
      for (int c = 0; c < columns; ++c) {
        double m = bm.horizontalAdvance(t.header[c]);
        for (const QStringList& r : t.rows) m = std::max(m, fm.horizontalAdvance(r.value(c)));
        w[static_cast<std::size_t>(c)] = m + 0.9 * px;
      }
      double total = 0.0;
      for (const double x : w) total += x;
      return total;
    };
    double total = measure();
    // smaller type until it fits (the type comes in whole pixels, so a step may not be enough)
    while (total > content_.width() && px > 6.5) {
      px = std::max(6.5, std::min(px - 1.0, px * content_.width() / total));
      total = measure();
    }
    // the spare width goes to the columns evenly; a table still too wide keeps its numbers whole
    // and narrows its text columns (their cells shortened in the middle), none below 4 em
    const double spare = (content_.width() - total) / columns;
    if (spare >= 0) {
      for (double& x : w) x += std::min(spare, 3.0 * px);
    } else {
      double text = 0.0;
      for (int c = 0; c < columns; ++c)
        if (!isRight(t, c)) text += w[static_cast<std::size_t>(c)];
      const double excess = total - content_.width();
      for (int c = 0; c < columns && text > 0.0; ++c)
        if (!isRight(t, c)) {
          double& x = w[static_cast<std::size_t>(c)];
          x = std::max(4.0 * px, x - excess * x / text);
        }
    }
    double used = 0.0;
    for (const double x : w) used += x;
    const QFont font = sized(px), bold = sized(px, true);
    const double rowH = QFontMetricsF(font, &pdf_).height() + 0.45 * px;
    const auto row = [&](const QStringList& cells, const QFont& f, const QColor& colour, bool header, int index) {
      if (painter_) {
        if (header) {
          painter_->fillRect(QRectF(content_.left(), y_, used, rowH), QColor(228, 233, 242));
        } else if (index % 2 == 1) {
          painter_->fillRect(QRectF(content_.left(), y_, used, rowH), QColor(246, 246, 246));
        }
      }
      double x = content_.left();
      for (int c = 0; c < columns; ++c) {
        const double cw = w[static_cast<std::size_t>(c)];
        const bool right = isRight(t, c);
        const QRectF cell(x + 0.45 * px, y_, cw - 0.9 * px, rowH);
        if (painter_) {
          // a text cell is shortened to its column; a number never is (it keeps its measured width)
          const QString text = right
                                   ? cells.value(c)
                                   : QFontMetricsF(f, &pdf_).elidedText(cells.value(c), Qt::ElideMiddle, cell.width());
          painter_->setFont(f);
          painter_->setPen(colour);
          painter_->drawText(cell, Qt::AlignVCenter | (right ? Qt::AlignRight : Qt::AlignLeft), text);
        }
        x += cw;
      }
      y_ += rowH;
    };
    room(3 * rowH);
    row(t.header, bold, Qt::black, true, 0);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      if (y_ + rowH > content_.bottom()) {
        newPage();
        row(t.header, bold, Qt::black, true, 0);  // the header again on every page
      }
      const QColor colour = r < t.rowColors.size() && t.rowColors[r].isValid() ? t.rowColors[r] : QColor(Qt::black);
      row(t.rows[r], font, colour, false, static_cast<int>(r));
    }
    if (painter_) {
      painter_->setPen(QPen(QColor(170, 170, 170), 0.8));
      painter_->drawLine(QPointF(content_.left(), y_), QPointF(content_.left() + used, y_));
    }
    y_ += 10;
  }

 private:
  // Lays `text` out in the content's width into `layout`: broken at spaces, and inside a word
  // where one is longer than a line (a long path or name), never running past the margin. The
  // lines live as long as `layout`.
  std::vector<QTextLine> layoutLines(const QFont& f, const QString& text, QTextLayout& layout) const {
    layout.setText(text);
    layout.setFont(f);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    std::vector<QTextLine> lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
      line.setLineWidth(content_.width());
      lines.push_back(line);
    }
    layout.endLayout();
    return lines;
  }

  // The heights of the lines `text` takes.
  std::vector<double> lineHeights(const QFont& f, const QString& text) const {
    QTextLayout layout;
    std::vector<double> heights;
    for (const QTextLine& line : layoutLines(f, text, layout)) heights.push_back(line.height());
    return heights;
  }

  double textHeight(const QFont& f, const QString& text) const {
    double h = 0.0;
    for (const double x : lineHeights(f, text)) h += x;
    return h;
  }

  // Draws `text` at the cursor line by line, going on to the next page where a line does not fit.
  void flowText(const QFont& f, const QString& text, const QColor& colour, Qt::Alignment align = Qt::AlignLeft) {
    QTextLayout layout;
    const std::vector<QTextLine> lines = layoutLines(f, text, layout);
    for (const QTextLine& line : lines) {
      if (y_ + line.height() > content_.bottom() && y_ > content_.top()) newPage();
      if (painter_) {
        painter_->setPen(colour);
        const double x = align & Qt::AlignHCenter ? content_.left() + 0.5 * (content_.width() - line.naturalTextWidth())
                                                  : content_.left();
        line.draw(painter_, QPointF(x - line.x(), y_ - line.y()));
      }
      y_ += line.height();
    }
  }

  // a new page unless `height` fits under the cursor
  void room(double height) {
    if (y_ + height > content_.bottom() && y_ > content_.top()) newPage();
  }

  void newPage() {
    drawFooter();
    if (painter_) pdf_.newPage();
    ++pageIndex_;
    y_ = content_.top();
  }

  void drawFooter() {
    if (!painter_) return;
    const QRectF at(content_.left(), page_.bottom() - kPageMargin + 6, content_.width(), kFooter);
    painter_->setPen(QPen(QColor(190, 190, 190), 0.8));
    painter_->drawLine(at.topLeft(), at.topRight());
    painter_->setFont(sized(9));
    painter_->setPen(QColor(110, 110, 110));
    const QString page = QObject::tr("page %1 of %2").arg(pageIndex_ + 1).arg(pages_);
    const QFontMetricsF fm(sized(9));
    const QString title = fm.elidedText(footer_, Qt::ElideMiddle, at.width() - fm.horizontalAdvance(page) - 20.0);
    painter_->drawText(at.adjusted(0, 4, 0, 0), Qt::AlignLeft | Qt::AlignTop, title);
    painter_->drawText(at.adjusted(0, 4, 0, 0), Qt::AlignRight | Qt::AlignTop, page);
  }

  QPdfWriter& pdf_;
  QPainter* painter_;
  QString footer_;
  int pages_;
  QRectF page_, content_;
  double y_ = 0.0;
  int pageIndex_ = 0;
};

int layOut(const ReportDocument& d, QPdfWriter& pdf, QPainter* painter, int pages) {
  PageFlow flow(pdf, painter, d.title, pages);
  flow.title(d.title, d.subtitle);
  for (const ReportBlock& b : d.blocks) {
    switch (b.kind) {
      case ReportBlock::Kind::Heading: flow.heading(b.text, false); break;
      case ReportBlock::Kind::Subheading: flow.heading(b.text, true); break;
      case ReportBlock::Kind::Paragraph: flow.paragraph(b.text, false); break;
      case ReportBlock::Kind::Note: flow.paragraph(b.text, true); break;
      case ReportBlock::Kind::Table: flow.table(b.table); break;
      case ReportBlock::Kind::Figure: flow.figure(b.figure, b.aspect); break;
      case ReportBlock::Kind::Picture: flow.picture(b.picture, b.text); break;
    }
  }
  return flow.finish();
}

QString escaped(const QString& text) { return text.toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>")); }

QString svgOf(const ChartFigure& figure, double aspect) {
  const QSizeF size(960, 960 * aspect);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(size.toSize());
  svg.setViewBox(QRectF(QPointF(0, 0), size));
  svg.setTitle(figure.title);
  QPainter painter;
  if (!painter.begin(&svg)) return {};
  figure.paint(painter, QRectF(QPointF(0, 0), size));
  painter.end();
  QString text = QString::fromUtf8(bytes);
  const qsizetype start = text.indexOf(QLatin1String("<svg"));
  if (start < 0) return {};
  text = text.mid(start);
  // scale with the page: the width of the column, the height from the view box
  static const QRegularExpression fixedSize(QStringLiteral("<svg([^>]*?) width=\"[^\"]*\" height=\"[^\"]*\""));
  text.replace(fixedSize, QStringLiteral("<svg\\1 width=\"100%\""));
  return text;
}

}  // namespace

QByteArray reportPdf(const ReportDocument& document, QString* error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QPdfWriter pdf(&buffer);
  pdf.setTitle(document.title);
  pdf.setCreator(QStringLiteral("Kinetree"));
  pdf.setResolution(96);
  pdf.setPageSize(QPageSize(QPageSize::A4));
  pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
  const int pages = layOut(document, pdf, nullptr, 0);  // counts the pages for the footers
  QPainter painter;
  if (!painter.begin(&pdf)) {
    if (error) *error = QObject::tr("The PDF could not be started");
    return {};
  }
  painter.setRenderHint(QPainter::Antialiasing);
  layOut(document, pdf, &painter, pages);
  painter.end();
  buffer.close();
  if (bytes.isEmpty() && error) *error = QObject::tr("The PDF came out empty");
  return bytes;
}

QByteArray reportHtml(const ReportDocument& d) {
  QString h;
  h += QStringLiteral(
           "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"generator\" content=\"Kinetree\">\n<title>%1</title>\n<style>\n"
           "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;"
           "color:#111;line-height:1.4}\n"
           "h1{font-size:1.7em;margin-bottom:.2em}h2{color:#14285a;border-bottom:1px solid #ccc;margin-top:1.6em}"
           "h3{margin-bottom:.3em}\n.sub{color:#555;margin:0}.note{color:#555;font-size:.88em}\n"
           "table{border-collapse:collapse;font-size:.82em;margin:.4em 0 .2em}\n"
           "th{background:#e4e9f2;text-align:left;padding:.15em .5em}td{padding:.1em .5em;white-space:nowrap}"
           "tr:nth-child(even) td{background:#f6f6f6}\n.num{text-align:right;font-variant-numeric:tabular-nums}\n"
           ".wide{overflow-x:auto}.csv{font-size:.8em}\nfigure{margin:1em 0}figcaption{color:#555;font-size:.88em;"
           "text-align:center}\nimg{max-width:100%;border:1px solid #ccc}\n</style>\n</head>\n<body>\n")
           .arg(escaped(d.title));
  h += QStringLiteral("<h1>%1</h1>\n").arg(escaped(d.title));
  for (const QString& l : d.subtitle) h += QStringLiteral("<p class=\"sub\">%1</p>\n").arg(escaped(l));
  for (const ReportBlock& b : d.blocks) {
    switch (b.kind) {
      case ReportBlock::Kind::Heading: h += QStringLiteral("<h2>%1</h2>\n").arg(escaped(b.text)); break;
      case ReportBlock::Kind::Subheading: h += QStringLiteral("<h3>%1</h3>\n").arg(escaped(b.text)); break;
      case ReportBlock::Kind::Paragraph: h += QStringLiteral("<p>%1</p>\n").arg(escaped(b.text)); break;
      case ReportBlock::Kind::Note: h += QStringLiteral("<p class=\"note\">%1</p>\n").arg(escaped(b.text)); break;
      case ReportBlock::Kind::Table: {
        const ReportTable& t = b.table;
        const auto right = [&t](qsizetype c) {
          return static_cast<std::size_t>(c) < t.rightAligned.size() && t.rightAligned[static_cast<std::size_t>(c)];
        };
        h += QStringLiteral("<div class=\"wide\"><table>\n<tr>");
        for (qsizetype c = 0; c < t.header.size(); ++c)
          h += QStringLiteral("<th%1>%2</th>")
                   .arg(right(c) ? QStringLiteral(" class=\"num\"") : QString(), escaped(t.header[c]));
        h += QStringLiteral("</tr>\n");
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
          const bool coloured = r < t.rowColors.size() && t.rowColors[r].isValid();
          h += coloured ? QStringLiteral("<tr style=\"color:%1\">").arg(t.rowColors[r].name()) : QStringLiteral("<tr>");
          for (qsizetype c = 0; c < t.header.size(); ++c)
            h += QStringLiteral("<td%1>%2</td>")
                     .arg(right(c) ? QStringLiteral(" class=\"num\"") : QString(), escaped(t.rows[r].value(c)));
          h += QStringLiteral("</tr>\n");
        }
        h += QStringLiteral("</table></div>\n");
        if (!t.csvName.isEmpty())
          h += QStringLiteral(
                   "<p class=\"csv\"><a download=\"%1\" href=\"data:text/csv;charset=utf-8;base64,%2\">%1</a></p>\n")
                   .arg(escaped(t.csvName), QString::fromLatin1(t.csv.toBase64()));
        break;
      }
      case ReportBlock::Kind::Figure:
        h += QStringLiteral("<figure>%1</figure>\n").arg(svgOf(b.figure, b.aspect));
        break;
      case ReportBlock::Kind::Picture: {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        b.picture.save(&buffer, "PNG");
        h += QStringLiteral(
                 "<figure><img alt=\"%1\" src=\"data:image/png;base64,%2\"><figcaption>%1</figcaption>"
                 "</figure>\n")
                 .arg(escaped(b.text), QString::fromLatin1(png.toBase64()));
        break;
      }
    }
  }
  h += QStringLiteral("</body>\n</html>\n");
  return h.toUtf8();
}

}  // namespace kt::render
