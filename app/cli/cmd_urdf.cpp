// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli import and export: URDF to a Kinetree model and back (core/io/urdf/urdf.hpp), and
// MJCF to a Kinetree model (core/io/mjcf/mjcf.hpp).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/io/csv.hpp"
#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/model/tree.hpp"

namespace kt::cli {
namespace {

constexpr const char* kImportUsage =
    "usage: kinetree-cli import ROBOT.urdf [-o|--output MODEL.yaml|-] [--floating] [--merge-fixed]\n"
    "                           [--strict] [--density RHO] [--package-path DIR]...\n"
    "       kinetree-cli import ROBOT.xml (MJCF) [-o|--output MODEL.yaml|-] [--strict]\n";
constexpr const char* kExportUsage = "usage: kinetree-cli export --urdf MODEL.yaml [-o|--output ROBOT.urdf|-]\n";

// `text` to stdout ("" or "-") or atomically to `path`; false with the message on stderr.
bool writeText(const char* command, const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0;
  }
  try {
    AtomicFile file(path);
    file.write(text);
    file.commit();
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli %s: %s\n", command, printable(e.what()).c_str());
    return false;
  }
}

// The directory a written file's relative paths start from (the working directory for stdout).
std::string directoryOf(const std::string& output) {
  if (output.empty() || output == "-") return ".";
  const std::filesystem::path parent = std::filesystem::path(output).parent_path();
  return parent.empty() ? "." : parent.string();
}

// What the file lost (the importer's warnings), then the robot's likely mistakes (placeholder
// inertias) as validate shows them, on stderr.
void printImportWarnings(const std::string& path, std::vector<Diagnostic> warnings, const Model& model) {
  for (Diagnostic& d : modelWarnings(model)) {
    d.file = path;
    warnings.push_back(std::move(d));
  }
  std::fputs(formatDiagnostics(warnings).c_str(), stderr);
}

// A note when joints of the imported robot are passive (PassiveJoints): run, it falls.
void printPassiveNote(const std::string& path, const Model& model, const char* why) {
  const PassiveJoints count = passiveJoints(model);
  if (count.passive == 0) return;
  const std::string which = count.passive < count.moving
                                ? std::to_string(count.passive) + " of " + std::to_string(count.moving) + " joints"
                            : count.moving == 1 ? std::string("the one joint")
                                                : "all " + std::to_string(count.moving) + " joints";
  std::fprintf(stderr,
               "%s: note: %s %s passive (%s): the robot will fall under gravity. Give joints drives in the "
               "model file or in the application's Properties dock (docs/model-format.md, \"Drives\").\n",
               printable(path).c_str(), which.c_str(), count.passive == 1 ? "is" : "are", why);
}

// The MJCF import: meshes (compiled vertices) are written into MODEL_meshes beside the output.
int importMjcf(const std::string& path, const std::string& output, const ParsedArgs& parsed) {
  MjcfImportOptions options;
  for (const auto& [name, value] : parsed.options)
    if (name == "--strict") {
      options.strict = true;
    } else if (name != "--output") {
      std::fprintf(stderr, "kinetree-cli import: %s is for URDF files; %s is MJCF\n%s", name.c_str(),
                   printable(path).c_str(), kImportUsage);
      return 2;
    }
  options.meshBaseDirectory = directoryOf(output);
  // the meshes go beside the model file, which cannot be written where its folder does not exist
  if (!output.empty() && output != "-" && !std::filesystem::is_directory(options.meshBaseDirectory)) {
    std::fprintf(stderr, "kinetree-cli import: cannot write %s: the folder %s does not exist\n",
                 printable(output).c_str(), printable(options.meshBaseDirectory).c_str());
    return 1;
  }
  if (!output.empty() && output != "-")
    options.meshDirectory =
        (std::filesystem::path(options.meshBaseDirectory) / (std::filesystem::path(output).stem().string() + "_meshes"))
            .string();
  MjcfImport imported;
  try {
    imported = importMjcfFile(path, options);
  } catch (const ModelLoadError& e) {
    std::fputs(formatDiagnostics(e.diagnostics()).c_str(), stderr);
    return 1;
  }
  printImportWarnings(path, std::move(imported.warnings), imported.model);
  // MuJoCo's controls are not part of the file: a motor comes in as a constant drive of zero
  printPassiveNote(path, imported.model, "no actuator, or a motor at zero torque until you set it");
  return writeText("import", output, saveModelToString(imported.model)) ? 0 : 1;
}

}  // namespace

int cmdImport(const std::vector<std::string>& args) {
  ParsedArgs parsed;
  if (!parseArgs("import", kImportUsage, args,
                 {{"--output", true, "-o"},
                  {"--floating", false},
                  {"--merge-fixed", false},
                  {"--strict", false},
                  {"--density"},
                  {"--package-path"}},
                 parsed))
    return 2;
  std::string path, output;
  if (!singleModelFile("import", kImportUsage, parsed, path)) return 2;
  UrdfImportOptions options;
  for (const auto& [name, value] : parsed.options) {
    if (name == "--output") output = value;
    if (name == "--floating") options.floatingBase = true;
    if (name == "--merge-fixed") options.mergeFixed = true;
    if (name == "--strict") options.strict = true;
    if (name == "--density" && !parsePositive("import", name, value, options.density)) return 2;
    if (name == "--package-path") options.packagePaths.push_back(value);
  }
  if (isMjcfFile(path)) return importMjcf(path, output, parsed);
  options.meshBaseDirectory = directoryOf(output);
  UrdfImport imported;
  try {
    imported = importUrdfFile(path, options);
  } catch (const ModelLoadError& e) {
    std::fputs(formatDiagnostics(e.diagnostics()).c_str(), stderr);
    return 1;
  }
  printImportWarnings(path, std::move(imported.warnings), imported.model);
  // URDF has no actuators (docs/urdf.md): every joint comes in passive and the robot falls when run.
  printPassiveNote(path, imported.model, "no drive");
  return writeText("import", output, saveModelToString(imported.model)) ? 0 : 1;
}

int cmdExport(const std::vector<std::string>& args) {
  ParsedArgs parsed;
  if (!parseArgs("export", kExportUsage, args, {{"--urdf", false}, {"--output", true, "-o"}}, parsed)) return 2;
  std::string path, output;
  bool urdf = false;
  if (!singleModelFile("export", kExportUsage, parsed, path)) return 2;
  for (const auto& [name, value] : parsed.options) {
    if (name == "--urdf") urdf = true;
    if (name == "--output") output = value;
  }
  if (!urdf) {
    std::fprintf(stderr, "kinetree-cli export: give the format: --urdf (the one export format)\n%s", kExportUsage);
    return 2;
  }
  Model model;
  if (!loadModel(path, model)) return 1;
  std::vector<std::string> warnings;
  std::string text;
  try {
    text = exportUrdf(model, directoryOf(output), warnings);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", printable(path).c_str(), e.what());
    return 1;
  }
  for (const std::string& w : warnings) std::fprintf(stderr, "%s: warning: %s\n", printable(path).c_str(), w.c_str());
  return writeText("export", output, text) ? 0 : 1;
}

}  // namespace kt::cli
