// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/yaml_events.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <utility>
#include <vector>

namespace kt::yaml {

namespace {

// yaml-cpp's events into the sink, with positions in characters (yaml-cpp's marks count bytes).
class Handler final : public YAML::EventHandler {
 public:
  Handler(EventSink& sink, const std::string& input) : sink_(sink), input_(input) {
    lineStarts_.push_back(0);
    for (std::size_t i = 0; i < input.size(); ++i)
      if (input[i] == '\n') lineStarts_.push_back(i + 1);
  }

  /// A mark as a 0-based line and column in characters. Counted on from the last mark on the same
  /// line (marks mostly move forward): a model written on one line (minified JSON is YAML) stays
  /// linear.
  Position position(const YAML::Mark& mark) const {
    if (mark.is_null() || mark.line < 0 || static_cast<std::size_t>(mark.line) >= lineStarts_.size()) return {};
    const std::size_t to = std::min(input_.size(), static_cast<std::size_t>(std::max(mark.pos, 0)));
    std::size_t from = lineStarts_[static_cast<std::size_t>(mark.line)];
    int column = 0;
    if (mark.line == last_.line && to >= lastByte_ && lastByte_ >= from) {
      from = lastByte_;
      column = last_.column;
    }
    for (std::size_t i = from; i < to; ++i)
      if ((static_cast<unsigned char>(input_[i]) & 0xC0) != 0x80) ++column;
    last_ = {mark.line, column};
    lastByte_ = to;
    return last_;
  }

  void OnDocumentStart(const YAML::Mark& mark) override { sink_.onDocumentStart(position(mark)); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    // written (~, null) or empty ("key:" alone, which yaml-cpp marks at the next token)
    const auto pos = static_cast<std::size_t>(std::max(mark.pos, 0));
    const auto written = [&](const char* word) { return input_.compare(pos, std::strlen(word), word) == 0; };
    const bool empty = !(written("~") || written("null") || written("Null") || written("NULL"));
    sink_.onNull(position(mark), name(anchor), empty);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override { sink_.onAlias(position(mark), name(anchor)); }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    lastScalar_ = mark;
    // "?": a plain scalar; "!": quoted or a block scalar (| or >), so never a number or a bool
    const bool quoted = tag == "!";
    sink_.onScalar(position(mark), tag == "?" || tag == "!" ? std::string() : tag, name(anchor), value, quoted);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    open_.emplace_back(style == YAML::EmitterStyle::Flow ? "a flow sequence" : "a block sequence", position(mark));
    sink_.onSequenceStart(open_.back().second, tag == "?" || tag == "!" ? std::string() : tag, name(anchor));
  }
  void OnSequenceEnd() override {
    if (!open_.empty()) open_.pop_back();
    sink_.onEnd();
  }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    open_.emplace_back(style == YAML::EmitterStyle::Flow ? "a flow mapping" : "a block mapping", position(mark));
    sink_.onMapStart(open_.back().second, tag == "?" || tag == "!" ? std::string() : tag, name(anchor));
  }
  void OnMapEnd() override {
    if (!open_.empty()) open_.pop_back();
    sink_.onEnd();
  }

