// SPDX-License-Identifier: BSD-3-Clause
// URDF import (core/io/urdf/urdf.hpp, docs/urdf.md). liburdfdom parses the robot; TinyXML, the XML
// library it is built on, gives each element's line and column for the diagnostics and the
// elements Kinetree does not use, which are listed as warnings rather than dropped silently.
#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "core/io/mesh.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/io/urdf/xml_limits.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/geometry/physical_inertia.hpp"
#include "core/model/text_util.hpp"

namespace kt {
namespace {

namespace fs = std::filesystem;

struct Location {
  int line = 0, column = 0;
};

Location locationOf(const TiXmlBase* node) { return node ? Location{node->Row(), node->Column()} : Location{}; }

// urdfdom reports through console_bridge; while a file is parsed its messages are collected here
// (one parse at a time: the handler is global).
class CollectMessages : public console_bridge::OutputHandler {
 public:
  std::vector<std::string> errors, warnings;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors.push_back(text);
    else if (level == console_bridge::CONSOLE_BRIDGE_LOG_WARN)
      warnings.push_back(text);
  }
};

std::mutex& parserMutex() {
  static std::mutex m;
  return m;
}

urdf::ModelInterfaceSharedPtr parseWithUrdfdom(const std::string& xml, CollectMessages& messages) {
  const std::lock_guard<std::mutex> lock(parserMutex());
  const console_bridge::LogLevel level = console_bridge::getLogLevel();
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_WARN);
  console_bridge::useOutputHandler(&messages);
  urdf::ModelInterfaceSharedPtr model;
  try {
    model = urdf::parseURDF(xml);
  } catch (const std::exception& e) {
    messages.errors.emplace_back(e.what());
  }
  console_bridge::restorePreviousOutputHandler();
  console_bridge::setLogLevel(level);
  return model;
}

Mat3 rotationOf(const urdf::Rotation& r) {
  return Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
}

// The placement of a urdfdom pose. Its rotation is a quaternion computed from the file's rpy; the
// rpy is read back from the <origin> element's text where there is one, so that 1.5707963267948966
// stays that number rather than a neighbour of it.
// Exactly n numbers separated by white space (an attribute's text), or false. std::from_chars:
// the C locale's decimal point whatever the process's locale (the application sets the user's).
bool parseNumbers(const char* text, int n, double* out) {
  if (!text) return false;
  const char* s = text;
  const char* end = text + std::strlen(text);
  for (int k = 0; k < n; ++k) {
    while (s < end && std::isspace(static_cast<unsigned char>(*s))) ++s;
    if (s < end && *s == '+') ++s;
    const auto [next, ec] = std::from_chars(s, end, out[k]);
    if (ec != std::errc() || next == s) return false;
    s = next;
  }
  while (s < end && std::isspace(static_cast<unsigned char>(*s))) ++s;
  return s == end;
}
template <int n>
bool parseNumbers(const char* text, Eigen::Matrix<double, n, 1>& out) {
  return parseNumbers(text, n, out.data());
}

Placement placementOf(const urdf::Pose& pose, const TiXmlElement* owner) {
  Placement p;
  p.xyz = Vec3(pose.position.x, pose.position.y, pose.position.z);
  p.rpy = rpyFromRotation(rotationOf(pose.rotation));
  const TiXmlElement* origin = owner ? owner->FirstChildElement("origin") : nullptr;
  Vec3 rpy;
  // the text's angles where they give the same rotation (they always should)
  if (origin && parseNumbers<3>(origin->Attribute("rpy"), rpy) &&
      rotationFromRpy(rpy).isApprox(rotationOf(pose.rotation), 1e-12))
    p.rpy = rpy;
  // the angles found from the rotation can be −0, which the model file would then say ("rpy: [0,
  // -0, 0]"); + 0 makes every zero +0 and leaves every other number as it is
  p.rpy = p.rpy + Vec3::Zero();
  p.xyz = p.xyz + Vec3::Zero();
  return p;
}

bool isIdentityRotation(const Placement& p) { return !p.useQuaternion && p.rpy == Vec3::Zero(); }

// a ∘ b: the placement b given in frame a, expressed in a's parent.
Placement composeUrdf(const Placement& a, const Placement& b) {
  Placement c;
  c.xyz = a.xyz + a.rotation() * b.xyz;
  if (isIdentityRotation(b))
    c.rpy = a.rpy, c.useQuaternion = a.useQuaternion, c.quat = a.quat;
  else if (isIdentityRotation(a))
    c.rpy = b.rpy, c.useQuaternion = b.useQuaternion, c.quat = b.quat;
  else
    c.rpy = rpyFromRotation(a.rotation() * b.rotation());
  return c;
}

// Mass properties given in a child frame, expressed in its parent through `placement`.
MassProperties transformed(const MassProperties& m, const Placement& placement) {
  const Mat3 R = placement.rotation();
  return {m.mass, placement.xyz + R * m.com, R * m.inertia * R.transpose()};
}

// One body in the making: a link, its joint to its parent, and where both are in the file.
struct Draft {
  std::string link, jointName;
  int parent = -1;  // index of the parent draft; -1: the world
  JointSpec joint;
  bool massive = false;  // has a mass (a link without <inertial>, or with mass 0, has none)
  MassProperties mass;
  std::vector<Shape> shapes;
  Location linkAt, jointAt;
  bool merged = false;
  bool lumped = false;  // links fixed to it were merged into it: its mass properties are theirs too
};

