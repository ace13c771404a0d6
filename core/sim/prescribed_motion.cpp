// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/prescribed_motion.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "core/model/text_util.hpp"

namespace kt {

const MotionTable& MotionTables::get(const std::string& file) {
  std::filesystem::path p(file);
  if (p.is_relative() && !directory_.empty()) p = std::filesystem::path(directory_) / p;
  const std::string key = p.lexically_normal().string();
  auto it = tables_.find(key);
  if (it == tables_.end()) {
    // messages name the file as the model wrote it, next to where it was looked for
    MotionTable table = readMotionTable(key);
    it = tables_.emplace(key, std::make_unique<MotionTable>(std::move(table))).first;
  }
  return *it->second;
}

void MotionTables::checkStart(const MotionTable& table) {
  if (table.time.front() <= 1e-9) return;  // covers t = 0
  Diagnostic d;
  d.file = table.path;
  d.line = table.rowLines.front();
  d.column = 1;
  d.message = "the samples start at t = " + formatRoundTrip(table.time.front()) +
              " s, but a run starts at t = 0: add a row at t = 0";
  throw TableError(std::move(d));
}

namespace {

// The joint a column q:<joint>[k] (or tau:...) names, and k; −1 when it is not of that form.
int columnCoordinate(const std::string& column, const std::string& prefix, std::string& joint) {
  joint.clear();
  if (!column.starts_with(prefix)) return -1;
  const std::size_t open = column.rfind('[');
  if (open == std::string::npos || open < prefix.size() || column.back() != ']') return -1;
  const std::string digits = column.substr(open + 1, column.size() - open - 2);
  if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  joint = column.substr(prefix.size(), open - prefix.size());
  return std::stoi(digits);
}

}  // namespace

std::vector<std::span<const double>> MotionTables::jointColumns(const MotionTable& table, const Tree& tree, int i,
                                                                const std::string& prefix) {
  const JointModel& joint = tree.joints[static_cast<std::size_t>(i)];
  const std::string& name = tree.jointNames[static_cast<std::size_t>(i)];
  std::vector<std::span<const double>> out;
  for (int k = 0; k < joint.nv; ++k) {
    const std::string column = prefix + name + "[" + std::to_string(k) + "]";
    const MotionTable::Column* c = table.find(column);
    if (c == nullptr) {
      // what the file has instead: its joints of that kind, and the nearest to this one among
      // those the model does not have (a joint of the model was not renamed to this one)
      std::vector<std::string> joints, strangers;
      std::vector<const MotionTable::Column*> strangerColumns;
      std::string other;
      for (const MotionTable::Column& col : table.columns)
        if (columnCoordinate(col.name, prefix, other) >= 0 &&
            std::find(joints.begin(), joints.end(), other) == joints.end()) {
          joints.push_back(other);
          if (std::find(tree.jointNames.begin(), tree.jointNames.end(), other) == tree.jointNames.end()) {
            strangers.push_back(other);
            strangerColumns.push_back(&col);
          }
        }
      std::string has = "the file has no " + prefix + " column";
      const MotionTable::Column* nearColumn = nullptr;
      if (!joints.empty()) {
        has = "its " + prefix + " columns name ";
        for (std::size_t j = 0; j < joints.size() && j < 6; ++j) has += (j ? ", " : "") + joints[j];
        if (joints.size() > 6) has += ", …";
        if (const std::string near = closestMatch(name, strangers); !near.empty()) {
          has += "; was the joint '" + near + "' renamed?";
          nearColumn = strangerColumns[static_cast<std::size_t>(std::find(strangers.begin(), strangers.end(), near) -
                                                                strangers.begin())];
        }
      }
      std::string message =
          "no column '" + column + "' for coordinate " + std::to_string(k) + " of joint '" + name + "' (" + has + ")";
      // at the column that is most likely meant, else after the joint's coordinates the file
      // has (a joint with one of two columns), else at the start of the header
      if (nearColumn) throw TableError(table.at(*nearColumn, std::move(message)));
      for (int before = k - 1; before >= 0; --before)
        if (const MotionTable::Column* had = table.find(prefix + name + "[" + std::to_string(before) + "]"))
          throw TableError(table.at(*had, std::move(message)));
      Diagnostic d;
      d.file = table.path;
      d.line = table.headerLine;
      d.column = 1;
      d.message = std::move(message);
      throw TableError(std::move(d));
    }
    // the units a coordinate may be written in: SI, or degrees for an angle
    const bool angular = prefix == "q:" && joint.velocityIsAngular(k);
    const bool known =
        prefix == "q:"
            ? c->unit.empty() || (angular ? c->unit == "rad" || c->unit == "deg" || c->unit == "°" : c->unit == "m")
            : c->unit.empty() || c->unit == "N*m" || c->unit == "N·m" || c->unit == "Nm" || c->unit == "N";
    if (!known) {
      const std::string expected =
          prefix == "q:" ? (angular ? "rad or deg" : "m") : (joint.velocityIsAngular(k) ? "N*m" : "N");
      throw TableError(table.at(*c, "'" + c->name + "' is in (" + c->unit + "), which is not read here; write it in " +
                                        expected + " (or with no unit: SI)"));
    }
    out.emplace_back(c->values);
  }
  return out;
}

MotionTableMatch applyMotionTable(Model& model, const MotionTable& table, const std::string& file, double cutoff,
                                  bool partial) {
  MotionTableMatch match;
  const auto nameOf = [&](int b) {
    const BodySpec& spec = model.bodies[static_cast<std::size_t>(b)];
    return spec.joint.name.empty() ? spec.name : spec.joint.name;
  };
  std::vector<int> bodies;             // the joints the columns name, in the order first named
  std::vector<std::vector<char>> has;  // (bodies) the coordinates they give
  std::vector<int> skipped;            // joints that move under the dynamics (one note each)
  std::string joint;
  for (const MotionTable::Column& c : table.columns) {
    if (!c.name.starts_with("q:")) continue;
    const int coordinate = columnCoordinate(c.name, "q:", joint);
    int body = -1;
    for (std::size_t b = 0; b < model.bodies.size() && coordinate >= 0; ++b)
      if (nameOf(static_cast<int>(b)) == joint) body = static_cast<int>(b);
    if (body < 0) {
      std::vector<std::string> names;
      for (std::size_t b = 0; b < model.bodies.size(); ++b)
        if (model.bodies[b].joint.type != JointType::Fixed) names.push_back(nameOf(static_cast<int>(b)));
      const std::string near = coordinate < 0 ? std::string() : closestMatch(joint, names);
      match.unmatched.push_back(table.at(c, "the column '" + c.name + "' names no joint of the model" +
                                                (coordinate < 0 ? " (expected q:<joint>[k])" : "") +
                                                (near.empty() ? std::string() : " (did you mean '" + near + "'?)")));
      continue;
    }
    const JointSpec& j = model.bodies[static_cast<std::size_t>(body)].joint;
    const int nv = jointNv(j.type);
    if (nv == 0) {
      match.problems.push_back(table.at(
          c, "the joint '" + joint + "' is fixed and cannot follow a prescribed motion (it has no coordinate)"));
      continue;
    }
    if (jointNq(j.type) != nv || jointUsesQuasiVelocity(j.type)) {
      // a floating base in a run's own export: it moves under the dynamics as the joints it
      // carries follow the file (docs/motion.md)
      if (std::find(skipped.begin(), skipped.end(), body) == skipped.end()) {
        skipped.push_back(body);
        Diagnostic note = table.at(c, "the joint '" + joint + "' is " + std::string(jointTypeName(j.type)) +
                                          " and cannot follow a prescribed motion: it moves under the dynamics, "
                                          "and its q: columns are not read");
        note.warning = true;
        match.skipped.push_back(std::move(note));
      }
      continue;
    }
    if (coordinate >= nv) {
      match.problems.push_back(table.at(c, "the joint '" + joint + "' has " + std::to_string(nv) + " coordinate" +
                                               (nv == 1 ? "" : "s") + " (q:" + joint + "[0]" +
                                               (nv > 1 ? " to [" + std::to_string(nv - 1) + "]" : "") + ")"));
      continue;
    }
    auto it = std::find(bodies.begin(), bodies.end(), body);
    if (it == bodies.end()) {
      bodies.push_back(body);
      has.emplace_back(static_cast<std::size_t>(nv), 0);
      it = bodies.end() - 1;
    }
    has[static_cast<std::size_t>(it - bodies.begin())][static_cast<std::size_t>(coordinate)] = 1;
  }
  // a joint follows the file in all of its coordinates or not at all
  std::vector<int> complete;
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const auto missing = std::find(has[k].begin(), has[k].end(), 0);
    if (missing == has[k].end()) {
      complete.push_back(bodies[k]);
      continue;
    }
    const std::string name = nameOf(bodies[k]);
    Diagnostic d;
    d.file = table.path;
    d.line = table.headerLine;
    d.column = 1;
    d.message = "the joint '" + name + "' has " + std::to_string(has[k].size()) +
                " coordinates and the file no column q:" + name + "[" + std::to_string(missing - has[k].begin()) +
                "]: a joint follows the file in all of them";
    match.problems.push_back(std::move(d));
  }
  if (!partial && (!match.unmatched.empty() || !match.problems.empty())) return match;
  std::sort(complete.begin(), complete.end());
  for (int b : complete) {
    JointSpec& j = model.bodies[static_cast<std::size_t>(b)].joint;
    j.drive = Drive{};
    j.motion = Motion{};
    j.motion.type = MotionType::Table;
    j.motion.file = file;
    j.motion.cutoff = cutoff;
    match.joints.push_back(nameOf(b));
  }
  return match;
}

