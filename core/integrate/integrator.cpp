// SPDX-License-Identifier: BSD-3-Clause
// The one table of integrators, shared by the settings check (core/sim), GUI, CLI and tests.
#include <stdexcept>

#include "core/integrate/integrator.hpp"

namespace kt {
namespace {

struct IntegratorEntry {
  const char* name;
  const char* description;
  std::unique_ptr<Integrator> (*make)();
};

constexpr IntegratorEntry kIntegrators[] = {
    {"euler", "Explicit Euler, fixed step (first order)", &makeEulerIntegrator},
    {"rk4", "Classical Runge-Kutta, fixed step (fourth order)", &makeRk4Integrator},
    {"dopri5", "Dormand-Prince 5(4), adaptive step, dense output at the output times", &makeDopri5Integrator},
};

}  // namespace

const std::vector<std::string>& integratorNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const IntegratorEntry& e : kIntegrators) out.emplace_back(e.name);
    return out;
  }();
  return names;
}

bool isIntegratorName(std::string_view name) {
  for (const std::string& n : integratorNames())
    if (name == n) return true;
  return false;
}

std::string_view integratorDescription(std::string_view name) {
  for (const IntegratorEntry& e : kIntegrators)
    if (name == e.name) return e.description;
  return {};
}

std::unique_ptr<Integrator> makeIntegrator(std::string_view name) {
  for (const IntegratorEntry& e : kIntegrators)
    if (name == e.name) return e.make();
  std::string known;
  for (const IntegratorEntry& e : kIntegrators) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw std::invalid_argument("unknown integrator '" + std::string(name) + "' (expected one of: " + known + ")");
}

}  // namespace kt
