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
  if (std::abs(table.time.front()) <= 1e-9) return;
  Diagnostic d;
  d.file = table.path;
  d.line = table.rowLines.front();
  d.column = 1;
  d.message = "the samples start at t = " + formatRoundTrip(table.time.front()) +
              " s, but a run starts at t = 0: add a row at t = 0";
  throw TableError(std::move(d));
}

std::vector<std::span<const double>> MotionTables::jointColumns(const MotionTable& table, const Tree& tree, int i,
                                                                const std::string& prefix) {
  const JointModel& joint = tree.joints[static_cast<std::size_t>(i)];
  const std::string& name = tree.jointNames[static_cast<std::size_t>(i)];
  std::vector<std::span<const double>> out;
  std::string found;
  for (const MotionTable::Column& c : table.columns)
    if (c.name.starts_with(prefix + name + "[")) found += (found.empty() ? "" : ", ") + c.name;
  for (int k = 0; k < joint.nv; ++k) {
    const std::string column = prefix + name + "[" + std::to_string(k) + "]";
    const MotionTable::Column* c = table.find(column);
    if (c == nullptr) {
      Diagnostic d;
      d.file = table.path;
      d.line = 1;
      d.column = 1;
      d.message = "no column '" + column + "' for coordinate " + std::to_string(k) + " of joint '" + name + "' (" +
                  std::to_string(joint.nv) + " coordinate" + (joint.nv == 1 ? "" : "s") + "; the file has " +
                  (found.empty() ? std::string("none of its columns") : found) + ")";
      throw TableError(std::move(d));
    }
    const bool angular = prefix == "q:" ? joint.velocityIsAngular(k) : false;
    if (c->degrees && !angular)
      throw TableError(
          table.at(*c, "'" + c->name + "' is in " + c->unit + ", but " +
                           (prefix == "q:" ? "this coordinate is a length (m)" : "a generalized force is in N*m or N") +
                           "; write it in SI units"));
    out.emplace_back(c->values);
  }
  return out;
}

MotionTableMatch applyMotionTable(Model& model, const MotionTable& table, const std::string& file, double cutoff,
                                  bool partial) {
  MotionTableMatch match;
  std::vector<int> bodies;
  for (const MotionTable::Column& c : table.columns) {
    if (!c.name.starts_with("q:")) continue;
    const std::size_t open = c.name.rfind('[');
    const std::string joint = c.name.substr(2, open == std::string::npos ? std::string::npos : open - 2);
    int coordinate = -1;
    if (open != std::string::npos && c.name.back() == ']') {
      const std::string digits = c.name.substr(open + 1, c.name.size() - open - 2);
      if (!digits.empty() && digits.size() < 4 && digits.find_first_not_of("0123456789") == std::string::npos)
        coordinate = std::stoi(digits);
    }
    int body = -1;
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      const BodySpec& spec = model.bodies[b];
      if ((spec.joint.name.empty() ? spec.name : spec.joint.name) == joint) body = static_cast<int>(b);
    }
    if (body < 0 || coordinate < 0) {
      std::vector<std::string> names;
      for (const BodySpec& spec : model.bodies)
        if (spec.joint.type != JointType::Fixed) names.push_back(spec.joint.name.empty() ? spec.name : spec.joint.name);
      const std::string near = closestMatch(joint, names);
      match.unmatched.push_back(table.at(c, "the column '" + c.name + "' names no joint of the model" +
                                                (coordinate < 0 ? " (expected q:<joint>[k])" : "") +
                                                (near.empty() ? std::string() : " (did you mean '" + near + "'?)")));
      continue;
    }
    const JointSpec& j = model.bodies[static_cast<std::size_t>(body)].joint;
    const int nq = jointNq(j.type), nv = jointNv(j.type);
    if (nv == 0 || nq != nv || jointUsesQuasiVelocity(j.type)) {
      match.problems.push_back(table.at(
          c, "the joint '" + joint + "' is " + std::string(jointTypeName(j.type)) +
                 " and cannot follow a prescribed motion (revolute, prismatic, cylindrical and universal joints "
                 "can); remove its columns"));
      continue;
    }
    if (coordinate >= nv) {
      match.problems.push_back(table.at(c, "the joint '" + joint + "' has " + std::to_string(nv) + " coordinate" +
                                               (nv == 1 ? "" : "s") + " (q:" + joint + "[0]" +
                                               (nv > 1 ? " to [" + std::to_string(nv - 1) + "]" : "") + ")"));
      continue;
    }
    if (std::find(bodies.begin(), bodies.end(), body) == bodies.end()) bodies.push_back(body);
  }
  if (!partial && (!match.unmatched.empty() || !match.problems.empty())) return match;
  std::sort(bodies.begin(), bodies.end());
  for (int b : bodies) {
    JointSpec& j = model.bodies[static_cast<std::size_t>(b)].joint;
    j.drive = Drive{};
    j.motion = Motion{};
    j.motion.type = MotionType::Table;
    j.motion.file = file;
    j.motion.cutoff = cutoff;
    match.joints.push_back(j.name.empty() ? model.bodies[static_cast<std::size_t>(b)].name : j.name);
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
      throw std::invalid_argument("the motion of joint '" + name + "': " + e.what());
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
