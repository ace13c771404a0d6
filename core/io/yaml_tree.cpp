// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/yaml_tree.hpp"

#include "core/io/yaml_events.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace kt::yaml {

const Node* Node::find(const std::string& key) const {
  for (const auto& [k, v] : entries)
    if (k->kind == Kind::Scalar && k->value == key) return v;
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

std::string restoreCarried(const std::string& value);

// Every node of one document, allocated in blocks that never move, so that nodes can point to
// each other and go together (the tree of a 10,000-body file has about 650,000 nodes). Blocks
// grow from 64 nodes, so that a small file takes little.
class NodeArena {
 public:
  Node* make(Node::Kind kind, Position pos) {
    if (used_ == size_) {
      size_ = blocks_.empty() ? 64 : std::min<std::size_t>(2 * size_, 4096);
      blocks_.push_back(std::make_unique<Node[]>(size_));
      used_ = 0;
    }
    Node* n = &blocks_.back()[used_++];
    n->kind = kind;
    n->pos = pos;
    return n;
  }

 private:
  std::vector<std::unique_ptr<Node[]>> blocks_;
  std::size_t size_ = 0;  ///< nodes in the last block
  std::size_t used_ = 0;  ///< of which in use
};

// Builds Node trees from the YAML parser's events. Anchors are registered when their node is
// complete, so an alias can never point into its own ancestors (no cycles).
class Builder final : public EventSink {
 public:
  /// `carrying`: the text's unprintable bytes are carried (carryUnprintable): values restore them.
  Builder(std::vector<ParseProblem>& problems, bool carrying) : problems_(problems), carrying_(carrying) {}

  std::shared_ptr<NodeArena> arena = std::make_shared<NodeArena>();
  const Node* root = nullptr;
  std::vector<std::pair<std::string, Position>> aliases;  ///< path where each alias is written, and its position
  int documents = 0;
  Position documentStart;
  /// The value of a top-level key that is a sequence starting at line `watchLine` (parseInPieces)
  int watchLine = -1;
  Node* watched = nullptr;

  void onDocumentStart(Position pos) override {
    ++documents;
    documentStart = pos;
  }

  /// `empty`: nothing written ("key:" alone), which the parser marks after the key or at the
  /// next token, often on a later line: it is placed at its key.
  void onNull(Position pos, const std::string& anchor, bool empty) override {
    if (empty && !stack_.empty() && stack_.back().node->kind == Node::Kind::Map && stack_.back().pendingKey)
      pos = stack_.back().pendingKey->pos;
    complete(arena->make(Node::Kind::Null, pos), anchor);
  }
  void onAlias(Position pos, const std::string& anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      problems_.emplace_back(pos,
                             "alias refers to a node that is not complete yet (a node cannot contain "
                             "itself)");
      attach(arena->make(Node::Kind::Null, pos));
      return;
    }
    // The anchor's node itself; where the alias is written is kept by path.
    aliases.emplace_back(childPath(), pos);
    attach(it->second);
  }
  /// `quoted`: written in quotes or as a block scalar (| or >), so never a number or a bool.
  void onScalar(Position pos, const std::string& tag, const std::string& anchor, std::string value,
                bool quoted) override {
    Node* n = arena->make(Node::Kind::Scalar, pos);
    n->value = carrying_ ? restoreCarried(value) : std::move(value);
    // standard tags: !!str is text, !!int/!!float/!!bool/!!null are read from the value like a
    // plain scalar.
    n->quoted = quoted || tag == "tag:yaml.org,2002:str";
    checkTag(tag, n->pos, {"int", "float", "bool", "null", "str"});
    complete(n, anchor);
  }
  void onSequenceStart(Position pos, const std::string& tag, const std::string& anchor) override {
    checkTag(tag, pos, {"seq"});
    open(Node::Kind::Sequence, pos, anchor);
  }
  void onMapStart(Position pos, const std::string& tag, const std::string& anchor) override {
    checkTag(tag, pos, {"map"});
    open(Node::Kind::Map, pos, anchor);
  }
  void onEnd() override { close(); }

 private:
  // A sequence or mapping being read. Its YAML path is not kept as text: it is put together from
  // the frames below it only for a message or an alias (pathTo), which most files never need.
  struct Frame {
    Node* node = nullptr;
    std::string anchor;
    const Node* pendingKey = nullptr;
    const Node* key = nullptr;  ///< its scalar key in the enclosing mapping (none: nullptr)
    std::size_t index = 0;      ///< its index in the enclosing sequence
    bool inSequence = false;    ///< the enclosing collection is a sequence
    /// The scalar keys and where each is first given, once the mapping has kLinearKeys entries
    /// (below that a scan of its entries is faster than a lookup).
    std::unordered_map<std::string_view, Position> keys;
    bool hashed = false;  ///< keys holds every scalar key so far
  };
  static constexpr std::size_t kLinearKeys = 16;

  // Tags a model file may use: the standard ones of YAML's core schema that fit the node.
  // Anything else (!!binary, !!set, local tags such as !ros) would otherwise be silently ignored.
  void checkTag(const std::string& tag, Position pos, std::initializer_list<const char*> allowed) {
    if (tag.empty() || tag == "!") return;
    static const std::string kStandard = "tag:yaml.org,2002:";
    if (tag.compare(0, kStandard.size(), kStandard) == 0) {
      const std::string name = tag.substr(kStandard.size());
      for (const char* a : allowed)
        if (name == a) return;
      problems_.emplace_back(pos, "the tag !!" + name + " is not supported here; remove it", childPath());
      return;
    }
    problems_.emplace_back(
        pos, "unknown tag '" + tag + "'; model files use no tags (remove it, and write the value itself)", childPath());
  }

  // Path of the collection stack_[depth − 1] ("" for the root or with depth 0): each frame's
  // key or index in the one enclosing it, joined as "bodies[2].inertial".
  std::string pathTo(std::size_t depth) const {
    std::string path;
    for (std::size_t d = 1; d < depth; ++d) {
      const Frame& f = stack_[d];
      if (f.inSequence) {
        path += "[" + std::to_string(f.index) + "]";
      } else if (f.key != nullptr) {
        if (!path.empty()) path += '.';
        path += f.key->value;
      }
    }
    return path;
  }

  // Path of the node about to be attached: the pending key or the next list index.
  std::string childPath() const {
    if (stack_.empty()) return {};
    const Frame& f = stack_.back();
    std::string path = pathTo(stack_.size());
    if (f.node->kind == Node::Kind::Sequence) return path + "[" + std::to_string(f.node->items.size()) + "]";
    if (f.pendingKey && f.pendingKey->kind == Node::Kind::Scalar)
      return path.empty() ? f.pendingKey->value : path + "." + f.pendingKey->value;
    return path;
  }

  void open(Node::Kind kind, Position pos, const std::string& anchor) {
    Frame f;
    f.node = arena->make(kind, pos);
    f.anchor = anchor;
    if (kind == Node::Kind::Sequence && pos.line == watchLine && stack_.size() == 1) watched = f.node;
    if (!stack_.empty()) {
      const Frame& parent = stack_.back();
      f.inSequence = parent.node->kind == Node::Kind::Sequence;
      f.index = parent.node->items.size();
      if (!f.inSequence && parent.pendingKey && parent.pendingKey->kind == Node::Kind::Scalar)
        f.key = parent.pendingKey;
    }
    stack_.push_back(std::move(f));
  }
  void close() {
    if (stack_.empty()) return;
    Node* n = stack_.back().node;
    const std::string anchor = std::move(stack_.back().anchor);
    stack_.pop_back();
    complete(n, anchor);
  }
  void complete(const Node* n, const std::string& anchor) {
    if (!anchor.empty()) anchors_[anchor] = n;
    attach(n);
  }
  // Where the scalar key `key` was first given in the mapping of frame f, or null.
  static const Position* earlierKey(Frame& f, const std::string& key) {
    if (!f.hashed && f.node->entries.size() < kLinearKeys) {
      for (const auto& [k, v] : f.node->entries)
        if (k->kind == Node::Kind::Scalar && k->value == key) return &k->pos;
      return nullptr;
    }
    if (!f.hashed) {
      for (const auto& [k, v] : f.node->entries)
        if (k->kind == Node::Kind::Scalar) f.keys.emplace(k->value, k->pos);
      f.hashed = true;
    }
    const auto it = f.keys.find(key);
    return it == f.keys.end() ? nullptr : &it->second;
  }
  void attach(const Node* n) {
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
        if (const Position* first = earlierKey(f, n->value)) {
          const std::string path = pathTo(stack_.size());
          problems_.emplace_back(n->pos,
                                 "duplicate key '" + n->value + "' (first given at line " +
                                     std::to_string(first->line + 1) + "); each key may appear once",
                                 path.empty() ? n->value : path + "." + n->value);
        } else if (f.hashed) {
          f.keys.emplace(n->value, n->pos);
        }
      }
    } else {
      f.node->entries.emplace_back(f.pendingKey, n);
      f.pendingKey = nullptr;
    }
  }

  std::vector<ParseProblem>& problems_;
  bool carrying_;
  std::vector<Frame> stack_;
  std::unordered_map<std::string, const Node*> anchors_;
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
  // a node starts there: at the line's start, after "key: " or "- ", or after the node's tag or anchor
  const auto nodeStart = [&](std::size_t k) {
    return k == from || (k >= from + 2 && (text[k - 2] == ':' || text[k - 2] == '-'));
  };
  if (nodeStart(start)) return true;
  std::size_t property = start;
  while (property > from && (text[property - 1] == ' ' || text[property - 1] == '\t')) --property;
  while (property > from && text[property - 1] != ' ' && text[property - 1] != '\t') --property;
  return property < start && (text[property] == '!' || text[property] == '&') && nodeStart(property);
}

