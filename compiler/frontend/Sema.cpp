//===- Sema.cpp - NPL name resolution and type checking -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Integer typing is strict, as in Rust: operands of a binary operator have
// the same type, and literals take the type their context gives them. A
// network engineer reading `ttl - 1` must never wonder about promotions.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace npcc;
using namespace npcc::ast;

mlir::Location npcc::toLoc(mlir::MLIRContext *ctx, const Loc &l) {
  if (!l.file)
    return mlir::UnknownLoc::get(ctx);
  return mlir::FileLineColLoc::get(ctx, *l.file, l.line, l.col);
}

Builtin npcc::lookupBuiltin(llvm::StringRef name) {
  return llvm::StringSwitch<Builtin>(name)
      .Case("send", Builtin::Send)
      .Case("drop", Builtin::Drop)
      .Case("clone", Builtin::Clone)
      .Case("new_pkt", Builtin::NewPkt)
      .Case("len", Builtin::Len)
      .Case("device_recv", Builtin::DeviceRecv)
      .Case("device_send", Builtin::DeviceSend)
      .Case("strip", Builtin::Strip)
      .Case("unstrip", Builtin::Unstrip)
      .Case("truncate", Builtin::Truncate)
      .Case("min", Builtin::Min)
      .Case("max", Builtin::Max)
      .Case("classify", Builtin::Classify)
      .Case("ipclassify", Builtin::IPClassify)
      .Case("try_recv", Builtin::TryRecv)
      .Case("recv_any", Builtin::RecvAny)
      .Case("enqueue", Builtin::Enqueue)
      .Case("dequeue", Builtin::Dequeue)
      .Case("accept", Builtin::Accept)
      .Case("csum", Builtin::Csum)
      .Case("csum_partial", Builtin::CsumPartial)
      .Case("csum_fold", Builtin::CsumFold)
      .Case("csum_update", Builtin::CsumUpdate)
      .Case("crc32", Builtin::Crc32)
      .Case("crc32c", Builtin::Crc32c)
      .Case("hash", Builtin::Hash)
      .Case("clz", Builtin::Clz)
      .Case("ctz", Builtin::Ctz)
      .Case("popcount", Builtin::Popcount)
      .Case("bswap", Builtin::Bswap)
      .Case("pkt_copy", Builtin::PktCopy)
      .Case("pkt_write", Builtin::PktWrite)
      .Case("print", Builtin::Print)
      .Case("now", Builtin::Now)
      .Case("push", Builtin::Push)
      .Case("pull", Builtin::Pull)
      .Case("put", Builtin::Put)
      .Case("take", Builtin::Take)
      .Case("prefix", Builtin::Prefix)
      .Case("insert", Builtin::Insert)
      .Case("remove", Builtin::Remove)
      .Case("lookup", Builtin::Lookup)
      .Case("clear", Builtin::Clear)
      .Case("finish", Builtin::Finish)
      .Case("load", Builtin::Load)
      .Default(Builtin::None);
}

bool npcc::isPacketMetaField(llvm::StringRef name, unsigned &width) {
  width = name == "anno" || name == "ts" ? 64 : 32;
  return name == "in_port" || name == "paint" || name == "out_port" ||
         name == "anno" || name == "ts";
}

Sema::Sema(mlir::MLIRContext *ctx, Module &module) : ctx(ctx), module(module) {}

mlir::InFlightDiagnostic Sema::error(const Loc &l) {
  ++errors;
  return mlir::emitError(toLoc(ctx, l));
}

void Sema::errorWithNote(const Loc &l, const llvm::Twine &msg,
                         const Loc &noteLoc, const llvm::Twine &note) {
  auto d = error(l);
  d << msg;
  d.attachNote(toLoc(ctx, noteLoc)) << note;
}

const char *WarningOptions::name(Warning w) {
  switch (w) {
  case Warning::UnusedVariable:
    return "unused-variable";
  case Warning::UnreachableCode:
    return "unreachable-code";
  case Warning::ChannelDepth:
    return "channel-depth";
  case Warning::Count:
    break;
  }
  return "";
}

const char *WarningOptions::mode(Warning w) const {
  unsigned i = (unsigned)w;
  if (!enabled[i])
    return "ignore";
  return allAsErrors || asError[i] ? "error" : "warn";
}

bool WarningOptions::apply(llvm::StringRef flag) {
  bool negated = flag.consume_front("no-");
  if (flag == "error") {
    allAsErrors = !negated;
    return true;
  }
  bool error = flag.consume_front("error=");
  for (unsigned i = 0; i < (unsigned)Warning::Count; ++i) {
    if (flag != name((Warning)i))
      continue;
    if (error) {
      asError[i] = !negated;
      if (!negated)
        enabled[i] = true;
    } else {
      enabled[i] = !negated;
    }
    return true;
  }
  return false;
}

void Sema::warn(const Loc &l, Warning w, const llvm::Twine &msg) {
  unsigned i = (unsigned)w;
  if (!warnings.enabled[i])
    return;
  std::string flag = std::string("-W") + WarningOptions::name(w);
  if (warnings.allAsErrors || warnings.asError[i]) {
    error(l) << msg << " [-Werror," << flag << "]";
    return;
  }
  mlir::emitWarning(toLoc(ctx, l)) << msg << " [" << flag << "]";
}

const ElementDecl *Sema::lookupElement(llvm::StringRef n) const {
  return elements.lookup(n);
}
const GraphDecl *Sema::lookupGraph(llvm::StringRef n) const {
  return graphs.lookup(n);
}
const RecordDecl *Sema::lookupRecord(llvm::StringRef n) const {
  return records.lookup(n);
}
const ConstDecl *Sema::lookupConst(llvm::StringRef n) const {
  return consts.lookup(n);
}

const FnDecl *Sema::lookupFn(llvm::StringRef n) const { return fns.lookup(n); }

bool Sema::headerField(const RecordDecl &h, llvm::StringRef field,
                       unsigned &bitOffset, unsigned &width) {
  unsigned off = 0;
  for (const Field &f : h.fields) {
    unsigned w = 0;
    if (f.type->kind == TypeRef::Named && f.type->name.size() > 1)
      w = std::atoi(f.type->name.c_str() + 1);
    if (f.name == field) {
      bitOffset = off;
      width = w;
      return true;
    }
    off += w;
  }
  return false;
}

static unsigned fieldBits(const Field &f) {
  if (f.type->kind != TypeRef::Named)
    return 0;
  if (f.type->name == "bool")
    return 1;
  if (f.type->name.size() > 1 &&
      (f.type->name[0] == 'u' || f.type->name[0] == 'i'))
    return std::atoi(f.type->name.c_str() + 1);
  return 0;
}

bool Sema::matchField(const RecordDecl &r, llvm::StringRef field,
                      unsigned &word, unsigned &lsb, unsigned &width) {
  unsigned w = 0, bit = 0;
  for (const Field &f : r.fields) {
    unsigned n = fieldBits(f);
    if (n == 0 || n > 64)
      return false;
    if (bit + n > 64) {
      ++w;
      bit = 0;
    }
    if (f.name == field) {
      word = w;
      lsb = bit;
      width = n;
      return true;
    }
    bit += n;
  }
  return false;
}

