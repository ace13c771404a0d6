// SPDX-License-Identifier: BSD-3-Clause
// The pre-parse check of XML text (core/io/urdf/xml_limits.hpp). One forward pass with a cursor that
// keeps the line and column; every skip moves the cursor over bytes it has not passed, so the
// whole check is linear in the text.
#include "core/io/urdf/xml_limits.hpp"

namespace kt {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Cursor {
 public:
  explicit Cursor(std::string_view text) : s_(text) {}

  bool atEnd() const { return i_ >= s_.size(); }
  char peek() const { return atEnd() ? '\0' : s_[i_]; }
  bool startsWith(std::string_view prefix) const { return s_.substr(i_).starts_with(prefix); }
  // How far ahead `what` starts; npos when it does not.
  std::size_t distanceTo(std::string_view what) const {
    const std::size_t at = s_.find(what, i_);
    return at == std::string_view::npos ? at : at - i_;
  }

  void advance(std::size_t n) {
    for (; n > 0 && i_ < s_.size(); --n, ++i_) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '\n')
        ++line_, column_ = 1;
      else if ((c & 0xC0) != 0x80)  // not a UTF-8 continuation byte: one character more
        ++column_;
    }
  }
  // Moves just past the next `end`; false (at the end of the text) when there is none.
  bool skipPast(std::string_view end) {
    const std::size_t at = s_.find(end, i_);
    if (at == std::string_view::npos) {
      advance(s_.size() - i_);
      return false;
    }
    advance(at + end.size() - i_);
    return true;
  }
  void skipSpace() {
    while (!atEnd() && isSpace(peek())) advance(1);
  }
  // Characters up to white space or one of `stops`.
  std::string_view word(std::string_view stops) {
    const std::size_t start = i_;
    while (!atEnd() && !isSpace(peek()) && stops.find(peek()) == std::string_view::npos) advance(1);
    return s_.substr(start, i_ - start);
  }

  // A problem at the cursor's place now.
  XmlTextProblem problem(std::string message) const { return {line_, column_, std::move(message)}; }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1, column_ = 1;
};

// At "<!DOCTYPE": past its closing '>', or a problem when it has an internal subset, or a '>'
// in its quoted identifiers: TinyXML reads a DOCTYPE as text up to its first '>', so that either
// leaves the rest of it to be read as the document, which then has no element.
std::optional<XmlTextProblem> skipDoctype(Cursor& c, bool& lost) {
  const XmlTextProblem at = c.problem(std::string());
  const auto refuse = [&](const std::string& why) {
    return XmlTextProblem{at.line, at.column,
                          "a <!DOCTYPE> " + why +
                              " is not supported: URDF uses no DTD, and the XML reader reads a DOCTYPE only up to "
                              "its first '>'; remove the DOCTYPE"};
  };
  c.advance(9);
  while (!c.atEnd()) {
    const char ch = c.peek();
    if (ch == '>') {
      c.advance(1);
      return std::nullopt;
    }
    if (ch == '[') return refuse("with declarations in [ ... ]");
    if (ch == '"' || ch == '\'') {
      c.advance(1);
      const std::string_view quote(&ch, 1);
      if (c.distanceTo(">") < c.distanceTo(quote)) return refuse("with a '>' in quotes");
      if (!c.skipPast(quote)) break;
      continue;
    }
    c.advance(1);
  }
  lost = true;
  return std::nullopt;
}

}  // namespace

std::optional<XmlTextProblem> checkXmlText(std::string_view text) {
  Cursor c(text);
  int depth = 0;
  bool rootSeen = false;
  std::string rootName;
  int rootLine = 0;
  while (!c.atEnd()) {
    if (c.peek() != '<') {
      c.advance(1);
      continue;
    }
    bool lost = false;
    if (c.startsWith("<!--")) {
      lost = !c.skipPast("-->");
    } else if (c.startsWith("<![CDATA[")) {
      lost = !c.skipPast("]]>");
    } else if (c.startsWith("<?")) {
      // TinyXML ends an instruction other than <?xml ...?> at its first '>', even in quotes
      if (const std::size_t end = c.distanceTo("?>"); end != std::string_view::npos && c.distanceTo(">") < end + 1)
        return c.problem(
            "a '>' inside a processing instruction <?...?> before its \"?>\": the XML reader would end it there; "
            "remove the '>' (or the instruction)");
      lost = !c.skipPast("?>");
    } else if (c.startsWith("<!DOCTYPE")) {
      if (auto p = skipDoctype(c, lost)) return p;
    } else if (c.startsWith("<!")) {
      lost = !c.skipPast(">");
    } else if (c.startsWith("</")) {
      depth = depth > 0 ? depth - 1 : 0;
      lost = !c.skipPast(">");
    } else {
      // a start tag: its name, then attributes up to '>' or "/>"
      XmlTextProblem tagAt = c.problem(std::string());  // its place; the message once there is one
      c.advance(1);
      const std::string name(c.word("/>"));
      if (name.empty()) return std::nullopt;  // not a tag the parser accepts either: it says so
      const std::string tag = "<" + name + ">";
      if (depth == 0) {
        if (rootSeen) {
          tagAt.message = "a second root element " + tag + " after <" + rootName + "> (line " +
                          std::to_string(rootLine) +
                          "); an XML file holds one root element: a URDF file holds one <robot>";
          return tagAt;
        }
        rootSeen = true, rootName = name, rootLine = tagAt.line;
      }
      int attributes = 0;
      for (;;) {
        c.skipSpace();
        if (c.atEnd()) return std::nullopt;
        if (c.startsWith("/>")) {
          c.advance(2);
          break;
        }
        if (c.peek() == '>') {
          c.advance(1);
          if (++depth > kMaxXmlDepth) {
            tagAt.message = tag + " is nested " + std::to_string(depth) + " elements deep; at most " +
                            std::to_string(kMaxXmlDepth) +
                            " levels are read (a robot description nests fewer than ten)";
            return tagAt;
          }
          break;
        }
        XmlTextProblem attributeAt = c.problem(std::string());
        const std::string attribute(c.word("=/>"));
        if (attribute.empty()) return std::nullopt;
        if (++attributes > kMaxXmlAttributes) {
          tagAt.message = tag + " has more than " + std::to_string(kMaxXmlAttributes) + " attributes; at most " +
                          std::to_string(kMaxXmlAttributes) +
                          " are read on one element (a robot description gives it a handful)";
          return tagAt;
        }
        c.skipSpace();
        if (c.peek() != '=') return std::nullopt;
        c.advance(1);
        c.skipSpace();
        const char quote = c.peek();
        if (quote != '"' && quote != '\'') {
          attributeAt.message = "the value of attribute '" + attribute + "' of " + tag + " is not in quotes; write " +
                                attribute + "=\"...\"";
          return attributeAt;
        }
        c.advance(1);
        if (!c.skipPast(std::string_view(&quote, 1))) return std::nullopt;
      }
    }
    if (lost) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace kt
