//===- JsonCheck.h - a tiny JSON validator for the stats tests --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPRT_TEST_UNIT_JSONCHECK_H
#define NPRT_TEST_UNIT_JSONCHECK_H

#include <cctype>
#include <cstring>
#include <string>

namespace nprt_test {

/// Recursive-descent check of RFC 8259 syntax (no semantic checks).
class JsonChecker {
public:
  explicit JsonChecker(const std::string &text) : s(text) {}

  bool check(std::string &why) {
    bool ok = value() && (ws(), i == s.size());
    if (!ok)
      why = "invalid JSON near offset " + std::to_string(i);
    return ok;
  }

private:
  void ws() {
    while (i < s.size() && strchr(" \t\r\n", s[i]))
      ++i;
  }
  bool lit(const char *w) {
    size_t n = strlen(w);
    if (s.compare(i, n, w) != 0)
      return false;
    i += n;
    return true;
  }
  bool string() {
    if (s[i] != '"')
      return false;
    for (++i; i < s.size(); ++i) {
      unsigned char c = s[i];
      if (c == '"') {
        ++i;
        return true;
      }
      if (c < 0x20)
        return false;
      if (c == '\\') {
        ++i;
        if (i >= s.size() || !strchr("\"\\/bfnrtu", s[i]))
          return false;
        if (s[i] == 'u')
          for (int k = 0; k < 4; ++k)
            if (++i >= s.size() || !isxdigit((unsigned char)s[i]))
              return false;
      }
    }
    return false;
  }
  bool number() {
    size_t start = i;
    if (s[i] == '-')
      ++i;
    while (i < s.size() && isdigit((unsigned char)s[i]))
      ++i;
    if (i < s.size() && s[i] == '.')
      for (++i; i < s.size() && isdigit((unsigned char)s[i]);)
        ++i;
    return i > start && isdigit((unsigned char)s[i - 1]);
  }
  template <typename F> bool list(char close, F item) {
    ++i;
    ws();
    if (i < s.size() && s[i] == close)
      return ++i, true;
    for (;;) {
      if (!item())
        return false;
      ws();
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      return i < s.size() && s[i++] == close;
    }
  }
  bool value() {
    ws();
    if (i >= s.size())
      return false;
    switch (s[i]) {
    case '{':
      return list('}', [&] {
        ws();
        if (i >= s.size() || !string())
          return false;
        ws();
        return i < s.size() && s[i++] == ':' && value();
      });
    case '[':
      return list(']', [&] { return value(); });
    case '"':
      return string();
    case 't':
      return lit("true");
    case 'f':
      return lit("false");
    case 'n':
      return lit("null");
    default:
      return number();
    }
  }
  const std::string &s;
  size_t i = 0;
};

inline bool jsonValid(const std::string &text, std::string &why) {
  return JsonChecker(text).check(why);
}

} // namespace nprt_test

#endif // NPRT_TEST_UNIT_JSONCHECK_H
