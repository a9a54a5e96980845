//===- npcc.cpp - the npcc compiler driver --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Composes named pipelines and exposes every stage, like Toy's driver:
// --target=ast|mlir|c|hls|ucode|interp. With --target=c and no -S, the emitted
// C is compiled with the system C compiler and linked against libnprt.
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickFrontend.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Limits.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/Sema.h"
#include "compiler/npcc/Toolchain.h"
#include "compiler/pipelines/Pipelines.h"
#include "dialects/Match/IR/MatchOps.h"
#include "dialects/NP/IR/NPDialect.h"
#include "dialects/NP/IR/NPOps.h"
#include "dialects/UCode/IR/UCodeOps.h"
#include "nprt/version.h"
#include "targets/c/Mapping/MapCores.h"
#include "targets/hls/HLSProject.h"
#include "targets/interp/GraphRun.h"
#include "targets/interp/MatchRun.h"
#include "targets/ucode/PassCheck/PassCheck.h"
#include "targets/ucode/UCodeEmitter.h"
#include "targets/ucode/Validate/Validate.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdlib>

using namespace npcc;
namespace cl = llvm::cl;

namespace {
enum class Target { AST, MLIR, C, HLS, UCode, Interp };
enum class Language { Auto, NPL, Click };

cl::OptionCategory category("npcc options");
/// With --target=interp, the flags for the interpreted program.
std::vector<std::string> programArgs;
/// The element library and runtime this npcc uses (set first in main).
ToolchainPaths toolchain;

cl::opt<bool> printSearchPaths(
    "print-search-paths",
    cl::desc("Print where npcc finds the element library, the runtime and "
             "the HLS files, and exit"),
    cl::ValueDisallowed, cl::callback([](const bool &) {
      printToolchain(toolchain, llvm::outs());
      std::exit(0);
    }),
    cl::cat(category));

cl::opt<std::string>
    inputFile(cl::Positional,
              cl::desc("<input .np or .click file, or - for stdin>"),
              cl::Required, cl::cat(category));
cl::opt<Language> language(
    "language",
    cl::desc("Input language (default: Click for a .click file, else NPL)"),
    cl::init(Language::Auto),
    cl::values(clEnumValN(Language::NPL, "npl", "an NPL program"),
               clEnumValN(Language::Click, "click",
                          "a Click configuration (docs/click.md)")),
    cl::cat(category));
cl::opt<Target> target(
    "target", cl::desc("Stage to produce"), cl::init(Target::C),
    cl::values(clEnumValN(Target::AST, "ast", "the parsed AST, as text"),
               clEnumValN(Target::MLIR, "mlir", "np dialect IR"),
               clEnumValN(Target::C, "c",
                          "C11 for libnprt; an executable unless -S"),
               clEnumValN(Target::HLS, "hls",
                          "HLS C++ project for Vivado/Vitis HLS (-o DIR)"),
               clEnumValN(Target::UCode, "ucode",
                          "match-unit microcode image (and a listing)"),
               clEnumValN(Target::Interp, "interp",
                          "run the program on the reference interpreter "
                          "with the executable's flags (--in, --out, "
                          "--stats-json, --signal, --quiet, -h/--handler, "
                          "--control, --live, --duration, or any after "
                          "--); a match program on --list and --headers")),
    cl::cat(category));
cl::opt<std::string> outputFile(
    "o",
    cl::desc("Output file ('-' for stdout). Default: a.out for an "
             "executable, <input>.c with -S, stdout for text stages"),
    cl::value_desc("file"), cl::cat(category));
cl::list<std::string>
    defines("D",
            cl::desc("Set constant NAME to VALUE (alone: 1 for an integer "
                     "constant, else true): overrides a declared "
                     "'const NAME', or declares it; in a Click "
                     "configuration, overrides or adds define($NAME ...)"),
            cl::value_desc("NAME=VALUE"), cl::Prefix, cl::cat(category));

cl::opt<bool> emitSource("S",
                         cl::desc("With --target=c, write the C source "
                                  "instead of building an executable"),
                         cl::cat(category));
cl::opt<std::string> topGraph("top", cl::desc("Top-level graph to compile"),
                              cl::value_desc("name"), cl::cat(category));
cl::list<std::string> includeDirs("I", cl::desc("Directory to search imports"),
                                  cl::value_desc("dir"), cl::Prefix,
                                  cl::cat(category));
cl::opt<std::string> listingFile(
    "listing",
    cl::desc("With --target=ucode, where to write the listing (default: the "
             "output with .lst)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<bool> validateUCode(
    "validate",
    cl::desc("With --target=ucode, prove with Z3 that the microcode gives the "
             "match program's answer on every header and list"),
    cl::cat(category));
cl::opt<unsigned>
    validateTimeout("validate-timeout",
                    cl::desc("With --validate, solver time limit per query in "
                             "milliseconds"),
                    cl::init(60000), cl::value_desc("ms"), cl::cat(category));
cl::opt<std::string> validateCex(
    "validate-counterexample",
    cl::desc("With --validate, write a counterexample to PREFIX.headers and "
             "PREFIX.list (musim's input files)"),
    cl::value_desc("prefix"), cl::cat(category));
cl::opt<std::string> listInput(
    "list",
    cl::desc("With --target=interp or --check-each-pass, the posted-receive "
             "list (musim's list file format)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> headersInput(
    "headers",
    cl::desc("With --target=interp or --check-each-pass, the message "
             "headers (musim's header file format)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<bool> checkEachPass(
    "check-each-pass",
    cl::desc("With --target=ucode, run the match interpreter (musim once the "
             "program is microcode) on --list and --headers after every "
             "pass and name the first pass that changes an answer"),
    cl::cat(category));
cl::opt<bool> fuse(
    "fuse",
    cl::desc("With --target=c, compile channels into direct calls where the "
             "runtime would push (np-fuse; default true, --fuse=false keeps "
             "every channel)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> hlsOpts(
    "hls-opts",
    cl::desc("With --target=interp, run the HLS optimisations first "
             "(np-scatter-memory, np-unroll, np-delay-write; their remarks "
             "go to stderr): a check that they do not change what the "
             "program computes"),
    cl::cat(category));
cl::opt<std::string> profile(
    "profile",
    cl::desc("With --target=c or --explain-mapping, refine the mapping's "
             "cost estimates with the cycles and traffic a run measured "
             "(the executable's --stats-json output)"),
    cl::value_desc("STATS.json"), cl::cat(category));
cl::opt<bool> flatten("flatten",
                      cl::desc("With --target=mlir, inline compound elements "
                               "(np-flatten-graph)"),
                      cl::cat(category));
cl::opt<unsigned> cores(
    "cores",
    cl::desc("With --target=c, the cores the executable runs on unless its "
             "own --cores says otherwise (default 1); with "
             "--explain-mapping, the cores to explain"),
    cl::value_desc("N"), cl::init(0), cl::cat(category));
cl::opt<c::MappingKind> mappingKind(
    "mapping",
    cl::desc("With --target=c, the executable's default mapping; with "
             "--explain-mapping, the one to explain"),
    cl::values(clEnumValN(c::MappingKind::Auto, "auto",
                          "the compiler picks rtc or pipeline (default)"),
               clEnumValN(c::MappingKind::Rtc, "rtc",
                          "every core runs the whole graph on its share of "
                          "the flows"),
               clEnumValN(c::MappingKind::Pipeline, "pipeline",
                          "each core runs one stage of the graph")),
    cl::init(c::MappingKind::Auto), cl::cat(category));
cl::opt<bool> explainMappingFlag(
    "explain-mapping",
    cl::desc("Print how the program maps onto --cores cores (the choice and "
             "why, stages and their costs, cut channels, state decisions) "
             "and stop"),
    cl::cat(category));
cl::opt<unsigned> errorLimit(
    "ferror-limit",
    cl::desc("Stop reporting after N errors (default 20; 0: no limit)"),
    cl::value_desc("N"), cl::init(limits::kDefaultErrorLimit),
    cl::cat(category));
} // namespace

/// Counts errors and swallows those past -ferror-limit (with their notes),
/// saying once that it stopped, as clang does. Registered after the
/// printing handler, so it sees every diagnostic first.
static void installErrorLimit(mlir::MLIRContext &ctx) {
  ctx.getDiagEngine().registerHandler(
      [count = 0u, stopped = false](mlir::Diagnostic &d) mutable {
        if (stopped)
          return mlir::success();
        if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::failure(); // printed by the next handler
        if (errorLimit == 0 || ++count <= errorLimit)
          return mlir::failure();
        stopped = true;
        llvm::errs() << "npcc: error: too many errors emitted, stopping now "
                        "[-ferror-limit=]\n";
        return mlir::success();
      });
}

/// Diagnostics without a source location (a missing input file) are the
/// driver's: `npcc: error: ...`, as clang prints them, not `<unknown>:0:`.
static void installDriverDiagnostics(mlir::MLIRContext &ctx) {
  ctx.getDiagEngine().registerHandler([](mlir::Diagnostic &d) {
    if (!llvm::isa<mlir::UnknownLoc>(d.getLocation()))
      return mlir::failure();
    llvm::StringRef kind =
        d.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
        : d.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
                                                               : "note";
    llvm::errs() << "npcc: " << kind << ": " << d.str() << "\n";
    for (mlir::Diagnostic &note : d.getNotes())
      llvm::errs() << "npcc: note: " << note.str() << "\n";
    return mlir::success();
  });
}

/// Writes `path` ("-": stdout) through `write`. A failed write (a full disk,
/// `-o /dev/full`) is an error naming the file and a non-zero exit; a
/// regular file left incomplete is removed.
static bool
writeOutputFile(llvm::StringRef path,
                llvm::function_ref<bool(llvm::raw_ostream &)> write) {
  std::string error;
  auto out = mlir::openOutputFile(path, &error);
  if (!out) {
    llvm::errs() << "npcc: error: " << error << "\n";
    return false;
  }
  bool ok = write(out->os());
  out->os().flush();
  if (out->os().has_error()) {
    llvm::errs() << "npcc: error: cannot write '"
                 << (path == "-" ? "<stdout>" : path)
                 << "': " << out->os().error().message() << "\n";
    out->os().clear_error();
    ok = false;
  }
  // Only a regular file is removed on failure (never /dev/full).
  if (ok || !llvm::sys::fs::is_regular_file(path))
    out->keep();
  return ok;
}

/// -D NAME=VALUE: VALUE is parsed as an NPL expression. It replaces the
/// value of a declared `const NAME` (and is checked against its type), or
/// declares NAME: a bool for true/false, else u32, or u64/i32/i64 when the
/// literal needs it.
static bool applyDefines(mlir::MLIRContext *ctx, FileNames &names,
                         ast::Module &m) {
  names.push_back("<command line>");
  const std::string *file = &names.back();
  bool ok = true;
  for (const std::string &d : defines) {
    auto [name, value] = llvm::StringRef(d).split('=');
    auto declared = llvm::find_if(
        m.consts, [&](const ast::ConstDecl &k) { return k.name == name; });
    // A bare -D NAME is a flag: 1 for an integer constant, else true.
    if (!llvm::StringRef(d).contains('='))
      value = declared != m.consts.end() && declared->loc.file != file &&
                      declared->type->name != "bool"
                  ? "1"
                  : "true";
    bool ident = !name.empty() && !std::isdigit((unsigned char)name[0]) &&
                 llvm::all_of(name, [](char c) {
                   return std::isalnum((unsigned char)c) || c == '_';
                 });
    if (!ident || value.empty()) {
      llvm::errs() << "npcc: error: -D" << d
                   << ": expected -D NAME=VALUE with NAME an identifier\n";
      ok = false;
      continue;
    }
    ast::Module parsed;
    std::string text = ("const " + name + ": u64 = " + value + ";").str();
    if (!parseNPL(ctx, file, text, parsed) || parsed.consts.size() != 1 ||
        !parsed.records.empty() || !parsed.elements.empty() ||
        !parsed.graphs.empty() || !parsed.matches.empty()) {
      if (parsed.consts.size() == 1)
        llvm::errs() << "npcc: error: -D" << d << ": bad value\n";
      ok = false;
      continue;
    }
    ast::ConstDecl &c = parsed.consts[0];
    if (declared != m.consts.end() && declared->loc.file != file) {
      declared->value = std::move(c.value);
      continue;
    }
    const ast::Expr &v = *c.value;
    bool neg = v.kind == ast::Expr::Unary && v.text == "-" &&
               v.args[0]->kind == ast::Expr::IntLit;
    if (v.kind == ast::Expr::BoolLit)
      c.type->name = "bool";
    else if (v.kind == ast::Expr::IntLit)
      c.type->name = v.value > UINT32_MAX ? "u64" : "u32";
    else if (neg)
      c.type->name = v.args[0]->value > (1ull << 31) ? "i64" : "i32";
    else {
      mlir::emitError(toLoc(ctx, v.loc))
          << "-D" << name << ": the program declares no constant '" << name
          << "', so the value must be an integer or bool literal";
      ok = false;
      continue;
    }
    if (declared != m.consts.end())
      *declared = std::move(c); // a later -D of the same name wins
    else
      m.consts.push_back(std::move(c));
  }
  return ok;
}

static cl::opt<std::string>
    hlsTool("hls-tool",
            cl::desc("With --target=hls, the tool whose pragma spelling and "
                     "run_hls.tcl to write: vivado-2019.2 or vitis-2023"),
            cl::value_desc("tool"), cl::init("vitis-2023"), cl::cat(category));

static cl::opt<std::string> hlsReport(
    "hls-report",
    cl::desc("With --target=hls, report the initiation interval each "
             "element reaches, and why when above 1: as a remark at each "
             "element and as JSON in FILE ('remarks': remarks only)"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<bool> hlsScatterMemory(
    "hls-scatter-memory",
    cl::desc("With --target=hls, give each field of a struct array its own "
             "memory (np-scatter-memory; default true)"),
    cl::init(true), cl::cat(category));
static cl::opt<bool>
    hlsUnroll("hls-unroll",
              cl::desc("With --target=hls, unroll loops with a constant or "
                       "declared bound (np-unroll; default true)"),
              cl::init(true), cl::cat(category));
static cl::opt<bool> hlsDelayWrite(
    "hls-delay-write",
    cl::desc("With --target=hls, forward the last write of block RAM state "
             "through a register (np-delay-write; default true)"),
    cl::init(true), cl::cat(category));

/// --target=hls: the design, its testbench and runtime, a Makefile for
/// `make csim` and run_hls.tcl, in the directory -o names.
static int buildExecutable(llvm::StringRef cFile, llvm::StringRef exe);

/// Writes the C of `module` (after buildCPipeline) to `path`; false after
/// an error.
static bool writeCFile(mlir::ModuleOp module, llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "npcc: error: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return false;
  }
  if (mlir::failed(translateToC(module, os)))
    return false;
  os.close();
  if (os.has_error()) {
    llvm::errs() << "npcc: error: cannot write '" << path
                 << "': " << os.error().message() << "\n";
    os.clear_error();
    return false;
  }
  return true;
}

/// Whether some instance is placed `@host`: the HLS build then splits the
/// program (np-split-placement) into the FPGA design and a host program.
static bool hasHostInstances(mlir::ModuleOp module) {
  bool found = false;
  module.walk(
      [&](np::InstanceOp inst) { found |= inst.getPlacement() == "host"; });
  return found;
}

/// The host side of a split program: DIR/host.c, and DIR/host built from it
/// as --target=c builds an executable when a C compiler is found.
static int emitHostProgram(mlir::ModuleOp host, llvm::StringRef dir) {
  mlir::MLIRContext *ctx = host.getContext();
  host->setAttr("np.cores",
                mlir::IntegerAttr::get(mlir::IntegerType::get(ctx, 32), 1));
  host->setAttr("np.mapping_kind",
                mlir::IntegerAttr::get(mlir::IntegerType::get(ctx, 32), 0));
  mlir::PassManager pm(ctx);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  buildSplitPlacementPipeline(pm, "host");
  buildCPipeline(pm, CPipelineOptions());
  if (mlir::failed(pm.run(host)))
    return 1;
  llvm::SmallString<256> cFile(dir), exe(dir);
  llvm::sys::path::append(cFile, "host.c");
  llvm::sys::path::append(exe, "host");
  if (!writeCFile(host, cFile))
    return 1;
  const char *ccEnv = std::getenv("CC");
  if (!llvm::sys::findProgramByName(ccEnv && *ccEnv ? ccEnv : "cc"))
    return 0; // host.c is written; building it needs a C compiler
  return buildExecutable(cFile, exe);
}

static int emitHLS(mlir::ModuleOp module, hls::Tool tool,
                   llvm::StringRef channelDepth) {
  if (outputFile.empty() || outputFile == "-") {
    llvm::errs() << "npcc: error: --target=hls writes a directory; name it "
                    "with -o DIR\n";
    return 1;
  }
  // A graph with @host instances: the FPGA keeps the others, the host
  // program (a clone, compiled as --target=c) the host's.
  mlir::OwningOpRef<mlir::ModuleOp> host;
  if (hasHostInstances(module))
    host = module.clone();
  mlir::PassManager pm(module.getContext());
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  if (host)
    buildSplitPlacementPipeline(pm, "fpga");
  HLSPipelineOptions options;
  options.tool = hls::toolName(tool).str();
  options.channelDepth = channelDepth.str();
  options.scatterMemory = hlsScatterMemory.getValue();
  options.unroll = hlsUnroll.getValue();
  options.delayWrite = hlsDelayWrite.getValue();
  options.iiReport = !hlsReport.empty();
  options.iiReportFile = hlsReport == "remarks" ? "" : hlsReport.getValue();
  buildHLSPipeline(pm, options);
  if (mlir::failed(pm.run(module)))
    return 1;
  std::string design;
  llvm::raw_string_ostream os(design);
  if (mlir::failed(translateToHLS(module, os)))
    return 1;
  hls::ProjectSources sources;
  sources.runtimeDir = toolchain.hlsRuntime;
  sources.apTypesDir = toolchain.apTypes;
  std::string error;
  if (mlir::failed(hls::writeProject(module, design, outputFile, tool, sources,
                                     error))) {
    llvm::errs() << "npcc: error: " << error << "\n";
    return 1;
  }
  if (host)
    return emitHostProgram(*host, outputFile);
  return 0;
}

static cl::opt<std::string>
    ccFlags("cc-flags",
            cl::desc("Flags appended to the C compiler command that builds "
                     "the executable, after those of $NPCC_CFLAGS (e.g. "
                     "--cc-flags='-g -fsanitize=address')"),
            cl::value_desc("flags"), cl::cat(category));

static cl::opt<bool>
    simFlag("sim",
            cl::desc("Build the executable for npsim, the simulated network "
                     "processor: it then also runs with --sim[=CONFIG] "
                     "(docs/npsim.md); the C it is built from is the same"),
            cl::cat(category));

static int buildExecutable(llvm::StringRef cFile, llvm::StringRef exe) {
  const char *ccEnv = std::getenv("CC");
  std::string cc = ccEnv && *ccEnv ? ccEnv : "cc";
  auto ccPath = llvm::sys::findProgramByName(cc);
  if (!ccPath) {
    llvm::errs() << "npcc: error: cannot find the C compiler '" << cc
                 << "' (set CC)\n";
    return 1;
  }
  const std::string &include = toolchain.runtimeInclude;
  const std::string &lib =
      simFlag ? toolchain.simRuntimeLibrary : toolchain.runtimeLibrary;
  llvm::SmallVector<llvm::StringRef> args = {
      *ccPath, "-std=c11", "-O2",      "-I", include, cFile,
      lib,     "-lpcap",   "-pthread", "-o", exe};
  // The simulator's flavour: the same C with the cost annotations on, and
  // npsim's C++ in the library.
  if (simFlag) {
    args.insert(args.begin() + 3, "-DNPRT_SIM");
    args.push_back("-lstdc++");
    args.push_back("-lm");
  }
  // Extra flags split as a shell would (quotes, backslashes), so that a
  // sanitizer build can compile and link the program like libnprt.
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *> extra;
  if (const char *env = std::getenv("NPCC_CFLAGS"))
    cl::TokenizeGNUCommandLine(env, saver, extra);
  cl::TokenizeGNUCommandLine(ccFlags, saver, extra);
  for (const char *flag : extra)
    args.push_back(flag);
  std::string err;
  int rc =
      llvm::sys::ExecuteAndWait(*ccPath, args, std::nullopt, {}, 0, 0, &err);
  if (rc != 0) {
    llvm::errs() << "npcc: error: the C compiler failed"
                 << (err.empty() ? "" : ": " + err) << "\n";
    return 1;
  }
  return 0;
}

/// The match program of the file (or --top); every other operation of the
/// module is erased. Null after an error.
static match::ProgramOp chooseMatchProgram(mlir::ModuleOp module,
                                           const std::string &mainFile,
                                           llvm::StringRef targetName) {
  mlir::MLIRContext *ctx = module.getContext();
  std::vector<match::ProgramOp> programs(
      module.getOps<match::ProgramOp>().begin(),
      module.getOps<match::ProgramOp>().end());
  match::ProgramOp chosen;
  for (auto p : programs)
    if (topGraph.empty() ? programs.size() == 1 : p.getSymName() == topGraph)
      chosen = p;
  if (!chosen) {
    auto d = mlir::emitError(mlir::FileLineColLoc::get(ctx, mainFile, 1, 1));
    if (programs.empty())
      d << "no match program to compile for --target=" << targetName;
    else if (!topGraph.empty())
      d << "no match program named '" << topGraph << "'";
    else
      d << "several match programs; choose one with --top";
    return nullptr;
  }
  for (auto &op : llvm::make_early_inc_range(*module.getBody()))
    if (&op != chosen.getOperation())
      op.erase();
  return chosen;
}

static bool readCases(interp::MatchCases &cases, llvm::StringRef what) {
  if (listInput.empty() || headersInput.empty()) {
    llvm::errs() << "npcc: error: " << what << " needs --list and --headers\n";
    return false;
  }
  std::string error;
  if (!interp::readMatchCases(listInput, headersInput, cases, error)) {
    llvm::errs() << "npcc: error: " << error << "\n";
    return false;
  }
  return true;
}

/// How many arguments a flag of a compiled program takes up on npcc's
/// command line with --target=interp (itself included); 0 if it is npcc's.
static int programFlagArity(llvm::StringRef a) {
  // `-h ELEMENT.HANDLER` is the program's, as for the executable (npcc's
  // own help is --help then).
  if (a == "-h")
    return 2;
  for (llvm::StringRef f : {"--in", "--out", "--stats-json", "--signal",
                            "--handler", "--control", "--duration"}) {
    if (a == f)
      return 2;
    if (a.starts_with(f) && a.drop_front(f.size()).starts_with("="))
      return 1;
  }
  return a == "--quiet" || a == "--live" || a == "--stats" ? 1 : 0;
}

/// np-check-channels' channel-depth option, from -W[no-]channel-depth and
/// -Werror[=channel-depth].
static std::string channelDepthMode = "warn";

/// --explain-mapping: the np-map-cores facts for --cores and --mapping.
static int explainMapping(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  CPipelineOptions options;
  options.fuse = fuse.getValue();
  options.profile = profile.getValue();
  options.channelDepth = channelDepthMode;
  buildMappingPipeline(pm, options);
  if (mlir::failed(pm.run(module)))
    return 1;
  auto programs = module.getOps<np::ProgramOp>();
  c::ProgramMapping m;
  if (programs.empty() || !m.read(*programs.begin())) {
    llvm::errs() << "npcc: error: --explain-mapping needs a program with a "
                    "top graph\n";
    return 1;
  }
  return writeOutputFile(outputFile,
                         [&](llvm::raw_ostream &os) {
                           c::explainMapping(*programs.begin(), m,
                                             cores ? cores : 1, mappingKind,
                                             os);
                           return true;
                         })
             ? 0
             : 1;
}

/// --target=interp on a program with a graph: the reference interpreter
/// runs it with the executable's command line.
static int runGraphInterp(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  buildInterpPipeline(pm, channelDepthMode, hlsOpts);
  if (mlir::failed(pm.run(module)))
    return 1;
  // Diagnostics of the run name the program as its executable would.
  std::string name = inputFile == "-" ? std::string("interp")
                                      : llvm::sys::path::stem(inputFile).str();
  std::vector<std::string> args{name};
  args.insert(args.end(), programArgs.begin(), programArgs.end());
  return interp::runGraph(module, args);
}

/// --target=interp: a program with a graph runs on the reference
/// interpreter; a match program answers for every header, in musim's
/// format without cycles.
static int runInterp(mlir::ModuleOp module, const std::string &mainFile) {
  if (listInput.empty() && headersInput.empty() &&
      !module.getOps<np::GraphOp>().empty())
    return runGraphInterp(module);
  match::ProgramOp program = chooseMatchProgram(module, mainFile, "interp");
  interp::MatchCases cases;
  if (!program || !readCases(cases, "--target=interp"))
    return 1;
  std::vector<match::ListDecision> decisions;
  std::string error;
  if (mlir::failed(interp::interpretCases(program, cases, decisions, error))) {
    llvm::errs() << "npcc: error: " << error << "\n";
    return 1;
  }
  return writeOutputFile(outputFile,
                         [&](llvm::raw_ostream &os) {
                           interp::printDecisions(os, decisions);
                           return true;
                         })
             ? 0
             : 1;
}

/// --target=ucode: the match program of the file (or --top) as an image,
/// with its listing next to it.
static int emitUCode(mlir::ModuleOp module, const std::string &mainFile) {
  mlir::MLIRContext *ctx = module.getContext();
  match::ProgramOp chosen = chooseMatchProgram(module, mainFile, "ucode");
  if (!chosen)
    return 1;
  // --validate checks the image against the program as the front end made it.
  mlir::OwningOpRef<match::ProgramOp> spec;
  if (validateUCode)
    spec = chosen.clone();
  mlir::PassManager pm(ctx);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  ucode::PassCheck *check = nullptr;
  if (checkEachPass) {
    interp::MatchCases cases;
    if (!readCases(cases, "--check-each-pass"))
      return 1;
    auto owned = std::make_unique<ucode::PassCheck>(std::move(cases),
                                                    chosen.getSymName());
    check = owned.get();
    pm.addInstrumentation(std::move(owned));
  }
  buildUCodePipeline(pm);
  if (mlir::failed(pm.run(module)) || (check && check->failed()))
    return 1;
  auto program = *module.getOps<ucode::ProgramOp>().begin();
  std::vector<uint8_t> image;
  std::string listing;
  if (mlir::failed(ucode::emitUCodeImage(program, image, listing)))
    return 1;
  if (outputFile == "-" || outputFile.empty()) {
    llvm::errs() << "npcc: error: --target=ucode writes a binary image; "
                    "give -o FILE\n";
    return 1;
  }
  if (!writeOutputFile(outputFile, [&](llvm::raw_ostream &os) {
        os.write(reinterpret_cast<const char *>(image.data()), image.size());
        return true;
      }))
    return 1;
  std::string lst = listingFile;
  if (lst.empty()) {
    llvm::StringRef o(outputFile);
    lst = (o.ends_with(".mu") ? o.drop_back(3) : o).str() + ".lst";
  }
  if (!writeOutputFile(lst, [&](llvm::raw_ostream &os) {
        os << listing;
        return true;
      }))
    return 1;
  if (validateUCode) {
    std::vector<mu::Word> words;
    if (mlir::failed(ucode::encodeProgram(program, words)))
      return 1;
    validate::Options opts;
    opts.timeoutMs = validateTimeout;
    if (!validate::validateAndReport(*spec, words, opts, validateCex))
      return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  toolchain = findToolchain(argv[0]);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  // libLLVM registers hundreds of backend options; show ours and the MLIR
  // ones a user of npcc needs.
  cl::HideUnrelatedOptions(category);
  for (auto &[name, opt] : cl::getRegisteredOptions())
    if (llvm::is_contained({"mlir-print-ir-after-all",
                            "mlir-print-ir-before-all", "mlir-print-debuginfo",
                            "mlir-timing", "mlir-print-ir-after-failure"},
                           name.str())) {
      opt->setHiddenFlag(cl::NotHidden);
      opt->addCategory(category);
    }
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << versionText("npcc"); });
  // -W<...> flags are taken out before LLVM parses the rest (libLLVM has an
  // option named W of its own).
  std::vector<std::string> warningFlags;
  llvm::SmallVector<const char *> args;
  // With --target=interp, the flags of the compiled program (and everything
  // after `--`) are the run's, not npcc's.
  bool interpTarget = false;
  for (int k = 1; k < argc; ++k) {
    llvm::StringRef a(argv[k]);
    if (a == "--")
      break;
    interpTarget |= a == "--target=interp" || a == "-target=interp" ||
                    ((a == "--target" || a == "-target") && k + 1 < argc &&
                     llvm::StringRef(argv[k + 1]) == "interp");
  }
  for (int k = 0; k < argc; ++k) {
    llvm::StringRef a(argv[k]);
    if (interpTarget && a == "--") {
      programArgs.insert(programArgs.end(), argv + k + 1, argv + argc);
      break;
    }
    if (interpTarget && k > 0) {
      if (int n = programFlagArity(a)) {
        for (int j = 0; j < n && k < argc; ++j)
          programArgs.push_back(argv[k++]);
        --k;
        continue;
      }
    }
    if (k > 0 && a.starts_with("-W") && a.size() > 2)
      warningFlags.push_back(a.drop_front(2).str());
    else
      args.push_back(argv[k]);
  }
  cl::ParseCommandLineOptions(
      args.size(), args.data(),
      "npcc: compiles NPL network-processing programs\n\n"
      "  npcc prog.np --target=c -o prog     build an executable (libnprt)\n"
      "  npcc prog.np --target=c -S -o p.c   write the C source\n"
      "  npcc prog.np --target=mlir          print np dialect IR\n"
      "  npcc prog.np --target=interp --in in.pcap --out out.pcap\n"
      "                                      run it on the reference "
      "interpreter\n"
      "  npcc prog.np --target=ast           print the parsed AST\n"
      "  npcc router.click --target=c -o r   compile a Click configuration\n"
      "                                      (-D NAME=VALUE sets $NAME)\n\n"
      "Warnings: -W<name> enables one, -Wno-<name> disables it, -Werror\n"
      "makes every warning an error, -Werror=<name> one of them. Names:\n"
      "unused-variable (on by default), unreachable-code, channel-depth\n"
      "(on by default; np-check-channels, docs/channel-checker.md),\n"
      "shadow-library (on by default; a program's element replaces a\n"
      "library one, docs/language.md).\n");

  mlir::MLIRContext ctx;
  ctx.loadDialect<np::NPDialect, match::MatchDialect, ucode::UCodeDialect,
                  mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                  mlir::memref::MemRefDialect, mlir::func::FuncDialect,
                  mlir::emitc::EmitCDialect>();
  // Diagnostics point at NPL source lines; IR dumps would only confuse.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  installDriverDiagnostics(ctx);
  installErrorLimit(ctx);

  std::optional<hls::Tool> tool = hls::parseTool(hlsTool);
  if (!tool) {
    llvm::errs() << "npcc: error: --hls-tool='" << hlsTool
                 << "': expected one of " << hls::toolNames() << "\n";
    return 1;
  }

  WarningOptions warnings;
  for (const std::string &w : warningFlags)
    if (!warnings.apply(w))
      llvm::errs() << "npcc: warning: unknown warning option '-W" << w << "'\n";
  channelDepthMode = warnings.mode(Warning::ChannelDepth);

  FileNames names;
  ast::Module module;
  std::vector<std::string> dirs(includeDirs.begin(), includeDirs.end());
  dirs.push_back(toolchain.elementLibrary);
  bool isClick = language == Language::Click ||
                 (language == Language::Auto &&
                  llvm::StringRef(inputFile).ends_with(".click"));
  const std::string *mainFile = nullptr;
  if (isClick) {
    click::Defines clickDefines;
    for (const std::string &d : defines) {
      auto [name, value] = llvm::StringRef(d).split('=');
      clickDefines.push_back({name.str(), llvm::StringRef(d).contains('=')
                                              ? value.str()
                                              : std::string("1")});
    }
    mainFile = click::loadClickProgram(&ctx, inputFile, dirs, clickDefines,
                                       names, module);
    if (!mainFile)
      return 1;
  } else {
    mainFile = loadProgram(&ctx, inputFile, dirs, names, module);
    if (!mainFile || !applyDefines(&ctx, names, module))
      return 1;
  }

  // Text stages print to stdout unless -o says otherwise.
  if (outputFile.empty() && target != Target::C)
    outputFile = "-";
  if (simFlag && (target != Target::C || emitSource)) {
    llvm::errs() << "npcc: error: --sim builds an executable for npsim: it "
                    "goes with --target=c, without -S\n";
    return 1;
  }

  if (target == Target::AST) {
    std::string text;
    ast::dump(module, text);
    return writeOutputFile(outputFile,
                           [&](llvm::raw_ostream &os) {
                             os << text;
                             return true;
                           })
               ? 0
               : 1;
  }

  Sema sema(&ctx, module);
  sema.warnings = warnings;
  if (!sema.run())
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      mlirGen(sema, module, mainFile, topGraph);
  if (!ir)
    return 1;

  if (target == Target::MLIR) {
    if (flatten) {
      mlir::PassManager pm(&ctx);
      if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
        return 1;
      buildFlattenPipeline(pm);
      if (mlir::failed(pm.run(*ir)))
        return 1;
    }
    return writeOutputFile(outputFile,
                           [&](llvm::raw_ostream &os) {
                             ir->print(os);
                             return true;
                           })
               ? 0
               : 1;
  }

  if (target == Target::UCode)
    return emitUCode(*ir, *mainFile);
  // A file may hold a graph and match programs: the match programs are the
  // ucode target's (and the interpreter's on --list/--headers); the C and
  // HLS targets compile the graph alone.
  if (target == Target::HLS || target == Target::C)
    for (match::ProgramOp m :
         llvm::make_early_inc_range(ir->getOps<match::ProgramOp>()))
      m.erase();
  if (target == Target::HLS)
    return emitHLS(*ir, *tool, channelDepthMode);
  if (target == Target::Interp)
    return runInterp(*ir, *mainFile);

  if (cores.getNumOccurrences() && (cores == 0 || cores > c::kMaxCores)) {
    llvm::errs() << "npcc: error: --cores must be 1.." << c::kMaxCores
                 << ", not " << cores << "\n";
    return 1;
  }
  if (explainMappingFlag) {
    if (outputFile.empty())
      outputFile = "-";
    return explainMapping(*ir);
  }
  // --target=c. The executable's defaults for --cores and --mapping.
  (*ir)->setAttr("np.cores",
                 mlir::IntegerAttr::get(mlir::IntegerType::get(&ctx, 32),
                                        cores ? cores : 1));
  (*ir)->setAttr("np.mapping_kind",
                 mlir::IntegerAttr::get(mlir::IntegerType::get(&ctx, 32),
                                        (int)mappingKind.getValue()));
  mlir::PassManager pm(&ctx);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  CPipelineOptions cOptions;
  cOptions.fuse = fuse.getValue();
  cOptions.profile = profile.getValue();
  cOptions.channelDepth = channelDepthMode;
  buildCPipeline(pm, cOptions);
  if (mlir::failed(pm.run(*ir)))
    return 1;
  if (emitSource) {
    // Like clang -S: next to the current directory, named after the input;
    // standard input goes to standard output.
    if (outputFile.empty())
      outputFile = inputFile == "-"
                       ? std::string("-")
                       : (llvm::sys::path::stem(inputFile) + ".c").str();
    return writeOutputFile(outputFile,
                           [&](llvm::raw_ostream &os) {
                             return mlir::succeeded(translateToC(*ir, os));
                           })
               ? 0
               : 1;
  }
  // An executable, like a C compiler: a.out unless -o names it. Never C
  // text under an executable's name, and never a binary on a terminal.
  if (outputFile.empty())
    outputFile = "a.out";
  if (outputFile == "-") {
    llvm::errs() << "npcc: error: an executable cannot be written to "
                    "standard output; use -S for the C source\n";
    return 1;
  }
  llvm::SmallString<128> cFile;
  if (llvm::sys::fs::createTemporaryFile("npcc", "c", cFile)) {
    llvm::errs() << "npcc: error: cannot create a temporary file\n";
    return 1;
  }
  llvm::FileRemover remover(cFile);
  if (!writeCFile(*ir, cFile))
    return 1;
  return buildExecutable(cFile, outputFile);
}
