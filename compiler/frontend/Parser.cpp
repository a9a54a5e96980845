//===- Parser.cpp - ANTLR parse tree to AST -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Built with -fexceptions: ANTLR reports through exceptions. Every exception
// is caught in parseNPL and turned into a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Parser.h"
#include "compiler/frontend/Builtins.h"
#include "compiler/frontend/Limits.h"

#include "NPLLexer.h"
#include "NPLParser.h"
#include "antlr4-runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

using namespace npcc;
using namespace npcc::ast;
using P = nplparse::NPLParser;

namespace {

/// Thrown after the first syntax error has been reported; caught in parseNPL.
struct StopParsing {};

class DiagnosticListener : public antlr4::BaseErrorListener {
public:
  DiagnosticListener(mlir::MLIRContext *ctx, const std::string &file)
      : ctx(ctx), file(file) {}

  void syntaxError(antlr4::Recognizer *, antlr4::Token *offending, size_t line,
                   size_t col, const std::string &msg,
                   std::exception_ptr) override {
    std::string text = msg;
    if (offending && offending->getType() == antlr4::Token::EOF)
      text = "unexpected end of file";
    mlir::emitError(mlir::FileLineColLoc::get(ctx, file, line, col + 1))
        << "syntax error: " << text;
    throw StopParsing();
  }

private:
  mlir::MLIRContext *ctx;
  const std::string &file;
};

static const char *const kTooDeep =
    "nested too deeply: expressions and blocks nest at most 256 levels";
static_assert(limits::kMaxNestingDepth == 256, "update kTooDeep");

/// The generated parser with a bound on its recursion: ANTLR parses nested
/// expressions and blocks by recursive descent, so ten thousand `(` or `-`
/// would overflow the stack. Each nesting level costs at most three rule
/// invocations (expr -> primary -> expr, stmt -> block -> stmt), so the
/// bound below is reached only by input the AST builder would refuse.
class GuardedParser : public P {
public:
  GuardedParser(antlr4::TokenStream *tokens, mlir::MLIRContext *ctx,
                const std::string &file)
      : P(tokens), ctx(ctx), fileName(file) {}

  void enterRule(antlr4::ParserRuleContext *localctx, size_t state,
                 size_t ruleIndex) override {
    check(localctx);
    P::enterRule(localctx, state, ruleIndex);
  }
  void enterRecursionRule(antlr4::ParserRuleContext *localctx, size_t state,
                          size_t ruleIndex, int precedence) override {
    check(localctx);
    P::enterRecursionRule(localctx, state, ruleIndex, precedence);
  }

private:
  void check(antlr4::ParserRuleContext *localctx) {
    // The parent chain is the chain of rule invocations (left-recursive
    // operator chains hang below it, not above).
    size_t depth = 0;
    for (antlr4::tree::ParseTree *c = localctx; c; c = c->parent)
      if (++depth > kMaxRuleDepth) {
        antlr4::Token *t = getCurrentToken();
        mlir::emitError(mlir::FileLineColLoc::get(
            ctx, fileName, t->getLine(), t->getCharPositionInLine() + 1))
            << kTooDeep;
        throw StopParsing();
      }
  }
  static constexpr size_t kMaxRuleDepth = 3 * limits::kMaxNestingDepth + 16;
  mlir::MLIRContext *ctx;
  const std::string &fileName;
};

/// Walks the parse tree and builds AST nodes.
class Builder {
public:
  Builder(mlir::MLIRContext *ctx, const std::string *file)
      : ctx(ctx), file(file) {}

  Loc loc(antlr4::ParserRuleContext *c) {
    return {file, (unsigned)c->getStart()->getLine(),
            (unsigned)c->getStart()->getCharPositionInLine() + 1};
  }
  Loc loc(antlr4::tree::TerminalNode *t) {
    return {file, (unsigned)t->getSymbol()->getLine(),
            (unsigned)t->getSymbol()->getCharPositionInLine() + 1};
  }
  Loc loc(antlr4::Token *t) {
    return {file, (unsigned)t->getLine(),
            (unsigned)t->getCharPositionInLine() + 1};
  }

