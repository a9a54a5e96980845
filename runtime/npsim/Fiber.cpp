//===- Fiber.cpp - the stacks npsim's contexts run on ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The first entry into a stack goes through makecontext/setcontext; every
// later switch is a _setjmp/_longjmp pair, which saves no signal mask and so
// makes no system call (as libnprt's executor switches).
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Fiber.h"

#include <cstdint>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPSIM_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define NPSIM_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(NPSIM_ASAN)
#define NPSIM_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(NPSIM_TSAN)
#define NPSIM_TSAN 1
#endif
#ifdef NPSIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef NPSIM_TSAN
#include <sanitizer/tsan_interface.h>
#endif

using namespace npcc::npsim;

StackRef &npcc::npsim::hostStack() {
  static thread_local StackRef host;
#ifdef NPSIM_TSAN
  if (!host.tsan)
    host.tsan = __tsan_get_current_fiber();
#endif
  return host;
}

FiberStack::~FiberStack() {
#ifdef NPSIM_ASAN
  // Frames abandoned on the stack leave poisoned shadow behind.
  if (map)
    __asan_unpoison_memory_region(map, mapBytes);
#endif
  if (map)
    munmap(map, mapBytes);
#ifdef NPSIM_TSAN
  if (stack.tsan)
    __tsan_destroy_fiber(stack.tsan);
#endif
  delete static_cast<ucontext_t *>(firstEntry);
}

bool FiberStack::make(size_t bytes, void (*e)(void *), void *a) {
  long page = sysconf(_SC_PAGESIZE);
  mapBytes = bytes + size_t(page);
  map = mmap(nullptr, mapBytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (map == MAP_FAILED) {
    map = nullptr;
    return false;
  }
  if (mprotect(map, size_t(page), PROT_NONE) != 0)
    return false;
  entry = e;
  arg = a;
  stack.base = static_cast<char *>(map) + page;
  stack.size = bytes;
  auto *uc = new ucontext_t();
  firstEntry = uc;
  if (getcontext(uc) != 0)
    return false;
  uc->uc_stack.ss_sp = stack.base;
  uc->uc_stack.ss_size = bytes;
  uc->uc_link = nullptr;
  uintptr_t self = reinterpret_cast<uintptr_t>(this);
  makecontext(uc, reinterpret_cast<void (*)()>(&FiberStack::trampoline), 2,
              unsigned(self & 0xffffffffu), unsigned(self >> 32));
#ifdef NPSIM_TSAN
  stack.tsan = __tsan_create_fiber(0);
#endif
  return true;
}

void FiberStack::trampoline(unsigned lo, unsigned hi) {
  auto *self = reinterpret_cast<FiberStack *>((uintptr_t(hi) << 32) | lo);
#ifdef NPSIM_ASAN
  StackRef &host = hostStack();
  const void *from = nullptr;
  size_t fromSize = 0;
  __sanitizer_finish_switch_fiber(nullptr, &from, &fromSize);
  if (!host.base) {
    host.base = const_cast<void *>(from);
    host.size = fromSize;
  }
#endif
  self->entry(self->arg);
  __builtin_trap(); // an entry never returns: it switches away for good
}

void FiberStack::start(FiberPoint &from) {
#ifdef NPSIM_ASAN
  __sanitizer_start_switch_fiber(&from.fake, stack.base, stack.size);
#endif
  if (_setjmp(from.jb) == 0) {
#ifdef NPSIM_TSAN
    __tsan_switch_to_fiber(stack.tsan, 0);
#endif
    setcontext(static_cast<ucontext_t *>(firstEntry));
  }
#ifdef NPSIM_ASAN
  __sanitizer_finish_switch_fiber(from.fake, nullptr, nullptr);
#endif
}

void npcc::npsim::switchTo(FiberPoint &from, FiberPoint &to) {
#ifdef NPSIM_ASAN
  __sanitizer_start_switch_fiber(&from.fake, to.stack.base, to.stack.size);
#endif
  if (_setjmp(from.jb) == 0) {
#ifdef NPSIM_TSAN
    __tsan_switch_to_fiber(to.stack.tsan, 0);
#endif
    _longjmp(to.jb, 1);
  }
#ifdef NPSIM_ASAN
  __sanitizer_finish_switch_fiber(from.fake, nullptr, nullptr);
#endif
}
