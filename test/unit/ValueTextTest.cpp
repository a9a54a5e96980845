//===- ValueTextTest.cpp - handler values as text --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/value_text.h"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string format(uint32_t kind, uint64_t v) {
  nprt_strbuf b = {};
  nprt_value_format(kind, v, &b);
  std::string s = nprt_strbuf_str(&b);
  nprt_strbuf_free(&b);
  return s;
}

struct Parsed {
  nprt_value_status status;
  uint64_t value;
};

Parsed parse(uint32_t kind, const std::string &word) {
  Parsed p = {NPRT_VALUE_OK, 0xdeadbeef};
  p.status = nprt_value_parse(kind, word.data(), word.size(), &p.value);
  return p;
}

void expectValue(uint32_t kind, const std::string &word, uint64_t v) {
  Parsed p = parse(kind, word);
  EXPECT_EQ(p.status, NPRT_VALUE_OK) << word;
  EXPECT_EQ(p.value, v) << word;
}

void expectStatus(uint32_t kind, const std::string &word, nprt_value_status s) {
  EXPECT_EQ(parse(kind, word).status, s) << word;
}

constexpr uint32_t U(uint32_t w) { return NPRT_VAL_UINT | w; }
constexpr uint32_t I(uint32_t w) { return NPRT_VAL_INT | w; }

TEST(ValueText, FormatsEveryKind) {
  EXPECT_EQ(format(U(64), 0), "0");
  EXPECT_EQ(format(U(64), UINT64_MAX), "18446744073709551615");
  EXPECT_EQ(format(U(8), 0x1ff), "255");             // only the width's bits
  EXPECT_EQ(format(U(32), 0x12151401), "303371265"); // numbers stay numbers
  EXPECT_EQ(format(I(16), (uint64_t)-5), "-5");
  EXPECT_EQ(format(I(16), 0xfffb), "-5"); // sign-extended from the width
  EXPECT_EQ(format(I(8), 127), "127");
  EXPECT_EQ(format(I(8), 0x80), "-128");
  EXPECT_EQ(format(I(64), (uint64_t)INT64_MIN), "-9223372036854775808");
  EXPECT_EQ(format(I(1), 1), "-1");
  EXPECT_EQ(format(NPRT_VAL_BOOL, 1), "true");
  EXPECT_EQ(format(NPRT_VAL_BOOL, 0), "false");
  EXPECT_EQ(format(NPRT_VAL_PREFIX, (24ull << 32) | 0x121a0400u),
            "18.26.4.0/24");
  EXPECT_EQ(format(NPRT_VAL_PREFIX, 0), "0.0.0.0/0");
  EXPECT_EQ(format(NPRT_VAL_PREFIX, (32ull << 32) | 0xffffffffu),
            "255.255.255.255/32");
  // A width left 0 means 64.
  EXPECT_EQ(format(NPRT_VAL_UINT, UINT64_MAX), "18446744073709551615");
}

TEST(ValueText, ParsesUnsignedIntegers) {
  expectValue(U(16), "0", 0);
  expectValue(U(16), "65535", 65535);
  expectValue(U(16), "0xffff", 65535);
  expectValue(U(16), "0XFfFf", 65535);
  expectValue(U(16), "007", 7); // decimal, never octal
  expectValue(U(64), "18446744073709551615", UINT64_MAX);
  expectValue(U(64), "0xffffffffffffffff", UINT64_MAX);
  expectValue(U(1), "1", 1);
  expectStatus(U(16), "65536", NPRT_VALUE_RANGE);
  expectStatus(U(16), "0x10000", NPRT_VALUE_RANGE);
  expectStatus(U(1), "2", NPRT_VALUE_RANGE);
  expectStatus(U(64), "18446744073709551616", NPRT_VALUE_RANGE);
  expectStatus(U(64), "0x10000000000000000", NPRT_VALUE_RANGE);
  expectStatus(U(8), "-1", NPRT_VALUE_RANGE);
  for (const char *bad :
       {"", "x", "12a", "0x", "0xg", "+1", "1.5", "--1", "-", " 1", "1e3"})
    expectStatus(U(16), bad, NPRT_VALUE_SYNTAX);
}

