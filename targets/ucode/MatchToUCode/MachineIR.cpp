//===- MachineIR.cpp - schedules to and from ucode.machine ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The schedule the selector produces is handed to the register allocator
// as IR, so that it can be printed between the two passes and written by
// hand in tests: one ucode.slot per slot operation, with its non-register
// fields and register fields by name.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/MachineIR.h"

#include "dialects/UCode/IR/UCodeOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;

static const char *const blockNames[] = {"init", "header", "item", "general"};
static const char *const unitNames[] = {"in",   "cp",   "alu",
                                        "tern", "pred", "br"};
static const char *const slotNames[] = {"IN",   "CP",   "ALU",
                                        "TERN", "PRED", "BR"};

static int indexOf(llvm::ArrayRef<const char *> names, llvm::StringRef name) {
  for (auto [i, n] : llvm::enumerate(names))
    if (name == n)
      return (int)i;
  return -1;
}

ucode::MachineOp npcc::mub::buildMachineOp(OpBuilder &b, Location loc,
                                           llvm::StringRef name,
                                           const Scheduled &program) {
  const Machine &m = program.machine;
  SmallVector<int32_t> files, fixed;
  for (const VReg &v : m.regs()) {
    files.push_back(v.file);
    fixed.push_back(v.phys);
  }
  auto machine = b.create<ucode::MachineOp>(
      loc, b.getStringAttr(name), b.getDenseI32ArrayAttr(files),
      b.getDenseI32ArrayAttr(fixed),
      b.getI64IntegerAttr(program.reserveItemWords),
      program.general ? b.getUnitAttr() : UnitAttr());
  Block *body = b.createBlock(&machine.getBodyRegion());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(body);
  // The register fields are named by `regs`; the others are the word's.
  for (const MOp &op : m.ops()) {
    mu::Word w = op.w;
    SmallVector<NamedAttribute> regs, fields;
    for (const RegField &f : op.regs) {
      regs.push_back(b.getNamedAttr(ucode::wordFieldName(f.field),
                                    b.getI32IntegerAttr(f.vreg)));
      w.*f.field = 0;
    }
    // Only the fields of the operation's own slot: the others belong to
    // the operations that share its word.
    mu::Word zero;
    llvm::StringRef own = slotNames[op.unit];
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  if (own == #SLOT && w.SLOT##_##NAME != zero.SLOT##_##NAME)                   \
    fields.push_back(b.getNamedAttr(#SLOT "_" #NAME,                           \
                                    b.getI32IntegerAttr(w.SLOT##_##NAME)));
#include "runtime/isa/MatchUnit.def"
    auto slot = b.create<ucode::SlotOp>(
        loc, b.getStringAttr(blockNames[op.block]),
        b.getStringAttr(unitNames[op.unit]), b.getI64IntegerAttr(op.word),
        b.getDictionaryAttr(fields), b.getDictionaryAttr(regs),
        b.getDenseI32ArrayAttr(
            SmallVector<int32_t>(op.reads.begin(), op.reads.end())),
        b.getDenseI32ArrayAttr(
            SmallVector<int32_t>(op.writes.begin(), op.writes.end())),
        op.target.empty() ? StringAttr() : b.getStringAttr(op.target),
        op.answer ? b.getUnitAttr() : UnitAttr(),
        op.accumulates ? b.getUnitAttr() : UnitAttr(),
        b.getI64IntegerAttr(op.predUnit));
    (void)slot;
  }
  return machine;
}

LogicalResult npcc::mub::readMachineOp(ucode::MachineOp machine,
                                       Scheduled &out) {
  std::vector<VReg> regs;
  for (auto [file, phys] : llvm::zip(machine.getFiles(), machine.getFixed()))
    regs.push_back({(File)file, phys});
  if (regs.size() < 3 || regs[0].file != FR || regs[0].phys != 0 ||
      regs[1].file != FT || regs[1].phys != 0 || regs[2].file != FP ||
      regs[2].phys != 0)
    return machine.emitOpError("virtual registers 0, 1 and 2 must be r0, t0 "
                               "and p0");
  std::vector<MOp> ops;
  for (auto slot : machine.getBodyRegion().front().getOps<ucode::SlotOp>()) {
    MOp op;
    op.block = indexOf(blockNames, slot.getBlock());
    op.unit = (Unit)indexOf(unitNames, slot.getUnit());
    op.word = slot.getWord();
    for (NamedAttribute f : slot.getFields())
      op.w.*ucode::wordField(f.getName()) =
          (uint32_t)cast<IntegerAttr>(f.getValue()).getInt();
    for (NamedAttribute f : slot.getRegs())
      op.regs.push_back({ucode::wordField(f.getName()),
                         (int)cast<IntegerAttr>(f.getValue()).getInt()});
    op.reads.assign(slot.getReads().begin(), slot.getReads().end());
    op.writes.assign(slot.getWrites().begin(), slot.getWrites().end());
    if (slot.getTarget())
      op.target = slot.getTarget()->str();
    op.answer = slot.getAnswer();
    op.accumulates = slot.getAccumulates();
    op.predUnit = slot.getPredUnit();
    ops.push_back(std::move(op));
  }
  out.machine.restore(std::move(regs), std::move(ops));
  out.reserveItemWords = machine.getItemWords();
  out.general = machine.getGeneral();
  return success();
}