// Text that is not UTF-8, and control characters, would stop a YAML parser before the model
// reader can say which value holds them and where (a comment may hold anything). Such bytes are carried
// through the parse as the private-use characters U+F700 + byte and restored in the values
// (only in a file that holds such bytes: one that also writes U+F700–U+F7FF itself would have
// those read back as bytes, and refused as text that is not UTF-8).
constexpr unsigned kCarriedBase = 0xF700;

// The length of the valid UTF-8 sequence at text[i] that YAML allows as printable (§5.1)
// (tab, line ends, U+0020–U+007E, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF), else 0.
std::size_t printableAt(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned c = byte(i);
  if (c < 0x80) return (c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
  int n = 0;
  unsigned cp = 0;
  if (c >= 0xC2 && c <= 0xDF)
    n = 1, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 2, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 3, cp = c & 0x07;
  else
    return 0;
  for (int k = 1; k <= n; ++k) {
    const unsigned b = byte(i + static_cast<std::size_t>(k));
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  const bool shortest = (n == 1) || (n == 2 && cp >= 0x800) || (n == 3 && cp >= 0x10000 && cp <= 0x10FFFF);
  const bool printable = cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
  return shortest && printable ? static_cast<std::size_t>(n) + 1 : 0;
}

// The text with every byte YAML does not allow carried as U+F700 + byte; false (and `out`
// untouched) when there is none, the usual case.
bool carryUnprintable(const std::string& text, std::string& out) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = printableAt(text, i);
    if (n == 0) break;
    i += n;
  }
  if (i == text.size()) return false;
  out.assign(text, 0, i);
  while (i < text.size()) {
    const std::size_t n = printableAt(text, i);
    if (n > 0) {
      out.append(text, i, n);
      i += n;
      continue;
    }
    const unsigned cp = kCarriedBase + static_cast<unsigned char>(text[i++]);
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return true;
}

// The carried bytes back in place of their private-use characters.
std::string restoreCarried(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(value[k]); };
    if (i + 2 < value.size() && b(i) == 0xEF && (b(i + 1) & 0xFC) == 0x9C && (b(i + 2) & 0xC0) == 0x80) {
      const unsigned cp = ((b(i) & 0x0Fu) << 12) | ((b(i + 1) & 0x3Fu) << 6) | (b(i + 2) & 0x3Fu);
      out += static_cast<char>(cp - kCarriedBase);
      i += 2;
    } else {
      out += value[i];
    }
  }
  return out;
}

