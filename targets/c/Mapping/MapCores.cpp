//===- MapCores.cpp - which instances replicate, what runs where ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The facts behind a multicore mapping (docs/multicore.md):
//  - state classification: an instance runs on every core (`rtc`) when what
//    it keeps survives being split: no state written per packet, or only
//    fields declared `merge` and updated with their operator. Everything
//    else (shared counters, tables and queues written per packet, timers,
//    sources without a device, prints) runs once, on core 0, and sees its
//    packets in the order a single core would give them;
//  - a static cost per activation and the share of the traffic each
//    instance sees, hence the work per packet read; with a profile (a run's
//    --stats-json), the measured cycles and traffic where it has them;
//  - for every core count, a pipeline: the graph's strongly connected
//    components in topological order, cut into contiguous stages that
//    balance the work (a cycle is never cut, so values only flow forward;
//    nor are the instances that run once on one element's shared state
//    split, so they share one copy, in the order one core gives; the
//    instances that read an input device come first, all in stage 0,
//    where core 0 reads every packet);
//  - what `auto` picks: the mapping whose busiest core does less work.
//
//===----------------------------------------------------------------------===//

#include "targets/c/Mapping/MapCores.h"
#include "dialects/NP/Transforms/SCC.h"
#include "targets/c/Mapping/CoreProfile.h"
#include "targets/c/Mapping/Passes.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <algorithm>

namespace npcc::c {
#define GEN_PASS_DEF_MAPCORES
#include "targets/c/Mapping/Passes.h.inc"
} // namespace npcc::c

using namespace mlir;
using namespace npcc::np;
using namespace npcc::c;

