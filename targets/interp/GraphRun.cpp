//===- GraphRun.cpp - the reference interpreter of element bodies ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every SSA value is a 64-bit word: an integer of width N keeps its low N
// bits (the rest zero), a packet is its nprt_pkt pointer, a memref is a
// pointer to a Buffer. Bodies run on the instance's green thread, which the
// executor may abandon in a blocking call when the instance ends: nothing
// on the C++ stack owns memory, so the values, local buffers and state live
// in the Instance and are reused from one activation to the next.
//
//===----------------------------------------------------------------------===//

#include "targets/interp/GraphRun.h"
#include "targets/interp/RefTable.h"

#include "dialects/NP/IR/HandlerShape.h"
#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/PushDepth.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include "nprt/host.h"

#include <array>
#include <cstdlib>
#include <deque>
#include <memory>

using namespace mlir;

namespace npcc::interp {
namespace {

/// The contents of a memref: one word per element.
struct Buffer {
  std::vector<uint64_t> words;
  unsigned width = 64;
  std::unique_ptr<RefTable> table; // np.table on this state, made on use
};

uint64_t maskTo(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}

int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return (int64_t)v;
  unsigned sh = 64 - width;
  return (int64_t)(v << sh) >> sh;
}

unsigned widthOf(Type t) {
  unsigned width = np::scalarBitWidth(t);
  return width ? width : 64; // packets, memrefs
}

/// A byte of the frame, 0 past its end.
uint8_t byteAt(const nprt_pkt *p, uint64_t i) {
  return i < p->len ? p->data[i] : 0;
}

/// CRC-32 bit by bit (the runtime uses tables): reflected polynomial.
uint32_t crcBits(uint32_t crc, uint8_t byte, bool castagnoli) {
  uint32_t poly = castagnoli ? 0x82f63b78u : 0xedb88320u;
  crc ^= byte;
  for (int k = 0; k < 8; ++k)
    crc = (crc >> 1) ^ ((crc & 1) ? poly : 0);
  return crc;
}

/// What an operation of a body asks of the walk that runs it.
enum class Flow { Next, Stop };

class Runner;

/// What one activation of a body computes: its values, local arrays and
/// loop bookkeeping.
struct Frame {
  llvm::DenseMap<Value, uint64_t> values;
  std::deque<Buffer> locals; // memref.alloca, reused from run to run
  size_t usedLocals = 0;
  // Scratch for values carried around scf.for/while, per loop depth.
  std::vector<std::vector<uint64_t>> carried;
  unsigned depth = 0;
  // Per loop depth: np.exit_loop_if fired in this run of the loop.
  std::vector<bool> exitSeen;
};

/// One element instance: its state, and the activations of its bodies.
struct Instance {
  Runner *runner = nullptr;
  np::ElementOp element;
  Region *init = nullptr, *handler = nullptr, *signal = nullptr;
  Region *timer = nullptr, *fini = nullptr;
  uint64_t timerPeriod = 0;
  // Read and write handlers (np.control), their descriptions for the
  // runtime and the arrays those point to.
  std::vector<Region *> controls;
  std::vector<nprt_handler_desc> controlDescs;
  std::deque<std::vector<uint32_t>> kinds;
  std::deque<std::vector<uint64_t>> defaults;
  llvm::StringMap<unsigned> inPorts, outPorts;
  llvm::StringMap<Buffer> state;
  // Shared state (np.state shared): the Runner's one copy for the
  // element's source name.
  llvm::StringMap<Buffer *> shared;
  // The activations of this instance's bodies. Several may be unfinished
  // at once, on different stacks, and resume in any order: a timer runs
  // while the handler waits, a pushed handler call re-enters a handler
  // suspended in a send, and either may itself wait. So each has its own
  // frame, and whoever runs an operation works on the frame it started
  // with. Frames belong to the instance and are reused: an activation the
  // executor abandons (its instance ended) leaks nothing.
  std::deque<Frame> frames;
  std::vector<Frame *> idleFrames;
  Frame *f = nullptr; // the frame of the activation running
  nprt_inst *self = nullptr;
  std::vector<uint8_t> copyBuffer; // np.pkt_copy's bytes in flight
  static constexpr unsigned kExitChecks = 64;

  uint64_t get(Value v) { return f->values.find(v)->second; }
  void set(Value v, uint64_t x) {
    f->values[v] = maskTo(x, widthOf(v.getType()));
  }

