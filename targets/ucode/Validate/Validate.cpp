//===- Validate.cpp - translation validation of the match back end --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Symbolic execution of match-unit words over Z3 bit-vectors, with musim's
// step function (MachineStep.h) instantiated on Z3 terms, checked against a
// Z3 encoding of the `match.program`. The proof is inductive over the list
// manager's protocol; docs/match-unit-compiler.md ("Translation validation")
// gives the argument. Every z3::exception is caught in
// validateMatchProgram.
//
//===----------------------------------------------------------------------===//
#include "targets/ucode/Validate/Validate.h"

#include "runtime/musim/MachineStep.h"
#include "runtime/musim/Run.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <z3++.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

using namespace npcc;
using namespace npcc::validate;
using musim::MicroOp;
using musim::SINK;

namespace {

constexpr unsigned kWords = 8;       // words per header and per item
constexpr unsigned kRegs = 17;       // 16 registers and the sink
constexpr unsigned kMaxSteps = 4096; // words without input before giving up

/// Thrown (inside this file only) when the program cannot be decided.
struct Undecided {
  std::string why;
};

//===----------------------------------------------------------------------===//
// The Z3 domain of MachineStep.h
//===----------------------------------------------------------------------===//

struct Z3Domain {
  z3::context &ctx;
  using W = z3::expr;
  using B = z3::expr;
  W c(uint64_t v) { return ctx.bv_val(v, 64); }
  B b(bool v) { return ctx.bool_val(v); }
  static bool isNum(const W &a, uint64_t &v) {
    return a.is_numeral() && a.is_numeral_u64(v);
  }
  W add(const W &a, const W &b) { return a + b; }
  W sub(const W &a, const W &b) { return a - b; }
  W band(const W &a, const W &b) {
    uint64_t v;
    if (isNum(b, v) && v == ~0ull)
      return a;
    if ((isNum(b, v) && v == 0) || (isNum(a, v) && v == 0))
      return c(0);
    return a & b;
  }
  W bor(const W &a, const W &b) {
    uint64_t v;
    if (isNum(b, v) && v == 0)
      return a;
    if (isNum(a, v) && v == 0)
      return b;
    return a | b;
  }
  W bxor(const W &a, const W &b) {
    uint64_t v;
    if (isNum(b, v) && v == 0)
      return a;
    return a ^ b;
  }
  W bnot(const W &a) { return ~a; }
  W lshr(const W &a, unsigned k) { return k ? z3::lshr(a, int(k)) : a; }
  W shl(const W &a, unsigned k) { return k ? z3::shl(a, int(k)) : a; }
  B isZero(const W &a) { return a == c(0); }
  B ult(const W &a, const W &b) { return z3::ult(a, b); }
  B ule(const W &a, const W &b) { return z3::ule(a, b); }
  B land(const B &a, const B &b) { return andOr(a, b, /*isAnd=*/true); }
  B lor(const B &a, const B &b) { return andOr(a, b, /*isAnd=*/false); }
  /// `a && b` or `a || b`, folded where a side is a constant: the
  /// operator's identity (true for &&) gives the other side, its absorbing
  /// value gives itself.
  B andOr(const B &a, const B &b, bool isAnd) {
    auto is = [](const B &x, bool v) { return v ? x.is_true() : x.is_false(); };
    if (is(a, isAnd))
      return b;
    if (is(b, isAnd))
      return a;
    if (is(a, !isAnd) || is(b, !isAnd))
      return ctx.bool_val(!isAnd);
    return isAnd ? a && b : a || b;
  }
  B lnot(const B &a) {
    if (a.is_true() || a.is_false())
      return ctx.bool_val(a.is_false());
    return !a;
  }
  B guard(const B &p, bool neg) { return neg ? lnot(p) : p; }
  B table4(unsigned f, const B &a, const B &b) {
    auto bit = [&](unsigned k) { return ctx.bool_val(f >> k & 1); };
    return selB(a, selB(b, bit(3), bit(2)), selB(b, bit(1), bit(0)));
  }
  void assignIf(const B &cnd, W &dst, const W &v) { dst = selW(cnd, v, dst); }
  W selW(const B &cnd, const W &a, const W &b) {
    if (cnd.is_true())
      return a;
    if (cnd.is_false())
      return b;
    return z3::ite(cnd, a, b);
  }
  B selB(const B &cnd, const B &a, const B &b) {
    if (cnd.is_true())
      return a;
    if (cnd.is_false())
      return b;
    if (a.is_true() && b.is_false())
      return cnd;
    if (a.is_false() && b.is_true())
      return !cnd;
    if (a.is_true() && b.is_true())
      return a;
    if (a.is_false() && b.is_false())
      return a;
    return z3::ite(cnd, a, b);
  }
};

//===----------------------------------------------------------------------===//
// The match program as Z3 terms
//===----------------------------------------------------------------------===//

struct Spec {
  z3::expr fail, offset, length;
};

Spec evalProgram(z3::context &ctx, match::ProgramOp program,
                 const std::vector<z3::expr> &h,
                 const std::vector<z3::expr> &it) {
  std::unordered_map<void *, z3::expr> vals;
  auto get = [&](mlir::Value v) -> z3::expr {
    auto found = vals.find(v.getAsOpaquePointer());
    if (found == vals.end())
      throw Undecided{"a value of the match program is used before its "
                      "definition"};
    return found->second;
  };
  auto width = [&](mlir::Type t) -> unsigned {
    auto it = mlir::dyn_cast<mlir::IntegerType>(t);
    if (!it || it.getWidth() > 64)
      throw Undecided{"a match-program value is not an integer of at most 64 "
                      "bits"};
    return it.getWidth();
  };
  auto set = [&](mlir::Value v, z3::expr e) {
    vals.insert_or_assign(v.getAsOpaquePointer(), e);
  };
  auto boolOf = [&](const z3::expr &e) { return e == ctx.bv_val(1, 1); };
  auto bvOf = [&](const z3::expr &b) {
    return z3::ite(b, ctx.bv_val(1, 1), ctx.bv_val(0, 1));
  };
  z3::expr fail = ctx.bool_val(false);
  std::optional<Spec> result;
  for (mlir::Operation &op : program.getBody().front()) {
    using namespace mlir::arith;
    auto bin = [&](auto fn) {
      set(op.getResult(0), fn(get(op.getOperand(0)), get(op.getOperand(1))));
    };
    if (auto w = mlir::dyn_cast<match::HeaderWordOp>(&op)) {
      if (w.getIndex() >= kWords)
        throw Undecided{"header word index out of range"};
      set(op.getResult(0), h[w.getIndex()]);
    } else if (auto w = mlir::dyn_cast<match::ItemWordOp>(&op)) {
      if (w.getIndex() >= kWords)
        throw Undecided{"item word index out of range"};
      set(op.getResult(0), it[w.getIndex()]);
    } else if (auto f = mlir::dyn_cast<match::FieldOp>(&op)) {
      unsigned lsb = f.getLsb(), wd = f.getWidth();
      if (wd == 0 || lsb + wd > 64 || width(f.getType()) != wd)
        throw Undecided{"malformed match.field"};
      set(op.getResult(0), get(f.getWord()).extract(lsb + wd - 1, lsb));
    } else if (auto fi = mlir::dyn_cast<match::FailIfOp>(&op)) {
      fail = fail || boolOf(get(fi.getCond()));
    } else if (auto acc = mlir::dyn_cast<match::AcceptOp>(&op)) {
      result = Spec{fail, get(acc.getOffset()), get(acc.getLength())};
    } else if (mlir::isa<match::PopcountOp, match::ClzOp, match::CtzOp,
                         match::BswapOp>(&op)) {
      z3::expr x = get(op.getOperand(0));
      unsigned wd = width(op.getResult(0).getType());
      z3::expr r = ctx.bv_val(0, wd);
      if (mlir::isa<match::PopcountOp>(&op)) {
        // Bits added in pairs, nibbles and bytes, the bytes of each 32-bit
        // half as (0 + 2) + (1 + 3), the halves last: the order of the
        // unit's SWAR count, in 7-bit additions. A flat sum of the bits
        // makes the proof time out.
        std::vector<z3::expr> level;
        for (unsigned k = 0; k < wd; ++k)
          level.push_back(z3::zext(x.extract(k, k), 6));
        for (int round = 0; round < 3 && level.size() > 1; ++round) {
          std::vector<z3::expr> next;
          for (size_t k = 0; k < level.size(); k += 2)
            next.push_back(k + 1 < level.size() ? level[k] + level[k + 1]
                                                : level[k]);
          level = std::move(next);
        }
        // level: the count of each byte.
        for (size_t k = 4; k < level.size(); ++k)
          level[k - 4] = level[k - 4] + level[k];
        while (level.size() > 4)
          level.pop_back();
        if (level.size() > 2) {
          level[0] = level[0] + level[2];
          if (level.size() > 3)
            level[1] = level[1] + level[3];
        }
        r = level.size() > 1 ? level[0] + level[1] : level[0];
        r = wd > 7 ? z3::zext(r, wd - 7) : r.extract(wd - 1, 0);
      } else if (mlir::isa<match::BswapOp>(&op)) {
        r = x.extract(7, 0);
        for (unsigned k = 1; k < wd / 8; ++k)
          r = z3::concat(r, x.extract(8 * k + 7, 8 * k));
      } else {
        // The count for 0 is the width; otherwise the first set bit from
        // the top (clz) or the bottom (ctz) decides.
        bool clz = mlir::isa<match::ClzOp>(&op);
        r = ctx.bv_val(wd, wd);
        for (unsigned j = 0; j < wd; ++j) {
          unsigned bit = clz ? j : wd - 1 - j; // from the far end inwards
          r = z3::ite(x.extract(bit, bit) == ctx.bv_val(1, 1),
                      ctx.bv_val(clz ? wd - 1 - bit : bit, wd), r);
        }
      }
      set(op.getResult(0), r);
    } else if (auto c = mlir::dyn_cast<ConstantOp>(&op)) {
      auto attr = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue());
      unsigned wd = width(c.getType());
      if (!attr)
        throw Undecided{"non-integer constant"};
      set(op.getResult(0), ctx.bv_val(attr.getValue().getZExtValue(), wd));
    } else if (mlir::isa<AddIOp>(&op)) {
      bin([](auto a, auto b) { return a + b; });
    } else if (mlir::isa<SubIOp>(&op)) {
      bin([](auto a, auto b) { return a - b; });
    } else if (mlir::isa<MulIOp>(&op)) {
      bin([](auto a, auto b) { return a * b; });
    } else if (mlir::isa<AndIOp>(&op)) {
      bin([](auto a, auto b) { return a & b; });
    } else if (mlir::isa<OrIOp>(&op)) {
      bin([](auto a, auto b) { return a | b; });
    } else if (mlir::isa<XOrIOp>(&op)) {
      bin([](auto a, auto b) { return a ^ b; });
    } else if (mlir::isa<MaxUIOp>(&op)) {
      bin([](auto a, auto b) { return z3::ite(z3::uge(a, b), a, b); });
    } else if (mlir::isa<MinUIOp>(&op)) {
      bin([](auto a, auto b) { return z3::ite(z3::ule(a, b), a, b); });
    } else if (mlir::isa<MaxSIOp>(&op)) {
      bin([](auto a, auto b) { return z3::ite(a >= b, a, b); });
    } else if (mlir::isa<MinSIOp>(&op)) {
      bin([](auto a, auto b) { return z3::ite(a <= b, a, b); });
    } else if (mlir::isa<ShLIOp>(&op)) {
      bin([](auto a, auto b) { return z3::shl(a, b); });
    } else if (mlir::isa<ShRUIOp>(&op)) {
      bin([](auto a, auto b) { return z3::lshr(a, b); });
    } else if (mlir::isa<ShRSIOp>(&op)) {
      bin([](auto a, auto b) { return z3::ashr(a, b); });
    } else if (auto cmp = mlir::dyn_cast<CmpIOp>(&op)) {
      z3::expr a = get(cmp.getLhs()), b = get(cmp.getRhs());
      z3::expr r = ctx.bool_val(false);
      switch (cmp.getPredicate()) {
      case CmpIPredicate::eq:
        r = a == b;
        break;
      case CmpIPredicate::ne:
        r = a != b;
        break;
      case CmpIPredicate::slt:
        r = a < b;
        break;
      case CmpIPredicate::sle:
        r = a <= b;
        break;
      case CmpIPredicate::sgt:
        r = a > b;
        break;
      case CmpIPredicate::sge:
        r = a >= b;
        break;
      case CmpIPredicate::ult:
        r = z3::ult(a, b);
        break;
      case CmpIPredicate::ule:
        r = z3::ule(a, b);
        break;
      case CmpIPredicate::ugt:
        r = z3::ugt(a, b);
        break;
      case CmpIPredicate::uge:
        r = z3::uge(a, b);
        break;
      }
      set(op.getResult(0), bvOf(r));
    } else if (auto sel = mlir::dyn_cast<SelectOp>(&op)) {
      set(op.getResult(0),
          z3::ite(boolOf(get(sel.getCondition())), get(sel.getTrueValue()),
                  get(sel.getFalseValue())));
    } else if (auto ext = mlir::dyn_cast<ExtUIOp>(&op)) {
      unsigned from = width(ext.getIn().getType());
      set(op.getResult(0),
          z3::zext(get(ext.getIn()), width(ext.getType()) - from));
    } else if (auto ext = mlir::dyn_cast<ExtSIOp>(&op)) {
      unsigned from = width(ext.getIn().getType());
      set(op.getResult(0),
          z3::sext(get(ext.getIn()), width(ext.getType()) - from));
    } else if (auto tr = mlir::dyn_cast<TruncIOp>(&op)) {
      set(op.getResult(0), get(tr.getIn()).extract(width(tr.getType()) - 1, 0));
    } else {
      throw Undecided{"the match program uses '" +
                      op.getName().getStringRef().str() +
                      "', which the validator does not model"};
    }
  }
  if (!result)
    throw Undecided{"the match program has no match.accept"};
  if (result->offset.get_sort().bv_size() != 64 ||
      result->length.get_sort().bv_size() != 64)
    throw Undecided{"match.accept operands are not 64-bit"};
  return *result;
}

