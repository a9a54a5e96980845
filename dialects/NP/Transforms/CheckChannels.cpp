//===- CheckChannels.cpp - channel checker of the flat top graph ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Proves what the runtime and the HLS tools need of the channels of the top
// graph: one producer and one consumer per channel, no cycle of rendezvous
// channels, depths that fit the rate of their producer (warned, and
// recorded as `inferred_depth`), and no set of instances that wait for each
// other for ever. The deadlock check runs the instances' channel events
// (HandlerEvents.h) against each other: deterministic event sequences over
// FIFOs form a Kahn network, so one fair schedule decides whether they get
// stuck; whatever depends on data is assumed to be always ready.
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/Transforms/Passes.h"

#include "dialects/NP/IR/NPOps.h"
#include "dialects/NP/Transforms/HandlerEvents.h"
#include "dialects/NP/Transforms/SCC.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringMap.h"

namespace npcc::np {
#define GEN_PASS_DEF_CHECKCHANNELS
#include "dialects/NP/Transforms/Passes.h.inc"
} // namespace npcc::np

using namespace mlir;
using namespace npcc::np;

namespace {

/// An instance of the top graph.
struct Node {
  InstanceOp inst;
  /// Null for an instance of a graph (before np-flatten-graph).
  ElementOp element;
  /// Port name to the channel it is an end of.
  llvm::StringMap<unsigned> in, out;
};

/// A connection; an end that is a boundary port has node -1.
struct Channel {
  ConnectOp op;
  int src = -1, dst = -1;
  std::string srcName, dstName;
  int64_t depth = 0;
  bool lossy = false;
};

/// `'a', 'b' and 'c'` (`a, b and c` without `quote`).
std::string listNames(ArrayRef<std::string> names, bool quote = true) {
  std::string s;
  for (auto [i, n] : llvm::enumerate(names)) {
    if (i)
      s += i + 1 == names.size() ? " and " : ", ";
    s += quote ? "'" + n + "'" : n;
  }
  return s;
}

class Checker {
public:
  Checker(GraphOp top, StringRef depthWarning)
      : top(top), depthWarning(depthWarning) {}

  bool run() {
    collect();
    checkRendezvousCycles();
    inferDepths();
    if (ok)
      checkDeadlock();
    return ok;
  }

private:
  GraphOp top;
  StringRef depthWarning;
  SymbolTableCollection symbols;
  SmallVector<Node> nodes;
  SmallVector<Channel> channels;
  bool ok = true;

  std::string nodeName(int n) {
    return n < 0 ? std::string("<boundary>") : nodes[n].inst.getSymName().str();
  }

  //===--------------------------------------------------------------------===//
  // One producer and one consumer per channel
  //===--------------------------------------------------------------------===//

  void collect() {
    llvm::DenseMap<Operation *, unsigned> index;
    for (auto inst : top.getBody()->getOps<InstanceOp>()) {
      index[inst] = nodes.size();
      nodes.push_back(
          {inst, dyn_cast_or_null<ElementOp>(inst.resolveCallee(symbols))});
    }
    // The connection that uses each (instance or graph, port) pair.
    llvm::DenseMap<std::pair<Operation *, Operation *>, ConnectOp> users;
    for (auto connect : top.getBody()->getOps<ConnectOp>()) {
      Channel ch;
      ch.op = connect;
      ch.depth = connect.getDepth();
      ch.lossy = connect.getLossy();
      InstanceOp ends[2];
      PortOp ports[2];
      bool resolved = true;
      for (int i = 0; i < 2; ++i)
        resolved &=
            succeeded(top.resolveEnd(i ? connect.getDst() : connect.getSrc(),
                                     symbols, ends[i], ports[i]));
      if (!resolved)
        continue; // the graph verifier reports it
      std::string names[2];
      for (int i = 0; i < 2; ++i)
        names[i] =
            ends[i] ? (ends[i].getSymName() + "." + ports[i].getSymName()).str()
                    : ports[i].getSymName().str();
      bool duplicate = false;
      for (int i = 0; i < 2; ++i) {
        Operation *owner = ends[i] ? ends[i].getOperation() : top;
        auto [it, inserted] = users.try_emplace({owner, ports[i]}, connect);
        if (inserted || duplicate)
          continue;
        duplicate = true;
        InFlightDiagnostic diag =
            connect.emitError()
            << "port '" << names[i] << "' is already connected: "
            << (i ? "a channel has one producer (fan-in is a Merge element)"
                  : "a channel has one consumer (fan-out is a Tee element)");
        diag.attachNote(it->second.getLoc()) << "first connection here";
        ok = false;
      }
      if (duplicate)
        continue;
      ch.srcName = names[0];
      ch.dstName = names[1];
      ch.src = ends[0] ? (int)index[ends[0]] : -1;
      ch.dst = ends[1] ? (int)index[ends[1]] : -1;
      unsigned c = channels.size();
      if (ch.src >= 0)
        nodes[ch.src].out[ports[0].getSymName()] = c;
      if (ch.dst >= 0)
        nodes[ch.dst].in[ports[1].getSymName()] = c;
      channels.push_back(std::move(ch));
    }
  }