unsigned Sema::matchWords(const RecordDecl &r) {
  unsigned w = 0, bit = 0;
  for (const Field &f : r.fields) {
    unsigned n = fieldBits(f);
    if (bit + n > 64) {
      ++w;
      bit = 0;
    }
    bit += n;
  }
  return bit ? w + 1 : w;
}

/// Parses `u8`, `i32`, ... into width and signedness.
static bool parseIntTypeName(llvm::StringRef name, unsigned &width,
                             bool &isSigned) {
  if (name.size() < 2 || (name[0] != 'u' && name[0] != 'i'))
    return false;
  if (name.drop_front().getAsInteger(10, width) || width < 1 || width > 64)
    return false;
  isSigned = name[0] == 'i';
  return true;
}

Ty Sema::resolve(const TypeRef &t, bool report) {
  if (t.kind == TypeRef::Queue)
    return resolveContainer(t, report);
  if (t.kind == TypeRef::Array) {
    Ty elem = resolve(*t.elem, report);
    if (elem.kind == Ty::Error)
      return elem;
    if (elem.kind != Ty::Int && elem.kind != Ty::Bool &&
        elem.kind != Ty::Record && elem.kind != Ty::Prefix) {
      if (report)
        error(t.loc) << "array elements must be integers, bools, prefixes or "
                        "structs, not '"
                     << elem.str() << "'";
      return Ty();
    }
    Ty a = Ty::of(Ty::Array);
    a.elem = std::make_shared<Ty>(elem);
    return a;
  }
  unsigned w;
  bool s;
  if (parseIntTypeName(t.name, w, s))
    return Ty::integer(w, s);
  if (t.name == "bool")
    return Ty::of(Ty::Bool);
  if (t.name == "pkt")
    return Ty::of(Ty::Pkt);
  if (t.name == "str")
    return Ty::of(Ty::Str);
  if (t.name == "prefix")
    return Ty::of(Ty::Prefix);
  if (const RecordDecl *r = records.lookup(t.name)) {
    Ty rt = Ty::of(r->isHeader ? Ty::Header : Ty::Record);
    rt.record = r;
    return rt;
  }
  if (report)
    error(t.loc) << "unknown type '" << t.name << "'";
  return Ty();
}

/// 64-bit words a table key or value of type `t` takes: fields are packed
/// in order, a field that does not fit in what is left of a word starts the
/// next one. 0 for a type a table cannot hold.
unsigned Sema::tableWords(const Ty &t) {
  auto bits = [&](const Ty &x) -> unsigned {
    if (x.kind == Ty::Int)
      return x.width;
    if (x.kind == Ty::Bool)
      return 1;
    if (x.kind == Ty::Prefix)
      return 64;
    return 0;
  };
  if (t.kind != Ty::Record)
    return bits(t) ? 1 : 0;
  unsigned words = 0, used = 64;
  for (const Field &f : t.record->fields) {
    unsigned w = bits(resolve(*f.type, false));
    if (!w)
      return 0;
    if (used + w > 64) {
      ++words;
      used = 0;
    }
    used += w;
  }
  return words;
}

/// `queue<pkt, N>`, `lpm<V, N>` and `hash<K, V, N>`: containers in state.
Ty Sema::resolveContainer(const TypeRef &t, bool report) {
  Ty elem = resolve(*t.elem, report);
  Ty key = t.key ? resolve(*t.key, report) : Ty::of(Ty::Void);
  if (elem.kind == Ty::Error || key.kind == Ty::Error)
    return Ty();
  Ty c;
  if (t.name == "queue" && !t.key && elem.kind == Ty::Pkt) {
    c = Ty::of(Ty::Queue);
  } else if (t.name == "lpm" && !t.key) {
    if (tableWords(elem) != 1) {
      if (report)
        error(t.elem->loc) << "an lpm value is an integer, bool, prefix or "
                              "struct of at most 64 bits, not '"
                           << elem.str() << "'";
      return Ty();
    }
    c = Ty::of(Ty::Lpm);
  } else if (t.name == "hash" && t.key) {
    unsigned kw = tableWords(key), vw = tableWords(elem);
    if (kw == 0 || kw > 4 || vw == 0 || vw > 8) {
      if (report)
        error(t.loc) << "a hash key is an integer, bool, prefix or struct of "
                        "at most 4 words, a value one of at most 8 words; '"
                     << key.str() << "' takes " << kw << ", '" << elem.str()
                     << "' " << vw;
      return Ty();
    }
    c = Ty::of(Ty::Hash);
    c.key = std::make_shared<Ty>(key);
  } else {
    if (report)
      error(t.loc) << "unknown type '" << t.name << "<...>'; state holds "
                   << "'queue<pkt, N>', 'lpm<V, N>' or 'hash<K, V, N>'";
    return Ty();
  }
  c.elem = std::make_shared<Ty>(elem);
  return c;
}

//===----------------------------------------------------------------------===//
// Declarations
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

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

const Sema::Symbol *Sema::lookup(llvm::StringRef name) const {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) {
      f->second.used = true;
      return &f->second;
    }
  }
  return nullptr;
}

