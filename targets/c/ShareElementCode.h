//===- ShareElementCode.h - one copy of an element's code -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// np-instantiate-elements gives every instance an element of its own, so
// that constant arguments can be folded into its code. Most instances of
// one NPL element end up with the same code; the C target keeps one copy
// of it for all of them (state reached through the instance, as always)
// and a copy more only where the code differs (a constant argument that
// changed it, a send that is a static hop in one instance and not in
// another). A fused send of shared code whose consumers do not share
// their code calls through the sender's link (nprt_link_call_*). And an
// element's handler that is a receive and then its push body calls the
// push body rather than repeating it.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_C_SHAREELEMENTCODE_H
#define NPCC_TARGETS_C_SHAREELEMENTCODE_H

#include "targets/emitc/NPToEmitC.h"

#include "mlir/IR/BuiltinOps.h"

namespace npcc::c {

/// Merges the elements of `module`'s program whose code is the same after
/// instantiation into the first of them, erasing the others, and updates
/// `info` (which describeProgram filled): element prefixes of shared code,
/// fused callees, indirect sends, the element of every instance.
void shareElementCode(mlir::ModuleOp module, toemitc::NPLoweringInfo &info);

/// Rewrites each handler that starts with a receive from a port with a
/// push body, after nothing but pure operations and local variables with
/// their first values, as that receive and an
/// np.call_push: the push body is the rest of the handler, which the C
/// then holds once. Before describeProgram.
void callPushBodiesFromHandlers(mlir::ModuleOp module);

} // namespace npcc::c

#endif // NPCC_TARGETS_C_SHAREELEMENTCODE_H
