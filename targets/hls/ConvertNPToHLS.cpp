//===- ConvertNPToHLS.cpp - np elements and program to HLS C++ ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Element bodies lower with the patterns the C target uses (targets/emitc): the
// same EmitC, the same calls of the nprt ABI. What is HLS here is the program:
// one free-running process function per instance around those bodies, and
// a DATAFLOW top function connecting them with streams.
//
//===----------------------------------------------------------------------===//

#include "targets/hls/HLSProfile.h"
#include "targets/hls/HLSProject.h"
#include "targets/hls/Passes.h"
#include "targets/hls/Transforms/HLSMemory.h"

#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/Passes.h"
#include "dialects/NP/Transforms/TopGraph.h"
#include "targets/emitc/BodyOpLowering.h"
#include "targets/emitc/NPToEmitC.h"
#include "targets/emitc/ProgramLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace npcc::hls {
#define GEN_PASS_DEF_CONVERTNPTOHLS
#include "targets/hls/Passes.h.inc"
} // namespace npcc::hls

using namespace mlir;
using namespace npcc;
using namespace npcc::hls;
using toemitc::NPLoweringInfo;

namespace {

/// A header field as HLS code types it: np.pkt_get reads through
/// `nphls_pkt_get<W>(pkt, off, bit)`, an `ap_uint<W>` (runtime/hls's
/// nphls.h), which the body then uses as the C target's integer; np.pkt_set
/// writes an `ap_uint<W>` through `nphls_pkt_set<W>`. The C target's
/// lowering (nprt_pkt_get_bits/nprt_pkt_set_bits) is the fallback.
constexpr unsigned kOverCTarget = 2;

/// Whether the templates take a field of `width` bits.
bool isAccessorWidth(uint32_t width) { return width >= 1 && width <= 64; }

/// Emits `nphls_pkt_<what><W>(pkt, offset, bit[, value])` for the field
/// `op` accesses.
template <typename Op>
emitc::CallOpaqueOp callFieldAccessor(Op op, OpBuilder &b, StringRef what,
                                      TypeRange results, ValueRange operands) {
  SmallVector<Attribute> args = {
      b.getIndexAttr(0), b.getIndexAttr(1),
      emitc::OpaqueAttr::get(b.getContext(),
                             std::to_string(op.getBit()) + "u")};
  if (operands.size() == 3)
    args.push_back(b.getIndexAttr(2));
  return b.create<emitc::CallOpaqueOp>(
      op.getLoc(), results, ("nphls_pkt_" + what).str(), operands,
      b.getArrayAttr(args),
      b.getArrayAttr({b.getI32IntegerAttr(op.getWidth())}));
}

toemitc::Replacement lowerHeaderFieldGet(np::PktGetOp op,
                                         np::PktGetOp::Adaptor a,
                                         const NPLoweringInfo &, OpBuilder &b) {
  uint32_t width = op.getWidth();
  if (!isAccessorWidth(width))
    return failure(); // not a field of 1 to 64 bits
  Type field = emitc::OpaqueType::get(
      b.getContext(), ("ap_uint<" + llvm::Twine(width) + ">").str());
  auto call =
      callFieldAccessor(op, b, "get", field, {a.getPkt(), a.getOffset()});
  Location loc = op.getLoc();
  Value v = b.create<emitc::CastOp>(loc, b.getI64Type(), call.getResult(0));
  if (width != 64)
    v = b.create<arith::TruncIOp>(loc, op.getType(), v);
  return toemitc::replaceWith(v);
}

toemitc::Replacement lowerHeaderFieldSet(np::PktSetOp op,
                                         np::PktSetOp::Adaptor a,
                                         const NPLoweringInfo &, OpBuilder &b) {
  if (!isAccessorWidth(op.getWidth()))
    return failure(); // not a field of 1 to 64 bits
  Value value = a.getValue();
  if (value.getType().getIntOrFloatBitWidth() != 64)
    value = b.create<arith::ExtUIOp>(op.getLoc(), b.getI64Type(), value);
  callFieldAccessor(op, b, "set", {}, {a.getPkt(), a.getOffset(), value});
  return toemitc::replaceWith();
}

/// Marks an op before which the packets it takes are read in whole
/// (wholePacketOps); ReadWholeFirst lowers the mark.
constexpr llvm::StringLiteral kReadWholeAttr = "hls.read_whole";

/// Reads the packets a marked op takes in whole (`nphls_whole`), then
/// leaves the op to the C target's patterns.
struct ReadWholeFirst : ConversionPattern {
  ReadWholeFirst(TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), kOverCTarget + 1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rw) const override {
    if (!op->hasAttr(kReadWholeAttr))
      return failure();
    Value self = toemitc::enclosingInstance(op);
    llvm::SmallVector<Value, 2> done;
    for (auto [from, to] : llvm::zip(op->getOperands(), operands))
      if (isa<np::PacketType>(from.getType()) &&
          !llvm::is_contained(done, to)) {
        done.push_back(to);
        rw.create<emitc::CallOpaqueOp>(op->getLoc(), TypeRange{}, "nphls_whole",
                                       ValueRange{self, to});
      }
    rw.modifyOpInPlace(op, [&] { op->removeAttr(kReadWholeAttr); });
    return success();
  }
};

