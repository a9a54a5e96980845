//===- InputFiles.h - list, header and raw input files ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The text formats musim reads (see README.md):
//
//   list / header files   one item or header per line: 8 hex 64-bit words
//                         separated by spaces (`0x` optional)
//   raw input files       one hex word per line, or `end` for an END mark
//
// `#` starts a comment; blank lines are ignored. Errors are "file:line:
// message".
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_MUSIM_INPUTFILES_H
#define NPCC_RUNTIME_MUSIM_INPUTFILES_H

#include "runtime/musim/Run.h"

#include <string>
#include <vector>

namespace npcc::musim {

bool parseItems(const std::string &file, const std::string &text,
                std::vector<Item> &items, std::string &error);
bool parseRawInput(const std::string &file, const std::string &text,
                   std::vector<InputWord> &words, std::string &error);

/// Reads a whole file; false with "cannot read 'file'" on failure.
bool readFile(const std::string &file, std::string &text, std::string &error);

} // namespace npcc::musim

#endif // NPCC_RUNTIME_MUSIM_INPUTFILES_H