//===----------------------------------------------------------------------===//
// Symbolic execution of the words
//===----------------------------------------------------------------------===//

/// Where the unit is in its control flow: cut points are compared by this.
struct Control {
  unsigned pc = 0, delayLeft = 0, pendingTarget = 0;
  bool operator<(const Control &o) const {
    return std::tie(pc, delayLeft, pendingTarget) <
           std::tie(o.pc, o.delayLeft, o.pendingTarget);
  }
  std::string str() const {
    std::string s = "word " + std::to_string(pc);
    if (delayLeft)
      s += " (delay slot, then word " + std::to_string(pendingTarget) + ")";
    return s;
  }
};

struct Answer {
  unsigned tag;
  z3::expr value;
};

/// One path of the symbolic execution.
struct Path {
  std::vector<z3::expr> r, t, p;
  Control ctl;
  z3::expr cond;            // path condition
  std::vector<Answer> outs; // fail/off/len answers in order
  unsigned pops = 0;        // words popped in this run
  unsigned itemsStarted = 0;
  unsigned answered = 0; // items answered (fail, or len)
  int outsAtEnd = -1;    // answers given when the first END was popped
};

struct InWord {
  z3::expr value;
  bool end;
  bool itemStart; // first word of a list item
};

class Validator {
public:
  Validator(z3::context &ctx, match::ProgramOp program,
            const std::vector<mu::Word> &words, const Options &options)
      : ctx(ctx), d{ctx}, program(program), words(words), solver(ctx, "QF_BV") {
    z3::params params(ctx);
    params.set("timeout", options.timeoutMs);
    solver.set(params);
  }

