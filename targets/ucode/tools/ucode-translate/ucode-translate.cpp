//===- ucode-translate.cpp - ucode IR to images and assembly --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `--emit-ucode` writes a match-unit image, `--emit-ucode-asm` a `.mua` file.
//
//===----------------------------------------------------------------------===//

#include "targets/ucode/UCodeEmitter.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  npcc::ucode::registerUCodeTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "ucode translation tool"));
}
