//===- ClickGraph.cpp - Click connections to an NPL graph -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A scope's elements and connections, checked and completed, become an
// NPL graph: an output Click would leave unconnected goes to a synthesized
// Discard, several connections into one input go through a synthesized
// Merge (NPL connects each port once).
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickLowerer.h"

using namespace npcc;
using namespace npcc::click;
using namespace npcc::click::lowering;
using ast::Expr;
using ast::ExprPtr;

static ExprPtr intExpr(int64_t v, const Loc &loc) {
  auto e = std::make_unique<Expr>();
  e->kind = Expr::IntLit;
  e->loc = loc;
  e->value = (uint64_t)v;
  return e;
}

static ast::Endpoint endpoint(const Inst &i, size_t k, bool asSource,
                              const Loc &loc) {
  ast::Endpoint ep;
  ep.loc = loc;
  if (i.kind == Inst::Input || i.kind == Inst::Output) {
    ep.inst = i.name; // a boundary port array of the compound graph
    ep.index = intExpr((int64_t)k, loc);
    return ep;
  }
  const PortRef &p = asSource ? i.outputs[k] : i.inputs[k];
  ep.inst = i.name;
  ep.port = p.port;
  if (p.index >= 0)
    ep.index = intExpr(p.index, loc);
  return ep;
}

static void connect(ast::GraphDecl &g, ast::Endpoint from, ast::Endpoint to,
                    const Loc &loc) {
  ast::Connection c;
  c.loc = loc;
  c.chain.push_back(std::move(from));
  c.chain.push_back(std::move(to));
  c.lossy.push_back(false);
  g.connections.push_back(std::move(c));
}

static ast::InstanceDecl instanceDecl(const std::string &name,
                                      const std::string &callee, const Loc &loc,
                                      const Loc &calleeLoc) {
  ast::InstanceDecl d;
  d.loc = loc;
  d.name = name;
  d.callee = callee;
  d.calleeLoc = calleeLoc;
  return d;
}

/// Click gives many elements as many outputs as are connected (an optional
/// output for rejects, ARPQuerier's queries): a library element with a
/// `noutputs` parameter the configuration leaves out gets the number of
/// its outputs used, at least 1, and its ports are numbered again.
void Lowerer::countOutputs(Body &b) {
  std::vector<size_t> used(b.insts.size(), 0);
  for (const Conn &x : b.conns)
    if (x.from != kNone)
      used[x.from] = std::max(used[x.from], x.out + 1);
  for (size_t i = 0; i < b.insts.size(); ++i) {
    Inst &inst = b.insts[i];
    if (inst.kind != Inst::Element || !inst.cls.params)
      continue;
    const auto &params = *inst.cls.params;
    auto it = llvm::find_if(
        params, [](const ast::Param &p) { return p.name == "noutputs"; });
    size_t k = it - params.begin();
    if (it == params.end() || it->variadic || !it->defaultValue ||
        inst.args.size() > k)
      continue;
    for (size_t j = inst.args.size(); j < k; ++j) {
      if (!params[j].defaultValue)
        break;
      inst.args.push_back(ast::cloneExpr(*params[j].defaultValue));
    }
    if (inst.args.size() != k)
      continue;
    inst.args.push_back(intExpr(std::max<size_t>(used[i], 1), inst.loc));
    inst.inputs.clear();
    inst.outputs.clear();
    if (!portsOf(inst.cls, inst.args, inst.loc, inst.className, inst.inputs,
                 inst.outputs))
      inst.kind = Inst::Failed;
  }
}