  void run(Region &body, nprt_inst *inst, std::optional<int64_t> arg);
  Operation *runBlock(Block &block);
  void exec(Operation &op);
  Buffer &buffer(Value v) { return *reinterpret_cast<Buffer *>(get(v)); }
  nprt_pkt *packet(Value v) { return reinterpret_cast<nprt_pkt *>(get(v)); }
  uint64_t loadIndex(Buffer &b, uint64_t i, Operation &op);
  /// Assigns `from` to `to` at once (a loop may yield its arguments
  /// swapped), through the scratch vector of the current loop depth.
  void carry(ValueRange from, ValueRange to) {
    if (f->carried.size() <= f->depth)
      f->carried.resize(f->depth + 1);
    std::vector<uint64_t> &tmp = f->carried[f->depth];
    tmp.clear();
    for (Value v : from)
      tmp.push_back(get(v));
    for (auto [v, x] : llvm::zip(to, tmp))
      set(v, x);
  }
};

/// The instance table handed to the executor, and what its function
/// pointers reach: each instance's state object is a Cookie naming it.
struct Cookie {
  Runner *runner;
  uint64_t index;
};

class Runner {
public:
  LogicalResult build(ModuleOp module);
  int run(const std::vector<std::string> &args);
  Instance &instance(nprt_inst *self) {
    auto *c = static_cast<const Cookie *>(nprt_state(self));
    Instance &in = *instances[c->index];
    in.self = self;
    return in;
  }

private:
  std::vector<std::unique_ptr<Instance>> instances;
  std::deque<std::string> strings; // stable storage for the C strings
  std::vector<Cookie> cookies;
  // The shared state of each source name, by state name: StringMap
  // entries do not move, so instances keep pointers to them.
  llvm::StringMap<llvm::StringMap<Buffer>> sharedState;
  std::vector<nprt_instance_desc> descs;
  std::vector<nprt_channel_desc> channels;
  std::vector<nprt_device_desc> devices; // files the program names
  std::string programName;
  const char *keep(std::string s) {
    strings.push_back(std::move(s));
    return strings.back().c_str();
  }
};

/// The instance a body runs for: its state object names it.
Instance &instanceOf(nprt_inst *self) {
  Runner *r = static_cast<const Cookie *>(nprt_state(self))->runner;
  return r->instance(self);
}

/// The entry point of the body `Body` (init, handler, timer, fini).
template <Region *Instance::*Body> void runBody(nprt_inst *self) {
  Instance &in = instanceOf(self);
  in.run(*(in.*Body), self, std::nullopt);
}

/// The entry point of read or write handler `K` of an instance.
template <unsigned K> void runControl(nprt_inst *self) {
  Instance &in = instanceOf(self);
  in.run(*in.controls[K], self, std::nullopt);
}

constexpr unsigned kMaxControls = 32;
template <unsigned... K>
constexpr std::array<nprt_fn, sizeof...(K)>
controlEntries(std::integer_sequence<unsigned, K...>) {
  return {runControl<K>...};
}
constexpr auto kControlEntries =
    controlEntries(std::make_integer_sequence<unsigned, kMaxControls>());

void runSignal(nprt_inst *self, int64_t arg) {
  Instance &in = instanceOf(self);
  in.run(*in.signal, self, arg);
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

void Instance::run(Region &body, nprt_inst *inst, std::optional<int64_t> arg) {
  Frame *outer = f;
  Frame *mine;
  if (idleFrames.empty()) {
    mine = &frames.emplace_back();
  } else {
    mine = idleFrames.back();
    idleFrames.pop_back();
  }
  mine->usedLocals = 0;
  mine->depth = 0;
  f = mine;
  auto release = llvm::make_scope_exit([&] {
    idleFrames.push_back(mine);
    f = outer;
  });
  self = inst;
  Block &b = body.front();
  // Bodies take the instance (!np.self), then the signal's value.
  for (BlockArgument a : b.getArguments()) {
    if (isa<np::SelfType>(a.getType()))
      f->values[a] = 0;
    else
      set(a, arg ? (uint64_t)*arg : 0);
  }
  runBlock(b);
}

Operation *Instance::runBlock(Block &block) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      return &op;
    exec(op);
  }
  return nullptr;
}