// What the import does not carry over, one warning per kind, listing the names concerned.
class Notes {
 public:
  void add(const std::string& kind, const std::string& name, Location at) {
    Entry& e = entries_[kind];
    if (e.names.empty()) e.at = at, e.order = order_++;
    if (std::find(e.names.begin(), e.names.end(), name) == e.names.end()) e.names.push_back(name);
  }
  void into(std::vector<Diagnostic>& out, const std::string& file) const {
    std::vector<std::pair<int, const std::pair<const std::string, Entry>*>> sorted;
    for (const auto& kv : entries_) sorted.emplace_back(kv.second.order, &kv);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [order, kv] : sorted) {
      const Entry& e = kv->second;
      std::string names;
      for (std::size_t k = 0; k < e.names.size() && k < 8; ++k) names += (k ? ", " : "") + e.names[k];
      if (e.names.size() > 8) names += ", ... (" + std::to_string(e.names.size()) + " in all)";
      Diagnostic d;
      d.file = file;
      d.line = e.at.line;
      d.column = e.at.column;
      d.warning = true;
      d.message = replaceInvalidUtf8(kv->first + (names.empty() ? "" : ": " + names));
      out.push_back(std::move(d));
    }
  }

 private:
  struct Entry {
    Location at;
    int order = 0;
    std::vector<std::string> names;
  };
  std::map<std::string, Entry> entries_;
  int order_ = 0;
};

std::string nameAttribute(const TiXmlElement* e) {
  const char* n = e->Attribute("name");
  return n ? n : "";
}

// The attributes of the elements Kinetree reads that hold numbers, how many, and whether they
// must be positive (the sizes of a visual's geometry).
struct NumericAttribute {
  const char* element;
  const char* attribute;
  int count;
  bool positive;
};
constexpr NumericAttribute kNumericAttributes[] = {
    {"origin", "xyz", 3, false},   {"origin", "rpy", 3, false},     {"mass", "value", 1, false},
    {"inertia", "ixx", 1, false},  {"inertia", "ixy", 1, false},    {"inertia", "ixz", 1, false},
    {"inertia", "iyy", 1, false},  {"inertia", "iyz", 1, false},    {"inertia", "izz", 1, false},
    {"box", "size", 3, true},      {"cylinder", "radius", 1, true}, {"cylinder", "length", 1, true},
    {"sphere", "radius", 1, true}, {"mesh", "scale", 3, false},     {"color", "rgba", 4, false},
    {"axis", "xyz", 3, false},     {"limit", "lower", 1, false},    {"limit", "upper", 1, false},
    {"limit", "effort", 1, false}, {"limit", "velocity", 1, false},
};

// The numbers of `element` and its descendants that are NaN or infinite, or not positive where
// they must be, as errors at their attributes. liburdfdom refuses NaN and infinity in some places
// only, and where it does, it leaves out the element that holds them (a visual, a whole
// <inertial>) and still returns the robot. Other text that is not numbers is left to liburdfdom,
// but for a xacro expression ("${l1_len}": a xacro file not yet expanded, which is no URDF), an
// error at its attribute that says so (liburdfdom's is at the <robot>).
void checkNumbers(const TiXmlElement* element, const std::string& owner, const std::string& file,
                  std::vector<Diagnostic>& errors) {
  for (const NumericAttribute& n : kNumericAttributes) {
    if (element->ValueStr() != n.element) continue;
    for (const TiXmlAttribute* a = element->FirstAttribute(); a; a = a->Next()) {
      if (a->NameTStr() != n.attribute) continue;
      double values[4];
      if (!parseNumbers(a->Value(), n.count, values)) {
        const bool xacro =
            a->ValueStr().find("${") != std::string::npos || a->ValueStr().find("$(") != std::string::npos;
        if (!xacro) continue;
        Diagnostic d;
        d.file = file;
        d.line = a->Row();
        d.column = a->Column();
        d.message = owner + ": <" + n.element + "> " + n.attribute + " must be " +
                    (n.count == 1 ? std::string("a number") : std::to_string(n.count) + " numbers") + ", got '" +
                    replaceInvalidUtf8(a->ValueStr()) +
                    "', a xacro expression: expand the file with xacro first (`xacro robot.urdf.xacro > robot.urdf`), "
                    "then import robot.urdf";
        appendDiagnostics(errors, {d});
        continue;
      }
      const bool finite = std::all_of(values, values + n.count, [](double v) { return std::isfinite(v); });
      const bool positive = std::all_of(values, values + n.count, [](double v) { return v > 0.0; });
      if (finite && (positive || !n.positive)) continue;
      const std::string expected = n.count == 1 ? "a finite number" : std::to_string(n.count) + " finite numbers";
      Diagnostic d;
      d.file = file;
      d.line = a->Row();
      d.column = a->Column();
      d.message = owner + ": <" + n.element + "> " + n.attribute + " must be " +
                  (finite ? (n.count == 1 ? std::string("> 0") : "> 0 each") : expected) + ", got '" +
                  replaceInvalidUtf8(a->ValueStr()) + "'";
      appendDiagnostics(errors, {d});
    }
  }
  // the depth is bounded by checkXmlText (kMaxXmlDepth)
  for (const TiXmlElement* c = element->FirstChildElement(); c; c = c->NextSiblingElement())
    checkNumbers(c, owner, file, errors);
}

// Up to eight names in quotes, "'a', 'b', ... (12 in all)".
std::string quotedNames(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size() && k < 8; ++k) out += (k ? ", '" : "'") + names[k] + "'";
  if (names.size() > 8) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

// Elements of the file that Kinetree does not use: warnings, one per kind.
void noteUnusedElements(const TiXmlElement* robot, Notes& notes) {
  for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->ValueStr();
    if (tag == "link") {
      // a link without <visual> is drawn from its collision geometry (setShapes)
      if (!e->FirstChildElement("visual")) continue;
      for (const TiXmlElement* c = e->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision"))
        notes.add("<collision> geometry is not used (Kinetree computes no contacts); links", nameAttribute(e),
                  locationOf(c));
    } else if (tag == "joint") {
      const std::string joint = nameAttribute(e);
      if (const TiXmlElement* m = e->FirstChildElement("mimic"))
        notes.add("<mimic> is not supported: these joints move independently", joint, locationOf(m));
      if (const TiXmlElement* d = e->FirstChildElement("dynamics"))
        notes.add("<dynamics> damping and friction are not applied (give the joint a spring_damper drive instead)",
                  joint, locationOf(d));
      if (const TiXmlElement* s = e->FirstChildElement("safety_controller"))
        notes.add("<safety_controller> is not used", joint, locationOf(s));
      if (const TiXmlElement* c = e->FirstChildElement("calibration"))
        notes.add("<calibration> is not used", joint, locationOf(c));
    } else if (tag != "material") {
      const std::string name =
          nameAttribute(e).empty() && e->Attribute("reference") ? e->Attribute("reference") : nameAttribute(e);
      notes.add("<" + tag + "> is not used by Kinetree; left out", name, locationOf(e));
    }
  }
}

