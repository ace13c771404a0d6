// Small helpers shared by the kinetree-cli commands.
#pragma once

#include <string>
#include <vector>

namespace kt::cli {

/// "a,b,,c" → {"a", "b", "c"} (empty items dropped).
std::vector<std::string> splitList(const std::string& s);

}  // namespace kt::cli
