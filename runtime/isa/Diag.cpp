//===- Diag.cpp - assembler and image-reader diagnostics ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/isa/ISA.h"

using namespace npcc::mu;

std::string Diag::str() const {
  std::string Where = File;
  if (Line)
    Where += ":" + std::to_string(Line) + ":" + std::to_string(Col);
  return Where + ": error: " + Message;
}
