// SPDX-License-Identifier: BSD-3-Clause
// Software prefetch for sweeps over per-body records: a sweep asks for the cache lines of the body
// a few steps ahead where it walks more arrays at once than the hardware prefetchers follow
// (cfa-tree; docs/benchmarks.md, "Per-body cost"). A hint to the processor: it changes no result.
#pragma once

#include <cstddef>

namespace kt {

/// Asks for the cache lines of [p, p + bytes).
inline void prefetchBytes(const void* p, std::ptrdiff_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (std::ptrdiff_t off = 0; off < bytes; off += 64) __builtin_prefetch(c + off);
}

/// Asks for the cache lines of the whole object at `p`.
template <class T>
void prefetchObject(const T* p) {
  prefetchBytes(p, sizeof(T));
}

/// Asks for the members of `record` from `first` up to, not including, `end` (members in
/// declaration order).
template <class T, class First, class End>
void prefetchMembers(const T& record, const First& first, const End& end) {
  const auto* base = reinterpret_cast<const char*>(&record);
  const std::ptrdiff_t from = reinterpret_cast<const char*>(&first) - base;
  prefetchBytes(&first, reinterpret_cast<const char*>(&end) - base - from);
}

}  // namespace kt
