//===- ShareElementCode.cpp - one copy of an element's code ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Two elements have the same code when their bodies print alike once the
// targets of their fused sends are left out, and when each of those sends
// lowers alike (static hop or not, of a packet the sender was handed or
// not, standing for the consumer's select or not): the name of the element
// and its parameters are not code. Where the members of a group send to
// consumers of one group, on one port, the shared code calls that group's
// push body directly; otherwise through the link.
//
//===----------------------------------------------------------------------===//

#include "targets/c/ShareElementCode.h"

#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/TopGraph.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

namespace {

SmallVector<np::FusedSendOp> fusedSends(np::ElementOp element) {
  SmallVector<np::FusedSendOp> sends;
  element.walk([&](np::FusedSendOp s) { sends.push_back(s); });
  return sends;
}

/// What decides the C an element becomes, as text.
std::string codeKey(np::ElementOp element, const NPLoweringInfo &info) {
  SmallVector<np::FusedSendOp> sends = fusedSends(element);
  SmallVector<SymbolRefAttr> targets;
  auto blank = FlatSymbolRefAttr::get(element.getContext(), "_");
  for (np::FusedSendOp s : sends) {
    targets.push_back(s.getTarget());
    s.setTargetAttr(SymbolRefAttr::get(
        blank.getAttr(), ArrayRef<FlatSymbolRefAttr>{FlatSymbolRefAttr::get(
                             s.getTarget().getLeafReference())}));
  }
  std::string key;
  llvm::raw_string_ostream os(key);
  os << element.getSourceName() << '\n';
  OpPrintingFlags flags;
  flags.useLocalScope().assumeVerified();
  for (Operation &op : *element.getBody()) {
    op.print(os, flags);
    os << '\n';
  }
  for (auto [s, target] : llvm::zip(sends, targets)) {
    s.setTargetAttr(target);
    os << info.staticSends.contains(s) << info.handedSends.contains(s)
       << info.fusedSelect.contains(s);
  }
  return key;
}

/// Drops what `info` knows about the ops of an element about to go.
void forgetElement(np::ElementOp element, NPLoweringInfo &info) {
  element.walk([&](Operation *op) {
    info.stateFields.erase(op);
    info.ports.erase(op);
    info.fusedCallee.erase(op);
    info.fusedSelect.erase(op);
    info.staticSends.erase(op);
    info.handedSends.erase(op);
  });
  info.elements.erase(element);
}

/// Renames everything generated for `e` from its prefix to `prefix`.
void renamePrefix(NPLoweringInfo::Element &e, const std::string &prefix) {
  for (auto &kv : e.pushFns)
    kv.second = prefix + kv.second.substr(e.prefix.size());
  e.prefix = prefix;
}

} // namespace

