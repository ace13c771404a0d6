// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/motion_table.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

#include "core/model/text_util.hpp"

namespace kt {

namespace {

struct Field {
  std::string text;
  int column = 1;  ///< 1-based character column where the field starts
};

Diagnostic problem(const std::string& path, int line, int column, std::string message) {
  Diagnostic d;
  d.file = path;
  d.line = line;
  d.column = column;
  d.message = std::move(message);
  return d;
}

// One CSV record (RFC 4180 quotes) from `line`; false when a quote is not closed.
bool splitRecord(std::string_view line, std::vector<Field>& fields, int& badColumn) {
  fields.clear();
  std::size_t i = 0;
  while (true) {
    Field f;
    f.column = static_cast<int>(i) + 1;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) {
          badColumn = f.column;
          return false;
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            f.text += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        f.text += line[i++];
      }
      while (i < line.size() && line[i] != ',') ++i;  // anything after the closing quote is ignored
    } else {
      const std::size_t end = line.find(',', i);
      f.text = std::string(line.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
      i = end == std::string_view::npos ? line.size() : end;
    }
    fields.push_back(std::move(f));
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

std::string trim(std::string s) {
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && space(s.back())) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && space(s[b])) ++b;
  return s.substr(b);
}

bool parseNumber(std::string_view s, double& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out, std::chars_format::general);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

const MotionTable::Column* MotionTable::find(std::string_view name) const {
  for (const Column& c : columns)
    if (c.name == name) return &c;
  return nullptr;
}

Diagnostic MotionTable::at(const Column& column, std::string message) const {
  return problem(path, headerLine, column.headerColumn, std::move(message));
}

MotionTable parseMotionTable(std::string_view text, const std::string& path) {
  MotionTable table;
  table.path = path;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte-order mark
  std::vector<Field> fields;
  int lineNo = 0;
  bool header = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;  // blank lines
    int bad = 0;
    if (!splitRecord(line, fields, bad))
      throw TableError(problem(path, lineNo, bad, "a quoted field is not closed (expected a closing \")"));
    if (!header) {
      header = true;
      table.headerLine = lineNo;
      const std::string first = trim(fields[0].text);
      if (first != "time" && first != "time (s)") {
        // a spreadsheet's export in a locale that separates with ';' (or a tab): one field, say so
        const bool otherSeparator = fields.size() == 1 && (first.starts_with("time;") || first.starts_with("time\t"));
        throw TableError(problem(path, lineNo, fields[0].column,
                                 otherSeparator
                                     ? "the fields are separated by '" + std::string(first[4] == ';' ? ";" : "\\t") +
                                           "'; expected commas (a CSV as `simulate` writes it: time,q:...)"
                                     : "expected a header row starting with the column 'time' (the "
                                       "signal names of docs/signals.md), got '" +
                                           escapeControls(first) + "'"));
      }
      for (std::size_t f = 1; f < fields.size(); ++f) {
        MotionTable::Column c;
        std::string name = trim(fields[f].text);
        if (const std::size_t open = name.find(" ("); open != std::string::npos && name.back() == ')') {
          c.unit = name.substr(open + 2, name.size() - open - 3);
          name = trim(name.substr(0, open));
        }
        if (name.empty())
          throw TableError(problem(path, lineNo, fields[f].column, "a column has no name; expected a signal name"));
        if (table.find(name))
          throw TableError(problem(path, lineNo, fields[f].column,
                                   "the column '" + escapeControls(name) + "' appears twice; keep one of them"));
        // degrees as the CSV export writes them, or as the application labels them (°)
        c.degrees = c.unit == "deg" || c.unit == "deg/s" || c.unit == "deg/s^2" || c.unit == "°" || c.unit == "°/s" ||
                    c.unit == "°/s²" || c.unit == "°/s^2";
        c.name = std::move(name);
        c.fieldIndex = static_cast<int>(f);
        c.headerColumn = fields[f].column;
        table.columns.push_back(std::move(c));
      }
      continue;
    }
    const std::size_t expected = table.columns.size() + 1;
    if (fields.size() != expected)
      throw TableError(
          problem(path, lineNo, fields.size() > expected ? fields[expected].column : static_cast<int>(line.size()) + 1,
                  "the row has " + std::to_string(fields.size()) + " fields, the header " + std::to_string(expected)));
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const std::string s = trim(fields[f].text);
      double x = 0.0;
      const std::string what = f == 0 ? std::string("time") : table.columns[f - 1].name;
      if (!parseNumber(s, x) || !std::isfinite(x))
        throw TableError(problem(
            path, lineNo, fields[f].column,
            "expected a finite number in column '" + escapeControls(what) + "', got '" + escapeControls(s) + "'"));
      if (f == 0) {
        if (!table.time.empty() && !(x > table.time.back()))
          throw TableError(problem(path, lineNo, fields[f].column,
                                   "the times must increase: t = " + formatRoundTrip(x) +
                                       " s follows t = " + formatRoundTrip(table.time.back()) + " s"));
        table.time.push_back(x);
      } else {
        MotionTable::Column& c = table.columns[f - 1];
        c.values.push_back(c.degrees ? x * std::numbers::pi / 180.0 : x);
      }
    }
    table.rowLines.push_back(lineNo);
  }
  if (!header) throw TableError(problem(path, 1, 1, "the file is empty; expected a header row starting with 'time'"));
  if (table.time.size() < 2)
    throw TableError(problem(path, lineNo, 1,
                             "too few samples: " + std::to_string(table.time.size()) +
                                 " row(s), a motion needs at least 2 (and 10 to be filtered)"));
  return table;
}

MotionTable readMotionTable(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw TableError(problem(path, 0, 0, "is a folder; expected a CSV file of joint histories"));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TableError(problem(path, 0, 0, "cannot open the file (" + std::string(std::strerror(errno)) + ")"));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw TableError(problem(path, 0, 0, "cannot read the file"));
  return parseMotionTable(ss.str(), path);
}

}  // namespace kt
