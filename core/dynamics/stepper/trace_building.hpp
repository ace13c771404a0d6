// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the algorithm stepper's recorders (algorithm_trace.hpp): values under their
// names, numbers as the steps print them, and the passes every algorithm ends with.
#pragma once

#include <string>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/stepper/algorithm_trace.hpp"

namespace kt::stepper {

/// A spatial motion in the axes of `body`: a velocity, or an acceleration.
TracedValue motion(std::string symbol, std::string meaning, const Vec6& m, int body,
                   TracedValue::Quantity quantity = TracedValue::Quantity::Velocity);
/// A spatial force in the axes of `body`: a wrench, or a momentum.
TracedValue force(std::string symbol, std::string meaning, const Vec6& f, int body,
                  TracedValue::Quantity quantity = TracedValue::Quantity::Wrench);
TracedValue matrix(std::string symbol, std::string meaning, const Eigen::MatrixXd& m, int body = -1);
TracedValue coordinates(std::string symbol, std::string meaning, const Eigen::VectorXd& x, int body = -1);

/// %.4g
std::string number(double x);

/// The children of body i, as a step's targets.
std::vector<int> children(const Tree& tree, int i);
/// The parent of body i as a step's targets (none for a root).
std::vector<int> parentOf(const Tree& tree, int i);

/// A step of pass `pass` at body i that hands its result to the children (a base-to-tip pass) or
/// to the parent (tip to base).
TracedStep towardsTips(const Tree& tree, int pass, int i);
TracedStep towardsBase(const Tree& tree, int pass, int i);

/// Joint i's segment of a joint-coordinate vector.
Eigen::VectorXd jointPart(const Tree& tree, const Eigen::VectorXd& x, int i);
/// Joint i's reaction coordinates λ_i.
Eigen::VectorXd reactionPart(const Tree& tree, const Eigen::VectorXd& lambda, int i);

/// The labels of the velocity coordinates ("J12[0]") and the first coordinate of each joint
/// after the first.
void coordinateLabels(const Tree& tree, std::vector<std::string>& labels, std::vector<int>& starts);

/// Appends the pass that turns body accelerations into joint loads, tip to base (RNEA's backward
/// pass, docs/dynamics.md §3), with the loads the algorithm computed: f_i, τ_i, λ_i per body, the
/// wrench ᵖX*_i f_i handed to the parent (by kin's ⁱX_p).
void appendLoadsPass(AlgorithmTrace& trace, const Tree& tree, const Kinematics& kin, std::string passName);

AlgorithmTrace traceAba(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau,
                        ExternalWrenches fext);
AlgorithmTrace traceRnea(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& qdd,
                         ExternalWrenches fext);
AlgorithmTrace traceCrbaCholesky(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau,
                                 ExternalWrenches fext);
AlgorithmTrace tracePoissonSweep(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau,
                                 ExternalWrenches fext);
AlgorithmTrace traceCfa(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                        EliminationOrder order);

}  // namespace kt::stepper
