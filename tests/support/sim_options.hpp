// SPDX-License-Identifier: BSD-3-Clause
// Simulator options used across the simulation tests.
#pragma once

#include <string>

#include "core/sim/simulator.hpp"

namespace kt::test {

/// DOPRI5 at relative tolerance `tol`, output every `interval` seconds, with `solver`.
inline SimulatorOptions dopri(double tol, double interval, const std::string& solver = "aba") {
  SimulatorOptions o;
  o.solver = solver;
  o.integrator = "dopri5";
  o.step = interval;
  o.tolerance = tol;
  return o;
}

}  // namespace kt::test
