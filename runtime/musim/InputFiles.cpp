//===- InputFiles.cpp - list, header and raw input files ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/InputFiles.h"

#include <fstream>
#include <sstream>

namespace npcc::musim {

namespace {

/// Splits `text` into lines without comments, calling `fn(lineNo, tokens)`
/// for every line with at least one token; stops when `fn` returns false.
template <typename Fn> bool forEachLine(const std::string &text, Fn fn) {
  std::istringstream in(text);
  std::string line;
  for (unsigned no = 1; std::getline(in, line); ++no) {
    size_t hash = line.find('#');
    if (hash != std::string::npos)
      line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string tok; words >> tok;)
      tokens.push_back(tok);
    if (!tokens.empty() && !fn(no, tokens))
      return false;
  }
  return true;
}

bool parseHex(const std::string &tok, uint64_t &value) {
  size_t i = tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')
                 ? 2
                 : 0;
  if (tok.size() - i == 0 || tok.size() - i > 16)
    return false;
  value = 0;
  for (; i < tok.size(); ++i) {
    char c = tok[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return false;
    value = value << 4 | d;
  }
  return true;
}

std::string where(const std::string &file, unsigned line) {
  return file + ":" + std::to_string(line) + ": ";
}

} // namespace

bool parseItems(const std::string &file, const std::string &text,
                std::vector<Item> &items, std::string &error) {
  items.clear();
  return forEachLine(text, [&](unsigned no,
                               const std::vector<std::string> &tokens) {
    if (tokens.size() != 8) {
      error = where(file, no) + "expected 8 hex words, found " +
              std::to_string(tokens.size());
      return false;
    }
    Item item;
    for (unsigned i = 0; i < 8; ++i) {
      if (!parseHex(tokens[i], item[i])) {
        error =
            where(file, no) + "'" + tokens[i] + "' is not a 64-bit hex word";
        return false;
      }
    }
    items.push_back(item);
    return true;
  });
}

bool parseRawInput(const std::string &file, const std::string &text,
                   std::vector<InputWord> &words, std::string &error) {
  words.clear();
  return forEachLine(
      text, [&](unsigned no, const std::vector<std::string> &tokens) {
        if (tokens.size() != 1) {
          error = where(file, no) + "expected one hex word or 'end', found " +
                  std::to_string(tokens.size()) + " tokens";
          return false;
        }
        InputWord w{0, tokens[0] == "end"};
        if (!w.end && !parseHex(tokens[0], w.value)) {
          error = where(file, no) + "'" + tokens[0] +
                  "' is not a 64-bit hex word or 'end'";
          return false;
        }
        words.push_back(w);
        return true;
      });
}

bool readFile(const std::string &file, std::string &text, std::string &error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error = "cannot read '" + file + "'";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

} // namespace npcc::musim
