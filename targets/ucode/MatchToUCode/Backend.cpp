//===- Backend.cpp - match programs to match-unit words -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The program the back end builds has the shape of the hand-written one
// (examples/portals-match/portals.mua):
//
//   init    constants the checks need (ternary masks, wide constants)
//   hdr     read the 8 header words; compute what depends only on them
//   item    read the 8 item words, one per word, while the checks run; a
//           branch at word 5 leaves for the next item as soon as the checks
//           ready by then fail (8 cycles per failing item), a second one
//           when all checks are known; then the answers
//   matched drain the extra item the list manager sent, read END, and go
//   flush   back to the header
//
// The first three reads of an item and of a header go to the same
// registers (r1-r3, t1-t3), so that when an item read finds the END mark,
// the reads in the delay slots of the branch to the header are already
// header words. Values are kept where the fields lie in the 64-bit words:
// a compare of two fields at the same position needs no shifting, and
// SIMD lanes select the field.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/Backend.h"
#include "targets/ucode/MatchToUCode/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "runtime/isa/Mnemonics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

namespace {

/// An integer SSA value as the unit holds it: bits [lsb, lsb+width) of a
/// 64-bit register (R and/or T copy), or a constant.
struct IntVal {
  bool isConst = false;
  uint64_t c = 0;
  int r = -1, t = -1;
  unsigned lsb = 0, width = 64;
  int block = Machine::Init; // where it is computed
};

/// A boolean: a predicate, possibly negated, or a constant.
struct BoolVal {
  bool isConst = false, c = false;
  int p = -1;
  bool neg = false;
  int block = Machine::Init;
  int lazy = -1; // a compare not placed yet (see Backend::Lazy)
};

constexpr unsigned kWords = 8;

class Backend {
public:
  explicit Backend(match::ProgramOp program) : program(program) {}
  LogicalResult run(CompiledProgram &out);

private:
  /// A check of the item: a failure condition, or several option-bit
  /// checks folded into one ternary compare against a mask the header
  /// computes.
  struct MaskCheck {
    Value field;                                   // item field tested
    std::vector<std::pair<Value, uint64_t>> parts; // header cond or null, bits
    int tern = -1;                                 // ternary copy of the mask
  };
  struct Check {
    Value v;
    int mask = -1;
  };
  std::vector<Check> foldMaskChecks(const std::vector<Value> &conds);
  BoolVal maskOk(MaskCheck &mc);
  void coneOf(const Check &c, llvm::SmallPtrSetImpl<Operation *> &seen);
  std::vector<MaskCheck> masks;

  /// Compares are placed when first used, so that two of them joined by
  /// and/or can accumulate into one predicate (acc=and/or) instead of
  /// costing a predicate-unit operation.
  struct Lazy {
    MOp op;
    int minWord;
    bool done = false;
  };
  std::vector<Lazy> lazies;
  BoolVal defer(MOp o, int minWord, int pvreg, int block) {
    lazies.push_back({std::move(o), minWord, false});
    BoolVal b;
    b.p = pvreg;
    b.block = block;
    b.lazy = (int)lazies.size() - 1;
    return b;
  }
  bool pending(const BoolVal &b) const {
    return !b.isConst && b.lazy >= 0 && !lazies[b.lazy].done;
  }
  void materialize(const BoolVal &b) {
    if (!pending(b))
      return;
    lazies[b.lazy].done = true;
    place(lazies[b.lazy].op, lazies[b.lazy].minWord);
  }
  bool accumulate(unsigned fn, BoolVal a, BoolVal b, BoolVal &out);
  bool exclusiveOperands = false; // the operands of logic() have no other use

  // Selection.
  IntVal intVal(Value v);
  BoolVal boolVal(Value v);
  BoolVal compare(arith::CmpIOp cmp);
  BoolVal ternaryEq(const IntVal &a, const IntVal &b, const IntVal *mask,
                    Location loc);
  BoolVal aluCompare(unsigned op, const IntVal &a, const IntVal &b,
                     Location loc);
  BoolVal logic(unsigned fn, BoolVal a, BoolVal b, int block);
  BoolVal notOf(BoolVal b) {
    b.neg = !b.neg;
    b.c = !b.c;
    return b;
  }
  int rOf(const IntVal &v, int block, Location loc);
  int tOf(const IntVal &v, int block, Location loc);
  int constR(uint64_t c);
  int constT(uint64_t c);
  int stable(int vreg, int block, File f);
  int later(int a, int b) const { return a > b ? a : b; }
  bool fieldLanes(unsigned lsb, unsigned width, unsigned &simd,
                  unsigned &lanes) const;
  bool immediate(uint64_t c, unsigned lsb, unsigned width, Word &w) const;
  int predOf(const BoolVal &b, int block);

  // Placement helpers.
  int place(MOp op, int minWord = 0, int fixed = -1) {
    return m.place(std::move(op), minWord, fixed);
  }
  MOp op(Unit u, int block) {
    MOp o;
    o.unit = u;
    o.block = block == Machine::Item ? itemBlock : block;
    o.w.ALU_SIMD = mu::DefaultSimd;
    o.w.ALU_LANES = mu::DefaultLanes;
    o.w.TERN_SIMD = mu::DefaultSimd;
    o.w.TERN_LANES = mu::DefaultLanes;
    return o;
  }
  void input(int block, int word, int r, int t, int endp);
  void readWords();
  void layout(CompiledProgram &out, bool general);
  LogicalResult allocate();

  match::ProgramOp program;
  Machine m;
  llvm::DenseMap<Value, IntVal> ints;
  llvm::DenseMap<Value, BoolVal> bools;
  std::map<uint64_t, int> rConsts, tConsts;
  std::map<std::pair<int, int>, int> stableCopies; // (vreg, file) -> copy
  std::vector<std::pair<int, int>> itemCopies;     // made in an item block
  int hdrR[kWords], hdrT[kWords], itemR[kWords], itemT[kWords];
  int pEnd = -1;
  std::vector<int> phys; // physical register of each virtual one
  // Item-phase operations go to this block: the item loop, or the general
  // path taken when a speculated option flag is set.
  int itemBlock = Machine::Item;
  int reserveItemWords = 0; // words the item block must span
  // Conditions assumed while selecting the speculative item path.
  llvm::DenseMap<Value, bool> spec;
  std::vector<Value> specMemo; // memo entries made while speculating
  bool hasError = false;
  Location errLoc = UnknownLoc::get(program.getContext());
  std::string errMsg;