namespace {

/// Cost of moving one value across cores (a lane message, both ends), in
/// the units of opCost.
constexpr int64_t kLaneCost = 24;

/// Static cost of one operation, roughly in instructions.
int64_t opCost(Operation *op) {
  if (isa<TableOp>(op))
    return 40;
  if (isa<DeviceRecvOp, DeviceSendOp>(op))
    return 60;
  if (isa<CloneOp, PktNewOp>(op))
    return 40;
  if (isa<PktCsumOp, PktCrcOp>(op))
    return 24;
  if (isa<SendOp, RecvOp, SelectOp, DropOp>(op))
    return 6;
  if (isa<PktGetOp, PktSetOp, MetaGetOp, MetaSetOp, AnnoGetOp, AnnoSetOp>(op))
    return 2;
  if (isa<arith::ConstantOp, StateFieldOp, StateRefOp>(op))
    return 0;
  return 1;
}

int64_t regionCost(Region &r);

int64_t costOf(Operation *op) {
  if (op->getNumRegions() == 0)
    return opCost(op);
  if (auto f = dyn_cast<scf::ForOp>(op)) {
    APInt lo, hi, step;
    int64_t trips = 16;
    if (matchPattern(f.getLowerBound(), m_ConstantInt(&lo)) &&
        matchPattern(f.getUpperBound(), m_ConstantInt(&hi)) &&
        matchPattern(f.getStep(), m_ConstantInt(&step)) && step.sgt(0))
      trips = std::max<int64_t>(
          0, (hi.getSExtValue() - lo.getSExtValue() + step.getSExtValue() - 1) /
                 step.getSExtValue());
    // A loop that can leave early (a search, a walk over options) is
    // costed for a few trips; packets rarely take the long way.
    bool early = false;
    f.getRegion().walk([&](ExitLoopIfOp) { early = true; });
    trips = std::min<int64_t>(trips, early ? 4 : 256);
    return 2 + trips * regionCost(f.getRegion());
  }
  if (auto i = dyn_cast<scf::IfOp>(op))
    return 1 + std::max(regionCost(i.getThenRegion()),
                        regionCost(i.getElseRegion()));
  int64_t sum = 1;
  for (Region &r : op->getRegions())
    sum += regionCost(r);
  // A loop of unknown trip count: assume a few trips.
  if (isa<scf::WhileOp>(op))
    sum *= 8;
  return sum;
}

int64_t regionCost(Region &r) {
  int64_t sum = 0;
  for (Block &b : r)
    for (Operation &op : b)
      sum += costOf(&op);
  return sum;
}

/// `a` and `b` compute the same value: the same SSA value, equal
/// constants, or the same pure operation on the same values (an index
/// expression written twice in the source).
bool sameValue(Value a, Value b, unsigned depth = 0) {
  if (a == b)
    return true;
  APInt x, y;
  if (matchPattern(a, m_ConstantInt(&x)) && matchPattern(b, m_ConstantInt(&y)))
    return x.getBitWidth() == y.getBitWidth() && x == y;
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (!da || !db || depth > 8 || da->getName() != db->getName() ||
      !isPure(da) || da->getNumRegions() ||
      da->getAttrDictionary() != db->getAttrDictionary() ||
      da->getNumOperands() != db->getNumOperands() ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (unsigned i = 0; i < da->getNumOperands(); ++i)
    if (!sameValue(da->getOperand(i), db->getOperand(i), depth + 1))
      return false;
  return true;
}

/// The state a memref value names, or null.
StringAttr stateOf(Value m) {
  Operation *d = m.getDefiningOp();
  if (auto f = dyn_cast_or_null<StateFieldOp>(d))
    return f.getStateAttr().getAttr();
  if (auto r = dyn_cast_or_null<StateRefOp>(d))
    return r.getStateAttr().getAttr();
  return {};
}

bool sameAccess(memref::LoadOp load, memref::StoreOp store) {
  if (stateOf(load.getMemref()) != stateOf(store.getMemref()) ||
      load.getIndices().size() != store.getIndices().size())
    return false;
  for (auto [a, b] : llvm::zip(load.getIndices(), store.getIndices()))
    if (!sameValue(a, b))
      return false;
  return true;
}

/// The load of the old value behind `v`: the load itself, or a bounds
/// check the front end wraps around it (`scf.if in_range { load } else
/// { constant }`, read when the index is out of range), whose result is
/// used once.
memref::LoadOp oldValue(Value v) {
  if (auto l = v.getDefiningOp<memref::LoadOp>())
    return l->hasOneUse() ? l : memref::LoadOp();
  auto ifOp = v.getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp->getNumResults() != 1 || !v.hasOneUse() ||
      ifOp.getElseRegion().empty())
    return {};
  auto yielded = [](Region &r) {
    return cast<scf::YieldOp>(r.front().getTerminator()).getOperand(0);
  };
  Value t = yielded(ifOp.getThenRegion()), e = yielded(ifOp.getElseRegion());
  APInt c;
  auto l = t.getDefiningOp<memref::LoadOp>();
  if (!l || !l->hasOneUse() || !matchPattern(e, m_ConstantInt(&c)))
    return {};
  return l;
}

/// The merge operator `cond ? a : b` computes when `cond` compares `a` and
/// `b` (umax for `a > b ? a : b`, ...), or "".
std::string selectMerge(arith::SelectOp sel) {
  auto cmp = sel.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return "";
  Value a = sel.getTrueValue(), b = sel.getFalseValue();
  bool same = cmp.getLhs() == a && cmp.getRhs() == b;
  bool swapped = cmp.getLhs() == b && cmp.getRhs() == a;
  if (!same && !swapped)
    return "";
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  // Picks the larger of lhs and rhs when true.
  bool greater = p == P::ugt || p == P::uge || p == P::sgt || p == P::sge;
  bool less = p == P::ult || p == P::ule || p == P::slt || p == P::sle;
  if (!greater && !less)
    return "";
  bool isSigned = p == P::sgt || p == P::sge || p == P::slt || p == P::sle;
  // true picks a: lhs when `same`, rhs when swapped.
  bool picksMax = same ? greater : less;
  return std::string(isSigned ? "s" : "u") + (picksMax ? "max" : "min");
}

/// `store` writes `state` combined with `merge`: `x = x OP e` (either
/// operand order), or for `or` a constant with every bit set. Sets `load`
/// to the read of the old value, if any.
bool mergeStore(memref::StoreOp store, StringRef merge, Operation *&load) {
  load = nullptr;
  Value v = store.getValueToStore();
  APInt c;
  if (merge == "or" && matchPattern(v, m_ConstantInt(&c)) && c.isAllOnes())
    return true;
  Operation *def = v.getDefiningOp();
  if (auto sel = dyn_cast_or_null<arith::SelectOp>(def)) {
    // max(a, b) as the front end writes it: a > b ? a : b.
    if (selectMerge(sel) != merge)
      return false;
    for (Value operand : {sel.getTrueValue(), sel.getFalseValue()})
      if (auto l = operand.getDefiningOp<memref::LoadOp>())
        if (sameAccess(l, store) && sel->hasOneUse() &&
            llvm::all_of(l->getUsers(), [&](Operation *u) {
              return u == sel || u == sel.getCondition().getDefiningOp();
            })) {
          load = l;
          return true;
        }
    return false;
  }
  if (!def || def->getNumOperands() != 2)
    return false;
  bool kind = (merge == "sum" && isa<arith::AddIOp>(def)) ||
              (merge == "or" && isa<arith::OrIOp>(def)) ||
              (merge == "umax" && isa<arith::MaxUIOp>(def)) ||
              (merge == "smax" && isa<arith::MaxSIOp>(def)) ||
              (merge == "umin" && isa<arith::MinUIOp>(def)) ||
              (merge == "smin" && isa<arith::MinSIOp>(def));
  if (!kind)
    return false;
  for (Value operand : def->getOperands())
    if (memref::LoadOp l = oldValue(operand))
      if (sameAccess(l, store) && def->hasOneUse()) {
        load = l;
        return true;
      }
  return false;
}

struct Classification {
  bool replicate = true;
  std::string why;
  std::vector<std::string> notes;
};

/// How instance of `element` may be split across cores.
Classification classify(ElementOp element) {
  Classification c;
  auto once = [&](const Twine &why) {
    if (c.replicate) {
      c.replicate = false;
      c.why = why.str();
    }
  };
  llvm::StringMap<StateOp> states;
  for (auto s : element.getBody()->getOps<StateOp>())
    states[s.getSymName()] = s;
  bool hasInputs = false;
  for (auto p : element.getBody()->getOps<PortOp>())
    hasInputs |= p.isInput();
  if (!element.getBody()->getOps<TimerOp>().empty())
    once("has a timer: one copy keeps its time");
  // Tables: their slot words are scratch, written by every lookup.
  llvm::StringSet<> tables;
  element.walk([&](TableOp t) {
    if (StringAttr s = stateOf(t.getTable()))
      tables.insert(s.getValue());
  });
  bool readsDevice = false;
  // Per state: written per packet; and for merged state, whether every
  // access is a merge update.
  llvm::StringMap<bool> written, badMerge;
  llvm::SmallPtrSet<Operation *, 8> mergeLoads;
  for (auto h : element.getBody()->getOps<HandlerOp>()) {
    h.walk([&](Operation *op) {
      if (isa<DeviceRecvOp>(op))
        readsDevice = true;
      else if (isa<PrintOp, PrintPktOp>(op))
        once("prints: one copy keeps the lines in packet order");
      else if (isa<FinishOp>(op))
        once("ends itself: one copy decides when");
      if (auto t = dyn_cast<TableOp>(op)) {
        TableOpKind k = t.getOp();
        if (k == TableOpKind::Insert || k == TableOpKind::Remove ||
            k == TableOpKind::Clear)
          if (StringAttr s = stateOf(t.getTable()))
            written[s.getValue()] = true;
      }
      auto store = dyn_cast<memref::StoreOp>(op);
      if (!store)
        return;
      StringAttr s = stateOf(store.getMemref());
      if (!s || tables.contains(s.getValue()))
        return;
      written[s.getValue()] = true;
      StateOp st = states.lookup(s.getValue());
      if (st && st.getMerge()) {
        Operation *load = nullptr;
        if (mergeStore(store, *st.getMerge(), load)) {
          if (load)
            mergeLoads.insert(load);
        } else {
          badMerge[s.getValue()] = true;
        }
      }
    });
    // A merged field read other than to update it would see one core's
    // share.
    h.walk([&](memref::LoadOp l) {
      StringAttr s = stateOf(l.getMemref());
      if (s && !mergeLoads.contains(l)) {
        StateOp st = states.lookup(s.getValue());
        if (st && st.getMerge())
          badMerge[s.getValue()] = true;
      }
    });
  }
  // State the write handlers change: each core's copy takes a write
  // between two of its packets (the runtime's per-core mailboxes).
  llvm::StringSet<> byHandler;
  for (auto ctl : element.getBody()->getOps<ControlOp>()) {
    if (!ctl.getWrite())
      continue;
    ctl.walk([&](Operation *op) {
      StringAttr s;
      if (auto t = dyn_cast<TableOp>(op)) {
        TableOpKind k = t.getOp();
        if (k == TableOpKind::Insert || k == TableOpKind::Remove ||
            k == TableOpKind::Clear)
          s = stateOf(t.getTable());
      } else if (auto store = dyn_cast<memref::StoreOp>(op))
        s = stateOf(store.getMemref());
      if (s)
        byHandler.insert(s.getValue());
    });
  }
  // Shared state is one object for every copy: an init or a signal
  // handler that changes it must run once, or each core's copy changes it
  // again.
  for (Operation &body : element.getBody()->getOperations()) {
    if (!isa<InitOp, SignalOp>(body))
      continue;
    body.walk([&](Operation *op) {
      StringAttr s;
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        s = stateOf(store.getMemref());
      } else if (auto t = dyn_cast<TableOp>(op)) {
        TableOpKind k = t.getOp();
        if (k == TableOpKind::Insert || k == TableOpKind::Remove ||
            k == TableOpKind::Clear)
          s = stateOf(t.getTable());
      }
      StateOp st = s ? states.lookup(s.getValue()) : StateOp();
      if (st && st.getShared())
        once(Twine(isa<InitOp>(body) ? "its init" : "its signal handler") +
             " changes shared state '" + s.getValue() + "': one copy runs it");
    });
  }
  if (!hasInputs && !readsDevice)
    once("makes packets without a device: one copy makes them");
  for (auto s : element.getBody()->getOps<StateOp>()) {
    StringRef name = s.getSymName();
    bool w = written.lookup(name);
    if (s.getShared()) {
      if (w)
        once("updates shared state '" + name +
             "' per packet: one copy keeps the order");
      continue;
    }
    if (std::optional<StringRef> m = s.getMerge()) {
      if (badMerge.lookup(name))
        once("state '" + name +
             "' is declared 'merge' but is read or set "
             "per packet other than by its operator");
      else if (w)
        c.notes.push_back("'" + name.str() + "': per-core copies, merged by " +
                          m->str() + " when read");
      continue;
    }
    if (w) {
      once(tables.contains(name)
               ? "writes table '" + name + "' per packet"
               : "writes state '" + name + "' per packet (no 'merge')");
      continue;
    }
    if (byHandler.contains(name))
      c.notes.push_back((tables.contains(name) ? "table '" : "'") + name.str() +
                        "': written by handlers, per-core copies updated "
                        "between packets (RCU-style)");
    else if (tables.contains(name))
      c.notes.push_back("table '" + name.str() +
                        "': read per packet, set by init: a copy per core");
  }
  if (!c.replicate)
    c.notes.clear();
  return c;
}

