//===- LowerNPToRuntime.cpp - instances to functions calling libnprt -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/c/Passes.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace npcc::c {
#define GEN_PASS_DEF_LOWERNPTORUNTIME
#include "targets/c/Passes.h.inc"
} // namespace npcc::c

using namespace mlir;
namespace np = npcc::np;

namespace {

/// Per instance: the C name prefix and the index of each port within its
/// direction, which is what the runtime's port arguments count.
struct InstanceInfo {
  std::string prefix;
  llvm::StringMap<unsigned> portIndex;
  llvm::SmallVector<std::string> inPorts, outPorts;
};

std::string sanitize(llvm::StringRef s) {
  std::string out;
  for (char c : s)
    out.push_back(std::isalnum((unsigned char)c) ? c : '_');
  return out;
}

std::string cString(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

class Lowering {
public:
  Lowering(ModuleOp module) : module(module), b(module.getContext()) {
    ctx = module.getContext();
    pktType = emitc::PointerType::get(emitc::OpaqueType::get(ctx, "nprt_pkt"));
    selfType =
        emitc::PointerType::get(emitc::OpaqueType::get(ctx, "nprt_inst"));
  }

  LogicalResult run();

private:
  LogicalResult lowerInstance(np::InstanceOp inst, np::ElementOp element,
                              InstanceInfo &info);
  func::FuncOp cloneBody(Region &body, StringRef name, bool isSignal,
                         InstanceInfo &info, Location loc);
  LogicalResult lowerOp(Operation *op, Value self, InstanceInfo &info);
  Value call(Location loc, StringRef callee, Type result, ValueRange operands,
             llvm::ArrayRef<Attribute> args);
  Attribute idx(unsigned i) { return b.getIndexAttr(i); }
  Attribute lit(uint64_t v) {
    return emitc::OpaqueAttr::get(ctx, std::to_string(v));
  }
  Attribute text(StringRef s) { return emitc::OpaqueAttr::get(ctx, s); }
  Value widen(Location loc, Value v) {
    if (v.getType().getIntOrFloatBitWidth() == 64)
      return v;
    return b.create<arith::ExtUIOp>(loc, b.getI64Type(), v);
  }
  Value narrow(Location loc, Value v, Type to) {
    if (to.getIntOrFloatBitWidth() == 64)
      return v;
    return b.create<arith::TruncIOp>(loc, to, v);
  }
  unsigned port(InstanceInfo &info, StringRef name) {
    return info.portIndex.lookup(name);
  }

  ModuleOp module;
  OpBuilder b;
  MLIRContext *ctx;
  Type pktType, selfType;
};

} // namespace

Value Lowering::call(Location loc, StringRef callee, Type result,
                     ValueRange operands, llvm::ArrayRef<Attribute> args) {
  TypeRange results = result ? TypeRange(result) : TypeRange();
  auto op = b.create<emitc::CallOpaqueOp>(
      loc, results, b.getStringAttr(callee), operands,
      args.empty() ? ArrayAttr() : b.getArrayAttr(args), ArrayAttr());
  return result ? op.getResult(0) : Value();
}

func::FuncOp Lowering::cloneBody(Region &body, StringRef name, bool isSignal,
                                 InstanceInfo &info, Location loc) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(module.getBody(), module.getBody()->end());
  SmallVector<Type> args = {selfType};
  if (isSignal)
    args.push_back(b.getI64Type());
  auto fn = b.create<func::FuncOp>(loc, name, b.getFunctionType(args, {}));
  fn.setPrivate();
  Block *entry = fn.addEntryBlock();
  IRMapping map;
  if (isSignal)
    map.map(body.front().getArgument(0), entry->getArgument(1));
  b.setInsertionPointToStart(entry);
  for (Operation &op : body.front().without_terminator())
    b.clone(op, map);
  b.create<func::ReturnOp>(loc);
  return fn;
}

