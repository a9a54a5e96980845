//===- ClickArgs.h - Click's argument text rules ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// How Click cuts a configuration string into arguments and words, removes
// quotes, substitutes $variables, and reads its scalar syntaxes (integers,
// booleans, IPv4 addresses and prefixes, Ethernet addresses). Pure text
// functions: no diagnostics, no AST.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKARGS_H
#define NPCC_CLICK_CLICKARGS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npcc::click {

/// A piece of configuration text and the file offset of its first byte.
struct Piece {
  std::string text;
  size_t offset = 0;
};

/// Splits `config` at unquoted commas (Click's argument vector). Each
/// argument has comments replaced by one space and surrounding space
/// removed; an empty last argument is dropped (`F(a, )` has one argument).
/// Commas inside parentheses split too, as in Click; quote them.
void splitArguments(const Piece &config, std::vector<Piece> &out);

/// Splits an argument at unquoted white space (Click's space vector);
/// quotes are kept in the words.
void splitWords(const Piece &arg, std::vector<Piece> &out);

/// An argument of a configuration and its words.
struct WordedArgument : Piece {
  std::vector<Piece> words;
};

/// splitArguments, then splitWords of each argument.
std::vector<WordedArgument> splitArgumentWords(const Piece &config);

/// Removes one level of quoting: "..." (with backslash escapes) and '...'
/// are replaced by their contents, `\<hex bytes>` outside quotes by its
/// bytes.
std::string unquote(llvm::StringRef text);

/// A variable's value for substitution, or nullopt if it is undefined.
using VariableLookup =
    llvm::function_ref<std::optional<std::string>(llvm::StringRef name)>;

/// Replaces `$NAME`, `${NAME}` and `${NAME-default}` outside single quotes.
/// On an undefined variable (or `$(...)`, which is not supported) returns
/// false with `badOffset` (relative to `text`) and `badName` set.
bool expandVariables(llvm::StringRef text, VariableLookup lookup,
                     std::string &out, size_t &badOffset, std::string &badName);

/// If `text` (trimmed) is exactly one variable reference, its name.
std::optional<std::string> wholeVariable(llvm::StringRef text);

/// The keyword of a Click keyword argument (`CAPACITY 10`): an all-caps
/// first word followed by space and a value; `value` is the rest.
std::optional<std::string> keywordOf(const Piece &arg, Piece &value);

/// Click's booleans: true/false, yes/no, 1/0, t/f, y/n.
bool parseBool(llvm::StringRef text, bool &value);
/// a.b.c.d, each part 0..255.
bool parseIPv4(llvm::StringRef text, uint32_t &value);
/// Six groups of one or two hex digits separated by ':' or by '-'.
bool parseEthernet(llvm::StringRef text, uint64_t &value);
/// ADDR/LEN, ADDR/MASK (a contiguous mask) or ADDR (= /32); ADDR may have
/// fewer than four parts when the prefix covers only those.
bool parsePrefix(llvm::StringRef text, uint32_t &addr, unsigned &len);

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKARGS_H
