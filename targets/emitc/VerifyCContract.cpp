//===- VerifyCContract.cpp - only printable IR reaches the C printer ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/Passes.h"

namespace npcc::toemitc {
#define GEN_PASS_DEF_VERIFYCCONTRACT
#include "targets/emitc/Passes.h.inc"
} // namespace npcc::toemitc

using namespace mlir;

namespace {
struct VerifyCContractPass
    : npcc::toemitc::impl::VerifyCContractBase<VerifyCContractPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      if (isa<ModuleOp>(op) || isa<emitc::EmitCDialect>(op->getDialect()))
        return;
      op->emitOpError("cannot be printed as C; it was not lowered to EmitC");
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
