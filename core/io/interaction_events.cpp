// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/interaction_events.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string_view>

#include "core/io/model_yaml.hpp"
#include "core/io/yaml_tree.hpp"
#include "core/model/text_util.hpp"

namespace kt {

namespace {

using yaml::Node;

// Reading stops at the first problem: an events file is written by the application, and a
// person editing one fixes one thing at a time.
class EventReader {
 public:
  EventReader(std::string fileName, const Tree& tree) : file_(std::move(fileName)), tree_(tree) {}

  [[noreturn]] void fail(const yaml::Position& p, const std::string& path, const std::string& message) const {
    Diagnostic d;
    d.file = file_;
    d.path = path;
    d.message = message;
    d.line = p.line + 1;
    d.column = p.column + 1;
    throw EventsFileError(std::move(d));
  }

  const Node& require(const Node& map, const std::string& key, const std::string& path) const {
    const Node* n = map.find(key);
    if (!n) fail(map.pos, path, "expected the key '" + key + "'");
    return *n;
  }

  double number(const Node& n, const std::string& path) const {
    if (n.kind == Node::Kind::Scalar && !n.quoted && !n.value.empty()) {
      // JSON numbers; from_chars reads them whatever the locale, and takes no leading '+'
      const char* first = n.value.data();
      const char* last = first + n.value.size();
      double x = 0.0;
      const auto [end, ec] = std::from_chars(first, last, x);
      if (ec == std::errc() && end == last && std::isfinite(x)) return x;
    }
    fail(n.pos, path, "expected a finite number, got " + yaml::describe(n));
  }

