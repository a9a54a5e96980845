//===- IIReport.cpp - initiation interval of elements on the FPGA ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One walk over a handler counts, per iteration (one received datum), the
// accesses to each block RAM, the uses of each port, the table operations
// and the loops that stay loops; branches count their busier arm, since
// HLS shares a port between exclusive arms. docs/hls-ii-report.md is the
// model.
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/IIReport.h"
#include "targets/hls/Transforms/HLSMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

/// Clocks an LPM insert or remove takes on the packet path: it rewrites
/// the nodes of the 4 levels of an 8-bit-stride trie, one level per clock.
constexpr unsigned kLPMUpdateII = 4;
/// Loops with at most this many iterations are unrolled under
/// assumeHLSPasses (ClickNP unrolls "small loops").
constexpr int64_t kUnrollLimit = 64;
/// The memory key of the packet buffer (payload flits in block RAM).
constexpr llvm::StringLiteral kPacketBuffer = "packet buffer";

unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

/// Uses of one memory or port in one iteration, and where the first is.
struct Use {
  unsigned count = 0;
  std::optional<Location> loc;
  /// The packets sent, when every use is a send of a packet outside an
  /// unrolled loop: a packet is sent once (it is linear), so sends of the
  /// same packet on different paths never both run, whatever the branch
  /// structure (an early `return` leaves them in sequence).
  llvm::SmallSetVector<Value, 2> packets;
  bool linear = true;

  /// The uses per datum: the smaller of the two bounds.
  unsigned effective() const {
    return linear ? std::min<unsigned>(count, packets.size()) : count;
  }
  void merge(const Use &other) {
    if (!loc)
      loc = other.loc;
    packets.insert(other.packets.begin(), other.packets.end());
    linear &= other.linear;
  }
};

/// What one block (one iteration of it) uses.
struct Usage {
  llvm::MapVector<StringRef, Use> memories;
  llvm::MapVector<StringRef, Use> sends, recvs;
  /// The largest II of a loop that stays a loop, inside this block.
  unsigned loopII = 1;

  static void addTo(llvm::MapVector<StringRef, Use> &to,
                    const llvm::MapVector<StringRef, Use> &from,
                    unsigned times) {
    for (auto &[key, use] : from) {
      Use &u = to[key];
      u.count += use.count * times;
      u.merge(use);
      if (times > 1)
        u.linear = false;
    }
  }
  static void maxInto(llvm::MapVector<StringRef, Use> &to,
                      const llvm::MapVector<StringRef, Use> &from) {
    for (auto &[key, use] : from) {
      Use &u = to[key];
      u.count = std::max(u.count, use.count);
      u.merge(use);
    }
  }
  void add(const Usage &other, unsigned times) {
    addTo(memories, other.memories, times);
    addTo(sends, other.sends, times);
    addTo(recvs, other.recvs, times);
    loopII = std::max(loopII, other.loopII);
  }
  void maxWith(const Usage &other) {
    maxInto(memories, other.memories);
    maxInto(sends, other.sends);
    maxInto(recvs, other.recvs);
    loopII = std::max(loopII, other.loopII);
  }
  /// The II this usage alone needs (ports of memories and streams, loops).
  unsigned ii() const {
    unsigned result = loopII;
    for (auto &[key, use] : memories)
      result = std::max(result, ceilDiv(use.count, kHLSBlockRAMPorts));
    for (auto &[key, use] : sends)
      result = std::max(result, use.effective());
    for (auto &[key, use] : recvs)
      result = std::max(result, use.effective());
    return result;
  }
};

/// Reads and writes of one block RAM anywhere in the handler.
struct Dependence {
  llvm::SetVector<StringRef> loaded, stored;
  std::optional<Location> loadLoc, storeLoc;
};

class IIAnalysis {
public:
  IIAnalysis(ElementOp element, const IIOptions &options)
      : element(element), options(options) {
    for (auto state : element.getBody()->getOps<StateOp>())
      states[state.getSymName()] = state;
    element.walk([&](TableOp table) {
      if (StateOp state = stateOf(table.getTable()))
        tables.insert(state.getSymName());
    });
  }

