//===- ConvertNPToEmitC.cpp - the np dialect to EmitC and libnprt calls ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Checks the module is in the form the patterns expect (one np.program,
// state made explicit), computes C names and port indices once, then runs
// one dialect conversion in which every np op is illegal. Other dialects
// (arith, scf, memref) pass through to c-convert-to-emitc.
//
//===----------------------------------------------------------------------===//

#include "targets/c/NPToEmitC.h"
#include "targets/c/Passes.h"

#include "dialects/NP/IR/HandlerShape.h"
#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/TopGraph.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

#include "llvm/ADT/StringSet.h"

namespace npcc::c {
#define GEN_PASS_DEF_CONVERTNPTOEMITC
#include "targets/c/Passes.h.inc"
} // namespace npcc::c

using namespace mlir;
using namespace npcc;
using namespace npcc::c;

namespace {

bool isCKeyword(StringRef s) {
  static const llvm::StringSet<> keywords = {"auto",         "break",
                                             "case",         "char",
                                             "const",        "continue",
                                             "default",      "do",
                                             "double",       "else",
                                             "enum",         "extern",
                                             "float",        "for",
                                             "goto",         "if",
                                             "inline",       "int",
                                             "long",         "register",
                                             "restrict",     "return",
                                             "short",        "signed",
                                             "sizeof",       "static",
                                             "struct",       "switch",
                                             "typedef",      "union",
                                             "unsigned",     "void",
                                             "volatile",     "while",
                                             "bool",         "true",
                                             "false",        "_Bool",
                                             "_Alignas",     "_Alignof",
                                             "_Atomic",      "_Complex",
                                             "_Generic",     "_Imaginary",
                                             "_Noreturn",    "_Static_assert",
                                             "_Thread_local"};
  return keywords.contains(s);
}

/// Names, state members and port indices of `element`, instance `index`
/// of the program.
LogicalResult describeElement(np::ElementOp element, unsigned index,
                              StringRef instanceName, NPLoweringInfo &info) {
  NPLoweringInfo::Element &e = info.elements[element];
  e.prefix = "npcc_" + std::to_string(index) + "_" +
             np::sanitizeIdentifier(instanceName);
  e.name =
      (element.getOrigin() ? *element.getOrigin() : element.getSymName()).str();
  llvm::StringMap<unsigned> portIndex;
  SmallVector<StringRef> ins, outs;
  llvm::StringSet<> taken;
  for (Operation &op : *element.getBody()) {
    if (auto port = dyn_cast<np::PortOp>(op)) {
      auto &list = port.isInput() ? ins : outs;
      portIndex[port.getSymName()] = list.size();
      list.push_back(port.getSymName());
    } else if (auto state = dyn_cast<np::StateOp>(op)) {
      std::string field = np::sanitizeIdentifier(state.getSymName());
      if (field.empty() || llvm::isDigit(field[0]) || isCKeyword(field))
        field = "s_" + field;
      std::string unique = field;
      for (unsigned k = 1; !taken.insert(unique).second; ++k)
        unique = field + "_" + std::to_string(k);
      e.fields[state.getSymName()] = unique;
      e.hasState = true;
      auto dense =
          dyn_cast_or_null<DenseIntElementsAttr>(state.getInitialValueAttr());
      if (dense && !(dense.isSplat() && dense.getSplatValue<APInt>().isZero()))
        e.hasInitImage = true;
    } else if (isa<np::InitOp, np::HandlerOp, np::SignalOp, np::TimerOp,
                   np::FiniOp, np::ControlOp>(op)) {
      e.numControls += isa<np::ControlOp>(op);
      e.hasInit |= isa<np::InitOp>(op);
      e.hasFini |= isa<np::FiniOp>(op);
      e.hasSignal |= isa<np::SignalOp>(op);
      if (auto timer = dyn_cast<np::TimerOp>(op))
        e.timerPeriod = timer.getPeriod();
      Block &body = op.getRegion(0).front();
      if (!body.getNumArguments() ||
          !isa<np::SelfType>(body.getArgument(0).getType()))
        return op.emitOpError("takes no '!np.self'; run "
                              "np-make-state-explicit first");
    }
  }
  e.pushPorts = np::pushPortMask(element);
  e.inPorts = llvm::join(ins, ",");
  e.outPorts = llvm::join(outs, ",");
  WalkResult r = element.walk([&](Operation *op) {
    if (isa<np::StateRefOp>(op)) {
      op->emitOpError("must be made explicit first (np-make-state-explicit)");
      return WalkResult::interrupt();
    }
    if (auto f = dyn_cast<np::StateFieldOp>(op))
      info.stateFields[op] = e.fields.lookup(f.getState());
    auto portOf = [&](StringRef name) { return portIndex.lookup(name); };
    if (auto r = dyn_cast<np::RecvOp>(op))
      info.ports[op] = {portOf(r.getPort())};
    else if (auto t = dyn_cast<np::TryRecvOp>(op))
      info.ports[op] = {portOf(t.getPort())};
    else if (auto s = dyn_cast<np::SendOp>(op))
      info.ports[op] = {portOf(s.getPort())};
    else if (auto s = dyn_cast<np::SelectOp>(op))
      for (Attribute a : s.getPorts())
        info.ports[op].push_back(portOf(cast<FlatSymbolRefAttr>(a).getValue()));
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

struct ConvertNPToEmitCPass
    : npcc::c::impl::ConvertNPToEmitCBase<ConvertNPToEmitCPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto programs = module.getOps<np::ProgramOp>();
    if (programs.empty()) {
      module.emitError("no np.program to compile; run np-describe-graph "
                       "on a module with a top graph first");
      return signalPassFailure();
    }
    np::ProgramOp program = *programs.begin();
    if (std::next(programs.begin()) != programs.end()) {
      module.emitError("more than one np.program in the module");
      return signalPassFailure();
    }
    NPLoweringInfo info;
    SymbolTable symbols(module);
    for (auto [i, ref] : llvm::enumerate(
             program.getElements().getAsRange<FlatSymbolRefAttr>())) {
      auto element = symbols.lookup<np::ElementOp>(ref.getValue());
      if (failed(describeElement(
              element, i, cast<StringAttr>(program.getNames()[i]).getValue(),
              info)))
        return signalPassFailure();
      info.elementAt.push_back(element);
    }
    for (auto element : module.getOps<np::ElementOp>())
      if (!info.elements.count(element)) {
        element.emitOpError("is not used by the program; run "
                            "np-instantiate-elements first");
        return signalPassFailure();
      }

    MLIRContext *ctx = &getContext();
    TypeConverter tc;
    tc.addConversion([](Type t) { return t; });
    populateNPToEmitCTypeConversions(tc);
    RewritePatternSet patterns(ctx);
    populateNPStructureToEmitCPatterns(tc, patterns, info);
    populateNPPacketToEmitCPatterns(tc, patterns, info);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // scf.if and scf.for that carry packets (recv_any) are retyped here,
    // with the packets they carry.
    scf::populateSCFStructuralTypeConversionsAndLegality(tc, patterns, target);
    target.addIllegalDialect<np::NPDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