  // the tree index of the joint (or body) a name gives, with a "did you mean" when none has it
  int named(const Node& n, const std::string& path, const std::vector<std::string>& names, const char* what) const {
    const std::string name = text(n, path);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    const std::string near = closestMatch(name, names);
    fail(n.pos, path,
         std::string("expected the name of a ") + what + " of the model, got '" + name + "'" +
             (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }

  std::string text(const Node& n, const std::string& path) const {
    if (n.kind != Node::Kind::Scalar) fail(n.pos, path, "expected a text, got " + yaml::describe(n));
    return n.value;
  }

  template <int N>
  Eigen::Matrix<double, N, 1> vector(const Node& n, const std::string& path) const {
    if (n.kind != Node::Kind::Sequence || static_cast<int>(n.items.size()) != N)
      fail(n.pos, path,
           "expected a list of " + std::to_string(N) + " numbers, got " +
               (n.kind == Node::Kind::Sequence ? std::to_string(n.items.size()) + " of them" : yaml::describe(n)));
    Eigen::Matrix<double, N, 1> v;
    for (int k = 0; k < N; ++k)
      v[k] = number(*n.items[static_cast<std::size_t>(k)], path + "[" + std::to_string(k) + "]");
    return v;
  }

  // one of `choices`, with the index of the one given
  int choice(const Node& n, const std::string& path, const std::vector<std::string>& choices) const {
    const std::string value = text(n, path);
    for (std::size_t k = 0; k < choices.size(); ++k)
      if (value == choices[k]) return static_cast<int>(k);
    std::string names;
    for (std::size_t k = 0; k < choices.size(); ++k)
      names += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + choices[k];
    fail(n.pos, path, "expected " + names + ", got '" + value + "'");
  }

  void onlyKeys(const Node& map, const std::string& path, const std::vector<std::string>& keys) const {
    for (const auto& [key, value] : map.entries) {
      bool known = false;
      for (const std::string& k : keys) known = known || key->value == k;
      if (known) continue;
      const std::string near = closestMatch(key->value, keys);
      fail(key->pos, path,
           "unknown key '" + key->value + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }

  InteractionEvent event(const Node& n, const std::string& path) const {
    if (n.kind != Node::Kind::Map) fail(n.pos, path, "expected an event (a mapping), got " + yaml::describe(n));
    InteractionEvent e;
    e.t = number(require(n, "t", path), path + ".t");
    if (e.t < 0.0) fail(require(n, "t", path).pos, path + ".t", "expected a time ≥ 0");
    const Node& idNode = require(n, "id", path);
    const double id = number(idNode, path + ".id");
    if (id != std::floor(id) || id < 0 || id > 1e9) fail(idNode.pos, path + ".id", "expected a whole number ≥ 0");
    e.id = static_cast<int>(id);
    const int kind = choice(require(n, "kind", path), path + ".kind", {"push", "drag", "release", "drive", "pose"});
    e.kind = static_cast<InteractionKind>(kind);
    if (e.kind == InteractionKind::Release) {
      onlyKeys(n, path, {"t", "kind", "id"});
      return e;
    }
    if (e.kind == InteractionKind::Drive) {
      onlyKeys(n, path, {"t", "kind", "id", "joint", "drive"});
      e.body = named(require(n, "joint", path), path + ".joint", tree_.jointNames, "joint");
      const Node& driveNode = require(n, "drive", path);
      std::string error;
      if (!parseDriveText(text(driveNode, path + ".drive"), tree_.joints[static_cast<std::size_t>(e.body)].type,
                          e.drive, error))
        fail(driveNode.pos, path + ".drive", error);
      if (const std::string problem = checkInteractionEvent(e, tree_); !problem.empty())
        fail(driveNode.pos, path + ".drive", problem);
      return e;
    }
    if (e.kind == InteractionKind::Pose) {
      onlyKeys(n, path, {"t", "kind", "id", "joint", "position"});
      e.body = named(require(n, "joint", path), path + ".joint", tree_.jointNames, "joint");
      const Node& p = require(n, "position", path);
      const int nq = tree_.joints[static_cast<std::size_t>(e.body)].nq;
      if (p.kind != Node::Kind::Sequence || static_cast<int>(p.items.size()) != nq)
        fail(p.pos, path + ".position",
             "expected the joint's " + std::to_string(nq) + " position coordinates, got " +
                 (p.kind == Node::Kind::Sequence ? std::to_string(p.items.size()) + " numbers" : yaml::describe(p)));
      for (std::size_t k = 0; k < p.items.size(); ++k)
        e.position.push_back(number(*p.items[k], path + ".position[" + std::to_string(k) + "]"));
      if (const std::string problem = checkInteractionEvent(e, tree_); !problem.empty())
        fail(p.pos, path + ".position", problem);
      return e;
    }
    e.body = named(require(n, "body", path), path + ".body", tree_.bodyNames, "body");
    if (e.kind == InteractionKind::Push) {
      onlyKeys(n, path, {"t", "kind", "id", "body", "point", "force", "moment", "axes", "start", "duration", "shape"});
      if (const Node* p = n.find("point")) e.point = vector<3>(*p, path + ".point");
      if (const Node* f = n.find("force")) e.force = vector<3>(*f, path + ".force");
      if (const Node* m = n.find("moment")) e.moment = vector<3>(*m, path + ".moment");
      if (const Node* a = n.find("axes")) e.worldAxes = choice(*a, path + ".axes", {"world", "body"}) == 0;
      e.start = n.find("start") ? number(*n.find("start"), path + ".start") : e.t;
      if (const Node* d = n.find("duration")) {
        e.duration = number(*d, path + ".duration");
        if (!(e.duration > 0.0)) fail(d->pos, path + ".duration", "expected a positive number of seconds");
      }
      if (const Node* s = n.find("shape"))
        e.shape =
            choice(*s, path + ".shape", {"constant", "half-sine"}) == 0 ? PushShape::Constant : PushShape::HalfSine;
    } else {
      onlyKeys(n, path,
               {"t", "kind", "id", "body", "mode", "point", "target", "target_rotation", "stiffness", "damping"});
      if (const Node* m = n.find("mode"))
        e.mode = choice(*m, path + ".mode", {"force", "torque"}) == 0 ? DragMode::Force : DragMode::Torque;
      if (e.mode == DragMode::Force) {
        e.point = vector<3>(require(n, "point", path), path + ".point");
        e.target = vector<3>(require(n, "target", path), path + ".target");
      } else {
        const Node& r = require(n, "target_rotation", path);
        const Eigen::Vector4d wxyz = vector<4>(r, path + ".target_rotation");
        if (std::abs(wxyz.norm() - 1.0) > 1e-6)
          fail(r.pos, path + ".target_rotation", "expected a unit quaternion [w, x, y, z]");
        e.targetRotation = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
      }
      e.stiffness = number(require(n, "stiffness", path), path + ".stiffness");
      e.damping = number(require(n, "damping", path), path + ".damping");
    }
    if (const std::string problem = checkInteractionEvent(e, tree_); !problem.empty()) fail(n.pos, path, problem);
    return e;
  }

 private:
  std::string file_;
  const Tree& tree_;
};

void appendVector(std::string& out, const char* key, const double* v, int n) {
  out += ", \"";
  out += key;
  out += "\": ";
  out += formatRoundTripList(v, n);
}

void appendNumber(std::string& out, const char* key, double x) {
  out += ", \"";
  out += key;
  out += "\": ";
  out += formatRoundTrip(x);
}

// a JSON string: quotes, backslashes and control characters escaped
std::string jsonQuoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned char>(c));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void appendText(std::string& out, const char* key, std::string_view value) {
  out += ", \"";
  out += key;
  out += "\": ";
  out += jsonQuoted(value);
}

}  // namespace

std::vector<InteractionEvent> parseInteractionEvents(const std::string& text, const std::string& fileName,
                                                     const Tree& tree, EventsRun* run) {
  const EventReader reader(fileName, tree);
  std::vector<yaml::ParseProblem> problems;
  const auto root = yaml::parseDocument(text, problems);
  if (!problems.empty()) {
    // the file is JSON, read by the YAML parser (JSON is YAML): its syntax errors say JSON
    std::string message = problems.front().message;
    if (message.rfind("YAML syntax error", 0) == 0) message.replace(0, 4, "JSON");
    reader.fail(problems.front().pos, problems.front().path, message);
  }
  if (!root || root->kind != Node::Kind::Map)
    reader.fail(root ? root->pos : yaml::Position{}, "",
                R"(expected an events file: a mapping with "format": "kinetree-events" and "events")");
  reader.onlyKeys(*root, "", {"format", "version", "solver", "integrator", "step", "tolerance", "events"});
  const Node& format = reader.require(*root, "format", "");
  if (reader.text(format, "format") != "kinetree-events")
    reader.fail(format.pos, "format", "expected \"kinetree-events\"");
  if (const Node* v = root->find("version"); v && reader.number(*v, "version") != 1.0)
    reader.fail(v->pos, "version", "this version of Kinetree reads version 1 of the events file");
  if (run) {
    if (const Node* s = root->find("solver")) run->solver = reader.text(*s, "solver");
    if (const Node* i = root->find("integrator")) run->integrator = reader.text(*i, "integrator");
    if (const Node* h = root->find("step")) run->step = reader.number(*h, "step");
    if (const Node* tol = root->find("tolerance")) run->tolerance = reader.number(*tol, "tolerance");
  }
  const Node& list = reader.require(*root, "events", "");
  if (list.kind != Node::Kind::Sequence)
    reader.fail(list.pos, "events", "expected a list, got " + yaml::describe(list));
  std::vector<InteractionEvent> events;
  std::set<int> inForce;
  double last = 0.0;
  for (std::size_t k = 0; k < list.items.size(); ++k) {
    const std::string path = "events[" + std::to_string(k) + "]";
    InteractionEvent e = reader.event(*list.items[k], path);
    if (e.t < last) reader.fail(list.items[k]->pos, path + ".t", "expected the events in time order");
    last = e.t;
    if (e.kind == InteractionKind::Release) {
      if (!inForce.erase(e.id))
        reader.fail(list.items[k]->find("id")->pos, path + ".id",
                    "no push or drag with id " + std::to_string(e.id) + " before it");
    } else if (e.kind == InteractionKind::Push || e.kind == InteractionKind::Drag) {
      inForce.insert(e.id);  // a drive change or a pose is not released
    }
    events.push_back(e);
  }
  return events;
}

std::vector<InteractionEvent> readInteractionEvents(const std::string& path, const Tree& tree, EventsRun* run) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Diagnostic d;
    d.file = path;
    d.message = "cannot open the events file";
    throw EventsFileError(std::move(d));
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parseInteractionEvents(text, path, tree, run);
}

std::string formatInteractionEvents(const std::vector<InteractionEvent>& events, const Tree& tree,
                                    const EventsRun& run) {
  std::string out =
      "{\n  "
      R"("format": "kinetree-events", "version": 1)";
  if (!run.solver.empty()) appendText(out, "solver", run.solver);
  if (!run.integrator.empty()) appendText(out, "integrator", run.integrator);
  if (run.step > 0.0) appendNumber(out, "step", run.step);
  if (run.tolerance > 0.0 && run.integrator == "dopri5") appendNumber(out, "tolerance", run.tolerance);
  out +=
      ",\n  "
      R"("events": [)";
  for (std::size_t k = 0; k < events.size(); ++k) {
    const InteractionEvent& e = events[k];
    out += k == 0 ? "\n    {" : ",\n    {";
    out += R"("t": )" + formatRoundTrip(e.t);
    appendText(out, "kind",
               e.kind == InteractionKind::Push      ? "push"
               : e.kind == InteractionKind::Drag    ? "drag"
               : e.kind == InteractionKind::Release ? "release"
               : e.kind == InteractionKind::Drive   ? "drive"
                                                    : "pose");
    out += R"(, "id": )" + std::to_string(e.id);
    if (e.kind == InteractionKind::Release) {
      out += "}";
      continue;
    }
    if (e.kind == InteractionKind::Drive) {
      appendText(out, "joint", tree.jointNames[static_cast<std::size_t>(e.body)]);
      appendText(out, "drive", driveText(e.drive));  // as a model file writes it
      out += "}";
      continue;
    }
    if (e.kind == InteractionKind::Pose) {
      appendText(out, "joint", tree.jointNames[static_cast<std::size_t>(e.body)]);
      appendVector(out, "position", e.position.data(), static_cast<int>(e.position.size()));
      out += "}";
      continue;
    }
    appendText(out, "body", tree.bodyNames[static_cast<std::size_t>(e.body)]);
    if (e.kind == InteractionKind::Push) {
      appendVector(out, "point", e.point.data(), 3);
      appendVector(out, "force", e.force.data(), 3);
      appendVector(out, "moment", e.moment.data(), 3);
      appendText(out, "axes", e.worldAxes ? "world" : "body");
      appendNumber(out, "start", e.start);
      if (std::isfinite(e.duration)) appendNumber(out, "duration", e.duration);
      appendText(out, "shape", e.shape == PushShape::Constant ? "constant" : "half-sine");
    } else if (e.mode == DragMode::Force) {
      appendText(out, "mode", "force");
      appendVector(out, "point", e.point.data(), 3);
      appendVector(out, "target", e.target.data(), 3);
    } else {
      appendText(out, "mode", "torque");
      const double wxyz[4] = {e.targetRotation.w(), e.targetRotation.x(), e.targetRotation.y(), e.targetRotation.z()};
      appendVector(out, "target_rotation", wxyz, 4);
    }
    if (e.kind == InteractionKind::Drag) {
      appendNumber(out, "stiffness", e.stiffness);
      appendNumber(out, "damping", e.damping);
    }
    out += "}";
  }
  out += events.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace kt
