//===- CheckSynthesizable.cpp - reject what HLS cannot synthesise ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// np-check-synthesizable: a lint of the elements bound for the FPGA. Each
// rejected construct is an error at its operation that names the element
// and says how to fix it (docs/hls-lint.md); the pass changes nothing.
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/HLSMemory.h"
#include "targets/hls/Transforms/Passes.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace npcc::hls {
#define GEN_PASS_DEF_CHECKSYNTHESIZABLE
#include "targets/hls/Transforms/Passes.h.inc"
} // namespace npcc::hls

using namespace mlir;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

/// How NPL spells a bounded loop, for the fix-it text of loop errors.
constexpr llvm::StringLiteral kLoopFix =
    "a loop needs a constant or declared bound (`for k in 0..N`, "
    "`unroll k in a..b bound N`, `while c bound N`; in IR, constant "
    "`scf.for` bounds or an `np.bound = N` attribute)";

/// The attribute by which hand-written IR declares a loop's maximal trip
/// count (the front end's loops have constant bounds and need none).
constexpr llvm::StringLiteral kBoundAttr = "np.bound";

/// The state a memref value is, when it is one: the `np.state` named by the
/// `np.state_field` or `np.state_ref` that defines it.
StateOp stateOf(Value memref, ElementOp element) {
  StringRef name = stateNameOf(memref);
  if (name.empty())
    return {};
  return dyn_cast_or_null<StateOp>(SymbolTable::lookupSymbolIn(
      element, StringAttr::get(element.getContext(), name)));
}

bool hasDynamicShape(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && !memref.hasStaticShape();
}

/// The bytes a state takes: its elements, each rounded up to whole bytes.
int64_t stateBytes(StateOp state) {
  MemRefType type = state.getMemRefType();
  return type.getNumElements() *
         ((int64_t)(type.getElementTypeBitWidth() + 7) / 8);
}

/// Checks one element; `instance` names its instance in messages (empty
/// when the element is checked without a graph).
class ElementChecker {
public:
  ElementChecker(ElementOp element, StringRef instance, ModuleOp module,
                 int64_t maxStateBytes, int64_t maxQueuedPackets)
      : element(element), instance(instance), module(module),
        maxStateBytes(maxStateBytes), maxQueuedPackets(maxQueuedPackets) {}

  /// Reports every problem; false when there was at least one error.
  bool run() {
    // States first, in declaration order, then the bodies.
    element.walk([&](PktToWordOp toWord) {
      for (Operation *user : toWord.getWord().getUsers())
        if (auto store = dyn_cast<memref::StoreOp>(user))
          if (StateOp state = stateOf(store.getMemRef(), element))
            queues.insert(state);
    });
    for (StateOp state : element.getBody()->getOps<StateOp>()) {
      checkStateSize(state);
      if (queues.contains(state))
        checkQueue(state);
    }
    for (Operation &body : *element.getBody())
      if (body.getNumRegions())
        checkRegion(body.getRegion(0));
    return ok;
  }

private:
  /// An error at `op` that starts with the element's name.
  InFlightDiagnostic error(Operation *op) {
    ok = false;
    InFlightDiagnostic diag = op->emitError();
    prefix(diag) << "cannot run on the FPGA: ";
    return diag;
  }

  InFlightDiagnostic &prefix(InFlightDiagnostic &diag) {
    diag << "element '" << element.getSourceName() << "'";
    if (!instance.empty())
      diag << " (instance '" << instance << "')";
    return diag << " ";
  }

  void checkStateSize(StateOp state) {
    int64_t bytes = stateBytes(state);
    if (bytes <= maxStateBytes)
      return;
    error(state) << "state '" << state.getSymName() << "' takes " << bytes
                 << " bytes, more than the " << maxStateBytes
                 << " bytes one state may take in on-chip memory "
                    "(max-state-bytes); make the array or table smaller";
  }

  /// Several blocks in a region (a called function's) are joined by the
  /// branches that checkOp reports.
  void checkRegion(Region &region) {
    region.walk<WalkOrder::PreOrder>([&](Operation *op) { checkOp(op); });
  }

