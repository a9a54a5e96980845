//===- UCodeEmitter.h - ucode programs to images and assembly ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The print step of the ucode target: a verified `ucode.program` becomes an
// image (docs/match-unit-isa.md, "Image"), a listing in the format of
// `muasm --listing`, or a `.mua` file that `muasm` assembles to the same
// image. None of these change the IR.
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_UCODE_UCODEEMITTER_H
#define NPCC_TARGETS_UCODE_UCODEEMITTER_H

#include "dialects/UCode/IR/UCodeOps.h"
#include "runtime/isa/ISA.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npcc::ucode {

/// Verifies `program` and encodes its bundles in address order, branch
/// labels resolved to addresses.
mlir::LogicalResult encodeProgram(ProgramOp program,
                                  std::vector<mu::Word> &words);

/// The image of `program` and its listing: per word the 4-digit address, bits
/// 128-177, 64-127 and 0-63 in hex and the canonical text, as
/// `muasm --listing` prints it.
mlir::LogicalResult emitUCodeImage(ProgramOp program,
                                   std::vector<uint8_t> &image,
                                   std::string &listing);

/// Writes the image of the one `ucode.program` of `module` to `os`.
mlir::LogicalResult translateUCodeToImage(mlir::ModuleOp module,
                                          llvm::raw_ostream &os);

/// Prints the listing of the one `ucode.program` of `module` to `os`.
mlir::LogicalResult translateUCodeToListing(mlir::ModuleOp module,
                                            llvm::raw_ostream &os);

/// Prints the one `ucode.program` of `module` as a `.mua` file: bundle labels
/// and each word in canonical syntax.
mlir::LogicalResult translateUCodeToAssembly(mlir::ModuleOp module,
                                             llvm::raw_ostream &os);

/// Registers `--emit-ucode` (image bytes), `--emit-ucode-asm` (`.mua` text)
/// and `--emit-ucode-listing` (the listing) with mlir-translate.
void registerUCodeTranslations();

} // namespace npcc::ucode

#endif // NPCC_TARGETS_UCODE_UCODEEMITTER_H
