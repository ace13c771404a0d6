// SPDX-License-Identifier: BSD-3-Clause
// How long a message stays in the status bar.
#pragma once

namespace kt::ui {

/// Milliseconds a status-bar message stays: long enough to read a sentence twice.
inline constexpr int kStatusMessageMs = 10'000;

}  // namespace kt::ui