// A mesh URI as a file: package://NAME/REST against the package paths, then the URDF's directory
// and its ancestors; file://PATH; a relative path from the URDF's directory. Empty when not found,
// with the places looked in. REST must stay inside the package (`outside` when it climbs out with
// "..": package://NAME/../../etc/... would read any file); the test is on the path as written,
// so that links the package itself holds (an install with links to its sources) are followed.
std::string resolveMesh(const std::string& uri, const std::string& urdfDirectory,
                        const std::vector<std::string>& packagePaths, std::string& lookedIn, bool& outside) {
  outside = false;
  const auto existing = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
  };
  if (uri.rfind("package://", 0) == 0) {
    const std::string rest = uri.substr(10);
    const std::size_t slash = rest.find('/');
    lookedIn = "in the --package-path directories and the URDF's directory and its parents";
    if (slash == std::string::npos) return {};
    const std::string package = rest.substr(0, slash), relative = rest.substr(slash + 1);
    const fs::path inside = fs::path(relative).lexically_normal();
    if (package.empty() || package == "." || package == ".." || inside.empty() || inside.is_absolute() ||
        *inside.begin() == "..") {
      outside = true;
      return {};
    }
    std::vector<fs::path> roots(packagePaths.begin(), packagePaths.end());
    for (fs::path d = fs::path(urdfDirectory); !d.empty(); d = d.parent_path()) {
      roots.push_back(d);
      if (d == d.parent_path()) break;
    }
    for (const fs::path& root : roots) {
      if (root.filename() == package && existing(root / relative)) return (root / relative).lexically_normal().string();
      if (existing(root / package / relative)) return (root / package / relative).lexically_normal().string();
    }
    return {};
  }
  fs::path p = uri.rfind("file://", 0) == 0 ? fs::path(uri.substr(7)) : fs::path(uri);
  if (p.is_relative()) p = fs::path(urdfDirectory) / p;
  lookedIn = "at " + p.lexically_normal().string();
  return existing(p) ? p.lexically_normal().string() : std::string();
}

// Names as Kinetree writes them (letters, digits, '_', '-'; a letter or '_' first), unique.
class UrdfNames {
 public:
  std::string take(const std::string& urdfName, Notes& notes, const char* what, Location at) {
    std::string n;
    // ASCII letters and digits only, whatever the process's locale (the application sets the
    // user's, where bytes of other encodings may count as letters): every other byte, and so
    // every byte of a name that is not UTF-8, becomes '_'
    const auto letter = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); };
    const auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
    for (char ch : urdfName) n += letter(ch) || digit(ch) || ch == '_' || ch == '-' ? ch : '_';
    if (n.empty() || !(letter(n[0]) || n[0] == '_')) n = "_" + n;
    if (n == "world") n = "world_";
    const std::string base = n;
    for (int k = 2; used_.count(n); ++k) n = base + "_" + std::to_string(k);
    used_.insert(n);
    if (n != urdfName)
      notes.add(std::string(what) + " renamed to follow Kinetree's names (" + kNameRule + ")", urdfName + " -> " + n,
                at);
    return n;
  }

 private:
  std::set<std::string> used_;
};

class UrdfImporter {
 public:
  UrdfImporter(std::string file, std::string directory, const UrdfImportOptions& options)
      : file_(std::move(file)), directory_(std::move(directory)), options_(options) {}

  UrdfImport run(const std::string& xml) {
    // before TinyXML, which recurses, and slows down quadratically, with the depth
    if (const std::optional<XmlTextProblem> problem = checkXmlText(xml))
      fail({problem->line, problem->column}, problem->message);
    TiXmlDocument doc;
    doc.Parse(xml.c_str());
    if (doc.Error()) fail({doc.ErrorRow(), doc.ErrorCol()}, std::string("XML syntax: ") + doc.ErrorDesc());
    const TiXmlElement* robot = doc.RootElement();
    if (!robot) fail({}, "the file holds no XML element; expected a <robot>");
    if (robot->ValueStr() != "robot")
      fail(locationOf(robot), "the document's root element is <" + robot->ValueStr() +
                                  ">; expected <robot> (a URDF; Kinetree also reads MJCF, whose root is <mujoco>)");
    checkElements(robot);
    noteUnusedElements(robot, notes_);

    CollectMessages messages;
    const urdf::ModelInterfaceSharedPtr urdfModel = parseWithUrdfdom(xml, messages);
    if (!urdfModel) {
      if (messages.errors.empty()) messages.errors.emplace_back("liburdfdom could not read the robot");
      std::vector<Diagnostic> errors;
      for (const std::string& m : messages.errors) errors.push_back(diagnostic(locate(m, robot), "URDF: " + m, false));
      throw ModelLoadError(errors);
    }
    // what it reports while still returning the robot (an error there is an element left out)
    for (const std::string& m : messages.warnings) notes_.add("liburdfdom: " + m, std::string(), locate(m, robot));
    for (const std::string& m : messages.errors) notes_.add("liburdfdom: " + m, std::string(), locate(m, robot));

    // a model file holds UTF-8 text only (the loader refuses anything else): a name that is not
    // gets U+FFFD for each byte that does not belong (link and joint names are renamed by UrdfNames)
    model_.name = urdfModel->getName().empty() ? "robot" : urdfModel->getName();
    if (invalidUtf8At(model_.name) != std::string::npos) {
      model_.name = replaceInvalidUtf8(model_.name);
      notes_.add("the robot's name is not valid UTF-8 text; each byte that is not is replaced by U+FFFD", model_.name,
                 locationOf(robot));
    }
    model_.description = replaceInvalidUtf8("Imported from " + fs::path(file_).filename().string());
    model_.sourceDirectory = options_.meshBaseDirectory;
    addLinks(*urdfModel);
    if (options_.density > 0.0) massFromShapes();
    mergeMassless();
    checkMassless();
    if (!options_.strict) repairInertias();
    build();
    UrdfImport out;
    out.model = std::move(model_);
    validateBuilt(out.model);
    notes_.into(out.warnings, file_);
    out.missingMeshes = std::move(missingMeshes_);
    out.merged = std::move(mergedForInertia_);
    out.repaired = std::move(repairedInertia_);
    return out;
  }