// The text's encoding (YAML 1.2, §5.2): a byte order mark, or the pattern of zero bytes the first
// character leaves without one. `name` null: UTF-8 (with or without its mark), read as it is.
struct Encoding {
  const char* name = nullptr;
  bool supported = true;
  int unit = 1;  ///< bytes per code unit: 2 (UTF-16) or 4 (UTF-32)
  bool bigEndian = false;
  std::size_t skip = 0;  ///< bytes of the byte order mark
};

Encoding detectEncoding(const std::string& t) {
  const auto at = [&](std::size_t k) { return k < t.size() ? static_cast<unsigned char>(t[k]) : 0x100u; };
  const auto starts = [&](std::initializer_list<unsigned> bytes) {
    std::size_t k = 0;
    for (const unsigned b : bytes)
      if (at(k++) != b) return false;
    return true;
  };
  if (starts({0x00, 0x00, 0xFE, 0xFF})) return {"UTF-32BE", true, 4, true, 4};
  if (starts({0xFF, 0xFE, 0x00, 0x00})) return {"UTF-32LE", true, 4, false, 4};
  if (starts({0xFE, 0xFF})) return {"UTF-16BE", true, 2, true, 2};
  if (starts({0xFF, 0xFE})) return {"UTF-16LE", true, 2, false, 2};
  // byte order marks of encodings YAML does not allow, named so that the user knows what to change
  if (starts({0x2B, 0x2F, 0x76})) return {"UTF-7", false};
  if (starts({0xF7, 0x64, 0x4C})) return {"UTF-1", false};
  if (starts({0xDD, 0x73, 0x66, 0x73})) return {"UTF-EBCDIC", false};
  if (starts({0x0E, 0xFE, 0xFF})) return {"SCSU", false};
  if (starts({0xFB, 0xEE, 0x28})) return {"BOCU-1", false};
  if (starts({0x84, 0x31, 0x95, 0x33})) return {"GB 18030", false};
  // no mark: the zero bytes of ASCII characters (YAML 1.2 looks at the first one; two are asked
  // for here, so that UTF-8 text with a stray NUL early on is not taken for UTF-16)
  const auto ascii = [](unsigned b) { return b != 0 && b < 0x80; };
  if (t.size() >= 8 && starts({0x00, 0x00, 0x00}) && ascii(at(3)) && starts({0, 0, 0, at(3), 0, 0, 0}) && ascii(at(7)))
    return {"UTF-32BE", true, 4, true, 0};
  if (t.size() >= 8 && ascii(at(0)) && starts({at(0), 0, 0, 0}) && ascii(at(4)) &&
      starts({at(0), 0, 0, 0, at(4), 0, 0, 0}))
    return {"UTF-32LE", true, 4, false, 0};
  if (t.size() >= 4 && at(0) == 0 && ascii(at(1)) && at(2) == 0 && ascii(at(3))) return {"UTF-16BE", true, 2, true, 0};
  if (t.size() >= 4 && ascii(at(0)) && at(1) == 0 && ascii(at(2)) && at(3) == 0) return {"UTF-16LE", true, 2, false, 0};
  return {};
}

