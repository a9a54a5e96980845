//===- Elaborate.cpp - instance arguments, specialisation, graphs ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Elements are specialised once per distinct argument list, as ClickNP
// generates one kernel per element instance: parameters become constants,
// port arrays get a fixed size, and connections can be checked exactly.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Limits.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/MLIRGenImpl.h"

#include "dialects/NP/IR/NPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"

using namespace npcc;
using namespace npcc::ast;
namespace np = npcc::np;

//===----------------------------------------------------------------------===//
// Graph elaboration
//===----------------------------------------------------------------------===//

namespace {

class Elaborator {
public:
  Elaborator(Sema &sema, mlir::ModuleOp module)
      : sema(sema), module(module), b(module.getContext()) {}

  /// Returns the symbol of the specialised element or graph, or "" on error.
  std::string instantiate(const InstanceDecl &inst, const Env &callerEnv);
  std::string elaborateGraph(const GraphDecl &g, Env env,
                             const std::string &key);
  ElementSpec *specFor(const std::string &symbol) {
    auto it = elementSpecs.find(symbol);
    return it == elementSpecs.end() ? nullptr : &it->second;
  }
  std::map<std::string, std::string> graphSymbols; // key -> symbol

private:
  bool checkArg(const CValue &v, const Ty &t, const Param &p, const Expr &arg);
  bool bindArgs(const std::vector<Param> &params, const InstanceDecl &inst,
                const Env &callerEnv, Env &out);
  std::string specializeElement(const ElementDecl &e, Env env,
                                const std::string &key);

  struct GraphPorts {
    std::vector<ElementSpec::Port> ports;
  };

  Sema &sema;
  mlir::ModuleOp module;
  mlir::OpBuilder b;
  std::map<std::string, std::string> elementSymbols; // key -> symbol
  std::map<std::string, ElementSpec> elementSpecs;   // symbol -> spec
  std::map<std::string, GraphPorts> graphPorts;      // symbol -> ports
  llvm::StringMap<unsigned> symbolCounts;
  // Graph keys being elaborated, innermost last: a graph that instantiates
  // itself (directly or through others) would never finish.
  std::vector<std::string> graphStack;

  std::string freshSymbol(const std::string &base) {
    unsigned n = symbolCounts[base]++;
    return n == 0 ? base : base + "_" + std::to_string(n);
  }
  friend struct ConnectionChecker;
};

} // namespace

/// Whether argument value `v` suits parameter `p` of type `t`; reports why
/// not at the argument.
bool Elaborator::checkArg(const CValue &v, const Ty &t, const Param &p,
                          const Expr &arg) {
  if (t.kind == Ty::Int && v.kind == CValue::Int && !CValue::fits(v, t)) {
    sema.error(arg.loc) << "argument " << (int64_t)v.i
                        << " does not fit in parameter '" << p.name
                        << "' of type '" << t.str() << "'";
    return false;
  }
  if (t.kind == Ty::Int ? v.kind == CValue::Int : CValue::fits(v, t))
    return true;
  sema.errorWithNote(arg.loc,
                     "argument for parameter '" + p.name +
                         "' must be of type '" + t.str() + "'",
                     p.loc, "parameter declared here");
  return false;
}