  void checkOp(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return checkFor(loop);
    if (isa<scf::WhileOp>(op)) {
      if (!op->hasAttrOfType<IntegerAttr>(kBoundAttr))
        error(op) << "loop 'scf.while' has no bound: HLS cannot schedule or "
                     "pipeline a loop of unknown trip count; "
                  << kLoopFix;
      return;
    }
    if (op->hasTrait<OpTrait::IsTerminator>() && op->getNumSuccessors()) {
      error(op) << "branch '" << op->getName()
                << "' is unstructured control flow, which may loop without "
                   "a bound; "
                << kLoopFix;
      return;
    }
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      if (hasDynamicShape(op->getResult(0).getType()))
        error(op) << "dynamic allocation: '" << op->getName() << "' of "
                  << op->getResult(0).getType()
                  << " has a size known only at run time; HLS maps every "
                     "array to a memory of fixed size: give it a constant "
                     "size (an NPL array `[T; N]`)";
      return;
    }
    if (isa<memref::ReallocOp>(op)) {
      error(op) << "dynamic allocation: 'memref.realloc' resizes a buffer "
                   "at run time; HLS maps every array to a memory of fixed "
                   "size: allocate the largest size once";
      return;
    }
    if (auto call = dyn_cast<CallOpInterface>(op))
      return checkCall(call);
    if (auto toWord = dyn_cast<PktToWordOp>(op))
      return checkPacketWord(toWord);
    if (auto toPkt = dyn_cast<WordToPktOp>(op))
      return checkPacketFromWord(toPkt);
    if (auto table = dyn_cast<TableOp>(op)) {
      if (!stateOf(table.getTable(), element))
        error(op) << "table memory is not element state; an FPGA table is "
                     "a memory of the element of a capacity fixed at "
                     "compile time: declare the table in `state` "
                     "(`t: hash<K, V, N>;`, `t: lpm<V, N>;`)";
      return;
    }
    if (auto load = dyn_cast<HandlerLoadOp>(op)) {
      error(op) << "reads the file '" << load.getPath()
                << "' at start-up, and the FPGA has no file system; fill the "
                   "table from the element's arguments in `init`, or from "
                   "the host through write handler '"
                << load.getHandler() << "' at run time";
      return;
    }
    if (isa<PrintOp, PrintPktOp>(op)) {
      InFlightDiagnostic diag = op->emitWarning();
      prefix(diag) << "prints only in C simulation: HLS synthesis drops "
                      "'"
                   << op->getName()
                   << "' (printf), so the FPGA does not print; count in "
                      "state and read it with a read handler instead";
      return;
    }
    for (Value result : op->getResults())
      if (hasDynamicShape(result.getType())) {
        error(op) << "variable-size value of type " << result.getType()
                  << ": HLS maps every array to a memory of fixed size; "
                     "use a constant shape";
        return;
      }
  }

  void checkFor(scf::ForOp loop) {
    if (getConstantIntValue(loop.getLowerBound()) &&
        getConstantIntValue(loop.getUpperBound()) &&
        getConstantIntValue(loop.getStep()))
      return;
    if (loop->hasAttrOfType<IntegerAttr>(kBoundAttr))
      return;
    error(loop) << "loop runs at most ? iterations: its bounds are not "
                   "constants and it declares no bound; "
                << kLoopFix;
  }

  /// A call: the front end inlines every `fn`, so a call that remains is
  /// checked like a body, and recursion is an error.
  void checkCall(CallOpInterface call) {
    auto callee = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
    if (!callee) {
      error(call) << "indirect call: HLS needs every callee known at compile "
                     "time to inline it";
      return;
    }
    auto callable = dyn_cast_or_null<CallableOpInterface>(
        SymbolTable::lookupSymbolIn(module, callee));
    Region *body = callable ? callable.getCallableRegion() : nullptr;
    if (!body || body->empty()) {
      error(call) << "call to " << callee
                  << ", which has no body in the module; HLS inlines or "
                     "instantiates every callee (NPL `fn`s are inlined by "
                     "the front end)";
      return;
    }
    // The outermost active call of the same callee starts the cycle.
    auto onStack = llvm::find_if(stack, [&](Operation *active) {
      return cast<CallOpInterface>(active).getCallableForCallee() ==
             call.getCallableForCallee();
    });
    if (onStack != stack.end()) {
      InFlightDiagnostic diag =
          error(call) << "recursion: the call to " << callee
                      << " closes a cycle of calls; HLS has no call stack: "
                         "write the recursion as a bounded loop";
      for (Operation *c : llvm::make_range(onStack, stack.end()))
        diag.attachNote(c->getLoc())
            << "in the cycle: call to "
            << cast<SymbolRefAttr>(
                   cast<CallOpInterface>(c).getCallableForCallee());
      return;
    }
    if (!checked.insert(callable).second)
      return;
    stack.push_back(call);
    checkRegion(*body);
    stack.pop_back();
  }

  /// A packet handle as a word may only be stored into state: a packet
  /// queue, where the front end keeps packets across activations.
  void checkPacketWord(PktToWordOp toWord) {
    for (OpOperand &use : toWord.getWord().getUses()) {
      auto store = dyn_cast<memref::StoreOp>(use.getOwner());
      if (store && use.getOperandNumber() == 0) {
        if (stateOf(store.getMemRef(), element))
          continue;
      }
      InFlightDiagnostic diag =
          error(toWord) << "packet handle escapes: a packet is a stream of "
                           "flits on the FPGA, not an address; keep packets "
                           "across activations only in a packet queue in "
                           "state (`q: queue<pkt, N>;`)";
      diag.attachNote(use.getOwner()->getLoc()) << "the handle is used here";
      return;
    }
  }

  void checkPacketFromWord(WordToPktOp toPkt) {
    auto load = toPkt.getWord().getDefiningOp<memref::LoadOp>();
    if (load && stateOf(load.getMemRef(), element))
      return;
    error(toPkt) << "packet made from an integer that is not a packet queue "
                    "entry: a packet is a stream of flits on the FPGA, not an "
                    "address; take packets only from a packet queue in state "
                    "(`dequeue(q)`)";
  }

  /// A state that packets are stored in is a packet queue: capacity words
  /// then its head and count (the front end's layout).
  void checkQueue(StateOp state) {
    int64_t capacity = state.getMemRefType().getNumElements() - 2;
    if (capacity <= maxQueuedPackets)
      return;
    error(state) << "packet queue '" << state.getSymName() << "' holds up to "
                 << capacity << " packets, more than the " << maxQueuedPackets
                 << " frame buffers an element may keep (max-queued-packets); "
                    "give the queue a smaller capacity";
  }

  ElementOp element;
  StringRef instance;
  ModuleOp module;
  int64_t maxStateBytes;
  int64_t maxQueuedPackets;
  bool ok = true;
  /// Calls being checked, outermost first (for recursion).
  SmallVector<Operation *> stack;
  /// Functions already checked for this element.
  llvm::SmallPtrSet<Operation *, 4> checked;
  /// The states packets are stored in: packet queues.
  llvm::SmallPtrSet<Operation *, 4> queues;
};

struct CheckSynthesizablePass
    : npcc::hls::impl::CheckSynthesizableBase<CheckSynthesizablePass> {
  using CheckSynthesizableBase::CheckSynthesizableBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Element -> instance name, for the elements bound for the FPGA.
    llvm::MapVector<Operation *, StringRef> todo;
    GraphOp top;
    for (auto graph : module.getOps<GraphOp>())
      if (graph.getTop())
        top = graph;
    if (top) {
      SymbolTableCollection symbols;
      for (auto inst : top.getBody()->getOps<InstanceOp>())
        if (allElements || inst.getPlacement() != "host")
          if (auto element =
                  dyn_cast_or_null<ElementOp>(inst.resolveCallee(symbols)))
            todo.insert({element, inst.getSymName()});
    }
    if (!top || allElements)
      for (auto element : module.getOps<ElementOp>())
        todo.insert({element, StringRef()});
    bool ok = true;
    for (auto [element, instance] : todo)
      ok &= ElementChecker(cast<ElementOp>(element), instance, module,
                           maxStateBytes, maxQueuedPackets)
                .run();
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
