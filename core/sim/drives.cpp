// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/drives.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "core/sim/prescribed_motion.hpp"

namespace kt {
namespace {

// Broadcast a per-coordinate vector to n entries (one entry → all; missing → 0).
void broadcast(std::vector<double>& values, int n) {
  if (static_cast<int>(values.size()) == n) return;
  const double fill = values.size() == 1 ? values[0] : 0.0;
  values.assign(n, fill);
}

void broadcastDrive(Drive& d, int n) {
  for (std::vector<double>* v :
       {&d.value, &d.amplitude, &d.frequency, &d.phase, &d.offset, &d.stiffness, &d.damping, &d.restPosition})
    broadcast(*v, n);
  if (static_cast<int>(d.knots.size()) != n) {
    const std::vector<Knot> fill = d.knots.size() == 1 ? d.knots[0] : std::vector<Knot>{};
    d.knots.assign(n, fill);
  }
}

}  // namespace

void piecewiseLinearTarget(const std::vector<Knot>& knots, double t, double& value, double& slope) {
  slope = 0.0;
  if (knots.empty()) {
    value = 0.0;
    return;
  }
  if (t <= knots.front().t) {
    value = knots.front().value;
    return;
  }
  if (t >= knots.back().t) {
    value = knots.back().value;
    return;
  }
  // knots are few (a handful): a linear scan is the fastest search
  std::size_t k = 1;
  while (knots[k].t < t) ++k;
  const Knot& a = knots[k - 1];
  const Knot& b = knots[k];
  const double dt = b.t - a.t;
  if (dt <= 0.0) {
    value = b.value;
    return;
  }
  slope = (b.value - a.value) / dt;
  value = a.value + slope * (t - a.t);
}

Drives::Drives(const Model& model, const Tree& tree, MotionTables* tables)
    : tree_(&tree),
      tables_(tables),
      drives_(tree.nb),
      tabulated_(tree.nb),
      tableFiles_(tree.nb),
      tableLastLines_(tree.nb, 0) {
  for (int i = 0; i < tree.nb; ++i) {
    drives_[i] = model.bodies[tree.specIndex[i]].joint.drive;
    broadcastDrive(drives_[i], tree.joints[i].nv);
    loadTable(i);
  }
  refresh();
}

void Drives::setDrive(int joint, const Drive& drive) {
  drives_[joint] = drive;
  broadcastDrive(drives_[joint], tree_->joints[joint].nv);
  loadTable(joint);
  refresh();
}

void Drives::loadTable(int joint) {
  tabulated_[joint].clear();
  if (drives_[joint].type != DriveType::Table || tree_->joints[joint].nv == 0) return;
  if (tables_ == nullptr)
    throw std::invalid_argument("the table drive of joint '" + tree_->jointNames[joint] + "' has no file to read");
  const MotionTable& table = tables_->get(drives_[joint].file);
  MotionTables::checkStart(table);
  for (std::span<const double> column : MotionTables::jointColumns(table, *tree_, joint, "tau:"))
    tabulated_[joint].push_back(CubicSpline::notAKnot(table.time, column));
  tableFiles_[joint] = table.path;
  tableLastLines_[joint] = table.rowLines.back();
}

int Drives::lastTableJoint() const {
  int joint = -1;
  for (int i = 0; i < tree_->nb; ++i)
    if (!tabulated_[i].empty() &&
        (joint < 0 || tabulated_[i].front().lastTime() < tabulated_[joint].front().lastTime()))
      joint = i;
  return joint;
}

double Drives::lastTableTime() const {
  const int joint = lastTableJoint();
  return joint < 0 ? std::numeric_limits<double>::infinity() : tabulated_[joint].front().lastTime();
}

const std::string& Drives::lastTableFile() const {
  static const std::string none;
  const int joint = lastTableJoint();
  return joint < 0 ? none : tableFiles_[joint];
}

int Drives::lastTableLine() const {
  const int joint = lastTableJoint();
  return joint < 0 ? 0 : tableLastLines_[joint];
}

void Drives::refresh() {
  active_.clear();
  usesVelocity_ = false;
  for (int i = 0; i < tree_->nb; ++i) {
    const Drive& d = drives_[i];
    if (d.type == DriveType::None || tree_->joints[i].nv == 0) continue;
    active_.push_back(i);
    if (d.type == DriveType::PdSinusoid || d.type == DriveType::PdPiecewise) usesVelocity_ |= d.kd != 0.0;
    if (d.type == DriveType::SpringDamper)
      for (double c : d.damping) usesVelocity_ |= c != 0.0;
  }
}

void Drives::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& tau) const {
  tau.setZero();
  constexpr double twoPi = 2.0 * std::numbers::pi;
  for (int i : active_) {
    const Drive& d = drives_[i];
    const int nv = tree_->joints[i].nv;
    const int qo = tree_->qOffset[i], vo = tree_->vOffset[i];
    // position terms need q_k to be the coordinate of ν_k (nq == nv; the validator checks it)
    const bool hasQ = tree_->joints[i].nq == nv;
    for (int k = 0; k < nv; ++k) {
      const double qk = hasQ ? q[qo + k] : 0.0;
      double& out = tau[vo + k];
      switch (d.type) {
        case DriveType::None: break;
        case DriveType::Constant: out = d.value[k]; break;
        case DriveType::Sinusoid:
          out = d.offset[k] + d.amplitude[k] * std::sin(twoPi * d.frequency[k] * t + d.phase[k]);
          break;
        case DriveType::PdSinusoid: {
          const double arg = twoPi * d.frequency[k] * t + d.phase[k];
          const double target = d.offset[k] + d.amplitude[k] * std::sin(arg);
          const double targetRate = d.amplitude[k] * twoPi * d.frequency[k] * std::cos(arg);
          out = d.kp * (target - qk) + d.kd * (targetRate - v[vo + k]);
          break;
        }
        case DriveType::PdPiecewise: {
          double target = 0.0, targetRate = 0.0;
          piecewiseLinearTarget(d.knots[k], t, target, targetRate);
          out = d.kp * (target - qk) + d.kd * (targetRate - v[vo + k]);
          break;
        }
        case DriveType::SpringDamper:
          out = -d.stiffness[k] * (qk - d.restPosition[k]) - d.damping[k] * v[vo + k];
          break;
        case DriveType::Table: out = tabulated_[i][k].at(t).q; break;
      }
    }
  }
}

}  // namespace kt