  bool failed = false; // an error was reported; the parse went on

  void file_(P::FileContext *c, Module &m) {
    for (auto *d : c->topDecl()) {
      if (auto *i = d->importDecl())
        m.imports.push_back(importDecl(i));
      else if (auto *a = d->elementAlias())
        m.aliases.push_back(elementAlias(a, m.elements.size()));
      else if (auto *k = d->constDecl())
        m.consts.push_back(
            {loc(k), k->ID()->getText(), type(k->type()), expr(k->expr())});
      else if (auto *s = d->structDecl())
        m.records.push_back(
            record(loc(s), false, s->ID()->getText(), s->fieldDecl()));
      else if (auto *h = d->headerDecl())
        m.records.push_back(
            record(loc(h), true, h->ID()->getText(), h->fieldDecl()));
      else if (auto *a = d->annotationDecl())
        m.annotations.push_back({loc(a), a->ID()->getText(), type(a->type())});
      else if (auto *e = d->elementDecl())
        m.elements.push_back(element(e));
      else if (auto *g = d->graphDecl())
        m.graphs.push_back(graph(g));
      else if (auto *mt = d->matchDecl()) {
        MatchDecl md;
        md.loc = loc(mt);
        md.name = mt->ID()->getText();
        if (mt->paramList())
          md.params = params(mt->paramList());
        md.body = block(mt->block());
        m.matches.push_back(std::move(md));
      } else if (auto *f = d->fnDecl()) {
        FnDecl fd;
        fd.loc = loc(f);
        fd.name = f->ID()->getText();
        if (f->paramList())
          fd.params = params(f->paramList());
        if (f->type())
          fd.result = type(f->type());
        fd.body = block(f->block());
        fd.bodyEnd = loc(f->block()->getStop());
        m.fns.push_back(std::move(fd));
      }
    }
  }

private:
  mlir::MLIRContext *ctx;
  const std::string *file;
  unsigned depth = 0;

  /// Counts one level of nesting for the lifetime of the object; reports
  /// and stops when the limit is passed, so that every recursive pass over
  /// the AST (Sema, elaboration, MLIRGen, the AST printer, destructors) is
  /// bounded by limits::kMaxNestingDepth.
  struct Nest {
    Builder &b;
    Nest(Builder &b, const Loc &l) : b(b) {
      if (++b.depth > limits::kMaxNestingDepth) {
        mlir::emitError(
            mlir::FileLineColLoc::get(b.ctx, *l.file, l.line, l.col))
            << kTooDeep;
        throw StopParsing();
      }
    }
    ~Nest() { --b.depth; }
  };

  static std::string unquote(const std::string &s) {
    std::string out;
    for (size_t i = 1; i + 1 < s.size(); ++i) {
      char c = s[i];
      if (c == '\\' && i + 2 < s.size()) {
        char n = s[++i];
        c = n == 'n' ? '\n' : n == 't' ? '\t' : n == '0' ? '\0' : n;
      }
      out.push_back(c);
    }
    return out;
  }

  ImportDecl importDecl(P::ImportDeclContext *c) {
    ImportDecl d{loc(c), unquote(c->STRING()->getText())};
    if (auto *names = c->importNames()) {
      d.selective = true;
      for (auto *id : names->ID())
        d.names.push_back({loc(id), id->getText()});
    }
    return d;
  }

