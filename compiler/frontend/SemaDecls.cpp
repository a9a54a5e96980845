//===- SemaDecls.cpp - checks of NPL declarations -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Top-level names (constants, structs, headers, annotations, elements,
// graphs, functions, match programs) and the parts of an element (parameters,
// ports, state, init, handler, signal, timer, read and write handlers).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

#include "llvm/ADT/StringMap.h"

#include <functional>

using namespace npcc;
using namespace npcc::ast;

//===----------------------------------------------------------------------===//
// Top-level names
//===----------------------------------------------------------------------===//

void Sema::checkDuplicates() {
  llvm::StringMap<Loc> seen;
  auto addTop = [&](const std::string &name, const Loc &l) -> bool {
    auto [it, inserted] = seen.try_emplace(name, l);
    if (!inserted)
      errorWithNote(l, "redefinition of '" + name + "'", it->second,
                    "previous definition is here");
    return inserted;
  };
  for (ConstDecl &c : module.consts)
    if (addTop(c.name, c.loc))
      consts[c.name] = &c;
  for (RecordDecl &r : module.records)
    if (addTop(r.name, r.loc))
      records[r.name] = &r;
  for (ElementDecl &e : module.elements)
    if (addTop(e.name, e.loc))
      elements[e.name] = &e;
  for (GraphDecl &g : module.graphs)
    if (addTop(g.name, g.loc))
      graphs[g.name] = &g;
  for (MatchDecl &m : module.matches)
    addTop(m.name, m.loc);
  for (FnDecl &f : module.fns) {
    if (lookupBuiltin(f.name) != Builtin::None) {
      error(f.loc) << "'" << f.name << "' is a builtin function";
      continue;
    }
    if (addTop(f.name, f.loc))
      fns[f.name] = &f;
  }
}

void Sema::checkRecord(const RecordDecl &r) {
  llvm::StringMap<Loc> names;
  unsigned bits = 0;
  for (const Field &f : r.fields) {
    auto [it, inserted] = names.try_emplace(f.name, f.loc);
    if (!inserted)
      errorWithNote(f.loc, "duplicate field '" + f.name + "'", it->second,
                    "previous declaration is here");
    Ty t = resolve(*f.type);
    if (r.isHeader) {
      if (t.kind != Ty::Int || t.isSigned)
        error(f.type->loc) << "header field '" << f.name
                           << "' must have an unsigned type u1..u64";
      else
        bits += t.width;
    } else if (t.kind == Ty::Pkt || t.kind == Ty::Header || t.kind == Ty::Str) {
      error(f.type->loc) << "struct field '" << f.name
                         << "' cannot be of type '" << t.str() << "'";
    } else if (t.kind == Ty::Record) {
      error(f.type->loc) << "nested struct field '" << f.name
                         << "' is not supported; flatten the struct";
    }
    if (f.defaultValue) {
      if (r.isHeader)
        error(f.defaultValue->loc)
            << "header fields come from the packet; they have no default";
      else if (t.kind != Ty::Error)
        coerce(*f.defaultValue, t);
    }
  }
  if (r.isHeader && bits % 8 != 0)
    error(r.loc) << "header '" << r.name << "' is " << bits
                 << " bits long, not a whole number of bytes";
}

/// Named annotations: one word of the packet each, in declaration order.
void Sema::checkAnnotations() {
  constexpr unsigned kWords = 16; // NPRT_PKT_ANNOS
  for (const AnnotationDecl &a : module.annotations) {
    unsigned w;
    if (isPacketMetaField(a.name, w)) {
      error(a.loc) << "'" << a.name << "' is a metadata field of every packet";
      continue;
    }
    Ty t = resolve(*a.type);
    if (t.kind != Ty::Int && t.kind != Ty::Bool && t.kind != Ty::Prefix) {
      if (t.kind != Ty::Error)
        error(a.type->loc) << "an annotation is an integer, a bool or a "
                              "prefix, not '"
                           << t.str() << "'";
      continue;
    }
    auto [it, fresh] = annotations.try_emplace(
        a.name, Annotation{&a, t, (unsigned)annotations.size()});
    if (!fresh) {
      errorWithNote(a.loc, "redefinition of annotation '" + a.name + "'",
                    it->second.decl->loc, "previous definition is here");
      continue;
    }
    if (it->second.slot >= kWords) {
      error(a.loc) << "a program declares at most " << kWords << " annotations";
      annotations.erase(it);
    }
  }
}

