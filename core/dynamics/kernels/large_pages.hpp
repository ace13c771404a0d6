// SPDX-License-Identifier: BSD-3-Clause
// Memory for per-body arrays that span megabytes on long chains. A sweep over such an array
// crosses a 4 KB page every few bodies, and under a hypervisor each TLB miss walks two page
// tables; on the 10,000-body chain that was most of what cost per body grew beyond the 1,000-body
// chain's (docs/benchmarks.md, "Per-body cost"). Blocks of 2 MB and more are allocated 2 MB
// aligned, in whole 2 MB units, and marked for transparent huge pages before anything touches them
// (madvise; Debian's default "madvise" mode honours it). A hint to the kernel: it changes no result,
// and where huge pages are off or unknown the memory is ordinary.
#pragma once

#include <cstddef>
#include <vector>

namespace kt {

/// At least `bytes` (aligned to `align`); from 2 MB up, in 2 MB pages where the kernel allows.
void* allocateLargePages(std::size_t bytes, std::size_t align);
/// Frees what allocateLargePages(bytes, align) returned.
void freeLargePages(void* p, std::size_t bytes, std::size_t align) noexcept;

template <class T>
struct LargePageAllocator {
  using value_type = T;
  LargePageAllocator() = default;
  template <class U>
  LargePageAllocator(const LargePageAllocator<U>& /*other*/) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocateLargePages(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { freeLargePages(p, n * sizeof(T), alignof(T)); }
  friend bool operator==(const LargePageAllocator& /*a*/, const LargePageAllocator& /*b*/) { return true; }
};

/// A solver's per-body array where it is large: one element per body, in 2 MB pages from 2 MB up.
template <class T>
using LargeArray = std::vector<T, LargePageAllocator<T>>;

}  // namespace kt
