//===- ClickArgs.cpp - Click's argument text rules ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickArgs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cctype>

using namespace npcc::click;

static bool isSpace(char c) { return std::isspace((unsigned char)c); }

static bool commentAt(llvm::StringRef t, size_t i) {
  return i + 1 < t.size() && t[i] == '/' &&
         (t[i + 1] == '/' || t[i + 1] == '*');
}

/// Past the comment that starts at `i`.
static size_t skipComment(llvm::StringRef t, size_t i) {
  if (t[i + 1] == '/') {
    size_t nl = t.find('\n', i + 2);
    return nl == llvm::StringRef::npos ? t.size() : nl + 1;
  }
  size_t end = t.find("*/", i + 2);
  return end == llvm::StringRef::npos ? t.size() : end + 2;
}

static size_t skipCommentSpace(llvm::StringRef t, size_t i) {
  while (i < t.size()) {
    if (isSpace(t[i]))
      ++i;
    else if (commentAt(t, i))
      i = skipComment(t, i);
    else
      break;
  }
  return i;
}

/// Past the quoted string or `\<...>` that starts at `i`.
static size_t skipQuoted(llvm::StringRef t, size_t i) {
  char c = t[i];
  if (c == '\\') { // \<hex bytes>
    size_t end = t.find('>', i + 2);
    return end == llvm::StringRef::npos ? t.size() : end + 1;
  }
  for (++i; i < t.size(); ++i) {
    if (c == '"' && t[i] == '\\')
      ++i;
    else if (t[i] == c)
      return i + 1;
  }
  return t.size();
}

static bool quoteAt(llvm::StringRef t, size_t i) {
  return t[i] == '"' || t[i] == '\'' ||
         (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '<');
}

/// Reads one argument from `i`: comments become one space, surrounding
/// space goes. Stops at an unquoted comma if `atComma`. Returns the end.
static size_t scanArgument(llvm::StringRef t, size_t i, bool atComma,
                           std::string &out, size_t &start) {
  i = skipCommentSpace(t, i);
  start = i;
  size_t left = i, right = i;
  bool closed = false;
  while (i < t.size()) {
    if (isSpace(t[i])) {
      ++i;
    } else if (commentAt(t, i)) {
      i = skipComment(t, i);
      closed = true;
    } else if (t[i] == ',' && atComma) {
      break;
    } else {
      if (closed) {
        out += t.substr(left, right - left).str() + " ";
        left = i;
        closed = false;
      }
      i = quoteAt(t, i) ? skipQuoted(t, i) : i + 1;
      right = i;
    }
  }
  out += t.substr(left, right - left).str();
  return i;
}

void npcc::click::splitArguments(const Piece &config, std::vector<Piece> &out) {
  llvm::StringRef t = config.text;
  size_t i = 0;
  while (i < t.size()) {
    Piece arg;
    size_t start;
    i = scanArgument(t, i, true, arg.text, start);
    arg.offset = config.offset + start;
    bool atEnd = i >= t.size();
    if (!arg.text.empty() || !atEnd)
      out.push_back(std::move(arg));
    if (atEnd)
      break;
    ++i; // the comma
  }
}

void npcc::click::splitWords(const Piece &arg, std::vector<Piece> &out) {
  llvm::StringRef t = arg.text;
  size_t i = 0;
  while ((i = skipCommentSpace(t, i)) < t.size()) {
    size_t start = i;
    while (i < t.size() && !isSpace(t[i]) && !commentAt(t, i))
      i = quoteAt(t, i) ? skipQuoted(t, i) : i + 1;
    out.push_back({t.substr(start, i - start).str(), arg.offset + start});
  }
}

std::vector<WordedArgument>
npcc::click::splitArgumentWords(const Piece &config) {
  std::vector<Piece> args;
  splitArguments(config, args);
  std::vector<WordedArgument> out(args.size());
  for (size_t k = 0; k < args.size(); ++k) {
    static_cast<Piece &>(out[k]) = std::move(args[k]);
    splitWords(out[k], out[k].words);
  }
  return out;
}

