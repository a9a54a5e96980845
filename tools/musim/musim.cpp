//===- musim.cpp - the match-unit simulator driver ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// musim PROG.mu [--list FILE --headers FILE | --input FILE] [options]
// musim PROG.mu --bench=paper [--json]
//
//===----------------------------------------------------------------------===//
#include "nprt/version.h"
#include "runtime/isa/ISA.h"
#include "runtime/musim/Bench.h"
#include "runtime/musim/InputFiles.h"
#include "runtime/musim/Observer.h"
#include "runtime/musim/Report.h"
#include "tools/common/Output.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

using namespace npcc;
using namespace npcc::musim;

namespace {

const char *const Usage = R"(usage: musim PROG.mu [options]

Runs a match-unit image (written by muasm) cycle by cycle.

Input (one of):
  --list FILE        posted-receive list: one item per line, 8 hex words
  --headers FILE     headers, same format; the list manager feeds each
                     header, then the list, answering the unit's replies
  --input FILE       raw input FIFO: one hex word or 'end' per line; no
                     list manager, the output FIFO is printed

List manager:
  --mem-latency N    cycles to fetch an uncached item (default 10)
  --cache-items N    items at the head of the list kept cached (default 3)
  --window N         items sent but not yet answered, at most (default 2)

Output:
  --stats            cycles, stalls, words, slot utilisation, items
  --json             one JSON object with the results and the stats
  --trace            one line per cycle: pc, stall or the slots' writes
  --vcd FILE         waveform of pc, stall, registers, predicates, FIFOs
  --max-cycles N     give up after N cycles (default 1000000000)
  --bench=paper      the paper's benchmark (64 headers, lists of 10..300
                     items, match at 0%..100%) on PROG.mu
  --help             this text
  --version          print npcc's version

Text formats, results and the trace: runtime/musim/README.md.
)";

int fail(const std::string &msg) {
  std::cerr << "musim: error: " << msg << '\n';
  return 1;
}

/// Exit status of a run that printed its results: 1 when stdout could not
/// take them (a full disk, /dev/full), else 0.
int finish() {
  std::cout.flush();
  std::string error = npcc::tools::finishStdout();
  if (error.empty() && !std::cout)
    error = "cannot write '<stdout>'";
  return error.empty() ? 0 : fail(error);
}

bool parseNumber(const std::string &s, uint64_t &v) {
  if (s.empty() || s.size() > 19)
    return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    v = v * 10 + (c - '0');
  }
  return true;
}

struct Options {
  std::string program, list, headers, input, vcd, bench;
  bool stats = false, json = false, trace = false;
  RunConfig config;
};