LogicalResult Lowering::lowerOp(Operation *op, Value self, InstanceInfo &info) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  auto replace = [&](ValueRange vals) {
    op->replaceAllUsesWith(vals);
    op->erase();
    return success();
  };
  if (auto r = dyn_cast<np::StateRefOp>(op)) {
    Value g = b.create<memref::GetGlobalOp>(
        loc, r.getType(), info.prefix + "__" + sanitize(r.getState()));
    return replace(g);
  }
  if (auto r = dyn_cast<np::RecvOp>(op)) {
    Type t = r.getType();
    unsigned p = port(info, r.getPort());
    if (isa<np::PacketType>(t))
      return replace(
          call(loc, "nprt_recv_pkt", pktType, self, {idx(0), lit(p)}));
    Value v =
        call(loc, "nprt_recv_val", b.getI64Type(), self, {idx(0), lit(p)});
    return replace(narrow(loc, v, t));
  }
  if (auto r = dyn_cast<np::TryRecvOp>(op)) {
    unsigned p = port(info, r.getPort());
    Value ok = call(loc, "nprt_poll", b.getI1Type(), self, {idx(0), lit(p)});
    Type t = r.getValue().getType();
    Value v;
    if (isa<np::PacketType>(t))
      v = call(loc, "nprt_try_recv_pkt", pktType, self, {idx(0), lit(p)});
    else
      v = narrow(loc,
                 call(loc, "nprt_try_recv_val", b.getI64Type(), self,
                      {idx(0), lit(p)}),
                 t);
    return replace({ok, v});
  }
  if (auto s = dyn_cast<np::SendOp>(op)) {
    unsigned p = port(info, s.getPort());
    Value v = s.getValue();
    // The producer may already have been rewritten to a runtime pointer.
    if (isa<np::PacketType, emitc::PointerType>(v.getType()))
      call(loc, "nprt_send_pkt", nullptr, {self, v}, {idx(0), lit(p), idx(1)});
    else
      call(loc, "nprt_send_val", nullptr, {self, widen(loc, v)},
           {idx(0), lit(p), idx(1)});
    return replace({});
  }
  if (auto s = dyn_cast<np::SelectOp>(op)) {
    uint64_t mask = 0;
    SmallVector<unsigned> indices;
    for (Attribute a : s.getPorts()) {
      unsigned p = port(info, cast<FlatSymbolRefAttr>(a).getValue());
      indices.push_back(p);
      mask |= 1ull << p;
    }
    Value r = call(loc, "nprt_select", b.getI32Type(), self,
                   {idx(0), text(std::to_string(mask) + "ull")});
    // The runtime answers with a port index; np.select with a position.
    Value pos = b.create<arith::ConstantIntOp>(loc, 0, 32);
    for (unsigned k = 1; k < indices.size(); ++k) {
      Value is = b.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, r,
          b.create<arith::ConstantIntOp>(loc, indices[k], 32));
      pos = b.create<arith::SelectOp>(
          loc, is, b.create<arith::ConstantIntOp>(loc, k, 32), pos);
    }
    return replace(pos);
  }
  if (auto d = dyn_cast<np::DropOp>(op)) {
    call(loc, "nprt_drop", nullptr, {self, d->getOperand(0)}, {});
    return replace({});
  }
  if (auto c = dyn_cast<np::CloneOp>(op))
    return replace(
        call(loc, "nprt_clone", pktType, {self, c->getOperand(0)}, {}));
  if (auto n = dyn_cast<np::PktNewOp>(op))
    return replace(call(loc, "nprt_pkt_new", pktType, {self, n.getLen()}, {}));
  if (auto d = dyn_cast<np::DeviceRecvOp>(op))
    return replace(
        call(loc, "nprt_device_recv", pktType, {self, d.getDev()}, {}));
  if (auto d = dyn_cast<np::DeviceSendOp>(op)) {
    call(loc, "nprt_device_send", nullptr,
         {self, d->getOperand(0), d->getOperand(1)}, {});
    return replace({});
  }
  if (auto l = dyn_cast<np::PktLenOp>(op))
    return replace(
        call(loc, "nprt_pkt_len", b.getI32Type(), l->getOperand(0), {}));
  if (auto g = dyn_cast<np::PktGetOp>(op)) {
    Value v = call(loc, "nprt_pkt_get_bits", b.getI64Type(),
                   {g->getOperand(0), g->getOperand(1)},
                   {idx(0), idx(1), lit(g.getBit()), lit(g.getWidth())});
    return replace(narrow(loc, v, g.getType()));
  }
  if (auto s = dyn_cast<np::PktSetOp>(op)) {
    call(loc, "nprt_pkt_set_bits", nullptr,
         {s->getOperand(0), s->getOperand(1), widen(loc, s->getOperand(2))},
         {idx(0), idx(1), lit(s.getBit()), lit(s.getWidth()), idx(2)});
    return replace({});
  }
  auto metaField = [&](StringRef f) -> Attribute {
    return text(llvm::StringSwitch<StringRef>(f)
                    .Case("in_port", "NPRT_META_IN_PORT")
                    .Case("paint", "NPRT_META_PAINT")
                    .Case("out_port", "NPRT_META_OUT_PORT")
                    .Default("NPRT_META_ANNO"));
  };
  if (auto m = dyn_cast<np::MetaGetOp>(op)) {
    Value v = call(loc, "nprt_pkt_get_meta", b.getI64Type(), m->getOperand(0),
                   {idx(0), metaField(m.getField())});
    return replace(narrow(loc, v, m.getType()));
  }
  if (auto m = dyn_cast<np::MetaSetOp>(op)) {
    call(loc, "nprt_pkt_set_meta", nullptr,
         {m->getOperand(0), widen(loc, m->getOperand(1))},
         {idx(0), metaField(m.getField()), idx(1)});
    return replace({});
  }
  if (auto p = dyn_cast<np::PktPullOp>(op))
    return replace(call(loc, "nprt_pkt_pull", b.getI1Type(),
                        {p->getOperand(0), p->getOperand(1)}, {}));
  if (auto p = dyn_cast<np::PktPushOp>(op))
    return replace(call(loc, "nprt_pkt_push", b.getI1Type(),
                        {p->getOperand(0), p->getOperand(1)}, {}));
  if (auto t = dyn_cast<np::PktTruncateOp>(op)) {
    call(loc, "nprt_pkt_truncate", nullptr,
         {t->getOperand(0), t->getOperand(1)}, {});
    return replace({});
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "np")
    return op->emitOpError("has no lowering to the C runtime");
  return success();
}

