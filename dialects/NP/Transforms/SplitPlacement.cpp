//===- SplitPlacement.cpp - one side of a host/FPGA placement -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/Passes.h"
#include "dialects/NP/Transforms/TopGraph.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

#include <set>

namespace npcc::np {
#define GEN_PASS_DEF_SPLITPLACEMENT
#include "dialects/NP/Transforms/Passes.h.inc"
} // namespace npcc::np

using namespace mlir;
using namespace npcc::np;

namespace {

/// ClickNP's PCIe I/O channel has 32 slots; two carry commands (CmdHub).
constexpr unsigned kMaxDataSlots = 30;

bool onHost(InstanceOp inst) { return inst.getPlacement() == "host"; }

/// The element of one end of slot `slot`: `tx` receives on its `i` port
/// and sends to output device `dev`, otherwise it receives from input
/// device `dev` and sends on its `o` port.
std::string slotElementText(StringRef name, bool tx, unsigned slot,
                            unsigned dev) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "np.element @" << name << " attributes {origin = \""
     << (tx ? "PCIeTx" : "PCIeRx") << "\", params = {slot = " << slot
     << " : i64}} {\n";
  if (tx)
    os << "  np.port @i in : !np.pkt\n  np.handler {\n"
          "    %p = np.recv @i : !np.pkt\n"
          "    %d = arith.constant "
       << dev << " : i32\n    np.device_send %d, %p {np.file}\n  }\n}\n";
  else
    os << "  np.port @o out : !np.pkt\n  np.handler {\n"
          "    %d = arith.constant "
       << dev
       << " : i32\n    %p = np.device_recv %d {np.file}\n"
          "    np.send @o, %p : !np.pkt\n  }\n}\n";
  return s;
}