static int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// Expands the backslash escape at `i` into `out`; returns the next index.
static size_t backslash(llvm::StringRef t, size_t i, std::string &out) {
  if (i + 1 >= t.size()) {
    out += '\\';
    return t.size();
  }
  char c = t[i + 1];
  static const char cEscapes[] = "a\ab\bf\fn\nr\rt\tv\v";
  for (const char *e = cEscapes; *e; e += 2)
    if (c == e[0]) {
      out += e[1];
      return i + 2;
    }
  if (c == '\n')
    return i + 2;
  if (c == '\r')
    return i + 2 < t.size() && t[i + 2] == '\n' ? i + 3 : i + 2;
  if (c >= '0' && c <= '7') {
    int v = 0, d = 0;
    for (i += 1; i < t.size() && t[i] >= '0' && t[i] <= '7' && d < 3; ++i, ++d)
      v = v * 8 + (t[i] - '0');
    out += (char)v;
    return i;
  }
  if (c == 'x') {
    int v = 0;
    for (i += 2; i < t.size() && hexValue(t[i]) >= 0; ++i)
      v = v * 16 + hexValue(t[i]);
    out += (char)v;
    return i;
  }
  if (c == '<') { // hex bytes; space and comments ignored
    int v = 0, d = 0;
    for (i += 2; i < t.size(); ++i) {
      if (t[i] == '>')
        return i + 1;
      if (commentAt(t, i)) {
        i = skipComment(t, i) - 1;
        continue;
      }
      int h = hexValue(t[i]);
      if (h < 0)
        continue;
      v = v * 16 + h;
      if (++d == 2) {
        out += (char)v;
        v = d = 0;
      }
    }
    return t.size();
  }
  out += c;
  return i + 2;
}

std::string npcc::click::unquote(llvm::StringRef text) {
  std::string plain;
  size_t start;
  scanArgument(text, 0, false, plain, start);
  llvm::StringRef t = plain;
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < t.size();) {
    char c = t[i];
    if ((c == '"' || c == '\'') && (quote == 0 || quote == c)) {
      quote = quote ? 0 : c;
      ++i;
    } else if (c == '\\' && i + 1 < t.size() &&
               (quote == '"' || (quote == 0 && t[i + 1] == '<'))) {
      i = backslash(t, i, out);
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

static bool isVarChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_';
}

bool npcc::click::expandVariables(llvm::StringRef t, VariableLookup lookup,
                                  std::string &out, size_t &badOffset,
                                  std::string &badName) {
  char quote = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '\\' && quote == '"' && i + 1 < t.size()) {
      out += t.substr(i, 2).str();
      ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = quote == 0 ? c : quote == c ? 0 : quote;
    } else if (c == '/' && quote == 0 && commentAt(t, i)) {
      size_t end = skipComment(t, i);
      out += t.substr(i, end - i).str();
      i = end - 1;
      continue;
    }
    if (c != '$' || quote == '\'' || i + 1 >= t.size()) {
      out += c;
      continue;
    }
    std::string name, fallback;
    bool hasFallback = false;
    size_t end;
    if (t[i + 1] == '{') {
      size_t close = t.find('}', i + 2);
      if (close == llvm::StringRef::npos) {
        out += c;
        continue;
      }
      llvm::StringRef inner = t.slice(i + 2, close);
      auto [n, rest] = inner.split('-');
      name = n.str();
      hasFallback = inner.contains('-');
      fallback = rest.str();
      end = close + 1;
    } else if (t[i + 1] == '(') {
      badOffset = i;
      badName = "(";
      return false;
    } else if (isVarChar(t[i + 1])) {
      end = i + 1;
      while (end < t.size() && isVarChar(t[end]))
        ++end;
      name = t.slice(i + 1, end).str();
    } else {
      out += c;
      continue;
    }
    std::optional<std::string> value = lookup(name);
    if (!value && hasFallback)
      value = fallback;
    if (!value) {
      badOffset = i;
      badName = name;
      return false;
    }
    if (quote == '"') { // keep the value's text through the unquoting
      for (char v : *value) {
        if (v == '\\' || v == '"' || v == '$')
          out += '\\';
        out += v;
      }
    } else {
      out += *value;
    }
    i = end - 1;
  }
  return true;
}