  ElementAlias elementAlias(P::ElementAliasContext *c, size_t position) {
    ElementAlias a;
    a.loc = loc(c);
    a.position = position;
    a.name = c->name->getText();
    a.target = c->target->getText();
    a.targetLoc = loc(c->target);
    if (c->withoutKw) {
      if (c->withoutKw->getText() != "without") {
        Loc l = loc(c->withoutKw);
        mlir::emitError(mlir::FileLineColLoc::get(ctx, *l.file, l.line, l.col))
            << "syntax error: expected 'without' or ';' after element alias '"
            << a.name << "', found '" << c->withoutKw->getText() << "'";
        throw StopParsing();
      }
      for (antlr4::Token *h : c->handlers)
        a.without.push_back({loc(h), h->getText()});
    }
    return a;
  }

  RecordDecl record(Loc l, bool isHeader, std::string name,
                    const std::vector<P::FieldDeclContext *> &fs) {
    RecordDecl r;
    r.loc = l;
    r.isHeader = isHeader;
    r.name = std::move(name);
    for (auto *f : fs) {
      r.fields.push_back({loc(f), f->ID()->getText(), type(f->type())});
      if (f->expr())
        r.fields.back().defaultValue = expr(f->expr());
    }
    return r;
  }

  std::vector<Param> params(P::ParamListContext *c) {
    std::vector<Param> ps;
    for (auto *p : c->param()) {
      Param q;
      q.loc = loc(p);
      q.name = p->ID()->getText();
      q.type = type(p->type());
      q.variadic = p->ellipsis != nullptr;
      if (p->expr())
        q.defaultValue = expr(p->expr());
      ps.push_back(std::move(q));
    }
    return ps;
  }

  PortDecl port(P::PortDeclContext *c) {
    PortDecl p;
    p.loc = loc(c);
    p.isInput = c->dir->getText() == "in";
    p.name = c->ID()->getText();
    if (c->expr())
      p.arraySize = expr(c->expr());
    p.type = type(c->type());
    return p;
  }

  StateVar stateVar(P::StateVarContext *v, bool shared) {
    StateVar s{loc(v), v->name->getText(),
               v->type() ? type(v->type()) : queueType(v->queueType()),
               v->expr() ? expr(v->expr()) : nullptr, shared};
    if (v->mergeKw) {
      if (v->mergeKw->getText() != "merge") {
        Loc l = loc(v->mergeKw);
        mlir::emitError(mlir::FileLineColLoc::get(ctx, *l.file, l.line, l.col))
            << "syntax error: expected 'merge' or ';' after state '" << s.name
            << "', found '" << v->mergeKw->getText() << "'";
        throw StopParsing();
      }
      s.merge = v->mergeOp->getText();
      s.mergeLoc = loc(v->mergeOp);
    }
    return s;
  }

  /// What an element and a graph both begin with: a name and parameters.
  template <typename Context> void nameAndParams(ComponentDecl &d, Context *c) {
    d.loc = loc(c);
    d.name = c->ID()->getText();
    if (c->paramList())
      d.params = params(c->paramList());
  }