bool Elaborator::bindArgs(const std::vector<Param> &params,
                          const InstanceDecl &inst, const Env &callerEnv,
                          Env &out) {
  ConstEval ce(sema, callerEnv);
  size_t nFixed = params.size();
  bool variadic = !params.empty() && params.back().variadic;
  if (variadic)
    --nFixed;
  size_t required = 0;
  for (size_t i = 0; i < nFixed; ++i)
    if (!params[i].defaultValue)
      required = i + 1;
  if (inst.args.size() < required || (!variadic && inst.args.size() > nFixed)) {
    auto d = sema.error(inst.loc);
    d << "'" << inst.callee << "' takes " << (variadic ? "at least " : "")
      << required << " argument" << (required == 1 ? "" : "s") << ", "
      << inst.args.size() << " given";
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < nFixed; ++i) {
    const Param &p = params[i];
    Ty t = sema.resolve(*p.type, false);
    const Expr *arg =
        i < inst.args.size() ? inst.args[i].get() : p.defaultValue.get();
    // Arguments were parsed but not type-checked: give literals the type of
    // the parameter before evaluating.
    auto v = i < inst.args.size()
                 ? ConstEval(sema, callerEnv).eval(*arg, "argument")
                 : ConstEval(sema, Env()).eval(*arg, "default value");
    if (!v) {
      ok = false;
      continue;
    }
    if (!checkArg(*v, t, p, *arg)) {
      ok = false;
      continue;
    }
    out[p.name] = *v;
  }
  if (variadic) {
    CValue list;
    list.kind = CValue::List;
    Ty t = sema.resolve(*params.back().type, false);
    for (size_t i = nFixed; i < inst.args.size(); ++i) {
      auto v = ce.eval(*inst.args[i], "argument");
      if (!v) {
        ok = false;
        continue;
      }
      if (!checkArg(*v, t, params.back(), *inst.args[i]))
        ok = false;
      list.list.push_back(*v);
    }
    out[params.back().name] = list;
  }
  return ok;
}

std::string Elaborator::instantiate(const InstanceDecl &inst,
                                    const Env &callerEnv) {
  Env env;
  if (const ElementDecl *e = sema.lookupElement(inst.callee)) {
    if (!bindArgs(e->params, inst, callerEnv, env))
      return "";
    std::string key = e->name + "(";
    for (const Param &p : e->params)
      key += env[p.name].key() + ",";
    return specializeElement(*e, std::move(env), key + ")");
  }
  const GraphDecl *g = sema.lookupGraph(inst.callee);
  if (!g)
    return ""; // reported by Sema
  if (!bindArgs(g->params, inst, callerEnv, env))
    return "";
  std::string key = g->name + "(";
  for (const Param &p : g->params)
    key += env[p.name].key() + ",";
  key += ")";
  if (llvm::is_contained(graphStack, key)) {
    sema.errorWithNote(inst.loc, "graph '" + g->name + "' instantiates itself",
                       g->loc, "graph declared here");
    return "";
  }
  if (graphStack.size() >= limits::kMaxGraphDepth) {
    sema.errorWithNote(inst.loc,
                       "graphs nested too deeply: more than " +
                           std::to_string(limits::kMaxGraphDepth) +
                           " levels of graphs instantiating graphs",
                       g->loc, "graph '" + g->name + "' declared here");
    return "";
  }
  return elaborateGraph(*g, std::move(env), key);
}

std::string Elaborator::specializeElement(const ElementDecl &e, Env env,
                                          const std::string &key) {
  auto it = elementSymbols.find(key);
  if (it != elementSymbols.end())
    return it->second;
  std::string sym = freshSymbol(e.name);
  elementSymbols[key] = sym;
  ElementSpec &spec = elementSpecs[sym];
  spec.decl = &e;
  spec.env = std::move(env);
  spec.symbol = sym;
  ConstEval ce(sema, spec.env);
  bool ok = true;
  for (const PortDecl &p : e.ports) {
    Ty elem = sema.resolve(*p.type, false);
    if (!p.arraySize) {
      spec.ports.push_back({p.name, p.isInput, elem, &p});
      continue;
    }
    auto n = ce.eval(*p.arraySize, "port array size");
    if (!n) {
      ok = false;
      continue;
    }
    if (n->i > limits::kMaxPortArraySize) {
      sema.error(p.arraySize->loc)
          << "port array '" << p.name << "' has " << n->i << " ports; at most "
          << limits::kMaxPortArraySize << " are allowed";
      ok = false;
      continue;
    }
    spec.portArraySizes[p.name] = n->i;
    for (uint64_t k = 0; k < n->i; ++k)
      spec.ports.push_back(
          {p.name + "[" + std::to_string(k) + "]", p.isInput, elem, &p});
  }
  if (!ok || !emitElement(sema, module, spec)) {
    elementSymbols[key] = "";
    return "";
  }
  return sym;
}

