// SPDX-License-Identifier: BSD-3-Clause
// YAML model format, version 1 (docs/model-format.md): read with full validation and
// file:line:col diagnostics, write canonically so that save → load → save is byte-identical.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"

namespace kt {

/// Thrown by the loaders; diagnostics() holds every problem found (at least one).
class ModelLoadError : public std::runtime_error {
 public:
  explicit ModelLoadError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

/// The only format version this build reads and writes (`kinetree: 1`).
inline constexpr int kModelFormatVersion = 1;
/// Larger files are rejected before they are read.
inline constexpr std::size_t kMaxModelFileBytes = 64u * 1024u * 1024u;

/// Parses YAML text. `fileName` is used in diagnostics only. Throws ModelLoadError.
/// The model's sourceDirectory stays empty (mesh paths then resolve from the working directory).
Model loadModelFromString(const std::string& text, const std::string& fileName = "<string>");
/// Reads and parses a file. Throws ModelLoadError (also for unreadable or oversized files).
/// Sets the model's sourceDirectory to the file's directory.
Model loadModelFromFile(const std::string& path);

/// As above; the model's warnings (diagnostics with `warning` set, file:line:col positioned, for
/// example a joint that starts outside its limits) are returned in `warnings`. They do not stop
/// the model from loading.
Model loadModelFromString(const std::string& text, const std::string& fileName, std::vector<Diagnostic>& warnings);
Model loadModelFromFile(const std::string& path, std::vector<Diagnostic>& warnings);
/// Text read as if from a file in `directory`: its mesh paths are checked from there, and the
/// model's sourceDirectory is `directory` (a model sent to another process with its file's place).
Model loadModelFromString(const std::string& text, const std::string& fileName, const std::string& directory,
                          std::vector<Diagnostic>& warnings);

/// For the editor: as loadModelFromFile, but a file that reads correctly (YAML syntax, keys,
/// types, references all fine) and only fails the model checks of validateWithSettings() is returned, with
/// those problems (file:line:col positioned) in `problems`, so that it can be opened and fixed.
/// Anything else throws ModelLoadError as loadModelFromFile does.
Model loadModelForEditing(const std::string& path, std::vector<Diagnostic>& problems);
/// The same for text (embedded resources, recovery files).
Model loadModelForEditingFromString(const std::string& text, const std::string& fileName,
                                    std::vector<Diagnostic>& problems);

/// The bytes of a model file (YAML or URDF): throws ModelLoadError naming the file when it does not
/// exist, is a directory, cannot be read or is larger than kMaxModelFileBytes.
std::string readModelFileText(const std::string& path);

/// A joint's drive as the flow mapping a model file may give it, "{type: pd_sinusoid, kp: 200, …}"
/// (one-coordinate lists as numbers); parseDriveText reads it back exactly.
std::string driveText(const Drive& drive);
/// Reads a drive written as a model file's `drive:` value (flow or block YAML, "none" or empty for
/// no drive) for a joint of type `joint`, with every check the loader makes; false with the
/// loader's message (without a file position) in `error`.
bool parseDriveText(const std::string& text, JointType joint, Drive& drive, std::string& error);

/// Canonical YAML text of a model.
std::string saveModelToString(const Model& model);
/// Writes atomically (writeFileAtomically, core/io/atomic_file.hpp). Throws std::runtime_error.
void saveModelToFile(const Model& model, const std::string& path);

}  // namespace kt
