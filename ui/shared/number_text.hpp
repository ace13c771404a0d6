// SPDX-License-Identifier: BSD-3-Clause
// Figures in messages and status texts as people write them: counts with thousands separators
// and the right plural, durations in the unit that suits them.
#pragma once

#include <QString>

namespace kt::ui {

/// "12,500": a whole number with thousands separators.
QString groupedNumber(long long n);

/// "1 body", "2 bodies", "12,500 bodies": the count with thousands separators and the singular
/// form for exactly one.
QString countText(long long n, const QString& singular, const QString& plural);

/// A value with four significant digits, as the teaching docks print matrix entries and traced
/// values: 0.123456 → "0.1235", 1234567 → "1.235e+06".
QString fourDigits(double x);

/// A duration with three significant digits in ns, µs, ms or s, whichever keeps the figure between
/// 1 and 1000: 15853858e-9 → "15.9 ms", 8.4e-7 → "840 ns".
QString durationText(double seconds);

}  // namespace kt::ui
