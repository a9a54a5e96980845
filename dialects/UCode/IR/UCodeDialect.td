//===- UCodeDialect.td - ucode dialect --------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_UCODE_IR_UCODEDIALECT_TD
#define NPCC_DIALECTS_UCODE_IR_UCODEDIALECT_TD

include "mlir/IR/OpBase.td"

def UCode_Dialect : Dialect {
  let name = "ucode";
  let cppNamespace = "::npcc::ucode";
  let summary = "Match-unit microcode, one operation per wide word";
  let description = [{
    The `ucode` dialect is the last IR of the match-unit compiler. A
    `ucode.program` holds one `ucode.bundle` per 178-bit wide word, in
    address order; each bundle carries its word in the assembly syntax of
    `docs/match-unit-isa.md`, which the ISA library (`runtime/isa`) parses,
    verifies and encodes. Registers are allocated and words scheduled before
    this IR, so it encodes 1:1 into an image (`--emit-ucode`) or a `.mua`
    file (`--emit-ucode-asm`).

    See `dialects/UCode/Rationale.md` for why the operations look as they do.
  }];
}

#endif // NPCC_DIALECTS_UCODE_IR_UCODEDIALECT_TD