/// What the process function of one instance needs, taken before the
/// conversion erases the element.
struct Process {
  std::string prefix, name;
  struct Port {
    std::string name;
    bool packet;
  };
  SmallVector<Port> ins, outs;
  /// Input ports whose arrival runs the handler.
  uint64_t pushMask = 0;
  /// Devices the element reads (the first is the source's trigger) and
  /// writes.
  SmallVector<unsigned> devIn, devOut;
  bool hasInit = false, hasState = false, hasInitImage = false;
  bool hasSignal = false, hasFini = false;
  unsigned numControls = 0;
  /// Packets the instance's packet queues hold at most: each needs a
  /// buffer beyond the NPHLS_SLOTS its handler works with.
  uint64_t queuedPackets = 0;
  int shared = -1;
  /// When the instance reads a packet in whole (the first op that needs
  /// it), or "" when it is header-only.
  std::string readsWhole;
  /// State members and how the FPGA keeps them.
  struct Member {
    std::string field;
    HLSMemoryKind kind;
    bool delayed;
  };
  SmallVector<Member> members;
};

/// Packets the queues of one instance may hold in all: each takes a buffer
/// of NPHLS_FRAME_BYTES and its headroom (about 9 KB).
constexpr uint64_t kHLSMaxQueuedPackets = 1024;

std::optional<unsigned> constantDevice(Value dev) {
  IntegerAttr attr;
  if (auto c = dev.getDefiningOp<arith::ConstantOp>())
    attr = dyn_cast<IntegerAttr>(c.getValue());
  if (!attr)
    return std::nullopt;
  return (unsigned)attr.getInt();
}

