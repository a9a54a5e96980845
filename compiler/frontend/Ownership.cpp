//===- Ownership.cpp - packets are linear: sent or dropped exactly once ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A flow-sensitive check over the typed AST of every element body. Each
// packet binding (`let p = recv(i)`, `if let`, a `select` case, or a
// builtin's fresh packet: `clone`, `new_pkt`, `device_recv`, ... by
// Builtins.def's NPL_BUILTIN_GIVES_PACKET rows) is owned until a builtin
// takes it over (`send`, `drop`, `device_send`, `enqueue`, by its
// NPL_BUILTIN_TAKES_PACKET rows). Along every path:
//   * a consumed packet is not read, written, sent or dropped again;
//   * an owned packet is consumed before it goes out of scope or `return`
//     leaves the body (a packet received in a loop iteration is consumed in
//     that iteration; one received before a loop is not consumed by an
//     iteration that goes on to the next one);
//   * a fresh packet that is neither bound nor consumed (`recv(i);`) is a
//     leak at once.
// Header views (`let e = header<H>(p, 0)`) are uses of their packet. A path
// that blocks forever in `recv` (the end of the input) ends the instance and
// needs nothing. Errors point at the offending use, with a note at the
// earlier send or drop, or at the binding for a leak.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

#include "llvm/ADT/StringMap.h"

using namespace npcc;
using namespace npcc::ast;

namespace {

enum class St : uint8_t { Owned, Consumed, Maybe };

/// What happened to one packet on the paths reaching a program point.
struct VarState {
  St st = St::Owned;
  Loc consumedAt;           // Consumed, Maybe: where it was consumed
  const char *how = "sent"; // ... and how: "sent", "dropped", "moved"
  Loc leakAt;               // Maybe: the end of a path that kept it
  bool reported = false;    // one error per packet is enough
};

struct State {
  bool reachable = true;
  std::vector<VarState> vars; // by packet id
};

struct Packet {
  std::string name;
  Loc boundAt;
  const char *origin; // "received", "created", "cloned"
  unsigned loopDepth;
};

class OwnershipChecker {
public:
  explicit OwnershipChecker(Sema &sema) : sema(sema) {}

  void checkBody(Block &body, const Loc &end) {
    packets.clear();
    scopes.clear();
    st = State();
    loopDepth = 0;
    loops.clear();
    block(body, end);
  }

private:
  Sema &sema;
  std::vector<Packet> packets;
  // Name -> packet id; -1 for a name that is not a packet (it shadows).
  // A header view shares the id of its packet and is not its owner.
  struct Name {
    std::string name;
    int id;
    bool view;
  };
  std::vector<std::vector<Name>> scopes;
  State st;
  unsigned loopDepth = 0;
  // The loops around the statement: where their body's scopes start, and
  // the state when they were entered.
  struct Loop {
    size_t scopeStart;
    State entry;
  };
  std::vector<Loop> loops;

  int lookup(llvm::StringRef name) const {
    for (auto s = scopes.rbegin(); s != scopes.rend(); ++s)
      for (auto it = s->rbegin(); it != s->rend(); ++it)
        if (it->name == name)
          return it->id;
    return -1;
  }

  void declare(const std::string &name, int id, bool view = false) {
    scopes.back().push_back({name, id, view});
  }

  int newPacket(const std::string &name, const Loc &at, const char *origin) {
    int id = (int)packets.size();
    packets.push_back({name, at, origin, loopDepth});
    st.vars.resize(packets.size());
    st.vars[id] = VarState();
    return id;
  }

  /// Where a fresh packet comes from, or null if `e` does not make one.
  static const char *freshOrigin(const Expr &e) {
    if (e.ty.kind != Ty::Pkt)
      return nullptr;
    if (e.kind == Expr::Recv)
      return "received";
    if (e.kind != Expr::Call)
      return nullptr;
    switch (lookupBuiltin(e.text)) {
#define NPL_BUILTIN_GIVES_PACKET(Id, origin)                                   \
  case Builtin::Id:                                                            \
    return origin;
#include "dialects/NP/IR/Builtins.def"
    default:
      return nullptr;
    }
  }