void appendUtf8(unsigned cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// UTF-16 or UTF-32 text as UTF-8 (the mark dropped); false with what is wrong and where.
bool toUtf8(const std::string& t, const Encoding& e, std::string& out, std::string& error) {
  const std::size_t size = t.size() - e.skip;
  if (size % static_cast<std::size_t>(e.unit) != 0) {
    error = "its length is not a whole number of " + std::to_string(e.unit) + "-byte units (is the file cut short?)";
    return false;
  }
  out.clear();
  out.reserve(size / static_cast<std::size_t>(e.unit));
  const auto unit = [&](std::size_t offset) {
    unsigned v = 0;
    for (int k = 0; k < e.unit; ++k) {
      const auto b = static_cast<unsigned char>(t[offset + static_cast<std::size_t>(e.bigEndian ? k : e.unit - 1 - k)]);
      v = (v << 8) | b;
    }
    return v;
  };
  for (std::size_t i = e.skip; i < t.size(); i += static_cast<std::size_t>(e.unit)) {
    unsigned cp = unit(i);
    if (e.unit == 2 && cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair
      const std::size_t next = i + 2;
      const unsigned low = next + 1 < t.size() ? unit(next) : 0;
      if (low < 0xDC00 || low > 0xDFFF) {
        error = "an unpaired surrogate at byte " + std::to_string(i);
        return false;
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      i = next;
    } else if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      error = "no character has the code " + std::to_string(cp) + " (byte " + std::to_string(i) + ")";
      return false;
    }
    appendUtf8(cp, out);
  }
  return true;
}

}  // namespace