  Result run();

private:
  z3::context &ctx;
  Z3Domain d;
  match::ProgramOp program;
  const std::vector<mu::Word> &words;
  musim::Program prog;
  z3::solver solver;
  Result result;

  // The invariant at cut points: registers whose value is a function of the
  // current header only, as terms over the header variables `hdr`.
  std::vector<z3::expr> hdr;
  std::map<std::pair<char, unsigned>, z3::expr> invariant;
  std::set<std::pair<char, unsigned>> dropped; // this round
  unsigned rounds = 0;
  std::set<Control> cuts;
  std::vector<Control> worklist;
  bool finalRound = false; // decisions are checked once the invariant holds
  // Answers of earlier queries, by the formula's AST id (terms are
  // hash-consed, so a query repeated in a later round is found).
  std::unordered_map<unsigned, bool> cache;
  std::vector<z3::expr> cached; // keeps the ids alive

  std::vector<z3::expr> vars(const std::string &prefix) {
    std::vector<z3::expr> v;
    for (unsigned i = 0; i < kWords; ++i)
      v.push_back(ctx.bv_const((prefix + std::to_string(i)).c_str(), 64));
    return v;
  }
  /// A path at `ctl` whose registers are fresh variables named `prefix`.
  Path arbitraryPath(Control ctl, const std::string &prefix);
  Path resetPath();

