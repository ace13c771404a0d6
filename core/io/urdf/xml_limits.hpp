// SPDX-License-Identifier: BSD-3-Clause
// Limits on XML text, checked in one linear pass before an XML parser sees it (docs/urdf.md,
// "Limits"). TinyXML, the parser under liburdfdom, recurses once per level of nesting (60,000
// levels overflow the stack), takes time quadratic in the depth (30,000 levels: over a minute)
// and in the attributes of one element (100,000: over 30 s). A robot description nests fewer than
// ten levels and gives an element a handful of attributes, so the limits below refuse only files
// that are not robots, with a message at the place. The same pass reports what TinyXML would
// accept quietly or misreport: an attribute value without quotes, a DOCTYPE with declarations,
// a second root element.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kt {

/// Deepest nesting of elements accepted (the root element is level 1).
inline constexpr int kMaxXmlDepth = 100;
/// Most attributes accepted on one element.
inline constexpr int kMaxXmlAttributes = 100;

/// A problem found by checkXmlText: 1-based line and column (columns count characters, a tab
/// is one), and what is wrong with what is expected.
struct XmlTextProblem {
  int line = 0;
  int column = 0;
  std::string message;
};

/// Scans XML text once (comments, CDATA sections, processing instructions and declarations are
/// skipped, quoted attribute values may hold '<' and '>') and returns the first of: an element
/// nested deeper than kMaxXmlDepth, an element with more than kMaxXmlAttributes attributes, an
/// attribute value that is not in quotes, a <!DOCTYPE> with an internal subset ([ … ]), a
/// second root element. Malformed text it cannot follow is left to the parser, which reports it:
/// the scan then stops without a problem.
std::optional<XmlTextProblem> checkXmlText(std::string_view text);

}  // namespace kt
