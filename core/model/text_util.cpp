#include "core/model/text_util.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kt {

std::string formatNumber(double x) {
  if (std::isnan(x)) return ".nan";
  if (std::isinf(x)) return x > 0 ? ".inf" : "-.inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

std::string formatNumbers(const double* x, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += formatNumber(x[i]);
  }
  return s + "]";
}

std::string formatNumbers(const std::vector<double>& x) { return formatNumbers(x.data(), static_cast<int>(x.size())); }

int editDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.size() > 200) return {};
  std::string best;
  int bestDistance = 1 << 30;
  const int limit = std::max(2, static_cast<int>(word.size()) / 3);
  for (const std::string& c : candidates) {
    // The distance is at least the difference in length: skip what cannot be close enough.
    const int lengthGap = std::abs(static_cast<int>(c.size()) - static_cast<int>(word.size()));
    if (lengthGap > limit || lengthGap >= bestDistance) continue;
    const int d = editDistance(word, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return bestDistance <= limit ? best : std::string();
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) s += ", ";
    s += names[i];
  }
  return s;
}

}  // namespace kt