  /// 1 satisfiable, 0 unsatisfiable; throws Undecided on unknown.
  bool sat(const z3::expr &e, z3::model *model = nullptr);
  bool feasible(const z3::expr &e);

  /// Runs `start` on `input`; every path that wants to pop past the end of
  /// the input is returned (stopped before that word issues).
  std::vector<Path> execute(Path start, const std::vector<InWord> &input);

  z3::expr expected(const std::vector<Answer> &outs,
                    const std::vector<Spec> &items, std::string &shape,
                    bool extraItem = false);

  void check(const z3::expr &cond, const z3::expr &goal,
             const std::string &what, bool concrete,
             const std::vector<z3::expr> &h, const std::vector<z3::expr> &it);
  void refute(const z3::model &m, const std::string &what,
              const std::vector<z3::expr> &h, const std::vector<z3::expr> &it,
              bool concrete);
  Path invariantPath(Control cut, const std::vector<z3::expr> &header);
  void itemStep(Control cut);
  void endStep(Control cut);
  void addCut(const Path &p, const std::vector<z3::expr> &header);
};

Path Validator::resetPath() {
  Path p{{}, {}, {}, Control(), ctx.bool_val(true), {}};
  for (unsigned i = 0; i < kRegs; ++i) {
    p.r.push_back(d.c(0));
    p.t.push_back(d.c(i == 0 ? ~0ull : 0));
    p.p.push_back(d.b(i == 0));
  }
  return p;
}

