//===- ProgramExpandTest.cpp - compact programs, expanded -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/program_expand.h"
#include "test/unit/HandlerProgram.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace nprt_test;

namespace {

// Field by field, every field abi.def declares: strings by their text,
// everything else by value (pointers by address).
template <typename T> void expectSameField(const T &a, const T &b) {
  EXPECT_EQ(a, b);
}
void expectSameField(const char *const &a, const char *const &b) {
  if (!a || !b)
    EXPECT_EQ(a, b);
  else
    EXPECT_STREQ(a, b);
}

#define NPRT_ABI_STRUCT(name)                                                  \
  [[maybe_unused]] void expectSame(const name &a, const name &b,               \
                                   const std::string &what) {
#define NPRT_ABI_FIELD(strct, field, ctype)                                    \
  {                                                                            \
    SCOPED_TRACE(what + "." #field);                                           \
    expectSameField(a.field, b.field);                                         \
  }
#define NPRT_ABI_STRUCT_END(name) }
#include "nprt/abi.def" // undefines the three

void pushNothing() {}
void handlerA(nprt_inst *) {}
void handlerB(nprt_inst *) {}
void signalB(nprt_inst *, int64_t) {}

const nprt_push_fn pushFnsB[] = {nullptr, pushNothing};
const uint64_t stateB = 42;
const nprt_shared_desc sharedB[] = {{16, nullptr}};
const nprt_merge_desc mergesB[] = {{8, 8, 64, 1, 0}};

// Two classes: a source and a two-port replicated element with every
// kind of field set.
std::vector<nprt_instance_desc> testClasses() {
  std::vector<nprt_instance_desc> c(2);
  c[0].element = "Source";
  c[0].in_ports = "";
  c[0].out_ports = "o";
  c[0].placement = "host";
  c[0].handler = handlerA;
  c[1].element = "Worker";
  c[1].in_ports = "a, b";
  c[1].out_ports = "o";
  c[1].placement = "npu";
  c[1].init = handlerA;
  c[1].handler = handlerB;
  c[1].signal = signalB;
  c[1].timer = handlerA;
  c[1].timer_period = 1000;
  c[1].fini = handlerB;
  c[1].state_size = sizeof(stateB);
  c[1].state_init = &stateB;
  c[1].push_ports = 2;
  c[1].shared = &sharedB[0];
  c[1].replicate = true;
  c[1].merges = mergesB;
  c[1].n_merges = 1;
  c[1].select_ports = 2;
  c[1].push_fns = pushFnsB;
  return c;
}

const char testNames[] = "src\0c0\0c1";
const uint32_t testInstClass[] = {0, 1, 1};
const uint32_t testChannelWords[] = {
    1, 0, 0, 1, 1, 64, NPRT_CHANNEL_LOSSY,                          //
    1, 1, 0, 2, 1, 0,  NPRT_CHANNEL_FUSED | NPRT_CHANNEL_UNCOUNTED, //
};

nprt_program compactProgram(const std::vector<nprt_instance_desc> &classes) {
  nprt_program p = {};
  p.name = "compact";
  p.n_instances = 3;
  p.n_channels = 2;
  p.n_shared = 1;
  p.shared = sharedB;
  p.cores = 4;
  p.mapping = NPRT_MAPPING_RTC;
  p.classes = classes.data();
  p.n_classes = (uint32_t)classes.size();
  p.inst_names = testNames;
  p.inst_class = testInstClass;
  p.channel_words = testChannelWords;
  return p;
}

struct Expanded {
  int rc;
  nprt_program out;
  void *storage;
  std::string err;
  ~Expanded() { nprt_program_expand_free(storage); }
};

std::unique_ptr<Expanded> expand(const nprt_program &in) {
  auto e = std::make_unique<Expanded>();
  FILE *err = tmpfile();
  e->rc = nprt_program_expand(&in, &e->out, &e->storage, err, "prog");
  e->err = readAll(err);
  fclose(err);
  return e;
}

TEST(ProgramExpand, CompactTablesExpandFieldByField) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  auto e = expand(in);
  ASSERT_EQ(e->rc, 0) << e->err;
  EXPECT_EQ(e->err, "");
  ASSERT_NE(e->storage, nullptr);
  ASSERT_NE(e->out.instances, nullptr);
  ASSERT_NE(e->out.channels, nullptr);

  // Everything but the two tables is the input's.
  nprt_program rest = in;
  rest.instances = e->out.instances;
  rest.channels = e->out.channels;
  expectSame(e->out, rest, "program");

  const char *names[] = {"src", "c0", "c1"};
  for (uint32_t i = 0; i < 3; ++i) {
    nprt_instance_desc want = classes[testInstClass[i]];
    want.name = names[i];
    expectSame(e->out.instances[i], want, "instance " + std::to_string(i));
  }
  // The names point into the blob.
  EXPECT_EQ(e->out.instances[0].name, testNames);
  EXPECT_EQ(e->out.instances[1].name, testNames + 4);
  EXPECT_EQ(e->out.instances[2].name, testNames + 7);
  // The classes are left unnamed.
  EXPECT_EQ(classes[0].name, nullptr);
  EXPECT_EQ(classes[1].name, nullptr);

  nprt_channel_desc c0 = {0, 0, 1, 1, 64, true, false, false};
  nprt_channel_desc c1 = {1, 0, 2, 1, 0, false, true, true};
  expectSame(e->out.channels[0], c0, "channel 0");
  expectSame(e->out.channels[1], c1, "channel 1");
}

TEST(ProgramExpand, FullTablesAreKept) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  nprt_channel_desc chans[] = {{0, 0, 1, 0, 8, false, false, false}};
  in.instances = classes.data();
  in.n_instances = 2;
  in.channels = chans;
  in.n_channels = 1;
  // Compact tables that do not fit are not read when the full ones are
  // given.
  in.inst_class = nullptr;
  in.channel_words = nullptr;
  auto e = expand(in);
  ASSERT_EQ(e->rc, 0) << e->err;
  EXPECT_EQ(e->storage, nullptr);
  EXPECT_EQ(e->out.instances, classes.data());
  EXPECT_EQ(e->out.channels, chans);
  expectSame(e->out, in, "program");

  // An empty program expands nothing either.
  nprt_program empty = {};
  auto f = expand(empty);
  ASSERT_EQ(f->rc, 0) << f->err;
  EXPECT_EQ(f->storage, nullptr);
  EXPECT_EQ(f->out.instances, nullptr);
  EXPECT_EQ(f->out.channels, nullptr);
}

TEST(ProgramExpand, EachTableExpandsOnItsOwn) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_channel_desc chans[] = {{2, 0, 1, 0, 8, false, false, false}};
  nprt_program in = compactProgram(classes);
  in.channels = chans;
  in.n_channels = 1;
  auto e = expand(in);
  ASSERT_EQ(e->rc, 0) << e->err;
  EXPECT_EQ(e->out.channels, chans);
  ASSERT_NE(e->out.instances, nullptr);
  EXPECT_STREQ(e->out.instances[2].name, "c1");

