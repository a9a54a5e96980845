//===- BackendImpl.h - the match-unit back end (private) --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Shared by the back end's files: Select*.cpp (instruction selection:
// integer values, legalization, conditions, bit sequences), Program.cpp (the
// item protocol, speculation, branches and answers), RegAlloc.cpp and
// Layout.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKENDIMPL_H
#define NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKENDIMPL_H

#include "targets/ucode/MatchToUCode/Backend.h"
#include "targets/ucode/MatchToUCode/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "runtime/isa/Mnemonics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <map>
#include <tuple>

namespace npcc::mub {

using mlir::cast;
using mlir::failure;
using mlir::IntegerAttr;
using mlir::isa;
using mlir::isa_and_nonnull;
using mlir::Location;
using mlir::LogicalResult;
using mlir::Operation;
using mlir::success;
using mlir::UnknownLoc;
using mlir::Value;
using mu::Word;
namespace arith = mlir::arith;

inline bool isConstant(Value v) {
  return isa_and_nonnull<arith::ConstantOp>(v.getDefiningOp());
}

inline uint64_t constantOf(Value v) {
  auto c = cast<arith::ConstantOp>(v.getDefiningOp());
  return cast<IntegerAttr>(c.getValue()).getValue().getZExtValue();
}

/// An integer SSA value as the unit holds it: bits [lsb, lsb+width) of a
/// 64-bit register (R and/or T copy), or a constant.
struct IntVal {
  bool isConst = false;
  uint64_t c = 0;
  int r = -1, t = -1;
  unsigned lsb = 0, width = 64;
  int block = Machine::Init; // where it is computed
  // Bits outside [lsb, lsb+width) of the register are zero (a constant is
  // always clean). Other values may carry neighbouring fields or carries
  // there: compares look only at the field's bits, and the operations that
  // need clean inputs (widening, ordered compares and sums off the lanes,
  // answers) clean them with a mask first.
  bool clean = false;
};

/// A boolean: a predicate, possibly negated, or a constant.
struct BoolVal {
  bool isConst = false, c = false;
  int p = -1;
  bool neg = false;
  int block = Machine::Init;
  int lazy = -1;   // a compare not placed yet (see Backend::Lazy)
  int source = -1; // the check it decides (Backend::origins), for diagnostics
};

constexpr unsigned kWords = 8;

/// Makes `o` an `alu.perm` whose result byte j is byte `from(j)` of its
/// first operand, or zero where `from(j)` is negative or past byte 7.
template <typename F> void setPerm(MOp &o, F from) {
  uint32_t sel = 0;
  unsigned zero = 0;
  for (unsigned j = 0; j < 8; ++j) {
    int src = from(j);
    if (src >= 0 && src < 8)
      sel |= (uint32_t)src << (4 * j);
    else
      zero |= 1u << j;
  }
  o.w.ALU_OP = mu::ALU_PERM;
  o.w.ALU_IMMSEL = 0;
  o.w.ALU_IMM = sel;
  o.w.ALU_CMPD = zero & 7;
  o.w.ALU_ACC = (zero >> 3) & 3;
  o.w.ALU_SIMD = zero >> 5;
  o.w.ALU_LANES = 0;
}

/// How one attempt selects. The first attempt keeps every header value in
/// the register it was computed into for the whole item loop; when the
/// registers or predicates run out, later attempts recompute instead
/// (compileMatchProgram).
struct Options {
  /// Header conditions the item loop tests are kept as 0/1 in ALU
  /// registers and tested again in every item, instead of holding a
  /// predicate across the items.
  bool headerBoolsInAlu = false;
  /// Header values the item loop compares in the ternary unit are copied
  /// from their ALU register in every item, instead of holding a ternary
  /// register across the items.
  bool headerTernPerItem = false;
  /// Copy slots kept for the answers: (block, word). A non-answer copy
  /// never takes them.
  std::vector<std::pair<int, int>> answerSlots;
  /// A failure answer that found no copy slot keeps the slot of the word
  /// its guard is known in, not of its branch's word (the second round of
  /// the ladder; the first keeps the branch's word).
  bool slotsWhereKnown = false;
};

/// Why an attempt failed, when another attempt may succeed.
enum Retry {
  RetryNone,     // a limit of the unit: no attempt can do better
  RetryPressure, // registers or predicates ran out
  RetryCopySlot, // an answer found no copy slot (see Backend::answerSlot)
};

class Backend {
public:
  Backend(match::ProgramOp program, Options options = {})
      : program(program), options(std::move(options)) {
    for (auto [block, word] : this->options.answerSlots)
      m.reserveCopySlot(block, word);
  }
  LogicalResult run();
  /// After a successful run: the schedule.
  void finish(Scheduled &out) {
    out.machine = std::move(m);
    out.reserveItemWords = reserveItemWords;
    out.general = general;
  }