LogicalResult Lowering::lowerInstance(np::InstanceOp inst,
                                      np::ElementOp element,
                                      InstanceInfo &info) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(module.getBody(), module.getBody()->end());
  for (Operation &op : element.getBodyRegion().front()) {
    if (auto p = dyn_cast<np::PortOp>(op)) {
      auto &list = p.isInput() ? info.inPorts : info.outPorts;
      info.portIndex[p.getSymName()] = list.size();
      list.push_back(p.getSymName().str());
    } else if (auto s = dyn_cast<np::StateOp>(op)) {
      Attribute init = s.getInitialValueAttr();
      if (!init)
        init = b.getUnitAttr(); // zero-initialised static storage
      b.create<memref::GlobalOp>(
          s.getLoc(),
          b.getStringAttr(info.prefix + "__" + sanitize(s.getSymName())),
          b.getStringAttr("private"), s.getMemRefType(), init,
          /*constant=*/false, /*alignment=*/IntegerAttr());
    }
  }
  auto lowerBody = [&](Operation *bodyOp, StringRef suffix, bool isSignal) {
    if (!bodyOp)
      return success();
    auto fn = cloneBody(bodyOp->getRegion(0), info.prefix + "_" + suffix.str(),
                        isSignal, info, bodyOp->getLoc());
    Value self = fn.getArgument(0);
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops)
      if (failed(lowerOp(op, self, info)))
        return failure();
    return success();
  };
  if (failed(lowerBody(element.getInit(), "init", false)) ||
      failed(lowerBody(element.getHandler(), "handler", false)) ||
      failed(lowerBody(element.getSignal(), "signal", true)))
    return failure();
  (void)inst;
  return success();
}