TEST(ValueText, ParsesAddressesForWideUnsigned) {
  expectValue(U(32), "18.26.4.1", 0x121a0401u);
  expectValue(U(32), "255.255.255.255", 0xffffffffu);
  expectValue(U(64), "0.0.0.1", 1);
  expectValue(U(48), "00:00:c0:ae:67:ef", 0xc0ae67efull);
  expectValue(U(48), "0:0:C0:AE:67:EF", 0xc0ae67efull);
  expectValue(U(48), "ff:ff:ff:ff:ff:ff", 0xffffffffffffull);
  expectValue(U(48), "1.2.3.4", 0x01020304u);
  // Narrower than 32 bits: no dotted quads; only width 48 takes MACs.
  expectStatus(U(16), "1.2.3.4", NPRT_VALUE_SYNTAX);
  expectStatus(U(64), "00:00:c0:ae:67:ef", NPRT_VALUE_SYNTAX);
  for (const char *bad : {"1.2.3", "1.2.3.4.5", "256.1.1.1", "1..2.3",
                          "1.2.3.4/8", "1.2.3.", "a.b.c.d", "1.2.3.1000"})
    expectStatus(U(32), bad, NPRT_VALUE_SYNTAX);
  for (const char *bad :
       {"00:00:c0:ae:67", "00:00:c0:ae:67:ef:01", "000:00:c0:ae:67:ef",
        "00:00:c0:ae:67:eg", "00::c0:ae:67:ef"})
    expectStatus(U(48), bad, NPRT_VALUE_SYNTAX);
}

TEST(ValueText, ParsesSignedIntegers) {
  expectValue(I(8), "127", 127);
  expectValue(I(8), "-128", (uint64_t)-128);
  expectValue(I(8), "-0", 0);
  expectValue(I(8), "0x7f", 127);
  expectValue(I(8), "-0x80", (uint64_t)-128);
  expectValue(I(64), "-9223372036854775808", (uint64_t)INT64_MIN);
  expectValue(I(64), "9223372036854775807", (uint64_t)INT64_MAX);
  expectValue(I(1), "-1", UINT64_MAX);
  expectValue(I(1), "0", 0);
  expectStatus(I(8), "128", NPRT_VALUE_RANGE);
  expectStatus(I(8), "-129", NPRT_VALUE_RANGE);
  expectStatus(I(8), "0xff", NPRT_VALUE_RANGE); // hex is a magnitude
  expectStatus(I(1), "1", NPRT_VALUE_RANGE);
  expectStatus(I(64), "9223372036854775808", NPRT_VALUE_RANGE);
  expectStatus(I(64), "-9223372036854775809", NPRT_VALUE_RANGE);
  for (const char *bad : {"", "-", "--1", "1-", "abc", "1.2.3.4", "- 1"})
    expectStatus(I(32), bad, NPRT_VALUE_SYNTAX);
}

TEST(ValueText, ParsesBools) {
  for (const char *t : {"true", "yes", "1"})
    expectValue(NPRT_VAL_BOOL, t, 1);
  for (const char *f : {"false", "no", "0"})
    expectValue(NPRT_VAL_BOOL, f, 0);
  for (const char *bad : {"", "2", "truee", "t", "on", "-1", "01"})
    expectStatus(NPRT_VAL_BOOL, bad, NPRT_VALUE_SYNTAX);
}