void Sema::declare(llvm::StringRef name, Symbol s) {
  // Shadowing an outer block is allowed, redeclaring in one block is not.
  auto [it, inserted] = scopes.back().try_emplace(name, s);
  if (!inserted)
    errorWithNote(s.loc, "redeclaration of '" + name.str() + "'",
                  it->second.loc, "previous declaration is here");
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
  scopes.clear();
  scopes.emplace_back();
  for (ConstDecl &c : module.consts)
    scopes.back()[c.name] = {Symbol::Const, resolve(*c.type, false), c.loc};
  scopes.emplace_back();
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
  if (e.hasInit) {
    inInit = true;
    scopes.emplace_back();
    checkBlock(e.init);
    scopes.pop_back();
    inInit = false;
  }
  if (e.hasHandler) {
    inHandler = true;
    scopes.emplace_back();
    checkBlock(e.handler);
    scopes.pop_back();
    inHandler = false;
  }
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
    inTimer = true;
    scopes.emplace_back();
    checkBlock(e.timer);
    scopes.pop_back();
    inTimer = false;
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

static bool alwaysReturns(const Block &b);

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

static const char *exitKeyword(Stmt::Kind k) {
  switch (k) {
  case Stmt::Return:
    return "return";
  case Stmt::Break:
    return "break";
  case Stmt::Continue:
    return "continue";
  default:
    return "fail";
  }
}

void Sema::checkBlock(Block &b) {
  scopes.emplace_back();
  const Stmt *exit = nullptr;
  for (StmtPtr &s : b) {
    if (exit) {
      warn(s->loc, Warning::UnreachableCode,
           llvm::Twine("code after '") + exitKeyword(exit->kind) +
               "' is never executed");
      exit = nullptr; // once per block
    }
    checkStmt(*s);
    if (s->kind == Stmt::Return || s->kind == Stmt::Fail ||
        s->kind == Stmt::Break || s->kind == Stmt::Continue)
      exit = s.get();
  }
  popScope();
}

void Sema::popScope() {
  // Report unused locals in source order.
  std::vector<std::pair<const Symbol *, llvm::StringRef>> unused;
  for (auto &entry : scopes.back()) {
    const Symbol &sym = entry.second;
    if ((sym.kind == Symbol::Let || sym.kind == Symbol::Var) && !sym.used &&
        !entry.first().starts_with("_"))
      unused.push_back({&sym, entry.first()});
  }
  llvm::sort(unused, [](auto &a, auto &b) {
    return std::make_pair(a.first->loc.line, a.first->loc.col) <
           std::make_pair(b.first->loc.line, b.first->loc.col);
  });
  for (auto &[sym, name] : unused)
    warn(sym->loc, Warning::UnusedVariable, "unused variable '" + name + "'");
  scopes.pop_back();
}

static Ty defaultInt(const Expr &e) {
  return Ty::integer(e.value > 0xffffffffu ? 64 : 32, false);
}

void Sema::checkStmt(Stmt &s) {
  if (inMatch &&
      (s.kind == Stmt::For || s.kind == Stmt::Unroll || s.kind == Stmt::While ||
       s.kind == Stmt::Select || s.kind == Stmt::IfLet)) {
    error(s.loc) << "loops, 'select' and 'if let' are not allowed in a "
                    "match program: it runs once per list item";
    return;
  }
  switch (s.kind) {
  case Stmt::Let:
  case Stmt::Var: {
    Ty t;
    if (s.type) {
      t = resolve(*s.type);
      if (s.type->kind == TypeRef::Array && s.type->size)
        coerce(*s.type->size, Ty::integer(32, false));
      if (s.init)
        coerce(*s.init, t);
    } else {
      t = checkExpr(*s.init);
      if (t.kind == Ty::IntLit) {
        t = defaultInt(*s.init);
        coerce(*s.init, t);
      }
    }
    if (s.kind == Stmt::Var &&
        (t.kind == Ty::Pkt || t.kind == Ty::Header || t.kind == Ty::Port))
      error(s.loc) << "'" << s.name << "' of type '" << t.str()
                   << "' cannot be a 'var'; bind it with 'let'";
    if (t.kind == Ty::Void)
      error(s.init->loc) << "expression has no value";
    if (s.kind == Stmt::Let && t.kind == Ty::Array)
      error(s.loc) << "arrays are bound with 'var'";
    declare(s.name,
            {s.kind == Stmt::Let ? Symbol::Let : Symbol::Var, t, s.loc});
    return;
  }
  case Stmt::Assign: {
    checkAssignTarget(*s.target);
    Ty t = s.target->ty;
    if (t.kind == Ty::Error)
      return;
    if (s.op == "<<=" || s.op == ">>=") {
      if (!t.isInt())
        error(s.loc) << "shift of non-integer '" << t.str() << "'";
      Ty r = checkExpr(*s.init);
      if (r.kind == Ty::IntLit)
        coerce(*s.init, t);
      else if (r.kind != Ty::Int && r.kind != Ty::Error)
        error(s.init->loc) << "shift amount must be an integer";
      return;
    }
    if (s.op != "=" && t.kind != Ty::Int)
      error(s.loc) << "'" << s.op << "' needs an integer, not '" << t.str()
                   << "'";
    if (t.kind == Ty::Array)
      error(s.loc) << "cannot assign a whole " << t.str()
                   << "; assign its elements";
    coerce(*s.init, t);
    return;
  }
  case Stmt::If:
    coerce(*s.cond, Ty::of(Ty::Bool));
    checkBlock(s.body);
    checkBlock(s.elseBody);
    return;
  case Stmt::IfLet: {
    Expr &c = *s.init;
    Builtin which =
        c.kind == Expr::Call ? lookupBuiltin(c.text) : Builtin::None;
    if (which == Builtin::Lookup && c.args.size() == 2) {
      const Ty *t = tableOperand(*c.args[0], "lookup");
      if (t)
        coerce(*c.args[1],
               t->kind == Ty::Lpm ? Ty::integer(32, false) : *t->key);
      c.ty = t ? *t->elem : Ty();
    } else if ((which != Builtin::TryRecv && which != Builtin::Dequeue) ||
               c.args.size() != 1) {
      error(c.loc) << "'if let' needs 'try_recv(port)', 'dequeue(queue)' or "
                      "'lookup(table, key)'";
      return;
    } else if (which == Builtin::Dequeue) {
      c.ty = queueOperand(*c.args[0], "dequeue") ? Ty::of(Ty::Pkt) : Ty();
      if (currentFn)
        error(c.loc) << "'dequeue' is not allowed in a function: packets "
                        "passed to a function are borrowed, not owned";
    } else {
      if (currentControl)
        error(c.loc) << "a read or write handler cannot receive; it runs "
                        "between activations";
      const Ty *elem = expectPort(*c.args[0], /*wantInput=*/true);
      c.ty = elem ? *elem : Ty();
    }
    c.checked = true;
    scopes.emplace_back();
    declare(s.name, {Symbol::Let, c.ty, s.loc});
    checkBlock(s.body);
    scopes.pop_back();
    checkBlock(s.elseBody);
    return;
  }
  case Stmt::For:
  case Stmt::Unroll: {
    Ty t = checkExpr(*s.lo);
    Ty h = checkExpr(*s.hi);
    if (t.kind == Ty::IntLit)
      t = h.kind == Ty::Int ? h : Ty::integer(32, false);
    coerce(*s.lo, t);
    coerce(*s.hi, t);
    if (s.bound)
      coerce(*s.bound, Ty::integer(32, false));
    scopes.emplace_back();
    declare(s.name, {Symbol::Loop, t, s.loc});
    ++loopDepth;
    checkBlock(s.body);
    --loopDepth;
    scopes.pop_back();
    return;
  }
  case Stmt::While:
    coerce(*s.cond, Ty::of(Ty::Bool));
    coerce(*s.bound, Ty::integer(32, false));
    ++loopDepth;
    checkBlock(s.body);
    --loopDepth;
    return;
  case Stmt::Select:
    if (!inHandler)
      error(s.loc) << "'select' is only allowed in a handler";
    for (SelectCase &c : s.cases) {
      const Ty *elem = expectPort(*c.port, /*wantInput=*/true);
      scopes.emplace_back();
      declare(c.var, {Symbol::Let, elem ? *elem : Ty(), c.loc});
      checkBlock(c.body);
      scopes.pop_back();
    }
    return;
  case Stmt::Return:
    if (inMatch)
      error(s.loc) << "'return' is not allowed in a match program; use "
                      "'fail' or 'accept'";
    if (currentControl) {
      if (!currentControl->isWrite && !s.init)
        error(s.loc) << "read handler '" << currentControl->name
                     << "' must return a value";
      else if (!currentControl->isWrite)
        coerce(*s.init, resolve(*currentControl->result, false));
      else if (s.init)
        error(s.init->loc) << "a write handler returns no value";
    } else if (currentFn && currentFn->result) {
      if (!s.init)
        error(s.loc) << "function '" << currentFn->name
                     << "' must return a value";
      else
        coerce(*s.init, resolve(*currentFn->result, false));
    } else if (s.init) {
      checkExpr(*s.init);
      if (currentFn)
        error(s.init->loc) << "function '" << currentFn->name
                           << "' has no result type";
      else
        error(s.init->loc) << "only a function returns a value";
    }
    return;
  case Stmt::Fail:
    if (!inMatch)
      error(s.loc) << "'fail' is only allowed in a match program";
    return;
  case Stmt::Break:
  case Stmt::Continue:
    if (!loopDepth)
      error(s.loc) << "'" << exitKeyword(s.kind) << "' outside of a loop";
    return;
  case Stmt::ExprStmt:
    checkExpr(*s.init);
    return;
  case Stmt::Nested:
    checkBlock(s.body);
    return;
  }
}

const Ty *Sema::expectPort(Expr &e, bool wantInput) {
  Expr *base = &e;
  if (e.kind == Expr::Index) {
    base = e.args[0].get();
    coerce(*e.args[1], Ty::integer(32, false));
  }
  if (base->kind != Expr::Name) {
    error(e.loc) << "expected a port";
    return nullptr;
  }
  const Symbol *s = lookup(base->text);
  if (!s) {
    error(base->loc) << "use of undeclared port '" << base->text << "'";
    return nullptr;
  }
  if (s->kind != Symbol::Port) {
    error(base->loc) << "'" << base->text << "' is not a port";
    return nullptr;
  }
  bool isArray = s->ty.len != 0;
  if (isArray != (e.kind == Expr::Index)) {
    error(e.loc) << (isArray ? "port array '" + base->text + "' needs an index"
                             : "port '" + base->text + "' is not an array");
    return nullptr;
  }
  bool isInput = s->ty.isSigned;
  if (isInput != wantInput) {
    errorWithNote(e.loc,
                  "'" + base->text + "' is an " +
                      (isInput ? "input" : "output") + " port; expected an " +
                      (wantInput ? "input" : "output") + " port",
                  s->loc, "declared here");
    return nullptr;
  }
  e.ty = s->ty;
  return s->ty.elem.get();
}

bool Sema::coerce(Expr &e, const Ty &to) {
  Ty t = e.checked ? e.ty : checkExpr(e, &to);
  if (t.kind == Ty::Error || to.kind == Ty::Error)
    return false;
  if (t.kind == Ty::IntLit && to.kind == Ty::Int) {
    // Fold the literal expression to decide whether it fits.
    bool neg = e.kind == Expr::Unary && e.text == "-";
    uint64_t mag = neg ? e.args[0]->value : e.value;
    bool fits;
    if (neg && e.args[0]->kind != Expr::IntLit && !to.isSigned) {
      error(e.loc) << "negated literal expression does not fit in unsigned '"
                   << to.str() << "'";
      return false;
    }
    if (e.kind == Expr::IntLit || (neg && e.args[0]->kind == Expr::IntLit)) {
      if (neg) // -2^(w-1) is the smallest; for i64 that is -2^63
        fits = to.isSigned && mag <= (1ull << (to.width - 1));
      else if (to.isSigned)
        fits =
            to.width == 64 ? mag <= INT64_MAX : mag < (1ull << (to.width - 1));
      else
        fits = to.width == 64 || mag < (1ull << to.width);
      if (!fits) {
        error(e.loc) << "literal " << (neg ? "-" : "") << mag
                     << " does not fit in '" << to.str() << "'";
        return false;
      }
    }
    // Give nested literal operands the target type too, checking that each
    // fits (`300 + 1` is not a u8). The literal under a unary minus was
    // checked above with its sign.
    for (ExprPtr &a : e.args)
      if (a->ty.kind == Ty::IntLit &&
          !(e.kind == Expr::Binary && (e.text == "<<" || e.text == ">>") &&
            a != e.args[0])) {
        if (neg && a->kind == Expr::IntLit)
          a->ty = to;
        else if (!coerce(*a, to))
          return false;
      }
    e.ty = to;
    return true;
  }
  if (t.kind == Ty::Array && to.kind == Ty::Array && e.kind == Expr::ArrayLit) {
    for (ExprPtr &a : e.args)
      coerce(*a, *to.elem);
    e.ty = to;
    return true;
  }
  if (t.kind == Ty::Array && to.kind == Ty::Array && *t.elem == *to.elem)
    return true;
  if (t != to) {
    error(e.loc) << "expected '" << to.str() << "', found '" << t.str() << "'";
    return false;
  }
  return true;
}

void Sema::checkAssignTarget(Expr &e) {
  Expr *root = &e;
  while (root->kind == Expr::Index || root->kind == Expr::Field)
    root = root->args[0].get();
  Ty t = checkExpr(e);
  if (t.kind == Ty::Error)
    return;
  if (root->kind == Expr::HeaderView && root != &e)
    return; // a field of a view made in place: writes into the packet
  if (root->kind != Expr::Name) {
    error(e.loc) << "cannot assign to this expression";
    e.ty = Ty();
    return;
  }
  const Symbol *s = lookup(root->text);
  if (!s)
    return;
  Ty rootTy = root->ty;
  bool viaPacket = rootTy.kind == Ty::Pkt || rootTy.kind == Ty::Header;
  if (viaPacket && root != &e)
    return; // writes into the packet: header fields, metadata, bytes
  if (s->kind != Symbol::Var && s->kind != Symbol::State) {
    const char *why = s->kind == Symbol::Let     ? "it is declared with 'let'"
                      : s->kind == Symbol::Param ? "it is a parameter"
                      : s->kind == Symbol::Const ? "it is a constant"
                      : s->kind == Symbol::Loop  ? "it is a loop variable"
                                                 : "it is not a variable";
    errorWithNote(e.loc, "cannot assign to '" + root->text + "': " + why,
                  s->loc, "declared here");
    e.ty = Ty();
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static bool isComparison(llvm::StringRef op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" ||
         op == ">=";
}

Ty Sema::checkExpr(Expr &e, const Ty *expected) {
  Ty t;
  switch (e.kind) {
  case Expr::IntLit:
    if (e.text == "overflow")
      error(e.loc) << "integer literal does not fit in 64 bits";
    else
      t = Ty::of(Ty::IntLit);
    break;
  case Expr::BoolLit:
    t = Ty::of(Ty::Bool);
    break;
  case Expr::StrLit:
    t = Ty::of(Ty::Str);
    break;
  case Expr::Name: {
    const Symbol *s = lookup(e.text);
    if (!s) {
      error(e.loc) << "use of undeclared name '" << e.text << "'";
      break;
    }
    if (s->kind == Symbol::Port) {
      error(e.loc) << "port '" << e.text
                   << "' can only be used with recv, send or try_recv";
      break;
    }
    t = s->ty;
    break;
  }
  case Expr::Unary: {
    Ty a = checkExpr(*e.args[0]);
    if (a.kind == Ty::Error)
      break;
    if (e.text == "!") {
      if (a.kind != Ty::Bool)
        error(e.loc) << "'!' needs a bool, found '" << a.str() << "'";
      else
        t = a;
    } else if (!a.isInt()) {
      error(e.loc) << "'" << e.text << "' needs an integer, found '" << a.str()
                   << "'";
    } else {
      t = a;
    }
    break;
  }
  case Expr::Binary: {
    llvm::StringRef op = e.text;
    Ty a = checkExpr(*e.args[0]);
    Ty b = checkExpr(*e.args[1]);
    if (a.kind == Ty::Error || b.kind == Ty::Error)
      break;
    if (op == "&&" || op == "||") {
      if (coerce(*e.args[0], Ty::of(Ty::Bool)) &&
          coerce(*e.args[1], Ty::of(Ty::Bool)))
        t = Ty::of(Ty::Bool);
      break;
    }
    if ((op == "==" || op == "!=") &&
        (a.kind == Ty::Bool || a.kind == Ty::Prefix)) {
      if (coerce(*e.args[1], a))
        t = Ty::of(Ty::Bool);
      break;
    }
    if (!a.isInt() || !b.isInt()) {
      error(e.loc) << "operator '" << op << "' needs integers, found '"
                   << a.str() << "' and '" << b.str() << "'";
      break;
    }
    if (op == "<<" || op == ">>") {
      if (b.kind == Ty::IntLit)
        coerce(*e.args[1], a.kind == Ty::Int ? a : Ty::integer(32, false));
      t = a;
      break;
    }
    Ty common = a;
    if (a.kind == Ty::IntLit && b.kind == Ty::IntLit)
      common = isComparison(op) ? Ty::integer(64, false) : Ty::of(Ty::IntLit);
    else if (a.kind == Ty::IntLit)
      common = b;
    if (common.kind == Ty::Int) {
      if (!coerce(*e.args[0], common) || !coerce(*e.args[1], common))
        break;
    }
    t = isComparison(op) ? Ty::of(Ty::Bool) : common;
    break;
  }
  case Expr::Cond: {
    coerce(*e.args[0], Ty::of(Ty::Bool));
    Ty a = checkExpr(*e.args[1], expected);
    Ty b = checkExpr(*e.args[2], expected);
    if (a.kind == Ty::Error || b.kind == Ty::Error)
      break;
    if (a.kind == Ty::IntLit && b.kind == Ty::IntLit) {
      if (!expected || expected->kind != Ty::Int) {
        // Two literal arms: the whole is a literal expression that takes
        // the type of its context (`x == (c ? 1 : 2)` with x a u16).
        t = Ty::of(Ty::IntLit);
        break;
      }
      a = *expected;
    } else if (a.kind == Ty::IntLit) {
      a = b;
    }
    if (coerce(*e.args[1], a) && coerce(*e.args[2], a))
      t = a;
    break;
  }
  case Expr::Call:
    t = checkCall(e);
    break;
  case Expr::Recv: {
    if (e.args.size() != 1) {
      error(e.loc) << "'recv' takes one port";
      break;
    }
    if (inTimer)
      error(e.loc) << "a timer cannot wait to receive; it runs while the "
                      "handler waits (poll with 'if let ... try_recv')";
    if (currentControl)
      error(e.loc) << "a read or write handler cannot receive; it runs "
                      "between activations";
    if (const Ty *elem = expectPort(*e.args[0], /*wantInput=*/true))
      t = *elem;
    break;
  }
  case Expr::Field:
    t = checkField(e);
    break;
  case Expr::Index: {
    Ty base = checkExpr(*e.args[0]);
    if (base.kind == Ty::Error)
      break;
    if (base.kind == Ty::Pkt) {
      if (coerce(*e.args[1], Ty::integer(32, false)))
        t = Ty::integer(8, false);
    } else if (base.kind == Ty::Array) {
      Ty idx = checkExpr(*e.args[1]);
      if (idx.kind == Ty::IntLit)
        coerce(*e.args[1], Ty::integer(32, false));
      else if (idx.kind != Ty::Int && idx.kind != Ty::Error)
        error(e.args[1]->loc) << "array index must be an integer";
      t = *base.elem;
    } else {
      error(e.loc) << "cannot index a value of type '" << base.str() << "'";
    }
    break;
  }
  case Expr::Cast: {
    Ty a = checkExpr(*e.args[0]);
    Ty to = resolve(*e.type);
    if (a.kind == Ty::Error || to.kind == Ty::Error)
      break;
    bool okFrom = a.isInt() || a.kind == Ty::Bool;
    bool okTo = to.kind == Ty::Int || to.kind == Ty::Bool;
    if (!okFrom || !okTo) {
      error(e.loc) << "cannot cast '" << a.str() << "' to '" << to.str() << "'";
      break;
    }
    if (a.kind == Ty::IntLit)
      coerce(*e.args[0], to.kind == Ty::Int ? to : Ty::integer(64, false));
    t = to;
    break;
  }
  case Expr::HeaderView: {
    const RecordDecl *r = records.lookup(e.text);
    if (!r || !r->isHeader) {
      error(e.loc) << "'" << e.text << "' is not a header type";
      break;
    }
    if (e.args.size() != 2) {
      error(e.loc) << "'header<" << e.text
                   << ">' takes a packet and a byte offset";
      break;
    }
    if (!coerce(*e.args[0], Ty::of(Ty::Pkt)) ||
        !coerce(*e.args[1], Ty::integer(32, false)))
      break;
    t = Ty::of(Ty::Header);
    t.record = r;
    break;
  }
  case Expr::ArrayLit: {
    Ty elem = expected && expected->kind == Ty::Array ? *expected->elem : Ty();
    if (elem.kind == Ty::Error) {
      Ty first = checkExpr(*e.args[0]);
      elem = first.kind == Ty::IntLit ? Ty::integer(32, false) : first;
    }
    bool ok = true;
    for (ExprPtr &a : e.args)
      ok &= coerce(*a, elem);
    if (!ok)
      break;
    t = Ty::of(Ty::Array);
    t.elem = std::make_shared<Ty>(elem);
    t.len = e.args.size();
    break;
  }
  }
  e.ty = t;
  e.checked = true;
  return t;
}

Ty Sema::checkField(Expr &e) {
  Ty base = checkExpr(*e.args[0]);
  switch (base.kind) {
  case Ty::Error:
    return Ty();
  case Ty::Pkt: {
    unsigned w;
    if (isPacketMetaField(e.text, w))
      return Ty::integer(w, false);
    if (const Annotation *a = lookupAnnotation(e.text))
      return a->ty;
    error(e.loc) << "packets have no field '" << e.text
                 << "'; metadata fields are in_port, paint, out_port, anno, "
                    "ts, and the declared annotations";
    return Ty();
  }
  case Ty::Prefix:
    if (e.text == "addr" || e.text == "mask")
      return Ty::integer(32, false);
    if (e.text == "len")
      return Ty::integer(8, false);
    error(e.loc) << "a prefix has the fields addr, len and mask, not '"
                 << e.text << "'";
    return Ty();
  case Ty::Header:
  case Ty::Record:
    for (const Field &f : base.record->fields)
      if (f.name == e.text)
        return resolve(*f.type, false);
    errorWithNote(e.loc,
                  "'" + base.record->name + "' has no field '" + e.text + "'",
                  base.record->loc, "declared here");
    return Ty();
  default:
    error(e.loc) << "value of type '" << base.str() << "' has no fields";
    return Ty();
  }
}

Ty Sema::checkCall(Expr &e) {
  Builtin b = lookupBuiltin(e.text);
  auto arity = [&](size_t n) {
    if (e.args.size() == n)
      return true;
    error(e.loc) << "'" << e.text << "' takes " << n << " argument"
                 << (n == 1 ? "" : "s") << ", " << e.args.size() << " given";
    return false;
  };
  Ty pkt = Ty::of(Ty::Pkt), u32 = Ty::integer(32, false);
  if (currentFn) {
    switch (b) {
    case Builtin::Send:
    case Builtin::Drop:
    case Builtin::Clone:
    case Builtin::NewPkt:
    case Builtin::DeviceRecv:
    case Builtin::DeviceSend:
    case Builtin::Enqueue:
      error(e.loc) << "'" << e.text
                   << "' is not allowed in a function: packets passed to a "
                      "function are borrowed, not owned";
      return Ty();
    default:
      break;
    }
  }
  switch (b) {
  case Builtin::None:
    if (const FnDecl *f = fns.lookup(e.text))
      return checkFnCall(e, *f);
    if (const RecordDecl *r = records.lookup(e.text); r && !r->isHeader)
      return checkConstructor(e, *r);
    error(e.loc) << "unknown function '" << e.text << "'";
    return Ty();
  case Builtin::TryRecv:
    error(e.loc) << "'try_recv' is used as 'if let v = try_recv(port) {...}'";
    return Ty();
  case Builtin::Accept:
    if (!inMatch)
      error(e.loc) << "'accept' is only allowed in a match program";
    else if (arity(2)) {
      coerce(*e.args[0], Ty::integer(64, false));
      coerce(*e.args[1], Ty::integer(64, false));
    }
    return Ty::of(Ty::Void);
  case Builtin::Send: {
    if (!arity(2))
      return Ty();
    const Ty *elem = expectPort(*e.args[0], /*wantInput=*/false);
    if (!elem)
      return Ty();
    coerce(*e.args[1], *elem);
    if (!inHandler && !inTimer)
      error(e.loc) << "'send' is only allowed in a handler or a timer";
    return Ty::of(Ty::Void);
  }
  case Builtin::Drop:
    if (arity(1))
      coerce(*e.args[0], pkt);
    return Ty::of(Ty::Void);
  case Builtin::Clone:
    if (arity(1))
      coerce(*e.args[0], pkt);
    return pkt;
  case Builtin::NewPkt:
    if (arity(1))
      coerce(*e.args[0], u32);
    return pkt;
  case Builtin::Len: {
    if (!arity(1))
      return Ty();
    Ty a = checkExpr(*e.args[0]);
    if (a.kind == Ty::Pkt || a.kind == Ty::Error)
      return u32;
    if ((a.kind == Ty::Array || a.kind == Ty::Queue || a.kind == Ty::Lpm ||
         a.kind == Ty::Hash) &&
        e.args[0]->kind == Expr::Name)
      return u32;
    if (a.kind == Ty::Str) // a constant: the number of the string's bytes
      return u32;
    error(e.loc) << "'len' needs a packet, an array or a string, found '"
                 << a.str() << "'";
    return Ty();
  }
  case Builtin::DeviceRecv:
  case Builtin::DeviceSend: {
    // A device number, or a pcap file's name (a constant string: Click's
    // FromDump/ToDump); an output file may give its link type ("ETHER",
    // "IP") and snap length.
    bool send = b == Builtin::DeviceSend;
    size_t n = e.args.size();
    if (n < (send ? 2 : 1) || n > (send ? 4 : 1)) {
      error(e.loc) << "'" << e.text << "' takes "
                   << (send ? "a device or file, a packet, and optionally a "
                              "link type and a snap length"
                            : "a device or file");
      return Ty();
    }
    Ty dev = checkExpr(*e.args[0]);
    if (dev.kind != Ty::Str)
      coerce(*e.args[0], u32);
    if (send) {
      coerce(*e.args[1], pkt);
      if (n > 2 && checkExpr(*e.args[2]).kind != Ty::Str)
        error(e.args[2]->loc) << "a link type is a string: \"ETHER\" or "
                                 "\"IP\"";
      if (n > 2 && dev.kind != Ty::Str)
        error(e.args[2]->loc) << "only a file names its link type";
      if (n > 3)
        coerce(*e.args[3], u32);
    }
    return send ? Ty::of(Ty::Void) : pkt;
  }
  case Builtin::Enqueue:
    if (!arity(2))
      return Ty();
    queueOperand(*e.args[0], "enqueue");
    coerce(*e.args[1], pkt);
    return Ty::of(Ty::Bool);
  case Builtin::Dequeue:
    error(e.loc) << "'dequeue' is used as 'if let p = dequeue(queue) {...}'";
    return Ty();
  case Builtin::Lookup:
    error(e.loc) << "'lookup' is used as 'if let v = lookup(table, key) "
                    "{...}'";
    return Ty();
  case Builtin::Insert:
  case Builtin::Remove: {
    bool ins = b == Builtin::Insert;
    if (!arity(ins ? 3 : 2))
      return Ty();
    const Ty *t = tableOperand(*e.args[0], e.text);
    if (!t)
      return Ty();
    coerce(*e.args[1], t->kind == Ty::Lpm ? Ty::of(Ty::Prefix) : *t->key);
    if (ins)
      coerce(*e.args[2], *t->elem);
    return Ty::of(Ty::Bool);
  }
  case Builtin::Clear:
    if (arity(1))
      tableOperand(*e.args[0], "clear");
    return Ty::of(Ty::Void);
  case Builtin::Finish:
    arity(0);
    if (!inHandler)
      error(e.loc) << "'finish' is only allowed in a handler";
    return Ty::of(Ty::Void);
  case Builtin::Load:
    if (arity(2))
      checkLoad(e);
    return Ty::of(Ty::Void);
  case Builtin::RecvAny: {
    if (!arity(1))
      return Ty();
    if (!inHandler)
      error(e.loc) << "'recv_any' is only allowed in a handler";
    Expr &arg = *e.args[0];
    const Symbol *sym = arg.kind == Expr::Name ? lookup(arg.text) : nullptr;
    Ty a = sym && sym->kind == Symbol::Port ? sym->ty : Ty();
    if (sym)
      sym->used = true;
    arg.ty = a;
    arg.checked = true;
    if (a.kind != Ty::Port || !a.len || !a.isSigned || !a.elem) {
      error(e.args[0]->loc) << "'recv_any' needs an input port array";
      return Ty();
    }
    return *a.elem;
  }
  case Builtin::Csum:
  case Builtin::CsumPartial:
    if (!arity(b == Builtin::Csum ? 3 : 4))
      return Ty();
    coerce(*e.args[0], pkt);
    for (size_t k = 1; k < e.args.size(); ++k)
      coerce(*e.args[k], u32);
    return b == Builtin::Csum ? Ty::integer(16, false) : u32;
  case Builtin::CsumFold:
    if (arity(1))
      coerce(*e.args[0], u32);
    return Ty::integer(16, false);
  case Builtin::CsumUpdate:
    if (arity(3))
      for (ExprPtr &a : e.args)
        coerce(*a, Ty::integer(16, false));
    return Ty::integer(16, false);
  case Builtin::Crc32:
  case Builtin::Crc32c:
    if (e.args.size() == 3) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
      coerce(*e.args[2], u32);
      return u32;
    }
    if (e.args.size() != 1) {
      error(e.loc) << "'" << e.text
                   << "' takes a packet, an offset and a length, or one "
                      "integer";
      return Ty();
    }
    [[fallthrough]];
  case Builtin::Clz:
  case Builtin::Ctz:
  case Builtin::Popcount:
  case Builtin::Bswap: {
    if (!arity(1))
      return Ty();
    Ty a = checkExpr(*e.args[0]);
    if (a.kind == Ty::Error)
      return Ty();
    if (a.kind != Ty::Int) {
      error(e.args[0]->loc)
          << "'" << e.text << "' needs an integer of a declared type, found '"
          << a.str() << "'";
      return Ty();
    }
    bool bytes =
        b == Builtin::Bswap || b == Builtin::Crc32 || b == Builtin::Crc32c;
    if (bytes && a.width % 8 != 0) {
      error(e.args[0]->loc)
          << "'" << e.text << "' needs whole bytes, found '" << a.str() << "'";
      return Ty();
    }
    return b == Builtin::Bswap ? a : u32;
  }
  case Builtin::Hash:
    if (e.args.empty() || e.args.size() > 8) {
      error(e.loc) << "'hash' takes 1 to 8 integers, " << e.args.size()
                   << " given";
      return Ty();
    }
    for (ExprPtr &a : e.args) {
      Ty t = checkExpr(*a);
      if (t.kind == Ty::IntLit)
        coerce(*a, Ty::integer(64, false));
      else if (t.kind != Ty::Int && t.kind != Ty::Bool && t.kind != Ty::Error)
        error(a->loc) << "'hash' needs integers, found '" << t.str() << "'";
    }
    return u32;
  case Builtin::Now:
    arity(0);
    return Ty::integer(64, false);
  case Builtin::Print: {
    // print(p [, label [, max]]) prints a packet as Click's Print does;
    // print(label, value) an integer or bool.
    auto isStr = [&](Expr &a) {
      Ty t = checkExpr(a);
      if (t.kind != Ty::Str && t.kind != Ty::Error)
        error(a.loc) << "a label is a string literal or a 'str' parameter";
      return t.kind == Ty::Str;
    };
    if (e.args.empty() || e.args.size() > 3) {
      error(e.loc) << "'print' takes a packet (a label and a length are "
                      "optional) or a label and a value";
      return Ty();
    }
    if (e.args[0]->kind == Expr::StrLit ||
        checkExpr(*e.args[0]).kind == Ty::Str) {
      if (!arity(2))
        return Ty();
      isStr(*e.args[0]);
      Ty v = checkExpr(*e.args[1]);
      if (v.kind == Ty::IntLit)
        coerce(*e.args[1], Ty::integer(64, false));
      else if (v.kind != Ty::Int && v.kind != Ty::Bool && v.kind != Ty::Error)
        error(e.args[1]->loc)
            << "'print' prints integers and bools, not '" << v.str() << "'";
      return Ty::of(Ty::Void);
    }
    coerce(*e.args[0], pkt);
    if (e.args.size() > 1)
      isStr(*e.args[1]);
    if (e.args.size() > 2)
      coerce(*e.args[2], Ty::integer(32, true));
    return Ty::of(Ty::Void);
  }
  case Builtin::PktWrite:
    if (arity(3)) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
      if (checkExpr(*e.args[2]).kind != Ty::Str)
        error(e.args[2]->loc)
            << "'pkt_write' writes a string literal or a 'str' parameter";
    }
    return Ty::of(Ty::Void);
  case Builtin::PktCopy:
    if (arity(5)) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
      coerce(*e.args[2], pkt);
      coerce(*e.args[3], u32);
      coerce(*e.args[4], u32);
    }
    return Ty::of(Ty::Void);
  case Builtin::Push:
  case Builtin::Pull:
  case Builtin::Put:
  case Builtin::Take:
  case Builtin::Strip:
  case Builtin::Unstrip:
    if (arity(2)) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
    }
    return Ty::of(Ty::Bool);
  case Builtin::Truncate:
    if (arity(2)) {
      coerce(*e.args[0], pkt);
      coerce(*e.args[1], u32);
    }
    return Ty::of(Ty::Void);
  case Builtin::Min:
  case Builtin::Max: {
    if (!arity(2))
      return Ty();
    Ty a = checkExpr(*e.args[0]);
    Ty c = checkExpr(*e.args[1]);
    if (a.kind == Ty::Error || c.kind == Ty::Error)
      return Ty();
    // max(3, 4) is a literal expression: its context gives the type.
    if (a.kind == Ty::IntLit && c.kind == Ty::IntLit)
      return Ty::of(Ty::IntLit);
    if (a.kind == Ty::IntLit)
      a = c;
    if (a.kind != Ty::Int) {
      error(e.loc) << "'" << e.text << "' needs integers";
      return Ty();
    }
    if (coerce(*e.args[0], a) && coerce(*e.args[1], a))
      return a;
    return Ty();
  }
  case Builtin::Prefix: {
    if (!arity(2) || !coerce(*e.args[0], u32) ||
        !coerce(*e.args[1], Ty::integer(8, false)))
      return Ty();
    const Expr &len = *e.args[1];
    if (len.kind == Expr::IntLit && len.value > 32) {
      error(len.loc) << "prefix length " << len.value << " is not 0..32";
      return Ty();
    }
    return Ty::of(Ty::Prefix);
  }
  case Builtin::Classify:
  case Builtin::IPClassify: {
    if (!arity(2))
      return Ty();
    coerce(*e.args[0], pkt);
    Ty pats = checkExpr(*e.args[1]);
    if (pats.kind != Ty::Error &&
        (pats.kind != Ty::Array || pats.elem->kind != Ty::Str ||
         e.args[1]->kind != Expr::Name))
      error(e.args[1]->loc)
          << "'" << e.text << "' needs a parameter holding pattern strings";
    return u32;
  }
  }
  return Ty();
}