std::optional<std::string> npcc::click::wholeVariable(llvm::StringRef text) {
  text = text.trim();
  if (!text.consume_front("$") || text.empty())
    return std::nullopt;
  if (text.consume_front("{") && !text.consume_back("}"))
    return std::nullopt;
  if (text.empty() || !llvm::all_of(text, isVarChar))
    return std::nullopt;
  return text.str();
}

std::optional<std::string> npcc::click::keywordOf(const Piece &arg,
                                                  Piece &value) {
  llvm::StringRef t = arg.text;
  if (t.empty() || !std::isupper((unsigned char)t[0]))
    return std::nullopt;
  size_t i = 0;
  while (i < t.size() && (std::isupper((unsigned char)t[i]) ||
                          std::isdigit((unsigned char)t[i]) || t[i] == '_'))
    ++i;
  if (i >= t.size() || !isSpace(t[i]))
    return std::nullopt;
  size_t j = i;
  while (j < t.size() && isSpace(t[j]))
    ++j;
  if (j >= t.size())
    return std::nullopt;
  value.text = t.substr(j).str();
  value.offset = arg.offset + j;
  return t.substr(0, i).str();
}

bool npcc::click::parseBool(llvm::StringRef t, bool &value) {
  if (t == "true" || t == "yes" || t == "1" || t == "t" || t == "y")
    value = true;
  else if (t == "false" || t == "no" || t == "0" || t == "f" || t == "n")
    value = false;
  else
    return false;
  return true;
}

/// Dotted decimal parts (1 to 4), each 0..255.
static bool parseParts(llvm::StringRef t,
                       llvm::SmallVectorImpl<unsigned> &out) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  t.split(parts, '.');
  if (parts.size() > 4)
    return false;
  for (llvm::StringRef p : parts) {
    unsigned v;
    if (p.empty() || p.size() > 3 || !llvm::all_of(p, ::isdigit) ||
        p.getAsInteger(10, v) || v > 255)
      return false;
    out.push_back(v);
  }
  return true;
}

bool npcc::click::parseIPv4(llvm::StringRef t, uint32_t &value) {
  llvm::SmallVector<unsigned, 4> parts;
  if (!parseParts(t, parts) || parts.size() != 4)
    return false;
  value = parts[0] << 24 | parts[1] << 16 | parts[2] << 8 | parts[3];
  return true;
}

bool npcc::click::parseEthernet(llvm::StringRef t, uint64_t &value) {
  char sep = t.contains(':') ? ':' : '-';
  llvm::SmallVector<llvm::StringRef, 6> groups;
  t.split(groups, sep);
  if (groups.size() != 6)
    return false;
  uint64_t v = 0;
  for (llvm::StringRef g : groups) {
    if (g.empty() || g.size() > 2 ||
        !llvm::all_of(g, [](char c) { return hexValue(c) >= 0; }))
      return false;
    unsigned b;
    g.getAsInteger(16, b);
    v = v << 8 | b;
  }
  value = v;
  return true;
}

bool npcc::click::parsePrefix(llvm::StringRef t, uint32_t &addr,
                              unsigned &len) {
  auto [a, m] = t.split('/');
  if (!t.contains('/')) {
    len = 32;
    return parseIPv4(a, addr);
  }
  llvm::SmallVector<unsigned, 4> parts;
  if (!parseParts(a, parts))
    return false;
  if (m.contains('.')) {
    uint32_t mask;
    if (!parseIPv4(m, mask))
      return false;
    uint32_t inv = ~mask;
    if ((inv & (inv + 1)) != 0) // not contiguous
      return false;
    len = 32 - (unsigned)__builtin_popcount(inv);
  } else if (m.empty() || !llvm::all_of(m, ::isdigit) ||
             m.getAsInteger(10, len) || len > 32) {
    return false;
  }
  if (len > 8 * parts.size())
    return false;
  addr = 0;
  for (size_t k = 0; k < 4; ++k)
    addr = addr << 8 | (k < parts.size() ? parts[k] : 0);
  return true;
}