  //===--------------------------------------------------------------------===//
  // No cycle of rendezvous channels
  //===--------------------------------------------------------------------===//

  /// A channel whose sender waits for its receiver: depth 0 and lossless.
  bool isRendezvous(const Channel &ch) {
    return ch.depth == 0 && !ch.lossy && ch.src >= 0 && ch.dst >= 0;
  }

  /// Components of the instance graph of rendezvous channels.
  void checkRendezvousCycles() {
    std::vector<std::vector<unsigned>> succ(nodes.size());
    for (const Channel &ch : channels)
      if (isRendezvous(ch))
        succ[ch.src].push_back(ch.dst);
    std::vector<int> component;
    unsigned components = stronglyConnectedComponents(succ, component).size();
    // The channels inside each component; a component with one is a
    // channel from an instance to itself.
    SmallVector<SmallVector<unsigned>> inside(components);
    for (auto [i, ch] : llvm::enumerate(channels))
      if (isRendezvous(ch) && component[ch.src] == component[ch.dst])
        inside[component[ch.src]].push_back(i);
    // In the order of their first channels.
    llvm::erase_if(inside, [](auto &cycle) { return cycle.empty(); });
    llvm::sort(inside, [](auto &a, auto &b) { return a[0] < b[0]; });
    for (ArrayRef<unsigned> cycle : inside) {
      SmallVector<std::string> names;
      for (unsigned c : cycle)
        names.push_back("'" + channels[c].srcName + "' -> '" +
                        channels[c].dstName + "'");
      InFlightDiagnostic diag =
          channels[cycle.front()].op.emitError()
          << "cycle of rendezvous channels (depth 0): "
          << listNames(names, /*quote=*/false)
          << "; every instance on it can wait for the next for ever: give "
             "one of them a depth";
      for (unsigned c : cycle.drop_front())
        diag.attachNote(channels[c].op.getLoc())
            << "channel '" << channels[c].srcName << "' -> '"
            << channels[c].dstName << "' of the cycle";
      ok = false;
    }
  }

  //===--------------------------------------------------------------------===//
  // Depth inference
  //===--------------------------------------------------------------------===//

  void inferDepths() {
    MLIRContext *ctx = top.getContext();
    for (Channel &ch : channels) {
      if (ch.src < 0 || !nodes[ch.src].element)
        continue;
      HandlerOp handler = nodes[ch.src].element.getHandler();
      if (!handler)
        continue;
      StringRef port = ch.srcName;
      port = port.drop_front(nodes[ch.src].inst.getSymName().size() + 1);
      std::optional<int64_t> k = maxSendsPerRun(handler.getBodyRegion(), port);
      if (!k || *k <= 1)
        continue;
      ch.op->setAttr(kInferredDepthAttr,
                     IntegerAttr::get(IntegerType::get(ctx, 64), *k));
      if (ch.depth >= *k || depthWarning == "ignore")
        continue;
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "'" << nodeName(ch.src) << "' may send " << *k << " values on '"
         << port << "' per run, but channel '" << ch.srcName << "' -> '"
         << ch.dstName << "' has depth " << ch.depth << "; inferred depth "
         << *k;
      if (depthWarning == "error") {
        ch.op.emitError() << msg << " [-Werror,-Wchannel-depth]";
        ok = false;
      } else {
        ch.op.emitWarning() << msg << " [-Wchannel-depth]";
      }
    }
  }

  //===--------------------------------------------------------------------===//
  // Deadlock
  //===--------------------------------------------------------------------===//

  struct Step {
    ChannelEvent::Kind kind;
    SmallVector<int, 2> chans;
    Operation *op;
  };
  /// An instance as a process: init events, then handler events for ever
  /// (from `loopStart`), or, when the handler's run depends on data after
  /// its events (`openAfter`), always ready from there on (`wild`).
  struct Proc {
    SmallVector<Step> steps;
    unsigned loopStart = 0;
    bool openAfter = false;
    unsigned pc = 0;
    bool offered = false; // a rendezvous send waits for its receiver
    bool wild = false;
    bool done = false; // ended: its input ended
  };
  SmallVector<Proc> procs;
  SmallVector<int64_t> occupancy;