  std::vector<nprt_instance_desc> full = classes;
  full.push_back(classes[1]);
  nprt_program in2 = compactProgram(classes);
  in2.instances = full.data();
  auto f = expand(in2);
  ASSERT_EQ(f->rc, 0) << f->err;
  EXPECT_EQ(f->out.instances, full.data());
  ASSERT_NE(f->out.channels, nullptr);
  EXPECT_EQ(f->out.channels[1].dst, 2u);
  EXPECT_TRUE(f->out.channels[1].fused);
}

// Every error reports and expands nothing.
void expectError(const nprt_program &in, const std::string &message) {
  auto e = expand(in);
  EXPECT_NE(e->rc, 0);
  EXPECT_EQ(e->storage, nullptr);
  EXPECT_EQ(e->err,
            "prog: error: malformed program description: " + message + "\n");
}

TEST(ProgramExpand, ClassOutOfRangeIsAnError) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  const uint32_t badClass[] = {0, 1, 2};
  in.inst_class = badClass;
  expectError(in, "instance 2 ('c1') has class 2, the program has 2 classes");
  in.n_classes = 0;
  in.classes = nullptr;
  expectError(in, "instance 0 ('src') has class 0, the program has 0 classes");
}

TEST(ProgramExpand, ChannelToAMissingInstanceIsAnError) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  uint32_t words[2 * NPRT_CHANNEL_WORDS];
  std::memcpy(words, testChannelWords, sizeof(words));
  words[NPRT_CHANNEL_WORDS + 3] = 3;
  in.channel_words = words;
  expectError(in, "channel 1 goes from instance 1 to instance 3, the program "
                  "has 3 instances");
  words[NPRT_CHANNEL_WORDS + 3] = 2;
  words[1] = 7;
  expectError(in, "channel 0 goes from instance 7 to instance 1, the program "
                  "has 3 instances");
  // With the instances in full, their count bounds the channels alike.
  words[1] = 0;
  in.instances = classes.data();
  in.n_instances = 2;
  expectError(in, "channel 1 goes from instance 1 to instance 2, the program "
                  "has 2 instances");
}

TEST(ProgramExpand, MalformedTablesAreErrors) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  // Fewer names than instances: the literal's own NUL after the last
  // name's ends the blob.
  in.inst_names = "src\0c0\0";
  expectError(in, "inst_names has no name for instance 2 of 3");
  struct Missing {
    void (*clear)(nprt_program &);
    const char *message;
  };
  for (const Missing &m : {
           Missing{[](nprt_program &p) { p.inst_names = nullptr; },
                   "3 instances, but inst_names is NULL"},
           Missing{[](nprt_program &p) { p.inst_class = nullptr; },
                   "3 instances, but inst_class is NULL"},
           Missing{[](nprt_program &p) { p.classes = nullptr; },
                   "2 classes, but classes is NULL"},
           Missing{[](nprt_program &p) { p.channel_words = nullptr; },
                   "2 channels, but channel_words is NULL"},
       }) {
    in = compactProgram(classes);
    m.clear(in);
    expectError(in, m.message);
  }
  in = compactProgram(classes);
  uint32_t words[2 * NPRT_CHANNEL_WORDS];
  std::memcpy(words, testChannelWords, sizeof(words));
  words[NPRT_CHANNEL_WORDS + 6] |= 8;
  in.channel_words = words;
  expectError(in, "channel 1 has unknown flags 0x8");
}

