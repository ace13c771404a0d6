// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/peak_loads.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "core/io/csv.hpp"
#include "core/model/text_util.hpp"

namespace kt {

namespace {

// The ratio of each rated peak to its rating, with what it is of and when it peaked.
struct Governing {
  double ratio = std::numeric_limits<double>::quiet_NaN();
  std::string of;
  double time = std::numeric_limits<double>::quiet_NaN();
  double value = 0.0, rating = 0.0;  ///< the peak and its rating
};

// Every rated peak's ratio to its rating, in the order force, moment, λ_k, τ_k.
std::vector<Governing> ratios(const JointPeaks& j) {
  std::vector<Governing> out;
  const auto consider = [&out](const Peak& p, double rating, std::string of) {
    if (rating > 0.0) out.push_back({p.value / rating, std::move(of), p.time, p.value, rating});
  };
  consider(j.force, j.rating.force, "force");
  consider(j.moment, j.rating.moment, "moment");
  for (std::size_t k = 0; k < j.lambda.size() && k < j.rating.reaction.size(); ++k)
    consider(j.lambda[k], j.rating.reaction[k], "reaction." + j.lambdaNames[k]);
  for (std::size_t k = 0; k < j.effort.size() && k < j.rating.effort.size(); ++k)
    consider(j.effort[k], j.rating.effort[k], "effort[" + std::to_string(k) + "]");
  return out;
}

// The largest of them (the first of equal ones).
Governing governing(const JointPeaks& j) {
  Governing g;
  for (Governing& r : ratios(j))
    if (std::isnan(g.ratio) || r.ratio > g.ratio) g = std::move(r);
  return g;
}

}  // namespace

double JointPeaks::utilisation() const { return governing(*this).ratio; }
Peak JointPeaks::largestEffort() const {
  Peak largest;
  for (const Peak& p : effort)
    if (!std::isnan(p.time) && (std::isnan(largest.time) || p.value > largest.value)) largest = p;
  return largest;
}
std::string JointPeaks::utilisationOf() const { return governing(*this).of; }
double JointPeaks::utilisationTime() const { return governing(*this).time; }

std::size_t PeakLoads::addRecorded(const Recorder& recorder, std::size_t first, double t0, double t1) {
  return recorder.scan(first, [&](const double* row) {
    if (row[0] >= t0 && row[0] <= t1) add(row);
  });
}

LoadScale loadScale(const std::vector<JointPeaks>& joints, bool reactionOnly) {
  LoadScale s;
  for (const JointPeaks& j : joints) {
    const Peak& force = reactionOnly ? j.reactionForce : j.force;
    const Peak& moment = reactionOnly ? j.reactionMoment : j.moment;
    if (!std::isnan(force.time)) s.force = std::max(s.force, force.value);
    if (!std::isnan(moment.time)) s.moment = std::max(s.moment, moment.value);
  }
  return s;
}

LoadScale deadBandReferences(const LoadScale& largest) {
  LoadScale r = largest;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  if (largest.moment < kNoiseArm * largest.force) r.moment = kNone;
  if (largest.force < kNoiseArm * largest.moment) r.force = kNone;
  return r;
}

LoadScale noiseFloors(const LoadScale& largest) {
  const LoadScale r = deadBandReferences(largest);
  return {std::isfinite(r.force) ? kLoadDeadBand * r.force : kNoiseArm * largest.moment,
          std::isfinite(r.moment) ? kLoadDeadBand * r.moment : kNoiseArm * largest.force};
}

bool aboveDeadBand(const Peak& peak, double reference) {
  return !std::isnan(peak.time) && !(peak.value < kLoadDeadBand * reference);
}

std::vector<Diagnostic> ratingExceedances(std::vector<JointPeaks> joints, const Model& model,
                                          std::vector<double>* times) {
  std::vector<Diagnostic> out;
  if (times) times->clear();
  if (joints.empty()) return out;
  std::unordered_map<std::string_view, std::size_t> bodyOfJoint;  // one lookup per joint, not a scan
  bodyOfJoint.reserve(model.bodies.size());
  for (std::size_t b = 0; b < model.bodies.size(); ++b) bodyOfJoint.emplace(model.bodies[b].joint.name, b);
  for (JointPeaks& j : joints) {
    const auto found = bodyOfJoint.find(j.name);
    if (found == bodyOfJoint.end()) continue;  // a joint renamed or removed since the run
    const auto body = model.bodies.begin() + static_cast<std::ptrdiff_t>(found->second);
    j.rating = body->joint.rating;
    // every rating reached, the furthest first: a moment over its rating is not hidden by an
    // effort further over its own
    std::vector<Governing> reached = ratios(j);
    reached.erase(std::remove_if(reached.begin(), reached.end(), [](const Governing& g) { return !(g.ratio >= 1.0); }),
                  reached.end());
    std::stable_sort(reached.begin(), reached.end(),
                     [](const Governing& a, const Governing& b) { return a.ratio > b.ratio; });
    for (const Governing& g : reached) {
      const bool reaction = g.of.rfind("reaction.", 0) == 0;
      const bool effort = g.of.rfind("effort[", 0) == 0;
      const std::string component = reaction ? g.of.substr(9) : g.of;
      const std::size_t coordinate = effort ? std::stoul(g.of.substr(7)) : 0;
      const bool moment = effort ? coordinate < j.effortAngular.size() && j.effortAngular[coordinate] != 0
                                 : component == "moment" || component.front() == 'm';
      const std::string what = reaction ? (moment ? "constraint moment " : "constraint force ") + component
                               : effort ? "effort (tau[" + std::to_string(coordinate) + "])"
                                        : component;
      const std::string unit = moment ? " N·m" : " N";
      Diagnostic d;
      d.path = "bodies[" + std::to_string(body - model.bodies.begin()) + "].joint.rating";
      d.warning = true;
      d.message = j.name + " reached " + formatSignificant(100.0 * g.ratio, 4) + " % of its " + what +
                  " rating in the run (" + formatSignificant(g.value, 4) + unit + " of " +
                  formatSignificant(g.rating, 4) + unit + " at t = " + formatSignificant(g.time, 6) + " s)";
      out.push_back(std::move(d));
      if (times) times->push_back(g.time);
    }
  }
  return out;
}

std::vector<LoadRating> PeakLoads::ratingsOf(const Model& model, const Tree& tree) {
  std::vector<LoadRating> ratings(static_cast<std::size_t>(tree.nb));
  for (int i = 0; i < tree.nb; ++i) {
    const int spec = tree.specIndex[static_cast<std::size_t>(i)];
    if (spec >= 0 && spec < static_cast<int>(model.bodies.size()))
      ratings[static_cast<std::size_t>(i)] = model.bodies[static_cast<std::size_t>(spec)].joint.rating;
  }
  return ratings;
}

PeakLoads::PeakLoads(const Tree& tree, const SignalLayout& layout, std::vector<LoadRating> ratings)
    : tree_(tree), layout_(layout) {
  const auto nb = static_cast<std::size_t>(tree.nb);
  joints_.resize(nb);
  reactionColumns_.resize(nb);
  reactionScales_.resize(nb);
  effortColumns_.resize(nb);
  T_.resize(nb);
  f_.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    JointPeaks& j = joints_[i];
    j.joint = static_cast<int>(i);
    j.name = tree.jointNames[i];
    if (i < ratings.size()) j.rating = std::move(ratings[i]);
    const JointModel& joint = tree.joints[i];
    joint.constraintSubspace(tree.initialQ.data() + tree.qOffset[i], T_[i]);
    needQ_ = needQ_ || joint.subspacesDependOnQ();
    reactionColumns_[i].assign(static_cast<std::size_t>(6 - joint.nv), -1);
    reactionScales_[i].assign(static_cast<std::size_t>(6 - joint.nv), 1.0);
    for (const ReactionComponent& c : reactionComponents(joint)) j.lambdaNames.push_back(c.name);
    effortColumns_[i].assign(static_cast<std::size_t>(joint.nv), -1);
    for (int k = 0; k < joint.nv; ++k) j.effortAngular.push_back(joint.velocityIsAngular(k) ? 1 : 0);
  }
  for (int c = 0; c < layout.size(); ++c) {
    const SignalInfo& s = layout.infos()[static_cast<std::size_t>(c)];
    if (s.kind == SignalKind::Tau && s.body >= 0) {
      std::vector<int>& cols = effortColumns_[static_cast<std::size_t>(s.body)];
      if (s.component >= 0 && s.component < static_cast<int>(cols.size()))
        cols[static_cast<std::size_t>(s.component)] = c;
      continue;
    }
    if (s.kind != SignalKind::Reaction || s.body < 0) continue;
    std::vector<int>& cols = reactionColumns_[static_cast<std::size_t>(s.body)];
    if (s.component >= 0 && s.component < static_cast<int>(cols.size())) {
      cols[static_cast<std::size_t>(s.component)] = c;
      reactionScales_[static_cast<std::size_t>(s.body)][static_cast<std::size_t>(s.component)] = s.scale;
    }
  }
  reset();
}