  IIResult run() {
    IIResult result;
    HandlerOp handler;
    for (auto h : element.getBody()->getOps<HandlerOp>())
      handler = h;
    if (!handler)
      return result;
    source = true;
    handler.walk([&](Operation *op) {
      if (isa<RecvOp, TryRecvOp, DeviceRecvOp>(op))
        source = false;
    });
    Usage usage = visitBlock(handler.getBodyRegion().front(), true);
    reportUsage(usage);
    reportDependences();
    reportTables();
    // An unrolled loop visits its body once per iteration: keep one of
    // each cause.
    SmallVector<IIReason> unique;
    for (IIReason &reason : reasons)
      if (llvm::none_of(unique, [&](const IIReason &r) {
            return r.kind == reason.kind && r.subject == reason.subject &&
                   r.loc == reason.loc && r.ii == reason.ii;
          }))
        unique.push_back(std::move(reason));
    reasons = std::move(unique);
    llvm::stable_sort(reasons, byII);
    for (IIReason &reason : reasons)
      result.ii =
          reason.ii == 0 || result.ii == 0 ? 0 : std::max(result.ii, reason.ii);
    result.reasons = std::move(reasons);
    return result;
  }

private:
  ElementOp element;
  const IIOptions &options;
  llvm::StringMap<StateOp> states;
  llvm::SmallSetVector<StringRef, 4> tables;
  llvm::MapVector<StringRef, Dependence> dependences;
  /// Per table: lookups and updates in the handler, first location.
  struct TableUse {
    unsigned lookups = 0, updates = 0;
    bool lpm = false;
    std::optional<Location> updateLoc;
  };
  llvm::MapVector<StringRef, TableUse> tableUses;
  SmallVector<IIReason> reasons;
  /// The handler receives nothing: each value it sends is a datum.
  bool source = false;
  /// Induction values of the loop iterations being unrolled.
  llvm::DenseMap<Value, int64_t> ivValues;

  /// Highest II first; II 0 (no bound) before all.
  static bool byII(const IIReason &a, const IIReason &b) {
    return (a.ii - 1u) > (b.ii - 1u);
  }

  StateOp stateOf(Value memref) {
    StringRef name = stateNameOf(memref);
    return name.empty() ? StateOp() : states.lookup(name);
  }

  /// The memory `state` lives in, under the options.
  StringRef memoryOf(StateOp state) {
    return options.assumeHLSPasses ? state.getSymName() : hlsMemoryName(state);
  }

  bool delayed(StateOp state) {
    return options.assumeHLSPasses || hasDelayedWrite(state);
  }