PrescribedMotions::PrescribedMotions(const Model& model, const Tree& tree, MotionTables& tables)
    : tree_(&tree),
      motions_(static_cast<std::size_t>(tree.nb)),
      mask_(static_cast<std::size_t>(tree.nb), 0),
      lastTime_(std::numeric_limits<double>::infinity()) {
  bool every = true;
  for (int i = 0; i < tree.nb; ++i) {
    const Motion& m = model.bodies[static_cast<std::size_t>(tree.specIndex[i])].joint.motion;
    const int nv = tree.joints[i].nv;
    if (m.type == MotionType::None || nv == 0) {
      every = every && nv == 0;
      continue;
    }
    const std::string& name = tree.jointNames[i];
    try {
      if (m.type == MotionType::Table) {
        const MotionTable& table = tables.get(m.file);
        MotionTables::checkStart(table);
        CoordinateSamples samples;
        samples.time = table.time;
        samples.values = MotionTables::jointColumns(table, tree, i, "q:");
        samples.cutoff = m.cutoff;
        motions_[i] = JointMotion(m, nv, &samples);
        if (table.time.back() < lastTime_) {
          lastTime_ = table.time.back();
          lastTimeJoint_ = i;
          lastTimeFile_ = table.path;
          lastTimeLine_ = table.rowLines.back();
        }
      } else {
        motions_[i] = JointMotion(m, nv);
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("the motion of joint '" + name + "'" +
                                  (m.type == MotionType::Table ? " (" + m.file + ")" : std::string()) + ": " +
                                  e.what());
    }
    mask_[i] = 1;
    joints_.push_back(i);
  }
  all_ = every && !joints_.empty();
}

void PrescribedMotions::apply(double t, double* q, double* v, double* qdd) const {
  for (int i : joints_) {
    const int qo = tree_->qOffset[i], vo = tree_->vOffset[i];
    const JointMotion& m = motions_[static_cast<std::size_t>(i)];
    for (int k = 0; k < m.size(); ++k) {
      const MotionSample s = m.at(k, t);
      q[qo + k] = s.q;
      v[vo + k] = s.qd;
      if (qdd != nullptr) qdd[vo + k] = s.qdd;
    }
  }
}

}  // namespace kt
