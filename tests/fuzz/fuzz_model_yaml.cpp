// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target for the YAML model loader (core/io/model_yaml.hpp; docs/development.md,
// "Fuzzing"). Any input may be refused with a ModelLoadError; anything else thrown, a crash, a
// sanitizer report or a hang is a defect. A model that loads is saved, loaded and saved again:
// the loader accepts what the writer writes, and the two saves are the same bytes
// (docs/model-format.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/io/model_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<kt::Diagnostic> warnings;
  kt::Model model;
  try {
    model = kt::loadModelFromString(text, "fuzz.yaml", warnings);
  } catch (const kt::ModelLoadError&) {
    return 0;
  }
  const std::string saved = kt::saveModelToString(model);
  std::string again;
  try {
    again = kt::saveModelToString(kt::loadModelFromString(saved, "saved.yaml", warnings));
  } catch (const kt::ModelLoadError& e) {
    std::fprintf(stderr, "a saved model does not load again:\n%s\n", e.what());
    std::abort();
  }
  if (again != saved) {
    std::fprintf(stderr, "save, load, save changed the text:\n--- first\n%s\n--- second\n%s\n", saved.c_str(),
                 again.c_str());
    std::abort();
  }
  return 0;
}
