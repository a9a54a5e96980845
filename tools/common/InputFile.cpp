//===- InputFile.cpp - Bounded input files for the tools ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/common/InputFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

std::string npcc::tools::readInput(const std::string &Name, size_t Limit,
                                   std::string &Bytes) {
  FILE *F = Name == "-" ? stdin : std::fopen(Name.c_str(), "rb");
  if (!F)
    return "cannot open '" + Name + "': " + std::strerror(errno);
  char Buf[1 << 16];
  size_t N;
  while (Bytes.size() < Limit &&
         (N = std::fread(Buf, 1, std::min(sizeof(Buf), Limit - Bytes.size()),
                         F)) > 0)
    Bytes.append(Buf, N);
  std::string Error;
  if (std::ferror(F))
    Error = "cannot read '" + Name + "': " + std::strerror(errno);
  if (F != stdin)
    std::fclose(F);
  return Error;
}