void PeakLoads::reset() {
  for (JointPeaks& j : joints_) {
    j.force = j.moment = j.reactionForce = j.reactionMoment = Peak();
    j.lambda.assign(reactionColumns_[static_cast<std::size_t>(j.joint)].size(), Peak());
    j.effort.assign(effortColumns_[static_cast<std::size_t>(j.joint)].size(), Peak());
  }
  samples_ = 0;
  firstTime_ = lastTime_ = std::numeric_limits<double>::quiet_NaN();
}

void PeakLoads::add(const double* row) {
  const double t = row[0];
  if (samples_ == 0) firstTime_ = t;
  lastTime_ = t;
  ++samples_;
  layout_.jointWrenchesFromRow(row, f_);
  if (needQ_) layout_.positionsFromRow(row, q_);
  Mat6N T;
  for (std::size_t i = 0; i < joints_.size(); ++i) {
    JointPeaks& j = joints_[i];
    const Vec6& f = f_[i];  // [moment; force], joint frame
    j.moment.add(f.head<3>().norm(), t);
    j.force.add(f.tail<3>().norm(), t);
    const std::vector<int>& efforts = effortColumns_[i];
    for (std::size_t k = 0; k < efforts.size(); ++k)
      if (efforts[k] >= 0) j.effort[k].add(std::abs(row[efforts[k]]), t);
    const std::vector<int>& cols = reactionColumns_[i];
    if (cols.empty()) continue;
    const JointModel& joint = tree_.joints[i];
    const Mat6N* Ti = &T_[i];
    if (joint.subspacesDependOnQ()) {
      joint.constraintSubspace(q_.data() + tree_.qOffset[i], T);
      Ti = &T;
    }
    Vec6 reaction = Vec6::Zero();  // T λ
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const double lambda = reactionScales_[i][k] * row[cols[k]];  // the signal is ±λ_k
      j.lambda[k].add(std::abs(lambda), t);
      reaction += Ti->col(static_cast<Eigen::Index>(k)) * lambda;
    }
    j.reactionMoment.add(reaction.head<3>().norm(), t);
    j.reactionForce.add(reaction.tail<3>().norm(), t);
  }
}