/// Checks the end of a connection at `port` of `inst` (its source when
/// `asSource`): false after reporting a port it lacks, or a connection
/// into the elementclass's inputs or out of its outputs. Connections from
/// `input` and into `output` count the elementclass's ports.
bool Lowerer::checkEnd(const Inst &inst, bool asSource, size_t port,
                       const Loc &loc, PortUse &use) {
  const char *dir = asSource ? "output" : "input";
  if (inst.kind == (asSource ? Inst::Output : Inst::Input)) {
    error(loc) << "'" << dir << "' stands for the elementclass's " << dir
               << "s: connections " << (asSource ? "end" : "start") << " there";
    return false;
  }
  if (inst.kind == (asSource ? Inst::Input : Inst::Output)) {
    size_t &n = asSource ? use.nIn : use.nOut;
    n = std::max(n, port + 1);
    return true;
  }
  const std::vector<PortRef> &ports = asSource ? inst.outputs : inst.inputs;
  if (inst.kind == Inst::Element && port >= ports.size()) {
    size_t n = ports.size();
    error(loc) << "'" << inst.name << "' has no " << dir << " " << port << ": '"
               << inst.className << "' has " << n << " " << dir
               << (n == 1 ? "" : "s") << " here";
    return false;
  }
  return true;
}

/// Records what each connection uses and reports connections that cannot
/// be made, elementclass ports unused inside, and unconnected inputs.
void Lowerer::checkConnections(Body &b, const ast::GraphDecl &g, PortUse &use) {
  use.valid.assign(b.conns.size(), true);
  for (size_t c = 0; c < b.conns.size(); ++c) {
    const Conn &x = b.conns[c];
    // A side that failed was reported; the other side counts as used.
    bool srcOk = x.from != kNone, dstOk = x.to != kNone;
    bool failed = !srcOk || !dstOk;
    if (srcOk) {
      failed |= b.insts[x.from].kind == Inst::Failed;
      srcOk = checkEnd(b.insts[x.from], true, x.out, x.fromLoc, use);
    }
    if (dstOk) {
      failed |= b.insts[x.to].kind == Inst::Failed;
      dstOk = checkEnd(b.insts[x.to], false, x.in, x.toLoc, use);
    }
    if (failed || !srcOk || !dstOk) {
      use.valid[c] = false;
      if (srcOk)
        use.outputs.emplace(PortUse::Key{x.from, x.out}, c);
      else if (x.from != kNone)
        use.misconnected.insert(x.from);
      if (dstOk)
        use.inputs[{x.to, x.in}].push_back(c);
      else if (x.to != kNone)
        use.misconnected.insert(x.to);
      continue;
    }
    const Inst &src = b.insts[x.from];
    auto [it, inserted] = use.outputs.emplace(PortUse::Key{x.from, x.out}, c);
    if (!inserted) {
      auto d = error(x.arrow);
      d << "output " << x.out << " of '" << src.name
        << "' is connected twice; an output has one connection (use a Tee "
           "to copy packets)";
      d.attachNote(toLoc(ctx, b.conns[it->second].arrow))
          << "first connection is here";
      use.valid[c] = false;
    }
    use.inputs[{x.to, x.in}].push_back(c);
  }
  if (b.pseudo[0] != kNone)
    for (size_t k = 0; k < use.nIn; ++k)
      if (!use.outputs.count({b.pseudo[0], k}))
        error(g.loc) << "input " << k << " of elementclass '" << g.name
                     << "' is not used inside it";
  if (b.pseudo[1] != kNone)
    for (size_t k = 0; k < use.nOut; ++k)
      if (!use.inputs.count({b.pseudo[1], k}))
        error(g.loc) << "output " << k << " of elementclass '" << g.name
                     << "' is not connected inside it";
  for (size_t i = 0; i < b.insts.size(); ++i) {
    const Inst &inst = b.insts[i];
    if (inst.kind != Inst::Element || use.misconnected.count(i))
      continue;
    for (size_t k = 0; k < inst.inputs.size(); ++k)
      if (!use.inputs.count({i, k}))
        error(inst.loc) << "input " << k << " of '" << inst.name << "' ('"
                        << inst.className
                        << "') is not connected; every input needs a "
                           "connection";
  }
}