TEST(ValueText, ParsesPrefixes) {
  const uint32_t P = NPRT_VAL_PREFIX;
  expectValue(P, "18.26.4.0/24", (24ull << 32) | 0x121a0400u);
  expectValue(P, "18.26.4.0/255.255.255.0", (24ull << 32) | 0x121a0400u);
  expectValue(P, "18.26.4.9", (32ull << 32) | 0x121a0409u);
  expectValue(P, "0.0.0.0/0", 0);
  expectValue(P, "0.0.0.0/0.0.0.0", 0);
  expectValue(P, "1.2.3.4/255.255.255.255", (32ull << 32) | 0x01020304u);
  // Host bits are kept as written (NPL's prefix literals do the same).
  expectValue(P, "18.26.4.9/24", (24ull << 32) | 0x121a0409u);
  // Click's short forms: with a length, the address may stop early.
  expectValue(P, "0/0", 0);
  expectValue(P, "10/8", (8ull << 32) | 0x0a000000u);
  expectValue(P, "18.26.4/24", (24ull << 32) | 0x121a0400u);
  expectStatus(P, "1.2.3.4/33", NPRT_VALUE_RANGE);
  expectStatus(P, "1.2.3.4/100", NPRT_VALUE_RANGE);
  for (const char *bad : {"", "/24", "1.2.3.4/", "1.2.3.4/x", "1.2.3/25", "10",
                          "1.2.3", "1.2.3.4/255.0.255.0", "1.2.3.4/255.255.255",
                          "1.2.3.4/24/1", "1.2.3.4/-1", "1..3/24", "1.2.3./24"})
    expectStatus(P, bad, NPRT_VALUE_SYNTAX);
}

// Formatting then parsing gives the value back, for every kind.
TEST(ValueText, FormatAndParseRoundTrip) {
  struct Case {
    uint32_t kind;
    uint64_t v;
  } cases[] = {{U(7), 100},
               {U(32), 0xffffffffu},
               {U(48), 0xffffffffffffull},
               {U(64), UINT64_MAX},
               {I(16), (uint64_t)-32768},
               {I(33), (uint64_t)-(1ll << 32)},
               {NPRT_VAL_BOOL, 1},
               {NPRT_VAL_PREFIX, (16ull << 32) | 0x0a000000u}};
  for (const Case &c : cases) {
    std::string text = format(c.kind, c.v);
    expectValue(c.kind, text, c.v);
  }
}

struct Args {
  int rc;
  uint64_t v[NPRT_MAX_HANDLER_ARGS];
  std::string err;
};

Args args(const nprt_handler_desc &h, const std::string &text) {
  Args a;
  nprt_strbuf err = {};
  a.rc = nprt_args_parse(&h, "e.h", text.data(), text.size(), a.v, &err);
  a.err = nprt_strbuf_str(&err);
  nprt_strbuf_free(&err);
  return a;
}

TEST(ValueText, SplitsArgumentsOnSpacesAndCommas) {
  const uint32_t params[] = {U(8), I(8), NPRT_VAL_BOOL};
  nprt_handler_desc h = {"h", true, nullptr, 0, 3, params, nullptr};
  for (const char *text :
       {"1 -2 yes", "1,-2,yes", " 1 ,\t-2 , yes \r\n", "1,,-2,,yes"}) {
    Args a = args(h, text);
    ASSERT_EQ(a.rc, 0) << text << ": " << a.err;
    EXPECT_EQ(a.v[0], 1u);
    EXPECT_EQ(a.v[1], (uint64_t)-2);
    EXPECT_EQ(a.v[2], 1u);
    EXPECT_EQ(a.v[3], 0u); // past the parameters
  }
}