std::string peakLoadsCsv(const std::vector<JointPeaks>& joints) {
  std::string out;
  appendCsvHeader(
      out, {"joint", "force_N", "force_t_s", "moment_Nm", "moment_t_s", "reaction_force_N", "reaction_force_t_s",
            "reaction_moment_Nm", "reaction_moment_t_s", "effort", "effort_t_s", "rating_force_N", "rating_moment_Nm",
            "utilisation_percent", "utilisation_of", "utilisation_t_s"});
  const auto number = [&out](double x, bool present = true) {
    out += ',';
    if (present && !std::isnan(x)) appendCsvNumber(out, x);
  };
  for (const JointPeaks& j : joints) {
    appendCsvField(out, j.name);
    const Peak effort = j.largestEffort();
    for (const Peak* p : {&j.force, &j.moment, &j.reactionForce, &j.reactionMoment, &effort}) {
      number(p->value, !std::isnan(p->time));
      number(p->time);
    }
    number(j.rating.force, j.rating.force > 0.0);
    number(j.rating.moment, j.rating.moment > 0.0);
    const double u = j.utilisation();
    number(100.0 * u);
    out += ',';
    if (!std::isnan(u)) appendCsvField(out, j.utilisationOf());
    number(j.utilisationTime());
    out += '\n';
  }
  return out;
}