  /// Where the last scalar's quote is, when it is a quoted one without its closing quote: yaml-cpp
  /// ends such a scalar at the end of the text without a word (YAML has it an error, as libyaml
  /// reports it). Only the last scalar can be one: it runs to the end.
  bool unterminatedQuote(YAML::Mark& at) const {
    if (lastScalar_.is_null() || lastScalar_.pos < 0) return false;
    auto i = static_cast<std::size_t>(lastScalar_.pos);
    const std::size_t n = input_.size();
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    // the mark may be at the node's tag or anchor, which comments and line ends may follow
    while (i < n && (input_[i] == '!' || input_[i] == '&' || input_[i] == '#')) {
      const bool comment = input_[i] == '#';
      while (i < n && (comment ? input_[i] != '\n' : !space(input_[i]))) ++i;
      while (i < n && space(input_[i])) ++i;
    }
    if (i >= n || (input_[i] != '"' && input_[i] != '\'')) return false;
    // where the quote is: the mark's line, and the line ends passed since
    at = lastScalar_;
    at.line += static_cast<int>(
        std::count(input_.begin() + lastScalar_.pos, input_.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
    at.pos = static_cast<int>(i);
    const char quote = input_[i];
    for (++i; i < n; ++i) {
      if (quote == '"' && input_[i] == '\\') {
        ++i;
      } else if (input_[i] == quote) {
        if (quote == '\'' && i + 1 < n && input_[i + 1] == '\'') {
          ++i;  // '' is a quote in a single-quoted scalar
          continue;
        }
        return false;
      }
    }
    return true;
  }

  /// "YAML syntax error: did not find expected ',' or ']', while parsing a flow sequence that
  /// starts at line 3, column 10": yaml-cpp's message in the words YAML's reference parser uses
  /// where it has them, with the collection it was reading.
  std::string syntaxMessage(const std::string& what) const {
    static const std::pair<const char*, const char*> kWords[] = {
        {YAML::ErrorMsg::END_OF_SEQ_FLOW, "did not find expected ',' or ']'"},
        {YAML::ErrorMsg::END_OF_MAP_FLOW, "did not find expected ',' or '}'"},
        {YAML::ErrorMsg::END_OF_SEQ, "did not find expected '-' indicator"},
        {YAML::ErrorMsg::END_OF_MAP, "did not find expected key"},
        {YAML::ErrorMsg::TAB_IN_INDENTATION, "found a tab character that violates indentation"},
        {YAML::ErrorMsg::FLOW_END, "found ']' or '}' that closes no list or mapping"},
        {YAML::ErrorMsg::MAP_VALUE, "mapping values are not allowed in this context"},
        {YAML::ErrorMsg::MAP_KEY, "mapping keys are not allowed in this context"},
        {YAML::ErrorMsg::BLOCK_ENTRY, "block sequence entries are not allowed in this context"},
        {YAML::ErrorMsg::EOF_IN_SCALAR, "found unexpected end of stream in a quoted scalar"},
        {YAML::ErrorMsg::DOC_IN_SCALAR, "found unexpected document indicator in a scalar"},
        {YAML::ErrorMsg::UNKNOWN_ANCHOR, "alias refers to an anchor that is not defined"},
    };
    std::string message = "YAML syntax error: ";
    const char* words = nullptr;
    for (const auto& [from, to] : kWords)
      if (what == from) words = to;
    message += words ? words : what;
    if (!open_.empty())
      message += ", while parsing " + open_.back().first + " that starts at line " +
                 std::to_string(open_.back().second.line + 1) + ", column " +
                 std::to_string(open_.back().second.column + 1);
    return message;
  }

 private:
  // the Builder keys anchors by name; yaml-cpp numbers them (0: none)
  static std::string name(YAML::anchor_t anchor) {
    return anchor == YAML::NullAnchor ? std::string() : std::to_string(anchor);
  }

  EventSink& sink_;
  const std::string& input_;
  std::vector<std::size_t> lineStarts_;
  std::vector<std::pair<std::string, Position>> open_;  ///< the collections being read, innermost last
  mutable Position last_{-1, 0};                        ///< the last mark's position, and its byte offset:
  mutable std::size_t lastByte_ = 0;
  YAML::Mark lastScalar_ = YAML::Mark::null_mark();  ///< where the last scalar starts
};

// Reads no further than the start of a second document.
class SecondDocument final : public YAML::EventHandler {
 public:
  struct Found {
    Position pos;
  };
  explicit SecondDocument(const Handler& handler) : handler_(handler) {}
  void OnDocumentStart(const YAML::Mark& mark) override { throw Found{handler_.position(mark)}; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  const Handler& handler_;
};

}  // namespace

EventsResult parseEvents(const std::string& input, EventSink& sink) {
  EventsResult result;
  Handler handler(sink, input);
  std::istringstream stream(input);
  YAML::Parser parser(stream);
  try {
    if (!parser.HandleNextDocument(handler)) return result;
    if (YAML::Mark at; handler.unterminatedQuote(at)) {
      result.error =
          "YAML syntax error: found unexpected end of stream in a quoted scalar (its closing quote is missing)";
      result.errorPos = handler.position(at);
      return result;
    }
    // a second document: where it starts, and not read
    SecondDocument second(handler);
    try {
      parser.HandleNextDocument(second);
    } catch (const SecondDocument::Found& found) {
      result.secondDocument = true;
      result.secondStart = found.pos;
    } catch (const YAML::Exception& e) {
      result.secondDocument = true;
      result.secondStart = handler.position(e.mark);
    }
  } catch (const YAML::Exception& e) {
    result.error = handler.syntaxMessage(e.msg);
    result.errorPos = handler.position(e.mark);
  }
  return result;
}

}  // namespace kt::yaml
