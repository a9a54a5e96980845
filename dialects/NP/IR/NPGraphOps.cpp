//===- NPGraphOps.cpp - graphs, instances and connections -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Checks that run over a whole graph (ends of connections, one producer and
// one consumer per channel, every port connected, no recursive graphs) run
// in GraphOp::verifySymbolUses: at that point the module and every element
// and graph it holds have been verified.
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace npcc::np;

//===----------------------------------------------------------------------===//
// InstanceOp
//===----------------------------------------------------------------------===//

Operation *InstanceOp::resolveCallee(SymbolTableCollection &symbols) {
  auto module = (*this)->getParentOfType<ModuleOp>();
  if (!module)
    return nullptr;
  Operation *callee = symbols.lookupSymbolIn(module, getCalleeAttr());
  return isa_and_nonnull<ElementOp, GraphOp>(callee) ? callee : nullptr;
}

LogicalResult InstanceOp::verify() {
  StringRef placement = getPlacement();
  if (placement != "npu" && placement != "fpga" && placement != "host")
    return emitOpError() << "placement must be 'npu', 'fpga' or 'host', "
                            "found '"
                         << placement << "'";
  return success();
}

LogicalResult InstanceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (resolveCallee(symbolTable))
    return success();
  auto module = (*this)->getParentOfType<ModuleOp>();
  Operation *callee =
      module ? symbolTable.lookupSymbolIn(module, getCalleeAttr()) : nullptr;
  if (!callee)
    return emitOpError() << "no element or graph named '" << getCallee() << "'";
  InFlightDiagnostic diag = emitOpError()
                            << "'" << getCallee()
                            << "' is not an 'np.element' or 'np.graph'";
  diag.attachNote(callee->getLoc()) << "declared here";
  return diag;
}

//===----------------------------------------------------------------------===//
// ConnectOp
//===----------------------------------------------------------------------===//

LogicalResult ConnectOp::verify() {
  for (SymbolRefAttr end : {getSrc(), getDst()})
    if (end.getNestedReferences().size() > 1)
      return emitOpError() << "end " << end
                           << " must be '@instance::@port' or '@port'";
  int64_t depth = getDepthAttr().getInt();
  if (depth < 0)
    return emitOpError() << "depth must not be negative, found " << depth;
  if (getFused() && getLossy())
    return emitOpError() << "cannot be both lossy and fused: a lossy channel "
                            "drops when full";
  return success();
}

//===----------------------------------------------------------------------===//
// Fused channels (np.connect fused, np.program rows)
//===----------------------------------------------------------------------===//

namespace {
/// How an element sends on each of its output ports, collected once per
/// element: whether with np.send, and the np.fused_send ops.
class SendSites {
public:
  struct Port {
    Operation *plain = nullptr;
    SmallVector<FusedSendOp, 1> fused;
  };
  Port &get(ElementOp element, StringRef port) {
    auto [it, fresh] = byElement.try_emplace(element);
    if (fresh)
      element.walk([&](Operation *op) {
        if (auto s = dyn_cast<SendOp>(op))
          it->second[s.getPort()].plain = op;
        else if (auto f = dyn_cast<FusedSendOp>(op))
          it->second[f.getPort()].fused.push_back(f);
      });
    return it->second[port];
  }

private:
  llvm::DenseMap<Operation *, llvm::StringMap<Port>> byElement;
};
} // namespace

