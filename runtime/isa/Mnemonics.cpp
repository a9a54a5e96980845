//===- Mnemonics.cpp - match-unit names from MatchUnit.def ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/Mnemonics.h"

#include <cctype>
#include <cstring>

using namespace npcc::mu;

namespace {
struct OpEntry {
  Slot S;
  unsigned Code;
  const char *Mnemonic;
};
struct EnumEntry {
  const char *Group;
  unsigned Code;
  const char *Mnemonic;
};
struct FnEntry {
  unsigned Fn;
  const char *Name;
};
} // namespace

static const char *const SlotNames[] = {
#define MU_SLOT(NAME, LSB, WIDTH, DOC) #NAME,
#include "runtime/isa/MatchUnit.def"
};

static const OpEntry Ops[] = {
#define MU_OP(SLOT, NAME, CODE, MNEMONIC, DOC) {SLOT_##SLOT, CODE, MNEMONIC},
#include "runtime/isa/MatchUnit.def"
};

static const EnumEntry Enums[] = {
#define MU_ENUM(GROUP, NAME, CODE, MNEMONIC, DOC) {#GROUP, CODE, MNEMONIC},
#include "runtime/isa/MatchUnit.def"
};

// Truth tables: bit (a*2+b) is f(a,b). The names are the document's.
static const FnEntry Fns[] = {
    {0x8, "and"}, {0xe, "or"},   {0x6, "xor"},  {0x4, "a&!b"},  {0x2, "!a&b"},
    {0x1, "nor"}, {0x7, "nand"}, {0x9, "xnor"}, {0xc, "a"},     {0xa, "b"},
    {0x3, "!a"},  {0x5, "!b"},   {0xf, "true"}, {0x0, "false"},
};

std::string npcc::mu::slotName(Slot S) {
  std::string Name = S < NUM_SLOTS ? SlotNames[S] : "?";
  for (char &C : Name)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Name;
}

const char *npcc::mu::opMnemonic(Slot S, unsigned Code) {
  for (const OpEntry &E : Ops)
    if (E.S == S && E.Code == Code)
      return E.Mnemonic;
  return nullptr;
}

bool npcc::mu::findOp(Slot S, const std::string &Mnemonic, unsigned &Code) {
  for (const OpEntry &E : Ops)
    if (E.S == S && *E.Mnemonic && Mnemonic == E.Mnemonic) {
      Code = E.Code;
      return true;
    }
  return false;
}

const char *npcc::mu::enumMnemonic(const char *Group, unsigned Code) {
  for (const EnumEntry &E : Enums)
    if (!std::strcmp(E.Group, Group) && E.Code == Code)
      return E.Mnemonic;
  return nullptr;
}

bool npcc::mu::findEnum(const char *Group, const std::string &Mnemonic,
                        unsigned &Code) {
  for (const EnumEntry &E : Enums)
    if (!std::strcmp(E.Group, Group) && *E.Mnemonic && Mnemonic == E.Mnemonic) {
      Code = E.Code;
      return true;
    }
  return false;
}

const char *npcc::mu::predFnName(unsigned Fn) {
  for (const FnEntry &E : Fns)
    if (E.Fn == Fn)
      return E.Name;
  return nullptr;
}

bool npcc::mu::findPredFn(const std::string &Name, unsigned &Fn) {
  for (const FnEntry &E : Fns)
    if (Name == E.Name) {
      Fn = E.Fn;
      return true;
    }
  return false;
}