  /// The argument a builtin takes over, and how; arg is -1 when `b` takes
  /// none.
  struct TakenArg {
    int arg;
    const char *how;
  };
  static TakenArg takenArg(Builtin b) {
    switch (b) {
#define NPL_BUILTIN_TAKES_PACKET(Id, arg, how)                                 \
  case Builtin::Id:                                                            \
    return {arg, how};
#include "dialects/NP/IR/Builtins.def"
    default:
      return {-1, nullptr};
    }
  }

  void note(mlir::InFlightDiagnostic &d, const Loc &l, const llvm::Twine &m) {
    d.attachNote(toLoc(sema.getContext(), l)) << m;
  }

  /// Reports a packet still owned (or owned on some path) where it goes
  /// out of scope at `end`.
  void leakCheck(int id, const Loc &end) {
    VarState &v = st.vars[id];
    if (v.reported || v.st == St::Consumed)
      return;
    const Packet &p = packets[id];
    auto d = sema.error(v.st == St::Maybe ? v.leakAt : end);
    d << "packet '" << p.name << "' is neither sent nor dropped on this path";
    note(d, p.boundAt,
         llvm::Twine("packet ") + p.origin +
             " here is never sent or dropped "
             "on this path");
    v.reported = true;
  }

  void use(int id, const Loc &at) {
    VarState &v = st.vars[id];
    if (!st.reachable || v.reported || v.st == St::Owned)
      return;
    const Packet &p = packets[id];
    auto d = sema.error(at);
    if (v.st == St::Consumed)
      d << "use of packet '" << p.name << "' after it was " << v.how;
    else
      d << "use of packet '" << p.name << "', which may have been " << v.how
        << " on another path";
    note(d, v.consumedAt,
         llvm::Twine("'") + p.name + "' was " + v.how + " here");
    v.reported = true;
  }

  void consume(int id, const Loc &at, const char *how) {
    VarState &v = st.vars[id];
    if (!st.reachable)
      return;
    const Packet &p = packets[id];
    if (!v.reported && v.st != St::Owned) {
      auto d = sema.error(at);
      d << "packet '" << p.name << "' is " << how << " after it "
        << (v.st == St::Maybe ? "may have been " : "was ") << v.how
        << (v.st == St::Maybe ? " on another path" : "");
      note(d, v.consumedAt,
           llvm::Twine("'") + p.name + "' was " + v.how + " here");
      v.reported = true;
    }
    v.st = St::Consumed;
    v.consumedAt = at;
    v.how = how;
  }