void npcc::c::shareElementCode(ModuleOp module, NPLoweringInfo &info) {
  auto program = *module.getOps<np::ProgramOp>().begin();
  SymbolTable symbols(module);
  // The groups of equal code, in the order of their first instances.
  SmallVector<SmallVector<np::ElementOp>> groups;
  llvm::StringMap<unsigned> groupOf;
  llvm::DenseSet<Operation *> seen;
  for (Operation *op : info.elementAt)
    if (seen.insert(op).second) {
      auto element = cast<np::ElementOp>(op);
      auto [it, fresh] =
          groupOf.try_emplace(codeKey(element, info), groups.size());
      if (fresh)
        groups.emplace_back();
      groups[it->second].push_back(element);
    }
  llvm::DenseMap<Operation *, np::ElementOp> keptFor;
  for (auto &members : groups) {
    np::ElementOp kept = members.front();
    for (np::ElementOp m : members)
      keptFor[m] = kept;
    if (members.size() == 1)
      continue;
    NPLoweringInfo::Element &e = info.elements[kept];
    unsigned first = e.instances.front();
    renamePrefix(e, "npcc_" + std::to_string(first) + "_" +
                        np::sanitizeIdentifier(kept.getSourceName()));
    for (np::ElementOp m : ArrayRef(members).drop_front())
      llvm::append_range(e.instances, info.elements[m].instances);
    llvm::sort(e.instances);
  }

  // Each fused send of kept code: one callee for all its members, or the
  // link's.
  for (auto &members : groups) {
    SmallVector<SmallVector<np::FusedSendOp>> sends;
    for (np::ElementOp m : members)
      sends.push_back(fusedSends(m));
    for (auto [k, send] : llvm::enumerate(sends.front())) {
      std::optional<std::string> callee;
      bool same = true;
      SymbolRefAttr kept;
      for (auto &memberSends : sends) {
        SymbolRefAttr target = memberSends[k].getTarget();
        auto to = keptFor.at(symbols.lookup<np::ElementOp>(
            target.getRootReference().getValue()));
        std::string fn = info.elements.at(to).pushFns.at(
            target.getLeafReference().getValue().str());
        if (!kept)
          kept = SymbolRefAttr::get(
              to.getSymNameAttr(),
              ArrayRef<FlatSymbolRefAttr>{
                  FlatSymbolRefAttr::get(target.getLeafReference())});
        same &= !callee || *callee == fn;
        callee = fn;
      }
      // The kept element names a consumer that stays, so the IR verifies
      // until the conversion replaces the send.
      send.setTargetAttr(kept);
      if (same)
        info.fusedCallee[send] = *callee;
      else
        info.indirectSends.insert(send);
    }
  }

  SmallVector<Attribute> elements;
  for (Operation *&op : info.elementAt) {
    op = keptFor.at(op);
    elements.push_back(
        FlatSymbolRefAttr::get(cast<np::ElementOp>(op).getSymNameAttr()));
  }
  program.setElementsAttr(ArrayAttr::get(module.getContext(), elements));
  for (auto &members : groups)
    for (np::ElementOp m : ArrayRef(members).drop_front()) {
      forgetElement(m, info);
      symbols.erase(m);
    }
  module.walk([&](np::CallPushOp call) {
    auto element = call->getParentOfType<np::ElementOp>();
    info.callPushCallee[call] =
        info.elements.at(element).pushFns.at(call.getPort().str());
  });
  // A struct of shared state is declared with the first element, in the
  // module, of its source name; that one may be gone.
  for (auto [k, sh] : llvm::enumerate(info.shared))
    for (auto element : module.getOps<np::ElementOp>())
      if (info.elements.at(element).shared == (int)k) {
        sh.declarer = element;
        break;
      }
}

/// The size (operations) from which a handler calls its push body rather
/// than repeat it. The C compiler inlines a push body called from one
/// place into its sender; called from two it keeps a function, and the
/// call costs every packet on the path 10 to 20 instructions (callgrind,
/// router.click). Below this size repeating the code costs the compiler
/// little; above, the call is small beside the body (CheckIPHeader,
/// IPGWOptions and IPFragmenter in the IPv4 router, a third of its C).
constexpr unsigned kCallPushMinOps = 500;

void npcc::c::callPushBodiesFromHandlers(ModuleOp module) {
  for (auto element : module.getOps<np::ElementOp>()) {
    np::HandlerOp handler = element.getHandler();
    if (!handler)
      continue;
    Block &body = *handler.getBody();
    // The receive, and before it only what nothing else can see: pure
    // operations, and local variables (allocas) with their first values.
    // Those run after the receive in the push body, and nothing can tell.
    np::RecvOp recv;
    llvm::SmallPtrSet<Value, 8> locals;
    for (Operation &op : body) {
      if ((recv = dyn_cast<np::RecvOp>(op)))
        break;
      if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        locals.insert(alloca.getResult());
        continue;
      }
      auto store = dyn_cast<memref::StoreOp>(op);
      if (!isPure(&op) && !(store && locals.contains(store.getMemref())))
        break;
    }
    if (!recv || body.getNumArguments() != 1 ||
        !isa<np::SelfType>(body.getArgument(0).getType()))
      continue;
    np::PushOp push;
    for (auto p : element.getBody()->getOps<np::PushOp>())
      if (p.getPort() == recv.getPort())
        push = p;
    if (!push || push.getValue().getType() != recv.getType())
      continue;
    unsigned size = 0;
    push.walk([&](Operation *) { ++size; });
    if (size < kCallPushMinOps)
      continue;
    // Everything but the receive and the terminator goes; uses of the
    // pure operations before the receive are all after it.
    OpBuilder b(recv->getNextNode());
    b.create<np::CallPushOp>(recv.getLoc(), recv.getPortAttr(),
                             body.getArgument(0), recv.getResult());
    Operation *call = recv->getNextNode();
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (&op != recv && &op != call && !op.hasTrait<OpTrait::IsTerminator>())
        op.erase();
  }
}