namespace {

// The largest list that is the value of a top-level key, written in block style ("bodies:" and
// then its "- " entries at one indentation), as the pre-scan sees it: where each entry starts.
// The text can be parsed in pieces cut at these lines (parseInPieces).
struct ListRegion {
  struct Entry {
    std::size_t byte;  ///< the start of the entry's line
    int line;
  };
  std::vector<Entry> entries;
  bool directives = false;  ///< the text has directives (%YAML, %TAG): they hold for its first document only
  int indent = 0;           ///< of the entries' "-"
  std::size_t end = 0;      ///< the start of the first line after the list (the text's size at its end)
};

// Follows the pre-scan's structural lines (not inside quotes, a flow collection or a block scalar;
// not blank or a comment) to find ListRegion.
class ListFinder {
 public:
  void line(const std::string& text, std::size_t lineStart, std::size_t first, std::size_t lineEnd, int line,
            int indent) {
    const bool entry =
        text[first] == '-' && (first + 1 == lineEnd || text[first + 1] == ' ' || text[first + 1] == '\r');
    if (indent == 0 && text[first] == '%') directives_ = true;
    if (state_ == State::Open) {
      if (indent > current_.indent || (indent == current_.indent && entry)) {
        if (indent == current_.indent) current_.entries.push_back({lineStart, line});
        return;
      }
      close(lineStart);
    }
    if (state_ == State::Awaiting) {
      state_ = State::Idle;
      if (entry) {
        state_ = State::Open;
        current_.indent = indent;
        current_.entries.assign(1, {lineStart, line});
        return;
      }
    }
    if (indent == 0 && emptyKey(text, first, lineEnd)) state_ = State::Awaiting;
  }
  /// The largest list found, once the text is scanned.
  ListRegion finish(std::size_t size) {
    if (state_ == State::Open) close(size);
    best_.directives = directives_;
    return std::move(best_);
  }

 private:
  enum class State { Idle, Awaiting, Open };
  // "key:" with nothing after it but a comment: a plain key whose value starts on a later line
  static bool emptyKey(const std::string& text, std::size_t first, std::size_t lineEnd) {
    static constexpr std::string_view kIndicators = "-?:#[]{},&*!|>'\"%@`";
    if (kIndicators.find(text[first]) != std::string_view::npos) return false;
    std::size_t end = lineEnd;
    for (std::size_t j = first; j < lineEnd; ++j) {
      const char c = text[j];
      if (c == '[' || c == '{' || c == '"' || c == '\'') return false;
      if (c == '#' && (text[j - 1] == ' ' || text[j - 1] == '\t')) {
        end = j;
        break;
      }
    }
    while (end > first && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r')) --end;
    return end > first + 1 && text[end - 1] == ':' &&
           std::string_view(text).substr(first, end - 1 - first).find(": ") == std::string_view::npos;
  }
  void close(std::size_t end) {
    state_ = State::Idle;
    current_.end = end;
    const auto bytes = [](const ListRegion& r) { return r.entries.empty() ? 0 : r.end - r.entries.front().byte; };
    if (bytes(current_) > bytes(best_)) std::swap(best_, current_);
  }

  State state_ = State::Idle;
  bool directives_ = false;
  ListRegion current_, best_;
};

// nestingWithin, and with `list` also the largest top-level block list (ListRegion).
bool scanOutline(const std::string& text, int limit, Position& where, ListRegion* list) {
  ListFinder finder;
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
      if (list) finder.line(text, lineStart, i, lineEnd, line, indent);
    }
    int prefixes = 0;  // "- " and "? " entries opened on this line
    char prevNonSpace = 0;
    bool prevSpace = true;
    bool afterProperty = false;  // the last token was a node's tag or anchor: a node starts next
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
      const bool tokenStart =
          prevNonSpace == 0 || prevNonSpace == '[' || prevNonSpace == '{' || (flow > 0 && prevNonSpace == ',') ||
          (prevSpace && (prevNonSpace == ':' || prevNonSpace == '-' || prevNonSpace == '?' || afterProperty));
      if (leading && (c == '-' || c == '?') && (j + 1 == lineEnd || text[j + 1] == ' ' || text[j + 1] == '\r')) {
        ++prefixes;
      } else if (c != ' ' && c != '\t') {
        leading = false;
        if (prevSpace) afterProperty = tokenStart && (c == '!' || c == '&');
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
  if (list) *list = finder.finish(n);
  return true;
}

}  // namespace

bool nestingWithin(const std::string& text, int limit, Position& where) {
  return scanOutline(text, limit, where, nullptr);
}

namespace {

// The events of a piece of the text, parsed on its own, moved to the document's lines: `offset`
// lines down, and from the piece's line `from` on `shift` lines more (the first piece: the text
// after the list follows the list's first entries there).
class ShiftedSink final : public EventSink {
 public:
  ShiftedSink(EventSink& to, int offset, int from, int shift) : to_(to), offset_(offset), from_(from), shift_(shift) {}
  void onDocumentStart(Position pos) override { to_.onDocumentStart(map(pos)); }
  void onNull(Position pos, const std::string& anchor, bool empty) override { to_.onNull(map(pos), anchor, empty); }
  void onAlias(Position pos, const std::string& anchor) override { to_.onAlias(map(pos), anchor); }
  void onScalar(Position pos, const std::string& tag, const std::string& anchor, std::string value,
                bool quoted) override {
    to_.onScalar(map(pos), tag, anchor, std::move(value), quoted);
  }
  void onSequenceStart(Position pos, const std::string& tag, const std::string& anchor) override {
    to_.onSequenceStart(map(pos), tag, anchor);
  }
  void onMapStart(Position pos, const std::string& tag, const std::string& anchor) override {
    to_.onMapStart(map(pos), tag, anchor);
  }
  void onEnd() override { to_.onEnd(); }

