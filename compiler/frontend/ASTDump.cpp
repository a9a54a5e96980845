//===- ASTDump.cpp - textual AST for `npcc --target=ast` ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/AST.h"

using namespace npcc::ast;

namespace {
struct Dumper {
  std::string &out;
  unsigned depth = 0;

  void line(const std::string &s, const Loc &l) {
    out.append(depth * 2, ' ');
    out += s;
    out += " @" + std::to_string(l.line) + ":" + std::to_string(l.col) + "\n";
  }
  std::string type(const TypeRef *t) {
    if (!t)
      return "_";
    if (t->kind == TypeRef::Array)
      return "[" + type(t->elem.get()) +
             (t->size ? "; " + expr(t->size.get()) : std::string()) + "]";
    if (t->kind == TypeRef::Queue)
      return t->name + "<" + (t->key ? type(t->key.get()) + ", " : "") +
             type(t->elem.get()) + ", " + expr(t->size.get()) + ">";
    return t->name;
  }
  std::string expr(const Expr *e) {
    if (!e)
      return "_";
    auto args = [&](size_t from) {
      std::string s;
      for (size_t i = from; i < e->args.size(); ++i)
        s += (i > from ? ", " : "") + expr(e->args[i].get());
      return s;
    };
    switch (e->kind) {
    case Expr::IntLit:
      return std::to_string(e->value);
    case Expr::BoolLit:
      return e->value ? "true" : "false";
    case Expr::StrLit:
      return "\"" + e->text + "\"" +
             (e->define.empty() ? "" : " (define $" + e->define + ")");
    case Expr::Name:
      return e->text;
    case Expr::Unary:
      return "(" + e->text + expr(e->args[0].get()) + ")";
    case Expr::Binary:
      return "(" + expr(e->args[0].get()) + " " + e->text + " " +
             expr(e->args[1].get()) + ")";
    case Expr::Cond:
      return "(" + expr(e->args[0].get()) + " ? " + expr(e->args[1].get()) +
             " : " + expr(e->args[2].get()) + ")";
    case Expr::Call:
      return e->text + "(" + args(0) + ")";
    case Expr::Recv:
      return "recv(" + args(0) + ")";
    case Expr::Field:
      return expr(e->args[0].get()) + "." + e->text;
    case Expr::Index:
      return expr(e->args[0].get()) + "[" + expr(e->args[1].get()) + "]";
    case Expr::Cast:
      return "(" + expr(e->args[0].get()) + " as " + type(e->type.get()) + ")";
    case Expr::HeaderView:
      return "header<" + e->text + ">(" + args(0) + ")";
    case Expr::ArrayLit:
      return "[" + args(0) + "]";
    }
    return "?";
  }
  void block(const Block &b) {
    ++depth;
    for (const StmtPtr &s : b)
      stmt(*s);
    --depth;
  }
  void stmt(const Stmt &s) {
    switch (s.kind) {
    case Stmt::Let:
    case Stmt::Var:
      line(std::string(s.kind == Stmt::Let ? "Let " : "Var ") + s.name + ": " +
               type(s.type.get()) + " = " + expr(s.init.get()),
           s.loc);
      return;
    case Stmt::Assign:
      line("Assign " + expr(s.target.get()) + " " + s.op + " " +
               expr(s.init.get()),
           s.loc);
      return;
    case Stmt::If:
      line("If " + expr(s.cond.get()), s.loc);
      block(s.body);
      if (!s.elseBody.empty()) {
        line("Else", s.loc);
        block(s.elseBody);
      }
      return;
    case Stmt::IfLet:
      line("IfLet " + s.name + " = " + expr(s.init.get()), s.loc);
      block(s.body);
      if (!s.elseBody.empty()) {
        line("Else", s.loc);
        block(s.elseBody);
      }
      return;
    case Stmt::For:
      line("For " + s.name + " in " + expr(s.lo.get()) + ".." +
               expr(s.hi.get()),
           s.loc);
      block(s.body);
      return;
    case Stmt::Unroll:
      line("Unroll " + s.name + " in " + expr(s.lo.get()) + ".." +
               expr(s.hi.get()) + " bound " + expr(s.bound.get()),
           s.loc);
      block(s.body);
      return;
    case Stmt::While:
      line("While " + expr(s.cond.get()) + " bound " + expr(s.bound.get()),
           s.loc);
      block(s.body);
      return;
    case Stmt::Select:
      line("Select", s.loc);
      ++depth;
      for (const SelectCase &c : s.cases) {
        line("Case " + c.var + " = recv(" + expr(c.port.get()) + ")", c.loc);
        block(c.body);
      }
      --depth;
      return;
    case Stmt::Return:
      line(s.init ? "Return " + expr(s.init.get()) : "Return", s.loc);
      return;
    case Stmt::Break:
      line("Break", s.loc);
      return;
    case Stmt::Continue:
      line("Continue", s.loc);
      return;
    case Stmt::Fail:
      line("Fail", s.loc);
      return;
    case Stmt::ExprStmt:
      line("Expr " + expr(s.init.get()), s.loc);
      return;
    case Stmt::Nested:
      line("Block", s.loc);
      block(s.body);
      return;
    }
  }
  std::string params(const std::vector<Param> &ps) {
    std::string s;
    for (size_t i = 0; i < ps.size(); ++i)
      s += (i ? ", " : "") + ps[i].name + ": " + type(ps[i].type.get()) +
           (ps[i].variadic ? "..." : "") +
           (ps[i].defaultValue ? " = " + expr(ps[i].defaultValue.get()) : "");
    return s;
  }
  void ports(const std::vector<PortDecl> &ps) {
    for (const PortDecl &p : ps)
      line(std::string("Port ") + (p.isInput ? "in " : "out ") + p.name +
               (p.arraySize ? "[" + expr(p.arraySize.get()) + "]" : "") + ": " +
               type(p.type.get()),
           p.loc);
  }
  void module(const Module &m) {
    for (const ImportDecl &i : m.imports)
      line("Import \"" + i.path + "\"", i.loc);
    for (const ConstDecl &c : m.consts)
      line("Const " + c.name + ": " + type(c.type.get()) + " = " +
               expr(c.value.get()),
           c.loc);
    for (const AnnotationDecl &a : m.annotations)
      line("Annotation " + a.name + ": " + type(a.type.get()), a.loc);
    for (const RecordDecl &r : m.records) {
      line(std::string(r.isHeader ? "Header " : "Struct ") + r.name, r.loc);
      ++depth;
      for (const Field &f : r.fields)
        line("Field " + f.name + ": " + type(f.type.get()) +
                 (f.defaultValue ? " = " + expr(f.defaultValue.get()) : ""),
             f.loc);
      --depth;
    }
    for (const ElementDecl &e : m.elements) {
      line("Element " + e.name + "(" + params(e.params) + ")", e.loc);
      ++depth;
      ports(e.ports);
      for (const StateVar &v : e.state)
        line(std::string(v.shared ? "Shared " : "State ") + v.name + ": " +
                 type(v.type.get()) +
                 (v.init ? " = " + expr(v.init.get()) : "") +
                 (v.merge.empty() ? "" : " merge " + v.merge),
             v.loc);
      if (e.hasInit) {
        line("Init", e.initLoc);
        block(e.init);
      }
      if (e.hasHandler) {
        line("Handler", e.handlerLoc);
        block(e.handler);
      }
      if (e.hasSignal) {
        line("Signal " + e.signalArg + ": " + type(e.signalType.get()),
             e.signalLoc);
        block(e.signal);
      }
      if (e.hasTimer) {
        line("Timer every " + expr(e.timerPeriod.get()), e.timerLoc);
        block(e.timer);
      }
      for (const ControlDecl &c : e.controls) {
        line(c.isWrite ? "Write " + c.name + "(" + params(c.params) + ")"
                       : "Read " + c.name + " -> " + type(c.result.get()),
             c.loc);
        block(c.body);
      }
      --depth;
    }
    for (const GraphDecl &g : m.graphs) {
      line("Graph " + g.name + "(" + params(g.params) + ")", g.loc);
      ++depth;
      ports(g.ports);
      for (const InstanceDecl &i : g.instances) {
        std::string args;
        for (size_t k = 0; k < i.args.size(); ++k)
          args += (k ? ", " : "") + expr(i.args[k].get());
        line("Instance " + i.name + " = " + i.callee + "(" + args + ")" +
                 (i.placement.empty() ? "" : " @" + i.placement),
             i.loc);
      }
      for (const Connection &c : g.connections) {
        std::string s = "Connect ";
        for (size_t k = 0; k < c.chain.size(); ++k) {
          const Endpoint &ep = c.chain[k];
          if (k)
            s += c.lossy[k - 1] ? " => " : " -> ";
          s += ep.inst + (ep.port.empty() ? "" : "." + ep.port) +
               (ep.index ? "[" + expr(ep.index.get()) + "]" : "");
        }
        for (auto &[n, v] : c.attrs)
          s += " [" + n + " = " + expr(v.get()) + "]";
        line(s, c.loc);
      }
      --depth;
    }
    for (const FnDecl &f : m.fns) {
      line("Fn " + f.name + "(" + params(f.params) + ")" +
               (f.result ? " -> " + type(f.result.get()) : ""),
           f.loc);
      block(f.body);
    }
    for (const MatchDecl &m : m.matches) {
      line("Match " + m.name + "(" + params(m.params) + ")", m.loc);
      block(m.body);
    }
  }
};
} // namespace

void npcc::ast::dump(const Module &m, std::string &out) {
  Dumper{out}.module(m);
}