  /// Constant trip count of a loop.
  std::optional<int64_t> tripCount(scf::ForOp loop) {
    auto lb = constantOf(loop.getLowerBound());
    auto ub = constantOf(loop.getUpperBound());
    auto step = constantOf(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    return *ub <= *lb ? 0 : (*ub - *lb + *step - 1) / *step;
  }

  /// The value of `value` when arith folds it to a constant (through the
  /// casts and arithmetic the front end leaves on offsets and indices).
  std::optional<int64_t> constantOf(Value value, unsigned depth = 0) {
    if (auto c = getConstantIntValue(value))
      return c;
    if (auto it = ivValues.find(value); it != ivValues.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    if (!def || depth > 16 || def->getNumResults() != 1)
      return std::nullopt;
    auto operand = [&](unsigned i) {
      return constantOf(def->getOperand(i), depth + 1);
    };
    unsigned width = 64;
    if (auto type = dyn_cast<IntegerType>(value.getType()))
      width = type.getWidth();
    auto wrap = [&](std::optional<int64_t> v) -> std::optional<int64_t> {
      if (!v || width >= 64)
        return v;
      return static_cast<int64_t>(static_cast<uint64_t>(*v) &
                                  ((uint64_t(1) << width) - 1));
    };
    if (isa<arith::ExtUIOp, arith::IndexCastUIOp, arith::IndexCastOp,
            arith::TruncIOp>(def))
      return wrap(operand(0));
    if (isa<arith::ExtSIOp>(def)) {
      auto v = operand(0);
      auto fromType = dyn_cast<IntegerType>(def->getOperand(0).getType());
      unsigned from = fromType ? fromType.getWidth() : 64;
      if (!v || from >= 64)
        return v;
      return wrap(llvm::SignExtend64(static_cast<uint64_t>(*v), from));
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      auto c = operand(0);
      if (!c)
        return std::nullopt;
      return operand(*c ? 1 : 2);
    }
    if (def->getNumOperands() != 2)
      return std::nullopt;
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    uint64_t x = *a, y = *b;
    if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        return x == y;
      case arith::CmpIPredicate::ne:
        return x != y;
      case arith::CmpIPredicate::ult:
        return x < y;
      case arith::CmpIPredicate::ule:
        return x <= y;
      case arith::CmpIPredicate::ugt:
        return x > y;
      case arith::CmpIPredicate::uge:
        return x >= y;
      default:
        return std::nullopt;
      }
    }
    if (isa<arith::AddIOp>(def))
      return wrap(x + y);
    if (isa<arith::SubIOp>(def))
      return wrap(x - y);
    if (isa<arith::MulIOp>(def))
      return wrap(x * y);
    if (isa<arith::AndIOp>(def))
      return wrap(x & y);
    if (isa<arith::OrIOp>(def))
      return wrap(x | y);
    if (isa<arith::XOrIOp>(def))
      return wrap(x ^ y);
    if (isa<arith::ShLIOp>(def))
      return y < 64 ? wrap(x << y) : std::nullopt;
    if (isa<arith::ShRUIOp>(def))
      return y < 64 ? wrap(x >> y) : std::nullopt;
    if (isa<arith::MinUIOp>(def))
      return std::min(x, y);
    if (isa<arith::MaxUIOp>(def))
      return std::max(x, y);
    return std::nullopt;
  }