std::vector<std::size_t> mostLoadedJoints(const std::vector<JointPeaks>& joints, std::size_t count) {
  LoadScale scale = loadScale(joints);
  // a kind that is rounding noise throughout (the moments of a planar pendulum: 1e-17 N·m beside
  // 10 N) ranks nothing; a lever arm between the two is never a billionth of a metre
  constexpr double kNoise = 1e-9;
  if (scale.moment < kNoise * scale.force) scale.moment = 0.0;
  if (scale.force < kNoise * scale.moment) scale.force = 0.0;
  struct Rank {
    std::size_t joint;
    bool rated;
    double value;
  };
  std::vector<Rank> ranks;
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const JointPeaks& j = joints[k];
    const bool force = scale.force > 0.0 && aboveDeadBand(j.force, scale.force);
    const bool moment = scale.moment > 0.0 && aboveDeadBand(j.moment, scale.moment);
    if (!force && !moment) continue;  // no load, or none above the dead band
    const double u = j.utilisation();
    const double relative = std::max(scale.force > 0.0 ? j.force.value / scale.force : 0.0,
                                     scale.moment > 0.0 ? j.moment.value / scale.moment : 0.0);
    ranks.push_back({k, !std::isnan(u), std::isnan(u) ? relative : u});
  }
  // rated before unrated, then the larger value first; ties keep tree order
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const Rank& a, const Rank& b) { return a.rated != b.rated ? a.rated : a.value > b.value; });
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < ranks.size() && k < count; ++k) out.push_back(ranks[k].joint);
  return out;
}

std::string effortUnit(const std::vector<JointPeaks>& joints) {
  bool moments = false, forces = false;
  // the coordinates that act (a free base's never does: its |τ| is "-")
  for (const JointPeaks& j : joints)
    for (std::size_t k = 0; k < j.effortAngular.size() && k < j.effort.size(); ++k)
      if (j.effort[k].value > 0.0) (j.effortAngular[k] ? moments : forces) = true;
  return moments && !forces ? "N·m" : forces && !moments ? "N" : "N·m or N";
}

PeakTableCells peakLoadsCells(const std::vector<JointPeaks>& joints) {
  PeakTableCells table;
  // the columns of the Peak Loads dock, in the order of the CSV (docs/signals.md, "Peak loads")
  table.header = {"joint", "|F| (N)",
                  "t (s)", "|M| (N·m)",
                  "t (s)", "reaction |F| (N)",
                  "t (s)", "reaction |M| (N·m)",
                  "t (s)", "|τ| (" + effortUnit(joints) + ")",
                  "t (s)", "utilisation"};
  const auto g = [](double x, bool present = true) {
    return !present || std::isnan(x) ? std::string("-") : formatSignificant(x, 6);
  };
  // one reference per kind for every column: the largest force (moment) the run's joints transmit
  const LoadScale scale = deadBandReferences(loadScale(joints));
  for (const JointPeaks& j : joints) {
    const double u = j.utilisation();
    const Peak effort = j.largestEffort();  // "-" for a joint that never acts (a passive joint)
    const auto peak = [&g](const Peak& p, double reference) {
      return aboveDeadBand(p, reference) ? g(p.value) : std::string("-");
    };
    const auto time = [&g](const Peak& p, double reference) {
      return aboveDeadBand(p, reference) ? g(p.time) : std::string("-");
    };
    table.rows.push_back(
        {j.name, peak(j.force, scale.force), time(j.force, scale.force), peak(j.moment, scale.moment),
         time(j.moment, scale.moment), peak(j.reactionForce, scale.force), time(j.reactionForce, scale.force),
         peak(j.reactionMoment, scale.moment), time(j.reactionMoment, scale.moment),
         g(effort.value, effort.value > 0.0), g(effort.time, effort.value > 0.0),
         std::isnan(u) ? std::string("-") : formatSignificant(100.0 * u, 4) + " % (" + j.utilisationOf() + ")"});
  }
  return table;
}

std::string peakLoadsTable(const std::vector<JointPeaks>& joints) {
  const PeakTableCells cells = peakLoadsCells(joints);
  const std::vector<std::string>& header = cells.header;
  const std::vector<std::vector<std::string>>& rows = cells.rows;
  // Widths in characters (code points), so that "N·m" counts as three.
  const auto width = [](const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> w(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    w[c] = width(header[c]);
    for (const auto& r : rows) w[c] = std::max(w[c], width(r[c]));
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(w[c] - width(cells[c]), ' ');
      out += c == 0 ? cells[c] + pad : "  " + pad + cells[c];  // names left, numbers right
    }
    out += '\n';
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

}  // namespace kt