struct Graph {
  unsigned n = 0;
  std::vector<std::vector<unsigned>> succ;
  std::vector<ProgramOp::Channel> channels;
};

/// Whether `element` keeps state shared by all its instances.
bool hasSharedState(ElementOp element) {
  return llvm::any_of(element.getBody()->getOps<StateOp>(),
                      [](StateOp st) { return st.getShared(); });
}

/// Marks as running once every replicated instance that is reachable from
/// an instance that runs once and reaches another.
void markBetweenOnce(const Graph &g, std::vector<Classification> &cls) {
  SmallVector<unsigned> once;
  for (unsigned v = 0; v < g.n; ++v)
    if (!cls[v].replicate)
      once.push_back(v);
  std::vector<std::vector<unsigned>> pred(g.n);
  for (unsigned v = 0; v < g.n; ++v)
    for (unsigned w : g.succ[v])
      pred[w].push_back(v);
  auto reach = [&](ArrayRef<unsigned> from,
                   const std::vector<std::vector<unsigned>> &next) {
    std::vector<bool> seen(g.n, false);
    SmallVector<unsigned> work(from.begin(), from.end());
    while (!work.empty()) {
      unsigned v = work.pop_back_val();
      for (unsigned w : next[v])
        if (!seen[w]) {
          seen[w] = true;
          work.push_back(w);
        }
    }
    return seen;
  };
  std::vector<bool> after = reach(once, g.succ);
  std::vector<bool> before = reach(once, pred);
  for (unsigned v = 0; v < g.n; ++v)
    if (cls[v].replicate && after[v] && before[v]) {
      cls[v].replicate = false;
      cls[v].notes.clear();
      cls[v].why = "between instances that run once: one copy keeps the order "
                   "they see";
    }
}

