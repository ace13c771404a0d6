// kinetree-cli validate / info.
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"
#include "core/model/tree.hpp"

namespace kt::cli {
namespace {

// Loads a model, printing its diagnostics (and warnings) on stderr. Returns false when it is invalid.
bool load(const std::string& path, Model& model) {
  try {
    std::vector<Diagnostic> warnings;
    model = loadModelFromFile(path, warnings);
    std::fputs(formatDiagnostics(warnings).c_str(), stderr);
    return true;
  } catch (const ModelLoadError& e) {
    std::fputs(formatDiagnostics(e.diagnostics()).c_str(), stderr);
    return false;
  }
}

std::string formatMass(double m) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", m);
  return buf;
}

void drawTree(const Tree& tree, int body, const std::string& prefix, bool last) {
  const std::string& jn = tree.jointNames[body];
  std::string label = tree.bodyNames[body] + "  (" + std::string(jointTypeName(tree.joints[body].type)) +
                      (jn != tree.bodyNames[body] ? " '" + jn + "'" : std::string()) + ")";
  std::printf("%s%s%s\n", prefix.c_str(), last ? "└── " : "├── ", label.c_str());
  const auto& kids = tree.children[body];
  for (std::size_t k = 0; k < kids.size(); ++k)
    drawTree(tree, kids[k], prefix + (last ? "    " : "│   "), k + 1 == kids.size());
}

}  // namespace

int cmdValidate(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs("usage: kinetree-cli validate MODEL.yaml...\n", stderr);
    return 2;
  }
  bool allValid = true;
  for (const std::string& path : args) {
    Model model;
    if (load(path, model))
      std::printf("%s: ok\n", path.c_str());
    else
      allValid = false;
  }
  return allValid ? 0 : 1;
}

int cmdInfo(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fputs("usage: kinetree-cli info MODEL.yaml\n", stderr);
    return 2;
  }
  Model model;
  if (!load(args[0], model)) return 1;
  Tree tree;
  std::vector<Diagnostic> problems;
  if (!finalize(model, tree, problems)) {
    std::fputs(formatDiagnostics(problems).c_str(), stderr);
    return 1;
  }
  std::printf("model: %s\n", model.name.c_str());
  if (!model.description.empty()) {
    std::string d = model.description;
    while (!d.empty() && (d.back() == '\n' || d.back() == ' ')) d.pop_back();
    std::printf("description: %s\n", d.c_str());
  }
  std::printf("gravity: %s m/s^2\n\nworld\n", formatNumbers(model.gravity.data(), 3).c_str());
  for (std::size_t r = 0; r < tree.roots.size(); ++r) drawTree(tree, tree.roots[r], "", r + 1 == tree.roots.size());

  std::size_t wb = 4, wj = 5, wp = 6;
  for (int i = 0; i < tree.nb; ++i) {
    wb = std::max(wb, tree.bodyNames[i].size());
    wj = std::max(wj, tree.jointNames[i].size());
  }
  wp = std::max(wp, wb);
  const int bw = static_cast<int>(wb), jw = static_cast<int>(wj), pw = static_cast<int>(wp);
  std::printf("\n%-*s  %-*s  %-*s  %-11s  %3s  %3s  %12s\n", bw, "body", pw, "parent", jw, "joint", "type", "nq", "nv",
              "mass [kg]");
  for (int i = 0; i < tree.nb; ++i) {
    const std::string parent = tree.parent[i] < 0 ? "world" : tree.bodyNames[tree.parent[i]];
    std::printf("%-*s  %-*s  %-*s  %-11s  %3d  %3d  %12s\n", bw, tree.bodyNames[i].c_str(), pw, parent.c_str(), jw,
                tree.jointNames[i].c_str(), std::string(jointTypeName(tree.joints[i].type)).c_str(), tree.joints[i].nq,
                tree.joints[i].nv, formatMass(tree.I[i].m).c_str());
  }
  std::printf("\nbodies: %d\nnq: %d\nnv: %d (degrees of freedom)\ntotal mass: %s kg\n", tree.nb, tree.nq, tree.nv,
              formatMass(tree.totalMass()).c_str());
  std::printf("simulation: solver %s, integrator %s, step %s s, duration %s s\n", model.simulation.solver.c_str(),
              model.simulation.integrator.c_str(), formatNumber(model.simulation.step).c_str(),
              formatNumber(model.simulation.duration).c_str());
  return 0;
}

}  // namespace kt::cli
