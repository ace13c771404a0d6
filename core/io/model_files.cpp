#include "core/io/model_files.hpp"

namespace kt {

std::vector<Diagnostic> validate(const Model& model) { return validate(model, meshFiles()); }

bool finalize(const Model& model, Tree& tree, std::vector<Diagnostic>& problems) {
  return finalize(model, meshFiles(), tree, problems);
}

Tree finalizeOrThrow(const Model& model) { return finalizeOrThrow(model, meshFiles()); }

}  // namespace kt