/// The process of `element`, or a located error when the process model
/// cannot run it.
FailureOr<Process> describeProcess(np::ElementOp element, StringRef name,
                                   const NPLoweringInfo::Element &e) {
  Process p;
  p.prefix = e.prefix;
  p.name = name.str();
  p.pushMask = e.pushPorts;
  p.hasInit = e.hasInit;
  p.hasState = e.hasState;
  p.hasInitImage = e.hasInitImage;
  p.hasSignal = e.hasSignal;
  p.hasFini = e.hasFini;
  p.numControls = e.numControls;
  p.shared = e.shared;
  llvm::SmallVector<std::pair<Operation *, std::string>> whole =
      wholePacketOps(element);
  for (auto &[op, reason] : whole)
    op->setAttr(kReadWholeAttr, UnitAttr::get(op->getContext()));
  if (!whole.empty()) {
    auto &[op, reason] = whole.front();
    p.readsWhole = reason;
    if (auto at = dyn_cast<FileLineColLoc>(op->getLoc()))
      p.readsWhole += " (" + llvm::sys::path::filename(at.getFilename()).str() +
                      ":" + std::to_string(at.getLine()) + ")";
    if (whole.size() > 1)
      p.readsWhole += ", and at " + std::to_string(whole.size() - 1) +
                      " more op" + (whole.size() > 2 ? "s" : "");
  }
  bool ok = true;
  for (Operation &op : *element.getBody()) {
    if (auto port = dyn_cast<np::PortOp>(op)) {
      Process::Port pp{port.getSymName().str(),
                       isa<np::PacketType>(port.getType())};
      (port.isInput() ? p.ins : p.outs).push_back(pp);
    } else if (auto state = dyn_cast<np::StateOp>(op)) {
      if (state.getShared())
        continue;
      p.members.push_back({e.fields.lookup(state.getSymName()),
                           hlsMemoryKind(state), hasDelayedWrite(state)});
      if (auto n = state->getAttrOfType<IntegerAttr>("np.packet_queue"))
        p.queuedPackets += n.getInt();
    } else if (isa<np::TimerOp>(op)) {
      // (Timers need the design's clock; the C target's program clock is
      // the packets' time.)
      op.emitError() << "element '" << e.name
                     << "': the hls target does not run timers yet";
      ok = false;
    }
  }
  element.walk([&](Operation *op) {
    auto device = [&](Value dev, SmallVector<unsigned> &list) {
      std::optional<unsigned> d = constantDevice(dev);
      if (!d) {
        op->emitError() << "element '" << e.name
                        << "': the hls target needs a constant device number "
                           "(a top-level stream per device)";
        ok = false;
        return;
      }
      if (!llvm::is_contained(list, *d))
        list.push_back(*d);
    };
    if (isa<np::HandlerLoadOp>(op)) {
      op->emitError() << "element '" << e.name
                      << "': the hls target does not load handler files yet "
                         "(write the entries through the element's write "
                         "handlers instead)";
      ok = false;
    }
    if (auto r = dyn_cast<np::DeviceRecvOp>(op))
      device(r.getDev(), p.devIn);
    else if (auto s = dyn_cast<np::DeviceSendOp>(op))
      device(s.getDev(), p.devOut);
  });
  if (!ok)
    return failure();
  if (p.queuedPackets > kHLSMaxQueuedPackets)
    return element.emitError()
           << "element '" << e.name
           << "': the hls target gives an instance buffers for at most "
           << kHLSMaxQueuedPackets << " queued packets, and its packet "
           << "queues hold up to " << p.queuedPackets
           << " (the FPGA keeps each queued packet in a buffer of its own: "
              "a jumbo frame and its headroom)";
  if (!p.ins.empty() && p.pushMask == 0) {
    auto handlers = element.getBody()->getOps<np::HandlerOp>();
    Operation *at = handlers.empty() ? element.getOperation()
                                     : (*handlers.begin()).getOperation();
    return at->emitError()
           << "element '" << e.name
           << "': the hls target runs a handler once per arriving value, so "
              "the handler must receive first (recv or select) and once; "
              "this one would block in mid-run";
  }
  if (p.ins.empty() && p.devIn.empty())
    return element.emitError()
           << "element '" << e.name
           << "': a source without an input device (a timer or an endless "
              "loop) is not lowered for the FPGA yet";
  return p;
}

std::string streamType(bool packet) {
  return packet ? "nphls_pkt_stream" : "nphls_val_stream";
}

std::string devInName(unsigned d) { return "dev_in_" + std::to_string(d); }
std::string devOutName(unsigned d) { return "dev_out_" + std::to_string(d); }

/// `T *name[n] = {a, b, ...};` for a pointer table of at least one entry.
void pointerTable(llvm::raw_ostream &os, StringRef type, StringRef name,
                  ArrayRef<std::string> entries) {
  os << "  " << type << " *" << name << "["
     << std::max<size_t>(1, entries.size()) << "] = {";
  llvm::ListSeparator sep(", ");
  for (const std::string &e : entries)
    os << sep << e;
  if (entries.empty())
    os << "nullptr";
  os << "};\n";
}

