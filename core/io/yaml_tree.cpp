#include "core/io/yaml_tree.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <unordered_map>

namespace kt::yaml {

const Node* Node::find(const std::string& key) const {
  for (const auto& [k, v] : entries)
    if (k->kind == Kind::Scalar && k->value == key) return v.get();
  return nullptr;
}

std::string describe(const Node& node) {
  switch (node.kind) {
    case Node::Kind::Null: return "nothing";
    case Node::Kind::Sequence: return "a list";
    case Node::Kind::Map: return "a mapping";
    case Node::Kind::Scalar: {
      std::string v = node.value.size() > 40 ? node.value.substr(0, 37) + "..." : node.value;
      return (node.quoted ? "the quoted text '" : "'") + v + "'";
    }
  }
  return "?";
}

namespace {

Position toPosition(const YAML::Mark& m) {
  if (m.is_null()) return {};
  return {m.line, m.column};
}

// Builds Node trees from yaml-cpp's parser events. Anchors are registered when their node is
// complete, so an alias can never point into its own ancestors (no cycles).
class Builder : public YAML::EventHandler {
 public:
  explicit Builder(std::vector<ParseProblem>& problems) : problems_(problems) {}

  std::shared_ptr<const Node> root;
  std::vector<std::pair<std::string, Position>> aliases;  ///< path where each alias is written, and its position
  int documents = 0;
  Position documentStart;

  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents;
    documentStart = toPosition(mark);
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Null;
    n->pos = toPosition(mark);
    // "key:" with nothing after it: yaml-cpp marks the next token, often on a later line.
    if (!stack_.empty() && stack_.back().node->kind == Node::Kind::Map && stack_.back().pendingKey &&
        stack_.back().pendingKey->pos.line < n->pos.line)
      n->pos = stack_.back().pendingKey->pos;
    complete(n, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      problems_.push_back({toPosition(mark),
                           "alias refers to a node that is not complete yet (a node cannot contain "
                           "itself)"});
      auto n = std::make_shared<Node>();
      n->pos = toPosition(mark);
      attach(n);
      return;
    }
    // The anchor's node itself; where the alias is written is kept by path.
    aliases.emplace_back(childPath(), toPosition(mark));
    attach(it->second);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Scalar;
    n->pos = toPosition(mark);
    n->value = value;
    // "?" plain, "!" quoted; standard tags: !!str is text, !!int/!!float/!!bool/!!null are read
    // from the value like a plain scalar.
    n->quoted = tag == "!" || tag == "tag:yaml.org,2002:str";
    checkTag(tag, n->pos, {"int", "float", "bool", "null", "str"});
    complete(n, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    checkTag(tag, toPosition(mark), {"seq"});
    open(Node::Kind::Sequence, mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    checkTag(tag, toPosition(mark), {"map"});
    open(Node::Kind::Map, mark, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    std::shared_ptr<Node> node;
    YAML::anchor_t anchor = 0;
    std::shared_ptr<const Node> pendingKey;
    std::unordered_map<std::string, Position> keys;
    std::string path;
  };

  // Tags a model file may use: the standard ones of YAML's core schema that fit the node.
  // Anything else (!!binary, !!set, local tags such as !ros) would otherwise be silently ignored.
  void checkTag(const std::string& tag, Position pos, std::initializer_list<const char*> allowed) {
    if (tag.empty() || tag == "?" || tag == "!") return;
    static const std::string kStandard = "tag:yaml.org,2002:";
    if (tag.compare(0, kStandard.size(), kStandard) == 0) {
      const std::string name = tag.substr(kStandard.size());
      for (const char* a : allowed)
        if (name == a) return;
      problems_.push_back({pos, "the tag !!" + name + " is not supported here; remove it", childPath()});
      return;
    }
    problems_.push_back({pos,
                         "unknown tag '" + tag + "'; model files use no tags (remove it, and write the value itself)",
                         childPath()});
  }

  // Path of the node about to be attached: the pending key or the next list index.
  std::string childPath() const {
    if (stack_.empty()) return {};
    const Frame& f = stack_.back();
    if (f.node->kind == Node::Kind::Sequence) return f.path + "[" + std::to_string(f.node->items.size()) + "]";
    if (f.pendingKey && f.pendingKey->kind == Node::Kind::Scalar)
      return f.path.empty() ? f.pendingKey->value : f.path + "." + f.pendingKey->value;
    return f.path;
  }

  void open(Node::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
    auto n = std::make_shared<Node>();
    n->kind = kind;
    n->pos = toPosition(mark);
    std::string path = childPath();
    stack_.push_back({n, anchor, nullptr, {}, std::move(path)});
  }
  void close() {
    if (stack_.empty()) return;
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    complete(f.node, f.anchor);
  }
  void complete(const std::shared_ptr<Node>& n, YAML::anchor_t anchor) {
    if (anchor) anchors_[anchor] = n;
    attach(n);
  }
  void attach(const std::shared_ptr<const Node>& n) {
    if (stack_.empty()) {
      if (!root) root = n;
      return;
    }
    Frame& f = stack_.back();
    if (f.node->kind == Node::Kind::Sequence) {
      f.node->items.push_back(n);
    } else if (!f.pendingKey) {
      f.pendingKey = n;
      if (n->kind == Node::Kind::Scalar) {
        auto [it, inserted] = f.keys.emplace(n->value, n->pos);
        if (!inserted)
          problems_.push_back({n->pos,
                               "duplicate key '" + n->value + "' (first given at line " +
                                   std::to_string(it->second.line + 1) + "); each key may appear once",
                               f.path.empty() ? n->value : f.path + "." + n->value});
      }
    } else {
      f.node->entries.emplace_back(f.pendingKey, n);
      f.pendingKey.reset();
    }
  }

  std::vector<ParseProblem>& problems_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, std::shared_ptr<const Node>> anchors_;
};

bool isBlockScalarIndicator(const std::string& text, std::size_t from, std::size_t to) {
  // The last token of the line (before a comment) is '|' or '>' with optional indicators.
  std::size_t end = to;
  for (std::size_t j = from; j < to; ++j)
    if (text[j] == '#' && (j == from || text[j - 1] == ' ' || text[j - 1] == '\t')) {
      end = j;
      break;
    }
  while (end > from && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r')) --end;
  std::size_t start = end;
  while (start > from && text[start - 1] != ' ' && text[start - 1] != '\t') --start;
  if (start >= end || (text[start] != '|' && text[start] != '>')) return false;
  for (std::size_t j = start + 1; j < end; ++j)
    if (text[j] != '-' && text[j] != '+' && (text[j] < '1' || text[j] > '9')) return false;
  return start == from || (start >= 2 && (text[start - 2] == ':' || text[start - 2] == '-'));
}

}  // namespace

bool nestingWithin(const std::string& text, int limit, Position& where) {
  std::vector<int> indents;  // open block levels
  int flow = 0;
  bool inSingle = false, inDouble = false;
  int blockScalarParent = -1;  // indentation of the line that opened a block scalar, or −1
  std::size_t i = 0;
  int line = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const std::size_t lineStart = i;
    std::size_t lineEnd = text.find('\n', i);
    if (lineEnd == std::string::npos) lineEnd = n;
    int indent = 0;
    while (i < lineEnd && text[i] == ' ') {
      ++i;
      ++indent;
    }
    const bool blank = i >= lineEnd || text[i] == '#' || text[i] == '\r';
    if (blockScalarParent >= 0 && (blank || indent > blockScalarParent)) {  // block scalar content
      i = lineEnd + 1;
      ++line;
      continue;
    }
    blockScalarParent = -1;
    const bool structural = !inSingle && !inDouble && flow == 0 && !blank;
    if (structural) {
      while (!indents.empty() && indents.back() >= indent) indents.pop_back();
      indents.push_back(indent);
    }
    int prefixes = 0;  // "- " and "? " entries opened on this line
    char prevNonSpace = 0;
    bool prevSpace = true;
    bool leading = structural;
    for (std::size_t j = i; j < lineEnd; ++j) {
      const char c = text[j];
      if (inDouble) {
        if (c == '\\')
          ++j;
        else if (c == '"')
          inDouble = false;
        continue;
      }
      if (inSingle) {
        if (c == '\'') {
          if (j + 1 < lineEnd && text[j + 1] == '\'')
            ++j;
          else
            inSingle = false;
        }
        continue;
      }
      if (c == '#' && prevSpace) break;
      const bool tokenStart = prevNonSpace == 0 || prevNonSpace == '[' || prevNonSpace == '{' || prevNonSpace == ',' ||
                              (prevSpace && (prevNonSpace == ':' || prevNonSpace == '-' || prevNonSpace == '?'));
      if (leading && (c == '-' || c == '?') && (j + 1 == lineEnd || text[j + 1] == ' ' || text[j + 1] == '\r')) {
        ++prefixes;
      } else if (c != ' ' && c != '\t') {
        leading = false;
        if (c == '"' && tokenStart)
          inDouble = true;
        else if (c == '\'' && tokenStart)
          inSingle = true;
        else if (c == '[' || c == '{')
          ++flow;
        else if ((c == ']' || c == '}') && flow > 0)
          --flow;
      }
      if (static_cast<int>(indents.size()) + prefixes + flow > limit) {
        where = {line, static_cast<int>(j - lineStart)};
        return false;
      }
      prevSpace = c == ' ' || c == '\t';
      if (!prevSpace) prevNonSpace = c;
    }
    if (structural && !inSingle && !inDouble && flow == 0 && isBlockScalarIndicator(text, i, lineEnd))
      blockScalarParent = indent;
    i = lineEnd + 1;
    ++line;
  }
  return true;
}

std::shared_ptr<const Node> parseDocument(const std::string& text, std::vector<ParseProblem>& problems,
                                          std::vector<std::pair<std::string, Position>>* aliases) {
  if (text.size() > kMaxDocumentBytes) {
    problems.push_back({{},
                        "the text is " + std::to_string(text.size() / (1024 * 1024)) +
                            " MiB; model files are limited to " + std::to_string(kMaxDocumentBytes / (1024 * 1024)) +
                            " MiB"});
    return nullptr;
  }
  Position where;
  if (!nestingWithin(text, kMaxNestingDepth, where)) {
    problems.push_back({where, "nesting is deeper than " + std::to_string(kMaxNestingDepth) +
                                   " levels; a model file needs fewer than 10 (is this a model file?)"});
    return nullptr;
  }
  std::istringstream in(text);
  Builder builder(problems);
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder)) return nullptr;
    const int first = builder.documents;
    auto root = builder.root;
    if (aliases) *aliases = std::move(builder.aliases);
    if (parser.HandleNextDocument(builder) && builder.documents > first)
      problems.push_back({builder.documentStart,
                          "the file holds a second YAML document (after '---'); a model file "
                          "holds exactly one"});
    return root;
  } catch (const YAML::Exception& e) {
    std::string msg = e.msg;
    problems.push_back({toPosition(e.mark), "YAML syntax error: " + msg});
  } catch (const std::exception& e) {
    problems.push_back({{}, std::string("cannot parse the YAML text: ") + e.what()});
  }
  return nullptr;
}

}  // namespace kt::yaml
