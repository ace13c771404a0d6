#include "core/model/diagnostic.hpp"

namespace kt {

std::string Diagnostic::format() const {
  std::string s;
  if (!file.empty()) {
    s += file;
    if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
    s += ": ";
  }
  s += "error: ";
  if (!path.empty()) s += path + ": ";
  s += message;
  return s;
}

std::string formatDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string s;
  for (const Diagnostic& d : diagnostics) s += d.format() + "\n";
  return s;
}

}  // namespace kt