/// The process function of `p`.
void printProcess(llvm::raw_ostream &os, const Process &p,
                  const NPLoweringInfo &info, const Profile &profile) {
  os << "\n/* Instance '" << p.name << "': runs its handler once per call "
     << "when a value waits. */\n";
  os << "/* It buffers the flits of a packet's header window; the rest "
        "stream past it";
  if (p.readsWhole.empty())
    os << " (header-only). */\n";
  else
    os << ", but for a packet it reads whole first where it " << p.readsWhole
       << ". */\n";
  os << "void " << p.prefix << "(";
  llvm::ListSeparator sep(", ");
  for (const Process::Port &port : p.ins)
    os << sep << streamType(port.packet) << " &in_"
       << np::sanitizeIdentifier(port.name);
  for (const Process::Port &port : p.outs)
    os << sep << streamType(port.packet) << " &out_"
       << np::sanitizeIdentifier(port.name);
  for (unsigned d : p.devIn)
    os << sep << "nphls_pkt_stream &" << devInName(d);
  for (unsigned d : p.devOut)
    os << sep << "nphls_pkt_stream &" << devOutName(d);
  os << ") {\n";
  os << "#pragma HLS INLINE off\n#pragma HLS PIPELINE II=1\n";
  if (p.hasState) {
    os << "  static " << p.prefix << "_state state"
       << (p.hasInitImage ? " = " + p.prefix + "_state_init" : "") << ";\n";
    for (const Process::Member &m : p.members) {
      std::string var = "state." + m.field;
      os << (m.kind == HLSMemoryKind::BlockRAM ? profile.blockRAM(var)
                                               : profile.registers(var))
         << "\n";
      if (m.delayed)
        os << profile.noInterDependence(var) << "\n";
    }
  }
  os << "  static nprt_inst self;\n";
  auto ports = [&](ArrayRef<Process::Port> list, StringRef dir, bool packet) {
    std::vector<std::string> e;
    for (const Process::Port &port : list)
      e.push_back(port.packet == packet ? "&" + dir.str() + "_" +
                                              np::sanitizeIdentifier(port.name)
                                        : std::string("nullptr"));
    return e;
  };
  pointerTable(os, "nphls_pkt_stream", "in", ports(p.ins, "in", true));
  pointerTable(os, "nphls_val_stream", "vin", ports(p.ins, "in", false));
  pointerTable(os, "nphls_pkt_stream", "out", ports(p.outs, "out", true));
  pointerTable(os, "nphls_val_stream", "vout", ports(p.outs, "out", false));
  auto devices = [&](ArrayRef<unsigned> list, bool input) {
    unsigned n = 0;
    for (unsigned d : list)
      n = std::max(n, d + 1);
    std::vector<std::string> e(n, "nullptr");
    for (unsigned d : list)
      e[d] = (llvm::Twine("&") + (input ? devInName(d) : devOutName(d))).str();
    return e;
  };
  std::vector<std::string> din = devices(p.devIn, true),
                           dout = devices(p.devOut, false);
  pointerTable(os, "nphls_pkt_stream", "dev_in", din);
  pointerTable(os, "nphls_pkt_stream", "dev_out", dout);
  os << "  self.in = in;\n  self.vin = vin;\n  self.out = out;\n"
     << "  self.vout = vout;\n  self.n_in = " << p.ins.size()
     << "u;\n  self.n_out = " << p.outs.size()
     << "u;\n  self.dev_in = dev_in;\n  self.dev_out = dev_out;\n"
     << "  self.n_dev_in = " << din.size()
     << "u;\n  self.n_dev_out = " << dout.size() << "u;\n";
  // Buffers for what the handler holds, and one per packet its queues
  // may hold.
  os << "  static nphls_buf slots[NPHLS_SLOTS + " << p.queuedPackets
     << "u];\n  self.slots = slots;\n  self.n_slots = NPHLS_SLOTS + "
     << p.queuedPackets << "u;\n";
  if (p.hasState)
    os << "  self.state = &state;\n";
  if (p.shared >= 0)
    os << "  self.shared = npcc_shared_object_" << p.shared << "();\n";
  os << "  if (!self.started) {\n    self.started = true;\n    self.name = "
     << toemitc::cString(p.name)
     << ";\n    self.window = NPHLS_WINDOW_BYTES;\n    self.push_mask = "
     << p.pushMask << "ull;\n";
  if (p.hasInit)
    os << "    " << p.prefix << "_init(&self);\n";
  os << "#ifndef __SYNTHESIS__\n    nphls_csim_register(&self, "
     << (p.numControls ? p.prefix + "_handlers" : std::string("nullptr"))
     << ", " << p.numControls << "u, "
     << (p.hasSignal ? p.prefix + "_signal" : std::string("nullptr")) << ", "
     << (p.hasFini ? p.prefix + "_fini" : std::string("nullptr"))
     << ");\n#endif\n  }\n";
  int trigger = p.ins.empty() ? (int)p.devIn.front() : -1;
  // In C simulation a run that waits on a full channel is resumed first.
  os << "#ifndef __SYNTHESIS__\n  if (nphls_csim_resume(&self))\n"
        "    return;\n#endif\n";
  os << "  if (!nphls_ready(&self, " << p.pushMask << "ull, " << trigger
     << "))\n    return;\n";
  os << "#ifndef __SYNTHESIS__\n  nphls_csim_note_run();\n#endif\n";
  os << "  ++self.counts.runs;\n#ifndef __SYNTHESIS__\n  nphls_csim_run(&self, "
     << p.prefix << "_handler);\n#else\n  " << p.prefix
     << "_handler(&self);\n  nphls_end_run(&self);\n#endif\n}\n";
  (void)info;
}

