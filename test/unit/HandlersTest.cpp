//===- HandlersTest.cpp - -h and the control socket -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The program is test/unit/HandlerProgram.c: src -> c1 -> c2 -> sink, two
// Counters with handlers of every value kind, written in C as npcc emits.
//
//===----------------------------------------------------------------------===//
#include "test/unit/Handlers.h"
#include "test/unit/HandlerProgram.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>

using namespace nprt_test;

namespace {

class Handlers : public ::testing::Test {
protected:
  void SetUp() override {
    g = nprt_test_graph_create();
    nprt_graph_load(g, &nprt_test_counter_program);
    nprt_options_init(&opts, "prog", "Counters");
    opts.quiet = true;
  }
  void TearDown() override {
    opts.handlers = nullptr; // points into `names`
    opts.n_handlers = 0;
    nprt_options_free(&opts);
    nprt_test_graph_destroy(g);
  }
  /// A pcap of `n` frames of 60 bytes as input device 0.
  void input(unsigned n) {
    PcapBuilder b;
    for (unsigned i = 0; i < n; ++i)
      b.packet(i, 0, frame(60, i));
    inPath = tempPath("handlers.pcap");
    writeFile(inPath, b.bytes);
    in = {0, inPath.c_str()};
    opts.ins = &in;
    opts.n_ins = 1;
  }
  RunResult runWith(std::vector<const char *> hs) {
    names = std::move(hs);
    opts.handlers = names.data();
    opts.n_handlers = (uint32_t)names.size();
    RunResult r = run(g, opts);
    opts.ins = nullptr; // not malloc'd
    opts.n_ins = 0;
    return r;
  }
  std::string command(const std::string &line, bool *quit = nullptr,
                      bool *stop = nullptr) {
    bool q, s;
    char *out = nprt_test_control_command(g, line.c_str(), &q, &s);
    std::string r = out;
    free(out);
    if (quit)
      *quit = q;
    if (stop)
      *stop = s;
    return r;
  }
  nprt_graph *g;
  nprt_options opts;
  std::vector<const char *> names;
  std::string inPath;
  nprt_dev_file in;
};

TEST_F(Handlers, OneHandlerPrintsJustItsValue) {
  input(7);
  RunResult r = runWith({"c1.count"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "7\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(Handlers, SeveralHandlersPrintNameValueAndABlankLine) {
  input(3);
  RunResult r =
      runWith({"c2.byte_count", "c1.limit", "c1.active", "c1.dst", "version"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "c2.byte_count:\n180\n\n"
                   "c1.limit:\n100\n\n"
                   "c1.active:\nfalse\n\n"
                   "c1.dst:\n0.0.0.0/0\n\n"
                   "version:\n0.1.0\n\n");
}

// A pattern (or an element name) may match several instances: each gets
// its name, even with a single -h.
TEST_F(Handlers, PatternsAndElementNamesReadEveryMatch) {
  input(2);
  RunResult r = runWith({"c*.count"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "c1.count:\n2\n\nc2.count:\n2\n\n");
  r = runWith({"Counter.name"});
  EXPECT_EQ(r.out, "c1.name:\nc1\n\nc2.name:\nc2\n\n");
  // Instances without the handler are skipped, silently.
  r = runWith({"*.count"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "c1.count:\n2\n\nc2.count:\n2\n\n");
  r = runWith({"[cs]?.class"});
  EXPECT_EQ(r.out, "c1.class:\nCounter\n\nc2.class:\nCounter\n\n");
}

TEST_F(Handlers, GenericAndGlobalHandlers) {
  RunResult r = runWith({"sink.handlers", "c1.handlers", "list", "classes",
                         "handlers", "src.class"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "sink.handlers:\nname\tr\nclass\tr\nhandlers\tr\n\n"
                   "c1.handlers:\nname\tr\nclass\tr\nhandlers\tr\n"
                   "count\tr\nbyte_count\tr\nreset\tw\nlimit\trw\nconfig\tw\n"
                   "active\tr\noffset\tr\nmac\tr\nroute\tw\ndst\tr\ngw\tr\n"
                   "port\tr\n\n"
                   "list:\n4\nsrc\nc1\nc2\nsink\n\n"
                   "classes:\nFromDevice\nCounter\nToDevice\n\n"
                   "handlers:\nversion\tr\nlist\tr\nclasses\tr\nhandlers\tr\n"
                   "stop\tw\n\n"
                   "src.class:\nFromDevice\n\n");
}

// Errors are reported after the others are printed, and exit with 1.
TEST_F(Handlers, MissingAndWriteOnlyHandlersAreErrors) {
  input(1);
  RunResult r = runWith({"nosuch.count", "c1.count", "c1.reset", "c1.nope",
                         "x*.count", "stop", "Nope.count", "nope"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "c1.count:\n1\n\n");
  EXPECT_EQ(r.err, "prog: error: no element 'nosuch'\n"
                   "prog: error: 'c1.reset' is a write handler\n"
                   "prog: error: no 'c1.nope' handler\n"
                   "prog: error: no element matching 'x*'\n"
                   "prog: error: 'stop' is a write handler\n"
                   "prog: error: no element 'Nope'\n"
                   "prog: error: no 'nope' handler\n");
}

TEST_F(Handlers, ValuesComeAfterTheStatisticsTable) {
  input(1);
  opts.quiet = false;
  RunResult r = runWith({"c1.count"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("pool: 1 allocated, 1 freed, 0 leaked\n1\n"),
            std::string::npos)
      << r.out;
}

TEST(HandlersMain, DashHTakesAHandlerAndDashDashHelpStaysHelp) {
  std::string a0 = "prog", a1 = "-h", a2 = "c1.limit", a3 = "--handler",
              a4 = "list", a5 = "--quiet", a6 = "--handler=c2.gw";
  char *argv[] = {&a0[0], &a1[0], &a2[0], &a3[0],
                  &a4[0], &a5[0], &a6[0], nullptr};
  testing::internal::CaptureStdout();
  EXPECT_EQ(nprt_main(7, argv, &nprt_test_counter_program), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "c1.limit:\n100\n\nlist:\n4\nsrc\nc1\nc2\nsink\n\nc2.gw:\n0\n\n");
  std::string h = "--help";
  char *help[] = {&a0[0], &h[0], nullptr};
  testing::internal::CaptureStdout();
  EXPECT_EQ(nprt_main(2, help, &nprt_test_counter_program), 0);
  std::string text = testing::internal::GetCapturedStdout();
  for (const char *flag : {"-h, --handler", "--control PORT", "unix:PATH"})
    EXPECT_NE(text.find(flag), std::string::npos) << flag;
  char *bare[] = {&a0[0], &a1[0], nullptr};
  testing::internal::CaptureStderr();
  EXPECT_EQ(nprt_main(2, bare, &nprt_test_counter_program), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr().rfind(
                "prog: error: option '-h' needs a value\n", 0),
            0u);
}

TEST(HandlersMain, BadControlValuesAreErrors) {
  for (const char *v : {"0", "65536", "http", "12x", "-1", "unix:", ""}) {
    std::string a0 = "prog", a1 = "--control", a2 = v;
    char *argv[] = {&a0[0], &a1[0], &a2[0], nullptr};
    testing::internal::CaptureStderr();
    EXPECT_EQ(nprt_main(3, argv, &nprt_test_counter_program), 1) << v;
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.rfind("prog: error: --control", 0), 0u) << err;
  }
  std::string a0 = "prog", a1 = "--control=unix:" + std::string(200, 'x');
  char *argv[] = {&a0[0], &a1[0], nullptr};
  testing::internal::CaptureStderr();
  EXPECT_EQ(nprt_main(2, argv, &nprt_test_counter_program), 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("is too long"),
            std::string::npos);
}

/*--- The protocol, command by command -------------------------------------*/

TEST_F(Handlers, ReadRepliesWithData) {
  EXPECT_EQ(command("READ c1.limit"),
            "200 Read handler 'c1.limit' OK\r\nDATA 3\r\n100");
  EXPECT_EQ(command("get c1.limit"),
            "200 Read handler 'c1.limit' OK\r\nDATA 3\r\n100");
  EXPECT_EQ(command("READ c1.class"),
            "200 Read handler 'c1.class' OK\r\nDATA 7\r\nCounter");
  EXPECT_EQ(command("READ list"),
            "200 Read handler 'list' OK\r\nDATA 17\r\n4\nsrc\nc1\nc2\nsink\n");
  // Element numbers count from 1; `.x` and `0.x` are global.
  EXPECT_EQ(command("READ 3.name"),
            "200 Read handler '3.name' OK\r\nDATA 2\r\nc2");
  EXPECT_EQ(command("READ .version"),
            "200 Read handler '.version' OK\r\nDATA 5\r\n0.1.0");
  EXPECT_EQ(command("READ 0.version"),
            "200 Read handler '0.version' OK\r\nDATA 5\r\n0.1.0");
  EXPECT_EQ(command("READ c1.dst"),
            "200 Read handler 'c1.dst' OK\r\nDATA 9\r\n0.0.0.0/0");
}

TEST_F(Handlers, WriteCallsTheHandlerWithParsedArguments) {
  EXPECT_EQ(command("WRITE c1.limit 0x1234"),
            "200 Write handler 'c1.limit' OK\r\n");
  EXPECT_EQ(command("READ c1.limit"),
            "200 Read handler 'c1.limit' OK\r\nDATA 4\r\n4660");
  EXPECT_EQ(command("SET c2.config yes 00:00:c0:ae:67:ef"),
            "200 Write handler 'c2.config' OK\r\n");
  EXPECT_EQ(command("READ c2.offset"),
            "200 Read handler 'c2.offset' OK\r\nDATA 2\r\n-5");
  EXPECT_EQ(command("READ c2.active"),
            "200 Read handler 'c2.active' OK\r\nDATA 4\r\ntrue");
  EXPECT_EQ(command("READ c2.mac"),
            "200 Read handler 'c2.mac' OK\r\nDATA 10\r\n3232655343");
  EXPECT_EQ(command("WRITE c2.config no, -32768, 1"),
            "200 Write handler 'c2.config' OK\r\n");
  EXPECT_EQ(command("READ c2.offset"),
            "200 Read handler 'c2.offset' OK\r\nDATA 6\r\n-32768");
  EXPECT_EQ(command("WRITE c1.route 18.26.4.0/255.255.255.0 10.0.0.1 2"),
            "200 Write handler 'c1.route' OK\r\n");
  EXPECT_EQ(command("READ c1.gw"),
            "200 Read handler 'c1.gw' OK\r\nDATA 9\r\n167772161");
  EXPECT_EQ(command("WRITE c1.route 18.26.4.0/24 3"),
            "200 Write handler 'c1.route' OK\r\n");
  EXPECT_EQ(command("READ c1.dst"),
            "200 Read handler 'c1.dst' OK\r\nDATA 12\r\n18.26.4.0/24");
  EXPECT_EQ(command("READ c1.gw"),
            "200 Read handler 'c1.gw' OK\r\nDATA 1\r\n0");
  EXPECT_EQ(command("READ c1.port"),
            "200 Read handler 'c1.port' OK\r\nDATA 1\r\n3");
  // Click's short prefixes: the address may stop where the length does.
  EXPECT_EQ(command("WRITE c1.route 10/8 4"),
            "200 Write handler 'c1.route' OK\r\n");
  EXPECT_EQ(command("READ c1.dst"),
            "200 Read handler 'c1.dst' OK\r\nDATA 10\r\n10.0.0.0/8");
  EXPECT_EQ(command("WRITE c1.route 0/0 5"),
            "200 Write handler 'c1.route' OK\r\n");
  EXPECT_EQ(command("READ c1.dst"),
            "200 Read handler 'c1.dst' OK\r\nDATA 9\r\n0.0.0.0/0");
  EXPECT_EQ(command("WRITE c1.route 10/16 4"),
            "520-Write handler 'c1.route' error:\r\n"
            "520 write handler 'c1.route': argument 1 '10/16' is not an IPv4 "
            "prefix (a.b.c.d/len)\r\n");
  // c2 has its own state.
  EXPECT_EQ(command("READ c2.limit"),
            "200 Read handler 'c2.limit' OK\r\nDATA 3\r\n100");
}

TEST_F(Handlers, WriteErrorsUseTheContinuationForm) {
  EXPECT_EQ(command("WRITE c1.limit 65536"),
            "520-Write handler 'c1.limit' error:\r\n"
            "520 write handler 'c1.limit': argument 1 '65536' is out of range "
            "for u16 (0..65535)\r\n");
  EXPECT_EQ(command("WRITE c1.limit"),
            "520-Write handler 'c1.limit' error:\r\n"
            "520 write handler 'c1.limit' takes 1 argument, got 0\r\n");
  EXPECT_EQ(command("WRITE c1.reset now"),
            "520-Write handler 'c1.reset' error:\r\n"
            "520 write handler 'c1.reset' takes no arguments, got 1\r\n");
  // The handler did not run.
  EXPECT_EQ(command("READ c1.limit"),
            "200 Read handler 'c1.limit' OK\r\nDATA 3\r\n100");
}

TEST_F(Handlers, LookupErrorsAndWrongDirections) {
  EXPECT_EQ(command("READ nope.count"), "510 No element named 'nope'\r\n");
  EXPECT_EQ(command("READ 9.count"), "510 No element named '9'\r\n");
  EXPECT_EQ(command("READ c1.nope"), "511 No handler named 'c1.nope'\r\n");
  EXPECT_EQ(command("READ nope"), "511 No handler named 'nope'\r\n");
  EXPECT_EQ(command("READ c1.reset"), "530 Handler 'c1.reset' write-only\r\n");
  EXPECT_EQ(command("WRITE c1.count 3"),
            "530 Handler 'c1.count' read-only\r\n");
  EXPECT_EQ(command("WRITE list"), "530 Handler 'list' read-only\r\n");
  EXPECT_EQ(command("READ stop"), "530 Handler 'stop' write-only\r\n");
}

TEST_F(Handlers, CheckReadAndCheckWrite) {
  EXPECT_EQ(command("CHECKREAD c1.limit"),
            "200 Read handler 'c1.limit' OK\r\n");
  EXPECT_EQ(command("CHECKWRITE c1.limit"),
            "200 Write handler 'c1.limit' OK\r\n");
  EXPECT_EQ(command("CHECKREAD c1.reset"),
            "511 Handler 'c1.reset' not readable\r\n");
  EXPECT_EQ(command("checkwrite c1.count"),
            "511 Handler 'c1.count' not writable\r\n");
  EXPECT_EQ(command("CHECKWRITE stop"), "200 Write handler 'stop' OK\r\n");
  EXPECT_EQ(command("CHECKREAD x.y"), "510 No element named 'x'\r\n");
  EXPECT_EQ(command("CHECKREAD"), "500 Wrong number of arguments\r\n");
  EXPECT_EQ(command("CHECKREAD a b"), "500 Wrong number of arguments\r\n");
}

TEST_F(Handlers, OtherCommands) {
  bool quit = false, stop = false;
  EXPECT_EQ(command("", &quit), "");
  EXPECT_EQ(command("   \t", &quit), "");
  EXPECT_FALSE(quit);
  EXPECT_EQ(command("READ"), "500 Wrong number of arguments\r\n");
  EXPECT_EQ(command("WRITE"), "500 Wrong number of arguments\r\n");
  EXPECT_EQ(command("frob x"), "501 Command 'FROB' unimplemented\r\n");
  EXPECT_EQ(command("READDATA c1.count 0"),
            "501 Command 'READDATA' unimplemented\r\n");
  EXPECT_EQ(command("QUIT", &quit), "200 Goodbye!\r\n");
  EXPECT_TRUE(quit);
  EXPECT_EQ(command("close now", &quit),
            "500 Bad command syntax\r\n200 Goodbye!\r\n");
  EXPECT_TRUE(quit);
  std::string help = command("HELP");
  EXPECT_EQ(help.rfind("200-Commands:\r\n", 0), 0u) << help;
  EXPECT_NE(help.find("\r\n200 "), std::string::npos) << help; // last line
  EXPECT_EQ(help.find("\r\n200 "), help.rfind("\r\n200 ")) << help;
  // Control bytes never break a response line.
  EXPECT_EQ(command("READ c1.\x01\x7f\xe9"),
            "511 No handler named 'c1.^A^?\\351'\r\n");
  EXPECT_EQ(command("WRITE stop", nullptr, &stop),
            "200 Write handler 'stop' OK\r\n");
  EXPECT_TRUE(stop);
}

/*--- A real socket ---------------------------------------------------------*/

class Client {
public:
  explicit Client(const std::string &path) {
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    // A server that sends too little fails the test instead of hanging it.
    timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    sockaddr_un sa = {};
    sa.sun_family = AF_UNIX;
    strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
    // The server opens its socket when the run starts.
    for (int i = 0; i < 500; ++i) {
      if (connect(fd, (sockaddr *)&sa, sizeof(sa)) == 0) {
        connected = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ~Client() { close(fd); }
  void send(const std::string &s) { ::send(fd, s.data(), s.size(), 0); }
  /// Reads until `n` bytes arrived (or the peer closed).
  std::string recv(size_t n) {
    std::string s;
    char buf[4096];
    while (s.size() < n) {
      ssize_t r = ::recv(fd, buf, std::min(sizeof(buf), n - s.size()), 0);
      if (r <= 0)
        break;
      s.append(buf, (size_t)r);
    }
    return s;
  }
  bool connected = false;
  int fd;
};

// The program keeps serving after its input is drained; several clients
// at once; `WRITE stop` ends the run normally (statistics, -h, exit 0).
TEST_F(Handlers, ControlSocketServesUntilStop) {
  input(4);
  std::string path = tempPath("ctl.sock"), spec = "unix:" + path;
  opts.control = spec.c_str();
  opts.quiet = false;
  RunResult r;
  std::thread server([&] { r = runWith({"c1.count"}); });
  bool stopped = false;
  {
    Client a(path), b(path);
    EXPECT_TRUE(a.connected && b.connected);
    const std::string greeting = "Click::ControlSocket/1.3\r\n";
    EXPECT_EQ(a.recv(greeting.size()), greeting);
    EXPECT_EQ(b.recv(greeting.size()), greeting);
    // Clients are served while packets flow too: wait until the input is
    // drained and the counts are final.
    const std::string read = "200 Read handler 'c2.count' OK\r\nDATA 1\r\n4";
    for (int i = 0; i < 500; ++i) {
      a.send("READ c2.count\n");
      if (a.recv(read.size()) == read)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // A command may arrive in pieces and with any line ending.
    a.send("READ c2.co");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    a.send("unt\nread c2.count\r");
    EXPECT_EQ(a.recv(2 * read.size()), read + read);
    const std::string wrote = "200 Write handler 'c1.reset' OK\r\n";
    b.send("WRITE c1.reset\r\n");
    EXPECT_EQ(b.recv(wrote.size()), wrote);
    const std::string bye = "200 Goodbye!\r\n";
    b.send("QUIT\r\nREAD c1.count\r\n"); // nothing after QUIT is run
    EXPECT_EQ(b.recv(1000), bye);        // and the server closes
    const std::string stopReply = "200 Write handler 'stop' OK\r\n";
    a.send("WRITE stop\n");
    stopped = a.recv(stopReply.size()) == stopReply;
    EXPECT_TRUE(stopped);
  }
  // Should the server not have taken `stop`, end it as SIGTERM does
  // rather than wait for it forever (the run's handler catches it).
  if (!stopped)
    kill(getpid(), SIGTERM);
  server.join();
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // The reset shows in -h; the statistics are as usual.
  EXPECT_NE(r.out.find("pool: 4 allocated, 4 freed, 0 leaked\n0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(access(path.c_str(), F_OK), 0) << "socket file left behind";
}

// Clients are served while the graph runs, and `stop` ends sources that
// never end by themselves (the producer here has no input and no limit).
TEST(HandlersControl, StopEndsAGraphThatNeverDrains) {
  resetState();
  nprt_graph *g = nprt_test_graph_create();
  uint32_t p = nprt_graph_add_instance(g, "p", "Src", "", "o", nullptr, produce,
                                       nullptr, "host");
  uint32_t c = nprt_graph_add_instance(g, "c", "Sink", "i", "", nullptr,
                                       consumeCount, nullptr, "host");
  nprt_graph_connect(g, p, 0, c, 0, 4, false);
  State[p].limit = UINT64_MAX;
  nprt_options opts;
  nprt_options_init(&opts, "prog", "forever");
  opts.quiet = true;
  std::string path = tempPath("run.sock"), spec = "unix:" + path;
  opts.control = spec.c_str();
  RunResult r;
  std::thread server([&] { r = run(g, opts); });
  bool stopped = false;
  {
    Client a(path);
    EXPECT_TRUE(a.connected);
    const std::string greeting = "Click::ControlSocket/1.3\r\n";
    EXPECT_EQ(a.recv(greeting.size()), greeting);
    a.send("READ list\n");
    const std::string list =
        "200 Read handler 'list' OK\r\nDATA 6\r\n2\np\nc\n";
    EXPECT_EQ(a.recv(list.size()), list);
    const std::string stopReply = "200 Write handler 'stop' OK\r\n";
    a.send("WRITE stop\n");
    stopped = a.recv(stopReply.size()) == stopReply;
    EXPECT_TRUE(stopped);
  }
  if (!stopped)
    kill(getpid(), SIGTERM);
  server.join();
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Every value the producer sent was consumed: the graph drained.
  EXPECT_GT(State[p].count, 0u);
  EXPECT_EQ(nprt_test_inst(g, c).in_packets[0], State[p].count);
  nprt_options_free(&opts);
  nprt_test_graph_destroy(g);
}

TEST_F(Handlers, ControlSocketInUseIsAnError) {
  std::string path = tempPath("busy.sock"), spec = "unix:" + path;
  writeFile(path, "");
  opts.control = spec.c_str();
  RunResult r = runWith({});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: --control " + spec +
                       ": cannot bind: Address already in use\n");
  // A directory that does not exist.
  spec = "unix:" + tempPath("no-dir") + "/x.sock";
  opts.control = spec.c_str();
  r = runWith({});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.err, "prog: error: --control " + spec +
                       ": cannot bind: No such file or directory\n");
}

} // namespace
