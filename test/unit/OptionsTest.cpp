//===- OptionsTest.cpp - command line of compiled programs -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "nprt/version.h"
#include "test/unit/Handlers.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

using namespace nprt_test;

namespace {

struct Parsed {
  nprt_parse_result result;
  std::string out, err;
  nprt_options opts;
  ~Parsed() { nprt_options_free(&opts); }
};

// The strings must outlive the options, which point into argv.
std::unique_ptr<Parsed> parse(std::vector<std::string> &args) {
  auto p = std::make_unique<Parsed>();
  nprt_options_init(&p->opts, "prog", "demo");
  FILE *out = tmpfile(), *err = tmpfile();
  p->opts.out = out;
  p->opts.err = err;
  std::vector<char *> argv;
  static char prog[] = "prog";
  argv.push_back(prog);
  for (std::string &a : args)
    argv.push_back(&a[0]);
  p->result = nprt_options_parse(&p->opts, (int)argv.size(), argv.data());
  p->out = readAll(out);
  p->err = readAll(err);
  fclose(out);
  fclose(err);
  p->opts.out = stdout;
  p->opts.err = stderr;
  return p;
}

TEST(Options, AcceptsBothSpellingsAndNumberedDevices) {
  std::vector<std::string> args = {
      "--in",     "a.pcap",         "--in=3=b.pcap",
      "--in",     "c.pcap",         "--out",
      "x.pcap",   "--out=2=y.pcap", "--stats-json=s.json",
      "--signal", "cnt=0x10",       "--signal=cnt=7",
      "--quiet"};
  auto p = parse(args);
  ASSERT_EQ(p->result, NPRT_PARSE_RUN) << p->err;
  ASSERT_EQ(p->opts.n_ins, 3u);
  EXPECT_EQ(p->opts.ins[0].dev, 0u);
  EXPECT_STREQ(p->opts.ins[0].path, "a.pcap");
  EXPECT_EQ(p->opts.ins[1].dev, 3u);
  EXPECT_STREQ(p->opts.ins[1].path, "b.pcap");
  EXPECT_EQ(p->opts.ins[2].dev, 2u); // the third --in
  ASSERT_EQ(p->opts.n_outs, 2u);
  EXPECT_EQ(p->opts.outs[1].dev, 2u);
  EXPECT_STREQ(p->opts.stats_json, "s.json");
  ASSERT_EQ(p->opts.n_signals, 2u);
  EXPECT_STREQ(p->opts.signals[0].inst, "cnt");
  EXPECT_EQ(p->opts.signals[0].value, 16u);
  EXPECT_EQ(p->opts.signals[1].value, 7u);
  EXPECT_TRUE(p->opts.quiet);
}

TEST(Options, UnknownFlagIsAnError) {
  std::vector<std::string> args = {"--bogus"};
  auto p = parse(args);
  EXPECT_EQ(p->result, NPRT_PARSE_ERROR);
  EXPECT_EQ(p->err, "prog: error: unknown option '--bogus'\n"
                    "prog: note: run 'prog --help' for usage\n");
  std::vector<std::string> args2 = {"--inn", "x"};
  EXPECT_EQ(parse(args2)->result, NPRT_PARSE_ERROR);
  std::vector<std::string> args3 = {"positional"};
  EXPECT_EQ(parse(args3)->result, NPRT_PARSE_ERROR);
}

TEST(Options, MissingValueIsAnError) {
  for (const char *flag : {"--in", "--out", "--stats-json", "--signal"}) {
    std::vector<std::string> args = {flag};
    auto p = parse(args);
    EXPECT_EQ(p->result, NPRT_PARSE_ERROR) << flag;
    EXPECT_EQ(p->err.rfind(std::string("prog: error: option '") + flag +
                               "' needs a value\n",
                           0),
              0u)
        << p->err;
  }
  std::vector<std::string> args = {"--stats-json="};
  EXPECT_EQ(parse(args)->result, NPRT_PARSE_ERROR);
}

TEST(Options, BadValuesAreErrors) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--signal", "noequals"},
        std::vector<std::string>{"--signal", "x=12abc"},
        std::vector<std::string>{"--signal", "x=-1"},
        std::vector<std::string>{"--signal", "=5"},
        std::vector<std::string>{"--in", "a", "--in", "0=b"},
        std::vector<std::string>{"--out", "99999=b"},
        std::vector<std::string>{"--in", "1="}}) {
    auto p = parse(args);
    EXPECT_EQ(p->result, NPRT_PARSE_ERROR) << args.back();
    EXPECT_EQ(p->err.rfind("prog: error: ", 0), 0u) << p->err;
  }
}

TEST(Options, HelpListsEveryFlag) {
  std::vector<std::string> args = {"--in", "a", "--help"};
  auto p = parse(args);
  EXPECT_EQ(p->result, NPRT_PARSE_HELP);
  for (const char *flag :
       {"--in", "--out", "--signal", "--stats-json", "--quiet", "--help",
        "--version", "device N", "Exit status"})
    EXPECT_NE(p->out.find(flag), std::string::npos) << flag;
}

TEST(Options, VersionNamesNpccAndLlvm) {
  std::vector<std::string> args = {"--version", "--in", "a"};
  auto p = parse(args);
  EXPECT_EQ(p->result, NPRT_PARSE_HELP);
  EXPECT_EQ(p->out, "prog (npcc) version " NPCC_VERSION_STRING
                    "\n  built with LLVM " NPCC_LLVM_VERSION_STRING "\n");
  EXPECT_EQ(p->err, "");
}

// What npcc emits for a FromDevice -> ToDevice program: constant tables.
const nprt_instance_desc PassthroughInstances[] = {
    {"src", "FromDevice", "", "o", "npu", nullptr, fromDevice, nullptr, nullptr,
     0, nullptr, 0, nullptr},
    {"sink", "ToDevice", "i", "", "npu", nullptr, toDevice, nullptr, nullptr, 0,
     nullptr, 0, nullptr}};
const nprt_channel_desc PassthroughChannels[] = {{0, 0, 1, 0, 16, false}};
const nprt_program Passthrough = {"passthrough", PassthroughInstances, 2,
                                  PassthroughChannels, 1};

TEST(Main, RunsAProgramEndToEnd) {
  resetState();
  PcapBuilder b;
  for (unsigned i = 0; i < 50; ++i)
    b.packet(i, i, frame(64 + i, i));
  std::string in = tempPath("main.pcap"), out = tempPath("main-out.pcap");
  writeFile(in, b.bytes);
  std::string a0 = "/some/dir/prog", a1 = "--quiet", a2 = "--in=" + in,
              a3 = "--out=" + out;
  char *argv[] = {&a0[0], &a1[0], &a2[0], &a3[0], nullptr};
  EXPECT_EQ(nprt_main(4, argv, &Passthrough), 0);
  EXPECT_EQ(readFile(out), b.bytes);
}

TEST(Main, BadCommandLineExitsWithOne) {
  std::string a0 = "prog", a1 = "--out";
  char *argv[] = {&a0[0], &a1[0], nullptr};
  testing::internal::CaptureStderr();
  EXPECT_EQ(nprt_main(2, argv, &Passthrough), 1);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("prog: error: option '--out' needs a value\n", 0), 0u)
      << err;
}

} // namespace