  void buildProcs() {
    procs.resize(nodes.size());
    for (auto [i, node] : llvm::enumerate(nodes)) {
      Proc &p = procs[i];
      // Timers send while the handler waits: not a sequence.
      if (!node.element || node.element.getTimer() ||
          !node.element.getHandler()) {
        p.wild = true;
        continue;
      }
      auto append = [&](ArrayRef<ChannelEvent> events) {
        for (const ChannelEvent &e : events) {
          Step s{e.kind, {}, e.op};
          auto &ports = e.kind == ChannelEvent::Send ? node.out : node.in;
          for (StringRef port : e.ports) {
            auto it = ports.find(port);
            s.chans.push_back(it == ports.end() ? -1 : (int)it->second);
          }
          p.steps.push_back(std::move(s));
        }
      };
      if (InitOp init = node.element.getInit()) {
        EventSequence seq = eventSequence(init.getBodyRegion());
        if (seq.openAt) {
          p.wild = true;
          continue;
        }
        append(seq.events);
      }
      p.loopStart = p.steps.size();
      EventSequence seq =
          eventSequence(node.element.getHandler().getBodyRegion());
      append(seq.events);
      p.openAfter = seq.openAt != nullptr;
      // A handler without channel events never waits on a channel.
      if (!p.openAfter && seq.events.empty())
        p.openAfter = true;
    }
    occupancy.assign(channels.size(), 0);
  }

  /// A receive on `c` never waits: its producer is not a process.
  bool freeIn(int c) {
    if (c < 0)
      return true;
    int src = channels[c].src;
    return src < 0 || procs[src].wild;
  }
  /// A send on `c` never waits: its consumer is not a process, or ended.
  bool freeOut(int c) {
    if (c < 0)
      return true;
    int dst = channels[c].dst;
    return dst < 0 || procs[dst].wild || procs[dst].done;
  }
  bool closed(int c) {
    return !freeIn(c) && procs[channels[c].src].done && occupancy[c] == 0;
  }
  /// Whether process `q` waits to receive from `c` now.
  bool receiving(int q, int c) {
    Proc &p = procs[q];
    if (p.wild || p.done || p.pc >= p.steps.size())
      return false;
    const Step &s = p.steps[p.pc];
    return s.kind != ChannelEvent::Send && llvm::is_contained(s.chans, c);
  }

  /// Runs one event of process `i` if it can; with `apply` false only
  /// says whether it could.
  bool step(unsigned i, bool apply) {
    Proc &p = procs[i];
    if (p.wild || p.done)
      return false;
    auto advance = [&] {
      if (apply)
        ++p.pc;
      return true;
    };
    if (p.pc == p.steps.size()) {
      if (apply) {
        if (p.openAfter || p.loopStart == p.steps.size())
          p.wild = true;
        else
          p.pc = p.loopStart;
      }
      return true;
    }
    const Step &s = p.steps[p.pc];
    switch (s.kind) {
    case ChannelEvent::Recv:
    case ChannelEvent::Select: {
      bool allClosed = true;
      for (int c : s.chans) {
        if (freeIn(c))
          return advance();
        if (occupancy[c] > 0) {
          if (apply && s.kind == ChannelEvent::Recv)
            --occupancy[c];
          return advance();
        }
        allClosed &= closed(c);
      }
      // The end of the input ends the instance.
      if (allClosed && !s.chans.empty()) {
        if (apply)
          p.done = true;
        return true;
      }
      return false;
    }
    case ChannelEvent::Send: {
      int c = s.chans.front();
      if (freeOut(c)) {
        if (apply && p.offered) {
          p.offered = false;
          occupancy[c] = 0;
        }
        return advance();
      }
      Channel &ch = channels[c];
      int64_t &occ = occupancy[c];
      if (ch.lossy) {
        if (apply &&
            (ch.depth ? occ < ch.depth : occ == 0 && receiving(ch.dst, c)))
          ++occ;
        return advance();
      }
      if (ch.depth > 0) {
        if (occ >= ch.depth)
          return false;
        if (apply)
          ++occ;
        return advance();
      }
      // A rendezvous: offer the value, then wait until it is taken.
      if (!p.offered) {
        if (occ != 0)
          return false;
        if (apply) {
          occ = 1;
          p.offered = true;
        }
        return true;
      }
      if (occ != 0)
        return false;
      if (apply)
        p.offered = false;
      return advance();
    }
    }
    llvm_unreachable("unknown channel event");
  }