Path Validator::arbitraryPath(Control ctl, const std::string &prefix) {
  Path p = resetPath();
  p.ctl = ctl;
  for (unsigned i = 1; i < SINK; ++i) {
    p.r[i] = ctx.bv_const((prefix + "_r" + std::to_string(i)).c_str(), 64);
    p.t[i] = ctx.bv_const((prefix + "_t" + std::to_string(i)).c_str(), 64);
    p.p[i] = ctx.bool_const((prefix + "_p" + std::to_string(i)).c_str());
  }
  return p;
}

bool Validator::sat(const z3::expr &e, z3::model *model) {
  auto hit = cache.find(e.id());
  if (hit != cache.end() && !(hit->second && model))
    return hit->second;
  ++result.queries;
  solver.push();
  solver.add(e);
  auto q0 = std::chrono::steady_clock::now();
  z3::check_result r = solver.check();
  if (std::getenv("NPCC_VALIDATE_TRACE"))
    std::fprintf(
        stderr, "query %u: %s in %.3f s\n", result.queries,
        r == z3::sat     ? "sat"
        : r == z3::unsat ? "unsat"
                         : "unknown",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - q0)
            .count());
  if (r == z3::sat && model)
    *model = solver.get_model();
  solver.pop();
  if (r == z3::unknown)
    throw Undecided{"the solver timed out (" + solver.reason_unknown() + ")"};
  cache.emplace(e.id(), r == z3::sat);
  cached.push_back(e);
  return r == z3::sat;
}

bool Validator::feasible(const z3::expr &e) {
  z3::expr s = e.simplify();
  if (s.is_true() || s.is_false())
    return s.is_true();
  return sat(s);
}

std::vector<Path> Validator::execute(Path start,
                                     const std::vector<InWord> &input) {
  std::vector<Path> stopped, todo{std::move(start)};
  while (!todo.empty()) {
    Path p = std::move(todo.back());
    todo.pop_back();
    ++result.paths;
    for (unsigned steps = 0;; ++steps) {
      if (steps > kMaxSteps)
        throw Undecided{"more than " + std::to_string(kMaxSteps) +
                        " words without input at " + p.ctl.str()};
      if (p.ctl.pc >= prog.ops.size()) {
        p.outs.push_back({~0u, d.c(0)}); // marks a fault
        stopped.push_back(std::move(p));
        break;
      }
      const MicroOp &o = prog.ops[p.ctl.pc];
      z3::expr inVal = d.c(0);
      z3::expr inEnd = d.b(false);
      if (o.needsInput) {
        if (p.pops >= input.size()) {
          stopped.push_back(std::move(p));
          break;
        }
        const InWord &w = input[p.pops++];
        inVal = w.value;
        inEnd = d.b(w.end);
        if (w.end && p.outsAtEnd < 0)
          p.outsAtEnd = p.outs.size();
        if (w.itemStart)
          ++p.itemsStarted;
      }
      musim::WordEffect<Z3Domain> e(d);
      // Guards and branch conditions read the state before the word.
      z3::expr guardOut = d.b(false);
      executeWord(d, o, p.r.data(), p.t.data(), p.p.data(), inVal, inEnd, e);
      if (o.cpOp == mu::CP_OUT && o.cpTag != mu::TAG_DATA)
        guardOut = e.cpDo.simplify();
      musim::BranchAction act = musim::branchAction(o, p.ctl.delayLeft);
      z3::expr taken = act == musim::BranchAction::Conditional
                           ? e.taken.simplify()
                           : d.b(false);
      // Fork on a symbolic answer guard and a symbolic branch.
      std::vector<std::pair<bool, bool>> cases; // (answer, taken)
      for (bool out : {true, false}) {
        z3::expr gc = out ? guardOut : !guardOut;
        z3::expr gs = gc.simplify();
        if (gs.is_false())
          continue;
        for (bool tk : {true, false}) {
          z3::expr tc = tk ? taken : !taken;
          z3::expr ts = tc.simplify();
          if (ts.is_false())
            continue;
          bool symbolic = !gs.is_true() || !ts.is_true();
          if (symbolic && !feasible(p.cond && gs && ts))
            continue;
          cases.push_back({out, tk});
        }
      }
      if (cases.empty())
        throw Undecided{"no feasible continuation at " + p.ctl.str()};
      for (size_t k = 0; k < cases.size(); ++k) {
        bool last = k + 1 == cases.size();
        Path q = last ? std::move(p) : p;
        auto [out, tk] = cases[k];
        if (cases.size() > 1) {
          q.cond =
              q.cond && (out ? guardOut : !guardOut) && (tk ? taken : !taken);
          q.cond = q.cond.simplify();
        }
        if (out)
          q.outs.push_back({o.cpTag, e.cpVal});
        if (out) {
          // fail and off need an item whose first word was popped and
          // that is not answered yet.
          if (o.cpTag != mu::TAG_LENGTH && q.answered >= q.itemsStarted)
            q.outs.push_back({~0u, d.c(0)});
          if (o.cpTag != mu::TAG_OFFSET)
            ++q.answered;
        }
        if (act == musim::BranchAction::Halt) {
          q.outs.push_back({~0u - 1, d.c(0)});
          stopped.push_back(std::move(q));
          continue;
        }
        musim::advanceControl(o, tk, q.ctl.pc, q.ctl.delayLeft,
                              q.ctl.pendingTarget);
        if (last)
          p = std::move(q);
        else
          todo.push_back(std::move(q));
      }
      if (act == musim::BranchAction::Halt)
        break;
      // Only the last case continues in this loop; the others wait in todo.
    }
  }
  return stopped;
}