/// Strongly connected components in topological order (sources first,
/// those that read an input device, `first`, before the others); ties by
/// smallest instance index, so the order is deterministic.
std::vector<std::vector<unsigned>> sccsInOrder(const Graph &g,
                                               const std::vector<bool> &first) {
  std::vector<int> comp;
  std::vector<std::vector<unsigned>> comps =
      stronglyConnectedComponents(g.succ, comp);
  // Kahn's algorithm on the condensation.
  unsigned m = comps.size();
  std::vector<bool> early(m, false);
  for (unsigned v = 0; v < g.n; ++v)
    if (first[v])
      early[comp[v]] = true;
  std::vector<unsigned> indeg(m, 0);
  std::vector<std::vector<unsigned>> csucc(m);
  for (unsigned v = 0; v < g.n; ++v)
    for (unsigned w : g.succ[v])
      if (comp[v] != comp[w]) {
        csucc[comp[v]].push_back(comp[w]);
        ++indeg[comp[w]];
      }
  auto cmp = [&](unsigned a, unsigned b) {
    if (early[a] != early[b])
      return bool(early[b]);
    return comps[a].front() > comps[b].front();
  };
  std::vector<unsigned> ready;
  for (unsigned c = 0; c < m; ++c)
    if (!indeg[c])
      ready.push_back(c);
  std::vector<std::vector<unsigned>> order;
  while (!ready.empty()) {
    std::make_heap(ready.begin(), ready.end(), cmp);
    std::pop_heap(ready.begin(), ready.end(), cmp);
    unsigned c = ready.back();
    ready.pop_back();
    order.push_back(comps[c]);
    for (unsigned d : csucc[c])
      if (--indeg[d] == 0)
        ready.push_back(d);
  }
  return order;
}