 private:
  Position map(Position p) const {
    p.line += offset_ + (p.line >= from_ ? shift_ : 0);
    return p;
  }
  EventSink& to_;
  int offset_, from_, shift_;
};

struct Piece {
  std::string text;
  int offset = 0;
  int from = std::numeric_limits<int>::max();
  int shift = 0;
  std::vector<ParseProblem> problems;
  Builder builder{problems, false};
  EventsResult events;
  bool failed = false;

  void parse() noexcept {
    try {
      ShiftedSink sink(builder, offset, from, shift);
      events = parseEvents(text, sink);
    } catch (...) {  // out of memory: the text is then parsed whole, where it is reported
      failed = true;
    }
  }
  /// Read without a problem of any kind: the tree is what the whole text gives.
  bool clean() const {
    return !failed && events.error.empty() && !events.secondDocument && problems.empty() && builder.aliases.empty() &&
           builder.root != nullptr && builder.documents == 1;
  }
};

// Texts this large are parsed in pieces where they can be (parseInPieces), each piece at least
// kPieceBytes.
constexpr std::size_t kPiecesFrom = 1024 * 1024;
constexpr std::size_t kPieceBytes = 512 * 1024;

// Each piece must meet at its ends what it meets in the whole text, for the parser (yaml-cpp)
// leaves some mistakes unreported until more text follows (a key without its ':' is an error at the
// next ':', anywhere after it, and nothing at the end of the text): every piece ends in an entry
// of its own, "- 0: 0", dropped after the parse. The first piece is the text before the list, its
// first entries, that entry, then the list's last entry and what follows the list; every other
// piece a key of its own, "0:", then a run of the entries between, then that entry: its entries are
// as deep in the document as the whole text has them (yaml-cpp refuses texts nested 500 deep).
// Directives (%TAG) would hold in the first piece only: a text with any is parsed whole.
std::shared_ptr<const Node> parseListInPieces(const std::string& input, const ListRegion& list, std::size_t count,
                                              std::size_t threads) {
  const std::size_t entries = list.entries.size();
  if (entries < 3 || count < 2 || list.directives) return nullptr;
  // each later piece starts at the entry nearest to an equal share of the list's bytes (not the
  // first or the last entry: the first piece has those)
  const std::size_t begin = list.entries.front().byte, bytes = list.end - begin;
  std::vector<std::size_t> cuts;  // entry indices
  std::size_t e = 1;
  for (std::size_t k = 1; k < count; ++k) {
    const std::size_t target = begin + bytes * k / count;
    while (e + 1 < entries && list.entries[e].byte < target) ++e;
    std::size_t nearest = e;
    if (e > 1 && (e + 1 == entries || target - list.entries[e - 1].byte < list.entries[e].byte - target))
      nearest = e - 1;
    if (nearest + 1 < entries && (cuts.empty() || cuts.back() < nearest)) cuts.push_back(nearest);
  }
  if (cuts.empty()) return nullptr;
  cuts.push_back(entries - 1);  // the end of the last piece
  const ListRegion::Entry& first = list.entries[cuts[0]];
  const ListRegion::Entry& last = list.entries.back();
  std::vector<std::unique_ptr<Piece>> pieces;
  for (std::size_t k = 0; k < cuts.size(); ++k) pieces.push_back(std::make_unique<Piece>());
  Piece& head = *pieces[0];
  const std::string extra = std::string(static_cast<std::size_t>(list.indent), ' ') + "- 0: 0\n";
  head.text.reserve(first.byte + extra.size() + (input.size() - last.byte));
  head.text.assign(input, 0, first.byte);
  head.text += extra;
  head.text.append(input, last.byte, std::string::npos);
  head.from = first.line + 1;
  head.shift = last.line - first.line - 1;
  head.builder.watchLine = list.entries.front().line;
  const std::string key = "0:\n";
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    const ListRegion::Entry& from = list.entries[cuts[k - 1]];
    const std::size_t end = list.entries[cuts[k]].byte;
    pieces[k]->text.reserve(key.size() + end - from.byte + extra.size());
    pieces[k]->text = key;
    pieces[k]->text.append(input, from.byte, end - from.byte);
    pieces[k]->text += extra;
    pieces[k]->offset = from.line - 1;
  }
  // `threads` workers, this thread one of them, each taking the next piece not yet taken: pieces
  // parse at different speeds, so there are more pieces than workers
  std::atomic<std::size_t> next{0};
  const auto work = [&pieces, &next] {
    for (std::size_t k; (k = next.fetch_add(1)) < pieces.size();) pieces[k]->parse();
  };
  std::vector<std::thread> workers;
  try {
    while (workers.size() + 1 < std::min(threads, pieces.size())) workers.emplace_back(work);
  } catch (...) {  // no more threads to be had (or no memory for one): fewer workers
  }
  work();
  for (std::thread& t : workers) t.join();