 private:
  [[noreturn]] void fail(Location at, const std::string& message) const {
    throw ModelLoadError({diagnostic(at, message, false)});
  }

  Diagnostic diagnostic(Location at, const std::string& message, bool warning, const std::string& path = {}) const {
    Diagnostic d;
    d.file = file_;
    d.line = at.line;
    d.column = at.column;
    d.path = replaceInvalidUtf8(path);
    d.message = replaceInvalidUtf8(message);
    d.warning = warning;
    return d;
  }

  // The element a liburdfdom message is about: a joint or link named in it in [brackets] (the
  // joint first: "parent link [x] of joint [y] not found" is about joint y), else the robot.
  Location locate(const std::string& message, const TiXmlElement* robot) const {
    std::vector<std::string> named;
    for (std::size_t open = message.find('['); open != std::string::npos; open = message.find('[', open + 1)) {
      const std::size_t close = message.find(']', open);
      if (close == std::string::npos) break;
      named.push_back(message.substr(open + 1, close - open - 1));
    }
    for (const std::string& n : named)
      if (auto it = joints_.find(n); it != joints_.end()) return locationOf(it->second);
    for (const std::string& n : named)
      if (auto it = links_.find(n); it != links_.end()) return locationOf(it->second);
    return locationOf(robot);
  }

  const TiXmlElement* linkElement(const std::string& name) const {
    const auto it = links_.find(name);
    return it == links_.end() ? nullptr : it->second;
  }
  const TiXmlElement* jointElement(const std::string& name) const {
    const auto it = joints_.find(name);
    return it == joints_.end() ? nullptr : it->second;
  }

  // What liburdfdom reports at the <robot> (a name given twice), accepts and then cannot be
  // walked (a link with two parents, a joint from a link to itself, a cycle of joints: endless
  // recursion), or drops quietly (numbers that are NaN or infinite): each at its element, before
  // liburdfdom reads the file. Fills links_, joints_ and materials_.
  void checkElements(const TiXmlElement* robot) {
    std::vector<Diagnostic> errors;
    const auto error = [&](const TiXmlBase* at, const std::string& message) {
      appendDiagnostics(errors, {diagnostic(locationOf(at), message, false)});
    };
    for (const auto& [tag, byName] : {std::pair{"link", &links_}, {"joint", &joints_}, {"material", &materials_}})
      for (const TiXmlElement* e = robot->FirstChildElement(tag); e; e = e->NextSiblingElement(tag)) {
        const auto [first, added] = byName->emplace(nameAttribute(e), e);
        if (!added && e->Attribute("name"))
          error(e, std::string(tag) + " '" + first->first + "' is defined a second time (first at line " +
                       std::to_string(first->second->Row()) + "); each " + tag + " needs a name of its own");
      }

    // the joint of each link that is a child (the first joint that names it)
    std::map<std::string, const TiXmlElement*> parentJoint;
    const auto linkOf = [](const TiXmlElement* joint, const char* end) -> std::string {
      const TiXmlElement* e = joint->FirstChildElement(end);
      const char* link = e ? e->Attribute("link") : nullptr;
      return link ? link : "";
    };
    for (const TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) {
      const std::string parent = linkOf(e, "parent"), child = linkOf(e, "child");
      if (parent.empty() || child.empty()) continue;    // liburdfdom says what is missing
      if (joints_.at(nameAttribute(e)) != e) continue;  // a second joint of that name: reported above
      if (parent == child) {
        error(e, "joint '" + nameAttribute(e) + "' has link '" + child +
                     "' as both its parent and its child; a joint connects two different links");
        continue;
      }
      const auto [first, added] = parentJoint.emplace(child, e);
      if (!added)
        error(e, "link '" + child + "' is the child of joint '" + nameAttribute(first->second) + "' (line " +
                     std::to_string(first->second->Row()) + ") and of joint '" + nameAttribute(e) +
                     "'; a link has one parent joint (the links of a robot form a tree)");
    }
    // cycles: from each link up its parents until the root, a link already checked, or a link
    // on the way up (a cycle); linear in the links
    std::map<std::string, int> state;  // 1: on the current way up; 2: checked
    for (const TiXmlElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link")) {
      std::vector<std::string> way;
      std::string at = nameAttribute(e);
      bool cycle = false;
      while (links_.count(at) && state[at] != 2) {
        if (state[at] == 1) {
          cycle = true;
          break;
        }
        state[at] = 1;
        way.push_back(at);
        const auto up = parentJoint.find(at);
        if (up == parentJoint.end()) break;
        at = linkOf(up->second, "parent");
      }
      if (cycle) {
        std::vector<std::string> joints, links;
        std::string link = at;
        do {
          links.push_back(link);
          joints.push_back(nameAttribute(parentJoint.at(link)));
          link = linkOf(parentJoint.at(link), "parent");
        } while (link != at);
        error(parentJoint.at(at), "the joints " + quotedNames(joints) + " form a cycle through the links " +
                                      quotedNames(links) +
                                      ", which are not connected to the root; the links of a robot form a tree");
      }
      for (const std::string& l : way) state[l] = 2;
    }

    for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string tag = e->ValueStr(), owner = tag + " '" + nameAttribute(e) + "'";
      if (tag == "joint" || tag == "material") checkNumbers(e, owner, file_, errors);
      if (tag == "link")
        for (const TiXmlElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
          if (c->ValueStr() == "inertial" || c->ValueStr() == "visual") checkNumbers(c, owner, file_, errors);
    }
    if (!errors.empty()) throw ModelLoadError(errors);
  }

