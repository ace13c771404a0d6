// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/signals.hpp"

#include <algorithm>

namespace kt {
namespace {

// The columns of a wrench are fx fy fz mx my mz; its Vec6 is [moment; force].
constexpr int kWrenchIndex[] = {3, 4, 5, 0, 1, 2};

std::string positionUnit(const JointModel& joint, int k) {
  if (joint.hasQuaternion()) return k < 4 ? "1" : "m";  // the quaternion, then (free joint) the position
  return joint.velocityIsAngular(k) ? "rad" : "m";
}

}  // namespace

std::vector<ReactionComponent> reactionComponents(const JointModel& joint) {
  // T at the neutral position (only a universal joint's T turns with q: its one moment column
  // stays the constraint moment about a1 × a2)
  Mat6N T;
  Eigen::Matrix<double, 7, 1> q0;
  joint.neutral(q0.data());
  joint.constraintSubspace(q0.data(), T);
  static constexpr const char* kAxes = "xyz";
  // a column along ±e_d, and whether every column of its kind (moments, forces) is so: a kind is
  // named after the axes only then (and never where T turns with q: the universal joint's)
  std::vector<int> axisOf(static_cast<std::size_t>(T.cols()), -1), signOf(static_cast<std::size_t>(T.cols()), 1);
  bool momentsAligned = !joint.subspacesDependOnQ(), forcesAligned = true;
  for (Eigen::Index k = 0; k < T.cols(); ++k) {
    for (int d = 0; d < 6; ++d)
      for (const int sign : {1, -1})
        if (T.col(k) == sign * Vec6::Unit(d)) {
          axisOf[static_cast<std::size_t>(k)] = d;
          signOf[static_cast<std::size_t>(k)] = sign;
        }
    const bool moment = T.col(k).head<3>().norm() > 0.5;
    if (axisOf[static_cast<std::size_t>(k)] < 0) (moment ? momentsAligned : forcesAligned) = false;
  }
  std::vector<ReactionComponent> out;
  int moments = 0, forces = 0;
  for (Eigen::Index k = 0; k < T.cols(); ++k) {
    const bool moment = T.col(k).head<3>().norm() > 0.5;
    const int d = axisOf[static_cast<std::size_t>(k)];
    ReactionComponent c;
    if (moment ? momentsAligned : forcesAligned) {
      c.name = std::string(moment ? "m" : "f") + kAxes[d % 3];
      c.sign = signOf[static_cast<std::size_t>(k)];
    } else {
      c.name = moment ? "m" + std::to_string(++moments) : "f" + std::to_string(++forces);
    }
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

std::string indexed(const char* prefix, const std::string& joint, int k) {
  return std::string(prefix) + joint + "[" + std::to_string(k) + "]";
}

}  // namespace

SignalLayout::SignalLayout(const Tree& tree, bool applied, bool worldLoadsDerived)
    : worldLoadsDerived_(worldLoadsDerived) {
  auto add = [this](std::string name, SignalKind kind, int body, int component, int index, std::string unit) {
    names_.push_back(name);
    signals_.push_back({std::move(name), kind, body, component, index, std::move(unit)});
  };
  add("time", SignalKind::Time, -1, 0, 0, "s");
  for (int i = 0; i < tree.nb; ++i)
    for (int k = 0; k < tree.joints[i].nq; ++k)
      add(indexed("q:", tree.jointNames[i], k), SignalKind::Q, i, k, tree.qOffset[i] + k,
          positionUnit(tree.joints[i], k));
  struct VelocityGroup {
    const char* prefix;
    SignalKind kind;
    const char* angular;
    const char* linear;
  };
  for (const VelocityGroup& g :
       {VelocityGroup{"qd:", SignalKind::Qd, "rad/s", "m/s"},
        VelocityGroup{"qdd:", SignalKind::Qdd, "rad/s^2", "m/s^2"}, VelocityGroup{"tau:", SignalKind::Tau, "N*m", "N"}})
    for (int i = 0; i < tree.nb; ++i)
      for (int k = 0; k < tree.joints[i].nv; ++k)
        add(indexed(g.prefix, tree.jointNames[i], k), g.kind, i, k, tree.vOffset[i] + k,
            tree.joints[i].velocityIsAngular(k) ? g.angular : g.linear);
  for (int i = 0; i < tree.nb; ++i)
    if (tree.joints[i].nv > 0)
      add("power:" + tree.jointNames[i], SignalKind::Power, i, tree.joints[i].nv, tree.vOffset[i], "W");
  // wrench components in column order fx, fy, fz, mx, my, mz; f = [moment; force]
  static constexpr const char* kWrench[] = {"fx", "fy", "fz", "mx", "my", "mz"};
  for (const auto& [prefix, kind] :
       {std::pair{"load:", SignalKind::Load}, std::pair{"load_world:", SignalKind::LoadWorld},
        std::pair{"load_parent:", SignalKind::LoadParent}})
    for (int i = 0; i < tree.nb; ++i)
      for (int c = 0; c < 6; ++c)
        add(std::string(prefix) + tree.jointNames[i] + "." + kWrench[c], kind, i, c, kWrenchIndex[c],
            c < 3 ? "N" : "N*m");
  for (int i = 0; i < tree.nb; ++i) {
    const std::vector<ReactionComponent> parts = reactionComponents(tree.joints[i]);
    for (int k = 0; k < 6 - tree.joints[i].nv; ++k) {
      const ReactionComponent& c = parts[static_cast<std::size_t>(k)];
      add("reaction:" + tree.jointNames[i] + "." + c.name, SignalKind::Reaction, i, k, tree.lambdaOffset[i] + k,
          c.name[0] == 'm' ? "N*m" : "N");
      signals_.back().scale = c.sign;
    }
  }
  freeBodies_ = freeJointBodies(tree);
  static constexpr const char* kAngles[] = {"roll", "pitch", "yaw"};
  static constexpr const char* kAxes[] = {"x", "y", "z"};
  for (int f = 0; f < static_cast<int>(freeBodies_.size()); ++f)
    for (int c = 0; c < 3; ++c)
      add("attitude:" + tree.bodyNames[freeBodies_[f]] + "." + kAngles[c], SignalKind::Attitude, freeBodies_[f], c, f,
          "rad");
  for (int f = 0; f < static_cast<int>(freeBodies_.size()); ++f)
    for (int c = 0; c < 3; ++c)
      add("position:" + tree.bodyNames[freeBodies_[f]] + "." + kAxes[c], SignalKind::Position, freeBodies_[f], c, f,
          "m");
  add("energy.kinetic", SignalKind::Energy, -1, 0, 0, "J");
  add("energy.potential", SignalKind::Energy, -1, 1, 1, "J");
  add("energy.total", SignalKind::Energy, -1, 2, 2, "J");
  static constexpr const char* kMomentum[] = {"px", "py", "pz", "lx", "ly", "lz"};
  for (int c = 0; c < 6; ++c)
    add(std::string("momentum.") + kMomentum[c], SignalKind::Momentum, -1, c, c < 3 ? 3 + c : c - 3,
        c < 3 ? "kg*m/s" : "kg*m^2/s");
  if (applied)
    for (int i = 0; i < tree.nb; ++i)
      for (int c = 0; c < 6; ++c)
        add("applied:" + tree.bodyNames[i] + "." + kWrench[c], SignalKind::Applied, i, c, kWrenchIndex[c],
            c < 3 ? "N" : "N*m");

  qColumns_.assign(static_cast<std::size_t>(tree.nq), -1);
  vColumns_.assign(static_cast<std::size_t>(tree.nv), -1);
  loadColumns_.assign(static_cast<std::size_t>(tree.nb), std::array<int, 6>{});
  worldColumns_.assign(static_cast<std::size_t>(tree.nb), std::array<int, 6>{});
  reactionColumns_.assign(static_cast<std::size_t>(tree.nlambda), -1);
  for (int k = 0; k < size(); ++k) {
    const SignalInfo& s = signals_[static_cast<std::size_t>(k)];
    if (s.kind == SignalKind::Q) qColumns_[static_cast<std::size_t>(s.index)] = k;
    if (s.kind == SignalKind::Qd) vColumns_[static_cast<std::size_t>(s.index)] = k;
    if (derives(s.kind))
      derivedColumns_.push_back(k);
    else if (!measuredRanges_.empty() && measuredRanges_.back().second == k)
      ++measuredRanges_.back().second;
    else
      measuredRanges_.emplace_back(k, k + 1);
    if (s.kind == SignalKind::Load)
      loadColumns_[static_cast<std::size_t>(s.body)][static_cast<std::size_t>(s.index)] = k;
    if (s.kind == SignalKind::LoadWorld)
      worldColumns_[static_cast<std::size_t>(s.body)][static_cast<std::size_t>(s.index)] = k;
    if (s.kind == SignalKind::Reaction) reactionColumns_[static_cast<std::size_t>(s.index)] = k;
  }
  // fill()'s runs: a column extends the run before it when it reads the next double of the same source
  reactionScale_.assign(signals_.size(), 1.0);
  for (int k = 0; k < size(); ++k) {
    const SignalInfo& s = signals_[static_cast<std::size_t>(k)];
    bool copied = true;
    int start = s.index;
    switch (s.kind) {
      case SignalKind::Q:
      case SignalKind::Qd:
      case SignalKind::Qdd:
      case SignalKind::Tau: break;
      case SignalKind::Reaction: reactionScale_[static_cast<std::size_t>(k)] = s.scale; break;
      case SignalKind::Load:
      case SignalKind::LoadWorld:
      case SignalKind::LoadParent:
      case SignalKind::Applied: start = 6 * s.body + s.component; break;  // columns fx … mz of each body
      default: copied = false; break;
    }
    if (derives(s.kind)) continue;  // SignalDeriver's
    if (copied && !runs_.empty()) {
      Run& last = runs_.back();
      if (last.kind == s.kind && last.column + last.length == k && last.start + last.length == start) {
        ++last.length;
        continue;
      }
    }
    runs_.push_back({s.kind, k, 1, start, s.body, s.component, s.index});
  }
}

void SignalLayout::positionsFromRow(const double* row, Eigen::VectorXd& q) const {
  q.resize(static_cast<Eigen::Index>(qColumns_.size()));
  for (std::size_t k = 0; k < qColumns_.size(); ++k) q[static_cast<Eigen::Index>(k)] = row[qColumns_[k]];
}

void SignalLayout::velocityVectorFromRow(SignalKind kind, const double* row, Eigen::VectorXd& out) const {
  int n = 0;
  for (const SignalInfo& s : signals_)
    if (s.kind == kind) n = std::max(n, s.index + 1);
  out.setZero(n);
  for (std::size_t k = 0; k < signals_.size(); ++k)
    if (signals_[k].kind == kind) out[signals_[k].index] = row[k];
}

void SignalLayout::jointWrenchesFromRow(const double* row, std::vector<Vec6>& f) const {
  f.resize(loadColumns_.size());
  for (std::size_t i = 0; i < loadColumns_.size(); ++i)
    for (std::size_t c = 0; c < 6; ++c) f[i][static_cast<Eigen::Index>(c)] = row[loadColumns_[i][c]];
}

void SignalLayout::worldWrenchesFromRow(const double* row, std::vector<Vec6>& f) const {
  f.resize(worldColumns_.size());
  for (std::size_t i = 0; i < worldColumns_.size(); ++i)
    for (std::size_t c = 0; c < 6; ++c) f[i][static_cast<Eigen::Index>(c)] = row[worldColumns_[i][c]];
}

void SignalLayout::loadsFromRow(const double* row, RecordedLoads& loads) const {
  jointWrenchesFromRow(row, loads.f);
  worldWrenchesFromRow(row, loads.fWorld);
  loads.lambda.resize(static_cast<Eigen::Index>(reactionColumns_.size()));
  for (std::size_t k = 0; k < reactionColumns_.size(); ++k) {
    const int column = reactionColumns_[k];
    // the signal is scale · λ_k with scale = ±1: dividing by it undoes it exactly
    loads.lambda[static_cast<Eigen::Index>(k)] = row[column] / signals_[static_cast<std::size_t>(column)].scale;
  }
}

int SignalLayout::find(std::string_view name) const {
  for (int k = 0; k < size(); ++k)
    if (names_[k] == name) return k;
  return -1;
}

void SignalLayout::fill(const SampleInputs& in, double* row) const {
  const auto copy = [row](const Run& r, const double* from) { std::copy_n(from + r.start, r.length, row + r.column); };
  // f_i = [moment; force], the columns of a body fx fy fz mx my mz: a run of whole bodies copies
  // each body's two halves crosswise, any other run (a layout of one's own) element by element
  const auto wrenches = [row](const Run& r, const std::vector<Vec6>& f) {
    if (r.start % 6 == 0 && r.length % 6 == 0) {
      double* out = row + r.column;
      for (int b = r.start / 6, end = b + r.length / 6; b < end; ++b, out += 6) {
        const Vec6& w = f[static_cast<std::size_t>(b)];
        for (int c = 0; c < 3; ++c) {
          out[c] = w[3 + c];
          out[3 + c] = w[c];
        }
      }
      return;
    }
    for (int j = 0; j < r.length; ++j) {
      const int e = r.start + j;
      row[r.column + j] = f[static_cast<std::size_t>(e / 6)][kWrenchIndex[e % 6]];
    }
  };
  for (const Run& r : runs_) {
    double& x = row[r.column];
    switch (r.kind) {
      case SignalKind::Time: x = in.t; break;
      case SignalKind::Q: copy(r, in.q->data()); break;
      case SignalKind::Qd: copy(r, in.v->data()); break;
      case SignalKind::Qdd: copy(r, in.qdd->data()); break;
      case SignalKind::Tau: copy(r, in.tau->data()); break;
      case SignalKind::Power: x = in.tau->segment(r.index, r.component).dot(in.v->segment(r.index, r.component)); break;
      case SignalKind::Load: wrenches(r, in.loads->f); break;
      case SignalKind::LoadWorld: wrenches(r, in.loads->fWorld); break;
      case SignalKind::Reaction:
        for (int j = 0; j < r.length; ++j) {
          const int column = r.column + j;
          row[column] = reactionScale_[static_cast<std::size_t>(column)] * in.loads->lambda[r.start + j];
        }
        break;
      case SignalKind::LoadParent:
      case SignalKind::Attitude:
      case SignalKind::Position:
      case SignalKind::Energy:
      case SignalKind::Momentum: break;  // derived (runs_ has none)
      case SignalKind::Applied: wrenches(r, *in.applied); break;
    }
  }
}

bool globMatch(std::string_view pattern, std::string_view name) {
  // iterative wildcard matching with backtracking to the last '*'
  std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

// What a pattern that matches nothing may have meant: the signals that share its stem up to the
// last '.' ("reaction:J22.mx" → the joint's reaction: components, "energy.kinetik" → energy.'s), or, when none do, the
// names of the kind before ':' ("load:J2.fx" → the joints that have load: signals). Empty when neither helps.
std::string signalHint(const std::vector<std::string>& names, std::string_view pattern) {
  const std::string_view literal = pattern.substr(0, std::min(pattern.find_first_of("*?["), pattern.size()));
  const auto starting = [&](std::string_view stem) {
    std::vector<std::string_view> out;
    for (const std::string& n : names)
      if (n.size() > stem.size() && std::string_view(n).substr(0, stem.size()) == stem) out.push_back(n);
    return out;
  };
  const auto listed = [](const std::vector<std::string_view>& items) {
    std::string out;
    for (std::size_t k = 0; k < items.size() && k < 8; ++k) out += (k ? ", " : "") + std::string(items[k]);
    if (items.size() > 8) out += ", … (" + std::to_string(items.size()) + ")";
    return out;
  };
  if (const std::size_t dot = literal.rfind('.'); dot != std::string_view::npos) {
    const std::string_view stem = literal.substr(0, dot + 1);
    std::vector<std::string_view> rest;
    for (const std::string_view n : starting(stem)) rest.push_back(n.substr(stem.size()));
    if (!rest.empty()) return "; " + std::string(stem) + "* is " + listed(rest);
  }
  if (const std::size_t colon = literal.find(':'); colon != std::string_view::npos) {
    const std::string_view kind = literal.substr(0, colon + 1);
    std::vector<std::string_view> owners;
    for (const std::string_view n : starting(kind)) {
      const std::string_view owner = n.substr(kind.size(), n.find_first_of(".[", kind.size()) - kind.size());
      if (std::find(owners.begin(), owners.end(), owner) == owners.end()) owners.push_back(owner);
    }
    if (!owners.empty()) return "; " + std::string(kind) + " signals are of " + listed(owners);
  }
  return {};
}

}  // namespace

bool selectSignals(const std::vector<std::string>& names, std::string_view patterns, std::vector<int>& selected,
                   std::string& error) {
  selected.clear();
  std::vector<char> taken(names.size(), 0);
  bool any = false;
  std::size_t start = 0;
  while (start <= patterns.size()) {
    std::size_t end = patterns.find(',', start);
    if (end == std::string_view::npos) end = patterns.size();
    std::string_view pat = patterns.substr(start, end - start);
    while (!pat.empty() && pat.front() == ' ') pat.remove_prefix(1);
    while (!pat.empty() && pat.back() == ' ') pat.remove_suffix(1);
    start = end + 1;
    if (pat.empty()) continue;
    any = true;
    bool matched = false;
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (!globMatch(pat, names[k])) continue;
      matched = true;
      if (!taken[k]) {
        taken[k] = 1;
        selected.push_back(static_cast<int>(k));
      }
    }
    if (!matched) {
      error = "no signal matches '" + std::string(pat) + "'" + signalHint(names, pat) + " (see docs/signals.md)";
      return false;
    }
  }
  if (!any)
    for (std::size_t k = 0; k < names.size(); ++k) selected.push_back(static_cast<int>(k));
  return true;
}

}  // namespace kt