struct SplitPlacementPass
    : npcc::np::impl::SplitPlacementBase<SplitPlacementPass> {
  using SplitPlacementBase::SplitPlacementBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (side != "host" && side != "fpga") {
      module.emitError() << "np-split-placement: side must be host or fpga, "
                            "not '"
                         << side << "'";
      return signalPassFailure();
    }
    GraphOp top = getFlatTopGraph(module);
    if (!top)
      return signalPassFailure();
    bool anyHost = false;
    for (InstanceOp inst : top.getBody()->getOps<InstanceOp>())
      anyHost |= onHost(inst);
    if (!anyHost)
      return;
    bool keepHost = side == "host";
    MLIRContext *ctx = module.getContext();
    Builder b(ctx);

    // Devices past all the program numbers or names, on both sides alike.
    unsigned base[2] = {0, 0}; // [output]
    module.walk([&](Operation *op) {
      if (!isa<DeviceRecvOp, DeviceSendOp>(op))
        return;
      bool output = isa<DeviceSendOp>(op);
      APInt v;
      if (matchPattern(op->getOperand(0), m_ConstantInt(&v)))
        base[output] = std::max<unsigned>(base[output], v.getZExtValue() + 1);
    });
    SmallVector<Attribute> devices;
    if (auto all = module->getAttrOfType<ArrayAttr>("np.devices"))
      for (Attribute a : all) {
        auto d = cast<DictionaryAttr>(a);
        bool output = cast<BoolAttr>(d.get("output")).getValue();
        base[output] = std::max<unsigned>(
            base[output], cast<IntegerAttr>(d.get("dev")).getInt() + 1);
        devices.push_back(a);
      }

    SymbolTable instances(top);
    SymbolTableCollection symbols;
    struct Cut {
      ConnectOp connect;
      bool fromHost;
    };
    SmallVector<Cut> cuts;
    for (ConnectOp c : top.getBody()->getOps<ConnectOp>()) {
      auto src = instances.lookup<InstanceOp>(c.getSrc().getRootReference());
      auto dst = instances.lookup<InstanceOp>(c.getDst().getRootReference());
      if (!src || !dst) {
        c.emitOpError("connects a boundary port; run np-flatten-graph first");
        return signalPassFailure();
      }
      if (onHost(src) == onHost(dst))
        continue;
      InstanceOp inst;
      PortOp port;
      if (failed(top.resolveEnd(c.getSrc(), symbols, inst, port)) || !port) {
        c.emitOpError("has a source that does not resolve");
        return signalPassFailure();
      }
      if (!isa<PacketType>(port.getType())) {
        c.emitError() << "the channel from '" << src.getSymName() << "' (@"
                      << src.getPlacement() << ") to '" << dst.getSymName()
                      << "' (@" << dst.getPlacement() << ") carries "
                      << port.getType()
                      << "; only packet channels can cross between host "
                         "and FPGA";
        return signalPassFailure();
      }
      cuts.push_back({c, onHost(src)});
    }
    if (cuts.size() > kMaxDataSlots) {
      cuts[kMaxDataSlots].connect.emitError()
          << "placement cuts " << cuts.size()
          << " channels between host and FPGA; the PCIe I/O channel has "
          << kMaxDataSlots << " data slots";
      return signalPassFailure();
    }

    SymbolTable moduleSymbols(module);
    OpBuilder ob(ctx);
    unsigned next[2] = {base[0], base[1]};
    for (auto [slot, cut] : llvm::enumerate(cuts)) {
      ConnectOp c = cut.connect;
      // This side sends into the channel when its source end is kept.
      bool tx = cut.fromHost == keepHost;
      unsigned dev = next[tx]++;
      std::string elem = (llvm::Twine("__") + (tx ? "PCIeTx" : "PCIeRx") + "_" +
                          llvm::Twine(slot))
                             .str();
      Block parsed;
      ParserConfig config(ctx);
      if (failed(parseSourceString(slotElementText(elem, tx, slot, dev),
                                   &parsed, config))) {
        c.emitOpError("cannot build the PCIe slot element");
        return signalPassFailure();
      }
      Operation *element = &parsed.front();
      element->remove();
      element->setLoc(c.getLoc());
      moduleSymbols.insert(element);
      std::string instName =
          (llvm::Twine(tx ? "pcie_tx" : "pcie_rx") + llvm::Twine(slot)).str();
      ob.setInsertionPoint(c);
      StringRef placement = keepHost ? "host" : "fpga";
      auto inst = ob.create<InstanceOp>(c.getLoc(), instName,
                                        moduleSymbols.getSymbolName(element),
                                        placement);
      inst->setAttr("args", ob.getArrayAttr({ob.getI64IntegerAttr(slot)}));
      auto end = SymbolRefAttr::get(
          ctx, instName, {FlatSymbolRefAttr::get(ctx, tx ? "i" : "o")});
      if (tx)
        c.setDstAttr(end);
      else
        c.setSrcAttr(end);
      SmallVector<NamedAttribute> device = {
          b.getNamedAttr("output", b.getBoolAttr(tx)),
          b.getNamedAttr("dev", b.getI32IntegerAttr(dev)),
          b.getNamedAttr("path",
                         b.getStringAttr("pcie-slot:" + std::to_string(slot))),
          b.getNamedAttr("define", b.getStringAttr("")),
          b.getNamedAttr("link_type", b.getI32IntegerAttr(0)),
          b.getNamedAttr("snaplen", b.getI32IntegerAttr(0)),
      };
      // The slot's sender is its only one: when it ends, the other side's
      // receiver of the slot can end too.
      if (tx)
        device.push_back(b.getNamedAttr("sender", b.getStringAttr(instName)));
      devices.push_back(b.getDictionaryAttr(device));
    }
    // On the host, the devices only the FPGA's instances use: named
    // "fpga-device", so that the host executable leaves their files to
    // the simulation it runs (the interpreter runs the whole graph with
    // the same --in and --out).
    if (keepHost) {
      std::set<std::pair<bool, unsigned>> used[2]; // [onHost]
      for (InstanceOp inst : top.getBody()->getOps<InstanceOp>()) {
        Operation *element =
            moduleSymbols.lookup(inst.getCalleeAttr().getValue());
        if (!element)
          continue;
        element->walk([&](Operation *op) {
          if (!isa<DeviceRecvOp, DeviceSendOp>(op))
            return;
          APInt v;
          if (matchPattern(op->getOperand(0), m_ConstantInt(&v)))
            used[onHost(inst)].insert(
                {isa<DeviceSendOp>(op), (unsigned)v.getZExtValue()});
        });
      }
      for (auto [output, dev] : used[false]) {
        if (used[true].count({output, dev}))
          continue;
        devices.push_back(b.getDictionaryAttr({
            b.getNamedAttr("output", b.getBoolAttr(output)),
            b.getNamedAttr("dev", b.getI32IntegerAttr(dev)),
            b.getNamedAttr("path", b.getStringAttr("fpga-device")),
            b.getNamedAttr("define", b.getStringAttr("")),
            b.getNamedAttr("link_type", b.getI32IntegerAttr(0)),
            b.getNamedAttr("snaplen", b.getI32IntegerAttr(0)),
        }));
      }
    }
    // The other side's instances and the channels among them go.
    for (Operation &op : llvm::make_early_inc_range(*top.getBody())) {
      if (auto c = dyn_cast<ConnectOp>(op)) {
        auto src = instances.lookup<InstanceOp>(c.getSrc().getRootReference());
        if (src && onHost(src) != keepHost)
          c.erase();
      }
    }
    for (Operation &op : llvm::make_early_inc_range(*top.getBody()))
      if (auto inst = dyn_cast<InstanceOp>(op))
        if (onHost(inst) != keepHost)
          inst.erase();
    module->setAttr("np.devices", b.getArrayAttr(devices));
    module->setAttr("np.pcie_slots", b.getI32IntegerAttr(cuts.size()));
  }
};
} // namespace
