// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli validate / info.
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"
#include "core/model/tree.hpp"
#include "core/sim/run_limits.hpp"

namespace kt::cli {
namespace {

// Names from the file are printed with their control characters escaped, as in diagnostics.
std::string bodyLabel(const Tree& tree, int body) {
  const std::string& jn = tree.jointNames[body];
  return escapeControls(tree.bodyNames[body]) + "  (" + std::string(jointTypeName(tree.joints[body].type)) +
         (jn != tree.bodyNames[body] ? " '" + escapeControls(jn) + "'" : std::string()) + ")";
}

// The body tree under "world", drawn without recursion and in output linear in the bodies:
// a run of more than kRunShown single children shows its first kRunHead and last kRunTail
// bodies around one "… N more bodies in a chain …" line, and indentation deeper than
// kMaxIndent levels starts again at the left margin with the depth written out.
void drawTree(const Tree& tree) {
  constexpr int kRunHead = 3, kRunTail = 2, kRunShown = kRunHead + kRunTail + 1, kMaxIndent = 32;
  struct Frame {
    int body;
    std::string prefix;  ///< drawn before the branch of this body
    bool last;           ///< the last child of its parent
    int depth;           ///< 1 for a root
    int indent;          ///< indentation levels in prefix
  };
  // the prefix of the children of a body drawn as (prefix, last) at (depth, indent)
  const auto childPrefix = [](const Frame& f, std::string& prefix, int& indent) {
    if (f.indent + 1 >= kMaxIndent) {
      prefix = "(depth " + groupDigits(f.depth + 1) + ") ";
      indent = 0;
    } else {
      prefix = f.prefix + (f.last ? "    " : "│   ");
      indent = f.indent + 1;
    }
  };
  std::vector<Frame> stack;
  for (std::size_t r = tree.roots.size(); r-- > 0;)
    stack.push_back(Frame{tree.roots[r], std::string(), r + 1 == tree.roots.size(), 1, 0});
  while (!stack.empty()) {
    Frame f = std::move(stack.back());
    stack.pop_back();
    for (;;) {
      std::printf("%s%s%s\n", f.prefix.c_str(), f.last ? "└── " : "├── ", bodyLabel(tree, f.body).c_str());
      const std::vector<int>& kids = tree.children[f.body];
      Frame next{-1, std::string(), true, f.depth + 1, 0};
      childPrefix(f, next.prefix, next.indent);
      if (kids.size() != 1) {
        for (std::size_t k = kids.size(); k-- > 0;)
          stack.push_back(Frame{kids[k], next.prefix, k + 1 == kids.size(), f.depth + 1, next.indent});
        break;
      }
      // a single child: measure its run of single children (the run ends at a leaf or a branch)
      long run = 1;
      for (int b = kids[0]; tree.children[b].size() == 1; b = tree.children[b][0]) ++run;
      next.body = kids[0];
      if (run > kRunShown) {
        for (int k = 0; k < kRunHead; ++k) {
          std::printf("%s└── %s\n", next.prefix.c_str(), bodyLabel(tree, next.body).c_str());
          Frame deeper{tree.children[next.body][0], std::string(), true, next.depth + 1, 0};
          childPrefix(next, deeper.prefix, deeper.indent);
          next = std::move(deeper);
        }
        const long hidden = run - kRunHead - kRunTail;
        std::printf("%s… %s more bodies in a chain …\n", next.prefix.c_str(), groupDigits(hidden).c_str());
        for (long k = 0; k < hidden; ++k) next.body = tree.children[next.body][0];
        next.depth += static_cast<int>(hidden);
      }
      f = std::move(next);
    }
  }
}

// The motion and drive tables a run of the model would read, checked as the run does: a model
// that loads but names a table with a missing or misnamed column is not valid to run.
std::vector<Diagnostic> tableProblems(const Model& model) {
  if (!readsTables(model)) return {};
  Tree tree;
  std::vector<Diagnostic> problems;
  if (!finalize(model, tree, problems)) return problems;
  return checkRunTables(model, tree);
}

}  // namespace

int cmdValidate(const std::vector<std::string>& args) {
  constexpr const char* kUsage =
      "usage: kinetree-cli validate [--package-path DIR]... [--] MODEL.yaml|ROBOT.urdf|ROBOT.xml|-...\n"
      "(-: a model file on standard input)\n";
  ParsedArgs parsed;
  if (!parseArgs("validate", kUsage, args, {packagePathSpec()}, parsed)) return 2;
  if (parsed.positional.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  bool allValid = true;
  for (std::size_t k = 0; k < parsed.positional.size(); ++k) {
    const std::string& path = parsed.positional[k];
    Model model;
    if (path.empty()) {
      std::fprintf(stderr, "kinetree-cli validate: argument %zu is an empty file name (''); expected a model file\n",
                   k + 1);
      allValid = false;
    } else if (!loadModel(path, model, packagePathsOf(parsed))) {
      allValid = false;
    } else if (const std::vector<Diagnostic> tables = tableProblems(model); !tables.empty()) {
      std::fputs(formatDiagnostics(tables).c_str(), stderr);
      allValid = false;
    } else {
      std::printf("%s: ok\n", path == "-" ? "<stdin>" : path.c_str());
    }
  }
  return allValid ? 0 : 1;
}

int cmdInfo(const std::vector<std::string>& args) {
  constexpr const char* kUsage =
      "usage: kinetree-cli info [--package-path DIR]... [--] MODEL.yaml|ROBOT.urdf|ROBOT.xml\n";
  ParsedArgs parsed;
  if (!parseArgs("info", kUsage, args, {packagePathSpec()}, parsed)) return 2;
  if (parsed.positional.size() != 1) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (parsed.positional[0].empty()) {
    std::fputs("kinetree-cli info: the model file name is empty (''); expected a model file\n", stderr);
    return 2;
  }
  Model model;
  if (!loadModel(parsed.positional[0], model, packagePathsOf(parsed))) return 1;
  Tree tree;
  std::vector<Diagnostic> problems;
  if (!finalize(model, tree, problems)) {
    std::fputs(formatDiagnostics(problems).c_str(), stderr);
    return 1;
  }
  std::printf("model: %s\n", escapeControls(model.name).c_str());
  if (!model.description.empty()) {
    std::string d = model.description;
    while (!d.empty() && (d.back() == '\n' || d.back() == ' ')) d.pop_back();
    std::printf("description: %s\n", escapeControls(d).c_str());
  }
  std::printf("gravity: %s m/s^2\n\nworld\n", formatRoundTripList(model.gravity.data(), 3).c_str());
  drawTree(tree);

  std::vector<std::string> bodyNames(tree.bodyNames.size()), jointNames(tree.jointNames.size());
  std::size_t wb = 4, wj = 5, wp = 6;
  for (int i = 0; i < tree.nb; ++i) {
    bodyNames[i] = escapeControls(tree.bodyNames[i]);
    jointNames[i] = escapeControls(tree.jointNames[i]);
    wb = std::max(wb, bodyNames[i].size());
    wj = std::max(wj, jointNames[i].size());
  }
  wp = std::max(wp, wb);
  const int bw = static_cast<int>(wb), jw = static_cast<int>(wj), pw = static_cast<int>(wp);
  std::printf("\n%-*s  %-*s  %-*s  %-11s  %3s  %3s  %12s\n", bw, "body", pw, "parent", jw, "joint", "type", "nq", "nv",
              "mass [kg]");
  for (int i = 0; i < tree.nb; ++i) {
    const std::string parent = tree.parent[i] < 0 ? std::string("world") : bodyNames[tree.parent[i]];
    std::printf("%-*s  %-*s  %-*s  %-11s  %3d  %3d  %12s\n", bw, bodyNames[i].c_str(), pw, parent.c_str(), jw,
                jointNames[i].c_str(), std::string(jointTypeName(tree.joints[i].type)).c_str(), tree.joints[i].nq,
                tree.joints[i].nv, formatSignificant(tree.I[i].m, 6).c_str());
  }
  std::printf("\nbodies: %d\nnq: %d\nnv: %d (degrees of freedom)\ntotal mass: %s kg\n", tree.nb, tree.nq, tree.nv,
              formatSignificant(tree.totalMass(), 6).c_str());
  std::printf("simulation: solver %s, integrator %s, step %s s, duration %s s\n", model.simulation.solver.c_str(),
              model.simulation.integrator.c_str(), formatRoundTrip(model.simulation.step).c_str(),
              formatRoundTrip(model.simulation.duration).c_str());
  return 0;
}

}  // namespace kt::cli
