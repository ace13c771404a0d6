// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/diagnostic.hpp"

namespace kt {

// Control characters from the file (a name holding an escape sequence) are shown as \xNN, so
// that a message cannot move the cursor, recolour or retitle the user's terminal: C0 controls,
// DEL, and the C1 controls U+0080–U+009F (UTF-8 C2 80–C2 9F).
std::string escapeControls(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  const auto hex = [&](unsigned char c) {
    static const char* digits = "0123456789ABCDEF";
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 15];
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      hex(c);
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      hex(static_cast<unsigned char>(s[++i]));
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string Diagnostic::format() const {
  std::string s;
  if (!file.empty()) {
    s += file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    s += ": ";
  }
  s += warning ? "warning: " : "error: ";
  if (!path.empty()) s += path + ": ";
  s += message;
  return escapeControls(s);
}

std::string formatDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string s;
  for (const Diagnostic& d : diagnostics) s += d.format() + "\n";
  return s;
}

std::size_t problemCount(const std::vector<Diagnostic>& diagnostics) {
  std::size_t n = 0;
  for (const Diagnostic& d : diagnostics) n += d.omitted > 0 ? d.omitted : 1;
  return n;
}

Diagnostic omittedProblemsLine(std::size_t omitted) {
  Diagnostic d;
  d.message = "... and " + std::to_string(omitted) + " more problems (the first " + std::to_string(kMaxDiagnostics) +
              " are shown)";
  d.omitted = omitted;
  return d;
}

void appendDiagnostics(std::vector<Diagnostic>& list, const std::vector<Diagnostic>& more) {
  std::size_t omitted = 0;
  if (!list.empty() && list.back().omitted > 0) {
    omitted = list.back().omitted;
    list.pop_back();
  }
  for (const Diagnostic& d : more) {
    if (d.omitted > 0)
      omitted += d.omitted;
    else if (list.size() < kMaxDiagnostics)
      list.push_back(d);
    else
      ++omitted;
  }
  if (omitted > 0) list.push_back(omittedProblemsLine(omitted));
}

}  // namespace kt
