// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/load_cases.hpp"

#include <algorithm>
#include <cmath>

#include "core/io/csv.hpp"
#include "core/model/text_util.hpp"
#include "core/results/recorder.hpp"

namespace kt {

LoadCaseCollector::LoadCaseCollector(const Tree& tree, const SignalLayout& layout, bool components) : layout_(layout) {
  if (components)
    for (const SignalInfo& s : layout.infos())
      if (s.kind == SignalKind::Reaction || s.kind == SignalKind::Tau)
        components_.push_back({s.body, layout.find(s.name), s.unit == "N*m", s.kind == SignalKind::Tau, s.name});
  // joint by joint (the layout groups them by kind), each joint's reactions before its efforts
  std::stable_sort(components_.begin(), components_.end(), [](const Component& a, const Component& b) {
    return a.joint != b.joint ? a.joint < b.joint : !a.effort && b.effort;
  });
  peaks_.resize(2 * static_cast<std::size_t>(tree.nb) + components_.size());
  when_.resize(peaks_.size());
}

void LoadCaseCollector::add(const double* row) {
  const double t = row[0];
  layout_.jointWrenchesFromRow(row, f_);
  improved_.clear();
  // PeakLoads' rule (Peak::add) on the same magnitudes: the same instants
  const auto consider = [&](std::size_t c, double magnitude) {
    const double before = peaks_[c].time;  // NaN before any sample
    peaks_[c].add(magnitude, t);
    if (peaks_[c].time == t && !(before == t)) improved_.push_back(c);  // a new peak at this row
  };
  for (std::size_t i = 0; i < f_.size(); ++i) {
    consider(2 * i, f_[i].tail<3>().norm());
    consider(2 * i + 1, f_[i].head<3>().norm());
  }
  for (std::size_t k = 0; k < components_.size(); ++k)
    consider(2 * f_.size() + k, std::abs(row[components_[k].column]));
  if (improved_.empty()) return;
  auto instant = std::make_shared<RunInstant>();
  instant->t = t;
  layout_.positionsFromRow(row, instant->q);
  instant->wrenches = f_;
  for (std::size_t c : improved_) when_[c] = instant;
}

std::size_t LoadCaseCollector::addRecorded(const Recorder& recorder, std::size_t first, double t0, double t1) {
  return recorder.scan(first, [&](const double* row) {
    if (row[0] >= t0 && row[0] <= t1) add(row);
  });
}

std::vector<LoadCase> LoadCaseCollector::cases() const {
  // the dead band of the peak table: a peak of rounding noise sizes nothing
  const std::size_t wrenches = peaks_.size() - components_.size();
  double largestForce = 0.0, largestMoment = 0.0;
  for (std::size_t c = 0; c < wrenches; ++c)
    if (!std::isnan(peaks_[c].time))
      (c % 2 == 0 ? largestForce : largestMoment) =
          std::max(c % 2 == 0 ? largestForce : largestMoment, peaks_[c].value);
  // the dead band's references, with a kind that is all rounding noise left out (peak table alike)
  const LoadScale reference = deadBandReferences({largestForce, largestMoment});
  largestForce = reference.force;
  largestMoment = reference.moment;
  std::vector<LoadCase> out;
  const auto take = [&](std::size_t c, int joint, bool moment, const std::string& signal) {
    LoadCase lc;
    lc.joint = joint;
    lc.moment = moment;
    lc.signal = signal;
    lc.value = peaks_[c].value;
    lc.when = when_[c];
    out.push_back(std::move(lc));
  };
  std::size_t next = 0;  // the joint's first component
  for (std::size_t c = 0; c < wrenches; ++c) {
    if (when_[c] && aboveDeadBand(peaks_[c], c % 2 == 0 ? largestForce : largestMoment))
      take(c, static_cast<int>(c / 2), c % 2 == 1, {});
    if (c % 2 == 0) continue;
    // after the joint's moment: its components (the layout lists them joint by joint)
    const int joint = static_cast<int>(c / 2);
    for (; next < components_.size() && components_[next].joint == joint; ++next) {
      const Component& k = components_[next];
      const Peak& p = peaks_[wrenches + next];
      const bool kept = k.effort ? p.value > 0.0 : aboveDeadBand(p, k.moment ? largestMoment : largestForce);
      if (when_[wrenches + next] && kept) take(wrenches + next, joint, k.moment, k.name);
    }
  }
  return out;
}

namespace {

// The q: and load: signals of the layout, in its order.
struct CaseColumns {
  std::vector<const SignalInfo*> q, loads;
  explicit CaseColumns(const SignalLayout& layout) {
    for (const SignalInfo& s : layout.infos()) {
      if (s.kind == SignalKind::Q) q.push_back(&s);
      if (s.kind == SignalKind::Load) loads.push_back(&s);
    }
  }
};

// "fx" of "load:J11.fx"
std::string componentOf(const std::string& name) { return name.substr(name.rfind('.') + 1); }

}  // namespace

std::string loadCasesCsv(const Tree& tree, const SignalLayout& layout, const std::vector<LoadCase>& cases) {
  const CaseColumns columns(layout);
  std::vector<std::string> header = {"case", "joint", "quantity", "value", "t_s"};
  for (const SignalInfo* s : columns.q) header.push_back(s->name);
  for (const SignalInfo* s : columns.loads) header.push_back(s->name);
  std::string out;
  appendCsvHeader(out, header);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const LoadCase& c = cases[k];
    out += std::to_string(k + 1) + "," + tree.jointNames[static_cast<std::size_t>(c.joint)] + "," + c.quantity() + ",";
    appendCsvNumber(out, c.value);
    out += ',';
    appendCsvNumber(out, c.when->t);
    for (const SignalInfo* s : columns.q) {
      out += ',';
      appendCsvNumber(out, c.when->q[s->index]);
    }
    for (const SignalInfo* s : columns.loads) {
      out += ',';
      appendCsvNumber(out, c.when->wrenches[static_cast<std::size_t>(s->body)][s->index]);
    }
    out += '\n';
  }
  return out;
}