  /// Whether `value` is a constant once loops with constant bounds are
  /// unrolled (only under assumeHLSPasses; otherwise a folded constant).
  bool isStatic(Value value, unsigned depth = 0) {
    if (constantOf(value))
      return true;
    if (!options.assumeHLSPasses || depth > 16)
      return false;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      return loop && arg == loop.getInductionVar() && tripCount(loop);
    }
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() || !isPure(def))
      return false;
    return llvm::all_of(def->getOperands(),
                        [&](Value v) { return isStatic(v, depth + 1); });
  }

  static void count(llvm::MapVector<StringRef, Use> &map, StringRef key,
                    Location loc, Value sent = {}) {
    Use &use = map[key];
    if (!use.count++)
      use.loc = loc;
    if (sent && isa<PacketType>(sent.getType()))
      use.packets.insert(sent);
    else
      use.linear = false;
  }

  /// A packet access at `offset` for `bytes` bytes: a register of the
  /// header window (a constant offset inside it, or one np-header-window
  /// proved inside), or the packet buffer.
  void packetAccess(Usage &usage, Operation *op, Value offset, int64_t bytes,
                    Location loc) {
    if (op->hasAttr(kHLSHeaderWindowAttr))
      return;
    if (auto c = constantOf(offset)) {
      if (*c >= 0 && *c + bytes <= kHLSHeaderWindowBytes)
        return;
    } else if (isStatic(offset)) {
      return;
    }
    count(usage.memories, kPacketBuffer, loc);
  }

  void stateAccess(Usage &usage, Value memref, bool store, Location loc) {
    StateOp state = stateOf(memref);
    if (!state)
      return; // a local: registers
    if (tables.contains(state.getSymName()))
      return; // the slot words of a table: registers
    if (hlsMemoryKind(state) != HLSMemoryKind::BlockRAM)
      return;
    StringRef memory = memoryOf(state);
    count(usage.memories, memory, loc);
    Dependence &dep = dependences[memory];
    if (store) {
      if (delayed(state))
        return;
      dep.stored.insert(state.getSymName());
      if (!dep.storeLoc)
        dep.storeLoc = loc;
    } else {
      dep.loaded.insert(state.getSymName());
      if (!dep.loadLoc)
        dep.loadLoc = loc;
    }
  }

  Usage visitBlock(Block &block, bool record) {
    Usage usage;
    for (Operation &op : block)
      visitOp(&op, usage, record);
    return usage;
  }

  void visitOp(Operation *op, Usage &usage, bool record) {
    Location loc = op->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return stateAccess(usage, load.getMemRef(), false, loc);
    if (auto store = dyn_cast<memref::StoreOp>(op))
      return stateAccess(usage, store.getMemRef(), true, loc);
    if (auto recv = dyn_cast<RecvOp>(op))
      return count(usage.recvs, recv.getPort(), loc);
    if (auto recv = dyn_cast<TryRecvOp>(op))
      return count(usage.recvs, recv.getPort(), loc);
    if (auto send = dyn_cast<SendOp>(op))
      return count(usage.sends, send.getPort(), loc, send.getValue());
    if (auto send = dyn_cast<FusedSendOp>(op))
      return count(usage.sends, send.getPort(), loc, send.getValue());
    if (isa<DeviceRecvOp>(op))
      return count(usage.recvs, "device", loc);
    if (isa<DeviceSendOp>(op))
      return count(usage.sends, "device", loc);
    if (auto get = dyn_cast<PktGetOp>(op))
      return packetAccess(usage, op, get.getOffset(),
                          (get.getBit() + get.getWidth() + 7) / 8, loc);
    if (auto set = dyn_cast<PktSetOp>(op))
      return packetAccess(usage, op, set.getOffset(),
                          (set.getBit() + set.getWidth() + 7) / 8, loc);
    if (auto table = dyn_cast<TableOp>(op))
      return tableAccess(usage, table);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return visitLoop(loop, usage, record);
    if (op->getNumRegions() == 0)
      return;
    if (isa<scf::WhileOp>(op)) {
      // NPL emits no while loops; a hand-written one has no trip count.
      Usage body;
      for (Region &region : op->getRegions())
        for (Block &block : region)
          body.add(visitBlock(block, false), 1);
      if (record)
        reasons.push_back({"loop", "while", 0, loc,
                           "loop with no constant trip count: the handler "
                           "takes an unknown number of clocks per datum"});
      return;
    }
    // A branch the front end left with a constant condition: one arm.
    if (auto branch = dyn_cast<scf::IfOp>(op))
      if (auto c = constantOf(branch.getCondition())) {
        Region &taken = *c ? branch.getThenRegion() : branch.getElseRegion();
        for (Block &block : taken)
          usage.add(visitBlock(block, record), 1);
        return;
      }
    if (auto branch = dyn_cast<scf::IndexSwitchOp>(op))
      if (auto c = constantOf(branch.getArg())) {
        Region *taken = &branch.getDefaultRegion();
        for (auto [value, region] :
             llvm::zip(branch.getCases(), branch.getCaseRegions()))
          if (value == *c)
            taken = &region;
        for (Block &block : *taken)
          usage.add(visitBlock(block, record), 1);
        return;
      }
    // scf.if, scf.index_switch: one arm runs; HLS shares ports between them.
    Usage arms;
    for (Region &region : op->getRegions()) {
      Usage arm;
      for (Block &block : region)
        arm.add(visitBlock(block, record), 1);
      arms.maxWith(arm);
    }
    usage.add(arms, 1);
  }

  /// Whether each iteration of `loop` moves a datum of its own: it
  /// receives, or it sends and is either in a source's handler or too long
  /// to unroll. Such a loop is the pipeline (as the handler's loop is): it
  /// costs its body's clocks per datum, and np-unroll leaves it alone.
  bool movesData(scf::ForOp loop, std::optional<int64_t> trips) {
    bool receives = false, sends = false;
    loop.getBody()->walk([&](Operation *op) {
      receives |= isa<RecvOp, TryRecvOp, DeviceRecvOp>(op);
      sends |= isa<SendOp, FusedSendOp, DeviceSendOp>(op);
    });
    return receives || (sends && (source || !trips || *trips > kUnrollLimit));
  }

  void visitLoop(scf::ForOp loop, Usage &usage, bool record) {
    std::optional<int64_t> trips = tripCount(loop);
    bool datum = movesData(loop, trips);
    if (options.assumeHLSPasses && !datum && trips && *trips <= kUnrollLimit) {
      // np-unroll: the iterations side by side, their accesses in one
      // clock; each sees its own induction value, so branches on it fold.
      int64_t lb = *constantOf(loop.getLowerBound());
      int64_t step = *constantOf(loop.getStep());
      for (int64_t k = 0; k < *trips; ++k) {
        ivValues[loop.getInductionVar()] = lb + k * step;
        usage.add(visitBlock(*loop.getBody(), record), 1);
      }
      ivValues.erase(loop.getInductionVar());
      return;
    }
    SmallVector<IIReason> outer;
    std::swap(outer, reasons);
    Usage body = visitBlock(*loop.getBody(), datum && record);
    if (datum)
      reportUsage(body);
    std::swap(outer, reasons);
    llvm::stable_sort(outer, byII);
    uint64_t bodyII = body.ii();
    uint64_t ii = datum   ? bodyII
                  : trips ? std::max<int64_t>(*trips, 1) * bodyII
                          : 0;
    ii = std::min<uint64_t>(ii, UINT32_MAX);
    usage.loopII = std::max<unsigned>(usage.loopII, ii ? ii : 1u);
    if (!record || ii == 1)
      return;
    std::string subject =
        trips ? std::string(llvm::formatv("{0} iterations", *trips))
              : std::string("unknown trip count");
    if (datum) {
      std::string why = outer.empty() ? "" : ": " + outer.front().text;
      reasons.push_back({"loop", subject, static_cast<unsigned>(ii),
                         loop.getLoc(),
                         llvm::formatv("each iteration of this loop moves a "
                                       "datum and takes {0} clocks{1}",
                                       ii, why)});
      return;
    }
    bool exits = false;
    loop.getBody()->walk([&](ExitLoopIfOp) { exits = true; });
    std::string what;
    if (!trips)
      what = "loop with no constant trip count";
    else if (exits)
      what = llvm::formatv("loop that runs until its condition fails, up "
                           "to its bound of {0} iterations",
                           *trips);
    else if (loop->hasAttr("np.unroll"))
      what = llvm::formatv("loop marked unroll runs up to its bound, {0} "
                           "iterations",
                           *trips);
    else
      what = llvm::formatv("loop of {0} iterations (constant bounds)", *trips);
    std::string per =
        bodyII == 1 ? std::string("one per clock")
                    : std::string(llvm::formatv("{0} clocks each", bodyII));
    std::string fix;
    if (trips && *trips <= kUnrollLimit)
      fix = "; np-unroll flattens it";
    else if (trips)
      fix = llvm::formatv("; too long to unroll (more than {0} iterations)",
                          kUnrollLimit);
    reasons.push_back(
        {"loop", subject, static_cast<unsigned>(ii), loop.getLoc(),
         what + ", " + per + ", on the path of every datum" + fix});
  }

  void tableAccess(Usage &usage, TableOp table) {
    StateOp state = stateOf(table.getTable());
    if (!state)
      return;
    StringRef name = state.getSymName();
    TableUse &use = tableUses[name];
    use.lpm = table.getKind() == TableKind::Lpm;
    switch (table.getOp()) {
    case TableOpKind::Count:
      return; // a register
    case TableOpKind::Lookup:
      ++use.lookups;
      break;
    case TableOpKind::Insert:
    case TableOpKind::Remove:
    case TableOpKind::Clear:
      if (!use.updates++)
        use.updateLoc = table.getLoc();
      break;
    }
    count(usage.memories, name, table.getLoc());
  }

  /// "state 'tab' (fields key, val in one memory)" or "state 'bitmap'".
  std::string describeMemory(StringRef memory) {
    if (memory == kPacketBuffer)
      return "the packet buffer";
    if (tables.contains(memory))
      return ("table '" + memory + "'").str();
    SmallVector<StringRef> fields;
    for (auto state : element.getBody()->getOps<StateOp>())
      if (memoryOf(state) == memory && state.getSymName() != memory) {
        StringRef field = state.getSymName();
        field.consume_front((memory + ".").str());
        fields.push_back(field);
      }
    std::string text = ("state '" + memory + "'").str();
    if (!fields.empty())
      text += " (fields " + llvm::join(fields, ", ") + " in one memory)";
    return text;
  }

  void reportUsage(const Usage &usage) {
    for (auto &[memory, use] : usage.memories) {
      unsigned ii = ceilDiv(use.count, kHLSBlockRAMPorts);
      if (ii <= 1)
        continue;
      reasons.push_back(
          {"ports", memory.str(), ii, *use.loc,
           llvm::formatv("{0} takes {1} accesses per datum on {2} ports",
                         describeMemory(memory), use.count, kHLSBlockRAMPorts)
               .str()});
    }
    auto streams = [&](const llvm::MapVector<StringRef, Use> &map,
                       StringRef verb) {
      for (auto &[port, use] : map) {
        unsigned uses = use.effective();
        if (uses <= 1)
          continue;
        std::string subject =
            port == "device" ? "the device" : ("port '" + port + "'").str();
        reasons.push_back(
            {"stream", port.str(), uses, *use.loc,
             llvm::formatv("{0} {1} {2} values per datum; a stream moves one "
                           "per clock",
                           subject, verb, uses)
                 .str()});
      }
    };
    streams(usage.recvs, "receives");
    // A source's datum is what it sends: one per clock per port is its rate.
    if (!source)
      streams(usage.sends, "sends");
  }

  void reportDependences() {
    for (auto &[memory, dep] : dependences) {
      if (dep.loaded.empty() || dep.stored.empty())
        continue;
      // Scattering separates the fields when none is both read and written.
      bool scatterHelps = llvm::none_of(
          dep.stored, [&](StringRef s) { return dep.loaded.contains(s); });
      std::string fix = scatterHelps ? "np-scatter-memory removes it"
                                     : "np-delay-write removes it";
      std::string text =
          describeMemory(memory) +
          " is read and written for every datum: the next datum's read "
          "waits for this write (read-after-write across iterations, block "
          "RAM read latency 1); " +
          fix;
      reasons.push_back({"dependence", memory.str(), 2, *dep.storeLoc, text});
    }
  }

  void reportTables() {
    for (auto &[name, use] : tableUses) {
      if (!use.updates)
        continue;
      if (use.lpm) {
        reasons.push_back(
            {"table", name.str(), kLPMUpdateII, *use.updateLoc,
             llvm::formatv("LPM table '{0}' is changed on the packet path: an "
                           "insert or remove rewrites up to {1} trie levels, "
                           "one per clock",
                           name, kLPMUpdateII)
                 .str()});
      } else if (use.lookups + use.updates > 1) {
        reasons.push_back(
            {"table", name.str(), 2, *use.updateLoc,
             ("hash table '" + name +
              "' is looked up and changed for every datum: the next lookup "
              "waits for the bucket's write (read-after-write)")
                 .str()});
      }
    }
  }
};

} // namespace

std::string IIResult::summary() const {
  std::string text =
      ii ? std::string(llvm::formatv("II={0}", ii)) : "II unbounded";
  if (!reasons.empty())
    text += ": " + reasons.front().text;
  return text;
}

IIResult hls::computeII(ElementOp element, const IIOptions &options) {
  return IIAnalysis(element, options).run();
}