// A run stands for channels whose ends both advance by one: a chain.
TEST(ProgramExpand, ChannelRunsAreChains) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  const uint32_t chain[] = {2, 0, 0, 1, 1, 16, NPRT_CHANNEL_FUSED};
  in.channel_words = chain;
  auto e = expand(in);
  ASSERT_EQ(e->rc, 0) << e->err;
  for (uint32_t k = 0; k < 2; ++k) {
    const nprt_channel_desc &c = e->out.channels[k];
    EXPECT_EQ(c.src, k);
    EXPECT_EQ(c.dst, k + 1);
    EXPECT_EQ(c.src_port, 0u);
    EXPECT_EQ(c.dst_port, 1u);
    EXPECT_EQ(c.depth, 16u);
    EXPECT_TRUE(c.fused);
    EXPECT_FALSE(c.lossy);
  }
  // A run past the last instance, or past the channels, is an error.
  const uint32_t longRun[] = {2, 1, 0, 2, 1, 16, 0};
  in.channel_words = longRun;
  expectError(in, "channel 0 goes from instance 2 to instance 3, the program "
                  "has 3 instances");
  const uint32_t tooMany[] = {3, 0, 0, 0, 0, 16, 0};
  in.channel_words = tooMany;
  expectError(in, "a run of 3 channels from channel 0, the program has 2");
}

// The stages of every core count come in runs of one stage.
TEST(ProgramExpand, StageRuns) {
  std::vector<nprt_instance_desc> classes = testClasses();
  nprt_program in = compactProgram(classes);
  // 16 rows of 3 instances: all in stage 0, but instance 2 in stage 1
  // from two cores on; the runs cross rows.
  std::vector<uint8_t> want(NPRT_MAX_CORES * 3, 0);
  for (unsigned row = 1; row < NPRT_MAX_CORES; ++row)
    want[row * 3 + 2] = 1;
  std::vector<uint32_t> runs;
  for (size_t k = 0; k < want.size();) {
    size_t end = k;
    while (end < want.size() && want[end] == want[k])
      ++end;
    runs.insert(runs.end(), {(uint32_t)(end - k), want[k]});
    k = end;
  }
  in.stage_runs = runs.data();
  auto e = expand(in);
  ASSERT_EQ(e->rc, 0) << e->err;
  ASSERT_NE(e->out.stages, nullptr);
  EXPECT_EQ(std::vector<uint8_t>(e->out.stages, e->out.stages + want.size()),
            want);
  const uint32_t bad[] = {48, 16};
  in.stage_runs = bad;
  expectError(in, "a run of 48 stages 16 at stage entry 0 of 48");
}

// nprt_main runs a compact program as it runs the same program in full.
struct CompactCounters {
  std::vector<nprt_instance_desc> classes;
  std::vector<uint32_t> instClass, words;
  nprt_program program;

  CompactCounters() {
    const nprt_program &full = nprt_test_counter_program;
    // src, c1, c2, sink: c1 and c2 share a class.
    for (uint32_t i : {0u, 1u, 3u}) {
      classes.push_back(full.instances[i]);
      classes.back().name = nullptr;
    }
    instClass = {0, 1, 1, 2};
    for (uint32_t k = 0; k < full.n_channels; ++k) {
      const nprt_channel_desc &c = full.channels[k];
      words.insert(words.end(),
                   {1u, c.src, c.src_port, c.dst, c.dst_port, c.depth,
                    c.lossy ? (uint32_t)NPRT_CHANNEL_LOSSY : 0u});
    }
    program = full;
    program.instances = nullptr;
    program.channels = nullptr;
    program.classes = classes.data();
    program.n_classes = (uint32_t)classes.size();
    program.inst_names = "src\0c1\0c2\0sink";
    program.inst_class = instClass.data();
    program.channel_words = words.data();
  }
};

TEST(ProgramExpand, MainRunsTheCompactForm) {
  CompactCounters compact;
  std::string a0 = "prog", a1 = "-h", a2 = "list", a3 = "--quiet",
              a4 = "--handler=c2.limit";
  char *argv[] = {&a0[0], &a1[0], &a2[0], &a3[0], &a4[0], nullptr};
  testing::internal::CaptureStdout();
  EXPECT_EQ(nprt_main(5, argv, &nprt_test_counter_program), 0);
  std::string want = testing::internal::GetCapturedStdout();
  EXPECT_EQ(want, "list:\n4\nsrc\nc1\nc2\nsink\n\nc2.limit:\n100\n\n");
  testing::internal::CaptureStdout();
  EXPECT_EQ(nprt_main(5, argv, &compact.program), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), want);

  compact.instClass[2] = 3;
  testing::internal::CaptureStderr();
  EXPECT_EQ(nprt_main(5, argv, &compact.program), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "prog: error: malformed program description: instance 2 ('c2') "
            "has class 3, the program has 3 classes\n");
}

} // namespace
