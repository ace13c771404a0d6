// SPDX-License-Identifier: BSD-3-Clause
// The Constraint Force Algorithm in its plainest form, as a lecturer would write it (docs/dynamics.md
// §5): Featherstone & Fijany (1999, §4)'s body-by-body elimination of Liu, Hu & Zhang (2016)'s
// system A λ = b (eqs. 25–37), in body coordinates, with explicit T_i and D_i and 6 × 6 matrices.
// It allocates and is slow; the tuned cfa-tree (core/dynamics/cfa/cfa_tree.cpp) is tested against it.
//
// Two forms of the right-hand side, one elimination (cfaReferenceSolve, in cfa_reference.cpp,
// marks each difference):
//
//   at rest (cfaReference)       the papers' form: the bias forces h = ID(q, ν, 0) move into
//                                τ' = τ − h (Liu et al. eq. 22), and the system is solved with no
//                                velocity and no gravity; the joint loads add back f^bias
//   per body (cfaReferencePerBodyBias)
//                                what cfa-tree computes (cfa_tree.hpp, "Bias terms per body"):
//                                each body's bias stays in its own equation, I_i a_i + p_i =
//                                f_i − Σ_c ᶜX_iᵀ f_c with p_i = v_i ×* I_i v_i − f^ext_i,
//                                a_i = ⁱX_p a_p + S_i q̈_i + c_i and the world's acceleration −g
//
// On long chains the per-body form keeps digits the form at rest loses (test_accuracy,
// cfaDigitsFollowItsOwnConditioning); on the random trees of test_cfa the two agree within the
// accuracy contract.
#pragma once

#include "core/dynamics/solver.hpp"

namespace kt::test {

enum class CfaBias {
  AtRest,   ///< τ' = τ − h, the system at rest
  PerBody,  ///< p_i and c_i in each body's own equation
};

/// q̈ and the joint loads of the tree at (q, ν, τ), no applied wrenches beyond the tree's own, with
/// the right-hand side in the given form.
void cfaReferenceSolve(const Tree& t, const VectorX& q, const VectorX& v, const VectorX& tau, CfaBias form,
                       VectorX& qdd, JointLoads& loads);

/// The papers' form, on the system at rest.
inline void cfaReference(const Tree& t, const VectorX& q, const VectorX& v, const VectorX& tau, VectorX& qdd,
                         JointLoads& loads) {
  cfaReferenceSolve(t, q, v, tau, CfaBias::AtRest, qdd, loads);
}

/// The per-body form cfa-tree computes (without its refinement of q̈ under light bodies carrying
/// heavy ones).
inline void cfaReferencePerBodyBias(const Tree& t, const VectorX& q, const VectorX& v, const VectorX& tau, VectorX& qdd,
                                    JointLoads& loads) {
  cfaReferenceSolve(t, q, v, tau, CfaBias::PerBody, qdd, loads);
}

}  // namespace kt::test
