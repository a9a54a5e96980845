//===- ScatterMemory.cpp - one memory per field of a struct array ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/Passes.h"

#include "dialects/NP/IR/NPOps.h"
#include "targets/hls/Transforms/HLSMemory.h"

#include "llvm/ADT/MapVector.h"

namespace npcc::hls {
#define GEN_PASS_DEF_SCATTERMEMORY
#include "targets/hls/Transforms/Passes.h.inc"
} // namespace npcc::hls

using namespace mlir;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

struct ScatterMemory : npcc::hls::impl::ScatterMemoryBase<ScatterMemory> {
  using ScatterMemoryBase::ScatterMemoryBase;

  void runOnOperation() override {
    auto selected =
        selectHLSElements(getOperation(), elements, "np-scatter-memory");
    if (failed(selected))
      return signalPassFailure();
    for (ElementOp element : *selected) {
      // The fields of each struct array, in declaration order.
      llvm::MapVector<StringAttr, SmallVector<StateOp>> memories;
      for (auto state : element.getBody()->getOps<StateOp>())
        if (auto memory = state->getAttrOfType<StringAttr>(kHLSMemoryAttr))
          memories[memory].push_back(state);
      for (auto &[memory, fields] : memories) {
        std::string names;
        for (StateOp field : fields) {
          StringRef name = field.getSymName();
          name.consume_front((memory.getValue() + ".").str());
          names += (names.empty() ? "" : ", ") + name.str();
          field->removeAttr(kHLSMemoryAttr);
        }
        fields.front().emitRemark()
            << "scattered '" << memory.getValue() << "' into " << fields.size()
            << (fields.size() == 1 ? " memory: " : " memories: ") << names;
        ++numScattered;
      }
    }
  }
};

} // namespace
