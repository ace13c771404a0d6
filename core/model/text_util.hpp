// Small text helpers shared by the model validator, the YAML reader/writer and the CLI:
// shortest round-trip number formatting and "did you mean" suggestions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kt {

/// Shortest text that reads back to exactly the same double (std::to_chars), locale-independent.
/// Non-finite values are written as YAML spells them: .nan, .inf, -.inf.
std::string formatNumber(double x);

/// "[a, b, c]" with formatNumber for each element.
std::string formatNumbers(const double* x, int n);
std::string formatNumbers(const std::vector<double>& x);

/// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
int editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `word` by edit distance when it is close enough to be a likely typo
/// (distance ≤ max(2, |word|/3)), else an empty string.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

/// "a, b, c" for messages.
std::string joinNames(const std::vector<std::string>& names);

}  // namespace kt
