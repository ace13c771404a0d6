// SPDX-License-Identifier: BSD-3-Clause
// The engine's text (UTF-8 std::string) as Qt text, for the widgets that show names and messages.
#pragma once

#include <QString>
#include <string>
#include <string_view>

namespace kt::ui {

/// UTF-8 text as a QString.
inline QString q(const std::string& s) { return QString::fromStdString(s); }
inline QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
inline QString q(const char* s) { return QString::fromUtf8(s); }

}  // namespace kt::ui
