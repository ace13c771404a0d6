// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shared/number_text.hpp"

#include <QLocale>
#include <cmath>

namespace kt::ui {

QString groupedNumber(long long n) {
  // English grouping whatever the system locale: the application's texts are English
  static const QLocale english(QLocale::English, QLocale::UnitedStates);
  return english.toString(n);
}

QString countText(long long n, const QString& singular, const QString& plural) {
  return groupedNumber(n) + QLatin1Char(' ') + (n == 1 ? singular : plural);
}

QString fourDigits(double x) { return QString::number(x, 'g', 4); }

QString durationText(double seconds) {
  if (!std::isfinite(seconds)) return QStringLiteral("–");
  struct Unit {
    double scale;
    const char* name;
  };
  static constexpr Unit units[] = {{1e-9, "ns"}, {1e-6, "µs"}, {1e-3, "ms"}, {1.0, "s"}};
  const double magnitude = std::abs(seconds);
  std::size_t u = 0;
  // the largest unit that keeps the rounded figure at 1 or more (999.95 µs is "1.00 ms")
  while (u + 1 < std::size(units) && magnitude >= 0.9995 * units[u + 1].scale) ++u;
  const double value = seconds / units[u].scale;
  const double rounded = std::abs(value);
  const int decimals = rounded >= 99.95 ? 0 : rounded >= 9.995 ? 1 : 2;
  return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(units[u].name);
}

}  // namespace kt::ui