/// The answers `outs` are right for `items` (answered in order) when the
/// returned formula holds; `shape` describes what the microcode answered.
/// With `extraItem`, the item the list manager may send after a match can
/// be answered too (fail, or off and len): musim and the list manager keep
/// the first match of a header and ignore later answers.
z3::expr Validator::expected(const std::vector<Answer> &outs,
                             const std::vector<Spec> &items, std::string &shape,
                             bool extraItem) {
  z3::expr ok = ctx.bool_val(true);
  size_t k = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (k < outs.size() && outs[k].tag == mu::TAG_FAIL) {
      ok = ok && items[i].fail;
      shape += "fail ";
      ++k;
      continue;
    }
    if (k + 1 < outs.size() && outs[k].tag == mu::TAG_OFFSET &&
        outs[k + 1].tag == mu::TAG_LENGTH) {
      shape += "match ";
      ok = ok && !items[i].fail && outs[k].value == items[i].offset &&
           outs[k + 1].value == items[i].length;
      k += 2;
      if (extraItem && k < outs.size() && outs[k].tag == mu::TAG_FAIL) {
        shape += "fail ";
        k += 1;
      } else if (extraItem && k + 1 < outs.size() &&
                 outs[k].tag == mu::TAG_OFFSET &&
                 outs[k + 1].tag == mu::TAG_LENGTH) {
        shape += "match ";
        k += 2;
      }
      break; // the list ends after a match
    }
    if (k < outs.size() && outs[k].tag == ~0u)
      shape += "with a fault (a PC past the end, or an answer before its "
               "item) ";
    else if (k < outs.size() && outs[k].tag == ~0u - 1)
      shape += "with a halt ";
    else
      shape += "nothing ";
    return ctx.bool_val(false);
  }
  if (k != outs.size()) {
    shape += "and more answers ";
    return ctx.bool_val(false);
  }
  return ok;
}

void Validator::refute(const z3::model &m, const std::string &what,
                       const std::vector<z3::expr> &h,
                       const std::vector<z3::expr> &it, bool concrete) {
  for (unsigned i = 0; i < kWords; ++i) {
    result.header[i] = m.eval(h[i], true).get_numeral_uint64();
    result.item[i] = m.eval(it[i], true).get_numeral_uint64();
  }
  // The match program's answer, evaluated on the counterexample.
  Spec s = evalProgram(ctx, program, h, it);
  if (m.eval(s.fail, true).is_true())
    result.programAnswer = "no match";
  else {
    char buf[96];
    std::snprintf(
        buf, sizeof buf, "match 0 offset %llu length %llu",
        (unsigned long long)m.eval(s.offset, true).get_numeral_uint64(),
        (unsigned long long)m.eval(s.length, true).get_numeral_uint64());
    result.programAnswer = buf;
  }
  // musim on the same header and one-item list.
  musim::RunConfig config;
  config.maxCycles = 100000;
  musim::RunResult run;
  std::vector<musim::Item> list{result.item}, headers{result.header};
  if (!musim::runList(prog, list, headers, config, run))
    result.microcodeAnswer = "error: " + run.error;
  else if (!run.headers[0].complete)
    result.microcodeAnswer = "incomplete";
  else if (run.headers[0].match < 0)
    result.microcodeAnswer = "no match";
  else {
    char buf[96];
    std::snprintf(buf, sizeof buf, "match %lld offset %llu length %llu",
                  (long long)run.headers[0].match,
                  (unsigned long long)run.headers[0].offset,
                  (unsigned long long)run.headers[0].length);
    result.microcodeAnswer = buf;
  }
  if (result.microcodeAnswer == result.programAnswer)
    throw Undecided{what + (concrete
                                ? " (but musim agrees on the solver's "
                                  "example: validator error)"
                                : ": the inductive step fails and no "
                                  "one-item counterexample reproduces it")};
  result.verdict = Verdict::Refuted;
  result.message = what;
}