LogicalResult Lowering::run() {
  np::GraphOp top;
  for (auto g : module.getOps<np::GraphOp>())
    if (g->hasAttr("top"))
      top = g;
  if (!top)
    return module.emitError("no top-level graph to compile; declare a graph "
                            "without parameters that no other graph uses");

  // One symbol table for the module: ModuleOp::lookupSymbol scans the
  // whole module on every call.
  SymbolTable symbols(module);
  std::vector<std::pair<np::InstanceOp, InstanceInfo>> instances;
  unsigned k = 0;
  for (auto inst : top.getBodyRegion().getOps<np::InstanceOp>()) {
    auto element = symbols.lookup<np::ElementOp>(inst.getCallee());
    if (!element)
      return inst.emitOpError("is not an element instance; run "
                              "np-flatten-graph first");
    InstanceInfo info;
    info.prefix =
        "npcc_" + std::to_string(k++) + "_" + sanitize(inst.getSymName());
    if (failed(lowerInstance(inst, element, info)))
      return failure();
    instances.emplace_back(inst, std::move(info));
  }

  // The graph builder registers instances in order: their ids are 0..n-1.
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(module.getBody(), module.getBody()->end());
  Location loc = top.getLoc();
  auto graphType =
      emitc::PointerType::get(emitc::OpaqueType::get(ctx, "nprt_graph"));
  auto build = b.create<func::FuncOp>(loc, "npcc_build_graph",
                                      b.getFunctionType({graphType}, {}));
  build.setPrivate();
  Block *entry = build.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value graph = entry->getArgument(0);
  llvm::StringMap<unsigned> ids;
  for (auto &[inst, info] : instances) {
    ids[inst.getSymName()] = ids.size();
    auto element = symbols.lookup<np::ElementOp>(inst.getCallee());
    auto fnOrNull = [&](Operation *body, StringRef suffix) {
      return text(body ? info.prefix + "_" + suffix.str() : "NULL");
    };
    StringRef elementName =
        element.getOrigin() ? *element.getOrigin() : element.getSymName();
    call(inst.getLoc(), "nprt_graph_add_instance", nullptr, graph,
         {idx(0), text(cString(inst.getSymName())), text(cString(elementName)),
          text(cString(llvm::join(info.inPorts, ","))),
          text(cString(llvm::join(info.outPorts, ","))),
          fnOrNull(element.getInit(), "init"),
          fnOrNull(element.getHandler(), "handler"),
          fnOrNull(element.getSignal(), "signal"),
          text(cString(inst.getPlacement()))});
  }
  auto portOf = [&](SymbolRefAttr ref, unsigned &inst, unsigned &port) {
    inst = ids.lookup(ref.getRootReference());
    auto &info = instances[inst].second;
    port = info.portIndex.lookup(ref.getLeafReference());
  };
  for (auto c : top.getBodyRegion().getOps<np::ConnectOp>()) {
    unsigned si, sp, di, dp;
    portOf(c.getSrc(), si, sp);
    portOf(c.getDst(), di, dp);
    call(c.getLoc(), "nprt_graph_connect", nullptr, graph,
         {idx(0), lit(si), lit(sp), lit(di), lit(dp), lit(c.getDepth()),
          text(c.getLossy() ? "true" : "false")});
  }
  b.create<func::ReturnOp>(loc);

  // The top graph is erased below.
  std::string program = top.getSymName().str();

  // Packets are runtime pointers from here on.
  module.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (isa<np::PacketType>(v.getType()))
        v.setType(pktType);
    for (Region &r : op->getRegions())
      for (Block &blk : r)
        for (BlockArgument a : blk.getArguments())
          if (isa<np::PacketType>(a.getType()))
            a.setType(pktType);
  });
  for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
    if (isa<np::ElementOp, np::GraphOp>(op))
      op.erase();
  // State nothing reads or writes would be an unused static in C. One walk
  // collects the used names (a use query per global is quadratic).
  llvm::DenseSet<StringAttr> used;
  module.walk(
      [&](memref::GetGlobalOp g) { used.insert(g.getNameAttr().getAttr()); });
  for (auto g : llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (!used.contains(g.getSymNameAttr()))
      g.erase();

  b.setInsertionPointToStart(module.getBody());
  b.create<emitc::IncludeOp>(loc, "nprt/nprt.h", /*is_standard_include=*/false);
  b.setInsertionPoint(module.getBody(), module.getBody()->end());
  b.create<emitc::VerbatimOp>(
      loc, b.getStringAttr("int main(int argc, char **argv) {\n  return "
                           "nprt_main(argc, argv, " +
                           cString(program) + ", npcc_build_graph);\n}"));
  return success();
}

namespace {
struct LowerNPToRuntimePass
    : npcc::c::impl::LowerNPToRuntimeBase<LowerNPToRuntimePass> {
  void runOnOperation() override {
    if (failed(Lowering(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace
