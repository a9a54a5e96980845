//===- HandlerShape.h - handlers the runtime may call per packet -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_HANDLERSHAPE_H
#define NPCC_DIALECTS_NP_IR_HANDLERSHAPE_H

#include <cstdint>

namespace npcc::np {
class ElementOp;

/// The input ports on whose arrival the runtime may run `element`'s handler
/// as a plain call on the sender's stack (Click's push: a packet goes down
/// its whole path, re-entering elements on a cycle, before the sender goes
/// on). Bit i stands for the element's i-th input port in declaration
/// order. Non-zero only for a handler of push shape:
///  - its first receive is a top-level `np.recv` (the port pushed to) or a
///    top-level `np.select` (every port it lists), and only side-effect
///    free operations come before it;
///  - it receives at most once per run (one `np.recv` on every path, of a
///    port the select lists), so the value that caused the call is there;
///  - it neither reads a device nor ends the instance (`np.device_recv`,
///    `np.finish`): a call must return to the sender.
/// Ports past the 64th are never pushed to.
uint64_t pushPortMask(ElementOp element);

/// pushPortMask of a handler that starts with `np.select` (a pushed call
/// stands for that select), else 0.
uint64_t selectPortMask(ElementOp element);

} // namespace npcc::np

#endif // NPCC_DIALECTS_NP_IR_HANDLERSHAPE_H