/// A channel from `out` of element `src` to `in` of element `dst` (null: not
/// an element) is fused exactly when `src` sends on it only by np.fused_send
/// to `dst`'s push body for `in`. `what` starts the message: "is", or
/// "channel 3 is".
static LogicalResult verifyFusion(Operation *at, const Twine &what,
                                  SendSites &sites, ElementOp src, PortOp out,
                                  ElementOp dst, PortOp in, bool fused) {
  SendSites::Port &sends = sites.get(src, out.getSymName());
  if (!fused) {
    if (sends.fused.empty())
      return success();
    InFlightDiagnostic diag = at->emitOpError()
                              << what << " not fused, but element '"
                              << src.getSymName() << "' sends on '"
                              << out.getSymName() << "' with 'np.fused_send'";
    diag.attachNote(sends.fused.front().getLoc()) << "sent here";
    return diag;
  }
  if (!dst)
    return at->emitOpError() << what
                             << " fused, but its destination is not a port "
                                "of an element instance";
  bool hasPush = llvm::any_of(dst.getBody()->getOps<PushOp>(), [&](PushOp p) {
    return p.getPort() == in.getSymName();
  });
  if (!hasPush) {
    InFlightDiagnostic diag =
        at->emitOpError() << what << " fused, but element '" << dst.getSymName()
                          << "' has no 'np.push' body for port '"
                          << in.getSymName() << "'";
    diag.attachNote(dst.getLoc()) << "element declared here";
    return diag;
  }
  if (sends.plain) {
    InFlightDiagnostic diag = at->emitOpError()
                              << what << " fused, but element '"
                              << src.getSymName() << "' sends on '"
                              << out.getSymName() << "' with 'np.send'";
    diag.attachNote(sends.plain->getLoc()) << "sent here";
    return diag;
  }
  for (FusedSendOp f : sends.fused) {
    if (f.getTarget().getRootReference() == dst.getSymNameAttr() &&
        f.getTarget().getLeafReference().getValue() == in.getSymName())
      continue;
    InFlightDiagnostic diag =
        at->emitOpError() << what << " fused to '" << dst.getSymName()
                          << "::" << in.getSymName()
                          << "', but an 'np.fused_send' on '"
                          << out.getSymName() << "' calls " << f.getTarget();
    diag.attachNote(f.getLoc()) << "sent here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    bool top) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  if (top)
    state.addAttribute(getTopAttrName(state.name), builder.getUnitAttr());
  state.addRegion()->emplaceBlock();
}

PortOp GraphOp::lookupPort(StringRef name) {
  return dyn_cast_or_null<PortOp>(
      mlir::SymbolTable::lookupSymbolIn(getOperation(), name));
}

LogicalResult GraphOp::resolveEnd(SymbolRefAttr end,
                                  SymbolTableCollection &symbols,
                                  InstanceOp &instance, PortOp &port) {
  instance = {};
  port = {};
  if (end.getNestedReferences().empty()) {
    port = dyn_cast_or_null<PortOp>(
        symbols.lookupSymbolIn(*this, end.getRootReference()));
    return success(port != nullptr);
  }
  if (end.getNestedReferences().size() != 1)
    return failure();
  instance = dyn_cast_or_null<InstanceOp>(
      symbols.lookupSymbolIn(*this, end.getRootReference()));
  if (!instance)
    return failure();
  Operation *callee = instance.resolveCallee(symbols);
  if (!callee)
    return failure();
  port = dyn_cast_or_null<PortOp>(
      symbols.lookupSymbolIn(callee, end.getLeafReference()));
  return success(port != nullptr);
}

LogicalResult GraphOp::verify() {
  for (Operation &op : *getBody()) {
    if (isa<PortOp, InstanceOp, ConnectOp>(op))
      continue;
    InFlightDiagnostic diag = emitOpError()
                              << "may contain only 'np.port', 'np.instance' "
                                 "and 'np.connect', found '"
                              << op.getName() << "'";
    diag.attachNote(op.getLoc()) << "found here";
    return diag;
  }
  return success();
}

/// `inst.port` for an instance port, `port` for a boundary port.
static std::string endName(InstanceOp instance, PortOp port) {
  if (!instance)
    return port.getSymName().str();
  return (instance.getSymName() + "." + port.getSymName()).str();
}

namespace {
/// Finds instantiation cycles through graph instances.
struct CycleFinder {
  SymbolTableCollection &symbols;
  GraphOp root;
  llvm::DenseSet<Operation *> visited;
  SmallVector<InstanceOp> path;

  /// Returns true when `graph` reaches `root`; `path` then holds the
  /// instances along the cycle.
  bool reachesRoot(GraphOp graph) {
    for (InstanceOp inst : graph.getBody()->getOps<InstanceOp>()) {
      auto callee = dyn_cast_or_null<GraphOp>(inst.resolveCallee(symbols));
      if (!callee)
        continue;
      path.push_back(inst);
      if (callee == root ||
          (visited.insert(callee).second && reachesRoot(callee)))
        return true;
      path.pop_back();
    }
    return false;
  }
};
} // namespace

static LogicalResult verifyNoRecursion(GraphOp graph,
                                       SymbolTableCollection &symbols) {
  CycleFinder finder{symbols, graph, {}, {}};
  if (!finder.reachesRoot(graph))
    return success();
  SmallString<64> cycle("'" + graph.getSymName().str() + "'");
  for (InstanceOp inst : finder.path)
    cycle += (" -> '" + inst.getCallee() + "'").str();
  InFlightDiagnostic diag = graph.emitOpError() << "instantiates itself";
  diag.attachNote(finder.path.front().getLoc())
      << "through this instance: " << cycle;
  return diag;
}

LogicalResult GraphOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(verifyNoRecursion(*this, symbols)))
    return failure();

  // The connection that uses each (instance or graph, port) pair.
  llvm::DenseMap<std::pair<Operation *, Operation *>, ConnectOp> users;
  SendSites sends;
  for (ConnectOp connect : getBody()->getOps<ConnectOp>()) {
    InstanceOp ends[2];
    PortOp ports[2];
    for (int i = 0; i < 2; ++i) {
      SymbolRefAttr end = i == 0 ? connect.getSrc() : connect.getDst();
      if (succeeded(resolveEnd(end, symbols, ends[i], ports[i])))
        continue;
      if (!end.getNestedReferences().empty() && !ends[i])
        return connect.emitOpError()
               << "graph '" << getSymName() << "' has no instance named '"
               << end.getRootReference().getValue() << "'";
      if (ends[i]) {
        InFlightDiagnostic diag = connect.emitOpError()
                                  << "'" << ends[i].getCallee()
                                  << "' has no port named '"
                                  << end.getLeafReference().getValue() << "'";
        diag.attachNote(ends[i].getLoc()) << "instance declared here";
        return diag;
      }
      return connect.emitOpError()
             << "graph '" << getSymName() << "' has no boundary port named '"
             << end.getRootReference().getValue() << "'";
    }

    // A source produces into the channel, a destination consumes from it.
    for (int i = 0; i < 2; ++i) {
      bool producesInside = ends[i] ? ports[i].isOutput() : ports[i].isInput();
      if (producesInside == (i == 0))
        continue;
      InFlightDiagnostic diag =
          connect.emitOpError()
          << (i == 0 ? "source '" : "destination '")
          << endName(ends[i], ports[i])
          << (i == 0 ? "' must be an output port of an instance or an input "
                       "boundary port"
                     : "' must be an input port of an instance or an output "
                       "boundary port");
      diag.attachNote(ports[i].getLoc()) << "declared here";
      return diag;
    }

    if (ports[0].getType() != ports[1].getType()) {
      InFlightDiagnostic diag =
          connect.emitOpError()
          << "connection from '" << endName(ends[0], ports[0]) << "' of type "
          << ports[0].getType() << " to '" << endName(ends[1], ports[1])
          << "' of type " << ports[1].getType();
      diag.attachNote(ports[0].getLoc()) << "declared here";
      diag.attachNote(ports[1].getLoc()) << "declared here";
      return diag;
    }

    // The element at each end, if it is an element instance.
    ElementOp elements[2];
    for (int i = 0; i < 2; ++i)
      if (ends[i])
        elements[i] = dyn_cast<ElementOp>(ends[i].resolveCallee(symbols));
    if (elements[0] &&
        failed(verifyFusion(connect, "is", sends, elements[0], ports[0],
                            elements[1], ports[1], connect.getFused())))
      return failure();
    if (!elements[0] && connect.getFused())
      return connect.emitOpError()
             << "is fused, but its source is not a port of an element "
                "instance";

    for (int i = 0; i < 2; ++i) {
      Operation *owner = ends[i] ? ends[i].getOperation() : getOperation();
      auto [it, inserted] = users.try_emplace({owner, ports[i]}, connect);
      if (inserted)
        continue;
      InFlightDiagnostic diag = connect.emitOpError()
                                << "port '" << endName(ends[i], ports[i])
                                << "' is already connected";
      diag.attachNote(it->second.getLoc()) << "first connection here";
      return diag;
    }
  }

  // Every port of every instance and every boundary port is connected.
  for (Operation &op : *getBody()) {
    if (auto port = dyn_cast<PortOp>(op)) {
      if (users.count({getOperation(), port}))
        continue;
      return port.emitOpError()
             << (port.isInput() ? "input" : "output") << " boundary port '"
             << port.getSymName() << "' of graph '" << getSymName()
             << "' is not connected";
    }
    auto inst = dyn_cast<InstanceOp>(op);
    if (!inst)
      continue;
    Operation *callee = inst.resolveCallee(symbols);
    assert(callee && "InstanceOp::verifySymbolUses checked the callee");
    for (PortOp port : callee->getRegion(0).getOps<PortOp>()) {
      if (users.count({inst, port}))
        continue;
      InFlightDiagnostic diag = inst.emitOpError()
                                << (port.isInput() ? "input" : "output")
                                << " port '" << port.getSymName()
                                << "' of instance '" << inst.getSymName()
                                << "' is not connected";
      diag.attachNote(port.getLoc()) << "declared here";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

ProgramOp::Channel ProgramOp::getChannel(unsigned i) {
  ArrayRef<int64_t> row =
      cast<DenseI64ArrayAttr>(getChannels()[i]).asArrayRef();
  return {(uint32_t)row[0], (uint32_t)row[1], (uint32_t)row[2],
          (uint32_t)row[3], (uint32_t)row[4], row[5] != 0,
          row[6] != 0};
}

LogicalResult ProgramOp::verify() {
  size_t n = getElements().size();
  if (getNames().size() != n || getPlacements().size() != n)
    return emitOpError() << "has " << n << " elements but " << getNames().size()
                         << " names and " << getPlacements().size()
                         << " placements";
  llvm::StringSet<> names;
  for (auto [i, name] :
       llvm::enumerate(getNames().getAsValueRange<StringAttr>()))
    if (!names.insert(name).second)
      return emitOpError() << "instance name '" << name << "' is used twice";
  for (StringRef p : getPlacements().getAsValueRange<StringAttr>())
    if (p != "npu" && p != "fpga" && p != "host")
      return emitOpError() << "placement must be 'npu', 'fpga' or 'host', "
                              "found '"
                           << p << "'";
  for (auto [i, attr] : llvm::enumerate(getChannels())) {
    ArrayRef<int64_t> row = cast<DenseI64ArrayAttr>(attr).asArrayRef();
    if (row.size() != 7)
      return emitOpError() << "channel " << i << " has " << row.size()
                           << " fields, expected 7 (src, src_port, dst, "
                              "dst_port, depth, lossy, fused)";
    for (int64_t v : row)
      if (v < 0 || v > UINT32_MAX)
        return emitOpError()
               << "channel " << i << " has field " << v << " outside [0, 2^32)";
    if ((size_t)row[0] >= n || (size_t)row[2] >= n)
      return emitOpError() << "channel " << i << " refers to instance "
                           << std::max(row[0], row[2]) << " of " << n;
    if (row[5] > 1)
      return emitOpError() << "channel " << i << " has lossy flag " << row[5]
                           << ", expected 0 or 1";
    if (row[6] > 1)
      return emitOpError() << "channel " << i << " has fused flag " << row[6]
                           << ", expected 0 or 1";
    if (row[5] && row[6])
      return emitOpError() << "channel " << i
                           << " is both lossy and fused: a lossy channel "
                              "drops when full";
  }
  return success();
}

LogicalResult ProgramOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto module = (*this)->getParentOfType<ModuleOp>();
  SmallVector<ElementOp> elements;
  SmallVector<SmallVector<PortOp>> ins, outs;
  llvm::DenseSet<Attribute> seen;
  for (auto ref : getElements().getAsRange<FlatSymbolRefAttr>()) {
    auto element =
        dyn_cast_or_null<ElementOp>(symbols.lookupSymbolIn(module, ref));
    if (!element)
      return emitOpError() << "'" << ref.getValue()
                           << "' does not name an 'np.element'";
    if (!seen.insert(ref).second)
      return emitOpError() << "element '" << ref.getValue()
                           << "' is used by two instances; run "
                              "np-instantiate-elements first";
    elements.push_back(element);
    auto &in = ins.emplace_back();
    auto &out = outs.emplace_back();
    for (auto port : element.getBody()->getOps<PortOp>())
      (port.isInput() ? in : out).push_back(port);
  }
  llvm::DenseSet<std::pair<unsigned, unsigned>> usedIn, usedOut;
  SendSites sends;
  for (unsigned i = 0, e = getChannels().size(); i < e; ++i) {
    Channel c = getChannel(i);
    if (c.srcPort >= outs[c.src].size() || c.dstPort >= ins[c.dst].size())
      return emitOpError()
             << "channel " << i << " refers to a port that "
             << "instance '"
             << cast<StringAttr>(
                    getNames()[c.srcPort >= outs[c.src].size() ? c.src : c.dst])
                    .getValue()
             << "' does not have";
    PortOp src = outs[c.src][c.srcPort], dst = ins[c.dst][c.dstPort];
    if (src.getType() != dst.getType())
      return emitOpError() << "channel " << i << " connects a port of type "
                           << src.getType() << " to one of type "
                           << dst.getType();
    if (!usedOut.insert({c.src, c.srcPort}).second ||
        !usedIn.insert({c.dst, c.dstPort}).second)
      return emitOpError() << "channel " << i
                           << " uses a port that another channel uses";
    if (failed(verifyFusion(*this, "channel " + Twine(i) + " is", sends,
                            elements[c.src], src, elements[c.dst], dst,
                            c.fused)))
      return failure();
  }
  return success();
}
