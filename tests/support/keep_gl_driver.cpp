// SPDX-License-Identifier: BSD-3-Clause
// AddressSanitizer builds only. At exit, libGL unloads Mesa's software driver (swrast_dri.so)
// before LeakSanitizer looks for leaks; the driver's globals, which still point to its own
// allocations, are then unmapped, and those blocks are reported as leaks from "<unknown module>"
// that no suppression can name. Keeping the driver resident (RTLD_NODELETE) leaves its globals
// visible, so nothing of Mesa's is reported and a leak of ours is still found.
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>

#include <initializer_list>

namespace {

struct KeepGlDriverLoaded {
  KeepGlDriverLoaded() {
    for (const char* path :
         {"/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so", "/usr/lib/aarch64-linux-gnu/dri/swrast_dri.so",
          "/usr/lib64/dri/swrast_dri.so", "/usr/lib/dri/swrast_dri.so"}) {
      if (dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE) != nullptr) return;
    }
  }
};
const KeepGlDriverLoaded keepGlDriverLoaded;

}  // namespace
#endif