void Validator::check(const z3::expr &cond, const z3::expr &goal,
                      const std::string &what, bool concrete,
                      const std::vector<z3::expr> &h,
                      const std::vector<z3::expr> &it) {
  if (!concrete && !finalRound)
    return;
  // Conjuncts one at a time: smaller queries for the solver.
  std::vector<z3::expr> parts, todo{goal.simplify()};
  while (!todo.empty()) {
    z3::expr g = todo.back();
    todo.pop_back();
    if (g.is_app() && g.decl().decl_kind() == Z3_OP_AND)
      for (unsigned i = 0; i < g.num_args(); ++i)
        todo.push_back(g.arg(i));
    else if (!g.is_true())
      parts.push_back(g);
  }
  for (const z3::expr &g : parts) {
    z3::model m(ctx);
    if (!sat(cond && !g, &m))
      continue;
    refute(m, what, h, it, concrete);
    throw Verdict::Refuted;
  }
}

/// A cut point reached with the state of `p` under `header`: the invariant
/// conjuncts that may not hold there are dropped at the end of the round.
void Validator::addCut(const Path &p, const std::vector<z3::expr> &header) {
  z3::expr_vector from(ctx), to(ctx);
  for (unsigned i = 0; i < kWords; ++i) {
    from.push_back(hdr[i]);
    to.push_back(header[i]);
  }
  for (auto &[key, e] : invariant) {
    if (dropped.count(key))
      continue;
    z3::expr want = z3::expr(e).substitute(from, to);
    const z3::expr &have = key.first == 'r'   ? p.r[key.second]
                           : key.first == 't' ? p.t[key.second]
                                              : p.p[key.second];
    z3::expr same = (have == want).simplify();
    if (!same.is_true() && sat(!same) && sat(p.cond && !same))
      dropped.insert(key);
  }
  if (cuts.insert(p.ctl).second)
    worklist.push_back(p.ctl);
}

/// A path at `cut` in a state that satisfies the invariant for `header`:
/// the registers it names hold their terms, the others anything.
Path Validator::invariantPath(Control cut,
                              const std::vector<z3::expr> &header) {
  Path start = arbitraryPath(cut, "z" + std::to_string(cut.pc) + "_" +
                                      std::to_string(cut.delayLeft) + "_" +
                                      std::to_string(cut.pendingTarget));
  z3::expr_vector from(ctx), to(ctx);
  for (unsigned i = 0; i < kWords; ++i) {
    from.push_back(hdr[i]);
    to.push_back(header[i]);
  }
  for (auto &[key, e] : invariant)
    (key.first == 'r'   ? start.r
     : key.first == 't' ? start.t
                        : start.p)[key.second] =
        z3::expr(e).substitute(from, to);
  return start;
}

/// END then a header, from `cut` with the invariant of the old header.
void Validator::endStep(Control cut) {
  std::vector<z3::expr> next = vars("g");
  std::vector<InWord> input{{d.c(0), true, false}};
  for (auto &w : next)
    input.push_back({w, false, false});
  for (Path &p : execute(invariantPath(cut, vars("o")), input)) {
    std::string shape;
    check(p.cond, p.outs.empty() ? ctx.bool_val(true) : ctx.bool_val(false),
          "the unit answers after an END with no item outstanding", false, next,
          vars("i"));
    addCut(p, next);
  }
}

/// One item from `cut` with the invariant of header `hdr`.
void Validator::itemStep(Control cut) {
  Path start = invariantPath(cut, hdr);
  std::vector<z3::expr> it = vars("i"), extra = vars("e"), next = vars("g");
  Spec spec = evalProgram(ctx, program, hdr, it);
  std::vector<InWord> input;
  for (unsigned i = 0; i < kWords; ++i)
    input.push_back({it[i], false, i == 0});
  for (Path &p : execute(start, input)) {
    bool failed = p.outs.size() == 1 && p.outs[0].tag == mu::TAG_FAIL;
    if (failed || p.outs.empty() || p.outs[0].tag != mu::TAG_OFFSET) {
      std::string shape;
      check(p.cond, expected(p.outs, {spec}, shape),
            "the microcode answers " + shape + "for an item", false, hdr, it);
      addCut(p, hdr);
      continue;
    }
    // A match: the list manager sends END, or one more item and END, then
    // the next header.
    for (bool withExtra : {false, true}) {
      std::vector<InWord> more = input;
      if (withExtra)
        for (unsigned i = 0; i < kWords; ++i)
          more.push_back({extra[i], false, i == 0});
      more.push_back({d.c(0), true, false});
      for (auto &w : next)
        more.push_back({w, false, false});
      for (Path &q : execute(p, more)) {
        std::string shape;
        z3::expr ok = expected(q.outs, {spec}, shape, withExtra);
        // The offset must precede the END, and so must any answer to the
        // extra item (after the END it would count for the next header).
        if (q.outsAtEnd < 1 ||
            (q.outs.size() > 2 && q.outsAtEnd < int(q.outs.size())))
          ok = ctx.bool_val(false);
        check(q.cond, ok,
              "after a match the microcode answers " + shape +
                  (withExtra ? "(with an extra item flushed)" : ""),
              false, hdr, it);
        addCut(q, next);
      }
    }
  }
}