  // the first piece's list, its last entry kept back; every other piece's entries; none of theirs.
  // Each entry where the scan saw one (it reads quotes, brackets and block scalars as the parser
  // does, but not everything: "com[: 1" is a plain key to the parser, an open bracket to the scan)
  for (const auto& p : pieces)
    if (!p->clean()) return nullptr;
  Node* whole = head.builder.watched;
  const auto entriesAt = [&list](const std::vector<const Node*>& items, std::size_t from, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k)
      if (items[k]->pos.line != list.entries[from + k].line && items[k]->kind != Node::Kind::Null)
        return false;  // an empty entry ("-" alone) is placed at the next token
    const Node* own = items[n];
    return own->kind == Node::Kind::Map && own->entries.size() == 1 && own->entries[0].first->value == "0" &&
           own->entries[0].second->value == "0";
  };
  if (whole == nullptr || whole->items.size() != cuts[0] + 2 || !entriesAt(whole->items, 0, cuts[0]) ||
      whole->items.back()->pos.line != last.line)
    return nullptr;
  const Node* lastEntry = whole->items.back();
  whole->items.resize(cuts[0]);
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    const Node* root = pieces[k]->builder.root;
    if (root->kind != Node::Kind::Map || root->entries.size() != 1 || root->entries[0].first->value != "0")
      return nullptr;
    const Node* part = root->entries[0].second;
    const std::size_t own = cuts[k] - cuts[k - 1];
    if (part->kind != Node::Kind::Sequence || part->items.size() != own + 1 ||
        !entriesAt(part->items, cuts[k - 1], own))
      return nullptr;
    whole->items.insert(whole->items.end(), part->items.begin(), part->items.end() - 1);
  }
  whole->items.push_back(lastEntry);
  auto arenas = std::make_shared<std::vector<std::shared_ptr<NodeArena>>>();
  for (const auto& p : pieces) arenas->push_back(p->builder.arena);
  return {arenas, head.builder.root};  // shares the arenas' ownership
}

}  // namespace

