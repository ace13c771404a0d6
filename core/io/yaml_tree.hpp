// SPDX-License-Identifier: BSD-3-Clause
// A YAML document as a small tree that keeps what the model reader needs: the position of every
// node, duplicate keys reported instead of silently merged, whether a scalar was quoted, and
// guards against absurd inputs (size, nesting depth) checked before the parser sees the text.
// Built from the events of yaml-cpp's parser (YAML::Parser with an EventHandler: its node API
// would build a second tree). UTF-16 and UTF-32 text with a byte order mark (or the zero bytes
// of an ASCII first character, YAML 1.2 §5.2) is read as YAML 1.2 says; other encodings that
// announce themselves with a mark are refused by name.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/io/yaml_events.hpp"

namespace kt::yaml {

struct Node {
  enum class Kind { Null, Scalar, Sequence, Map };
  Kind kind = Kind::Null;
  Position pos;
  std::string value;               ///< Scalar
  bool quoted = false;             ///< Scalar written in quotes (or tagged !!str): never a number or bool
  std::vector<const Node*> items;  ///< Sequence
  std::vector<std::pair<const Node*, const Node*>> entries;  ///< Map, in order

  /// The value of a scalar key, or null when absent (the first one when a key is repeated).
  const Node* find(const std::string& key) const;
};

/// "a mapping", "a list", "the number 3", "the text 'abc'", "nothing" — for "expected X, got Y".
std::string describe(const Node& node);

struct ParseProblem {
  ParseProblem(Position p, std::string m, std::string at = {}) : pos(p), message(std::move(m)), path(std::move(at)) {}
  Position pos;
  std::string message;
  std::string path;  ///< YAML path of the node concerned ("bodies[2].inertial"), when known
};

inline constexpr std::size_t kMaxDocumentBytes = 64u * 1024u * 1024u;
inline constexpr int kMaxNestingDepth = 64;

/// Parses one YAML document (a text of a MiB or more on a machine with more cores along its
/// largest list, several pieces at once: parseInPieces). Returns the root (null when the text holds no document), which
/// owns every node of the document (the nodes point to each other and live as long as it), and appends every problem
/// found (a syntax error with the parser's position and what it was reading, duplicate keys, a second document,
/// oversized or too deeply nested text, tags other than the standard !!str, !!int, !!float, !!bool, !!null, !!seq and
/// !!map, an encoding YAML does not allow, UTF-16 or UTF-32 that does not decode). UTF-16 and UTF-32 text is read as
/// its characters: positions count lines and characters as in any other text. An empty value ("key:") is placed at its
/// key. Text that is not UTF-8, and control characters, reach the values as they are (the model reader names the value
/// that holds them). When problems are reported the tree may be partial. With `aliases`, also where each alias (*name)
/// is written, by the YAML path it takes in the document ("bodies[1]"): the node itself is the anchor's, shared, never
/// copied (so that aliases cannot multiply the memory a small file needs).
std::shared_ptr<const Node> parseDocument(const std::string& text, std::vector<ParseProblem>& problems,
                                          std::vector<std::pair<std::string, Position>>* aliases = nullptr);

/// parseDocument's path for large texts, alone (for tests): UTF-8 `text` (no byte order mark)
/// cut along its largest top-level block list ("bodies:" and its "- " entries) into `pieces`
/// pieces of about equal size, parsed at once on as many threads, and the lists' entries joined
/// into one tree, positions as in the whole text. Null when the text has no such list, or any
/// piece has a problem of any kind (parseDocument then parses the text whole, so that every
/// message is what the whole text gives).
std::shared_ptr<const Node> parseInPieces(const std::string& text, int pieces);

/// Nesting depth estimate of YAML text without parsing it (block indentation levels, "- "
/// entries on one line, flow brackets). Stops early and reports the position where it first
/// exceeds `limit`. Returns true when the depth stays within the limit.
bool nestingWithin(const std::string& text, int limit, Position& where);

}  // namespace kt::yaml