  ElementDecl element(P::ElementDeclContext *c) {
    ElementDecl e;
    nameAndParams(e, c);
    for (auto *item : c->elementItem()) {
      if (auto *p = item->portDecl()) {
        e.ports.push_back(port(p));
      } else if (auto *s = item->stateBlock()) {
        for (auto *v : s->stateVar())
          e.state.push_back(stateVar(v, false));
      } else if (auto *s = item->sharedBlock()) {
        for (auto *v : s->stateVar())
          e.state.push_back(stateVar(v, true));
      } else if (auto *i = item->initBlock()) {
        once(e.hasInit, "init", loc(i), e.initLoc);
        e.hasInit = true;
        e.initLoc = loc(i);
        e.init = block(i->block());
        e.initEnd = loc(i->block()->getStop());
      } else if (auto *h = item->handlerBlock()) {
        once(e.hasHandler, "handler", loc(h), e.handlerLoc);
        e.hasHandler = true;
        e.handlerLoc = loc(h);
        e.handler = block(h->block());
        e.handlerEnd = loc(h->block()->getStop());
      } else if (auto *s = item->signalBlock()) {
        once(e.hasSignal, "signal", loc(s), e.signalLoc);
        e.hasSignal = true;
        e.signalLoc = loc(s);
        e.signalArg = s->ID()->getText();
        e.signalType = type(s->type());
        e.signal = block(s->block());
        e.signalEnd = loc(s->block()->getStop());
      } else if (auto *t = item->timerBlock()) {
        once(e.hasTimer, "timer", loc(t), e.timerLoc);
        e.hasTimer = true;
        e.timerLoc = loc(t);
        e.timerPeriod = expr(t->expr());
        e.timer = block(t->block());
        e.timerEnd = loc(t->block()->getStop());
      } else if (auto *r = item->readHandler()) {
        ControlDecl c;
        c.loc = loc(r);
        c.name = r->ID()->getText();
        c.result = type(r->type());
        c.body = block(r->block());
        c.bodyEnd = loc(r->block()->getStop());
        e.controls.push_back(std::move(c));
      } else if (auto *w = item->writeHandler()) {
        ControlDecl c;
        c.loc = loc(w);
        c.isWrite = true;
        c.name = w->ID()->getText();
        if (w->paramList())
          c.params = params(w->paramList());
        c.body = block(w->block());
        c.bodyEnd = loc(w->block()->getStop());
        e.controls.push_back(std::move(c));
      }
    }
    return e;
  }

  Endpoint endpoint(P::EndpointContext *c) {
    Endpoint ep;
    ep.loc = loc(c);
    auto ids = c->ID();
    ep.inst = ids[0]->getText();
    if (ids.size() > 1)
      ep.port = ids[1]->getText();
    if (c->expr())
      ep.index = expr(c->expr());
    return ep;
  }

  GraphDecl graph(P::GraphDeclContext *c) {
    GraphDecl g;
    nameAndParams(g, c);
    for (auto *item : c->graphItem()) {
      if (auto *p = item->portDecl()) {
        g.ports.push_back(port(p));
      } else if (auto *i = item->instanceDecl()) {
        InstanceDecl d;
        d.loc = loc(i);
        d.name = i->ID(0)->getText();
        d.callee = i->ID(1)->getText();
        d.calleeLoc = loc(i->ID(1));
        if (i->argList())
          for (auto *a : i->argList()->expr())
            d.args.push_back(expr(a));
        if (auto *pl = i->placement()) {
          d.placement = pl->ID()->getText();
          d.placementLoc = loc(pl);
        }
        g.instances.push_back(std::move(d));
      } else if (auto *cn = item->connection()) {
        Connection k;
        k.loc = loc(cn);
        for (auto *ep : cn->endpoint())
          k.chain.push_back(endpoint(ep));
        for (auto *op : cn->connOp())
          k.lossy.push_back(op->getText() == "=>");
        if (auto *as = cn->channelAttrs())
          for (auto *a : as->channelAttr()) {
            k.attrs.emplace_back(a->ID()->getText(), expr(a->expr()));
            k.attrLocs.push_back(loc(a));
          }
        g.connections.push_back(std::move(k));
      }
    }
    return g;
  }

  TypeRefPtr type(P::TypeContext *c) {
    auto t = std::make_unique<TypeRef>();
    t->loc = loc(c);
    if (auto *n = dynamic_cast<P::NamedTypeContext *>(c)) {
      t->name = n->ID()->getText();
    } else if (auto *a = dynamic_cast<P::ArrayTypeContext *>(c)) {
      t->kind = TypeRef::Array;
      t->elem = type(a->type());
      t->size = expr(a->expr());
    } else if (auto *u = dynamic_cast<P::UnsizedArrayTypeContext *>(c)) {
      t->kind = TypeRef::Array; // `[T]`: a function's array parameter
      t->elem = type(u->type());
    }
    return t;
  }