//===----------------------------------------------------------------------===//
// Connections
//===----------------------------------------------------------------------===//

namespace npcc {
struct ConnectionChecker {
  Elaborator &el;
  Sema &sema;
  const GraphDecl &g;
  ConstEval ce;
  mlir::OpBuilder &b;

  struct InstInfo {
    const InstanceDecl *decl;
    std::string symbol;
    const std::vector<ElementSpec::Port> *ports;
  };
  llvm::StringMap<InstInfo> insts;
  std::vector<ElementSpec::Port> boundary;
  // Port key ("inst.port" or "port") -> location of the connection using it.
  llvm::StringMap<Loc> used;

  struct End {
    std::string inst; // empty for a boundary port
    const ElementSpec::Port *port = nullptr;
    std::string text() const {
      return inst.empty() ? port->name : inst + "." + port->name;
    }
  };

  std::optional<End> resolve(const Endpoint &ep, bool asSource) {
    End end;
    const std::vector<ElementSpec::Port> *ports;
    std::string portName = ep.port;
    auto ii = insts.find(ep.inst);
    if (ii == insts.end()) {
      if (!ep.port.empty()) {
        sema.error(ep.loc) << "unknown instance '" << ep.inst << "'";
        return std::nullopt;
      }
      ports = &boundary;
      portName = ep.inst;
      if (ep.index) {
        auto k = ce.eval(*ep.index, "port index");
        if (!k)
          return std::nullopt;
        portName += "[" + std::to_string(k->i) + "]";
      }
      auto f =
          llvm::find_if(*ports, [&](auto &p) { return p.name == portName; });
      if (f == ports->end()) {
        sema.error(ep.loc) << "unknown instance or port '" << portName << "'";
        return std::nullopt;
      }
      end.port = &*f;
      return end;
    }
    end.inst = ep.inst;
    ports = ii->second.ports;
    if (!ports)
      return std::nullopt; // the instance failed to elaborate
    if (portName.empty() && ep.index) {
      sema.error(ep.loc) << "'" << ep.inst << "' is an instance; name its "
                         << "port array, as '" << ep.inst << ".o[k]'";
      return std::nullopt;
    }
    if (portName.empty()) {
      // A bare instance means its only port of the needed direction.
      const ElementSpec::Port *only = nullptr;
      unsigned count = 0;
      for (auto &p : *ports)
        if (p.isInput != asSource) {
          only = &p;
          ++count;
        }
      if (count != 1) {
        sema.error(ep.loc) << "instance '" << ep.inst << "' has " << count
                           << (asSource ? " output" : " input")
                           << " ports; name one as '" << ep.inst << ".port'";
        return std::nullopt;
      }
      end.port = only;
      return end;
    }
    if (ep.index) {
      auto k = ce.eval(*ep.index, "port index");
      if (!k)
        return std::nullopt;
      portName += "[" + std::to_string(k->i) + "]";
    }
    auto f = llvm::find_if(*ports, [&](auto &p) { return p.name == portName; });
    if (f == ports->end()) {
      bool isArray = !ep.index && llvm::any_of(*ports, [&](auto &p) {
        return llvm::StringRef(p.name).starts_with(portName + "[");
      });
      if (isArray)
        sema.error(ep.loc) << "port array '" << ep.inst << "." << portName
                           << "' needs an index, e.g. '" << ep.inst << "."
                           << portName << "[0]'";
      else
        sema.error(ep.loc) << "instance '" << ep.inst << "' has no port '"
                           << portName << "'";
      return std::nullopt;
    }
    end.port = &*f;
    return end;
  }

