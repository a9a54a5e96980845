//===- Toml.cpp - the TOML subset of npsim's configuration files ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "runtime/npsim/Toml.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

using namespace npcc::npsim;

const char *TomlValue::kindName() const {
  switch (kind) {
  case INT:
    return "an integer";
  case FLOAT:
    return "a number";
  case STRING:
    return "a string";
  case BOOL:
    return "a boolean";
  case ARRAY:
    return "an array";
  }
  return "?";
}

SrcLoc TomlTable::keyLoc(const std::string &key) const {
  for (const auto &kv : keys)
    if (kv.first == key)
      return kv.second.loc;
  return loc;
}

const TomlValue *TomlTable::find(const std::string &key) const {
  for (const auto &kv : keys)
    if (kv.first == key)
      return &kv.second;
  return nullptr;
}

const TomlTable *TomlDoc::find(const std::string &name) const {
  for (const TomlTable &t : tables)
    if (t.name == name)
      return &t;
  return nullptr;
}

TomlTable &TomlDoc::get(const std::string &name) {
  for (TomlTable &t : tables)
    if (t.name == name)
      return t;
  tables.push_back(TomlTable{name, {}, {}});
  return tables.back();
}

namespace {

class Reader {
public:
  Reader(const std::string &text) : s(text) {}

  bool document(TomlDoc &doc, std::string &err) {
    doc.tables.clear();
    doc.tables.push_back(TomlTable{"", {1, 1}, {}});
    size_t cur = 0;
    while (pos < s.size()) {
      skipBlank();
      if (atLineEnd()) {
        if (!lineEnd(err))
          return false;
        continue;
      }
      SrcLoc at = here();
      if (s[pos] == '[') {
        ++pos;
        if (pos < s.size() && s[pos] == '[')
          return fail(err, "arrays of tables ([[...]]) are not supported");
        skipBlank();
        std::string name;
        if (!dottedKey(name, err))
          return false;
        skipBlank();
        if (pos >= s.size() || s[pos] != ']')
          return fail(err, "expected ']' after the table name");
        ++pos;
        for (size_t i = 0; i < doc.tables.size(); ++i)
          if (doc.tables[i].name == name)
            return failAt(err, at, "table [" + name + "] is defined twice");
        doc.tables.push_back(TomlTable{name, at, {}});
        cur = doc.tables.size() - 1;
        skipBlank();
        if (!lineEnd(err))
          return false;
        continue;
      }
      std::string key;
      if (!dottedKey(key, err))
        return false;
      if (key.find('.') != std::string::npos)
        return failAt(err, at,
                      "dotted key '" + key + "': write it under its [table]");
      skipBlank();
      if (pos >= s.size() || s[pos] != '=')
        return fail(err, "expected '=' after '" + key + "'");
      ++pos;
      skipBlank();
      TomlValue v;
      if (!value(v, err))
        return false;
      v.loc = at;
      TomlTable &t = doc.tables[cur];
      if (t.find(key))
        return failAt(err, at, "key '" + key + "' is set twice");
      t.keys.emplace_back(key, std::move(v));
      skipBlank();
      if (!lineEnd(err))
        return false;
    }
    return true;
  }

  bool lone(TomlValue &v, std::string &err) {
    skipBlank();
    if (!value(v, err))
      return false;
    skipBlank();
    if (pos != s.size())
      return fail(err, "unexpected text after the value");
    return true;
  }

private:
  const std::string &s;
  size_t pos = 0;
  unsigned line = 1;
  size_t lineStart = 0;

  SrcLoc here() const { return {line, unsigned(pos - lineStart + 1)}; }

  bool failAt(std::string &err, SrcLoc at, const std::string &what) {
    err = std::to_string(at.line) + ":" + std::to_string(at.col) +
          ": error: " + what;
    return false;
  }
  bool fail(std::string &err, const std::string &what) {
    return failAt(err, here(), what);
  }

  void skipBlank() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t'))
      ++pos;
  }
  bool atLineEnd() const {
    return pos >= s.size() || s[pos] == '\n' || s[pos] == '\r' || s[pos] == '#';
  }
  /// A comment and the end of the line, or the end of the text.
  bool lineEnd(std::string &err) {
    if (pos < s.size() && s[pos] == '#')
      while (pos < s.size() && s[pos] != '\n')
        ++pos;
    if (pos < s.size() && s[pos] == '\r')
      ++pos;
    if (pos >= s.size())
      return true;
    if (s[pos] != '\n')
      return fail(err, "unexpected text at the end of the line");
    ++pos;
    ++line;
    lineStart = pos;
    return true;
  }

