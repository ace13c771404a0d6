// SPDX-License-Identifier: BSD-3-Clause
// Replaces the global operator new/delete with counting versions, so that a test can check that
// a hot path (a solver call, an integrator step) allocates nothing. Include it in exactly one
// translation unit of a test executable: the definitions below are the program's replacements.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace kt::test {
inline std::atomic<long> gAllocations{0};
}  // namespace kt::test

void* operator new(std::size_t n) {
  ++kt::test::gAllocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