/// Signed division and remainder with NPL's definitions: by zero gives 0,
/// the most negative value by -1 wraps (its remainder is 0).
uint64_t signedDivRem(uint64_t a, uint64_t b, unsigned w, bool rem) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0)
    return 0;
  if (y == -1)
    return rem ? 0 : (uint64_t)0 - (uint64_t)x;
  return (uint64_t)(rem ? x % y : x / y);
}

uint64_t Instance::loadIndex(Buffer &b, uint64_t i, Operation &op) {
  if (i < b.words.size())
    return i;
  // The front end guards every array access; reaching this is a bug of the
  // compiler, not of the program.
  InFlightDiagnostic d = op.emitError("interpreter: memref index ")
                         << i << " out of bounds (" << b.words.size()
                         << " elements)";
  d.report();
  std::exit(70);
}

void Instance::exec(Operation &op) {
  // A port operation may leave this stack and come back after other
  // activations of this instance ran: this one goes on with its frame.
  Frame *const mine = f;
  auto keep = llvm::make_scope_exit([this, mine] { f = mine; });
  auto in = [&](unsigned k) { return get(op.getOperand(k)); };
  auto w0 = [&]() { return widthOf(op.getOperand(0).getType()); };
  // The result of a receive lands in this activation's frame even if
  // others ran while it waited.
  auto out = [&](uint64_t v) {
    f = mine;
    set(op.getResult(0), v);
  };
  llvm::TypeSwitch<Operation *>(&op)
      // arith
      .Case([&](arith::ConstantOp c) {
        auto attr = cast<IntegerAttr>(c.getValue());
        out(attr.getValue().getZExtValue());
      })
      .Case([&](arith::AddIOp) { out(in(0) + in(1)); })
      .Case([&](arith::SubIOp) { out(in(0) - in(1)); })
      .Case([&](arith::MulIOp) { out(in(0) * in(1)); })
      .Case([&](arith::AndIOp) { out(in(0) & in(1)); })
      .Case([&](arith::OrIOp) { out(in(0) | in(1)); })
      .Case([&](arith::XOrIOp) { out(in(0) ^ in(1)); })
      .Case([&](arith::DivUIOp) { out(in(1) ? in(0) / in(1) : 0); })
      .Case([&](arith::RemUIOp) { out(in(1) ? in(0) % in(1) : 0); })
      .Case(
          [&](arith::DivSIOp) { out(signedDivRem(in(0), in(1), w0(), false)); })
      .Case(
          [&](arith::RemSIOp) { out(signedDivRem(in(0), in(1), w0(), true)); })
      .Case([&](arith::ShLIOp) { out(in(1) >= w0() ? 0 : in(0) << in(1)); })
      .Case([&](arith::ShRUIOp) { out(in(1) >= w0() ? 0 : in(0) >> in(1)); })
      .Case([&](arith::ShRSIOp) {
        unsigned w = w0();
        uint64_t n = in(1) >= w ? w - 1 : in(1);
        out((uint64_t)(signExtend(in(0), w) >> n));
      })
      .Case([&](arith::MinUIOp) { out(std::min(in(0), in(1))); })
      .Case([&](arith::MaxUIOp) { out(std::max(in(0), in(1))); })
      .Case([&](arith::MinSIOp) {
        unsigned w = w0();
        out(signExtend(in(0), w) < signExtend(in(1), w) ? in(0) : in(1));
      })
      .Case([&](arith::MaxSIOp) {
        unsigned w = w0();
        out(signExtend(in(0), w) > signExtend(in(1), w) ? in(0) : in(1));
      })
      .Case([&](arith::CmpIOp c) {
        unsigned w = w0();
        out(arith::applyCmpPredicate(c.getPredicate(), llvm::APInt(w, in(0)),
                                     llvm::APInt(w, in(1))));
      })
      .Case([&](arith::SelectOp) { out(in(0) ? in(1) : in(2)); })
      .Case([&](arith::ExtUIOp) { out(in(0)); })
      .Case([&](arith::ExtSIOp) { out((uint64_t)signExtend(in(0), w0())); })
      .Case([&](arith::TruncIOp) { out(in(0)); })
      .Case([&](arith::IndexCastOp) { out((uint64_t)signExtend(in(0), w0())); })
      .Case([&](arith::IndexCastUIOp) { out(in(0)); })
      // scf
      .Case([&](scf::IfOp s) {
        Region &r = in(0) ? s.getThenRegion() : s.getElseRegion();
        if (r.empty())
          return;
        Operation *term = runBlock(r.front());
        for (auto [res, v] : llvm::zip(s.getResults(), term->getOperands()))
          set(res, get(v));
      })
      .Case([&](scf::ForOp loop) {
        uint64_t lb = in(0), ub = in(1), step = in(2);
        carry(loop.getInitArgs(), loop.getRegionIterArgs());
        unsigned depth = ++f->depth;
        if (f->exitSeen.size() <= depth)
          f->exitSeen.resize(depth + 1);
        f->exitSeen[depth] = false;
        // After np.exit_loop_if fired, the remaining iterations must do
        // nothing: run a few of them to check, not all (bounds may be 2^24).
        unsigned checked = 0;
        for (uint64_t i = lb; (int64_t)i < (int64_t)ub; i += step) {
          if (f->exitSeen[depth] && ++checked > kExitChecks)
            break;
          set(loop.getInductionVar(), i);
          carry(runBlock(*loop.getBody())->getOperands(),
                loop.getRegionIterArgs());
        }
        --f->depth;
        carry(loop.getRegionIterArgs(), loop.getResults());
      })
      .Case([&](scf::WhileOp w) {
        carry(w.getInits(), w.getBeforeArguments());
        ++f->depth;
        for (;;) {
          auto cond = cast<scf::ConditionOp>(runBlock(w.getBefore().front()));
          if (!get(cond.getCondition())) {
            carry(cond.getArgs(), w.getResults());
            break;
          }
          carry(cond.getArgs(), w.getAfterArguments());
          carry(runBlock(w.getAfter().front())->getOperands(),
                w.getBeforeArguments());
        }
        --f->depth;
      })
      // memref
      .Case([&](memref::AllocaOp a) {
        if (f->usedLocals == f->locals.size())
          f->locals.emplace_back();
        Buffer &b = f->locals[f->usedLocals++];
        b.words.assign(a.getType().getNumElements(), 0);
        b.width = widthOf(a.getType().getElementType());
        f->values[a.getResult()] = reinterpret_cast<uint64_t>(&b);
      })
      .Case([&](memref::LoadOp l) {
        Buffer &b = buffer(l.getMemRef());
        out(b.words[loadIndex(b, in(1), op)]);
      })
      .Case([&](memref::StoreOp s) {
        Buffer &b = buffer(s.getMemRef());
        b.words[loadIndex(b, in(2), op)] = maskTo(in(0), b.width);
      })
      // np: state and ports
      .Case([&](np::StateFieldOp sf) {
        auto it = state.find(sf.getState());
        Buffer *b =
            it != state.end() ? &it->second : shared.lookup(sf.getState());
        f->values[sf.getResult()] = reinterpret_cast<uint64_t>(b);
      })
      .Case([&](np::RecvOp r) {
        uint32_t p = inPorts.lookup(r.getPort());
        out(isa<np::PacketType>(r.getType())
                ? reinterpret_cast<uint64_t>(nprt_recv_pkt(self, p))
                : nprt_recv_val(self, p));
      })
      .Case([&](np::TryRecvOp t) {
        uint32_t p = inPorts.lookup(t.getPort());
        set(t.getOk(), nprt_poll(self, p));
        set(t.getValue(),
            isa<np::PacketType>(t.getValue().getType())
                ? reinterpret_cast<uint64_t>(nprt_try_recv_pkt(self, p))
                : nprt_try_recv_val(self, p));
      })
      .Case([&](np::SendOp s) {
        uint32_t p = outPorts.lookup(s.getPort());
        if (isa<np::PacketType>(s.getValue().getType()))
          nprt_send_pkt(self, p, packet(s.getValue()));
        else
          nprt_send_val(self, p, get(s.getValue()));
      })
      .Case([&](np::SelectOp s) {
        uint64_t mask = 0;
        for (Attribute a : s.getPorts())
          mask |= uint64_t(1)
                  << inPorts.lookup(cast<FlatSymbolRefAttr>(a).getValue());
        uint32_t port = nprt_select(self, mask);
        uint64_t pos = 0;
        for (auto [k, a] : llvm::enumerate(s.getPorts()))
          if (inPorts.lookup(cast<FlatSymbolRefAttr>(a).getValue()) == port)
            pos = k;
        out(pos);
      })
      // np: packets
      .Case([&](np::DropOp d) { nprt_drop(self, packet(d.getPkt())); })
      .Case([&](np::CloneOp c) {
        out(reinterpret_cast<uint64_t>(nprt_clone(self, packet(c.getPkt()))));
      })
      .Case([&](np::PktNewOp n) {
        out(reinterpret_cast<uint64_t>(nprt_pkt_new(self, (uint32_t)in(0))));
      })
      .Case([&](np::DeviceRecvOp) {
        out(reinterpret_cast<uint64_t>(
            nprt_device_recv(self, (uint32_t)in(0))));
      })
      .Case([&](np::DeviceSendOp d) {
        nprt_device_send(self, (uint32_t)in(0), packet(d.getPkt()));
      })
      .Case([&](np::PktLenOp l) { out(packet(l.getPkt())->len); })
      .Case([&](np::PktGetOp g) {
        // Bit by bit, most significant first; bits past the end read 0,
        // and a field that starts past the end is 0.
        const nprt_pkt *p = packet(g.getPkt());
        uint64_t byte = in(1), first = g.getBit();
        uint64_t v = 0;
        if (byte < p->len && byte + first / 8 < p->len)
          for (uint64_t i = 0; i < g.getWidth(); ++i) {
            uint64_t bit = byte * 8 + first + i;
            uint64_t at = bit / 8;
            v = (v << 1) |
                (at < p->len ? (p->data[at] >> (7 - bit % 8)) & 1 : 0);
          }
        out(v);
      })
      .Case([&](np::PktSetOp s) {
        nprt_pkt *p = packet(s.getPkt());
        uint64_t byte = in(1), first = s.getBit(), v = in(2);
        if (byte < p->len && byte + first / 8 < p->len)
          for (uint64_t i = 0; i < s.getWidth(); ++i) {
            uint64_t bit = byte * 8 + first + s.getWidth() - 1 - i;
            uint64_t at = bit / 8;
            uint8_t m = (uint8_t)(1u << (7 - bit % 8));
            if (at < p->len)
              p->data[at] =
                  (uint8_t)((p->data[at] & ~m) | ((v >> i) & 1 ? m : 0));
          }
      })
      .Case([&](np::MetaGetOp g) {
        const nprt_pkt *p = packet(g.getPkt());
        llvm::StringRef f = g.getField();
        out(f == "in_port"    ? p->in_port
            : f == "paint"    ? p->paint
            : f == "out_port" ? p->out_port
            : f == "ts"       ? (uint64_t)p->ts
                              : p->anno);
      })
      .Case([&](np::MetaSetOp s) {
        nprt_pkt *p = packet(s.getPkt());
        llvm::StringRef f = s.getField();
        uint64_t v = in(1);
        if (f == "in_port")
          p->in_port = (uint32_t)v;
        else if (f == "paint")
          p->paint = (uint32_t)v;
        else if (f == "out_port")
          p->out_port = (uint32_t)v;
        else if (f == "ts")
          p->ts = (int64_t)v;
        else
          p->anno = v;
      })
      .Case([&](np::PktPullOp o) {
        out(nprt_pkt_pull(packet(o.getPkt()), (uint32_t)in(1)));
      })
      .Case([&](np::PktPushOp o) {
        out(nprt_pkt_push(packet(o.getPkt()), (uint32_t)in(1)));
      })
      // A hint for targets that can leave a loop early: the iterations
      // after it do nothing, so running them checks the hint.
      .Case([&](np::ExitLoopIfOp e) {
        if (get(e.getCond()) && f->depth < f->exitSeen.size())
          f->exitSeen[f->depth] = true;
      })
      .Case([&](np::PktCsumOp c) {
        // One word at a time, carries folded back at the end.
        const nprt_pkt *p = packet(c.getPkt());
        uint64_t sum = in(3), off = in(1), n = in(2);
        for (uint64_t k = 0; k < n; k += 2)
          sum += (uint64_t(byteAt(p, off + k)) << 8) |
                 (k + 1 < n ? byteAt(p, off + k + 1) : 0);
        while (sum >> 16)
          sum = (sum & 0xffff) + (sum >> 16);
        out(sum);
      })
      .Case([&](np::PktCrcOp c) {
        const nprt_pkt *p = packet(c.getPkt());
        uint32_t crc = 0xffffffffu;
        for (uint64_t k = in (1), end = in (1) + in(2); k < end && k < p->len;
             ++k)
          crc = crcBits(crc, p->data[k], c.getCastagnoli());
        out(~crc);
      })
      .Case([&](np::CrcOp c) {
        unsigned bytes = widthOf(c.getValue().getType()) / 8;
        uint32_t crc = 0xffffffffu;
        for (unsigned k = bytes; k-- > 0;)
          crc = crcBits(crc, (uint8_t)(in(0) >> (8 * k)), c.getCastagnoli());
        out(~crc);
      })
      .Case([&](np::PktCopyOp c) {
        nprt_pkt *dst = packet(c.getDst());
        const nprt_pkt *src = packet(c.getSrc());
        uint64_t doff = in(1), soff = in(3), n = in(4);
        // Read everything first: the two ranges may overlap.
        std::vector<uint8_t> &bytes = copyBuffer;
        bytes.clear();
        for (uint64_t k = 0; k < n && doff + k < dst->len; ++k)
          bytes.push_back(byteAt(src, soff + k));
        for (uint64_t k = 0; k < bytes.size(); ++k)
          dst->data[doff + k] = bytes[k];
      })
      // Diagnostics the run prints: the executable's own code writes them,
      // so both targets print the same lines.
      .Case([&](np::PrintPktOp o) {
        nprt_print_pkt(self, packet(o.getPkt()), o.getLabel().str().c_str(),
                       (int32_t)in(1));
      })
      .Case([&](np::PrintOp o) {
        unsigned w = widthOf(o.getValue().getType());
        uint64_t v = o.getIsSigned() ? (uint64_t)signExtend(in(0), w) : in(0);
        nprt_print_val(self, o.getLabel().str().c_str(), v, o.getIsSigned());
      })
      .Case([&](np::NowOp) { out(nprt_now(self)); })
      .Case([&](np::FinishOp) { nprt_finish(self); })
      .Case([&](np::AnnoGetOp a) {
        out(nprt_pkt_get_anno(packet(a.getPkt()), a.getSlot()));
      })
      .Case([&](np::AnnoSetOp a) {
        nprt_pkt_set_anno(packet(a.getPkt()), a.getSlot(), get(a.getValue()));
      })
      .Case([&](np::HandlerArgOp a) {
        out(nprt_handler_arg(self, a.getIndex()));
      })
      .Case([&](np::HandlerResultOp r) {
        nprt_handler_result(self, get(r.getValue()));
      })
      // The runtime parses each line and calls the handler's entry point,
      // which runs its np.control body here, nested in init.
      .Case([&](np::HandlerLoadOp l) {
        nprt_handler_load(self, l.getHandler().str().c_str(),
                          l.getPath().str().c_str());
      })
      .Case([&](np::TableOp t) {
        Buffer &b = buffer(t.getTable());
        if (!b.table)
          b.table = std::make_unique<RefTable>();
        auto args = t.getArgs();
        out(b.table->run((unsigned)t.getKind(), (unsigned)t.getOp(),
                         t.getCapacity(), t.getKeyWords(), t.getValueWords(),
                         b.words.data(), args.size() > 0 ? get(args[0]) : 0,
                         args.size() > 1 ? get(args[1]) : 0));
      })
      // Packets are words already.
      .Case([&](np::PktToWordOp) { out(in(0)); })
      .Case([&](np::WordToPktOp) { out(in(0)); })
      .Case([&](np::PktPutOp o) {
        out(nprt_pkt_put(packet(o.getPkt()), (uint32_t)in(1)));
      })
      .Case([&](np::PktTakeOp o) {
        out(nprt_pkt_take(packet(o.getPkt()), (uint32_t)in(1)));
      })
      .Case([&](np::PktTruncateOp t) {
        nprt_pkt_truncate(packet(t.getPkt()), (uint32_t)in(1));
      })
      .Default([&](Operation *) {
        llvm_unreachable("checked by Runner::build before the run");
      });
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

/// The np ops builtins become (Builtins.def).
bool isBuiltinOp(Operation *op) {
#define NPL_BUILTIN_OP(Op, runtimeFn, takesSelf) np::Op,
#define NPL_BUILTIN_OTHER_OP(Op) np::Op,
  return isa<
#include "dialects/NP/IR/Builtins.def"
      np::YieldOp>(op);
}

bool supported(Operation *op) {
  if (isa<np::HandlerLoadOp>(op)) // a call into libnprt
    return true;
  if (isBuiltinOp(op))
    return true;
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::DivUIOp,
             arith::RemUIOp, arith::DivSIOp, arith::RemSIOp, arith::ShLIOp,
             arith::ShRUIOp, arith::ShRSIOp, arith::MinUIOp, arith::MaxUIOp,
             arith::MinSIOp, arith::MaxSIOp, arith::CmpIOp, arith::SelectOp,
             arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, scf::IfOp, scf::ForOp,
             scf::WhileOp, scf::YieldOp, scf::ConditionOp, memref::AllocaOp,
             memref::LoadOp, memref::StoreOp, np::StateFieldOp, np::RecvOp,
             np::TryRecvOp, np::SendOp, np::SelectOp, np::PktGetOp,
             np::PktSetOp, np::MetaGetOp, np::MetaSetOp, np::ExitLoopIfOp,
             np::PktToWordOp, np::WordToPktOp, np::TableOp, np::HandlerArgOp,
             np::HandlerResultOp, np::AnnoGetOp, np::AnnoSetOp, np::YieldOp>(
      op);
}

LogicalResult Runner::build(ModuleOp module) {
  auto programs = module.getOps<np::ProgramOp>();
  if (programs.empty())
    return emitError(module.getLoc(), "no program to run");
  np::ProgramOp program = *programs.begin();
  programName = program.getSymName().str();
  if (auto devs = module->getAttrOfType<ArrayAttr>("np.devices"))
    for (Attribute a : devs) {
      auto d = cast<DictionaryAttr>(a);
      auto num = [&](StringRef k) {
        return (uint32_t)cast<IntegerAttr>(d.get(k)).getInt();
      };
      nprt_device_desc dd{};
      dd.output = cast<BoolAttr>(d.get("output")).getValue();
      dd.dev = num("dev");
      dd.path = keep(cast<StringAttr>(d.get("path")).str());
      dd.define = keep(cast<StringAttr>(d.get("define")).str());
      dd.link_type = num("link_type");
      dd.snaplen = num("snaplen");
      devices.push_back(dd);
    }
  bool ok = true;
  unsigned n = program.getElements().size();
  cookies.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    auto ref = cast<FlatSymbolRefAttr>(program.getElements()[i]);
    auto element = module.lookupSymbol<np::ElementOp>(ref.getValue());
    auto inst = std::make_unique<Instance>();
    inst->runner = this;
    inst->element = element;
    std::string ins, outs;
    for (Operation &op : element.getBodyRegion().front()) {
      if (auto port = dyn_cast<np::PortOp>(op)) {
        auto &map = port.isInput() ? inst->inPorts : inst->outPorts;
        std::string &names = port.isInput() ? ins : outs;
        map[port.getSymName()] = map.size();
        names += (names.empty() ? "" : ",") + port.getSymName().str();
      } else if (auto st = dyn_cast<np::StateOp>(op)) {
        auto type = cast<MemRefType>(st.getType());
        if (st.getShared()) {
          // Made once, by the first instance of the source name.
          auto [it, fresh] =
              sharedState[element.getSourceName()].try_emplace(st.getSymName());
          inst->shared[st.getSymName()] = &it->second;
          if (!fresh)
            continue;
        }
        Buffer &b = st.getShared() ? *inst->shared[st.getSymName()]
                                   : inst->state[st.getSymName()];
        b.width = widthOf(type.getElementType());
        b.words.assign(type.getNumElements(), 0);
        if (auto init = st.getInitialValueAttr()) {
          auto dense = cast<DenseIntElementsAttr>(init);
          unsigned k = 0;
          for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
            if (k < b.words.size())
              b.words[k++] = maskTo(v.getZExtValue(), b.width);
        }
      } else if (auto body = dyn_cast<np::InitOp>(op)) {
        inst->init = &body.getBodyRegion();
      } else if (auto body = dyn_cast<np::HandlerOp>(op)) {
        inst->handler = &body.getBodyRegion();
      } else if (auto body = dyn_cast<np::SignalOp>(op)) {
        inst->signal = &body.getBodyRegion();
      } else if (auto body = dyn_cast<np::FiniOp>(op)) {
        inst->fini = &body.getBodyRegion();
      } else if (auto body = dyn_cast<np::TimerOp>(op)) {
        inst->timer = &body.getBodyRegion();
        inst->timerPeriod = body.getPeriod();
      } else if (auto body = dyn_cast<np::ControlOp>(op)) {
        if (inst->controls.size() == kMaxControls) {
          body.emitError("the reference interpreter runs at most ")
              << kMaxControls << " handlers per element";
          ok = false;
          continue;
        }
        nprt_handler_desc h{};
        h.name = keep(body.getName().str());
        h.write = body.getWrite();
        h.fn = kControlEntries[inst->controls.size()];
        h.result = body.getResultKind();
        auto &k = inst->kinds.emplace_back(body.getParamKinds().begin(),
                                           body.getParamKinds().end());
        auto &d = inst->defaults.emplace_back(body.getParamDefaults().begin(),
                                              body.getParamDefaults().end());
        h.n_params = k.size();
        h.params = k.empty() ? nullptr : k.data();
        h.defaults = d.empty() ? nullptr : d.data();
        inst->controls.push_back(&body.getBodyRegion());
        inst->controlDescs.push_back(h);
      }
    }
    element.walk([&](Operation *op) {
      if (op == element.getOperation() ||
          isa<np::PortOp, np::StateOp, np::InitOp, np::HandlerOp, np::SignalOp,
              np::TimerOp, np::FiniOp, np::ControlOp>(op) ||
          supported(op))
        return;
      op->emitError("the reference interpreter cannot run '")
          << op->getName() << "'";
      ok = false;
    });
    cookies[i] = {this, i};
    nprt_instance_desc d{};
    d.name = keep(cast<StringAttr>(program.getNames()[i]).str());
    auto origin = element->getAttrOfType<StringAttr>("origin");
    d.element = keep(origin ? origin.str() : element.getSymName().str());
    d.in_ports = keep(ins);
    d.out_ports = keep(outs);
    d.placement = keep(cast<StringAttr>(program.getPlacements()[i]).str());
    d.init = inst->init ? runBody<&Instance::init> : nullptr;
    d.handler = runBody<&Instance::handler>;
    d.signal = inst->signal ? runSignal : nullptr;
    d.timer = inst->timer ? runBody<&Instance::timer> : nullptr;
    d.timer_period = inst->timerPeriod;
    d.fini = inst->fini ? runBody<&Instance::fini> : nullptr;
    d.handlers =
        inst->controlDescs.empty() ? nullptr : inst->controlDescs.data();
    d.n_handlers = inst->controlDescs.size();
    d.push_ports = np::pushPortMask(element);
    d.state_size = sizeof(Cookie);
    d.state_init = &cookies[i];
    descs.push_back(d);
    instances.push_back(std::move(inst));
  }
  // Values wait in the same channels as on the C target: the same calls
  // count toward the depth limit.
  std::vector<bool> uncounted = np::uncountedChannels(program);
  for (unsigned i = 0, e = program.getChannels().size(); i < e; ++i) {
    np::ProgramOp::Channel c = program.getChannel(i);
    channels.push_back({c.src, c.srcPort, c.dst, c.dstPort, c.depth, c.lossy,
                        /*fused=*/false, uncounted[i]});
  }
  return success(ok);
}

int Runner::run(const std::vector<std::string> &args) {
  nprt_program program{};
  program.name = programName.c_str();
  program.instances = descs.data();
  program.n_instances = descs.size();
  program.channels = channels.data();
  program.n_channels = channels.size();
  program.devices = devices.empty() ? nullptr : devices.data();
  program.n_devices = devices.size();
  std::vector<std::string> copies(args);
  std::vector<char *> argv;
  for (std::string &a : copies)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  // Interpreting nests C++ frames per scf region: more than compiled C.
  nprt_host host{};
  host.stack_bytes = size_t(16) << 20;
  return nprt_main_hosted((int)copies.size(), argv.data(), &program, &host);
}

} // namespace

int runGraph(ModuleOp module, const std::vector<std::string> &args) {
  Runner runner;
  if (failed(runner.build(module)))
    return 1;
  return runner.run(args);
}

} // namespace npcc::interp