  TypeRefPtr queueType(P::QueueTypeContext *c) {
    auto t = std::make_unique<TypeRef>();
    t->loc = loc(c);
    t->kind = TypeRef::Queue;
    t->name = c->ID()->getText();
    auto types = c->type();
    if (types.size() == 2)
      t->key = type(types[0]);
    t->elem = type(types.back());
    t->size = expr(c->expr());
    return t;
  }

  Block block(P::BlockContext *c) {
    Nest n(*this, loc(c));
    Block b;
    for (auto *s : c->stmt())
      b.push_back(stmt(s));
    return b;
  }

  StmtPtr make(Stmt::Kind k, antlr4::ParserRuleContext *c) {
    auto s = std::make_unique<Stmt>();
    s->kind = k;
    s->loc = loc(c);
    return s;
  }

  StmtPtr ifStmt(P::IfStmtContext *c) {
    Nest n(*this, loc(c));
    auto s = make(Stmt::If, c);
    s->cond = expr(c->expr());
    s->body = block(c->block(0));
    s->bodyEnd = loc(c->block(0)->getStop());
    if (auto *elif = c->ifStmt()) {
      s->elseBody.push_back(ifStmt(elif));
      s->elseEnd = loc(elif->getStop());
    } else if (c->block().size() > 1) {
      s->elseBody = block(c->block(1));
      s->elseEnd = loc(c->block(1)->getStop());
    }
    return s;
  }

  StmtPtr stmt(P::StmtContext *c) {
    if (auto *s = dynamic_cast<P::LetStmtContext *>(c)) {
      auto r = make(Stmt::Let, c);
      r->name = s->ID()->getText();
      if (s->type())
        r->type = type(s->type());
      r->init = expr(s->expr());
      return r;
    }
    if (auto *s = dynamic_cast<P::VarStmtContext *>(c)) {
      auto r = make(Stmt::Var, c);
      r->name = s->ID()->getText();
      r->type = type(s->type());
      if (s->expr())
        r->init = expr(s->expr());
      return r;
    }
    if (auto *s = dynamic_cast<P::VarInferStmtContext *>(c)) {
      auto r = make(Stmt::Var, c);
      r->name = s->ID()->getText();
      r->init = expr(s->expr());
      return r;
    }
    if (auto *s = dynamic_cast<P::IfLetStmtContext *>(c)) {
      auto r = make(Stmt::IfLet, c);
      r->name = s->ID()->getText();
      r->init = expr(s->expr());
      r->body = block(s->block(0));
      r->bodyEnd = loc(s->block(0)->getStop());
      if (s->block().size() > 1) {
        r->elseBody = block(s->block(1));
        r->elseEnd = loc(s->block(1)->getStop());
      } else if (auto *elif = s->ifStmt()) {
        r->elseBody.push_back(ifStmt(elif));
        r->elseEnd = loc(elif->getStop());
      }
      return r;
    }
    if (auto *s = dynamic_cast<P::IfStmtAltContext *>(c))
      return ifStmt(s->ifStmt());
    if (auto *s = dynamic_cast<P::ForStmtContext *>(c)) {
      auto r = make(Stmt::For, c);
      r->name = s->ID()->getText();
      r->lo = expr(s->expr(0));
      r->hi = expr(s->expr(1));
      r->body = block(s->block());
      r->bodyEnd = loc(s->block()->getStop());
      return r;
    }
    if (auto *s = dynamic_cast<P::UnrollStmtContext *>(c)) {
      auto r = make(Stmt::Unroll, c);
      r->name = s->ID()->getText();
      r->lo = expr(s->expr(0));
      r->hi = expr(s->expr(1));
      r->bound = expr(s->expr(2));
      r->body = block(s->block());
      r->bodyEnd = loc(s->block()->getStop());
      return r;
    }
    if (auto *s = dynamic_cast<P::WhileStmtContext *>(c)) {
      auto r = make(Stmt::While, c);
      r->cond = expr(s->expr(0));
      r->bound = expr(s->expr(1));
      r->body = block(s->block());
      r->bodyEnd = loc(s->block()->getStop());
      return r;
    }
    if (auto *s = dynamic_cast<P::SelectStmtContext *>(c)) {
      auto r = make(Stmt::Select, c);
      for (auto *sc : s->selectCase()) {
        SelectCase k;
        k.loc = loc(sc);
        k.var = sc->ID()->getText();
        auto *pr = sc->portRef();
        auto name = std::make_unique<Expr>();
        name->kind = Expr::Name;
        name->loc = loc(pr);
        name->text = pr->ID()->getText();
        if (pr->expr()) {
          auto idx = std::make_unique<Expr>();
          idx->kind = Expr::Index;
          idx->loc = loc(pr);
          idx->args.push_back(std::move(name));
          idx->args.push_back(expr(pr->expr()));
          k.port = std::move(idx);
        } else {
          k.port = std::move(name);
        }
        k.body = block(sc->block());
        k.bodyEnd = loc(sc->block()->getStop());
        r->cases.push_back(std::move(k));
      }
      return r;
    }
    if (auto *r = dynamic_cast<P::ReturnStmtContext *>(c)) {
      auto s = make(Stmt::Return, c);
      if (r->expr())
        s->init = expr(r->expr());
      return s;
    }
    if (dynamic_cast<P::BreakStmtContext *>(c))
      return make(Stmt::Break, c);
    if (dynamic_cast<P::ContinueStmtContext *>(c))
      return make(Stmt::Continue, c);
    if (dynamic_cast<P::FailStmtContext *>(c))
      return make(Stmt::Fail, c);
    if (auto *s = dynamic_cast<P::AssignStmtContext *>(c)) {
      auto r = make(Stmt::Assign, c);
      r->op = s->op->getText();
      r->target = expr(s->expr(0));
      r->init = expr(s->expr(1));
      return r;
    }
    if (auto *s = dynamic_cast<P::ExprStmtContext *>(c)) {
      auto r = make(Stmt::ExprStmt, c);
      r->init = expr(s->expr());
      return r;
    }
    auto *s = dynamic_cast<P::BlockStmtContext *>(c);
    auto r = make(Stmt::Nested, c);
    r->body = block(s->block());
    r->bodyEnd = loc(s->block()->getStop());
    return r;
  }