  // The drafts from the root down, a parent before its children and children in the file's
  // order (liburdfdom keeps them sorted by joint name), without recursion: a chain of 25,000
  // links is as deep as it is long.
  void addLinks(const urdf::ModelInterface& robot) {
    struct Pending {
      urdf::LinkConstSharedPtr link;
      int parent;
      urdf::JointConstSharedPtr joint;
    };
    std::vector<Pending> pending{{robot.getRoot(), -1, nullptr}};
    std::set<std::string> added;  // checkElements leaves a tree; this keeps a cycle from looping
    while (!pending.empty()) {
      const Pending next = std::move(pending.back());
      pending.pop_back();
      const urdf::LinkConstSharedPtr& link = next.link;
      const urdf::JointConstSharedPtr& joint = next.joint;
      const TiXmlElement* linkXml = linkElement(link->name);
      if (!added.insert(link->name).second)
        fail(locationOf(linkXml),
             "link '" + link->name + "' is reached twice from the root; the links of a robot form a tree");
      const TiXmlElement* jointXml = joint ? jointElement(joint->name) : nullptr;
      const bool isWorld = !joint && link->name == "world";
      int self = next.parent;
      if (!isWorld) {
        Draft d;
        d.link = link->name;
        d.parent = next.parent;
        d.linkAt = locationOf(linkXml);
        d.jointAt = jointXml ? locationOf(jointXml) : d.linkAt;
        d.jointName = joint ? joint->name : std::string();
        setJoint(d, joint, jointXml, next.parent);
        setInertial(d, link, linkXml);
        setShapes(d, link, linkXml);
        self = static_cast<int>(drafts_.size());
        drafts_.push_back(std::move(d));
        children_.emplace_back();
        if (next.parent >= 0) children_[next.parent].push_back(self);
      } else if (link->inertial) {
        notes_.add("the root link 'world' stands for the world: its <inertial> is not used", "world",
                   locationOf(linkXml));
      }
      std::vector<urdf::JointConstSharedPtr> childJoints(link->child_joints.begin(), link->child_joints.end());
      std::sort(childJoints.begin(), childJoints.end(), [&](const auto& a, const auto& b) {
        const Location la = locationOf(jointElement(a->name)), lb = locationOf(jointElement(b->name));
        return std::tie(la.line, la.column) > std::tie(lb.line, lb.column);  // the last first: taken last
      });
      for (const urdf::JointConstSharedPtr& j : childJoints)
        if (urdf::LinkConstSharedPtr child = robot.getLink(j->child_link_name)) pending.push_back({child, self, j});
    }
  }

  void setJoint(Draft& d, const urdf::JointConstSharedPtr& joint, const TiXmlElement* xml, int parent) {
    JointSpec& js = d.joint;
    if (!joint) {  // the root link: fixed to the world, or free
      js.type = options_.floatingBase ? JointType::Free : JointType::Fixed;
      return;
    }
    js.origin = placementOf(joint->parent_to_joint_origin_transform, xml);
    js.axis = Vec3(joint->axis.x, joint->axis.y, joint->axis.z);
    // display limits; URDF's 0 0 (its default) is none, and lower > upper is reported
    const auto limits = [&] {
      if (!joint->limits || (joint->limits->lower == 0.0 && joint->limits->upper == 0.0)) return;
      if (joint->limits->lower <= joint->limits->upper) {
        js.limits = {Limit{joint->limits->lower, joint->limits->upper}};
        notes_.add(
            "joint limits kept to show, not enforced (Kinetree applies no limit forces: a joint that reaches its "
            "limit moves on, where a robot's stop would hold it)",
            joint->name, locationOf(xml));
      } else
        notes_.add("limits with lower > upper left out", joint->name, locationOf(xml));
    };
    // URDF's effort is the actuator's largest |τ|: Kinetree's effort rating (docs/model-format.md)
    const auto effort = [&] {
      if (joint->limits && joint->limits->effort > 0.0 && std::isfinite(joint->limits->effort))
        js.rating.effort = {joint->limits->effort};
    };
    switch (joint->type) {
      case urdf::Joint::REVOLUTE:
        js.type = JointType::Revolute;
        limits();
        effort();
        break;
      case urdf::Joint::CONTINUOUS:
        js.type = JointType::Revolute;
        effort();
        break;
      case urdf::Joint::PRISMATIC:
        js.type = JointType::Prismatic;
        limits();
        effort();
        break;
      case urdf::Joint::FLOATING: js.type = JointType::Free; break;
      case urdf::Joint::PLANAR: js.type = JointType::Planar; break;
      case urdf::Joint::FIXED:
        // the world's children: free with --floating (the root link stands for the world)
        js.type = options_.floatingBase && parent < 0 ? JointType::Free : JointType::Fixed;
        break;
      default: fail(locationOf(xml), "joint '" + joint->name + "': unknown joint type");
    }
    if (!jointHasAxis(js.type)) js.axis = Vec3::UnitZ();
  }