  static bool bareChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '-';
  }

  bool dottedKey(std::string &key, std::string &err) {
    for (;;) {
      size_t b = pos;
      while (pos < s.size() && bareChar(s[pos]))
        ++pos;
      if (pos == b)
        return fail(err, "expected a key (letters, digits, '_' or '-')");
      key.append(s, b, pos - b);
      if (pos < s.size() && s[pos] == '.') {
        key += '.';
        ++pos;
        continue;
      }
      return true;
    }
  }

  bool value(TomlValue &v, std::string &err) {
    v.loc = here();
    if (pos >= s.size() || s[pos] == '\n')
      return fail(err, "expected a value");
    char c = s[pos];
    if (c == '"')
      return string(v, err);
    if (c == '[') {
      v.kind = TomlValue::ARRAY;
      ++pos;
      for (;;) {
        skipBlank();
        if (pos < s.size() && s[pos] == ']') {
          ++pos;
          return true;
        }
        TomlValue item;
        if (!value(item, err))
          return false;
        if (item.kind == TomlValue::ARRAY)
          return failAt(err, item.loc, "arrays of arrays are not supported");
        v.items.push_back(std::move(item));
        skipBlank();
        if (pos < s.size() && s[pos] == ',') {
          ++pos;
          continue;
        }
        if (pos < s.size() && s[pos] == ']') {
          ++pos;
          return true;
        }
        return fail(err, "expected ',' or ']' in the array (an array is "
                         "written on one line)");
      }
    }
    size_t b = pos;
    while (pos < s.size() && !atLineEnd() && s[pos] != ',' && s[pos] != ']' &&
           s[pos] != ' ' && s[pos] != '\t')
      ++pos;
    std::string word = s.substr(b, pos - b);
    if (word == "true" || word == "false") {
      v.kind = TomlValue::BOOL;
      v.b = word == "true";
      return true;
    }
    return number(word, v, err);
  }

  bool string(TomlValue &v, std::string &err) {
    v.kind = TomlValue::STRING;
    ++pos;
    while (pos < s.size() && s[pos] != '"' && s[pos] != '\n') {
      if (s[pos] == '\\') {
        ++pos;
        char e = pos < s.size() ? s[pos] : '\0';
        switch (e) {
        case '"':
        case '\\':
          v.s += e;
          break;
        case 'n':
          v.s += '\n';
          break;
        case 't':
          v.s += '\t';
          break;
        default:
          return fail(err, "unknown escape in a string");
        }
        ++pos;
        continue;
      }
      v.s += s[pos++];
    }
    if (pos >= s.size() || s[pos] != '"')
      return fail(err, "unterminated string");
    ++pos;
    return true;
  }

  bool number(const std::string &word, TomlValue &v, std::string &err) {
    std::string digits;
    for (size_t i = 0; i < word.size(); ++i) {
      if (word[i] == '_') {
        bool between = i > 0 && i + 1 < word.size() &&
                       isalnum((unsigned char)word[i - 1]) &&
                       isalnum((unsigned char)word[i + 1]);
        if (!between)
          return failAt(err, v.loc, "'_' must stand between two digits");
        continue;
      }
      digits += word[i];
    }
    if (digits.empty())
      return failAt(err, v.loc, "expected a value");
    const char *b = digits.c_str();
    char *end = nullptr;
    errno = 0;
    bool hex = digits.size() > 2 && digits[0] == '0' &&
               (digits[1] == 'x' || digits[1] == 'X');
    bool isFloat = !hex && digits.find_first_of(".eE") != std::string::npos;
    if (isFloat) {
      v.kind = TomlValue::FLOAT;
      v.f = strtod(b, &end);
    } else {
      v.kind = TomlValue::INT;
      v.i = hex ? (int64_t)strtoull(b + 2, &end, 16) : strtoll(b, &end, 10);
    }
    if (end == b || *end != '\0' || (hex && digits.size() == 2))
      return failAt(err, v.loc,
                    "'" + word +
                        "' is not a value (a number, "
                        "a \"string\", true or false)");
    if (errno == ERANGE)
      return failAt(err, v.loc, "'" + word + "' is out of range");
    return true;
  }
};

} // namespace

bool npcc::npsim::parseToml(const std::string &text, TomlDoc &doc,
                            std::string &err) {
  return Reader(text).document(doc, err);
}

bool npcc::npsim::parseTomlValue(const std::string &text, TomlValue &v,
                                 std::string &err) {
  return Reader(text).lone(v, err);
}