/// Splits `w` (work per component, in order) into at most `parts`
/// contiguous groups minimising the largest group, where a group also pays
/// kLaneCost per value entering it across a cut (`cut[i]`: the traffic
/// crossing between component i-1 and i) and no group starts at a
/// component i with `noCut[i]`. The table of the best splits into k
/// groups does not depend on the most groups allowed, so it is filled
/// once, up to `maxParts`, for every count of cores (a graph of 5,000
/// instances took seconds when it was refilled for each).
class Partitioner {
public:
  Partitioner(const std::vector<double> &w, const std::vector<double> &cut,
              const std::vector<bool> &noCut, unsigned maxParts)
      : m(w.size()), best(maxParts + 1, std::vector<double>(m + 1, kInf)),
        from(maxParts + 1, std::vector<unsigned>(m + 1, 0)) {
    std::vector<double> prefix(m + 1, 0);
    for (unsigned i = 0; i < m; ++i)
      prefix[i + 1] = prefix[i] + w[i];
    auto groupCost = [&](unsigned a, unsigned b) { // components [a, b)
      return prefix[b] - prefix[a] + (a ? cut[a] * kLaneCost : 0);
    };
    // best[k][i]: first i components in k groups.
    best[0][0] = 0;
    for (unsigned k = 1; k <= maxParts; ++k)
      for (unsigned i = 0; i <= m; ++i)
        for (unsigned j = 0; j <= i; ++j) {
          if (best[k - 1][j] >= kInf || (j < i && noCut[j]))
            continue;
          double c = std::max(best[k - 1][j], j == i ? 0 : groupCost(j, i));
          // Fewer, larger groups win ties: a cut is never free.
          if (c < best[k][i] - 1e-9) {
            best[k][i] = c;
            from[k][i] = j;
          }
        }
  }

  /// Each component's group when at most `parts` groups are allowed.
  std::vector<unsigned> groups(unsigned parts) const {
    unsigned bestK = 1;
    for (unsigned k = 1; k <= parts; ++k)
      if (best[k][m] < best[bestK][m] - 1e-9)
        bestK = k;
    std::vector<unsigned> group(m, 0);
    unsigned i = m;
    for (unsigned k = bestK; k > 0; --k) {
      unsigned j = from[k][i];
      for (unsigned x = j; x < i; ++x)
        group[x] = k - 1;
      i = j;
    }
    // Empty groups in front shift the rest: number the used ones from 0.
    if (m && group[0] != 0) {
      unsigned shift = group[0];
      for (unsigned &g : group)
        g -= shift;
    }
    return group;
  }

private:
  static constexpr double kInf = 1e300;
  unsigned m;
  std::vector<std::vector<double>> best;
  std::vector<std::vector<unsigned>> from;
};

/// Per instance, the packets it sees per packet the sources make (see
/// MapCoresPass::map).
std::vector<double> trafficShares(const Graph &g,
                                  const std::vector<bool> &source,
                                  const std::vector<unsigned> &outs) {
  // Depth-first from the sources first, then from anything left; an edge
  // to an instance on the walk's stack closes a cycle.
  std::vector<int> state(g.n, 0); // 0 new, 1 on the stack, 2 done
  std::vector<std::vector<bool>> back(g.n);
  for (unsigned v = 0; v < g.n; ++v)
    back[v].assign(g.succ[v].size(), false);
  auto walk = [&](unsigned root) {
    std::vector<std::pair<unsigned, unsigned>> st{{root, 0}};
    state[root] = 1;
    while (!st.empty()) {
      auto [v, k] = st.back();
      if (k == g.succ[v].size()) {
        state[v] = 2;
        st.pop_back();
        continue;
      }
      ++st.back().second;
      unsigned w = g.succ[v][k];
      if (state[w] == 1)
        back[v][k] = true;
      else if (state[w] == 0) {
        state[w] = 1;
        st.push_back({w, 0});
      }
    }
  };
  for (unsigned pass = 0; pass < 2; ++pass)
    for (unsigned v = 0; v < g.n; ++v)
      if (state[v] == 0 && (pass == 1 || source[v]))
        walk(v);
  std::vector<unsigned> indeg(g.n, 0);
  for (unsigned v = 0; v < g.n; ++v)
    for (unsigned k = 0; k < g.succ[v].size(); ++k)
      if (!back[v][k])
        ++indeg[g.succ[v][k]];
  std::vector<double> share(g.n, 0);
  std::vector<unsigned> ready;
  for (unsigned v = 0; v < g.n; ++v) {
    if (source[v])
      share[v] = 1;
    if (!indeg[v])
      ready.push_back(v);
  }
  while (!ready.empty()) {
    unsigned v = ready.back();
    ready.pop_back();
    for (unsigned k = 0; k < g.succ[v].size(); ++k) {
      if (back[v][k])
        continue;
      unsigned w = g.succ[v][k];
      share[w] += share[v] / outs[v];
      if (--indeg[w] == 0)
        ready.push_back(w);
    }
  }
  return share;
}