/// `load(path, handler)`: `path` a string, `handler` the name of a write
/// handler of this element that takes arguments (a line of the file gives
/// them), in init, before packets flow.
void Sema::checkLoad(Expr &e) {
  Expr &path = *e.args[0], &name = *e.args[1];
  // The handler is named, not evaluated.
  name.checked = true;
  name.ty = Ty::of(Ty::Void);
  if (!inInit || !currentElement) {
    error(e.loc) << "'load' is only allowed in init";
    return;
  }
  Ty pt = checkExpr(path);
  if (pt.kind != Ty::Str && pt.kind != Ty::Error)
    error(path.loc) << "'load' reads a file named by a string literal or a "
                       "'str' parameter, not '"
                    << pt.str() << "'";
  if (name.kind != Expr::Name) {
    error(name.loc) << "'load' needs the name of a write handler of element '"
                    << currentElement->name << "'";
    return;
  }
  const ControlDecl *read = nullptr;
  for (const ControlDecl &c : currentElement->controls) {
    if (c.name != name.text)
      continue;
    if (!c.isWrite) {
      read = &c;
      continue;
    }
    if (c.params.empty())
      errorWithNote(name.loc,
                    "write handler '" + c.name +
                        "' takes no arguments, so no line of a file can "
                        "call it",
                    c.loc, "declared here");
    return;
  }
  if (read)
    errorWithNote(name.loc,
                  "'" + name.text +
                      "' is a read handler; 'load' calls a "
                      "write handler once per line",
                  read->loc, "declared here");
  else
    error(name.loc) << "element '" << currentElement->name
                    << "' has no write handler '" << name.text << "'";
}

