//===- ClickConvert.cpp - Click arguments to NPL arguments ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickConvert.h"
#include "compiler/click/ClickParser.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

#include <deque>

using namespace npcc;
using namespace npcc::click;
using ast::Expr;
using ast::ExprPtr;

void ModuleIndex::build(const ast::Module &m) {
  for (const ast::ElementDecl &e : m.elements)
    elements.try_emplace(e.name, &e);
  for (const ast::GraphDecl &g : m.graphs)
    graphs.try_emplace(g.name, &g);
  for (const ast::RecordDecl &r : m.records)
    records.try_emplace(r.name, &r);
  for (const ast::ConstDecl &c : m.consts)
    consts.try_emplace(c.name, &c);
  for (const ast::FnDecl &f : m.fns)
    fns.try_emplace(f.name, &f);
}

static ExprPtr makeExpr(Expr::Kind kind, const Loc &loc) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->loc = loc;
  return e;
}

static ExprPtr intLit(uint64_t v, bool negative, const Loc &loc) {
  ExprPtr lit = makeExpr(Expr::IntLit, loc);
  lit->value = v;
  if (!negative)
    return lit;
  ExprPtr neg = makeExpr(Expr::Unary, loc);
  neg->text = "-";
  neg->args.push_back(std::move(lit));
  return neg;
}

/// `u8`..`u64`, `i8`..`i64`: width and signedness.
static bool integerType(llvm::StringRef name, unsigned &width, bool &isSigned) {
  if (name.size() < 2 || (name[0] != 'u' && name[0] != 'i'))
    return false;
  isSigned = name[0] == 'i';
  return !name.drop_front().getAsInteger(10, width) && width >= 1 &&
         width <= 64;
}

static bool isIdentifier(llvm::StringRef w) {
  return !w.empty() && (std::isalpha((unsigned char)w[0]) || w[0] == '_') &&
         llvm::all_of(w, [](char c) {
           return std::isalnum((unsigned char)c) || c == '_';
         });
}

ExprPtr ArgConverter::convertInteger(const ast::TypeRef &type,
                                     const Piece &word, bool exact,
                                     const Target &to) {
  unsigned width;
  bool isSigned;
  integerType(type.name, width, isSigned);
  Loc loc = locOf(word);
  std::string w = unquote(word.text);
  uint64_t v;
  bool negative;
  if (parseClickInteger(w, true, v, negative)) {
    if (negative && !isSigned) {
      mlir::emitError(toLoc(ctx, loc))
          << "negative value '" << w << "' for parameter '" << to.param
          << "' of '" << to.className << "' of type '" << type.name << "'";
      return nullptr;
    }
    return intLit(v, negative, loc);
  }
  uint32_t ip;
  if (parseIPv4(w, ip))
    return intLit(ip, false, loc);
  if (parseEthernet(w, v))
    return intLit(v, false, loc);
  // Symbolic values: module constants named Class_param_WORD (or, in a
  // struct argument, Struct_field_WORD).
  std::vector<std::string> prefixes{
      (to.className + "_" + to.param + "_").str()};
  if (!to.record.empty())
    prefixes.push_back((to.record + "_" + to.field + "_").str());
  if (isIdentifier(w))
    for (const std::string &p : prefixes)
      if (index.consts.count(p + w)) {
        ExprPtr name = makeExpr(Expr::Name, loc);
        name->text = p + w;
        return name;
      }
  std::vector<std::string> symbols;
  for (const std::string &p : prefixes)
    for (auto &c : index.consts)
      if (c.getKey().starts_with(p))
        symbols.push_back(c.getKey().drop_front(p.size()).str());
  llvm::sort(symbols);
  auto d = mlir::emitError(toLoc(ctx, loc));
  d << "expected an integer, an IPv4 address or an Ethernet address";
  if (!symbols.empty())
    d << ", or one of " << llvm::join(symbols, ", ");
  d << " for " << (to.field.empty() ? "parameter '" : "field '")
    << (to.field.empty() ? to.param : to.field) << "' of '"
    << (to.field.empty() ? to.className : to.record) << "' (type '" << type.name
    << "'), found '" << w << "'";
  (void)exact;
  return nullptr;
}