  ExprPtr make(Expr::Kind k, Loc l) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->loc = l;
    return e;
  }

  ExprPtr intLit(antlr4::Token *tok, Loc l) {
    auto e = make(Expr::IntLit, l);
    std::string s;
    for (char ch : tok->getText())
      if (ch != '_')
        s.push_back(ch);
    unsigned base = 10;
    size_t start = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'b')) {
      base = s[1] == 'x' ? 16 : 2;
      start = 2;
    }
    uint64_t v = 0;
    bool overflow = false;
    for (size_t i = start; i < s.size(); ++i) {
      unsigned d = std::isdigit((unsigned char)s[i])
                       ? s[i] - '0'
                       : std::tolower((unsigned char)s[i]) - 'a' + 10;
      if (v > (UINT64_MAX - d) / base)
        overflow = true;
      v = v * base + d;
    }
    e->value = v;
    // Sema reports the overflow with the literal's location.
    if (overflow)
      e->text = "overflow";
    return e;
  }

  /// An IPv4 (`a.b.c.d`) or MAC (`xx:xx:xx:xx:xx:xx`) address as the
  /// integer literal of its bytes in network order.
  ExprPtr addressLit(const std::string &text, char sep, unsigned base, Loc l) {
    auto e = make(Expr::IntLit, l);
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(text).split(parts, sep);
    uint64_t v = 0;
    for (llvm::StringRef part : parts) {
      unsigned byte = 0;
      if (part.getAsInteger(base, byte) || byte > 255) {
        mlir::emitError(mlir::FileLineColLoc::get(ctx, *l.file, l.line, l.col))
            << "'" << part << "' in address '" << text << "' is not a byte";
        throw StopParsing();
      }
      v = (v << 8) | byte;
    }
    e->value = v;
    return e;
  }

  /// `a.b.c.d/n` as the constructor call `prefix(a.b.c.d, n)`, the form
  /// the Click front end produces too.
  ExprPtr prefixLit(const std::string &text, Loc l) {
    size_t slash = text.find('/');
    auto e = make(Expr::Call, l);
    e->text = builtinInfo(Builtin::Prefix).name;
    e->args.push_back(addressLit(text.substr(0, slash), '.', 10, l));
    Loc lenLoc = l;
    lenLoc.col += slash + 1;
    auto len = make(Expr::IntLit, lenLoc);
    if (llvm::StringRef(text).drop_front(slash + 1).getAsInteger(10,
                                                                 len->value))
      len->text = "overflow";
    e->args.push_back(std::move(len));
    return e;
  }

  /// An element has at most one block of each kind.
  void once(bool seen, llvm::StringRef what, Loc at, Loc first) {
    if (!seen)
      return;
    auto d = mlir::emitError(
                 mlir::FileLineColLoc::get(ctx, *at.file, at.line, at.col))
             << "an element has one '" << what << "'";
    d.attachNote(
        mlir::FileLineColLoc::get(ctx, *first.file, first.line, first.col))
        << "the first one is here";
    failed = true;
  }

  /// A duration literal (`100ms`) as an integer literal of nanoseconds.
  ExprPtr durationLit(const std::string &text, Loc l) {
    size_t digits = text.find_first_not_of("0123456789_");
    llvm::StringRef unit = llvm::StringRef(text).drop_front(digits);
    uint64_t scale = unit == "s"    ? 1000000000
                     : unit == "ms" ? 1000000
                     : unit == "us" ? 1000
                                    : 1;
    auto e = make(Expr::IntLit, l);
    uint64_t v = 0;
    bool overflow = false;
    for (char ch : llvm::StringRef(text).take_front(digits)) {
      if (ch == '_')
        continue;
      unsigned d = ch - '0';
      if (v > (UINT64_MAX - d) / 10)
        overflow = true;
      v = v * 10 + d;
    }
    if (v > UINT64_MAX / scale)
      overflow = true;
    e->value = v * scale;
    if (overflow)
      e->text = "overflow";
    return e;
  }

  ExprPtr primary(P::PrimaryContext *c) {
    Loc l = loc(c);
    if (auto *p = dynamic_cast<P::IntLitContext *>(c))
      return intLit(p->INT()->getSymbol(), l);
    if (auto *p = dynamic_cast<P::DurationLitContext *>(c))
      return durationLit(p->getText(), l);
    if (auto *p = dynamic_cast<P::Ipv4LitContext *>(c))
      return addressLit(p->getText(), '.', 10, l);
    if (auto *p = dynamic_cast<P::PrefixLitContext *>(c))
      return prefixLit(p->getText(), l);
    if (auto *p = dynamic_cast<P::MacLitContext *>(c))
      return addressLit(p->getText(), ':', 16, l);
    if (auto *p = dynamic_cast<P::BoolLitContext *>(c)) {
      auto e = make(Expr::BoolLit, l);
      e->value = p->getText() == "true";
      return e;
    }
    if (auto *p = dynamic_cast<P::StrLitContext *>(c)) {
      auto e = make(Expr::StrLit, l);
      e->text = unquote(p->STRING()->getText());
      if (e->text.size() > limits::kMaxStringBytes) {
        mlir::emitError(mlir::FileLineColLoc::get(ctx, *l.file, l.line, l.col))
            << "string literal of " << e->text.size() << " bytes; at most "
            << limits::kMaxStringBytes << " are allowed";
        throw StopParsing();
      }
      return e;
    }
    if (auto *p = dynamic_cast<P::HeaderViewContext *>(c)) {
      auto e = make(Expr::HeaderView, l);
      e->text = p->ID()->getText();
      for (auto *a : p->argList()->expr())
        e->args.push_back(expr(a));
      return e;
    }
    if (auto *p = dynamic_cast<P::CallExprContext *>(c)) {
      auto e = make(Expr::Call, l);
      e->text = p->ID()->getText();
      if (p->argList())
        for (auto *a : p->argList()->expr())
          e->args.push_back(expr(a));
      return e;
    }
    if (auto *p = dynamic_cast<P::RecvExprContext *>(c)) {
      auto e = make(Expr::Recv, l);
      for (auto *a : p->argList()->expr())
        e->args.push_back(expr(a));
      return e;
    }
    if (auto *p = dynamic_cast<P::NameExprContext *>(c)) {
      auto e = make(Expr::Name, l);
      e->text = p->ID()->getText();
      return e;
    }
    if (auto *p = dynamic_cast<P::ParenExprContext *>(c))
      return expr(p->expr());
    auto *p = dynamic_cast<P::ArrayLitContext *>(c);
    auto e = make(Expr::ArrayLit, l);
    for (auto *a : p->expr())
      e->args.push_back(expr(a));
    return e;
  }

  ExprPtr expr(P::ExprContext *c) {
    Loc l = loc(c);
    Nest n(*this, l);
    if (auto *p = dynamic_cast<P::PrimaryExprContext *>(c))
      return primary(p->primary());
    if (auto *p = dynamic_cast<P::FieldExprContext *>(c)) {
      auto e = make(Expr::Field, loc(p->ID()));
      e->text = p->ID()->getText();
      e->args.push_back(expr(p->expr()));
      return e;
    }
    if (auto *p = dynamic_cast<P::IndexExprContext *>(c)) {
      auto e = make(Expr::Index, l);
      e->args.push_back(expr(p->expr(0)));
      e->args.push_back(expr(p->expr(1)));
      return e;
    }
    if (auto *p = dynamic_cast<P::UnaryExprContext *>(c)) {
      auto e = make(Expr::Unary, l);
      e->text = p->op->getText();
      e->args.push_back(expr(p->expr()));
      return e;
    }
    if (auto *p = dynamic_cast<P::CastExprContext *>(c)) {
      auto e = make(Expr::Cast, l);
      e->args.push_back(expr(p->expr()));
      e->type = type(p->type());
      return e;
    }
    if (auto *p = dynamic_cast<P::BinaryExprContext *>(c)) {
      // The operator's position is the useful one for diagnostics.
      auto e = make(Expr::Binary, loc(p->op));
      e->text = p->op->getText();
      e->args.push_back(expr(p->expr(0)));
      e->args.push_back(expr(p->expr(1)));
      return e;
    }
    auto *p = dynamic_cast<P::CondExprContext *>(c);
    auto e = make(Expr::Cond, l);
    for (auto *a : p->expr())
      e->args.push_back(expr(a));
    return e;
  }
};

} // namespace

bool npcc::parseNPL(mlir::MLIRContext *ctx, const std::string *file,
                    llvm::StringRef text, ast::Module &out) {
  auto fail = [&](const std::string &what) {
    mlir::emitError(mlir::FileLineColLoc::get(ctx, *file, 1, 1)) << what;
    return false;
  };
  try {
    antlr4::ANTLRInputStream input(text.data(), text.size());
    nplparse::NPLLexer lexer(&input);
    DiagnosticListener listener(ctx, *file);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
    antlr4::CommonTokenStream tokens(&lexer);
    GuardedParser parser(&tokens, ctx, *file);
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
    P::FileContext *tree = parser.file();
    Builder builder(ctx, file);
    builder.file_(tree, out);
    return !builder.failed;
  } catch (StopParsing &) {
    return false;
  } catch (std::exception &e) {
    return fail(std::string("cannot parse: ") + e.what());
  } catch (...) {
    return fail("cannot parse: internal parser failure");
  }
}