void Sema::checkGraphDecl(const GraphDecl &g) {
  llvm::StringMap<Loc> names;
  auto unique = [&](const std::string &n, const Loc &l) {
    auto [it, inserted] = names.try_emplace(n, l);
    if (!inserted)
      errorWithNote(l, "redeclaration of '" + n + "' in graph '" + g.name + "'",
                    it->second, "previous declaration is here");
  };
  for (const Param &p : g.params) {
    unique(p.name, p.loc);
    resolve(*p.type);
  }
  for (const PortDecl &p : g.ports) {
    unique(p.name, p.loc);
    Ty t = resolve(*p.type);
    if (t.kind != Ty::Error && t.kind != Ty::Pkt && t.kind != Ty::Int)
      error(p.type->loc) << "port '" << p.name
                         << "' must carry 'pkt' or an integer type";
  }
  for (const InstanceDecl &i : g.instances) {
    unique(i.name, i.loc);
    if (!elements.count(i.callee) && !graphs.count(i.callee))
      error(i.calleeLoc) << "unknown element '" << i.callee << "'";
    if (!i.placement.empty() && i.placement != "npu" && i.placement != "fpga" &&
        i.placement != "host")
      error(i.placementLoc) << "unknown placement '@" << i.placement
                            << "'; expected @npu, @fpga or @host";
  }
}

