// SPDX-License-Identifier: BSD-3-Clause
// The YAML parser, yaml-cpp, behind the model reader's own events (yaml_tree builds its tree from
// them). Kept apart so that yaml-cpp's names stay out of the reader: only this file sees them.
#pragma once

#include <string>

namespace kt::yaml {

/// 0-based position (line, and column in characters).
struct Position {
  int line = 0;
  int column = 0;
};

/// What the parser reads, in document order. Tags are as resolved ("tag:yaml.org,2002:str",
/// "!ros"; empty when none is written); anchors are the parser's names for them (empty: none).
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void onDocumentStart(Position pos) = 0;
  /// `empty`: nothing written ("key:" alone), rather than ~ or null.
  virtual void onNull(Position pos, const std::string& anchor, bool empty) = 0;
  virtual void onAlias(Position pos, const std::string& anchor) = 0;
  /// `quoted`: written in quotes or as a block scalar (| or >), so never a number or a bool.
  virtual void onScalar(Position pos, const std::string& tag, const std::string& anchor, std::string value,
                        bool quoted) = 0;
  virtual void onSequenceStart(Position pos, const std::string& tag, const std::string& anchor) = 0;
  virtual void onMapStart(Position pos, const std::string& tag, const std::string& anchor) = 0;
  /// The innermost sequence or mapping ends.
  virtual void onEnd() = 0;
};

struct EventsResult {
  /// A syntax error (empty when none): "YAML syntax error: …, while parsing a flow sequence that
  /// starts at line 3, column 10", and where.
  std::string error;
  Position errorPos;
  bool secondDocument = false;  ///< the text holds a second document (not read), starting at:
  Position secondStart;
};

/// Parses the first document of UTF-8 `input` (no byte order mark) into `sink`.
EventsResult parseEvents(const std::string& input, EventSink& sink);

}  // namespace kt::yaml
