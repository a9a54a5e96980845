//===- ucode-opt.cpp - the ucode dialect under mlir-opt -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Parses, verifies and prints ucode IR, for the dialect's tests.
//
//===----------------------------------------------------------------------===//

#include "dialects/UCode/IR/UCodeDialect.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<npcc::ucode::UCodeDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ucode dialect driver\n", registry));
}