  void connect(const Endpoint &from, const Endpoint &to, bool lossy,
               int64_t depth, const Loc &loc) {
    // `p -> p`: one endpoint as both source and destination. A feedback
    // loop through one element names its two ports (`p.o -> p.i`).
    if (from.inst == to.inst && from.port == to.port && !from.index &&
        !to.index) {
      std::string text =
          from.port.empty() ? from.inst : from.inst + "." + from.port;
      sema.error(to.loc) << "'" << text
                         << "' is connected to itself; a feedback loop "
                            "names an output and an input ('p.o -> p.i')";
      return;
    }
    auto s = resolve(from, true);
    auto d = resolve(to, false);
    if (!s || !d)
      return;
    // The same with port array elements and computed indices (`t.o[k] ->
    // t.o[0]` with k = 0) or a boundary port on both sides.
    if (s->inst == d->inst && s->port == d->port) {
      sema.error(to.loc) << "'" << s->text()
                         << "' is connected to itself; a feedback loop "
                            "names an output and an input ('p.o -> p.i')";
      return;
    }
    // Inside a graph, an instance output and a boundary input are sources.
    bool srcOk = s->inst.empty() ? s->port->isInput : !s->port->isInput;
    bool dstOk = d->inst.empty() ? !d->port->isInput : d->port->isInput;
    if (!srcOk) {
      sema.errorWithNote(from.loc,
                         "connection starts at '" + s->text() +
                             "', which is not an output",
                         s->port->decl->loc, "declared here");
      return;
    }
    if (!dstOk) {
      sema.errorWithNote(to.loc,
                         "connection ends at '" + d->text() +
                             "', which is not an input",
                         d->port->decl->loc, "declared here");
      return;
    }
    if (s->port->elem != d->port->elem) {
      auto diag = sema.error(loc);
      diag << "connection from '" << s->text() << "' of type '"
           << s->port->elem.str() << "' to '" << d->text() << "' of type '"
           << d->port->elem.str() << "'";
      diag.attachNote(toLoc(sema.getContext(), s->port->decl->loc))
          << "'" << s->text() << "' declared here";
      diag.attachNote(toLoc(sema.getContext(), d->port->decl->loc))
          << "'" << d->text() << "' declared here";
      return;
    }
    for (End *e : {&*s, &*d}) {
      auto [it, inserted] = used.try_emplace(e->text(), loc);
      if (!inserted) {
        sema.errorWithNote(loc, "port '" + e->text() + "' is already connected",
                           it->second, "previous connection is here");
        return;
      }
    }
    auto ref = [&](const End &e) -> mlir::SymbolRefAttr {
      auto port = mlir::FlatSymbolRefAttr::get(b.getContext(), e.port->name);
      if (e.inst.empty())
        return port;
      return mlir::SymbolRefAttr::get(b.getStringAttr(e.inst), {port});
    };
    auto op = b.create<np::ConnectOp>(toLoc(sema.getContext(), loc), ref(*s),
                                      ref(*d), depth);
    if (lossy)
      op.setLossy(true);
  }
};
} // namespace npcc

static constexpr int64_t kDefaultDepth = 64;