/// Parses argv; returns -1 to go on, else the exit code.
int parseArgs(int argc, char **argv, Options &opt) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    size_t eq = arg.find('=');
    bool hasValue = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (hasValue) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    auto takeValue = [&]() -> bool {
      if (hasValue)
        return true;
      if (i + 1 >= argc)
        return false;
      value = argv[++i];
      return true;
    };
    auto number = [&](uint64_t &out) -> int {
      if (!takeValue())
        return fail("option '" + arg + "' needs a value");
      if (!parseNumber(value, out))
        return fail("option '" + arg + "' expects a number, got '" + value +
                    "'");
      return -1;
    };
    uint64_t n = 0;
    int rc = -1;
    if (arg == "--help" || arg == "-h") {
      std::cout << Usage;
      return finish();
    } else if (arg == "--version") {
      std::cout << versionText("musim");
      return finish();
    } else if (arg == "--stats" || arg == "--json" || arg == "--trace") {
      if (hasValue)
        return fail("option '" + arg + "' takes no value");
      (arg == "--stats"  ? opt.stats
       : arg == "--json" ? opt.json
                         : opt.trace) = true;
    } else if (arg == "--list" || arg == "--headers" || arg == "--input" ||
               arg == "--vcd" || arg == "--bench") {
      if (!takeValue())
        return fail("option '" + arg + "' needs a value");
      (arg == "--list"      ? opt.list
       : arg == "--headers" ? opt.headers
       : arg == "--input"   ? opt.input
       : arg == "--vcd"     ? opt.vcd
                            : opt.bench) = value;
    } else if (arg == "--mem-latency") {
      rc = number(n);
      opt.config.list.memLatency = n;
    } else if (arg == "--cache-items") {
      rc = number(n);
      opt.config.list.cacheItems = n;
    } else if (arg == "--window") {
      rc = number(n);
      if (rc < 0 && n == 0)
        return fail("--window must be at least 1");
      opt.config.list.window = n;
    } else if (arg == "--max-cycles") {
      rc = number(n);
      opt.config.maxCycles = n;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail("unknown option '" + arg + "' (see --help)");
    } else if (!opt.program.empty()) {
      return fail("more than one program: '" + opt.program + "' and '" + arg +
                  "'");
    } else {
      opt.program = arg;
    }
    if (rc >= 0)
      return rc;
    if (n > 0xffffffffull && arg != "--max-cycles")
      return fail("option '" + arg + "' is too large");
  }
  if (opt.program.empty())
    return fail("no program (usage: musim PROG.mu [options]; see --help)");
  if (!opt.input.empty() && (!opt.list.empty() || !opt.headers.empty()))
    return fail("--input cannot be combined with --list or --headers");
  if (!opt.bench.empty() && opt.bench != "paper")
    return fail("unknown benchmark '" + opt.bench + "' (known: paper)");
  return -1;
}

int runBench(const Options &opt, const Program &prog) {
  BenchResult result;
  std::string error;
  if (!runPaperBench(prog, opt.config, result, error))
    return fail("bench: " + error);
  if (opt.json)
    printBenchJson(std::cout, opt.program, result);
  else
    printBenchTable(std::cout, opt.program, result);
  return finish();
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  int rc = parseArgs(argc, argv, opt);
  if (rc >= 0)
    return rc;

  std::string text, error;
  if (!readFile(opt.program, text, error))
    return fail(error);
  std::vector<mu::Word> words;
  mu::Diag diag;
  if (!mu::readImage(opt.program,
                     std::vector<uint8_t>(text.begin(), text.end()), words,
                     diag))
    return fail(opt.program + ": " + diag.Message);
  Program prog;
  if (!loadProgram(words, prog, error))
    return fail(opt.program + ": " + error);
  prog.name = opt.program;
  if (!opt.bench.empty())
    return runBench(opt, prog);

  bool raw = opt.list.empty() && opt.headers.empty();
  std::vector<Item> list, headers;
  std::vector<InputWord> input;
  auto load = [&](const std::string &file, auto parse, auto &out) {
    if (file.empty())
      return true;
    std::string body;
    return readFile(file, body, error) && parse(file, body, out, error);
  };
  if (!load(opt.list, parseItems, list) ||
      !load(opt.headers, parseItems, headers) ||
      !load(opt.input, parseRawInput, input))
    return fail(error);

  std::ofstream vcd;
  if (!opt.vcd.empty()) {
    vcd.open(opt.vcd);
    if (!vcd)
      return fail("cannot write '" + opt.vcd + "'");
  }
  Observer observer(opt.trace ? &std::cout : nullptr,
                    opt.vcd.empty() ? nullptr : &vcd);
  Observer *obs = opt.trace || !opt.vcd.empty() ? &observer : nullptr;
  RunResult result;
  bool ok = raw ? runRaw(prog, input, opt.config, result, obs)
                : runList(prog, list, headers, opt.config, result, obs);
  std::cout.flush();
  if (!opt.vcd.empty()) {
    errno = 0;
    vcd.close();
    if (!vcd)
      return fail("cannot write '" + opt.vcd +
                  "': " + std::strerror(errno ? errno : EIO));
  }
  if (!ok)
    return fail(result.error);
  if (opt.json)
    printJson(std::cout, result, raw);
  else {
    printResults(std::cout, result, raw);
    if (opt.stats)
      printStats(std::cout, result, raw);
  }
  return finish();
}