Result Validator::run() {
  std::clock_t t0 = std::clock();
  std::string error;
  if (!musim::loadProgram(words, prog, error)) {
    result.message = "the image does not load: " + error;
    return result;
  }
  try {
    try {
      hdr = vars("h");
      std::vector<z3::expr> it = vars("i");
      // 1. Reset, one header, one item, END: exactly what musim runs for a
      //    one-item list. A failure here is a concrete counterexample.
      std::vector<InWord> input;
      for (auto &w : hdr)
        input.push_back({w, false, false});
      std::vector<Path> init = execute(resetPath(), input);
      Spec spec = evalProgram(ctx, program, hdr, it);
      for (unsigned i = 0; i < kWords; ++i)
        input.push_back({it[i], false, i == 0});
      input.push_back({d.c(0), true, false});
      for (const Path &p : init) {
        for (Path &q : execute(p, input)) {
          std::string shape;
          z3::expr ok = expected(q.outs, {spec}, shape);
          if (q.outsAtEnd < 0 || q.outsAtEnd < int(q.outs.size()) - 1 ||
              (q.outsAtEnd == int(q.outs.size()) - 1 &&
               q.outs.back().tag != mu::TAG_LENGTH))
            ok = ctx.bool_val(false);
          check(q.cond, ok,
                "the microcode answers " + shape + "for the first item", true,
                hdr, it);
        }
      }
      // 2. The induction over items and headers.
      if (init.empty())
        throw Undecided{"the unit never reads past the first header"};
      // The candidate invariant: every register as reset and the first
      // header leave it, a term over the header. Conjuncts that some
      // transition into a loop entry does not preserve are dropped, until
      // none is (Houdini's algorithm).
      for (unsigned i = 1; i < SINK; ++i) {
        invariant.insert_or_assign({'r', i}, init[0].r[i].simplify());
        invariant.insert_or_assign({'t', i}, init[0].t[i].simplify());
        invariant.insert_or_assign({'p', i}, init[0].p[i].simplify());
      }
      for (;;) {
        ++rounds;
        dropped.clear();
        cuts.clear();
        worklist.clear();
        for (const Path &p : init) {
          if (!p.outs.empty())
            throw Undecided{"the unit answers while it reads a header"};
          addCut(p, hdr);
        }
        for (size_t k = 0; k < worklist.size(); ++k) {
          Control c = worklist[k];
          itemStep(c);
          endStep(c);
        }
        if (std::getenv("NPCC_VALIDATE_TRACE")) {
          std::fprintf(stderr, "round %u: %zu loop entries, dropped", rounds,
                       cuts.size());
          for (auto &key : dropped)
            std::fprintf(stderr, " %c%u", key.first, key.second);
          std::fprintf(stderr, "\n");
        }
        if (dropped.empty() && finalRound)
          break;
        finalRound = dropped.empty();
        for (auto &key : dropped)
          invariant.erase(key);
      }
      result.verdict = Verdict::Proved;
      result.message = "proved: the microcode gives the match program's "
                       "answer on every header and list (" +
                       std::to_string(cuts.size()) + " loop entr" +
                       (cuts.size() == 1 ? "y" : "ies") + ", " +
                       std::to_string(invariant.size()) +
                       " header values kept, " + std::to_string(rounds) +
                       " rounds)";
    } catch (Undecided &u) {
      result.verdict = Verdict::Undecided;
      result.message = u.why;
    } catch (Verdict) {
      // result filled by refute()
    }
  } catch (z3::exception &e) {
    result.verdict = Verdict::Undecided;
    result.message = std::string("solver error: ") + e.msg();
  } catch (std::exception &e) {
    result.verdict = Verdict::Undecided;
    result.message = std::string("validator error: ") + e.what();
  }
  result.seconds = double(std::clock() - t0) / CLOCKS_PER_SEC;
  return result;
}

} // namespace

std::string npcc::validate::itemLine(const std::array<uint64_t, 8> &words) {
  std::string s;
  for (unsigned i = 0; i < 8; ++i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%s0x%016llx", i ? " " : "",
                  (unsigned long long)words[i]);
    s += buf;
  }
  return s;
}

Result npcc::validate::validateMatchProgram(match::ProgramOp program,
                                            const std::vector<mu::Word> &words,
                                            const Options &options) {
  try {
    z3::context ctx;
    Validator v(ctx, program, words, options);
    return v.run();
  } catch (z3::exception &e) {
    Result r;
    r.message = std::string("solver error: ") + e.msg();
    return r;
  } catch (...) {
    Result r;
    r.message = "validator error";
    return r;
  }
}
