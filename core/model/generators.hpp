// SPDX-License-Identifier: BSD-3-Clause
// Parametric models for tests and benchmarks: chains, cardan chains, binary trees and seeded
// random trees with every joint type. They return ordinary Models (valid by construction).
#pragma once

#include <cstdint>

#include "core/model/model.hpp"

namespace kt {

/// A serial chain of n links hanging from the world, joints of one type (revolute about y by
/// default), link length 0.3 m, links placed along −z.
Model makeChain(int n, JointType type = JointType::Revolute);

/// Ivanov's test system: n bodies linked by 2-DoF cardan (universal) joints with perpendicular
/// axes (x then y), the first hinged to the world.
Model makeCardanChain(int n);

/// A complete binary tree of revolute joints with the given depth (2^depth − 1 bodies) on a fixed base.
Model makeBinaryTree(int depth);

struct RandomTreeOptions {
  int minBodies = 1;
  int maxBodies = 60;
  int maxChildren = 4;  ///< children per body
  double floatingBaseProbability = 0.5;
  double chainBias = 0.5;     ///< probability that a new body extends the most recent one (long chains)
  bool allJointTypes = true;  ///< otherwise revolute only
  bool gravity = true;
  double coordinateAxes = 0.0;   ///< fraction of joints whose axis is x, y or z (the solvers' special cases)
  double plainPlacements = 0.0;  ///< fraction of joint placements without rotation (rpy = 0: the RNEA's special case)
  /// fraction of joints (of every type but a floating root's) made gimbal joints, drawn from a stream
  /// of their own: every other draw, and so every other joint, stays as the seed gives it without
  double gimbals = 0.0;
  /// fraction of universal and gimbal joints whose second (and third) axes pass through points
  /// off the joint origin (JointModel::offset), up to 0.15 m in each coordinate, from a stream of
  /// their own likewise
  double offsetAxes = 0.0;
};

/// A seeded random tree: every joint type (the first root free or not; gimbals as the options ask), random placements,
/// axes, masses (0.5–2 kg) and inertias satisfying the triangle inequality, random q0 and v0.
/// The same seed gives the same model on every platform (own PRNG, no <random> distributions).
Model makeRandomTree(std::uint64_t seed, const RandomTreeOptions& options = {});

/// Small deterministic PRNG (SplitMix64) for reproducible test data.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform(double lo = 0.0, double hi = 1.0);  ///< [lo, hi)
  int uniformInt(int lo, int hi);                    ///< [lo, hi]
  Vec3 unitVector();

 private:
  std::uint64_t state_;
};

}  // namespace kt
