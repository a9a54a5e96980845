//===- GraphRun.h - run a whole NPL program on the np dialect ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `npcc prog.np --target=interp [program flags]`: the reference interpreter
// of element bodies (arith, scf, memref and np operations, evaluated one
// operation at a time on 64-bit words) behind the instance table of an
// `np.program`, run by libnprt's executor. The executor supplies what must
// be the same on every target for outputs to be comparable byte for byte:
// the command line, channels and their scheduling, devices (pcap in and
// out), the packet pool and the statistics. Everything a program computes
// (integer arithmetic, control flow, state, packet bytes and metadata) is
// evaluated here, independently of the C lowering, which makes the
// interpreter the oracle of differential tests against `--target=c`.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_INTERP_GRAPHRUN_H
#define NPCC_TARGETS_INTERP_GRAPHRUN_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace npcc::interp {

/// Runs the `np.program` of `module` (after np-describe-graph) with the
/// compiled executable's command line `args` (args[0] is the program name
/// for diagnostics). Returns the executable's exit code; an operation the
/// interpreter does not know is reported at its location, with exit code 1.
int runGraph(mlir::ModuleOp module, const std::vector<std::string> &args);

} // namespace npcc::interp

#endif // NPCC_TARGETS_INTERP_GRAPHRUN_H