  /// After a failed run: the diagnostic, and whether another attempt may
  /// succeed.
  void emitDiagnostic() const {
    auto diag = mlir::emitError(errLoc) << errMsg;
    if (!errNote.empty())
      diag.attachNote(match::ProgramOp(program).getLoc()) << errNote;
  }
  const std::string &diagnostic() const { return errMsg; }
  Retry retryKind() const { return retry; }
  /// The copy slots the answers needed (RetryCopySlot).
  const std::vector<std::pair<int, int>> &answerSlots() const {
    return wantSlots;
  }

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

  // Selection.
  IntVal intVal(Value v) { return memoised(ints, v, &Backend::newIntVal); }
  BoolVal boolVal(Value v) { return memoised(bools, v, &Backend::newBoolVal); }
  /// The selection of `v` made before, or else `select(v, def, loc)` with
  /// `v`'s definition as the source of the operations it makes.
  template <typename T>
  T memoised(llvm::DenseMap<Value, T> &memo, Value v,
             T (Backend::*select)(Value, Operation *, Location)) {
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    Location loc = def ? def->getLoc() : program.getLoc();
    AtSource source(*this, loc);
    return (this->*select)(v, def, loc);
  }
  IntVal newIntVal(Value v, Operation *def, Location loc);
  BoolVal newBoolVal(Value v, Operation *def, Location loc);
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
  // Legalization of values off the 16-bit lanes (no shifter: masks, adds
  // that double, byte permutes).
  IntVal aluBinary(unsigned aluOp, const IntVal &a, const IntVal &b,
                   unsigned lsb, unsigned width, unsigned simd, Location loc);
  IntVal cleaned(const IntVal &v, Location loc);
  IntVal shiftedUp(const IntVal &v, unsigned k, Location loc);
  IntVal lowered(const IntVal &v, Location loc);
  void align(IntVal &a, IntVal &b, Location loc);
  IntVal boolToInt(const BoolVal &b, Location loc);
  // Bit counts and byte swaps (SelectBits.cpp): sequences on registers of
  // their own.
  IntVal bitOp(Operation *def, Location loc);
  int bitStep(MOp o, int ra, int rb, int block, int guard, int into);
  int permute(int ra, int block, const std::function<int(unsigned)> &from,
              int guard = -1, int into = -1);
  int aluImm(unsigned aluOp, int ra, uint32_t c, int block, int guard = -1,
             int into = -1);
  int aluReg(unsigned aluOp, int ra, int rb, int block, int guard = -1,
             int into = -1);
  int popcountReg(int x, unsigned w, bool clean, int block);
  int clzReg(int x, unsigned w, int block);
  IntVal selectInt(Operation *selOp, BoolVal c, Value tv, Value fv, IntVal a,
                   IntVal b, Location loc);
  static IntVal constant(uint64_t c, unsigned lsb, unsigned width) {
    IntVal v;
    v.isConst = true;
    v.c = width == 64 ? c : c & ((1ull << width) - 1);
    v.lsb = lsb;
    v.width = width;
    v.clean = true;
    return v;
  }
  std::map<std::tuple<int, int, unsigned, unsigned, int>, IntVal> legalCache;
  int tOf(const IntVal &v, int block, Location loc);
  int constR(uint64_t c);
  int constT(uint64_t c);
  int stable(int vreg, int block, File f);
  int later(int a, int b) const { return a > b ? a : b; }
  bool fieldLanes(unsigned lsb, unsigned width, unsigned &simd,
                  unsigned &lanes) const;
  bool immediate(uint64_t c, unsigned lsb, unsigned width, Word &w) const;
  int predOf(const BoolVal &b, int block);
  BoolVal retestedPerItem(const BoolVal &b);
  std::map<std::pair<int, int>, BoolVal> retests;    // (pred, block) -> retest
  std::map<std::pair<int, int>, int> itemTernCopies; // (reg, block) -> copy