  LogicalResult reportError() {
    // The source line of the operation the unit cannot run.
    mlir::emitError(errLoc) << errMsg;
    return failure();
  }
  /// Memoises a selection; results that a speculation could have shaped
  /// (item values and constants) are forgotten before the general path.
  IntVal rememberInt(Value v, IntVal x) {
    ints[v] = x;
    if (!spec.empty() && (x.block == Machine::Item || x.isConst))
      specMemo.push_back(v);
    return x;
  }
  BoolVal rememberBool(Value v, BoolVal x) {
    bools[v] = x;
    if (!spec.empty() && (x.block == Machine::Item || x.isConst))
      specMemo.push_back(v);
    return x;
  }
  void error(Location loc, const llvm::Twine &msg) {
    if (hasError)
      return;
    hasError = true;
    errLoc = loc;
    errMsg = msg.str();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Constants and copies
//===----------------------------------------------------------------------===//

static bool isConstant(Value v) {
  return isa_and_nonnull<arith::ConstantOp>(v.getDefiningOp());
}

static uint64_t constantOf(Value v) {
  auto c = cast<arith::ConstantOp>(v.getDefiningOp());
  return cast<IntegerAttr>(c.getValue()).getValue().getZExtValue();
}

bool Backend::fieldLanes(unsigned lsb, unsigned width, unsigned &simd,
                         unsigned &lanes) const {
  if (lsb % 16 || width % 16)
    return false;
  unsigned first = lsb / 16, last = (lsb + width) / 16 - 1;
  simd = 0;
  lanes = 0;
  for (unsigned l = first; l <= last; ++l) {
    lanes |= 1u << l;
    if (l < last)
      simd |= 1u << l;
  }
  return true;
}

/// Places the constant `c` of a field at `lsb` into the immediate of `w`.
bool Backend::immediate(uint64_t c, unsigned lsb, unsigned width,
                        Word &w) const {
  uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1);
  uint64_t v = (c & mask) << lsb;
  uint64_t span = (width == 64 ? ~0ull : mask << lsb);
  if ((span >> 32) == 0) {
    w.ALU_IMMSEL = mu::IMM_LO;
    w.ALU_IMM = (uint32_t)v;
    return true;
  }
  if ((span & 0xffffffffull) == 0) {
    w.ALU_IMMSEL = mu::IMM_HI;
    w.ALU_IMM = (uint32_t)(v >> 32);
    return true;
  }
  return false;
}

int Backend::constR(uint64_t c) {
  if (c == 0)
    return m.r0();
  auto it = rConsts.find(c);
  if (it != rConsts.end())
    return it->second;
  int r = m.newReg(FR);
  // or r, r0, r0, lo=low ; or r, r, r0, hi=high
  MOp lo = op(UAlu, Machine::Init);
  lo.w.ALU_OP = mu::ALU_OR;
  lo.w.ALU_IMMSEL = mu::IMM_LO;
  lo.w.ALU_IMM = (uint32_t)c;
  lo.regs = {
      {&Word::ALU_RD, r}, {&Word::ALU_RA, m.r0()}, {&Word::ALU_RB, m.r0()}};
  lo.writes = {r};
  place(lo);
  if (c >> 32) {
    MOp hi = op(UAlu, Machine::Init);
    hi.w.ALU_OP = mu::ALU_OR;
    hi.w.ALU_IMMSEL = mu::IMM_HI;
    hi.w.ALU_IMM = (uint32_t)(c >> 32);
    hi.regs = {{&Word::ALU_RD, r}, {&Word::ALU_RA, r}, {&Word::ALU_RB, r}};
    hi.reads = {r};
    hi.writes = {r};
    place(hi);
  }
  rConsts[c] = r;
  return r;
}

int Backend::constT(uint64_t c) {
  if (c == ~0ull)
    return m.t0();
  auto it = tConsts.find(c);
  if (it != tConsts.end())
    return it->second;
  int src = constR(c);
  int t = m.newReg(FT);
  MOp cp = op(UCp, Machine::Init);
  cp.w.CP_OP = mu::CP_TERN;
  cp.regs = {{&Word::CP_SRC, src}, {&Word::CP_TD, t}, {&Word::CP_PRED, m.p0()}};
  cp.reads = {src};
  cp.writes = {t};
  place(cp);
  tConsts[c] = t;
  return t;
}

/// Header values used by the item loop must survive it: the first three
/// header words share registers with item words, so they are copied.
int Backend::stable(int vreg, int block, File f) {
  bool shared = false;
  for (unsigned k = 0; k < 3; ++k)
    shared |= vreg == hdrR[k] || vreg == hdrT[k];
  if (block != Machine::Item || !shared)
    return vreg;
  auto key = std::make_pair(vreg, (int)f);
  auto it = stableCopies.find(key);
  if (it != stableCopies.end())
    return it->second;
  int src = vreg;
  for (unsigned k = 0; k < 3; ++k)
    if (vreg == hdrT[k])
      src = hdrR[k]; // T copies come from the R twin
  int copy = m.newReg(f);
  MOp o = op(f == FR ? UAlu : UCp, Machine::Header);
  if (f == FR) {
    o.w.ALU_OP = mu::ALU_OR;
    o.regs = {{&Word::ALU_RD, copy},
              {&Word::ALU_RA, src},
              {&Word::ALU_RB, m.r0()},
              {&Word::ALU_PRED, m.p0()}};
  } else {
    o.w.CP_OP = mu::CP_TERN;
    o.regs = {
        {&Word::CP_SRC, src}, {&Word::CP_TD, copy}, {&Word::CP_PRED, m.p0()}};
  }
  o.reads = {src};
  o.writes = {copy};
  place(o, 3);
  stableCopies[key] = copy;
  return copy;
}

int Backend::rOf(const IntVal &v, int block, Location loc) {
  if (v.isConst)
    return constR(v.c << v.lsb);
  if (v.r < 0) {
    error(loc, "value is only in the ternary file; the ALU cannot read it");
    return m.r0();
  }
  return stable(v.r, block, FR);
}

int Backend::tOf(const IntVal &v, int block, Location loc) {
  if (v.isConst)
    return constT(v.c << v.lsb);
  if (v.t >= 0)
    return stable(v.t, block, FT);
  if (v.r < 0) {
    error(loc, "value has no register");
    return m.t0();
  }
  // Copy the ALU value into the ternary file.
  auto key = std::make_pair(v.r, (int)FT + 16);
  auto it = stableCopies.find(key);
  if (it != stableCopies.end())
    return it->second;
  int src = stable(v.r, block, FR);
  int t = m.newReg(FT);
  MOp cp = op(UCp, v.block);
  cp.w.CP_OP = mu::CP_TERN;
  cp.regs = {{&Word::CP_SRC, src}, {&Word::CP_TD, t}, {&Word::CP_PRED, m.p0()}};
  cp.reads = {src};
  cp.writes = {t};
  place(cp, v.block == Machine::Header ? 3 : 0);
  stableCopies[key] = t;
  if (v.block == Machine::Item)
    itemCopies.push_back(key);
  return t;
}

//===----------------------------------------------------------------------===//
// Integer values
//===----------------------------------------------------------------------===//

IntVal Backend::intVal(Value v) {
  auto it = ints.find(v);
  if (it != ints.end())
    return it->second;
  IntVal out;
  Operation *def = v.getDefiningOp();
  Location loc = def ? def->getLoc() : program.getLoc();
  auto blockOf = [](const IntVal &a, const IntVal &b) {
    return std::max(a.block, b.block);
  };
  if (auto c = dyn_cast_or_null<arith::ConstantOp>(def)) {
    out.isConst = true;
    out.c = cast<IntegerAttr>(c.getValue()).getValue().getZExtValue();
    out.width = v.getType().getIntOrFloatBitWidth();
  } else if (auto hw = dyn_cast_or_null<match::HeaderWordOp>(def)) {
    unsigned k = hw.getIndex();
    out.r = hdrR[k];
    out.t = hdrT[k];
    out.block = Machine::Header;
  } else if (auto iw = dyn_cast_or_null<match::ItemWordOp>(def)) {
    unsigned k = iw.getIndex();
    out.r = itemR[k];
    out.t = itemT[k];
    out.block = Machine::Item;
  } else if (auto f = dyn_cast_or_null<match::FieldOp>(def)) {
    out = intVal(f.getWord());
    out.lsb += f.getLsb();
    out.width = f.getWidth();
  } else if (isa_and_nonnull<arith::ExtUIOp, arith::TruncIOp>(def)) {
    // Kept in place; compares look only at the field's lanes or mask, and
    // a widened field is only sound if nothing above it is set.
    IntVal in = intVal(def->getOperand(0));
    unsigned w = v.getType().getIntOrFloatBitWidth();
    if (isa<arith::ExtUIOp>(def) && !in.isConst && in.lsb + in.width != 64 &&
        in.lsb + w > 64)
      error(loc, "the match unit cannot widen this field in place");
    out = in;
    out.width = in.isConst ? w : std::min(w, 64 - in.lsb);
    if (in.isConst && w < 64)
      out.c &= (1ull << w) - 1;
  } else if (isa_and_nonnull<arith::AndIOp, arith::OrIOp, arith::XOrIOp,
                             arith::AddIOp, arith::SubIOp>(def)) {
    IntVal a = intVal(def->getOperand(0)), b = intVal(def->getOperand(1));
    if (a.isConst && !b.isConst && !isa<arith::SubIOp>(def))
      std::swap(a, b);
    if (!a.isConst && !b.isConst && a.lsb != b.lsb)
      error(loc, "operands lie at different bit positions; the match unit "
                 "has no shifter");
    unsigned alu = isa<arith::AndIOp>(def)   ? mu::ALU_AND
                   : isa<arith::OrIOp>(def)  ? mu::ALU_OR
                   : isa<arith::XOrIOp>(def) ? mu::ALU_XOR
                   : isa<arith::AddIOp>(def) ? mu::ALU_ADD
                                             : mu::ALU_SUB;
    out.lsb = a.isConst ? b.lsb : a.lsb;
    out.width = v.getType().getIntOrFloatBitWidth();
    out.block = blockOf(a, b);
    if (out.block == Machine::Init)
      out.block = Machine::Header;
    MOp o = op(UAlu, out.block);
    o.w.ALU_OP = alu;
    a.lsb = b.lsb = out.lsb;
    int ra = rOf(a, out.block, loc);
    int rb = m.r0();
    if (b.isConst && immediate(b.c, out.lsb, out.width, o.w)) {
      rb = m.r0();
    } else {
      rb = rOf(b, out.block, loc);
    }
    unsigned simd, lanes;
    if ((alu == mu::ALU_ADD || alu == mu::ALU_SUB) && out.width < 64) {
      if (!fieldLanes(out.lsb, out.width, simd, lanes))
        error(loc, "the match unit adds only 16-bit aligned fields");
      o.w.ALU_SIMD = simd;
    } else {
      o.w.ALU_SIMD = mu::DefaultSimd;
    }
    out.r = m.newReg(FR);
    o.regs = {{&Word::ALU_RD, out.r},
              {&Word::ALU_RA, ra},
              {&Word::ALU_RB, rb},
              {&Word::ALU_PRED, m.p0()}};
    o.reads = {ra, rb};
    o.writes = {out.r};
    place(o, out.block == Machine::Header ? 3 : 0);
  } else if (auto sel = dyn_cast_or_null<arith::SelectOp>(def)) {
    BoolVal c = boolVal(sel.getCondition());
    if (c.isConst)
      return rememberInt(
          v, intVal(c.c ? sel.getTrueValue() : sel.getFalseValue()));
    IntVal a = intVal(sel.getTrueValue()), b = intVal(sel.getFalseValue());
    out.lsb = a.isConst ? b.lsb : a.lsb;
    out.width = v.getType().getIntOrFloatBitWidth();
    if (!a.isConst && !b.isConst && a.lsb != b.lsb)
      error(loc, "select of values at different bit positions");
    a.lsb = b.lsb = out.lsb;
    out.block = std::max(std::max(a.block, b.block), c.block);
    if (out.block == Machine::Init)
      out.block = Machine::Header;
    // When an operand dies here and lives in a temporary of this block, the
    // select overwrites it under the (possibly inverted) condition: one op.
    auto reusable = [&](Value v, const IntVal &iv) {
      if (iv.isConst || iv.r < 0 || iv.block != out.block)
        return false;
      // Every other user must already be selected (placed earlier), so
      // this select is the last reader of the register.
      for (Operation *user : v.getUsers())
        if (user != sel.getOperation() &&
            !(user->getNumResults() == 1 && (ints.count(user->getResult(0)) ||
                                             bools.count(user->getResult(0)))))
          return false;
      if (m.regs()[iv.r].phys >= 0)
        return false;
      for (unsigned k = 0; k < kWords; ++k)
        if (iv.r == hdrR[k] || iv.r == itemR[k])
          return false;
      return true;
    };
    if (!c.isConst &&
        (reusable(sel.getFalseValue(), b) || reusable(sel.getTrueValue(), a))) {
      bool intoFalse = reusable(sel.getFalseValue(), b);
      const IntVal &keep = intoFalse ? b : a, &other = intoFalse ? a : b;
      int p = predOf(c, out.block);
      int ro = rOf(other, out.block, loc);
      out.r = keep.r;
      // Compares still to be placed that read the register must read it
      // before it is overwritten: place them now.
      for (Lazy &l : lazies)
        if (!l.done && std::find(l.op.reads.begin(), l.op.reads.end(),
                                 keep.r) != l.op.reads.end()) {
          l.done = true;
          place(l.op, l.minWord);
        }
      MOp mov = op(UAlu, out.block);
      mov.w.ALU_OP = mu::ALU_OR;
      mov.w.ALU_PNEG = intoFalse ? c.neg : !c.neg;
      mov.regs = {{&Word::ALU_RD, out.r},
                  {&Word::ALU_RA, ro},
                  {&Word::ALU_RB, m.r0()},
                  {&Word::ALU_PRED, p}};
      mov.reads = {ro, p};
      mov.writes = {out.r};
      place(mov, out.block == Machine::Header ? 3 : 0);
      ints[v] = out;
      return out;
    }
    out.r = m.newReg(FR);
    // dst = false value; dst = true value if the condition holds.
    int rb = rOf(b, out.block, loc), ra = rOf(a, out.block, loc);
    MOp first = op(UAlu, out.block);
    first.w.ALU_OP = mu::ALU_OR;
    first.regs = {{&Word::ALU_RD, out.r},
                  {&Word::ALU_RA, rb},
                  {&Word::ALU_RB, m.r0()},
                  {&Word::ALU_PRED, m.p0()}};
    first.reads = {rb};
    first.writes = {out.r};
    place(first, out.block == Machine::Header ? 3 : 0);
    if (c.isConst) {
      if (c.c) {
        MOp again = first;
        again.regs[1].vreg = ra;
        again.reads = {ra};
        place(again, out.block == Machine::Header ? 3 : 0);
      }
    } else {
      int p = predOf(c, out.block);
      MOp second = op(UAlu, out.block);
      second.w.ALU_OP = mu::ALU_OR;
      second.w.ALU_PNEG = c.neg;
      second.regs = {{&Word::ALU_RD, out.r},
                     {&Word::ALU_RA, ra},
                     {&Word::ALU_RB, m.r0()},
                     {&Word::ALU_PRED, p}};
      second.reads = {ra, p};
      second.writes = {out.r};
      place(second, out.block == Machine::Header ? 3 : 0);
    }
  } else if (def) {
    StringRef name = def->getName().getStringRef();
    if (isa<arith::MulIOp>(def))
      error(loc, "the match unit has no multiplier");
    else if (isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp,
                 arith::RemSIOp>(def))
      error(loc, "the match unit has no divider");
    else if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(def))
      error(loc, "the match unit has no shifter");
    else
      error(loc, "'" + name + "' has no match-unit instruction");
  } else {
    error(loc, "unsupported value");
  }
  return rememberInt(v, out);
}

//===----------------------------------------------------------------------===//
// Booleans
//===----------------------------------------------------------------------===//

/// The register a boolean lives in, materialising constants through p0.
int Backend::predOf(const BoolVal &b, int block) {
  (void)block;
  if (b.isConst)
    return m.p0();
  materialize(b);
  return b.p;
}

/// ALU compares invert by opcode; ternary ones cannot.
static bool invertAlu(MOp &o) {
  if (o.unit != UAlu)
    return false;
  static const unsigned pairs[][2] = {{mu::ALU_EQ, mu::ALU_NE},
                                      {mu::ALU_LTU, mu::ALU_GEU},
                                      {mu::ALU_LEU, mu::ALU_GTU},
                                      {mu::ALU_LTS, mu::ALU_GES}};
  for (auto &pr : pairs)
    for (int k = 0; k < 2; ++k)
      if (o.w.ALU_OP == pr[k]) {
        o.w.ALU_OP = pr[1 - k];
        return true;
      }
  return false;
}

/// and/or of two compares not placed yet: the second writes the first's
/// predicate with acc=and/or (De Morgan when both are negated), saving a
/// predicate-unit operation and a word.
bool Backend::accumulate(unsigned fn, BoolVal a, BoolVal b, BoolVal &out) {
  if (!exclusiveOperands || (fn != 0x8 && fn != 0xe) || !pending(a) ||
      !pending(b) || a.lazy == b.lazy)
    return false;
  MOp &oa = lazies[a.lazy].op, &ob = lazies[b.lazy].op;
  auto flippable = [](MOp &o) {
    MOp copy = o;
    return invertAlu(copy);
  };
  bool isAnd = fn == 0x8, negOut;
  // Both positive: acc = fn. Both negated: acc = dual fn, result negated.
  bool pos = (!a.neg || flippable(oa)) && (!b.neg || flippable(ob));
  bool negd = (a.neg || flippable(oa)) && (b.neg || flippable(ob));
  if (pos) {
    if (a.neg)
      invertAlu(oa);
    if (b.neg)
      invertAlu(ob);
    negOut = false;
  } else if (negd) {
    if (!a.neg)
      invertAlu(oa);
    if (!b.neg)
      invertAlu(ob);
    isAnd = !isAnd;
    negOut = true;
  } else {
    return false;
  }
  // ALU before ternary: both may then share a word.
  bool aFirst = !(oa.unit == UTern && ob.unit == UAlu);
  Lazy &first = lazies[aFirst ? a.lazy : b.lazy];
  Lazy &second = lazies[aFirst ? b.lazy : a.lazy];
  int p = aFirst ? a.p : b.p;
  int old = aFirst ? b.p : a.p;
  for (RegField &f : second.op.regs)
    if (f.vreg == old)
      f.vreg = p;
  second.op.writes = {p};
  second.op.reads.push_back(p);
  second.op.accumulates = true;
  unsigned acc = isAnd ? mu::ACC_AND : mu::ACC_OR;
  if (second.op.unit == UAlu)
    second.op.w.ALU_ACC = acc;
  else
    second.op.w.TERN_ACC = acc;
  first.done = second.done = true;
  place(first.op, first.minWord);
  place(second.op, std::max(second.minWord, 0));
  out = BoolVal();
  out.p = p;
  out.neg = negOut;
  out.block = std::max(a.block, b.block);
  return true;
}

BoolVal Backend::logic(unsigned fn, BoolVal a, BoolVal b, int block) {
  BoolVal acc;
  bool accumulated = accumulate(fn, a, b, acc);
  exclusiveOperands = false;
  if (accumulated)
    return acc;
  // Fold negations into the truth table: f(a', b') with a' = a ^ na.
  auto flipA = [](unsigned f) { return ((f >> 2) & 3) | ((f & 3) << 2); };
  auto flipB = [](unsigned f) { return ((f & 0x5) << 1) | ((f & 0xa) >> 1); };
  if (a.isConst) { // a is p0 (true); make it true by negation
    if (!a.c)
      fn = flipA(fn);
  } else if (a.neg) {
    fn = flipA(fn);
  }
  if (b.isConst) {
    if (!b.c)
      fn = flipB(fn);
  } else if (b.neg) {
    fn = flipB(fn);
  }
  BoolVal out;
  out.block = std::max(std::max(a.block, b.block), block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  out.p = m.newReg(FP);
  int pa = predOf(a, out.block), pb = predOf(b, out.block);
  MOp o = op(UPred, out.block);
  o.w.PRED_FN0 = fn; // moved to unit 1 at emission if needed
  o.regs = {
      {&Word::PRED_DST0, out.p}, {&Word::PRED_A0, pa}, {&Word::PRED_B0, pb}};
  o.reads = {pa, pb};
  o.writes = {out.p};
  place(o, out.block == Machine::Header ? 3 : 0);
  return out;
}

BoolVal Backend::ternaryEq(const IntVal &a, const IntVal &b, const IntVal *mask,
                           Location loc) {
  BoolVal out;
  out.block = std::max(a.block, b.block);
  if (mask)
    out.block = std::max(out.block, mask->block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  MOp o = op(UTern, out.block);
  o.w.TERN_OP = mu::TERN_EQ;
  int ta = tOf(a, out.block, loc);
  unsigned fsimd, flanes;
  uint64_t fieldOnes = a.width == 64 ? ~0ull : (1ull << a.width) - 1;
  // A constant of all ones within lane-selected bits is t0 itself.
  int tb = !mask && b.isConst && (b.c & fieldOnes) == fieldOnes &&
                   fieldLanes(a.lsb, a.width, fsimd, flanes)
               ? m.t0()
               : tOf(b, out.block, loc);
  int tm;
  unsigned simd, lanes;
  if (mask) {
    tm = tOf(*mask, out.block, loc);
    o.w.TERN_SIMD = mu::DefaultSimd;
    o.w.TERN_LANES = mu::DefaultLanes;
  } else if (fieldLanes(a.lsb, a.width, simd, lanes)) {
    tm = m.t0();
    o.w.TERN_SIMD = simd;
    o.w.TERN_LANES = lanes;
  } else {
    uint64_t bits = a.width == 64 ? ~0ull : ((1ull << a.width) - 1) << a.lsb;
    tm = constT(bits);
    o.w.TERN_SIMD = mu::DefaultSimd;
    o.w.TERN_LANES = mu::DefaultLanes;
  }
  out.p = m.newReg(FC);
  o.regs = {{&Word::TERN_TA, ta}, {&Word::TERN_TB, tb}, {&Word::TERN_TM, tm}};
  o.reads = {ta, tb, tm};
  o.writes = {out.p};
  o.regs.push_back({&Word::TERN_CMPD, out.p});
  return defer(std::move(o), out.block == Machine::Header ? 3 : 0, out.p,
               out.block);
}

BoolVal Backend::aluCompare(unsigned aluOp, const IntVal &a, const IntVal &b,
                            Location loc) {
  BoolVal out;
  out.block = std::max(a.block, b.block);
  if (out.block == Machine::Init)
    out.block = Machine::Header;
  MOp o = op(UAlu, out.block);
  o.w.ALU_OP = aluOp;
  unsigned lsb = a.isConst ? b.lsb : a.lsb, width = a.width;
  unsigned simd = mu::DefaultSimd, lanes = mu::DefaultLanes;
  if (!(lsb == 0 && width == 64) && !fieldLanes(lsb, width, simd, lanes))
    error(loc, "the match unit compares only 16-bit aligned fields in order");
  o.w.ALU_SIMD = simd;
  o.w.ALU_LANES = lanes;
  IntVal aa = a, bb = b;
  aa.lsb = bb.lsb = lsb;
  int ra = rOf(aa, out.block, loc);
  int rb = m.r0();
  if (!(bb.isConst && immediate(bb.c, lsb, width, o.w)))
    rb = rOf(bb, out.block, loc);
  out.p = m.newReg(FC);
  o.regs = {{&Word::ALU_RA, ra}, {&Word::ALU_RB, rb}, {&Word::ALU_CMPD, out.p}};
  o.reads = {ra, rb};
  o.writes = {out.p};
  return defer(std::move(o), out.block == Machine::Header ? 3 : 0, out.p,
               out.block);
}

BoolVal Backend::compare(arith::CmpIOp cmp) {
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  Location loc = cmp.getLoc();
  if (isConstant(lhs) && !isConstant(rhs)) {
    std::swap(lhs, rhs);
    switch (pred) {
    case P::ult:
      pred = P::ugt;
      break;
    case P::ule:
      pred = P::uge;
      break;
    case P::ugt:
      pred = P::ult;
      break;
    case P::uge:
      pred = P::ule;
      break;
    case P::slt:
      pred = P::sgt;
      break;
    case P::sle:
      pred = P::sge;
      break;
    case P::sgt:
      pred = P::slt;
      break;
    case P::sge:
      pred = P::sle;
      break;
    default:
      break;
    }
  }
  if (pred == P::eq || pred == P::ne) {
    bool ne = pred == P::ne;
    // ((x ^ y) & m) == 0 and (x & K) == 0: equality under a mask. The
    // operands are only selected once the pattern is known, so that the
    // xor and the and are never computed.
    if (isConstant(rhs) && constantOf(rhs) == 0) {
      if (auto andOp = lhs.getDefiningOp<arith::AndIOp>()) {
        Value x = andOp.getLhs(), k = andOp.getRhs();
        if (isConstant(x))
          std::swap(x, k);
        auto xorOp = x.getDefiningOp<arith::XOrIOp>();
        if (xorOp && !isConstant(k) && !isConstant(xorOp.getLhs()) &&
            !isConstant(xorOp.getRhs())) {
          IntVal p = intVal(xorOp.getLhs()), q = intVal(xorOp.getRhs());
          IntVal kv = intVal(k);
          if (p.lsb == q.lsb && kv.lsb == p.lsb) {
            BoolVal eq = ternaryEq(p, q, &kv, loc);
            return ne ? notOf(eq) : eq;
          }
        }
        IntVal kv = intVal(k), xv = intVal(x);
        if (kv.isConst && !xv.isConst) {
          IntVal zero;
          zero.isConst = true;
          zero.c = 0;
          zero.lsb = xv.lsb;
          IntVal mask = kv;
          mask.lsb = xv.lsb;
          BoolVal eq = ternaryEq(xv, zero, &mask, loc);
          return ne ? notOf(eq) : eq;
        }
      }
    }
    IntVal a = intVal(lhs), b = intVal(rhs);
    if (!a.isConst && !b.isConst) {
      if (a.lsb != b.lsb)
        error(loc, "compared fields lie at different bit positions; the match "
                   "unit has no shifter");
      // Both units compare lane-aligned fields; take the one free first.
      unsigned fs, fl;
      if (a.r >= 0 && b.r >= 0 && fieldLanes(a.lsb, a.width, fs, fl)) {
        int block = std::max({a.block, b.block, (int)Machine::Header});
        int minWord = block == Machine::Header ? 3 : 0;
        MOp ta = op(UTern, block), al = op(UAlu, block);
        ta.reads = {stable(a.t >= 0 ? a.t : a.r, block, FT),
                    stable(b.t >= 0 ? b.t : b.r, block, FT)};
        al.reads = {stable(a.r, block, FR), stable(b.r, block, FR)};
        if (m.wouldPlaceAt(al, minWord) < m.wouldPlaceAt(ta, minWord))
          return aluCompare(ne ? mu::ALU_NE : mu::ALU_EQ, a, b, loc);
      }
      BoolVal eq = ternaryEq(a, b, nullptr, loc);
      return ne ? notOf(eq) : eq;
    }
    Word probe;
    unsigned simd, lanes;
    // Values that are in the ternary file anyway (item words) can compare
    // there or in the ALU: take the unit free earlier.
    bool aluOk = b.isConst && immediate(b.c, a.lsb, a.width, probe) &&
                 (fieldLanes(a.lsb, a.width, simd, lanes) ||
                  (a.lsb == 0 && a.width == 64)) &&
                 a.r >= 0;
    bool ternOk =
        b.isConst && a.t >= 0 && fieldLanes(a.lsb, a.width, simd, lanes);
    if (aluOk && ternOk) {
      int block = std::max(a.block, (int)Machine::Header);
      int minWord = block == Machine::Header ? 3 : 0;
      MOp ta = op(UTern, block), al = op(UAlu, block);
      ta.reads = {stable(a.t, block, FT)};
      al.reads = {stable(a.r, block, FR)};
      aluOk = m.wouldPlaceAt(al, minWord) <= m.wouldPlaceAt(ta, minWord);
    }
    if (aluOk)
      return aluCompare(ne ? mu::ALU_NE : mu::ALU_EQ, a, b, loc);
    b.lsb = a.lsb;
    BoolVal eq = ternaryEq(a, b, nullptr, loc);
    return ne ? notOf(eq) : eq;
  }
  IntVal a = intVal(lhs), b = intVal(rhs);
  unsigned op = pred == P::ult   ? mu::ALU_LTU
                : pred == P::ule ? mu::ALU_LEU
                : pred == P::ugt ? mu::ALU_GTU
                : pred == P::uge ? mu::ALU_GEU
                : pred == P::slt ? mu::ALU_LTS
                                 : mu::ALU_GES; // sge
  if (pred == P::sle || pred == P::sgt) {
    // a <= b is !(a > b) = !(b < a): swap operands of lts.
    if (a.isConst)
      error(loc, "compare a constant with a value, not the reverse");
    BoolVal lt = aluCompare(mu::ALU_LTS, b, a, loc);
    return pred == P::sle ? notOf(lt) : lt;
  }
  return aluCompare(op, a, b, loc);
}

BoolVal Backend::boolVal(Value v) {
  auto it = bools.find(v);
  if (it != bools.end())
    return it->second;
  BoolVal out;
  auto assumed = spec.find(v);
  if (assumed != spec.end()) {
    out.isConst = true;
    out.c = assumed->second;
    return rememberBool(v, out);
  }
  Operation *def = v.getDefiningOp();
  Location loc = def ? def->getLoc() : program.getLoc();
  if (auto c = dyn_cast_or_null<arith::ConstantOp>(def)) {
    out.isConst = true;
    out.c = cast<IntegerAttr>(c.getValue()).getValue().getBoolValue();
  } else if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def)) {
    out = compare(cmp);
    // A header condition lives through the item loop: keep it in the
    // predicate unit's file, where the eight compare targets are not
    // needed per item.
    if (out.block == Machine::Header && !out.isConst)
      out = logic(0xc, out, out, Machine::Header);
  } else if (auto x = dyn_cast_or_null<arith::XOrIOp>(def)) {
    BoolVal a = boolVal(x.getLhs()), b = boolVal(x.getRhs());
    if (b.isConst)
      out = b.c ? notOf(a) : a;
    else if (a.isConst)
      out = a.c ? notOf(b) : b;
    else
      out = logic(0x6, a, b, Machine::Header);
  } else if (isa_and_nonnull<arith::AndIOp, arith::OrIOp>(def)) {
    bool isAnd = isa<arith::AndIOp>(def);
    // A constant operand that decides the result spares the other one.
    BoolVal a = boolVal(def->getOperand(0));
    if (a.isConst && a.c != isAnd)
      return rememberBool(v, a);
    BoolVal b = boolVal(def->getOperand(1));
    exclusiveOperands =
        def->getOperand(0).hasOneUse() && def->getOperand(1).hasOneUse();
    if (a.isConst)
      std::swap(a, b);
    if (b.isConst)
      out = isAnd ? (b.c ? a : b) : (b.c ? b : a);
    else
      out = logic(isAnd ? 0x8 : 0xe, a, b, Machine::Header);
  } else if (auto sel = dyn_cast_or_null<arith::SelectOp>(def)) {
    BoolVal c = boolVal(sel.getCondition());
    BoolVal t = boolVal(sel.getTrueValue()), f = boolVal(sel.getFalseValue());
    BoolVal ct = logic(0x8, c, t, Machine::Header);
    BoolVal cf = logic(0x8, notOf(c), f, Machine::Header);
    out = logic(0xe, ct, cf, Machine::Header);
  } else {
    error(loc, "unsupported condition");
    out.isConst = true;
  }
  (void)loc;
  return rememberBool(v, out);
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

void Backend::input(int block, int word, int r, int t, int endp) {
  MOp o = op(UIn, block);
  o.w.IN_OP = mu::IN_BOTH;
  o.w.IN_TPERM = 0xe4;
  o.regs = {{&Word::IN_RD, r}, {&Word::IN_TD, t}};
  o.writes = {r, t};
  if (endp >= 0) {
    o.regs.push_back({&Word::IN_ENDP, endp});
    o.writes.push_back(endp);
  }
  place(o, 0, word);
}

void Backend::readWords() {
  // Shared registers of the END trick: item words 1-3 = header words 0-2.
  for (unsigned k = 0; k < 3; ++k) {
    // Distinct virtual registers on one physical register: the header
    // values are copied before the item loop reuses it.
    hdrR[k] = m.newReg(FR, 1 + k);
    hdrT[k] = m.newReg(FT, 1 + k);
    itemR[k + 1] = m.newReg(FR, 1 + k);
    itemT[k + 1] = m.newReg(FT, 1 + k);
  }
  for (unsigned k = 3; k < kWords; ++k) {
    hdrR[k] = m.newReg(FR);
    hdrT[k] = m.newReg(FT);
  }
  itemR[0] = m.newReg(FR);
  itemT[0] = m.newReg(FT);
  for (unsigned k = 4; k < kWords; ++k) {
    itemR[k] = m.newReg(FR);
    itemT[k] = m.newReg(FT);
  }
  pEnd = m.newReg(FC, 15);
  for (unsigned k = 0; k < kWords; ++k) {
    input(Machine::Header, k, hdrR[k], hdrT[k], -1);
    input(Machine::Item, k, itemR[k], itemT[k], k == 0 ? pEnd : -1);
  }
  // An END read at item word 0 leaves for the header (no match).
  MOp br = op(UBr, Machine::Item);
  br.w.BR_OP = mu::BR_IF1;
  br.regs = {{&Word::BR_PRED, pEnd}};
  br.reads = {pEnd};
  br.target = "hdr4";
  place(br, 0, 1);
}

/// A test of option bits of an item field: (x & K) == 0 or != 0.
static bool isFlagTest(Value v, Value &field, uint64_t &bits) {
  auto cmp = v.getDefiningOp<arith::CmpIOp>();
  if (!cmp || (cmp.getPredicate() != arith::CmpIPredicate::eq &&
               cmp.getPredicate() != arith::CmpIPredicate::ne))
    return false;
  if (!isConstant(cmp.getRhs()) || constantOf(cmp.getRhs()) != 0)
    return false;
  auto andOp = cmp.getLhs().getDefiningOp<arith::AndIOp>();
  if (!andOp || !isConstant(andOp.getRhs()))
    return false;
  field = andOp.getLhs();
  bits = constantOf(andOp.getRhs());
  return field.getDefiningOp<match::FieldOp>() &&
         field.getDefiningOp<match::FieldOp>()
             .getWord()
             .getDefiningOp<match::ItemWordOp>();
}

/// Operations that cost ALU time per item: arithmetic and ordered compares.
static bool isArithmetic(Operation *op) {
  if (isa<arith::AddIOp, arith::SubIOp, arith::SelectOp>(op))
    return true;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return cmp.getPredicate() != arith::CmpIPredicate::eq &&
           cmp.getPredicate() != arith::CmpIPredicate::ne;
  return false;
}

/// Collects the defining operations of `v`'s cone.
static void cone(Value v, llvm::SmallPtrSetImpl<Operation *> &seen) {
  Operation *def = v.getDefiningOp();
  if (!def || !seen.insert(def).second)
    return;
  for (Value o : def->getOperands())
    cone(o, seen);
}

static bool dependsOnItem(Value v) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  cone(v, seen);
  return llvm::any_of(seen,
                      [](Operation *op) { return isa<match::ItemWordOp>(op); });
}

/// `(x & K) == 0` for an item field x and constant K: bits that must be
/// set for the item to match.
static bool isBitsClear(Value v, Value &field, uint64_t &bits) {
  return isFlagTest(v, field, bits) &&
         v.getDefiningOp<arith::CmpIOp>().getPredicate() ==
             arith::CmpIPredicate::eq;
}

/// Option-bit checks of one item field, each unconditional or under a
/// header condition (Figure 1's valid bit and PUT/GET permissions), become
/// one check: the header ORs the required bits into a mask M, and the item
/// passes if `(x & M) == M`, one ternary compare.
std::vector<Backend::Check>
Backend::foldMaskChecks(const std::vector<Value> &conds) {
  std::vector<Check> out;
  std::map<Operation *, int> byField; // field op -> mask index
  for (size_t i = 0; i < conds.size(); ++i) {
    Value c = conds[i], field, hdr;
    uint64_t bits = 0;
    bool foldable = false;
    if (i > 0 && isBitsClear(c, field, bits)) {
      foldable = true;
    } else if (auto a = c.getDefiningOp<arith::AndIOp>(); a && i > 0) {
      for (int side = 0; side < 2 && !foldable; ++side) {
        Value x = side ? a.getLhs() : a.getRhs();
        Value h = side ? a.getRhs() : a.getLhs();
        if (isBitsClear(x, field, bits) && !dependsOnItem(h)) {
          hdr = h;
          foldable = true;
        }
      }
    }
    if (!foldable) {
      out.push_back({c, -1});
      continue;
    }
    auto it = byField.find(field.getDefiningOp());
    if (it == byField.end()) {
      masks.push_back({field, {}, -1});
      it = byField.emplace(field.getDefiningOp(), (int)masks.size() - 1).first;
      out.push_back({Value(), it->second});
    }
    masks[it->second].parts.push_back({hdr, bits});
  }
  // A single unconditional part gains nothing from a mask register.
  for (Check &c : out)
    if (c.mask >= 0 && masks[c.mask].parts.size() == 1 &&
        !masks[c.mask].parts[0].first) {
      // Rebuild the plain condition: keep it folded, the compare is the
      // same one ternary operation either way.
    }
  return out;
}

void Backend::coneOf(const Check &c, llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (c.mask < 0) {
    cone(c.v, seen);
    return;
  }
  cone(masks[c.mask].field, seen);
  for (auto &part : masks[c.mask].parts)
    if (part.first)
      cone(part.first, seen);
}

BoolVal Backend::maskOk(MaskCheck &mc) {
  IntVal x = intVal(mc.field);
  Location loc = mc.field.getLoc();
  if (mc.tern < 0) {
    // M in the header: the unconditional bits, then each guarded part.
    uint64_t always = 0;
    for (auto &part : mc.parts)
      if (!part.first)
        always |= part.second;
    int r = m.newReg(FR);
    MOp base = op(UAlu, Machine::Header);
    base.w.ALU_OP = mu::ALU_OR;
    if (!immediate(always, x.lsb, x.width, base.w))
      error(loc, "option bits do not fit the immediate");
    base.regs = {{&Word::ALU_RD, r},
                 {&Word::ALU_RA, m.r0()},
                 {&Word::ALU_RB, m.r0()},
                 {&Word::ALU_PRED, m.p0()}};
    base.writes = {r};
    place(base, 3);
    for (auto &part : mc.parts) {
      if (!part.first)
        continue;
      BoolVal h = boolVal(part.first);
      if (h.isConst && !h.c)
        continue;
      MOp o = op(UAlu, Machine::Header);
      o.w.ALU_OP = mu::ALU_OR;
      o.w.ALU_PNEG = !h.isConst && h.neg;
      if (!immediate(part.second, x.lsb, x.width, o.w))
        error(loc, "option bits do not fit the immediate");
      int p = predOf(h, Machine::Header);
      o.regs = {{&Word::ALU_RD, r},
                {&Word::ALU_RA, r},
                {&Word::ALU_RB, m.r0()},
                {&Word::ALU_PRED, p}};
      o.reads = {r, p};
      o.writes = {r};
      place(o, 3);
    }
    mc.tern = m.newReg(FT);
    MOp cp = op(UCp, Machine::Header);
    cp.w.CP_OP = mu::CP_TERN;
    cp.regs = {
        {&Word::CP_SRC, r}, {&Word::CP_TD, mc.tern}, {&Word::CP_PRED, m.p0()}};
    cp.reads = {r};
    cp.writes = {mc.tern};
    place(cp, 3);
  }
  // (x ^ M) & M == 0: every required bit is set.
  BoolVal out;
  out.block = Machine::Item;
  MOp o = op(UTern, Machine::Item);
  o.w.TERN_OP = mu::TERN_EQ;
  int tx = tOf(x, Machine::Item, loc);
  out.p = m.newReg(FC);
  o.regs = {{&Word::TERN_TA, tx},
            {&Word::TERN_TB, mc.tern},
            {&Word::TERN_TM, mc.tern},
            {&Word::TERN_CMPD, out.p}};
  o.reads = {tx, mc.tern};
  o.writes = {out.p};
  return defer(std::move(o), 0, out.p, Machine::Item);
}

LogicalResult Backend::run(CompiledProgram &out) {
  readWords();
  auto accept = cast<match::AcceptOp>(program.getBody().front().back());

  // Checks in source order; each contributes an "ok" predicate. Creation
  // order is the scheduling priority: the first checks (the most common
  // failures) go first for the early branch, then the answers, which are
  // the longest chain, then the remaining checks.
  // A failure that is an `or` is several failures (checked in order).
  std::vector<Value> flat;
  std::function<void(Value)> split = [&](Value c) {
    if (auto orOp = c.getDefiningOp<arith::OrIOp>()) {
      split(orOp.getLhs());
      split(orOp.getRhs());
      return;
    }
    flat.push_back(c);
  };
  for (Operation &o : program.getBody().front())
    if (auto f = dyn_cast<match::FailIfOp>(o))
      split(f.getCond());
  std::vector<Check> conds = foldMaskChecks(flat);
  auto andAll = [&](BoolVal acc, const BoolVal &next) {
    if (acc.isConst)
      return acc.c ? next : acc;
    exclusiveOperands = true; // each check's result is used once, here
    return logic(0x8, acc, next, Machine::Item);
  };
  auto okOf = [&](const Check &c) {
    return c.mask < 0 ? notOf(boolVal(c.v)) : maskOk(masks[c.mask]);
  };
  auto visible = [&](const BoolVal &b) {
    if (b.isConst)
      return 0;
    if (pending(b)) // an estimate: where it would go now
      return m.wouldPlaceAt(lazies[b.lazy].op, lazies[b.lazy].minWord) + 1;
    return m.visibleAt(b.block == Machine::Item ? itemBlock : b.block, b.p);
  };
  BoolVal okFast;
  okFast.isConst = true;
  okFast.c = true;
  // The early branch at word 5 tests the checks visible by then.
  size_t firstLate = 0;
  for (; firstLate < conds.size(); ++firstLate) {
    BoolVal ok = okOf(conds[firstLate]);
    BoolVal next = andAll(okFast, ok);
    if (visible(next) > 5 && firstLate > 0)
      break; // this check (computed already) joins the late ones
    okFast = next;
  }
  if (hasError)
    return reportError();

  // Speculation: option flags that guard arithmetic (remote offsets, size
  // limits, truncation in Figure 1) are assumed clear on the item path,
  // which then needs none of that arithmetic; one ternary test of all of
  // them sends items with a flag set to the general path.
  llvm::SmallPtrSet<Operation *, 32> lateCone, fastCone;
  for (size_t k = 0; k < firstLate; ++k)
    coneOf(conds[k], fastCone);
  std::vector<Value> lateRoots = {accept.getOffset(), accept.getLength()};
  for (size_t k = firstLate; k < conds.size(); ++k) {
    llvm::SmallPtrSet<Operation *, 32> c;
    coneOf(conds[k], c);
    if (llvm::any_of(c, isArithmetic))
      lateRoots.push_back(conds[k].v);
  }
  for (Value r : lateRoots)
    cone(r, lateCone);
  Value flagField;
  uint64_t flagBits = 0;
  bool speculate = true;
  for (Operation *op : lateCone) {
    Value field;
    uint64_t bits;
    if (op->getNumResults() != 1 || fastCone.count(op) ||
        !isFlagTest(op->getResult(0), field, bits))
      continue;
    if (flagField && field != flagField)
      speculate = false; // one ternary test must cover all of them
    flagField = field;
    flagBits |= bits;
    auto cmp = cast<arith::CmpIOp>(op);
    spec[op->getResult(0)] = cmp.getPredicate() == arith::CmpIPredicate::eq;
  }
  speculate &= (bool)flagField;
  if (!speculate)
    spec.clear();

  auto failOut = [&](int word, const BoolVal &ok) {
    materialize(ok);
    MOp o = op(UCp, Machine::Item);
    o.w.CP_OP = mu::CP_OUT;
    o.w.CP_TAG = mu::TAG_FAIL;
    o.w.CP_PNEG = !ok.neg;
    o.regs = {{&Word::CP_SRC, m.r0()}, {&Word::CP_PRED, ok.p}};
    o.reads = {ok.p};
    return place(o, word);
  };
  auto branch = [&](const BoolVal &p, bool ifTrue, const char *target,
                    int minWord, int fixed = -1) {
    materialize(p);
    MOp o = op(UBr, Machine::Item);
    o.w.BR_OP = (ifTrue != p.neg) ? mu::BR_IF1 : mu::BR_IF0;
    o.regs = {{&Word::BR_PRED, p.isConst ? m.p0() : p.p}};
    o.reads = {o.regs[0].vreg};
    o.target = target;
    return m.ops()[place(o, minWord, fixed)].word;
  };
  auto answer = [&](const IntVal &v, unsigned tag, int minWord,
                    const BoolVal &ok) {
    MOp o = op(UCp, Machine::Item);
    o.w.CP_OP = mu::CP_OUT;
    o.w.CP_TAG = tag;
    int r = rOf(v, Machine::Item, accept.getLoc());
    materialize(ok);
    int guard = ok.isConst ? m.p0() : ok.p;
    o.w.CP_PNEG = !ok.isConst && ok.neg;
    o.regs = {{&Word::CP_SRC, r}, {&Word::CP_PRED, guard}};
    o.reads = {r, guard};
    return m.ops()[place(o, minWord)].word;
  };
  // Answers and checks after the early branch: the offset, the remaining
  // checks combined as a tree (the two known first are joined first, so
  // the last adds one step), the length.
  auto late = [&](BoolVal start, IntVal &off, IntVal &len) {
    off = intVal(accept.getOffset());
    std::vector<BoolVal> terms = {start};
    for (size_t k = firstLate; k < conds.size(); ++k)
      terms.push_back(okOf(conds[k]));
    while (terms.size() > 1) {
      std::stable_sort(terms.begin(), terms.end(),
                       [&](const BoolVal &a, const BoolVal &b) {
                         return visible(a) < visible(b);
                       });
      BoolVal joined = andAll(terms[0], terms[1]);
      terms.erase(terms.begin(), terms.begin() + 2);
      terms.push_back(joined);
    }
    len = intVal(accept.getLength());
    return terms.front();
  };

  int lastBranch = -1;
  bool fastBranch = !okFast.isConst && visible(okFast) <= 5;
  if (fastBranch) {
    lastBranch = branch(okFast, false, "item", 5);
    failOut(lastBranch, okFast);
  }
  if (okFast.isConst && !okFast.c)
    return program.emitError("no list item can ever match"), failure();

  BoolVal okTrue;
  okTrue.isConst = true;
  okTrue.c = true;
  bool general = false;
  if (speculate) {
    // simple = every speculated flag is clear.
    IntVal x = intVal(flagField), zero, mask;
    zero.isConst = mask.isConst = true;
    zero.c = 0;
    mask.c = flagBits;
    zero.lsb = mask.lsb = x.lsb;
    BoolVal simple = ternaryEq(x, zero, &mask, accept.getLoc());
    int gb = branch(simple, false, "general",
                    std::max({6, lastBranch + 1, visible(simple)}));
    IntVal off, len;
    BoolVal ok = late(okTrue, off, len);
    if (hasError)
      return reportError();
    // Success jumps to the drain; a failure answers, falls into a jump back
    // (cancelled on success) and spends one word more.
    int d = std::max(visible(ok), gb + 3);
    if (ok.isConst && !ok.c)
      d = gb + 3;
    d = branch(ok, true, "matched", d);
    if (!ok.isConst)
      failOut(d, ok);
    branch(okTrue, true, "item", 0, d + 1);
    answer(off, mu::TAG_OFFSET, d + 1, ok);
    answer(len, mu::TAG_LENGTH, d + 2, ok);
    reserveItemWords = d + 4; // word d+3: the failing path's last slot

    // The general path: everything after the early branch, exactly.
    spec.clear();
    itemBlock = Machine::General;
    for (auto key : itemCopies)
      stableCopies.erase(key);
    auto keepCommon = [&](auto &memo) {
      for (auto it = memo.begin(); it != memo.end();) {
        auto cur = it++;
        if (cur->second.block == Machine::Item)
          memo.erase(cur);
      }
    };
    keepCommon(ints);
    keepCommon(bools);
    for (Value v : specMemo) {
      ints.erase(v);
      bools.erase(v);
    }
    IntVal goff, glen;
    BoolVal gok = late(okTrue, goff, glen);
    if (hasError)
      return reportError();
    int gd = std::max(0, visible(gok));
    if (!gok.isConst) {
      gd = branch(gok, false, "item", gd);
      failOut(gd, gok);
    }
    answer(goff, mu::TAG_OFFSET, gd + 1, gok);
    answer(glen, mu::TAG_LENGTH, gd + 2, gok);
    general = true;
  } else {
    IntVal off, len;
    BoolVal okAll = late(okFast, off, len);
    if (hasError)
      return reportError();
    if (okAll.isConst && !okAll.c)
      return program.emitError("no list item can ever match"), failure();
    bool slow = !okAll.isConst &&
                (!fastBranch || okAll.p != okFast.p || okAll.neg != okFast.neg);
    if (slow) {
      int at = std::max(lastBranch + 1, std::max(5, visible(okAll)));
      BoolVal failSlow = notOf(okAll);
      // In the delay slots of the early branch, an item it already
      // answered must not be answered twice.
      if (fastBranch && at <= lastBranch + 2) {
        failSlow = logic(0x8, okFast, notOf(okAll), Machine::Item);
        at = std::max(at, visible(failSlow));
      }
      lastBranch = branch(okAll, false, "item", at);
      failOut(lastBranch, notOf(failSlow));
    }
    lastBranch = std::max(lastBranch, 5);
    int offWord = answer(off, mu::TAG_OFFSET, lastBranch + 1, okAll);
    answer(len, mu::TAG_LENGTH, offWord + 1, okAll);
  }
  if (hasError)
    return reportError();
  if (failed(allocate()))
    return failure();
  layout(out, general);
  return success();
}

//===----------------------------------------------------------------------===//
// Register allocation
//===----------------------------------------------------------------------===//

static const char *fileName(File f) {
  switch (f) {
  case FR:
    return "ALU registers";
  case FT:
    return "ternary registers";
  case FC:
    return "compare predicates";
  case FP:
    return "predicate-unit predicates";
  }
  return "registers";
}

LogicalResult Backend::allocate() {
  const std::vector<VReg> &regs = m.regs();
  struct Range {
    int first = -1, last = -1;
    bool read = false;
    int block = -1;
    unsigned blocks = 0; // bit per block that touches it
  };
  std::vector<Range> ranges(regs.size());
  for (const MOp &o : m.ops()) {
    for (int w : o.writes) {
      Range &r = ranges[w];
      if (r.first < 0 || o.word < r.first)
        r.first = o.word;
      r.last = std::max(r.last, o.word);
      r.block = o.block;
      r.blocks |= 1u << o.block;
    }
    for (int rd : o.reads) {
      Range &r = ranges[rd];
      r.read = true;
      r.blocks |= 1u << o.block;
      r.last = std::max(r.last, o.word);
    }
  }
  phys.assign(regs.size(), -1);
  // Pools: ALU r1-r15, ternary t1-t15, compares p8-p14, logic p1-p7.
  auto poolOf = [](File f, int &lo, int &hi) {
    switch (f) {
    case FR:
    case FT:
      lo = 1, hi = 15;
      break;
    case FC:
      lo = 8, hi = 14;
      break;
    case FP:
      lo = 1, hi = 7;
      break;
    }
  };
  // Physical registers held for the whole program, per file.
  std::vector<bool> held[4];
  for (auto &h : held)
    h.assign(16, false);
  for (size_t v = 0; v < regs.size(); ++v)
    if (regs[v].phys >= 0) {
      phys[v] = regs[v].phys;
      held[regs[v].file][regs[v].phys] = true;
    }
  // Values used in more than one block (constants, header values read by
  // the item loop) live throughout.
  for (size_t v = 0; v < regs.size(); ++v) {
    unsigned b = ranges[v].blocks;
    if (phys[v] >= 0 || !ranges[v].read || (b & (b - 1)) == 0)
      continue;
    int lo, hi;
    poolOf(regs[v].file, lo, hi);
    for (int p = lo; p <= hi && phys[v] < 0; ++p)
      if (!held[regs[v].file][p]) {
        held[regs[v].file][p] = true;
        phys[v] = p;
      }
    if (phys[v] < 0)
      return program.emitError("too many values live across the list items "
                               "for the match unit's ")
                 << fileName(regs[v].file),
             failure();
  }
  // The rest by interval within their block; a register read in a word can
  // be written by another value in that word.
  struct Busy {
    int file, reg, block, first, last;
  };
  std::vector<Busy> busy;
  auto conflicts = [](const Busy &b, int block, int first, int last) {
    if (b.block != block)
      return false;
    return b.first == first || (b.first < last && first < b.last) ||
           (first == last && b.first < first && first < b.last);
  };
  for (size_t v = 0; v < regs.size(); ++v) {
    if (phys[v] >= 0)
      continue;
    const Range &r = ranges[v];
    if (r.first < 0)
      continue; // never written (unused)
    if (!r.read && (regs[v].file == FR || regs[v].file == FT)) {
      phys[v] = 0; // a dead write goes to r0 / t0
      continue;
    }
    int lo, hi;
    poolOf(regs[v].file, lo, hi);
    for (int p = lo; p <= hi && phys[v] < 0; ++p) {
      if (held[regs[v].file][p])
        continue;
      bool free = true;
      for (const Busy &b : busy)
        if (b.file == regs[v].file && b.reg == p &&
            conflicts(b, r.block, r.first, r.last))
          free = false;
      if (free) {
        phys[v] = p;
        busy.push_back({regs[v].file, p, r.block, r.first, r.last});
      }
    }
    if (phys[v] < 0)
      return program.emitError("too many live values for the match unit's ")
                 << fileName(regs[v].file),
             failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

void Backend::layout(CompiledProgram &out, bool general) {
  int init = m.blockLength(Machine::Init);
  int hdr = init;
  int hdrLen = std::max<int>(kWords, m.blockLength(Machine::Header));
  int item = hdr + hdrLen;
  int itemLen = std::max(m.blockLength(Machine::Item), reserveItemWords);
  int gen = item + itemLen;
  int genLen = general ? m.blockLength(Machine::General) : 0;
  int matched = gen + genLen;
  int flush = matched + 8;
  int total = flush + 8;
  out.words.assign(total, Word());
  out.labels.assign(total, "");
  out.labels[hdr] = "hdr";
  out.labels[hdr + 3] = "hdr4";
  out.labels[item] = "item";
  if (general)
    out.labels[gen] = "general";
  out.labels[matched] = "matched";
  out.labels[flush] = "flush";
  std::map<std::string, int> address = {{"hdr", hdr},         {"hdr4", hdr + 3},
                                        {"item", item},       {"general", gen},
                                        {"matched", matched}, {"flush", flush}};
  int base[Machine::NumBlocks] = {0, hdr, item, gen};

  for (const MOp &o : m.ops()) {
    Word &w = out.words[base[o.block] + o.word];
    MOp op = o;
    // Register fields get physical numbers; the rest of the slot is merged.
    for (const RegField &f : op.regs)
      op.w.*f.field = (uint32_t)(phys[f.vreg] < 0 ? 0 : phys[f.vreg]);
    switch (op.unit) {
    case UIn: {
      bool r = op.w.IN_RD != 0, t = op.w.IN_TD != 0;
      bool shared = phys[op.regs[0].vreg] >= 1 && phys[op.regs[0].vreg] <= 3 &&
                    m.regs()[op.regs[0].vreg].phys > 0;
      w.IN_OP = shared || (r && t) ? mu::IN_BOTH : t ? mu::IN_TERN : mu::IN_ALU;
      w.IN_RD = op.w.IN_RD;
      w.IN_TD = op.w.IN_TD;
      w.IN_TPERM = w.IN_OP == mu::IN_ALU ? 0 : 0xe4;
      w.IN_ENDP = op.w.IN_ENDP;
      break;
    }
    case UCp:
      w.CP_OP = op.w.CP_OP;
      w.CP_SRC = op.w.CP_SRC;
      w.CP_TD = op.w.CP_TD;
      w.CP_TAG = op.w.CP_TAG;
      w.CP_PRED = op.w.CP_PRED;
      w.CP_PNEG = op.w.CP_PNEG;
      break;
    case UAlu:
      w.ALU_OP = op.w.ALU_OP;
      w.ALU_RD = op.w.ALU_RD;
      w.ALU_RA = op.w.ALU_RA;
      w.ALU_RB = op.w.ALU_RB;
      w.ALU_PRED = op.w.ALU_PRED;
      w.ALU_PNEG = op.w.ALU_PNEG;
      w.ALU_SIMD = op.w.ALU_SIMD;
      w.ALU_LANES = op.w.ALU_LANES;
      w.ALU_IMMSEL = op.w.ALU_IMMSEL;
      w.ALU_IMM = op.w.ALU_IMM;
      w.ALU_ACC = op.w.ALU_ACC;
      w.ALU_CMPD = op.w.ALU_OP >= mu::ALU_EQ ? op.w.ALU_CMPD - 8 : 0;
      if (op.w.ALU_OP < mu::ALU_EQ && op.w.ALU_OP != mu::ALU_PERM) {
        w.ALU_LANES = 0;
      }
      break;
    case UTern:
      w.TERN_OP = op.w.TERN_OP;
      w.TERN_TA = op.w.TERN_TA;
      w.TERN_TB = op.w.TERN_TB;
      w.TERN_TM = op.w.TERN_TM;
      w.TERN_SIMD = op.w.TERN_SIMD;
      w.TERN_LANES = op.w.TERN_LANES;
      w.TERN_CMPD = op.w.TERN_CMPD - 8;
      w.TERN_ACC = op.w.TERN_ACC;
      break;
    case UPred:
      if (op.predUnit == 0) {
        w.PRED_DST0 = op.w.PRED_DST0;
        w.PRED_A0 = op.w.PRED_A0;
        w.PRED_B0 = op.w.PRED_B0;
        w.PRED_FN0 = op.w.PRED_FN0;
      } else {
        w.PRED_DST1 = op.w.PRED_DST0;
        w.PRED_A1 = op.w.PRED_A0;
        w.PRED_B1 = op.w.PRED_B0;
        w.PRED_FN1 = op.w.PRED_FN0;
      }
      break;
    case UBr:
      w.BR_OP = op.w.BR_OP;
      w.BR_PRED = op.w.BR_PRED;
      w.BR_TARGET = (uint32_t)address[op.target];
      break;
    }
  }
  // The drain after a match and the flush loop: read the extra item and
  // END, then the header (its first three words in the delay slots).
  for (int t = 0; t < 2; ++t) {
    int at = t == 0 ? matched : flush;
    for (int k = 0; k < 8; ++k) {
      Word &w = out.words[at + k];
      w.IN_OP = k >= 1 && k <= 3 ? mu::IN_BOTH : mu::IN_ALU;
      w.IN_RD = k >= 1 && k <= 3 ? k : 0;
      w.IN_TD = k >= 1 && k <= 3 ? k : 0;
      w.IN_TPERM = w.IN_OP == mu::IN_BOTH ? 0xe4 : 0;
      if (k == 0)
        w.IN_ENDP = 15;
    }
    out.words[at + 1].BR_OP = mu::BR_IF1;
    out.words[at + 1].BR_PRED = 15;
    out.words[at + 1].BR_TARGET = (uint32_t)hdr + 3;
    out.words[at + 5].BR_OP = mu::BR_IF1;
    out.words[at + 5].BR_PRED = 0;
    out.words[at + 5].BR_TARGET = (uint32_t)flush;
  }
}

LogicalResult npcc::mub::compileMatchProgram(match::ProgramOp program,
                                             CompiledProgram &out) {
  if (program.getHeaderWords() != kWords || program.getItemWords() != kWords)
    return program.emitOpError("the list manager streams 8-word headers and "
                               "items"),
           failure();
  return Backend(program).run(out);
}
