//===- InputFile.h - Bounded input files for the tools ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A tool reads its input whole, but never more than it can use: an input
// past the limit is cut there, and the tool says what is wrong with it (too
// large an assembly file, trailing data after an image).
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_COMMON_INPUTFILE_H
#define TOOLS_COMMON_INPUTFILE_H

#include <cstddef>
#include <string>

namespace npcc::tools {

/// Reads \p Name ("-": stdin) into \p Bytes, at most \p Limit bytes (so a
/// tool that accepts N bytes asks for N + 1 to see a longer input). Returns
/// "" or "cannot open 'NAME': reason" / "cannot read 'NAME': reason".
std::string readInput(const std::string &Name, size_t Limit,
                      std::string &Bytes);

} // namespace npcc::tools

#endif // TOOLS_COMMON_INPUTFILE_H