ExprPtr ArgConverter::convertStruct(const ast::RecordDecl &record,
                                    const ArgText &arg, const Target &to) {
  std::vector<Piece> words;
  splitWords(arg.piece, words);
  if (!arg.exact)
    for (Piece &w : words)
      w.offset = arg.piece.offset;
  size_t nFields = record.fields.size();
  Loc loc = locOf(arg.piece);
  std::string fieldList;
  for (const ast::Field &f : record.fields)
    fieldList += (fieldList.empty() ? "" : " ") + f.name;
  if (words.size() > nFields) {
    mlir::emitError(toLoc(ctx, locOf(words[nFields])))
        << "too many words for parameter '" << to.param << "' of '"
        << to.className << "': '" << record.name << "' has " << nFields
        << " field" << (nFields == 1 ? "" : "s") << " (" << fieldList << ")";
    return nullptr;
  }
  // Fields with a default are left out, first to last, until the words
  // and the remaining fields are as many.
  size_t missing = nFields - words.size();
  std::vector<bool> omitted(nFields, false);
  for (size_t k = 0; k < nFields && missing; ++k)
    if (record.fields[k].defaultValue) {
      omitted[k] = true;
      --missing;
    }
  if (missing) {
    mlir::emitError(toLoc(ctx, loc))
        << "too few words for parameter '" << to.param << "' of '"
        << to.className << "': '" << record.name << "' needs "
        << nFields - llvm::count(omitted, true) << " of its fields ("
        << fieldList << "), " << words.size() << " given";
    return nullptr;
  }
  ExprPtr call = makeExpr(Expr::Call, loc);
  call->text = record.name;
  bool ok = true;
  size_t w = 0;
  for (size_t k = 0; k < nFields; ++k) {
    const ast::Field &f = record.fields[k];
    if (omitted[k]) {
      call->args.push_back(ast::cloneExpr(*f.defaultValue));
      continue;
    }
    Target ft = to;
    ft.record = record.name;
    ft.field = f.name;
    ArgText word{words[w++], arg.exact, ""};
    ExprPtr v = f.type ? convert(*f.type, word, ft) : nullptr;
    ok &= v != nullptr;
    if (v)
      call->args.push_back(std::move(v));
  }
  return ok ? std::move(call) : nullptr;
}

ExprPtr ArgConverter::convert(const ast::TypeRef &type, const ArgText &arg,
                              const Target &to) {
  Loc loc = locOf(arg.piece);
  auto describe = [&](mlir::InFlightDiagnostic &d) {
    if (to.field.empty())
      d << " for parameter '" << to.param << "' of '" << to.className << "'";
    else
      d << " for field '" << to.field << "' of '" << to.record << "'";
  };
  unsigned width;
  bool isSigned;
  if (type.kind == ast::TypeRef::Named && type.name == "str") {
    ExprPtr s = makeExpr(Expr::StrLit, loc);
    s->text = unquote(arg.piece.text);
    s->define = arg.define;
    return s;
  }
  if (type.kind == ast::TypeRef::Named && type.name == "bool") {
    std::string w = unquote(arg.piece.text);
    bool b;
    if (!parseBool(w, b)) {
      auto d = mlir::emitError(toLoc(ctx, loc));
      d << "expected a boolean (true, false, yes, no, 1 or 0)";
      describe(d);
      d << ", found '" << w << "'";
      return nullptr;
    }
    ExprPtr e = makeExpr(Expr::BoolLit, loc);
    e->value = b;
    return e;
  }
  if (type.kind == ast::TypeRef::Named &&
      integerType(type.name, width, isSigned))
    return convertInteger(type, arg.piece, arg.exact, to);
  if (type.kind == ast::TypeRef::Named && type.name == "prefix") {
    std::string w = unquote(arg.piece.text);
    uint32_t addr;
    unsigned len;
    if (!parsePrefix(w, addr, len)) {
      auto d = mlir::emitError(toLoc(ctx, loc));
      d << "expected an IPv4 prefix (ADDR/LEN, ADDR/MASK or ADDR)";
      describe(d);
      d << ", found '" << w << "'";
      return nullptr;
    }
    ExprPtr call = makeExpr(Expr::Call, loc);
    call->text = builtinInfo(Builtin::Prefix).name;
    call->args.push_back(intLit(addr, false, loc));
    call->args.push_back(intLit(len, false, loc));
    return call;
  }
  if (type.kind == ast::TypeRef::Named) {
    auto r = index.records.find(type.name);
    if (r != index.records.end() && !r->second->isHeader)
      return convertStruct(*r->second, arg, to);
  }
  auto d = mlir::emitError(toLoc(ctx, loc));
  d << "a Click argument cannot express type '" << type.name << "'";
  describe(d);
  return nullptr;
}