  void setInertial(Draft& d, const urdf::LinkConstSharedPtr& link, const TiXmlElement* xml) {
    const urdf::InertialSharedPtr& in = link->inertial;
    if (!in || in->mass == 0.0) return;  // no mass: merged, or reported when it moves
    if (!(in->mass > 0.0) || !std::isfinite(in->mass)) {
      const TiXmlElement* inertial = xml ? xml->FirstChildElement("inertial") : nullptr;
      const TiXmlElement* mass = inertial ? inertial->FirstChildElement("mass") : nullptr;
      fail(locationOf(mass ? mass : xml),
           "link '" + link->name + "': <mass> must be a positive number, got " + formatRoundTrip(in->mass));
    }
    Mat3 I;
    I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
    const Placement frame = placementOf(in->origin, xml ? xml->FirstChildElement("inertial") : nullptr);
    d.massive = true;
    d.mass = transformed(MassProperties{in->mass, Vec3::Zero(), I}, frame);
  }

  void setShapes(Draft& d, const urdf::LinkConstSharedPtr& link, const TiXmlElement* xml) {
    addShapes(d, link->visual_array, "visual", xml);
    // A link drawn by nothing (no <visual>, or none that could be read) would leave the 3D view
    // empty: its collision geometry shows where it is (docs/urdf.md).
    if (!d.shapes.empty() || link->collision_array.empty()) return;
    addShapes(d, link->collision_array, "collision", xml);
    if (!d.shapes.empty()) {
      const TiXmlElement* collision = xml ? xml->FirstChildElement("collision") : nullptr;
      notes_.add("links without a <visual> that can be shown, each drawn from its collision geometry", link->name,
                 locationOf(collision ? collision : xml));
    }
  }

  // The shapes of a link's <visual> or <collision> elements (`tag`), in the file's order.
  template <class Element>
  void addShapes(Draft& d, const std::vector<std::shared_ptr<Element>>& elements, const char* tag,
                 const TiXmlElement* xml) {
    const TiXmlElement* elementXml = xml ? xml->FirstChildElement(tag) : nullptr;
    for (const std::shared_ptr<Element>& v : elements) {
      const TiXmlElement* here = elementXml ? elementXml : xml;
      if (elementXml) elementXml = elementXml->NextSiblingElement(tag);
      if (!v || !v->geometry) continue;
      Shape s;
      s.origin = placementOf(v->origin, here);
      if constexpr (std::is_same_v<Element, urdf::Visual>) {
        if (v->material) {  // liburdfdom keeps colours as floats: the file's text where it can be found
          const urdf::Color& c = v->material->color;
          s.color = Eigen::Vector4d(c.r, c.g, c.b, c.a);
          Eigen::Vector4d exact;
          if (parseNumbers<4>(colorText(here), exact) && exact.cast<float>() == s.color.cast<float>()) s.color = exact;
        }
      }
      switch (v->geometry->type) {
        case urdf::Geometry::BOX: {
          const auto& box = static_cast<const urdf::Box&>(*v->geometry);
          s.type = ShapeType::Box;
          s.size = Vec3(box.dim.x, box.dim.y, box.dim.z);
          break;
        }
        case urdf::Geometry::CYLINDER: {
          const auto& cylinder = static_cast<const urdf::Cylinder&>(*v->geometry);
          s.type = ShapeType::Cylinder;
          s.radius = cylinder.radius;
          s.length = cylinder.length;
          break;
        }
        case urdf::Geometry::SPHERE:
          s.type = ShapeType::Sphere;
          s.radius = static_cast<const urdf::Sphere&>(*v->geometry).radius;
          break;
        case urdf::Geometry::MESH: {
          const auto& mesh = static_cast<const urdf::Mesh&>(*v->geometry);
          const TiXmlElement* geometry = here->FirstChildElement("geometry");
          const TiXmlElement* meshXml = geometry ? geometry->FirstChildElement("mesh") : nullptr;
          if (!meshShape(mesh, s, locationOf(meshXml ? meshXml : here))) continue;
          break;
        }
        default: continue;
      }
      d.shapes.push_back(std::move(s));
    }
  }

  // The rgba text of a visual's material: its own <color>, or that of the robot's material it names.
  const char* colorText(const TiXmlElement* visual) const {
    const TiXmlElement* material = visual ? visual->FirstChildElement("material") : nullptr;
    if (!material) return nullptr;
    if (const TiXmlElement* color = material->FirstChildElement("color")) return color->Attribute("rgba");
    const auto it = materials_.find(nameAttribute(material));
    const TiXmlElement* color = it == materials_.end() ? nullptr : it->second->FirstChildElement("color");
    return color ? color->Attribute("rgba") : nullptr;
  }

  bool meshShape(const urdf::Mesh& mesh, Shape& s, Location at) {
    std::string lookedIn;
    bool outside = false;
    const std::string found = resolveMesh(mesh.filename, directory_, options_.packagePaths, lookedIn, outside);
    if (outside) {
      notes_.add("package:// paths that leave their package are not read (the visual is left out)", mesh.filename, at);
      return false;
    }
    if (found.empty()) {
      notes_.add("mesh files not found (the visual is left out; give the package's directory with --package-path)",
                 mesh.filename + " (looked " + lookedIn + ")", at);
      missingMeshes_.push_back(mesh.filename);
      return false;
    }
    if (!isMeshExtension(fs::path(found).extension().string())) {
      notes_.add("meshes Kinetree cannot read (STL, OBJ, COLLADA, PLY and glTF only; the visual is left out)",
                 mesh.filename, at);
      return false;
    }
    s.type = ShapeType::Mesh;
    std::error_code ec;
    const fs::path absolute = fs::absolute(found, ec).lexically_normal();
    s.mesh =
        options_.meshBaseDirectory.empty()
            ? absolute.string()
            : absolute.lexically_relative(fs::absolute(options_.meshBaseDirectory, ec).lexically_normal()).string();
    if (invalidUtf8At(s.mesh) != std::string::npos) {  // a model file holds UTF-8 text only
      notes_.add(
          "mesh paths that are not valid UTF-8 text, which a model file cannot hold (the visual is left out; "
          "rename the file or its folders)",
          s.mesh, at);
      return false;
    }
    s.meshScale = Vec3(mesh.scale.x, mesh.scale.y, mesh.scale.z);
    return true;
  }