std::string Elaborator::elaborateGraph(const GraphDecl &g, Env env,
                                       const std::string &key) {
  auto it = graphSymbols.find(key);
  if (it != graphSymbols.end())
    return it->second;
  std::string sym = freshSymbol(g.name);
  graphSymbols[key] = sym;
  unsigned errorsBefore = sema.errorCount();
  graphStack.push_back(key);
  auto popKey = llvm::make_scope_exit([&] { graphStack.pop_back(); });

  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto graph = b.create<np::GraphOp>(toLoc(sema.getContext(), g.loc), sym);
  b.setInsertionPointToStart(&graph.getBodyRegion().front());

  ConnectionChecker cc{*this, sema, g, ConstEval(sema, env), b, {}, {}, {}};
  auto &gp = graphPorts[sym];
  for (const PortDecl &p : g.ports) {
    Ty elem = sema.resolve(*p.type, false);
    // A boundary port array is one port per element, `o[0]`, `o[1]`, ...,
    // as on elements.
    std::vector<std::string> names{p.name};
    if (p.arraySize) {
      names.clear();
      auto n = cc.ce.eval(*p.arraySize, "port array size");
      if (n && n->i > limits::kMaxPortArraySize)
        sema.error(p.arraySize->loc)
            << "port array '" << p.name << "' has " << n->i
            << " ports; at most " << limits::kMaxPortArraySize
            << " are allowed";
      else if (n)
        for (uint64_t k = 0; k < n->i; ++k)
          names.push_back(p.name + "[" + std::to_string(k) + "]");
    }
    for (const std::string &name : names) {
      gp.ports.push_back({name, p.isInput, elem, &p});
      b.create<np::PortOp>(toLoc(sema.getContext(), p.loc), name,
                           p.isInput ? np::PortDirection::In
                                     : np::PortDirection::Out,
                           toMLIRType(sema.getContext(), elem));
    }
  }
  cc.boundary = gp.ports;
  for (const InstanceDecl &inst : g.instances) {
    std::string callee = instantiate(inst, env);
    const std::vector<ElementSpec::Port> *ports = nullptr;
    if (!callee.empty()) {
      if (ElementSpec *es = specFor(callee))
        ports = &es->ports;
      else
        ports = &graphPorts[callee].ports;
    }
    cc.insts[inst.name] = {&inst, callee, ports};
    if (callee.empty())
      continue;
    llvm::SmallVector<mlir::Attribute> args;
    for (const ExprPtr &a : inst.args)
      if (auto v = ConstEval(sema, env).tryEval(*a))
        args.push_back(v->toAttr(b));
    b.create<np::InstanceOp>(
        toLoc(sema.getContext(), inst.loc), inst.name, callee,
        inst.placement.empty() ? "npu" : inst.placement,
        args.empty() ? mlir::ArrayAttr() : b.getArrayAttr(args));
  }
  for (const Connection &c : g.connections) {
    int64_t depth = kDefaultDepth;
    bool attrsOk = true;
    for (size_t i = 0; i < c.attrs.size(); ++i) {
      auto &[name, value] = c.attrs[i];
      if (name != "depth") {
        sema.error(c.attrLocs[i])
            << "unknown channel attribute '" << name << "'; expected 'depth'";
        attrsOk = false;
        continue;
      }
      auto v = cc.ce.eval(*value, "channel depth");
      if (!v) {
        attrsOk = false;
        continue;
      }
      // Evaluated without a type context, so negative values show as such.
      if ((int64_t)v->i < 0 || v->i > (1u << 24)) {
        sema.error(value->loc) << "channel depth must be between 0 and "
                               << (1u << 24) << ", got " << (int64_t)v->i;
        attrsOk = false;
        continue;
      }
      depth = (int64_t)v->i;
    }
    if (!attrsOk)
      continue;
    for (size_t k = 0; k + 1 < c.chain.size(); ++k) {
      const Endpoint &from = c.chain[k], &to = c.chain[k + 1];
      if (k > 0 && !from.port.empty()) {
        sema.error(from.loc) << "a port name is only allowed at the ends of "
                                "a chain; split the connection";
        break;
      }
      cc.connect(from, to, c.lossy[k], depth, c.loc);
    }
  }
  // Every port of every instance, and every boundary port, is connected.
  if (sema.errorCount() == errorsBefore) {
    for (const InstanceDecl &inst : g.instances) {
      auto &info = cc.insts[inst.name];
      if (!info.ports)
        continue;
      for (auto &p : *info.ports)
        if (!cc.used.count(inst.name + "." + p.name))
          sema.errorWithNote(inst.loc,
                             std::string(p.isInput ? "input" : "output") +
                                 " port '" + p.name + "' of instance '" +
                                 inst.name + "' is not connected",
                             p.decl->loc, "declared here");
    }
    for (auto &p : gp.ports)
      if (!cc.used.count(p.name))
        sema.errorWithNote(p.decl->loc,
                           "port '" + p.name + "' of graph '" + g.name +
                               "' is not connected inside it",
                           g.loc, "graph declared here");
  }
  if (sema.errorCount() != errorsBefore) {
    graphSymbols[key] = "";
    return "";
  }
  return sym;
}