struct MapCoresPass : npcc::c::impl::MapCoresBase<MapCoresPass> {
  using MapCoresBase::MapCoresBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto program : module.getOps<ProgramOp>())
      if (failed(map(program, symbols)))
        return signalPassFailure();
  }

  LogicalResult map(ProgramOp program, SymbolTable &symbols) {
    Builder b(program.getContext());
    Graph g;
    g.n = program.getElements().size();
    g.succ.resize(g.n);
    std::vector<Classification> cls;
    std::vector<int64_t> cost;
    std::vector<bool> source(g.n, false), readsDevice(g.n, false);
    for (unsigned i = 0; i < g.n; ++i) {
      auto ref = cast<FlatSymbolRefAttr>(program.getElements()[i]);
      auto element = symbols.lookup<ElementOp>(ref.getValue());
      if (!element)
        return program.emitOpError() << "names no element " << ref;
      cls.push_back(classify(element));
      int64_t c = 0;
      bool hasInputs = false;
      for (auto p : element.getBody()->getOps<PortOp>())
        hasInputs |= p.isInput();
      for (auto h : element.getBody()->getOps<HandlerOp>()) {
        c += regionCost(h.getBodyRegion());
        h.walk([&](DeviceRecvOp) { readsDevice[i] = true; });
      }
      cost.push_back(std::max<int64_t>(c, 1));
      source[i] = !hasInputs;
    }
    std::vector<unsigned> outs(g.n, 0);
    for (unsigned k = 0; k < program.getChannels().size(); ++k) {
      ProgramOp::Channel ch = program.getChannel(k);
      g.channels.push_back(ch);
      g.succ[ch.src].push_back(ch.dst);
      ++outs[ch.src];
    }
    std::vector<std::vector<unsigned>> order = sccsInOrder(g, readsDevice);
    std::vector<unsigned> compOf(g.n);
    for (unsigned c = 0; c < order.size(); ++c)
      for (unsigned v : order[c])
        compOf[v] = c;
    // Share of the traffic: every source emits 1 per packet; an instance
    // splits what it sees evenly over its connected outputs (a classifier
    // sends each packet one way). Edges that close a cycle, as a
    // depth-first walk from the sources meets them, are not followed: a
    // cycle is taken once.
    std::vector<double> share = trafficShares(g, source, outs);
    std::vector<double> work(g.n);
    for (unsigned v = 0; v < g.n; ++v)
      work[v] = share[v] * cost[v];
    // Per channel: values per packet read.
    std::vector<double> traffic;
    for (const ProgramOp::Channel &ch : g.channels)
      traffic.push_back(outs[ch.src] ? share[ch.src] / outs[ch.src] : 0);

    // A profile replaces the estimates of the instances it measured.
    SmallVector<bool> measured(g.n, false);
    if (!profile.empty()) {
      CoreProfile prof;
      if (failed(readCoreProfile(program, profile, prof)))
        return failure();
      for (unsigned v = 0; v < g.n; ++v) {
        auto it = prof.instances.find(
            cast<StringAttr>(program.getNames()[v]).getValue());
        if (it == prof.instances.end())
          continue;
        const MeasuredInstance &mi = it->second;
        measured[v] = true;
        if (mi.iterations > 0)
          cost[v] =
              std::max<int64_t>(int64_t(mi.cycles / mi.iterations + 0.5), 1);
        work[v] = mi.cycles / prof.read;
        for (unsigned k = 0; k < g.channels.size(); ++k)
          if (g.channels[k].src == v &&
              g.channels[k].srcPort < mi.outPackets.size())
            traffic[k] = mi.outPackets[g.channels[k].srcPort] / prof.read;
      }
    }

    // Pipelines. Traffic crossing between component i-1 and i: every
    // channel from a component before i to one at or after it.
    unsigned m = order.size();
    std::vector<double> cw(m, 0), cut(m + 1, 0);
    for (unsigned c = 0; c < m; ++c)
      for (unsigned v : order[c])
        cw[c] += work[v];
    for (unsigned k = 0; k < g.channels.size(); ++k) {
      const ProgramOp::Channel &ch = g.channels[k];
      unsigned a = compOf[ch.src], d = compOf[ch.dst];
      for (unsigned i = a + 1; i <= d && i < m; ++i)
        cut[i] += traffic[k];
    }
    // Under rtc, what lies on a way between two instances that run once
    // runs once too: core 0 then takes a packet's whole way between them
    // before the next packet's, where a second copy of it on core 0 (the
    // tail) would queue what it sends behind other packets, and the later
    // instance would see another order than on one core (npsmith, seeds
    // 201457 and 111079).
    markBetweenOnce(g, cls);

    // Instances that run once on the shared state of one element (its
    // source name: one object for all its specialisations) stay in one
    // stage: no cut inside the span of their components.
    std::vector<bool> noCut(m + 1, false);
    llvm::StringMap<std::pair<unsigned, unsigned>> sharedSpan;
    for (unsigned v = 0; v < g.n; ++v) {
      auto ref = cast<FlatSymbolRefAttr>(program.getElements()[v]);
      auto element = symbols.lookup<ElementOp>(ref.getValue());
      if (cls[v].replicate || !hasSharedState(element))
        continue;
      auto it =
          sharedSpan.try_emplace(element.getSourceName(), compOf[v], compOf[v])
              .first;
      it->second.first = std::min(it->second.first, compOf[v]);
      it->second.second = std::max(it->second.second, compOf[v]);
    }
    for (const auto &span : sharedSpan)
      for (unsigned i = span.second.first + 1; i <= span.second.second; ++i)
        noCut[i] = true;
    // Core 0 reads every input device (the runtime numbers every packet
    // there, and a later stage's device would read none of them): the
    // instances that read one, first in the order, are all in stage 0
    // (npsmith, seed 1043 on sim4).
    for (unsigned v = 0; v < g.n; ++v)
      if (readsDevice[v])
        for (unsigned i = 1; i <= compOf[v]; ++i)
          noCut[i] = true;
    SmallVector<int64_t> stages, autoPipe, rtcEst, pipeEst;
    double serial = 0, replicated = 0, lanes = 0;
    for (unsigned v = 0; v < g.n; ++v)
      (cls[v].replicate ? replicated : serial) += work[v];
    for (unsigned k = 0; k < g.channels.size(); ++k)
      if (cls[g.channels[k].src].replicate && !cls[g.channels[k].dst].replicate)
        lanes += traffic[k];
    Partitioner partition(cw, cut, noCut, kMaxCores);
    for (unsigned n = 1; n <= kMaxCores; ++n) {
      std::vector<unsigned> grp = partition.groups(n);
      std::vector<double> load(n, 0);
      for (unsigned c = 0; c < m; ++c) {
        load[grp[c]] += cw[c];
        if (c && grp[c] != grp[c - 1])
          load[grp[c]] += cut[c] * kLaneCost;
      }
      for (unsigned v = 0; v < g.n; ++v)
        stages.push_back(grp[compOf[v]]);
      double pipe = *std::max_element(load.begin(), load.end());
      // rtc: core 0 also runs everything that runs once, and takes what
      // the other cores send it.
      double rtc = n == 1 ? serial + replicated
                          : serial + replicated / n + lanes * kLaneCost;
      rtcEst.push_back(int64_t(rtc * 1000 + 0.5));
      pipeEst.push_back(int64_t(pipe * 1000 + 0.5));
      autoPipe.push_back(n > 1 && pipe < rtc * 0.97 ? 1 : 0);
    }

    SmallVector<bool> rep;
    SmallVector<Attribute> why, notes;
    SmallVector<int64_t> costs, works;
    for (unsigned v = 0; v < g.n; ++v) {
      rep.push_back(cls[v].replicate);
      why.push_back(b.getStringAttr(cls[v].why));
      std::string joined;
      for (const std::string &s : cls[v].notes)
        joined += (joined.empty() ? "" : "\n") + s;
      notes.push_back(b.getStringAttr(joined));
      costs.push_back(cost[v]);
      works.push_back(int64_t(work[v] * 1000 + 0.5));
    }
    NamedAttrList d;
    d.append("replicate", b.getDenseBoolArrayAttr(rep));
    d.append("why", b.getArrayAttr(why));
    d.append("notes", b.getArrayAttr(notes));
    d.append("cost", b.getDenseI64ArrayAttr(costs));
    d.append("work", b.getDenseI64ArrayAttr(works));
    d.append("stages", b.getDenseI64ArrayAttr(stages));
    d.append("auto_pipeline", b.getDenseI64ArrayAttr(autoPipe));
    d.append("rtc_estimate", b.getDenseI64ArrayAttr(rtcEst));
    d.append("pipeline_estimate", b.getDenseI64ArrayAttr(pipeEst));
    if (!profile.empty()) {
      d.append("profile", b.getStringAttr(profile));
      d.append("measured", b.getDenseBoolArrayAttr(measured));
    }
    program->setAttr("np.mapping", d.getDictionary(program.getContext()));
    return success();
  }
};

} // namespace

