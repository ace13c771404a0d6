// SPDX-License-Identifier: BSD-3-Clause
// Small text helpers shared by the model validator, the YAML reader/writer, the simulator, the
// CSV writer and the CLI: number formatting (two ways, one function each), "did you mean"
// suggestions and UTF-8 checks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kt {

/// Shortest text that reads back to exactly the same double (std::to_chars), locale-independent.
/// Non-finite values are written as YAML spells them: .nan, .inf, -.inf.
std::string formatRoundTrip(double x);

/// "[a, b, c]" with formatRoundTrip for each element.
std::string formatRoundTripList(const double* x, int n);
std::string formatRoundTripList(const std::vector<double>& x);

/// x with `digits` significant digits, as printf("%.*g", digits, x) writes it in the "C" locale,
/// whatever the process locale ("nan", "inf", "-inf" for non-finite values).
std::string formatSignificant(double x, int digits);
/// The same, appended to `out` (no allocation once `out` has room).
void appendSignificant(std::string& out, double x, int digits);

/// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
int editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `word` by edit distance when it is close enough to be a likely typo
/// (distance ≤ max(2, |word|/3)), else an empty string.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

/// Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong forms,
/// no surrogates, nothing above U+10FFFF), or npos.
std::size_t invalidUtf8At(std::string_view s);
/// `s` with each byte that is not part of well-formed UTF-8 replaced by U+FFFD.
std::string replaceInvalidUtf8(std::string_view s);

/// "a, b, c" for messages.
std::string joinNames(const std::vector<std::string>& names);

}  // namespace kt