/// `S(a, b, ...)` builds a struct value, one argument per field in order.
/// With fewer arguments, fields that have defaults are left out, first
/// ones first, until the counts match (Click's `ADDR/MASK [GW] PORT`). The
/// call is rewritten to name every field, defaults copied in.
Ty Sema::checkConstructor(Expr &e, const RecordDecl &r) {
  size_t n = r.fields.size(), given = e.args.size();
  size_t defaulted = llvm::count_if(
      r.fields, [](const Field &f) { return f.defaultValue != nullptr; });
  if (given > n || given + defaulted < n) {
    auto d = error(e.loc);
    d << "'" << r.name << "' has " << n << " field" << (n == 1 ? "" : "s");
    if (defaulted)
      d << " (" << defaulted << " with a default)";
    d << ", " << given << " given";
    return Ty();
  }
  size_t skip = n - given;
  std::vector<ExprPtr> args;
  auto next = e.args.begin();
  bool ok = true;
  for (const Field &f : r.fields) {
    Ty ft = resolve(*f.type, false);
    if (skip && f.defaultValue) {
      --skip;
      args.push_back(cloneExpr(*f.defaultValue));
    } else {
      args.push_back(std::move(*next++));
    }
    ok &= coerce(*args.back(), ft);
  }
  e.args = std::move(args);
  if (!ok)
    return Ty();
  Ty t = Ty::of(Ty::Record);
  t.record = &r;
  return t;
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

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

/// The list manager streams 8-word headers and items.
static constexpr unsigned kMatchWords = 8;

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

void Sema::checkFn(FnDecl &f) {
  if (fns.lookup(f.name) != &f)
    return; // a redefinition, already reported
  currentFn = &f;
  scopes.clear();
  scopes.emplace_back();
  for (ConstDecl &c : module.consts)
    scopes.back()[c.name] = {Symbol::Const, resolve(*c.type, false), c.loc};
  scopes.emplace_back();
  for (Param &p : f.params) {
    Ty t = resolve(*p.type);
    if (t.kind != Ty::Error && t.kind != Ty::Int && t.kind != Ty::Bool &&
        t.kind != Ty::Pkt)
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

bool Sema::queueOperand(Expr &e, llvm::StringRef what) {
  Ty t = checkExpr(e);
  if (t.kind == Ty::Error)
    return false;
  if (t.kind != Ty::Queue || e.kind != Expr::Name) {
    error(e.loc) << "'" << what << "' needs a queue of the element's state, "
                 << "found '" << t.str() << "'";
    return false;
  }
  return true;
}

/// The type of a table of the element's state named by `e`, or null.
const Ty *Sema::tableOperand(Expr &e, llvm::StringRef what) {
  checkExpr(e);
  if (e.ty.kind == Ty::Error)
    return nullptr;
  if ((e.ty.kind != Ty::Lpm && e.ty.kind != Ty::Hash) || e.kind != Expr::Name) {
    error(e.loc) << "'" << what << "' needs a table of the element's state "
                 << "(lpm<V, N> or hash<K, V, N>), found '" << e.ty.str()
                 << "'";
    return nullptr;
  }
  return &e.ty;
}

Ty Sema::checkFnCall(Expr &e, const FnDecl &f) {
  if (e.args.size() != f.params.size()) {
    error(e.loc) << "'" << f.name << "' takes " << f.params.size()
                 << " argument" << (f.params.size() == 1 ? "" : "s") << ", "
                 << e.args.size() << " given";
    return Ty();
  }
  for (size_t k = 0; k < e.args.size(); ++k) {
    Ty t = resolve(*f.params[k].type, false);
    if (inMatch && t.kind == Ty::Pkt) {
      errorWithNote(e.args[k]->loc,
                    "'" + f.name + "' takes a packet; a match program has none",
                    f.params[k].loc, "parameter '" + f.params[k].name + "'");
      checkExpr(*e.args[k]);
      continue;
    }
    coerce(*e.args[k], t);
  }
  if (currentFn)
    calls[currentFn->name].push_back({f.name, e.loc});
  return f.result ? resolve(*f.result, false) : Ty::of(Ty::Void);
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

void Sema::checkMatch(MatchDecl &m) {
  scopes.clear();
  scopes.emplace_back();
  for (ConstDecl &c : module.consts)
    scopes.back()[c.name] = {Symbol::Const, resolve(*c.type, false), c.loc};
  scopes.emplace_back();
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
                    s.init->text == "accept";
    if (isAccept && i + 1 != m.body.size())
      error(s.loc) << "'accept' must be the last statement of a match "
                      "program";
    checkStmt(s);
  }
  if (m.body.empty() || m.body.back()->kind != Stmt::ExprStmt ||
      m.body.back()->init->kind != Expr::Call ||
      m.body.back()->init->text != "accept")
    error(m.loc) << "match program '" << m.name
                 << "' must end with 'accept(offset, length)'";
  popScope();
  inMatch = false;
}

int Sema::namedDevice(bool output, const std::string &path,
                      const std::string &define, uint32_t linkType,
                      uint32_t snaplen, const Loc &loc) {
  int index = 0;
  for (const NamedDevice &d : namedDevices) {
    if (d.output != output)
      continue;
    if (d.path == path && d.define == define) {
      if (output && (d.linkType != linkType || d.snaplen != snaplen)) {
        errorWithNote(loc,
                      "'" + path +
                          "' is written with two link types or "
                          "snap lengths",
                      d.loc, "first written here");
        return -1;
      }
      return index;
    }
    ++index;
  }
  namedDevices.push_back({output, path, define, linkType, snaplen, loc});
  return index;
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

bool Sema::run() {
  checkDuplicates();
  checkAnnotations();
  for (const RecordDecl &r : module.records)
    checkRecord(r);
  scopes.clear();
  scopes.emplace_back();
  for (ConstDecl &c : module.consts) {
    Ty t = resolve(*c.type);
    auto plain = [](const Ty &x) {
      return x.kind == Ty::Int || x.kind == Ty::Bool || x.kind == Ty::Prefix ||
             x.kind == Ty::Record;
    };
    bool scalarArray = t.kind == Ty::Array && t.elem && plain(*t.elem);
    if (!plain(t) && t.kind != Ty::Error && !scalarArray)
      error(c.type->loc) << "constant '" << c.name
                         << "' must be an integer, a bool, a prefix, a "
                            "struct or an array of them";
    else if (scalarArray && c.value->kind != Expr::ArrayLit)
      error(c.value->loc)
          << "an array constant is an array literal [a, b, ...]";
    else if (scalarArray)
      for (ExprPtr &x : c.value->args)
        coerce(*x, *t.elem);
    else if (t.kind != Ty::Error)
      coerce(*c.value, t);
    scopes.back()[c.name] = {Symbol::Const, t, c.loc};
  }
  for (ElementDecl &e : module.elements)
    checkElement(e);
  for (const GraphDecl &g : module.graphs)
    checkGraphDecl(g);
  for (MatchDecl &m : module.matches)
    checkMatch(m);
  for (FnDecl &f : module.fns)
    checkFn(f);
  checkRecursion();
  // Ownership needs the types; after type errors it would only add noise.
  if (errors == 0)
    checkPacketOwnership(*this, module);
  return errors == 0;
}