  // Moves draft c into its parent across its fixed joint: mass, shapes and children.
  void mergeIntoParent(int c) {
    Draft& child = drafts_[c];
    const Placement& T = child.joint.origin;
    Draft& parent = drafts_[child.parent];
    if (child.massive) {
      const MassProperties moved = transformed(child.mass, T);
      parent.mass = parent.massive ? combineMassProperties(parent.mass, moved) : moved;
      parent.massive = true;
      parent.lumped = true;
    }
    for (Shape s : child.shapes) {
      s.origin = composeUrdf(T, s.origin);
      parent.shapes.push_back(std::move(s));
    }
    for (int g : children_[c])
      if (!drafts_[g].merged) {
        drafts_[g].parent = child.parent;
        drafts_[g].joint.origin = composeUrdf(T, drafts_[g].joint.origin);
      }
    // the parent's list stays in draft order, the order in which checkMassless visits it
    std::vector<int>& siblings = children_[child.parent];
    const auto before = static_cast<std::ptrdiff_t>(siblings.size());
    siblings.insert(siblings.end(), children_[c].begin(), children_[c].end());
    std::inplace_merge(siblings.begin(), siblings.begin() + before, siblings.end());
    children_[c].clear();
    child.merged = true;
  }

  // Links on fixed joints without mass (frames such as tool0, imu_link) and, with mergeFixed,
  // every link on a fixed joint, go into their parents; children first, so that a chain of them
  // collapses. A massless link fixed to the world is left out (the world has no shapes).
  void mergeMassless() {
    for (int c = static_cast<int>(drafts_.size()) - 1; c >= 0; --c) {
      Draft& d = drafts_[c];
      if (d.joint.type != JointType::Fixed || (d.massive && !options_.mergeFixed)) continue;
      if (d.parent >= 0) {
        notes_.add(d.massive ? "links merged into their parents across fixed joints (--merge-fixed)"
                             : "links without mass merged into their parents across fixed joints",
                   d.link + " -> " + drafts_[d.parent].link, d.linkAt);
        mergeIntoParent(c);
      } else if (!d.massive) {
        notes_.add("links without mass fixed to the world left out (with their visuals)", d.link, d.linkAt);
        for (int g : children_[c])
          if (!drafts_[g].merged) {
            drafts_[g].parent = -1;
            drafts_[g].joint.origin = composeUrdf(d.joint.origin, drafts_[g].joint.origin);
          }
        children_[c].clear();
        d.merged = true;
      }
    }
  }

  // A link without mass that moves takes the links fixed to it; if it still has none, it cannot
  // move (its joint would have no inertia to act on): an error naming it.
  void checkMassless() {
    std::vector<Diagnostic> errors;
    for (int c = 0; c < static_cast<int>(drafts_.size()); ++c) {
      if (drafts_[c].merged || drafts_[c].massive) continue;
      // by index: a merge adds the merged link's children to the list, after it
      for (std::size_t k = 0; k < children_[c].size(); ++k)
        if (const int g = children_[c][k];
            !drafts_[g].merged && drafts_[g].parent == c && drafts_[g].joint.type == JointType::Fixed) {
          notes_.add("links merged into a moving link without mass, which then has their mass",
                     drafts_[g].link + " -> " + drafts_[c].link, drafts_[g].linkAt);
          mergeIntoParent(g);
        }
      const Draft& d = drafts_[c];
      if (!d.massive)
        errors.push_back(diagnostic(
            d.linkAt,
            "link '" + d.link + "' has no mass but moves on " +
                (d.jointName.empty()
                     ? std::string("its free joint to the world (--floating)")
                     : "joint '" + d.jointName + "' (" + std::string(jointTypeName(d.joint.type)) + ")") +
                (options_.density > 0.0
                     ? ": it has no shapes whose mass can be computed at the density given (--density; the "
                       "warnings above name the shapes left out and why); give it an <inertial> with a mass, or "
                       "fix a link with mass to it by a fixed joint"
                     : ": give it an <inertial> with a mass, fix a link with mass to it by a fixed joint, or "
                       "compute the masses from the links' shapes (import with --density RHO)"),
            false));
    }
    if (errors.empty()) return;
    // what was left out on the way (a mesh not found, one that is not closed) is often the reason
    std::vector<Diagnostic> all;
    notes_.into(all, file_);
    all.insert(all.end(), std::make_move_iterator(errors.begin()), std::make_move_iterator(errors.end()));
    throw ModelLoadError(std::move(all));
  }

  // --density: a link without mass gets the mass properties of its shapes (its visuals, or its
  // collision geometry where it has no visual) at that density, as MuJoCo's inertiafromgeom does.
  void massFromShapes() {
    for (Draft& d : drafts_) {
      if (d.massive || d.shapes.empty()) continue;
      MassProperties total;
      bool any = false;
      for (const Shape& shape : d.shapes) {
        MassProperties part;
        std::string error;
        if (!shapeMassProperties(shape, options_.density, options_.meshBaseDirectory, meshFiles(), part, error)) {
          notes_.add("shapes whose mass cannot be computed (left out of their link's mass): " + error, d.link,
                     d.linkAt);
          continue;
        }
        total = any ? combineMassProperties(total, part) : part;
        any = true;
      }
      if (!any || !(total.mass > 0.0)) continue;
      d.massive = true;
      d.mass = total;
      notes_.add("link '" + d.link + "' has no mass in the file (no <inertial>, or a mass of 0): mass " +
                     formatSignificant(total.mass, 6) + " kg, centre of mass [" + formatSignificant(total.com.x(), 4) +
                     ", " + formatSignificant(total.com.y(), 4) + ", " + formatSignificant(total.com.z(), 4) +
                     "] m and inertia computed from its shapes at " + formatSignificant(options_.density, 6) +
                     " kg/m³ (--density)",
                 std::string(), d.linkAt);
    }
  }

