//===- ConvertNPToEmitC.cpp - the np dialect to EmitC and libnprt calls ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Checks the module is in the form the patterns expect (one np.program,
// state made explicit), computes C names and port indices once, then runs
// one dialect conversion in which every np op is illegal. Other dialects
// (arith, scf, memref) pass through to c-convert-to-emitc. The C and HLS
// targets both lower element bodies through here; each adds the patterns
// of its own program (tables and main(), or processes).
//
//===----------------------------------------------------------------------===//

#include "targets/emitc/NPToEmitC.h"

#include "dialects/NP/IR/HandlerShape.h"
#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/TopGraph.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

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

/// A C member name for state `sym`, not one of `taken`.
std::string memberName(StringRef sym, llvm::StringSet<> &taken) {
  std::string field = np::sanitizeIdentifier(sym);
  if (field.empty() || llvm::isDigit(field[0]) || isCKeyword(field))
    field = "s_" + field;
  std::string unique = field;
  for (unsigned k = 1; !taken.insert(unique).second; ++k)
    unique = field + "_" + std::to_string(k);
  return unique;
}

bool startsNonZero(np::StateOp state) {
  auto dense =
      dyn_cast_or_null<DenseIntElementsAttr>(state.getInitialValueAttr());
  return dense && !(dense.isSplat() && dense.getSplatValue<APInt>().isZero());
}

/// One block of shared state per source name that has any, in module
/// order; the verifier made every element of a source name declare the
/// same shared states, so the first one describes them all.
void describeShared(ModuleOp module, NPLoweringInfo &info) {
  llvm::StringMap<unsigned> bySource;
  for (auto element : module.getOps<np::ElementOp>()) {
    auto states =
        llvm::make_filter_range(element.getBody()->getOps<np::StateOp>(),
                                [](np::StateOp s) { return s.getShared(); });
    if (states.empty())
      continue;
    auto [it, fresh] =
        bySource.try_emplace(element.getSourceName(), info.shared.size());
    info.elements[element].shared = it->second;
    if (!fresh)
      continue;
    NPLoweringInfo::Shared &sh = info.shared.emplace_back();
    sh.type = "npcc_shared_" + std::to_string(it->second) + "_" +
              np::sanitizeIdentifier(element.getSourceName());
    sh.declarer = element;
    llvm::StringSet<> taken;
    for (np::StateOp state : states) {
      sh.fields[state.getSymName()] = memberName(state.getSymName(), taken);
      sh.hasInitImage |= startsNonZero(state);
    }
  }
}