bool npcc::c::ProgramMapping::read(ProgramOp program) {
  auto d = program->getAttrOfType<DictionaryAttr>("np.mapping");
  if (!d)
    return false;
  auto bools = d.getAs<DenseBoolArrayAttr>("replicate");
  auto why = d.getAs<ArrayAttr>("why");
  auto notesA = d.getAs<ArrayAttr>("notes");
  auto ints = [&](StringRef k, SmallVectorImpl<int64_t> &out) {
    auto a = d.getAs<DenseI64ArrayAttr>(k);
    if (!a)
      return false;
    out.assign(a.asArrayRef().begin(), a.asArrayRef().end());
    return true;
  };
  if (!bools || !why || !notesA || !ints("cost", cost) || !ints("work", work) ||
      !ints("stages", stages) || !ints("auto_pipeline", autoPipeline) ||
      !ints("rtc_estimate", rtcEstimate) ||
      !ints("pipeline_estimate", pipelineEstimate))
    return false;
  replicate.assign(bools.asArrayRef().begin(), bools.asArrayRef().end());
  unsigned n = replicate.size();
  if (why.size() != n || notesA.size() != n || cost.size() != n ||
      work.size() != n || stages.size() != n * kMaxCores ||
      autoPipeline.size() != kMaxCores || rtcEstimate.size() != kMaxCores ||
      pipelineEstimate.size() != kMaxCores)
    return false;
  measured.assign(n, false);
  profile.clear();
  if (auto p = d.getAs<StringAttr>("profile"))
    profile = p.str();
  if (auto mb = d.getAs<DenseBoolArrayAttr>("measured"); mb && mb.size() == n)
    measured.assign(mb.asArrayRef().begin(), mb.asArrayRef().end());
  this->why.clear();
  this->notes.clear();
  for (unsigned i = 0; i < n; ++i) {
    this->why.push_back(cast<StringAttr>(why[i]).str());
    this->notes.push_back(cast<StringAttr>(notesA[i]).str());
  }
  return true;
}

