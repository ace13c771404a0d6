// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target for the URDF importer (core/io/urdf/urdf.hpp; docs/development.md, "Fuzzing").
// Any input may be refused with a ModelLoadError; anything else thrown, a crash, a sanitizer
// report or a hang is a defect. What the importer accepts must be a model the loader accepts in
// turn: an import never writes a model file that Kinetree then refuses to open (docs/urdf.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/io/model_yaml.hpp"
#include "core/io/urdf/urdf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  kt::UrdfImport imported;
  try {
    // a directory that does not exist: relative mesh paths resolve to nothing
    imported = kt::importUrdfString(xml, "fuzz.urdf", "/nonexistent-kinetree-fuzz");
  } catch (const kt::ModelLoadError&) {
    return 0;
  }
  try {
    std::vector<kt::Diagnostic> warnings;
    kt::loadModelFromString(kt::saveModelToString(imported.model), "fuzz.yaml", warnings);
  } catch (const kt::ModelLoadError& e) {
    std::fprintf(stderr, "the imported model does not load again:\n%s\n", e.what());
    std::abort();
  }
  return 0;
}