std::shared_ptr<const Node> parseInPieces(const std::string& text, int pieces) {
  ListRegion list;
  Position where;
  if (!scanOutline(text, kMaxNestingDepth, where, &list)) return nullptr;
  const auto count = static_cast<std::size_t>(std::max(pieces, 0));
  return parseListInPieces(text, list, count, count);
}

std::shared_ptr<const Node> parseDocument(const std::string& raw, std::vector<ParseProblem>& problems,
                                          std::vector<std::pair<std::string, Position>>* aliases) {
  if (raw.size() > kMaxDocumentBytes) {
    problems.push_back({{},
                        "the text is " + std::to_string(raw.size() / (1024 * 1024)) +
                            " MiB; model files are limited to " + std::to_string(kMaxDocumentBytes / (1024 * 1024)) +
                            " MiB"});
    return nullptr;
  }
  std::string decoded;
  const std::string* text = &raw;
  if (const Encoding encoding = detectEncoding(raw); encoding.name != nullptr) {
    if (!encoding.supported) {
      problems.emplace_back(Position{}, std::string("the text is encoded in ") + encoding.name +
                                            ", which YAML does not allow; save it as UTF-8 (or UTF-16 or UTF-32)");
      return nullptr;
    }
    std::string error;
    if (!toUtf8(raw, encoding, decoded, error)) {
      problems.emplace_back(Position{}, std::string("the text is not valid ") + encoding.name + ": " + error);
      return nullptr;
    }
    text = &decoded;
  } else if (raw.compare(0, 3, "\xEF\xBB\xBF") == 0) {  // UTF-8's mark: not part of the first line
    decoded.assign(raw, 3);
    text = &decoded;
  }
  // a mark written twice (or one kept in decoded UTF-16): yaml-cpp would skip it and count its
  // positions without it
  std::size_t marks = 0;
  while (text->compare(marks, 3, "\xEF\xBB\xBF") == 0) marks += 3;
  if (marks > 0) {
    decoded = text->substr(marks);
    text = &decoded;
  }
  Position where;
  ListRegion list;
  const bool large = text->size() >= kPiecesFrom && std::thread::hardware_concurrency() >= 2;
  if (!scanOutline(*text, kMaxNestingDepth, where, large ? &list : nullptr)) {
    problems.emplace_back(where, "nesting is deeper than " + std::to_string(kMaxNestingDepth) +
                                     " levels; a model file needs fewer than 10 (is this a model file?)");
    return nullptr;
  }
  std::string carried;
  const bool carrying = carryUnprintable(*text, carried);
  const std::string& input = carrying ? carried : *text;
  // a large file on more than one core: its longest list in pieces, parsed on every core (a piece
  // with any problem, or carried bytes, and it is parsed whole, so that every message is as it
  // would be)
  if (large && !carrying) {
    const std::size_t threads = std::min(std::thread::hardware_concurrency(), 8u);
    const std::size_t count = std::min<std::size_t>(4 * threads, input.size() / kPieceBytes);
    if (auto root = parseListInPieces(input, list, count, threads)) {
      if (aliases) aliases->clear();  // a piece with an alias is parsed whole
      return root;
    }
  }

  Builder builder(problems, carrying);
  const EventsResult events = parseEvents(input, builder);
  if (!events.error.empty()) {
    problems.emplace_back(events.errorPos, events.error);
    return nullptr;
  }
  if (events.secondDocument)
    problems.emplace_back(events.secondStart,
                          "the file holds a second YAML document (after '---'); a model file holds exactly one");
  if (aliases) *aliases = builder.aliases;
  if (builder.root == nullptr) return nullptr;
  return {builder.arena, builder.root};  // shares the arena's ownership
}

}  // namespace kt::yaml
