//===- Fiber.h - the stacks npsim's contexts run on -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One host thread runs every simulated context: each context is a fiber
// with a stack of its own, and the discrete-event loop runs on the thread's
// own stack. A context may itself switch between stacks (libnprt's
// executor runs each element instance on one), so a context records the
// stack it is on (`StackRef`), and the switches tell AddressSanitizer and
// ThreadSanitizer which stack the thread is on, as libnprt's executor does
// for its own switches.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_FIBER_H
#define NPCC_RUNTIME_NPSIM_FIBER_H

#include <csetjmp>
#include <cstddef>

namespace npcc::npsim {

/// A stack a context can be on: its bounds and its ThreadSanitizer fiber.
struct StackRef {
  void *base = nullptr;
  size_t size = 0;
  void *tsan = nullptr;
};

/// The side of a switch that waits to be resumed.
struct FiberPoint {
  jmp_buf jb;
  StackRef stack;       ///< the stack this side is on
  void *fake = nullptr; ///< AddressSanitizer's fake stack while away
};

/// A stack made for a context: mmap'd with a guard page.
class FiberStack {
public:
  FiberStack() = default;
  FiberStack(const FiberStack &) = delete;
  FiberStack &operator=(const FiberStack &) = delete;
  ~FiberStack();
  /// Maps `bytes` of stack and prepares a first entry into `entry(arg)`;
  /// false when the memory cannot be had.
  bool make(size_t bytes, void (*entry)(void *), void *arg);
  /// Enters the stack the first time, saving the caller in `from`.
  void start(FiberPoint &from);
  StackRef ref() const { return stack; }

private:
  void *map = nullptr;
  size_t mapBytes = 0;
  StackRef stack;
  void (*entry)(void *) = nullptr;
  void *arg = nullptr;
  void *firstEntry = nullptr; ///< the ucontext of the first entry
  static void trampoline(unsigned lo, unsigned hi);
};

/// Saves the running side in `from` and jumps to `to` (which saved itself
/// with a switchTo, or is a stack's first entry point). Returns when
/// something switches back to `from`.
void switchTo(FiberPoint &from, FiberPoint &to);

/// The stack the host thread started on, as a StackRef (filled in by the
/// first switch away from it).
StackRef &hostStack();

} // namespace npcc::npsim

#endif // NPCC_RUNTIME_NPSIM_FIBER_H