  // Placement helpers.
  int place(MOp op, int minWord = 0, int fixed = -1) {
    return m.place(std::move(op), minWord, fixed);
  }
  MOp op(Unit u, int block) {
    MOp o;
    o.origin = originOf(current);
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
  /// Whether the registers of the schedule can be allocated.
  LogicalResult allocate();

  match::ProgramOp program;
  Options options;
  Retry retry = RetryNone;
  std::vector<std::pair<int, int>> wantSlots;
  Machine m;
  llvm::DenseMap<Value, IntVal> ints;
  llvm::DenseMap<Value, BoolVal> bools;
  std::map<uint64_t, int> rConsts, tConsts;
  std::map<std::pair<int, int>, int> stableCopies; // (vreg, file) -> copy
  std::vector<std::pair<int, int>> itemCopies;     // made in an item block
  int hdrR[kWords], hdrT[kWords], itemR[kWords], itemT[kWords];
  int pEnd = -1;
  // Item-phase operations go to this block: the item loop, or the general
  // path taken when a speculated option flag is set.
  int itemBlock = Machine::Item;
  int reserveItemWords = 0; // words the item block must span
  bool general = false;     // a general path was selected
  bool hasError = false;
  Location errLoc = UnknownLoc::get(program.getContext());
  std::string errMsg, errNote;
  /// The source of each operation (MOp::origin): the construct being
  /// selected when it was made, for diagnostics about its registers.
  std::vector<Location> origins;
  Location current = program.getLoc();
  int originOf(Location loc) {
    origins.push_back(loc);
    return (int)origins.size() - 1;
  }
  /// Makes `loc` the source of the operations made in this scope.
  struct AtSource {
    Backend &b;
    Location saved;
    AtSource(Backend &b, Location loc) : b(b), saved(b.current) {
      // Folded constants may have no source line: keep the enclosing one,
      // so a diagnostic always points into the file.
      if (loc->findInstanceOf<mlir::FileLineColLoc>())
        b.current = loc;
    }
    ~AtSource() { b.current = saved; }
  };

  /// The diagnostic is emitted by the caller, once no attempt is left.
  LogicalResult reportError() { return failure(); }
  /// Memoises a selection. The item path and the general path select
  /// different values (the regions of match.speculate); what the item loop
  /// computed is forgotten before the general path, since its registers
  /// are not the general path's.
  IntVal rememberInt(Value v, IntVal x) {
    ints[v] = x;
    return x;
  }
  BoolVal rememberBool(Value v, BoolVal x) {
    bools[v] = x;
    return x;
  }
  /// Answers of a branch found every copy slot they could use taken; a
  /// next attempt keeps the slots of `words` of the item block free.
  void copySlotMissing(std::initializer_list<int> words) {
    if (hasError)
      return;
    error(program.getLoc(), "the answers find no copy slot within the delay "
                            "slots of their branch");
    retry = RetryCopySlot;
    for (int w : words)
      wantSlots.push_back({itemBlock, w});
  }
  void error(Location loc, const llvm::Twine &msg) {
    if (hasError)
      return;
    hasError = true;
    errLoc = loc;
    errMsg = msg.str();
  }
};

} // namespace npcc::mub

#endif // NPCC_TARGETS_UCODE_MATCHTOUCODE_BACKENDIMPL_H
