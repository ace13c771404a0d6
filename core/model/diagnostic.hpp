// SPDX-License-Identifier: BSD-3-Clause
// A problem found in a model, tied to the YAML path of the offending field
// (for example "bodies[2].inertial.mass"). The loader adds the file, line and column.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kt {

struct Diagnostic {
  std::string path;      ///< YAML path, e.g. "bodies[2].joint.axis"; empty for the whole document
  std::string message;   ///< what is wrong and what is expected
  std::string file;      ///< set by the loader
  int line = 0;          ///< 1-based, 0 when unknown
  int column = 0;        ///< 1-based, 0 when unknown
  bool warning = false;  ///< a likely mistake that does not stop the model from loading
  /// On the closing "... and N more problems" line of a capped list: N, the problems it stands
  /// for; 0 on every other diagnostic.
  std::size_t omitted = 0;

  /// "file:line:col: error: path: message" ("warning: " for a warning; parts that are unknown
  /// are left out; control characters shown as \xNN).
  std::string format() const;
};

std::string formatDiagnostics(const std::vector<Diagnostic>& diagnostics);

/// Lists of problems keep the first kMaxDiagnostics and end with one line that counts the rest.
inline constexpr std::size_t kMaxDiagnostics = 100;
/// That closing line: "... and N more problems (the first 100 are shown)", with omitted = N.
Diagnostic omittedProblemsLine(std::size_t omitted);
/// Appends `more` to `list` within that cap: what does not fit is counted on the closing line.
void appendDiagnostics(std::vector<Diagnostic>& list, const std::vector<Diagnostic>& more);

/// How many problems a list stands for: its entries, with a closing "... and N more" line
/// counted as the N it leaves out.
std::size_t problemCount(const std::vector<Diagnostic>& diagnostics);

/// Text from a model file made safe for a terminal: C0 controls, DEL and the C1 controls
/// (U+0080–U+009F) shown as \xNN, so that a name cannot move the cursor, recolour or retitle it.
std::string escapeControls(const std::string& s);

}  // namespace kt
