// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/text_util.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kt {

std::string formatRoundTrip(double x) {
  if (std::isnan(x)) return ".nan";
  if (std::isinf(x)) return x > 0 ? ".inf" : "-.inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return {buf, res.ptr};
}

std::string formatRoundTripList(const double* x, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += formatRoundTrip(x[i]);
  }
  return s + "]";
}

std::string formatRoundTripList(const std::vector<double>& x) {
  return formatRoundTripList(x.data(), static_cast<int>(x.size()));
}

void appendSignificant(std::string& out, double x, int digits) {
  char buf[64];
  // std::to_chars with a precision behaves as printf("%.*g") in the "C" locale
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, digits);
  out.append(buf, r.ptr);
}

std::string formatSignificant(double x, int digits) {
  std::string s;
  appendSignificant(s, x, digits);
  return s;
}

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

std::size_t invalidUtf8At(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the first continuation byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + static_cast<std::size_t>(extra) >= s.size()) return i;
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
    }
    i += static_cast<std::size_t>(extra) + 1;
  }
  return std::string_view::npos;
}

std::string replaceInvalidUtf8(std::string_view s) {
  std::string out;
  for (std::size_t bad = invalidUtf8At(s); bad != std::string_view::npos; bad = invalidUtf8At(s)) {
    out.append(s.substr(0, bad));
    out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
    s.remove_prefix(bad + 1);
  }
  out.append(s);
  return out;
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