static std::string milli(int64_t v) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.1f", v / 1000.0);
  return s;
}

void npcc::c::explainMapping(ProgramOp program, const ProgramMapping &m,
                             unsigned cores, MappingKind kind,
                             raw_ostream &os) {
  unsigned n = m.numInstances();
  auto name = [&](unsigned i) {
    return cast<StringAttr>(program.getNames()[i]).getValue();
  };
  bool pipe = kind == MappingKind::Pipeline ||
              (kind == MappingKind::Auto && m.autoPipeline[cores - 1]);
  int64_t rtcE = m.rtcEstimate[cores - 1],
          pipeE = m.pipelineEstimate[cores - 1];
  os << "mapping of '" << program.getSymName() << "' on " << cores
     << (cores == 1 ? " core" : " cores") << ": "
     << (pipe ? "pipeline" : "rtc");
  if (kind == MappingKind::Auto)
    os << " (auto)";
  else
    os << " (asked for)";
  os << "\n";
  os << "  estimated work per packet on the busiest core: rtc " << milli(rtcE)
     << ", pipeline " << milli(pipeE) << "\n";
  if (!m.profile.empty()) {
    unsigned k = llvm::count(m.measured, true);
    if (k == 0)
      os << "  costs: static estimates (profile '" << m.profile
         << "' measured none of the instances)";
    else
      os << "  costs: measured in profile '" << m.profile << "' for " << k
         << " of " << n << " instances (cycles)";
    if (k && k < n)
      os << "; static estimates for the rest";
    os << "\n";
  }
  if (kind == MappingKind::Auto) {
    if (cores == 1)
      os << "  why: one core runs everything\n";
    else if (pipe)
      os << "  why: the pipeline's busiest stage does less than core 0 "
            "under rtc, which also runs what cannot be replicated\n";
    else
      os << "  why: rtc's busiest core does no more than the pipeline's "
            "busiest stage\n";
  }
  if (pipe) {
    unsigned stagesUsed = 0;
    for (unsigned i = 0; i < n; ++i)
      stagesUsed = std::max<unsigned>(stagesUsed, m.stage(cores, i) + 1);
    for (unsigned s = 0; s < stagesUsed; ++s) {
      int64_t w = 0;
      for (unsigned i = 0; i < n; ++i)
        if (m.stage(cores, i) == (int64_t)s)
          w += m.work[i];
      os << "  stage " << s << " (core " << s << "), work " << milli(w) << ":";
      for (unsigned i = 0; i < n; ++i)
        if (m.stage(cores, i) == (int64_t)s)
          os << " " << name(i);
      os << "\n";
    }
    for (unsigned k = 0; k < program.getChannels().size(); ++k) {
      ProgramOp::Channel ch = program.getChannel(k);
      int64_t a = m.stage(cores, ch.src), d = m.stage(cores, ch.dst);
      if (a != d)
        os << "  cut: " << name(ch.src) << "[" << ch.srcPort << "] -> "
           << name(ch.dst) << "[" << ch.dstPort << "] (stage " << a << " -> "
           << d << ")\n";
    }
  } else {
    os << "  every core:";
    for (unsigned i = 0; i < n; ++i)
      if (m.replicate[i])
        os << " " << name(i);
    os << "\n  core 0 only:";
    bool any = false;
    for (unsigned i = 0; i < n; ++i)
      if (!m.replicate[i]) {
        os << " " << name(i);
        any = true;
      }
    if (!any)
      os << " (nothing)";
    os << "\n";
    if (cores > 1)
      os << "  ingress: packets spread over the cores by a hash of the IPv4 "
            "address pair (else the source MAC), so a flow stays on one "
            "core\n";
  }
  os << "  instances (cost per activation, work per packet read):\n";
  for (unsigned i = 0; i < n; ++i) {
    os << "    " << name(i) << ": " << m.cost[i] << ", " << milli(m.work[i])
       << (m.measured[i] ? " (measured)" : "") << "; ";
    if (m.replicate[i])
      os << "replicable";
    else
      os << "once: " << m.why[i];
    os << "\n";
    StringRef notes = m.notes[i];
    while (!notes.empty()) {
      auto [line, rest] = notes.split('\n');
      os << "      state " << line << "\n";
      notes = rest;
    }
  }
}