/// Functions are inlined, so a call cycle is an error at the call that
/// closes it.
void Sema::checkRecursion() {
  llvm::StringMap<int> state; // 0 new, 1 on the path, 2 done
  std::function<void(llvm::StringRef)> visit = [&](llvm::StringRef fn) {
    state[fn] = 1;
    for (auto &[callee, at] : calls.lookup(fn)) {
      int st = state.lookup(callee);
      if (st == 1) {
        const FnDecl *target = fns.lookup(callee);
        errorWithNote(at,
                      "recursive call to '" + callee +
                          "': functions are inlined and cannot recurse",
                      target->loc, "'" + callee + "' is defined here");
      } else if (st == 0) {
        visit(callee);
      }
    }
    state[fn] = 2;
  };
  for (FnDecl &f : module.fns)
    if (fns.lookup(f.name) == &f && state.lookup(f.name) == 0)
      visit(f.name);
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// `merge OP` on state `v` of type `t`: OP is known, and combines the
/// copies of integers (or bools), one by one for an array.
void Sema::checkMerge(const StateVar &v, const Ty &t) {
  static const char *const ops[] = {"sum", "or", "max", "min"};
  if (llvm::find(ops, v.merge) == std::end(ops)) {
    error(v.mergeLoc) << "unknown merge '" << v.merge
                      << "'; expected sum, or, max or min";
    return;
  }
  if (v.shared) {
    error(v.mergeLoc) << "shared state '" << v.name
                      << "' has one copy; it cannot be merged";
    return;
  }
  const Ty &elem = t.kind == Ty::Array && t.elem ? *t.elem : t;
  if (elem.kind != Ty::Int && elem.kind != Ty::Bool)
    error(v.mergeLoc) << "'merge " << v.merge << "' needs integers or bools, "
                      << "or arrays of them; state '" << v.name << "' is '"
                      << t.str() << "'";
  else if (elem.kind == Ty::Bool && v.merge == "sum")
    error(v.mergeLoc) << "bools merge with or, max or min, not sum";
}

void Sema::checkElement(ElementDecl &e) {
  currentElement = &e;
  beginBodyScopes();
  for (Param &p : e.params) {
    Ty t = resolve(*p.type);
    if (p.variadic) {
      Ty a = Ty::of(Ty::Array);
      a.elem = std::make_shared<Ty>(t);
      t = a;
    }
    if (p.defaultValue)
      coerce(*p.defaultValue, t);
    declare(p.name, {Symbol::Param, t, p.loc});
  }
  for (PortDecl &p : e.ports) {
    Ty elem = resolve(*p.type);
    if (elem.kind != Ty::Error && elem.kind != Ty::Pkt && elem.kind != Ty::Int)
      error(p.type->loc) << "port '" << p.name
                         << "' must carry 'pkt' or an integer type, not '"
                         << elem.str() << "'";
    if (p.arraySize)
      coerce(*p.arraySize, Ty::integer(32, false));
    Ty t = Ty::of(Ty::Port);
    t.elem = std::make_shared<Ty>(elem);
    t.len = p.arraySize ? 1 : 0;
    t.isSigned = p.isInput; // direction, reused for ports
    declare(p.name, {Symbol::Port, t, p.loc});
  }
  for (StateVar &v : e.state) {
    Ty t = resolve(*v.type);
    if ((v.type->kind == TypeRef::Array || v.type->kind == TypeRef::Queue) &&
        v.type->size)
      coerce(*v.type->size, Ty::integer(32, false));
    if (t.kind == Ty::Pkt)
      error(v.type->loc) << "state '" << v.name << "' cannot be of type '"
                         << t.str() << "'; state holds packets in a "
                         << "'queue<pkt, N>'";
    else if (t.kind == Ty::Header || t.kind == Ty::Str)
      error(v.type->loc) << "state '" << v.name << "' cannot be of type '"
                         << t.str() << "'";
    else if (v.shared &&
             (t.kind == Ty::Queue || t.kind == Ty::Lpm || t.kind == Ty::Hash))
      // Packets are owned by one instance at a time, and the fini that
      // drains a queue runs per instance; tables are left out until an
      // element needs one shared.
      error(v.type->loc) << "shared state '" << v.name << "' cannot be a "
                         << (t.kind == Ty::Queue ? "queue" : "table")
                         << "; shared state holds integers, bools, prefixes, "
                            "arrays and structs";
    if (!v.merge.empty())
      checkMerge(v, t);
    if (v.init &&
        (t.kind == Ty::Queue || t.kind == Ty::Lpm || t.kind == Ty::Hash)) {
      error(v.init->loc) << "a " << (t.kind == Ty::Queue ? "queue" : "table")
                         << " starts empty; remove the initialiser of '"
                         << v.name << "'"
                         << (t.kind == Ty::Queue ? "" : " (fill it in 'init')");
    } else if (v.init) {
      if (t.kind == Ty::Record)
        error(v.init->loc) << "struct state is zero-initialised; remove the "
                              "initialiser of '"
                           << v.name << "'";
      else
        coerce(*v.init, t);
    }
    declare(v.name, {Symbol::State, t, v.loc});
  }
  if (!e.hasHandler)
    error(e.loc) << "element '" << e.name << "' has no handler";
  // init, the handler and the timer: each in its own scope, with the flag
  // saying where its statements stand set meanwhile.
  auto checkBody = [&](Block &body, bool &where) {
    where = true;
    scopes.emplace_back();
    checkBlock(body);
    scopes.pop_back();
    where = false;
  };
  if (e.hasInit)
    checkBody(e.init, inInit);
  if (e.hasHandler)
    checkBody(e.handler, inHandler);
  if (e.hasSignal) {
    scopes.emplace_back();
    Ty t = resolve(*e.signalType);
    if (t.kind != Ty::Int || t.width > 64)
      error(e.signalType->loc) << "signal argument must be an integer";
    declare(e.signalArg, {Symbol::Let, t, e.signalLoc});
    checkBlock(e.signal);
    scopes.pop_back();
  }
  if (e.hasTimer) {
    coerce(*e.timerPeriod, Ty::integer(64, false));
    checkBody(e.timer, inTimer);
  }
  llvm::StringMap<Loc> controlNames;
  for (ControlDecl &c : e.controls) {
    if (c.name == "name" || c.name == "class" || c.name == "handlers")
      error(c.loc) << "every element has a read handler '" << c.name
                   << "'; choose another name";
    // A read and a write handler may share a name (Click's rw handlers).
    auto [it, fresh] =
        controlNames.try_emplace((c.isWrite ? "w:" : "r:") + c.name, c.loc);
    if (!fresh)
      errorWithNote(c.loc, "handler '" + c.name + "' is defined twice",
                    it->second, "first defined here");
    checkControl(c);
  }
  currentElement = nullptr;
}

/// Every path through `b` ends in `return`.
static bool alwaysReturns(const Block &b);
static bool alwaysReturns(const Stmt &s) {
  switch (s.kind) {
  case Stmt::Return:
    return true;
  case Stmt::If:
  case Stmt::IfLet:
    return alwaysReturns(s.body) && !s.elseBody.empty() &&
           alwaysReturns(s.elseBody);
  case Stmt::Nested:
    return alwaysReturns(s.body);
  default:
    return false;
  }
}
static bool alwaysReturns(const Block &b) {
  for (const StmtPtr &s : b)
    if (alwaysReturns(*s))
      return true;
  return false;
}

/// A read or write handler: scalar parameters and result (they travel as
/// text), a body that never blocks, and a value on every path of a read.
void Sema::checkControl(ControlDecl &c) {
  auto scalar = [](const Ty &t) {
    return t.kind == Ty::Int || t.kind == Ty::Bool || t.kind == Ty::Prefix ||
           t.kind == Ty::Error;
  };
  currentControl = &c;
  scopes.emplace_back();
  if (c.params.size() > 16)
    error(c.loc) << "a write handler takes at most 16 parameters";
  for (Param &p : c.params) {
    Ty t = resolve(*p.type);
    if (!scalar(t) || p.variadic)
      error(p.type->loc) << "a handler parameter is an integer, a bool or a "
                            "prefix, not '"
                         << t.str() << (p.variadic ? "...'" : "'");
    if (p.defaultValue)
      coerce(*p.defaultValue, t);
    declare(p.name, {Symbol::Let, t, p.loc});
  }
  if (!c.isWrite) {
    Ty t = resolve(*c.result);
    if (!scalar(t))
      error(c.result->loc) << "a read handler answers an integer, a bool or "
                              "a prefix, not '"
                           << t.str() << "'";
  }
  checkBlock(c.body);
  if (!c.isWrite && !alwaysReturns(c.body))
    error(c.bodyEnd) << "read handler '" << c.name
                     << "' must return a value on every path";
  popScope();
  currentControl = nullptr;
}

//===----------------------------------------------------------------------===//
// Functions and match programs
//===----------------------------------------------------------------------===//

void Sema::checkFn(FnDecl &f) {
  if (fns.lookup(f.name) != &f)
    return; // a redefinition, already reported
  currentFn = &f;
  beginBodyScopes();
  for (Param &p : f.params) {
    // `[T]`: the function runs only at compile time (ConstEvalFn.cpp).
    unsizedArrayOk = p.type->kind == TypeRef::Array && !p.type->size;
    Ty t = resolve(*p.type);
    unsizedArrayOk = false;
    if (t.kind != Ty::Error && t.kind != Ty::Int && t.kind != Ty::Bool &&
        t.kind != Ty::Pkt && !(t.kind == Ty::Array && !p.type->size))
      error(p.type->loc) << "function parameter '" << p.name
                         << "' must be an integer, a bool or a packet, not '"
                         << t.str() << "'";
    if (p.variadic || p.defaultValue)
      error(p.loc) << "function parameters have no defaults and are not "
                      "variadic";
    Symbol sym{Symbol::Let, t, p.loc};
    sym.used = true; // an unused parameter is part of the signature
    declare(p.name, sym);
  }
  if (f.result) {
    Ty r = resolve(*f.result);
    if (r.kind != Ty::Error && r.kind != Ty::Int && r.kind != Ty::Bool)
      error(f.result->loc) << "a function returns an integer or a bool, not '"
                           << r.str() << "'";
  }
  checkBlock(f.body);
  if (f.result && !alwaysReturns(f.body))
    error(f.bodyEnd) << "function '" << f.name
                     << "' may end without returning a value";
  currentFn = nullptr;
}

/// The list manager streams 8-word headers and items.
static constexpr unsigned kMatchWords = 8;

void Sema::checkMatch(MatchDecl &m) {
  beginBodyScopes();
  if (m.params.size() != 2)
    error(m.loc) << "match program '" << m.name
                 << "' takes two parameters: the header and the list item";
  for (Param &p : m.params) {
    Ty t = resolve(*p.type);
    if (t.kind != Ty::Error && t.kind != Ty::Record) {
      error(p.type->loc) << "match parameter '" << p.name
                         << "' must be a struct, not '" << t.str() << "'";
      t = Ty();
    } else if (t.kind == Ty::Record) {
      for (const Field &f : t.record->fields) {
        unsigned word, lsb, width;
        if (!matchField(*t.record, f.name, word, lsb, width))
          errorWithNote(p.type->loc,
                        "field '" + f.name + "' of '" + t.record->name +
                            "' is not an integer of at most 64 bits",
                        f.loc, "declared here");
      }
      if (matchWords(*t.record) > kMatchWords)
        errorWithNote(p.type->loc,
                      "'" + t.record->name + "' needs " +
                          std::to_string(matchWords(*t.record)) +
                          " words; the list manager streams " +
                          std::to_string(kMatchWords),
                      t.record->loc, "declared here");
    }
    declare(p.name, {Symbol::Let, t, p.loc});
  }
  inMatch = true;
  scopes.emplace_back();
  for (size_t i = 0; i < m.body.size(); ++i) {
    Stmt &s = *m.body[i];
    bool isAccept = s.kind == Stmt::ExprStmt && s.init->kind == Expr::Call &&
                    lookupBuiltin(s.init->text) == Builtin::Accept;
    if (isAccept && i + 1 != m.body.size())
      error(s.loc) << "'accept' must be the last statement of a match "
                      "program";
    checkStmt(s);
  }
  if (m.body.empty() || m.body.back()->kind != Stmt::ExprStmt ||
      m.body.back()->init->kind != Expr::Call ||
      lookupBuiltin(m.body.back()->init->text) != Builtin::Accept)
    error(m.loc) << "match program '" << m.name
                 << "' must end with 'accept(offset, length)'";
  popScope();
  inMatch = false;
}
