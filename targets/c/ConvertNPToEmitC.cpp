//===- ConvertNPToEmitC.cpp - c-convert-np-to-emitc -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The C target's conversion of np IR: element bodies through the shared
// lowering (targets/emitc), the program as the C target's tables and
// main() (ProgramToEmitC.cpp).
//
//===----------------------------------------------------------------------===//

#include "targets/c/Passes.h"
#include "targets/c/ProgramToEmitC.h"
#include "targets/c/ShareElementCode.h"
#include "targets/emitc/NPToEmitC.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"

namespace npcc::c {
#define GEN_PASS_DEF_CONVERTNPTOEMITC
#include "targets/c/Passes.h.inc"
} // namespace npcc::c

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

namespace {

struct ConvertNPToEmitCPass
    : npcc::c::impl::ConvertNPToEmitCBase<ConvertNPToEmitCPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    NPLoweringInfo info;
    c::callPushBodiesFromHandlers(module);
    if (failed(describeProgram(module, info)))
      return signalPassFailure();
    c::shareElementCode(module, info);
    auto program = [&](TypeConverter &tc, RewritePatternSet &patterns) {
      c::populateCProgramPatterns(tc, patterns, info);
    };
    if (failed(convertNPToEmitC(module, info, program)))
      return signalPassFailure();
    declarePushFunctions(module, info);
  }

  /// A fused send may call a push body defined further down: every push
  /// function is declared after the include, before any definition.
  static void declarePushFunctions(ModuleOp module,
                                   const NPLoweringInfo &info) {
    auto includes = module.getOps<emitc::IncludeOp>();
    if (includes.empty())
      return;
    OpBuilder b(module.getContext());
    b.setInsertionPointAfter(*includes.begin());
    llvm::DenseSet<Operation *> declared;
    for (Operation *element : info.elementAt)
      if (declared.insert(element).second)
        for (const auto &kv : info.elements.at(element).pushFns)
          b.create<emitc::DeclareFuncOp>(module.getLoc(), kv.second);
  }
};

} // namespace
