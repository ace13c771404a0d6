// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/robot_files.hpp"

#include <fstream>

#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/model/tree.hpp"

namespace kt {

bool isUrdfFile(const std::string& path) {
  std::string extension = path.size() >= 5 ? path.substr(path.size() - 5) : std::string();
  for (char& c : extension) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (extension == ".urdf") return true;
  // A model file is YAML, which cannot start with '<'; XML (a URDF under another name) does.
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  for (int k = 0; k < 4096 && in.get(c); ++k)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c == '<';
  return false;
}

Model readModelOrRobot(const std::string& path, const std::vector<std::string>& packagePaths,
                       std::vector<Diagnostic>& warnings) {
  warnings.clear();
  const auto adopt = [&](auto imported) {
    warnings = std::move(imported.warnings);
    for (Diagnostic& d : modelWarnings(imported.model)) {
      d.file = path;
      warnings.push_back(std::move(d));
    }
    return std::move(imported.model);
  };
  if (isMjcfFile(path)) return adopt(importMjcfFile(path));
  if (isUrdfFile(path)) {
    UrdfImportOptions options;
    options.packagePaths = packagePaths;
    return adopt(importUrdfFile(path, options));
  }
  return loadModelFromFile(path, warnings);
}

}  // namespace kt
