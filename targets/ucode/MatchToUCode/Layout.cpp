//===- Layout.cpp - blocks to addressed words ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/MatchToUCode/BackendImpl.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::mub;
using mu::Word;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

/// Copies the fields of one slot (named as in MatchUnit.def) of `from`.
static void mergeSlot(Word &to, const Word &from, llvm::StringRef slot) {
#define MU_FIELD(SLOT, NAME, LSB, WIDTH, DOC)                                  \
  if (slot == #SLOT)                                                           \
    to.SLOT##_##NAME = from.SLOT##_##NAME;
#include "runtime/isa/MatchUnit.def"
}

void npcc::mub::layoutWords(const Scheduled &program,
                            const std::vector<int> &phys,
                            CompiledProgram &out) {
  const Machine &m = program.machine;
  bool general = program.general;
  int reserveItemWords = program.reserveItemWords;
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
      mergeSlot(w, op.w, "CP");
      break;
    case UAlu:
      mergeSlot(w, op.w, "ALU");
      // Compare targets are encoded from p8; lanes matter only to compares
      // (and carry PERM's zero mask).
      // PERM's zero mask starts in the CMPD bits.
      w.ALU_CMPD = op.w.ALU_OP >= mu::ALU_EQ     ? op.w.ALU_CMPD - 8
                   : op.w.ALU_OP == mu::ALU_PERM ? op.w.ALU_CMPD
                                                 : 0;
      if (op.w.ALU_OP < mu::ALU_EQ && op.w.ALU_OP != mu::ALU_PERM)
        w.ALU_LANES = 0;
      break;
    case UTern:
      mergeSlot(w, op.w, "TERN");
      w.TERN_CMPD = op.w.TERN_CMPD - 8;
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
      mergeSlot(w, op.w, "BR");
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