/// The files the program names become the module's `np.devices` (for the
/// program's device table); a numbered device that is also a named file's
/// number is an error.
static bool recordNamedDevices(Sema &sema, mlir::ModuleOp module) {
  if (sema.namedDevices.empty())
    return true;
  mlir::MLIRContext *ctx = module.getContext();
  mlir::Builder b(ctx);
  unsigned named[2] = {0, 0};
  llvm::SmallVector<mlir::Attribute> devs;
  for (const Sema::NamedDevice &d : sema.namedDevices) {
    unsigned dev = named[d.output]++;
    devs.push_back(b.getDictionaryAttr({
        b.getNamedAttr("output", b.getBoolAttr(d.output)),
        b.getNamedAttr("dev", b.getI32IntegerAttr(dev)),
        b.getNamedAttr("path", b.getStringAttr(d.path)),
        b.getNamedAttr("define", b.getStringAttr(d.define)),
        b.getNamedAttr("link_type", b.getI32IntegerAttr(d.linkType)),
        b.getNamedAttr("snaplen", b.getI32IntegerAttr(d.snaplen)),
    }));
  }
  module->setAttr("np.devices", b.getArrayAttr(devs));
  bool ok = true;
  module.walk([&](mlir::Operation *op) {
    if (!mlir::isa<np::DeviceRecvOp, np::DeviceSendOp>(op) ||
        op->hasAttr("np.file"))
      return;
    bool output = mlir::isa<np::DeviceSendOp>(op);
    llvm::APInt v;
    if (mlir::matchPattern(op->getOperand(0), mlir::m_ConstantInt(&v)) &&
        v.getZExtValue() < named[output]) {
      op->emitError() << (output ? "output" : "input") << " device "
                      << v.getZExtValue()
                      << " is also a file the program names; number "
                         "devices from "
                      << named[output] << " or name every one by its file";
      ok = false;
    }
  });
  return ok;
}

mlir::OwningOpRef<mlir::ModuleOp> npcc::mlirGen(Sema &sema, Module &m,
                                                const std::string *mainFile,
                                                llvm::StringRef top) {
  mlir::MLIRContext *ctx = sema.getContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(mlir::FileLineColLoc::get(ctx, *mainFile, 1, 1));
  Elaborator el(sema, *module);
  unsigned errorsBefore = sema.errorCount();

  // Parameterless graphs are elaborated even when unused, so that their
  // errors are reported; graphs instantiated by others are not top.
  llvm::StringSet<> instantiated;
  for (const GraphDecl &g : m.graphs)
    for (const InstanceDecl &i : g.instances)
      instantiated.insert(i.callee);
  std::vector<std::pair<const GraphDecl *, std::string>> candidates;
  for (const GraphDecl &g : m.graphs) {
    if (!g.params.empty())
      continue;
    std::string sym = el.elaborateGraph(g, Env(), g.name + "()");
    if (!top.empty() ? g.name == top
                     : g.loc.file == mainFile && !instantiated.count(g.name))
      candidates.push_back({&g, sym});
  }
  // Errors in the graphs themselves come first: they also make the choice
  // of the top graph meaningless.
  if (sema.errorCount() != errorsBefore)
    return nullptr;
  bool topIsMatch = llvm::any_of(
      m.matches, [&](const MatchDecl &d) { return d.name == top; });
  if (!top.empty() && candidates.empty() && !topIsMatch) {
    mlir::emitError(mlir::FileLineColLoc::get(ctx, *mainFile, 1, 1))
        << "no graph named '" << top << "' without parameters";
    return nullptr;
  }
  if (top.empty() && candidates.size() > 1) {
    auto d = mlir::emitError(toLoc(ctx, candidates[1].first->loc));
    d << "several top-level graphs: '" << candidates[0].first->name << "' and '"
      << candidates[1].first->name << "'; choose one with --top";
    d.attachNote(toLoc(ctx, candidates[0].first->loc)) << "also a candidate";
    return nullptr;
  }
  if (candidates.size() == 1 && !candidates[0].second.empty())
    if (auto g = module->lookupSymbol<np::GraphOp>(candidates[0].second))
      g->setAttr("top", mlir::UnitAttr::get(ctx));
  if (!emitMatchPrograms(sema, m, *module))
    return nullptr;
  if (!recordNamedDevices(sema, *module))
    return nullptr;
  if (failed(mlir::verify(*module)))
    return nullptr;
  return module;
}
