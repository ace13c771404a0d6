// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/kernels/large_pages.hpp"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace kt {
namespace {

constexpr std::size_t kLargePage = std::size_t{2} << 20;

std::size_t newAlignment(std::size_t align) {
  return align > __STDCPP_DEFAULT_NEW_ALIGNMENT__ ? align : __STDCPP_DEFAULT_NEW_ALIGNMENT__;
}

}  // namespace

void* allocateLargePages(std::size_t bytes, std::size_t align) {
  if (bytes < kLargePage) return ::operator new (bytes, std::align_val_t{newAlignment(align)});
  const std::size_t rounded = (bytes + kLargePage - 1) / kLargePage * kLargePage;
  void* p = std::aligned_alloc(kLargePage, rounded);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(p, rounded, MADV_HUGEPAGE);  // a hint: refused where huge pages are off, and then ignored
#endif
  return p;
}

void freeLargePages(void* p, std::size_t bytes, std::size_t align) noexcept {
  if (bytes < kLargePage) {
    ::operator delete (p, std::align_val_t{newAlignment(align)});
  } else {
    std::free(p);
  }
}

}  // namespace kt