void Lowerer::buildGraph(Body &b, ast::GraphDecl &g, PortUse &use) {
  using Key = PortUse::Key;
  // The graph: the configuration's elements, its connections (through a
  // Merge where several end at one input), then a Discard per output the
  // configuration leaves unconnected.
  for (Inst &inst : b.insts) {
    if (inst.kind != Inst::Element)
      continue;
    ast::InstanceDecl d =
        instanceDecl(inst.name, inst.callee, inst.loc, inst.calleeLoc);
    d.args = std::move(inst.args);
    g.instances.push_back(std::move(d));
  }
  ClassRef merge = libraryClass("Merge"), discard = libraryClass("Discard");
  std::vector<ast::InstanceDecl> extra;
  std::set<Key> merged;
  for (size_t c = 0; c < b.conns.size(); ++c) {
    if (!use.valid[c])
      continue;
    const Conn &x = b.conns[c];
    const std::vector<size_t> &group = use.inputs[{x.to, x.in}];
    const Inst &dst = b.insts[x.to];
    if (group.size() == 1) {
      connect(g, endpoint(b.insts[x.from], x.out, true, x.fromLoc),
              endpoint(dst, x.in, false, x.toLoc), x.arrow);
      continue;
    }
    if (!merged.insert({x.to, x.in}).second)
      continue;
    std::string name = "Merge:" + dst.name + "[" + std::to_string(x.in) + "]";
    std::vector<ExprPtr> args;
    args.push_back(intExpr((int64_t)group.size(), x.toLoc));
    std::vector<PortRef> ins, outs;
    if (!merge || !portsOf(merge, args, x.toLoc, "Merge", ins, outs) ||
        ins.size() != group.size() || outs.size() != 1) {
      if (!merge)
        error(b.conns[group[1]].arrow)
            << "several connections into input " << x.in << " of '" << dst.name
            << "' need the library element 'Merge'";
      continue;
    }
    ast::InstanceDecl d = instanceDecl(name, merge.libName, x.toLoc, x.toLoc);
    d.args = std::move(args);
    extra.push_back(std::move(d));
    Inst m;
    m.name = name;
    m.inputs = std::move(ins);
    m.outputs = std::move(outs);
    for (size_t j = 0; j < group.size(); ++j) {
      const Conn &y = b.conns[group[j]];
      connect(g, endpoint(b.insts[y.from], y.out, true, y.fromLoc),
              endpoint(m, j, false, y.toLoc), y.arrow);
    }
    connect(g, endpoint(m, 0, true, x.toLoc),
            endpoint(dst, x.in, false, x.toLoc), x.toLoc);
  }
  for (size_t i = 0; i < b.insts.size(); ++i) {
    const Inst &inst = b.insts[i];
    if (inst.kind != Inst::Element)
      continue;
    for (size_t k = 0; k < inst.outputs.size(); ++k) {
      if (use.outputs.count({i, k}))
        continue;
      if (!discard) {
        error(inst.loc) << "output " << k << " of '" << inst.name
                        << "' is not connected, and there is no library "
                           "element 'Discard' to drop its packets";
        continue;
      }
      std::string name = "Discard:" + inst.name + "[" + std::to_string(k) + "]";
      extra.push_back(instanceDecl(name, discard.libName, inst.loc, inst.loc));
      ast::Endpoint to;
      to.loc = inst.loc;
      to.inst = name; // its only input
      connect(g, endpoint(inst, k, true, inst.loc), std::move(to), inst.loc);
    }
  }
  for (ast::InstanceDecl &d : extra)
    g.instances.push_back(std::move(d));
  auto boundary = [&](bool isInput, size_t n) {
    if (n == 0)
      return;
    ast::PortDecl p;
    p.loc = g.loc;
    p.isInput = isInput;
    p.name = isInput ? "input" : "output";
    p.arraySize = intExpr((int64_t)n, g.loc);
    p.type = std::make_unique<ast::TypeRef>();
    p.type->loc = g.loc;
    p.type->name = "pkt";
    g.ports.push_back(std::move(p));
  };
  if (b.scope->compound) {
    boundary(true, use.nIn);
    boundary(false, use.nOut);
  }
}

bool Lowerer::finish(Body &b, ast::GraphDecl &g, size_t &nIn, size_t &nOut) {
  unsigned before = errors;
  nameAnonymous(b);
  countOutputs(b);
  PortUse use;
  checkConnections(b, g, use);
  nIn = use.nIn;
  nOut = use.nOut;
  if (errors != before)
    return false;
  buildGraph(b, g, use);
  return errors == before;
}