  /// Joins the states at the end of two paths; `endA`/`endB` are where each
  /// path ends, reported for a packet one of them keeps.
  State merge(const State &a, const Loc &endA, const State &b,
              const Loc &endB) {
    if (!a.reachable)
      return b;
    if (!b.reachable)
      return a;
    State r = a;
    r.vars.resize(std::max(a.vars.size(), b.vars.size()));
    size_t n = std::min(a.vars.size(), b.vars.size());
    for (size_t i = 0; i < n; ++i) {
      const VarState &x = a.vars[i], &y = b.vars[i];
      VarState &z = r.vars[i];
      z.reported = x.reported || y.reported;
      if (x.st == y.st && x.st != St::Maybe)
        continue;
      z.st = St::Maybe;
      const VarState &used = x.st != St::Owned ? x : y;
      z.consumedAt = used.consumedAt;
      z.how = used.how;
      if (x.st == St::Owned)
        z.leakAt = endA;
      else if (y.st == St::Owned)
        z.leakAt = endB;
      else
        z.leakAt = x.st == St::Maybe ? x.leakAt : y.leakAt;
    }
    return r;
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  /// A block; packets bound in it must be consumed by its end.
  void block(Block &b, const Loc &end, int preBound = -1,
             const std::string &preName = "") {
    scopes.emplace_back();
    if (!preName.empty())
      declare(preName, preBound);
    for (StmtPtr &s : b)
      stmt(*s);
    if (st.reachable)
      for (const Name &n : scopes.back())
        if (n.id >= 0 && !n.view)
          leakCheck(n.id, end);
    scopes.pop_back();
  }

  /// An iteration that goes on to the next (or leaves the loop by `break`)
  /// must leave the packets bound outside the loop as it found them.
  void checkOuterUnchanged(State &entry) {
    if (!st.reachable)
      return;
    for (size_t i = 0; i < entry.vars.size(); ++i) {
      VarState &v = st.vars[i];
      if (entry.vars[i].st != St::Owned || v.st == St::Owned || v.reported)
        continue;
      const Packet &p = packets[i];
      auto d = sema.error(v.consumedAt);
      d << "packet '" << p.name << "' is " << v.how << " inside a loop but was "
        << p.origin << " before it; the next iteration would use it again";
      note(d, p.boundAt,
           llvm::Twine("packet ") + p.origin + " here, outside the loop");
      v.reported = true;
      entry.vars[i].reported = true;
    }
  }

  void loopBody(Block &body, const Loc &end) {
    loops.push_back({scopes.size(), st});
    ++loopDepth;
    block(body, end);
    --loopDepth;
    State entry = loops.back().entry;
    loops.pop_back();
    checkOuterUnchanged(entry);
    // Zero iterations, or any number: packets bound outside are unchanged
    // (or already reported).
    State after = entry;
    after.reachable = true;
    for (size_t i = 0; i < entry.vars.size() && i < st.vars.size(); ++i)
      after.vars[i].reported |= st.vars[i].reported;
    st = after;
  }

  /// `break` or `continue`: the iteration ends here, so the packets bound
  /// in it must be consumed, and those bound outside left alone.
  void leaveIteration(const Loc &at) {
    if (st.reachable && !loops.empty()) {
      for (size_t k = loops.back().scopeStart; k < scopes.size(); ++k)
        for (const Name &n : scopes[k])
          if (n.id >= 0 && !n.view)
            leakCheck(n.id, at);
      checkOuterUnchanged(loops.back().entry);
    }
    st.reachable = false;
  }

  void stmt(Stmt &s) {
    switch (s.kind) {
    case Stmt::Let:
    case Stmt::Var: {
      if (!s.init) {
        declare(s.name, -1);
        return;
      }
      Expr &init = *s.init;
      if (init.ty.kind == Ty::Pkt) {
        // `let q = p;` moves p into q; fresh packets start owned.
        const char *origin = freshOrigin(init);
        consumeExpr(init, init.loc, "moved");
        declare(s.name, newPacket(s.name, s.loc, origin ? origin : "bound"));
        return;
      }
      expr(init);
      int root = init.ty.kind == Ty::Header ? packetRoot(init) : -1;
      declare(s.name, root, /*view=*/true);
      return;
    }
    case Stmt::Assign:
      expr(*s.target);
      expr(*s.init);
      return;
    case Stmt::If: {
      expr(*s.cond);
      State entry = st;
      block(s.body, s.bodyEnd);
      State thenSt = st;
      st = entry;
      block(s.elseBody, s.elseEnd.file ? s.elseEnd : s.loc);
      st = merge(thenSt, s.bodyEnd, st, s.elseEnd.file ? s.elseEnd : s.loc);
      return;
    }
    case Stmt::IfLet: {
      for (ExprPtr &a : s.init->args)
        expr(*a);
      State entry = st;
      int id = -1;
      if (s.init->ty.kind == Ty::Pkt)
        id = newPacket(s.name, s.loc,
                       lookupBuiltin(s.init->text) == Builtin::Dequeue
                           ? "dequeued"
                           : "received");
      block(s.body, s.bodyEnd, id, s.name);
      State thenSt = st;
      st = entry;
      st.vars.resize(packets.size());
      block(s.elseBody, s.elseEnd.file ? s.elseEnd : s.loc);
      st = merge(thenSt, s.bodyEnd, st, s.elseEnd.file ? s.elseEnd : s.loc);
      return;
    }
    case Stmt::For:
    case Stmt::Unroll:
      expr(*s.lo);
      expr(*s.hi);
      if (s.bound)
        expr(*s.bound);
      scopes.emplace_back();
      declare(s.name, -1);
      loopBody(s.body, s.bodyEnd);
      scopes.pop_back();
      return;
    case Stmt::While:
      expr(*s.cond);
      expr(*s.bound);
      loopBody(s.body, s.bodyEnd);
      return;
    case Stmt::Select: {
      State entry = st;
      State joined;
      joined.reachable = false;
      Loc joinedEnd;
      for (SelectCase &c : s.cases) {
        st = entry;
        st.vars.resize(packets.size());
        int id = -1;
        if (c.port->ty.kind == Ty::Port && c.port->ty.elem &&
            c.port->ty.elem->kind == Ty::Pkt)
          id = newPacket(c.var, c.loc, "received");
        block(c.body, c.bodyEnd, id, c.var);
        joined = merge(joined, joinedEnd, st, c.bodyEnd);
        joinedEnd = c.bodyEnd;
      }
      st = joined;
      return;
    }
    case Stmt::Return:
      if (st.reachable)
        for (auto &scope : scopes)
          for (const Name &n : scope)
            if (n.id >= 0 && !n.view)
              leakCheck(n.id, s.loc);
      st.reachable = false;
      return;
    case Stmt::Break:
    case Stmt::Continue:
      leaveIteration(s.loc);
      return;
    case Stmt::Fail:
      return;
    case Stmt::ExprStmt:
      expr(*s.init);
      return;
    case Stmt::Nested:
      block(s.body, s.bodyEnd);
      return;
    }
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// The packet a header view expression reads, or -1.
  int packetRoot(const Expr &e) {
    if (e.kind == Expr::Name)
      return lookup(e.text);
    if (e.kind == Expr::HeaderView && !e.args.empty())
      return packetRoot(*e.args[0]);
    if (e.kind == Expr::Cond && e.args.size() == 3)
      return packetRoot(*e.args[1]);
    return -1;
  }

  void valueArgs(Expr &e) {
    for (ExprPtr &a : e.args)
      expr(*a);
  }

  /// `e` is taken over by a builtin (send, drop, ...) at `at`.
  void consumeExpr(Expr &e, const Loc &at, const char *how) {
    if (e.kind == Expr::Name) {
      int id = lookup(e.text);
      if (id >= 0)
        consume(id, at, how);
      return;
    }
    if (freshOrigin(e)) {
      valueArgs(e);
      return;
    }
    if (e.kind == Expr::Cond && e.args.size() == 3) {
      // Either arm is handed over, on its own path.
      expr(*e.args[0]);
      State entry = st;
      consumeExpr(*e.args[1], at, how);
      State a = st;
      st = entry;
      consumeExpr(*e.args[2], at, how);
      st = merge(a, at, st, at);
      return;
    }
    expr(e);
  }

  void expr(Expr &e) {
    switch (e.kind) {
    case Expr::Name: {
      int id = lookup(e.text);
      if (id >= 0)
        use(id, e.loc);
      return;
    }
    case Expr::Recv:
      valueArgs(e);
      if (e.ty.kind == Ty::Pkt)
        freshLeak(e);
      return;
    case Expr::Call: {
      // Sema accepted the call, so a taken argument is there.
      TakenArg taken = takenArg(lookupBuiltin(e.text));
      for (size_t k = 0; k < e.args.size(); ++k) {
        if ((int)k == taken.arg)
          consumeExpr(*e.args[k], e.loc, taken.how);
        else
          expr(*e.args[k]);
      }
      if (freshOrigin(e))
        freshLeak(e);
      return;
    }
    default:
      valueArgs(e);
      return;
    }
  }

  /// A fresh packet used as a plain value is lost right away.
  void freshLeak(const Expr &e) {
    if (!st.reachable)
      return;
    sema.error(e.loc) << "packet " << freshOrigin(e)
                      << " here is never sent or dropped; bind it with "
                         "'let' or pass it to send or drop";
  }
};

} // namespace

void npcc::checkPacketOwnership(Sema &sema, Module &m) {
  OwnershipChecker oc(sema);
  for (ElementDecl &e : m.elements) {
    if (e.hasInit)
      oc.checkBody(e.init, e.initEnd);
    if (e.hasHandler)
      oc.checkBody(e.handler, e.handlerEnd);
    if (e.hasSignal)
      oc.checkBody(e.signal, e.signalEnd);
    if (e.hasTimer)
      oc.checkBody(e.timer, e.timerEnd);
  }
}