// Click's ADDR/MASK [GW] PORT: with two words the defaulted GW is left out.
TEST(ValueText, DefaultsAreLeftOutFirstOnesFirst) {
  const uint32_t params[] = {U(8) | NPRT_VAL_DEFAULT, U(8),
                             U(8) | NPRT_VAL_DEFAULT, U(8) | NPRT_VAL_DEFAULT,
                             U(8)};
  const uint64_t defaults[] = {10, 0, 30, 40, 0};
  nprt_handler_desc h = {"h", true, nullptr, 0, 5, params, defaults};
  Args a = args(h, "1 2 3 4 5");
  ASSERT_EQ(a.rc, 0) << a.err;
  EXPECT_EQ(std::vector<uint64_t>(a.v, a.v + 5),
            (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  a = args(h, "2 4 5"); // the first two defaults taken
  ASSERT_EQ(a.rc, 0) << a.err;
  EXPECT_EQ(std::vector<uint64_t>(a.v, a.v + 5),
            (std::vector<uint64_t>{10, 2, 30, 4, 5}));
  a = args(h, "2 3 4 5"); // only the first
  ASSERT_EQ(a.rc, 0) << a.err;
  EXPECT_EQ(std::vector<uint64_t>(a.v, a.v + 5),
            (std::vector<uint64_t>{10, 2, 3, 4, 5}));
  a = args(h, "2 5"); // all of them
  ASSERT_EQ(a.rc, 0) << a.err;
  EXPECT_EQ(std::vector<uint64_t>(a.v, a.v + 5),
            (std::vector<uint64_t>{10, 2, 30, 40, 5}));
  // A table without defaults gives 0.
  h.defaults = nullptr;
  a = args(h, "2 5");
  ASSERT_EQ(a.rc, 0) << a.err;
  EXPECT_EQ(a.v[0], 0u);
}

TEST(ValueText, WrongArgumentCountsAreErrors) {
  const uint32_t params[] = {U(8), U(8) | NPRT_VAL_DEFAULT};
  nprt_handler_desc h = {"h", true, nullptr, 0, 2, params, nullptr};
  EXPECT_EQ(args(h, "").err, "write handler 'e.h' takes 1 to 2 arguments, "
                             "got 0");
  EXPECT_EQ(args(h, "1 2 3").err,
            "write handler 'e.h' takes 1 to 2 arguments, got 3");
  h.n_params = 1;
  EXPECT_EQ(args(h, "1 2").err, "write handler 'e.h' takes 1 argument, got 2");
  h.n_params = 0;
  EXPECT_EQ(args(h, "x").err, "write handler 'e.h' takes no arguments, got 1");
  EXPECT_EQ(args(h, " , ").rc, 0);
  const uint32_t two[] = {U(8), U(8)};
  nprt_handler_desc h2 = {"h", true, nullptr, 0, 2, two, nullptr};
  EXPECT_EQ(args(h2, "1").err, "write handler 'e.h' takes 2 arguments, got 1");
}

TEST(ValueText, BadWordsNameThePositionAndTheWord) {
  const uint32_t params[] = {U(16),           I(8),  NPRT_VAL_BOOL,
                             NPRT_VAL_PREFIX, U(32), U(48)};
  nprt_handler_desc h = {"h", true, nullptr, 0, 6, params, nullptr};
  const char *good[] = {"1", "-1", "yes", "1.2.3.4/8", "1.2.3.4", "1"};
  auto with = [&](int k, const char *word) {
    std::string text;
    for (int i = 0; i < 6; ++i)
      text += std::string(i == k ? word : good[i]) + " ";
    return args(h, text);
  };
  EXPECT_EQ(with(0, "x").err,
            "write handler 'e.h': argument 1 'x' is not a u16");
  EXPECT_EQ(with(0, "70000").err,
            "write handler 'e.h': argument 1 '70000' is out of range for u16 "
            "(0..65535)");
  EXPECT_EQ(with(1, "-129").err,
            "write handler 'e.h': argument 2 '-129' is out of range for i8 "
            "(-128..127)");
  EXPECT_EQ(with(1, "1.5").err,
            "write handler 'e.h': argument 2 '1.5' is not an i8");
  EXPECT_EQ(with(2, "maybe").err,
            "write handler 'e.h': argument 3 'maybe' is not a bool "
            "(true/false, yes/no, 1/0)");
  EXPECT_EQ(with(3, "1.2.3.4/40").err,
            "write handler 'e.h': argument 4 '1.2.3.4/40' is out of range for "
            "a prefix length (0..32)");
  EXPECT_EQ(with(3, "1.2.3/32").err,
            "write handler 'e.h': argument 4 '1.2.3/32' is not an IPv4 prefix "
            "(a.b.c.d/len)");
  EXPECT_EQ(with(4, "1.2.3.256").err,
            "write handler 'e.h': argument 5 '1.2.3.256' is not a u32 or an "
            "IPv4 address");
  EXPECT_EQ(with(5, "0:1:2").err,
            "write handler 'e.h': argument 6 '0:1:2' is not a u48, an IPv4 "
            "address or an Ethernet address");
  EXPECT_EQ(with(5, "0x1000000000000").err,
            "write handler 'e.h': argument 6 '0x1000000000000' is out of range "
            "for u48 (0..281474976710655)");
  EXPECT_EQ(with(-1, "").rc, 0);
}

} // namespace