bool ArgConverter::bind(llvm::StringRef className,
                        const std::vector<ast::Param> &params,
                        const std::vector<ArgText> &args, const Loc &instLoc,
                        std::vector<ExprPtr> &out) {
  bool variadic = !params.empty() && params.back().variadic;
  size_t nFixed = params.size() - (variadic ? 1 : 0);
  std::vector<const ArgText *> slots(nFixed, nullptr);
  std::vector<ArgText> keywordValues;
  keywordValues.reserve(args.size());
  std::vector<const ArgText *> positional, rest;
  std::deque<ArgText> listWords; // a variadic parameter's keyword words
  std::optional<Loc> listByKeyword;
  std::vector<bool> byKeyword(nFixed, false);
  bool ok = true;
  auto paramList = [&] {
    std::string s;
    for (const ast::Param &p : params)
      s += (s.empty() ? "" : ", ") + llvm::StringRef(p.name).upper();
    return s.empty() ? std::string("none") : s;
  };
  for (const ArgText &a : args) {
    Piece value;
    std::optional<std::string> kw = keywordOf(a.piece, value);
    if (!kw) {
      positional.push_back(&a);
      continue;
    }
    std::string name = llvm::StringRef(*kw).lower();
    auto p = llvm::find_if(params,
                           [&](const ast::Param &q) { return q.name == name; });
    Loc kwLoc = locOf(a.piece);
    if (p == params.end()) {
      mlir::emitError(toLoc(ctx, kwLoc))
          << "unknown keyword '" << *kw << "' for '" << className
          << "'; its parameters are " << paramList()
          << " (quote an argument that starts with a capitalized word)";
      ok = false;
      continue;
    }
    size_t k = p - params.begin();
    if (p->variadic) {
      // `INTERFACES a/m b/m`: the keyword's words are the list.
      std::vector<Piece> words;
      splitWords(value, words);
      for (Piece &w : words) {
        if (!a.exact)
          w.offset = a.piece.offset;
        listWords.push_back({w, a.exact, ""});
        rest.push_back(&listWords.back());
      }
      listByKeyword = kwLoc;
      continue;
    }
    if (slots[k]) {
      mlir::emitError(toLoc(ctx, kwLoc)) << "parameter '" << *kw << "' of '"
                                         << className << "' is given twice";
      ok = false;
      continue;
    }
    keywordValues.push_back({value, a.exact, ""});
    if (!a.exact)
      keywordValues.back().piece.offset = a.piece.offset;
    slots[k] = &keywordValues.back();
    byKeyword[k] = true;
  }
  for (size_t i = 0; i < positional.size(); ++i) {
    if (i >= nFixed) {
      if (variadic && listByKeyword) {
        mlir::emitError(toLoc(ctx, locOf(positional[i]->piece)))
            << "parameter '" << llvm::StringRef(params.back().name).upper()
            << "' of '" << className << "' is given by position and by keyword";
        ok = false;
        break;
      }
      if (variadic) {
        rest.push_back(positional[i]);
        continue;
      }
      mlir::emitError(toLoc(ctx, locOf(positional[i]->piece)))
          << "too many arguments: '" << className << "' takes "
          << (nFixed == 0 ? "none" : "at most " + std::to_string(nFixed));
      ok = false;
      break;
    }
    if (byKeyword[i]) {
      mlir::emitError(toLoc(ctx, locOf(positional[i]->piece)))
          << "parameter '" << llvm::StringRef(params[i].name).upper()
          << "' of '" << className << "' is given by position and by keyword";
      ok = false;
      continue;
    }
    slots[i] = positional[i];
  }
  // Arguments up to the last one given; defaults fill the gaps.
  size_t last = 0;
  for (size_t i = 0; i < nFixed; ++i)
    if (slots[i])
      last = i + 1;
  if (!rest.empty())
    last = nFixed;
  for (size_t i = 0; i < nFixed; ++i) {
    const ast::Param &p = params[i];
    Target to{className, p.name, "", ""};
    if (slots[i]) {
      ExprPtr v = p.type ? convert(*p.type, *slots[i], to) : nullptr;
      ok &= v != nullptr;
      if (v)
        out.push_back(std::move(v));
      continue;
    }
    if (p.defaultValue) {
      if (i < last)
        out.push_back(ast::cloneExpr(*p.defaultValue));
      continue;
    }
    mlir::emitError(toLoc(ctx, instLoc))
        << "missing argument for parameter '" << llvm::StringRef(p.name).upper()
        << "' of '" << className << "' (parameter " << i + 1 << ")";
    ok = false;
  }
  if (variadic) {
    Target to{className, params.back().name, "", ""};
    for (const ArgText *a : rest) {
      ExprPtr v = convert(*params.back().type, *a, to);
      ok &= v != nullptr;
      if (v)
        out.push_back(std::move(v));
    }
  }
  return ok;
}