  /// The processes that can never move again: blocked, and every process
  /// that could unblock one of them is one of them.
  SmallVector<unsigned> stuck() {
    unsigned n = procs.size();
    SmallVector<bool> in(n, false);
    for (unsigned i = 0; i < n; ++i)
      in[i] = !procs[i].wild && !procs[i].done && !step(i, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned i = 0; i < n; ++i) {
        if (!in[i])
          continue;
        for (int other : waitsOn(i)) {
          if (other >= 0 && in[other])
            continue;
          in[i] = false;
          changed = true;
          break;
        }
      }
    }
    // Keep those the others wait for: the circular wait, without the
    // instances that only wait on it.
    for (bool changed = true; changed;) {
      changed = false;
      SmallVector<bool> waitedFor(n, false);
      for (unsigned i = 0; i < n; ++i)
        if (in[i])
          for (int other : waitsOn(i))
            waitedFor[other] = true;
      for (unsigned i = 0; i < n; ++i)
        if (in[i] && !waitedFor[i]) {
          in[i] = false;
          changed = true;
        }
    }
    SmallVector<unsigned> result;
    for (unsigned i = 0; i < n; ++i)
      if (in[i])
        result.push_back(i);
    return result;
  }

  /// The processes the event process `i` is at waits for.
  SmallVector<int, 2> waitsOn(unsigned i) {
    const Step &s = procs[i].steps[procs[i].pc];
    SmallVector<int, 2> others;
    for (int c : s.chans)
      others.push_back(s.kind == ChannelEvent::Send ? channels[c].dst
                                                    : channels[c].src);
    return others;
  }

  void checkDeadlock() {
    buildProcs();
    // Rounds in which every process runs one event, until a state repeats
    // (the run is periodic) or processes are stuck; bounded in work.
    size_t width = procs.size() + channels.size() + 1;
    size_t rounds = std::min<size_t>(20000, 20000000 / width);
    llvm::DenseSet<llvm::hash_code> seen;
    SmallVector<int64_t> state;
    for (size_t r = 0; r < rounds; ++r) {
      for (unsigned i = 0; i < procs.size(); ++i)
        step(i, /*apply=*/true);
      SmallVector<unsigned> blocked = stuck();
      if (!blocked.empty())
        return reportDeadlock(blocked);
      state.clear();
      for (const Proc &p : procs)
        state.push_back(p.pc * 8 + p.offered * 4 + p.wild * 2 + p.done);
      state.append(occupancy.begin(), occupancy.end());
      if (!seen.insert(llvm::hash_combine_range(state.begin(), state.end()))
               .second)
        return;
    }
  }

  void reportDeadlock(ArrayRef<unsigned> blocked) {
    SmallVector<std::string> names;
    for (unsigned i : blocked)
      names.push_back(nodeName(i));
    InFlightDiagnostic diag =
        nodes[blocked.front()].inst.emitError()
        << "deadlock: " << listNames(names)
        << (blocked.size() == 1 ? " waits for itself" : " wait for each other")
        << " for ever";
    for (unsigned i : blocked) {
      const Step &s = procs[i].steps[procs[i].pc];
      Diagnostic &note = diag.attachNote(s.op->getLoc());
      note << "'" << nodeName(i) << "' waits here to ";
      if (s.kind == ChannelEvent::Send) {
        const Channel &ch = channels[s.chans.front()];
        note << "send on '" << ch.srcName << "' to '" << nodeName(ch.dst) << "'"
             << (ch.depth == 0
                     ? " (a rendezvous)"
                     : " (full at depth " + std::to_string(ch.depth) + ")");
        continue;
      }
      note << "receive on ";
      for (auto [k, c] : llvm::enumerate(s.chans))
        note << (k ? " or '" : "'") << channels[c].dstName << "' from '"
             << nodeName(channels[c].src) << "'";
    }
    ok = false;
  }
};

struct CheckChannelsPass
    : npcc::np::impl::CheckChannelsBase<CheckChannelsPass> {
  using CheckChannelsBase::CheckChannelsBase;

  void runOnOperation() override {
    if (channelDepth != "warn" && channelDepth != "error" &&
        channelDepth != "ignore") {
      getOperation().emitError()
          << "np-check-channels: channel-depth must be 'warn', 'error' or "
             "'ignore', not '"
          << channelDepth << "'";
      return signalPassFailure();
    }
    for (auto graph : getOperation().getOps<GraphOp>()) {
      if (!graph.getTop())
        continue;
      if (!Checker(graph, channelDepth).run())
        signalPassFailure();
    }
  }
};
} // namespace