/// Names, state members and port indices of `element`, instance `index`
/// of the program.
LogicalResult describeElement(np::ElementOp element, unsigned index,
                              StringRef instanceName, NPLoweringInfo &info) {
  NPLoweringInfo::Element &e = info.elements[element];
  e.prefix = "npcc_" + std::to_string(index) + "_" +
             np::sanitizeIdentifier(instanceName);
  e.name = element.getSourceName().str();
  llvm::StringMap<unsigned> portIndex;
  SmallVector<StringRef> ins, outs;
  llvm::StringSet<> taken;
  for (Operation &op : *element.getBody()) {
    if (auto port = dyn_cast<np::PortOp>(op)) {
      auto &list = port.isInput() ? ins : outs;
      portIndex[port.getSymName()] = list.size();
      list.push_back(port.getSymName());
    } else if (auto state = dyn_cast<np::StateOp>(op)) {
      if (state.getShared())
        continue; // a member of the shared object (describeShared)
      e.fields[state.getSymName()] = memberName(state.getSymName(), taken);
      e.hasState = true;
      e.hasInitImage |= startsNonZero(state);
      if (std::optional<StringRef> merge = state.getMerge()) {
        auto t = cast<MemRefType>(state.getType());
        unsigned bits = t.getElementTypeBitWidth();
        e.merges.push_back({e.fields[state.getSymName()],
                            bits <= 8    ? 1u
                            : bits <= 16 ? 2u
                            : bits <= 32 ? 4u
                                         : 8u,
                            bits, (unsigned)t.getNumElements(),
                            "NPRT_MERGE_" + merge->upper()});
      }
    } else if (isa<np::InitOp, np::HandlerOp, np::PushOp, np::SignalOp,
                   np::TimerOp, np::FiniOp, np::ControlOp>(op)) {
      if (auto push = dyn_cast<np::PushOp>(op)) {
        // One push body per port, and port names are unique, but two
        // names may sanitize alike.
        std::string fn =
            e.prefix + "_push_" + np::sanitizeIdentifier(push.getPort());
        std::string unique = fn;
        for (unsigned k = 1;
             llvm::any_of(e.pushFns,
                          [&](const auto &kv) { return kv.second == unique; });
             ++k)
          unique = fn + "_" + std::to_string(k);
        e.pushFns[push.getPort().str()] = unique;
      }
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
  e.selectPorts = np::selectPortMask(element);
  e.inPorts = llvm::join(ins, ",");
  e.outPorts = llvm::join(outs, ",");
  WalkResult r = element.walk([&](Operation *op) {
    if (isa<np::StateRefOp>(op)) {
      op->emitOpError("must be made explicit first (np-make-state-explicit)");
      return WalkResult::interrupt();
    }
    if (auto f = dyn_cast<np::StateFieldOp>(op)) {
      auto it = e.fields.find(f.getState());
      if (it != e.fields.end())
        info.stateFields[op] = {it->second, false};
      else if (e.shared >= 0)
        info.stateFields[op] = {
            info.shared[e.shared].fields.lookup(f.getState()), true};
    }
    auto portOf = [&](StringRef name) { return portIndex.lookup(name); };
    if (auto r = dyn_cast<np::RecvOp>(op))
      info.ports[op] = {portOf(r.getPort())};
    else if (auto t = dyn_cast<np::TryRecvOp>(op))
      info.ports[op] = {portOf(t.getPort())};
    else if (auto s = dyn_cast<np::SendOp>(op))
      info.ports[op] = {portOf(s.getPort())};
    else if (auto s = dyn_cast<np::FusedSendOp>(op))
      info.ports[op] = {portOf(s.getPort())};
    else if (auto s = dyn_cast<np::SelectOp>(op))
      for (Attribute a : s.getPorts())
        info.ports[op].push_back(portOf(cast<FlatSymbolRefAttr>(a).getValue()));
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

} // namespace

LogicalResult npcc::toemitc::describeProgram(ModuleOp module,
                                             NPLoweringInfo &info) {
  auto programs = module.getOps<np::ProgramOp>();
  if (programs.empty())
    return module.emitError("no np.program to compile; run np-describe-graph "
                            "on a module with a top graph first");
  np::ProgramOp program = *programs.begin();
  if (std::next(programs.begin()) != programs.end())
    return module.emitError("more than one np.program in the module");
  describeShared(module, info);
  SymbolTable symbols(module);
  for (auto [i, ref] :
       llvm::enumerate(program.getElements().getAsRange<FlatSymbolRefAttr>())) {
    auto element = symbols.lookup<np::ElementOp>(ref.getValue());
    if (failed(describeElement(
            element, i, cast<StringAttr>(program.getNames()[i]).getValue(),
            info)))
      return failure();
    info.elementAt.push_back(element);
    info.elements[element].instances.push_back(i);
  }
  for (auto element : module.getOps<np::ElementOp>())
    if (!info.elements.count(element))
      return element.emitOpError("is not used by the program; run "
                                 "np-instantiate-elements first");
  // The verifier made every np.fused_send name an element with a push
  // body for the port.
  module.walk([&](np::FusedSendOp send) {
    auto target = symbols.lookup<np::ElementOp>(
        send.getTarget().getRootReference().getValue());
    StringRef port = send.getTarget().getLeafReference().getValue();
    const NPLoweringInfo::Element &e = info.elements[target];
    info.fusedCallee[send] = e.pushFns.at(port.str());
    unsigned index = 0;
    for (auto p : target.getBody()->getOps<np::PortOp>()) {
      if (!p.isInput())
        continue;
      if (p.getSymName() == port) {
        if (index < 64 && (e.selectPorts >> index & 1))
          info.fusedSelect.insert(send);
        break;
      }
      ++index;
    }
  });
  classifyFusedSends(program, info);
  return success();
}

LogicalResult npcc::toemitc::convertNPToEmitC(ModuleOp module,
                                              const NPLoweringInfo &info,
                                              ExtraPatterns extra) {
  MLIRContext *ctx = module.getContext();
  TypeConverter tc;
  tc.addConversion([](Type t) { return t; });
  populateNPToEmitCTypeConversions(tc);
  RewritePatternSet patterns(ctx);
  populateNPStructureToEmitCPatterns(tc, patterns, info);
  populateNPPacketToEmitCPatterns(tc, patterns, info);
  if (extra)
    extra(tc, patterns);
  ConversionTarget target(*ctx);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  // scf.if and scf.for that carry packets (recv_any) are retyped here,
  // with the packets they carry.
  scf::populateSCFStructuralTypeConversionsAndLegality(tc, patterns, target);
  target.addIllegalDialect<np::NPDialect>();
  return applyPartialConversion(module, target, std::move(patterns));
}