/// The DATAFLOW top function over the processes and channels.
void printTop(llvm::raw_ostream &os, np::ProgramOp program,
              ArrayRef<Process> procs, const Profile &profile) {
  std::set<unsigned> devIn, devOut;
  for (const Process &p : procs) {
    devIn.insert(p.devIn.begin(), p.devIn.end());
    devOut.insert(p.devOut.begin(), p.devOut.end());
  }
  os << "\n/* The design: input devices, then output devices, as AXI4 "
        "streams of flits. */\nvoid npcc_top(";
  llvm::ListSeparator sep(", ");
  for (unsigned d : devIn)
    os << sep << "nphls_pkt_stream &" << devInName(d);
  for (unsigned d : devOut)
    os << sep << "nphls_pkt_stream &" << devOutName(d);
  os << ") {\n";
  for (unsigned d : devIn)
    os << profile.axisPort(devInName(d)) << "\n";
  for (unsigned d : devOut)
    os << profile.axisPort(devOutName(d)) << "\n";
  os << profile.noControl() << "\n#pragma HLS DATAFLOW\n";
  // One stream per channel; a port no channel connects gets a stream no
  // process reads or writes on the other side.
  std::map<std::pair<unsigned, unsigned>, std::string> outArg, inArg;
  auto inferred =
      program->getAttrOfType<DenseI64ArrayAttr>(np::kInferredDepthsAttr);
  for (unsigned i = 0, e = program.getChannels().size(); i < e; ++i) {
    np::ProgramOp::Channel c = program.getChannel(i);
    // A producer that sends k values per run needs k places, or it waits
    // in mid-run for its consumer (np-check-channels' inferred depth).
    int64_t depth = c.depth;
    if (inferred && i < inferred.size())
      depth = std::max<int64_t>(depth, inferred[i]);
    const Process &src = procs[c.src];
    const Process &dst = procs[c.dst];
    std::string var = "ch_" + std::to_string(i);
    os << "  /* " << src.name << "." << src.outs[c.srcPort].name << " -> "
       << dst.name << "." << dst.ins[c.dstPort].name << " */\n";
    os << "  static " << streamType(src.outs[c.srcPort].packet) << " " << var
       << ";\n";
    // A rendezvous channel is a one-place FIFO in hardware.
    os << "#pragma HLS STREAM variable=" << var
       << " depth=" << std::max<int64_t>(1, depth) << "\n";
    outArg[{c.src, c.srcPort}] = var;
    inArg[{c.dst, c.dstPort}] = var;
  }
  for (auto [k, p] : llvm::enumerate(procs)) {
    auto open = [&, k = k](const Process::Port &port, unsigned i, bool in) {
      auto &table = in ? inArg : outArg;
      auto it = table.find({(unsigned)k, i});
      if (it != table.end())
        return;
      std::string var = "open_" + std::to_string(k) + (in ? "_in_" : "_out_") +
                        std::to_string(i);
      os << "  static " << streamType(port.packet) << " " << var << ";\n";
      table[{(unsigned)k, i}] = var;
    };
    for (auto [i, port] : llvm::enumerate(p.ins))
      open(port, i, true);
    for (auto [i, port] : llvm::enumerate(p.outs))
      open(port, i, false);
  }
  // The call of each process with its streams.
  std::vector<std::string> calls;
  for (auto [k, p] : llvm::enumerate(procs)) {
    std::string call;
    llvm::raw_string_ostream cs(call);
    cs << p.prefix << "(";
    llvm::ListSeparator args(", ");
    for (unsigned i = 0; i < p.ins.size(); ++i)
      cs << args << inArg.at({(unsigned)k, i});
    for (unsigned i = 0; i < p.outs.size(); ++i)
      cs << args << outArg.at({(unsigned)k, i});
    for (unsigned d : p.devIn)
      cs << args << "*csim_" << devInName(d);
    for (unsigned d : p.devOut)
      cs << args << "*csim_" << devOutName(d);
    cs << ")";
    calls.push_back(call);
  }
  // C simulation only: a send into an empty channel runs its consumer at
  // once, as the C target's push does (nphls.h).
  os << "#ifndef __SYNTHESIS__\n";
  for (unsigned d : devIn)
    os << "  nphls_pkt_stream *csim_" << devInName(d) << " = &" << devInName(d)
       << ";\n  (void)csim_" << devInName(d) << ";\n";
  for (unsigned d : devOut)
    os << "  nphls_pkt_stream *csim_" << devOutName(d) << " = &"
       << devOutName(d) << ";\n  (void)csim_" << devOutName(d) << ";\n";
  os << "  static bool csim_push = false;\n  if (!csim_push) {\n"
        "    csim_push = true;\n";
  for (unsigned i = 0, e = program.getChannels().size(); i < e; ++i) {
    np::ProgramOp::Channel c = program.getChannel(i);
    os << "    nphls_csim_on_write(&ch_" << i << ", [=]() { " << calls[c.dst]
       << "; });\n";
    // The program's own depth: the interpreter's sender waits there.
    if (procs[c.src].outs[c.srcPort].packet)
      os << "    nphls_csim_depth(&ch_" << i << ", " << c.depth << "u, "
         << (c.lossy ? "true" : "false") << ");\n";
  }
  os << "  }\n#endif\n";
  for (auto [k, p] : llvm::enumerate(procs)) {
    std::string call = calls[k];
    // Outside C simulation the device streams are the arguments.
    size_t at;
    while ((at = call.find("*csim_")) != std::string::npos)
      call.erase(at, 6);
    os << "  " << call << ";\n";
  }
  os << "}";
}

