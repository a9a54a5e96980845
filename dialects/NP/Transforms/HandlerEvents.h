//===- HandlerEvents.h - what a body does on its channels -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Abstractions of an element's code that np-check-channels reasons about:
// the blocking channel operations one run performs, in order, as far as
// they do not depend on data, and the most values one run sends on a port.
// Both evaluate integer constants, loop counters included, so that
// `for k in 0..n { send(o[k], ...) }` (unrolled per iteration, with `k`
// known) counts one send per port.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_TRANSFORMS_HANDLEREVENTS_H
#define NPCC_DIALECTS_NP_TRANSFORMS_HANDLEREVENTS_H

#include "mlir/IR/Region.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace npcc::np {

/// One blocking operation on channels.
struct ChannelEvent {
  enum Kind { Recv, Send, Select } kind;
  /// The port received from or sent on; for Select, every port it waits on.
  llvm::SmallVector<llvm::StringRef, 2> ports;
  mlir::Operation *op;
};

/// The channel operations every run of a body performs, in program order,
/// up to the first one that depends on data.
struct EventSequence {
  llvm::SmallVector<ChannelEvent> events;
  /// Null when `events` is the whole run. Otherwise the operation after
  /// which the run depends on data (a branch or a loop with channel
  /// operations in it, a select, a try_recv, finish): what the run does
  /// from there on is unknown.
  mlir::Operation *openAt = nullptr;
};

/// The events of one run of `body` (a handler, init or push body).
/// `np.device_recv` and `np.device_send` are not events: devices are
/// always ready.
EventSequence eventSequence(mlir::Region &body);

/// The most values one run of `body` may send on `port` (`np.send` and
/// `np.fused_send`) along any path: branches take the larger side, loops
/// multiply by their constant trip count. std::nullopt when a loop that
/// sends on the port has no constant trip count or may stop early (a
/// `while`, a `break` or a `return` in it: `np.exit_loop_if`).
std::optional<int64_t> maxSendsPerRun(mlir::Region &body, llvm::StringRef port);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_TRANSFORMS_HANDLEREVENTS_H