  // Unless --strict: a link on a fixed joint whose inertia is not physical (a point mass, a CAD
  // export's round-off) goes into its parent, lumped; any other link's inertia that is not
  // physical is replaced by the nearest physical one (core/model/geometry/physical_inertia.hpp).
  // Each with a warning naming the link, the principal moments before and after and the change.
  void repairInertias() {
    const auto moments = [](const Vec3& p) {
      return "[" + formatSignificant(p[0], 6) + ", " + formatSignificant(p[1], 6) + ", " + formatSignificant(p[2], 6) +
             "] kg·m²";
    };
    for (int c = static_cast<int>(drafts_.size()) - 1; c >= 0; --c) {
      Draft& d = drafts_[c];
      if (d.merged || !d.massive || d.parent < 0 || d.joint.type != JointType::Fixed) continue;
      const Mat3 I = 0.5 * (d.mass.inertia + d.mass.inertia.transpose());
      if (isPhysicalInertia(I)) continue;
      const InertiaRepair shown = nearestPhysicalInertia(I, d.mass.mass);
      notes_.add("link '" + d.link + "' (mass " + formatSignificant(d.mass.mass, 6) + " kg" +
                     (d.lumped ? ", with the links fixed to it lumped in" : "") + ") on fixed joint '" + d.jointName +
                     "' has an inertia that is not physical (principal moments " + moments(shown.before) +
                     "): merged into its parent '" + drafts_[d.parent].link +
                     "' (lumped: exact for the motion; that fixed joint's loads are not reported)",
                 std::string(), d.linkAt);
      mergedForInertia_.push_back(d.link);
      mergeIntoParent(c);
    }
    for (Draft& d : drafts_) {
      if (d.merged || !d.massive) continue;
      const Mat3 I = 0.5 * (d.mass.inertia + d.mass.inertia.transpose());
      if (isPhysicalInertia(I)) continue;
      const InertiaRepair r = nearestPhysicalInertia(I, d.mass.mass);
      const bool moves = d.joint.type != JointType::Fixed;
      notes_.add("link '" + d.link + "': its inertia" + (d.lumped ? ", with the links fixed to it lumped in," : "") +
                     " is not physical (principal moments " + moments(r.before) +
                     "); replaced by the nearest physical one, principal moments " + moments(r.after) +
                     ", a change of " + formatSignificant(100.0 * r.relativeChange, 3) + " %" +
                     (moves ? "; the dynamics of this link are an approximation" : "") + " (--strict refuses it)",
                 std::string(), d.linkAt);
      d.mass.inertia = r.inertia;
      repairedInertia_.push_back(d.link);
    }
  }

  void build() {
    UrdfNames bodyNames, jointNames;
    std::vector<int> index(drafts_.size(), -1);
    for (std::size_t k = 0; k < drafts_.size(); ++k) {
      Draft& d = drafts_[k];
      if (d.merged) continue;
      BodySpec b;
      b.name = bodyNames.take(d.link, notes_, "links", d.linkAt);
      b.parent = d.parent < 0 ? "world" : model_.bodies[index[d.parent]].name;
      b.joint = d.joint;
      if (!d.jointName.empty()) b.joint.name = jointNames.take(d.jointName, notes_, "joints", d.jointAt);
      b.inertial.mass = d.mass.mass;
      b.inertial.com = d.mass.com;
      b.inertial.inertia = 0.5 * (d.mass.inertia + d.mass.inertia.transpose());
      b.shapes = d.shapes;
      index[k] = static_cast<int>(model_.bodies.size());
      built_.push_back(static_cast<int>(k));
      model_.bodies.push_back(std::move(b));
    }
  }

  // The model checks, reported at the link (or, for joint fields, the joint) they concern.
  void validateBuilt(const Model& model) {
    std::vector<Diagnostic> errors;
    for (const Diagnostic& v : validate(model)) {
      Location at;
      std::string path = v.path;
      if (path.rfind("bodies[", 0) == 0) {
        const std::size_t close = path.find(']');
        const int body = std::atoi(path.c_str() + 7);
        if (body >= 0 && body < static_cast<int>(built_.size())) {
          const Draft& d = drafts_[built_[body]];
          std::string field = close + 2 < path.size() ? path.substr(close + 2) : std::string();
          const bool jointField = field.rfind("joint", 0) == 0;
          at = jointField ? d.jointAt : d.linkAt;
          path = jointField && !d.jointName.empty() ? "joint '" + d.jointName + "'" : "link '" + d.link + "'";
          if (!field.empty()) path += ": " + field;
        }
      }
      Diagnostic d = diagnostic(at, v.message, v.warning, path);
      if (v.warning)
        notes_.add(path + ": " + v.message, std::string(), at);
      else
        errors.push_back(std::move(d));
    }
    if (!errors.empty()) throw ModelLoadError(errors);
  }

  std::string file_, directory_;
  const UrdfImportOptions& options_;
  std::map<std::string, const TiXmlElement*> links_, joints_, materials_;
  std::vector<Draft> drafts_;
  std::vector<std::vector<int>> children_;  // of each draft, in draft order
  std::vector<int> built_;                  // the draft of each body of the model
  Notes notes_;
  std::vector<std::string> missingMeshes_;
  std::vector<std::string> mergedForInertia_, repairedInertia_;
  Model model_;
};

}  // namespace

UrdfImport importUrdfString(const std::string& xml, const std::string& fileName, const std::string& directory,
                            const UrdfImportOptions& options) {
  return UrdfImporter(fileName, directory, options).run(xml);
}

UrdfImport importUrdfFile(const std::string& path, const UrdfImportOptions& options) {
  const std::string xml = readModelFileText(path);
  std::error_code ec;
  const std::string directory = fs::absolute(fs::path(path), ec).parent_path().lexically_normal().string();
  return importUrdfString(xml, path, directory, options);
}

}  // namespace kt