/// Shared state objects, the process of each instance and the top
/// function.
struct HLSProgramLowering : toemitc::ProgramLowering {
  HLSProgramLowering(TypeConverter &tc, MLIRContext *ctx,
                     const NPLoweringInfo &info, ArrayRef<Process> procs,
                     Profile profile)
      : ProgramLowering(tc, ctx, info, "nphls/nphls.h"), procs(procs),
        profile(profile) {}

  void printProgram(np::ProgramOp program,
                    llvm::raw_ostream &os) const override {
    for (auto [j, sh] : llvm::enumerate(info.shared))
      os << "static " << sh.type << " *npcc_shared_object_" << j
         << "() {\n  static " << sh.type << " object"
         << (sh.hasInitImage ? " = " + sh.type + "_init" : "")
         << ";\n  return &object;\n}\n";
    for (const Process &p : procs)
      printProcess(os, p, info, profile);
    printTop(os, program, procs, profile);
  }

  ArrayRef<Process> procs;
  Profile profile;
};

struct ConvertNPToHLSPass
    : npcc::hls::impl::ConvertNPToHLSBase<ConvertNPToHLSPass> {
  using ConvertNPToHLSBase::ConvertNPToHLSBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<Tool> t = parseTool(tool);
    if (!t) {
      module.emitError() << "unknown HLS tool '" << tool
                         << "'; expected one of " << toolNames();
      return signalPassFailure();
    }
    NPLoweringInfo info;
    if (failed(toemitc::describeProgram(module, info)))
      return signalPassFailure();
    info.apUintState = true;
    np::ProgramOp program = *module.getOps<np::ProgramOp>().begin();
    std::vector<Process> procs;
    bool ok = true;
    for (auto [i, op] : llvm::enumerate(info.elementAt)) {
      auto element = cast<np::ElementOp>(op);
      FailureOr<Process> p = describeProcess(
          element, cast<StringAttr>(program.getNames()[i]).getValue(),
          info.elements.at(op));
      if (failed(p)) {
        ok = false;
        continue;
      }
      procs.push_back(std::move(*p));
    }
    if (!ok)
      return signalPassFailure();
    // What writeProject needs once the elements are gone.
    // Devices in the order of the first instance that uses each: the
    // testbench feeds the inputs in turns in that order, as the C
    // runtime's scheduler runs their sources.
    SmallVector<int32_t> devIn, devOut;
    for (const Process &p : procs) {
      for (unsigned d : p.devIn)
        if (!llvm::is_contained(devIn, (int32_t)d))
          devIn.push_back(d);
      for (unsigned d : p.devOut)
        if (!llvm::is_contained(devOut, (int32_t)d))
          devOut.push_back(d);
    }
    module->setAttr(kDevicesInAttr,
                    DenseI32ArrayAttr::get(&getContext(), devIn));
    module->setAttr(kDevicesOutAttr,
                    DenseI32ArrayAttr::get(&getContext(), devOut));
    module->setAttr("hls.program", program.getSymNameAttr());
    Profile profile{*t};
    auto extra = [&](TypeConverter &tc, RewritePatternSet &patterns) {
      patterns.add<HLSProgramLowering>(tc, patterns.getContext(), info, procs,
                                       profile);
      patterns.add<toemitc::BodyOpLowering<np::PktGetOp, lowerHeaderFieldGet>,
                   toemitc::BodyOpLowering<np::PktSetOp, lowerHeaderFieldSet>>(
          tc, patterns.getContext(), info, kOverCTarget);
      patterns.add<ReadWholeFirst>(tc, patterns.getContext());
    };
    if (failed(toemitc::convertNPToEmitC(module, info, extra)))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult npcc::hls::translateToHLS(ModuleOp module,
                                        llvm::raw_ostream &os) {
  // A header field read for nothing (its value dead after folding) leaves
  // the cast of its ap_uint to the body's integer, which C++ would declare
  // as an unused variable (-Wunused-variable); a cast does nothing else.
  for (bool erased = true; erased;) {
    SmallVector<emitc::CastOp> dead;
    module.walk([&](emitc::CastOp cast) {
      if (cast->use_empty())
        dead.push_back(cast);
    });
    for (emitc::CastOp cast : dead)
      cast->erase();
    erased = !dead.empty();
  }
  // Likewise a runtime call whose result folding left unused (a table
  // insert under an `if` with empty branches) is a call without one.
  SmallVector<emitc::CallOpaqueOp> unused;
  module.walk([&](emitc::CallOpaqueOp call) {
    if (call->getNumResults() && call->use_empty())
      unused.push_back(call);
  });
  for (emitc::CallOpaqueOp call : unused) {
    OpBuilder b(call);
    b.create<emitc::CallOpaqueOp>(
        call.getLoc(), TypeRange(), call.getCalleeAttr(), call.getOperands(),
        call.getArgsAttr(), call.getTemplateArgsAttr());
    call->erase();
  }
  os << "/* Generated by npcc --target=hls. Do not edit. */\n";
  return emitc::translateToCpp(module, os, /*declareVariablesAtTop=*/false);
}
