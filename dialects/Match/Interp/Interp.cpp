//===- Interp.cpp - reference interpreter of the match dialect ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Match/Interp/Interp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using llvm::APInt;

namespace npcc::match {

namespace {

class Evaluator {
public:
  Evaluator(ArrayRef<uint64_t> header, ArrayRef<uint64_t> item)
      : header(header), item(item) {}

  LogicalResult run(ProgramOp program, Decision &out, std::string &error);

private:
  LogicalResult step(Operation &op);
  LogicalResult fail(Operation &op, const llvm::Twine &why) {
    std::string loc;
    llvm::raw_string_ostream os(loc);
    op.getLoc().print(os);
    message =
        (op.getName().getStringRef() + ": " + why + " at " + os.str()).str();
    return failure();
  }
  const APInt &get(Value v) { return values.find(v)->second; }
  void set(Value v, APInt x) { values[v] = std::move(x); }
  static uint64_t word(ArrayRef<uint64_t> words, int64_t i) {
    return i >= 0 && i < (int64_t)words.size() ? words[i] : 0;
  }

  ArrayRef<uint64_t> header, item;
  llvm::DenseMap<Value, APInt> values;
  bool anyFail = false, accepted = false;
  uint64_t offset = 0, length = 0;
  std::string message;
};

LogicalResult Evaluator::step(Operation &op) {
  auto bin = [&](auto fn) -> LogicalResult {
    set(op.getResult(0), fn(get(op.getOperand(0)), get(op.getOperand(1))));
    return success();
  };
  auto width = [&](Value v) { return v.getType().getIntOrFloatBitWidth(); };
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](HeaderWordOp w) {
        set(w, APInt(64, word(header, w.getIndex())));
        return success();
      })
      .Case([&](ItemWordOp w) {
        set(w, APInt(64, word(item, w.getIndex())));
        return success();
      })
      .Case([&](FieldOp f) {
        set(f, get(f.getWord()).extractBits(f.getWidth(), f.getLsb()));
        return success();
      })
      .Case([&](FailIfOp f) {
        anyFail |= get(f.getCond()).getBoolValue();
        return success();
      })
      .Case([&](SpeculateOp s) -> LogicalResult {
        // Only the region the assumption chooses runs.
        Region &region = get(s.getAssumption()).getBoolValue()
                             ? s.getAssumed()
                             : s.getOtherwise();
        for (Operation &inner : region.front())
          if (failed(step(inner)))
            return failure();
        return success();
      })
      .Case([&](AcceptOp a) {
        accepted = true;
        offset = get(a.getOffset()).getZExtValue();
        length = get(a.getLength()).getZExtValue();
        return success();
      })
      .Case<PopcountOp, ClzOp, CtzOp>([&](Operation *o) {
        const APInt &x = get(o->getOperand(0));
        unsigned n = isa<PopcountOp>(o) ? x.popcount()
                     : isa<ClzOp>(o)    ? x.countl_zero()
                                        : x.countr_zero();
        set(o->getResult(0), APInt(x.getBitWidth(), n));
        return success();
      })
      .Case([&](BswapOp o) {
        set(o, get(o.getInput()).byteSwap());
        return success();
      })
      .Case([&](arith::ConstantOp c) -> LogicalResult {
        auto attr = dyn_cast<IntegerAttr>(c.getValue());
        if (!attr)
          return fail(op, "not an integer constant");
        set(c, attr.getValue().zextOrTrunc(width(c)));
        return success();
      })
      .Case([&](arith::AddIOp) { return bin(std::plus<APInt>()); })
      .Case([&](arith::SubIOp) { return bin(std::minus<APInt>()); })
      .Case([&](arith::MulIOp) { return bin(std::multiplies<APInt>()); })
      .Case([&](arith::AndIOp) {
        return bin([](const APInt &a, const APInt &b) { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return bin([](const APInt &a, const APInt &b) { return a | b; });
      })
      .Case([&](arith::XOrIOp) {
        return bin([](const APInt &a, const APInt &b) { return a ^ b; });
      })
      .Case([&](arith::MinUIOp) {
        return bin(
            [](const APInt &a, const APInt &b) { return a.ult(b) ? a : b; });
      })
      .Case([&](arith::MaxUIOp) {
        return bin(
            [](const APInt &a, const APInt &b) { return a.ugt(b) ? a : b; });
      })
      .Case([&](arith::MinSIOp) {
        return bin(
            [](const APInt &a, const APInt &b) { return a.slt(b) ? a : b; });
      })
      .Case([&](arith::MaxSIOp) {
        return bin(
            [](const APInt &a, const APInt &b) { return a.sgt(b) ? a : b; });
      })
      .Case([&](arith::CmpIOp c) {
        set(c,
            APInt(1, arith::applyCmpPredicate(c.getPredicate(), get(c.getLhs()),
                                              get(c.getRhs()))));
        return success();
      })
      .Case([&](arith::SelectOp s) {
        set(s, get(s.getCondition()).getBoolValue() ? get(s.getTrueValue())
                                                    : get(s.getFalseValue()));
        return success();
      })
      .Case([&](arith::ExtUIOp e) {
        set(e, get(e.getIn()).zext(width(e)));
        return success();
      })
      .Case([&](arith::ExtSIOp e) {
        set(e, get(e.getIn()).sext(width(e)));
        return success();
      })
      .Case([&](arith::TruncIOp t) {
        set(t, get(t.getIn()).trunc(width(t)));
        return success();
      })
      .Case<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp>(
          [&](Operation *o) -> LogicalResult {
            const APInt &a = get(o->getOperand(0)), &b = get(o->getOperand(1));
            if (b.isZero())
              return fail(op, "division by zero");
            if (isa<arith::DivUIOp>(o))
              set(o->getResult(0), a.udiv(b));
            else if (isa<arith::DivSIOp>(o))
              set(o->getResult(0), a.sdiv(b));
            else if (isa<arith::RemUIOp>(o))
              set(o->getResult(0), a.urem(b));
            else
              set(o->getResult(0), a.srem(b));
            return success();
          })
      .Case<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(
          [&](Operation *o) -> LogicalResult {
            const APInt &a = get(o->getOperand(0)), &b = get(o->getOperand(1));
            if (b.uge(a.getBitWidth()))
              return fail(op, "shift by the width or more");
            unsigned n = b.getZExtValue();
            set(o->getResult(0), isa<arith::ShLIOp>(o)    ? a.shl(n)
                                 : isa<arith::ShRUIOp>(o) ? a.lshr(n)
                                                          : a.ashr(n));
            return success();
          })
      .Default([&](Operation *) {
        return fail(op, "the interpreter does not define this operation");
      });
}

LogicalResult Evaluator::run(ProgramOp program, Decision &out,
                             std::string &error) {
  for (Operation &op : program.getBody().front()) {
    if (failed(step(op))) {
      // An undefined operation after a fail that already holds cannot
      // change the decision: NPL stops at the first `fail;` that runs.
      if (anyFail) {
        out = Decision();
        return success();
      }
      error = message;
      return failure();
    }
  }
  if (!anyFail && !accepted) {
    error = "the program has no 'match.accept'";
    return failure();
  }
  out = Decision();
  if (!anyFail) {
    out.accept = true;
    out.offset = offset;
    out.length = length;
  }
  return success();
}

} // namespace

LogicalResult interpret(ProgramOp program, ArrayRef<uint64_t> header,
                        ArrayRef<uint64_t> item, Decision &out,
                        std::string &error) {
  return Evaluator(header, item).run(program, out, error);
}

LogicalResult interpretList(ProgramOp program, ArrayRef<uint64_t> header,
                            ArrayRef<Words> list, ListDecision &out,
                            std::string &error) {
  out = ListDecision();
  for (size_t i = 0; i < list.size(); ++i) {
    Decision d;
    if (failed(interpret(program, header, list[i], d, error)))
      return failure();
    if (d.accept) {
      out.match = i;
      out.offset = d.offset;
      out.length = d.length;
      return success();
    }
  }
  return success();
}

LogicalResult interpretCases(ProgramOp program, const ListCases &cases,
                             std::vector<ListDecision> &out,
                             std::string &error) {
  out.assign(cases.headers.size(), ListDecision());
  for (size_t i = 0; i < cases.headers.size(); ++i)
    if (failed(interpretList(program, cases.headers[i], cases.list, out[i],
                             error)))
      return failure();
  return success();
}

std::string formatListDecision(unsigned header, const ListDecision &d) {
  std::string s = "header " + std::to_string(header) + ": ";
  if (d.match < 0)
    return s + "no match";
  return s + "match " + std::to_string(d.match) + " offset " +
         std::to_string(d.offset) + " length " + std::to_string(d.length);
}

} // namespace npcc::match