std::string loadCasesJson(const Tree& tree, const SignalLayout& layout, const std::vector<LoadCase>& cases) {
  const CaseColumns columns(layout);
  const auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (const char ch : s) {
      if (ch == '"' || ch == '\\') q += '\\';
      q += ch;
    }
    return q + "\"";
  };
  std::string out = "{\n  \"format\": \"kinetree-load-cases\",\n  \"version\": 1,\n  \"cases\": [";
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const LoadCase& c = cases[k];
    out += k == 0 ? "\n    {" : ",\n    {";
    out += R"("case": )" + std::to_string(k + 1) + R"(, "joint": )" +
           quoted(tree.jointNames[static_cast<std::size_t>(c.joint)]) + R"(, "quantity": )" + quoted(c.quantity()) +
           R"(, "value": )" + formatRoundTrip(c.value) + R"(, "t": )" + formatRoundTrip(c.when->t) + ",\n     \"q\": {";
    for (std::size_t n = 0; n < columns.q.size(); ++n)
      out += (n == 0 ? "" : ", ") + quoted(columns.q[n]->name) + ": " + formatRoundTrip(c.when->q[columns.q[n]->index]);
    out += "},\n     \"loads\": {";
    int joint = -1;
    for (const SignalInfo* s : columns.loads) {
      if (s->body != joint) {
        out += (joint < 0 ? "" : "}, ") + quoted(tree.jointNames[static_cast<std::size_t>(s->body)]) + ": {";
        joint = s->body;
      } else {
        out += ", ";
      }
      out += quoted(componentOf(s->name)) + ": " +
             formatRoundTrip(c.when->wrenches[static_cast<std::size_t>(s->body)][s->index]);
    }
    out += joint < 0 ? "}}" : "}}}";
  }
  out += cases.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace kt
