// YAML model format, version 1 (docs/model-format.md): read with full validation and
// file:line:col diagnostics, write canonically so that save → load → save is byte-identical.
#pragma once

#include <stdexcept>
#include <string>
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

/// Parses YAML text. `fileName` is used in diagnostics only. Throws ModelLoadError.
Model loadModelFromString(const std::string& text, const std::string& fileName = "<string>");
/// Reads and parses a file. Throws ModelLoadError (also for unreadable or oversized files).
Model loadModelFromFile(const std::string& path);

/// Canonical YAML text of a model.
std::string saveModelToString(const Model& model);
/// Writes atomically (temporary file in the same directory, then rename). Throws std::runtime_error.
void saveModelToFile(const Model& model, const std::string& path);

}  // namespace kt
