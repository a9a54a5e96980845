//===- npcc.cpp - the npcc compiler driver --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Composes named pipelines and exposes every stage, like Toy's driver:
// --target=ast|mlir|c|hls|ucode. With --target=c and no -S, the emitted C
// is compiled with the system C compiler and linked against libnprt.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/Sema.h"
#include "compiler/pipelines/Pipelines.h"
#include "dialects/Match/IR/MatchOps.h"
#include "dialects/NP/IR/NPDialect.h"

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
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace npcc;
namespace cl = llvm::cl;

namespace {
enum class Target { AST, MLIR, C, HLS, UCode };

cl::OptionCategory category("npcc options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .np file>"),
                               cl::Required, cl::cat(category));
cl::opt<Target> target(
    "target", cl::desc("Stage to produce"), cl::init(Target::C),
    cl::values(clEnumValN(Target::AST, "ast", "the parsed AST, as text"),
               clEnumValN(Target::MLIR, "mlir", "np dialect IR"),
               clEnumValN(Target::C, "c",
                          "C11 for libnprt; an executable unless -S"),
               clEnumValN(Target::HLS, "hls", "HLS C++ (not implemented yet)"),
               clEnumValN(Target::UCode, "ucode",
                          "match-unit microcode (not implemented yet)")),
    cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(category));
cl::opt<bool> emitSource("S",
                         cl::desc("With --target=c, write the C source "
                                  "instead of building an executable"),
                         cl::cat(category));
cl::opt<std::string> topGraph("top", cl::desc("Top-level graph to compile"),
                              cl::value_desc("name"), cl::cat(category));
cl::list<std::string> includeDirs("I", cl::desc("Directory to search imports"),
                                  cl::value_desc("dir"), cl::Prefix,
                                  cl::cat(category));
cl::opt<bool> flatten("flatten",
                      cl::desc("With --target=mlir, inline compound elements "
                               "(np-flatten-graph)"),
                      cl::cat(category));
} // namespace

static int buildExecutable(llvm::StringRef cFile, llvm::StringRef exe) {
  const char *ccEnv = std::getenv("CC");
  std::string cc = ccEnv && *ccEnv ? ccEnv : "cc";
  auto ccPath = llvm::sys::findProgramByName(cc);
  if (!ccPath) {
    llvm::errs() << "npcc: error: cannot find the C compiler '" << cc
                 << "' (set CC)\n";
    return 1;
  }
  std::string include = NPCC_RUNTIME_INCLUDE_DIR, lib = NPCC_RUNTIME_LIB;
  if (const char *dir = std::getenv("NPCC_RUNTIME_DIR"))
    lib = std::string(dir) + "/libnprt.a";
  llvm::SmallVector<llvm::StringRef> args = {
      *ccPath, "-std=c11", "-O2",    "-I", include,
      cFile,   lib,        "-lpcap", "-o", exe};
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

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
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
  cl::ParseCommandLineOptions(
      argc, argv,
      "npcc: compiles NPL network-processing programs\n\n"
      "  npcc prog.np --target=c -o prog     build an executable (libnprt)\n"
      "  npcc prog.np --target=c -S -o p.c   write the C source\n"
      "  npcc prog.np --target=mlir          print np dialect IR\n"
      "  npcc prog.np --target=ast           print the parsed AST\n");

  mlir::MLIRContext ctx;
  ctx.loadDialect<np::NPDialect, match::MatchDialect, mlir::arith::ArithDialect,
                  mlir::scf::SCFDialect, mlir::memref::MemRefDialect,
                  mlir::func::FuncDialect, mlir::emitc::EmitCDialect>();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);

  if (target == Target::HLS || target == Target::UCode) {
    llvm::errs() << "npcc: --target="
                 << (target == Target::HLS ? "hls" : "ucode")
                 << " is not implemented yet\n";
    return 2;
  }

  FileNames names;
  ast::Module module;
  std::vector<std::string> dirs(includeDirs.begin(), includeDirs.end());
  dirs.push_back(NPCC_LIB_DIR);
  const std::string *mainFile =
      loadProgram(&ctx, inputFile, dirs, names, module);
  if (!mainFile)
    return 1;

  std::string errorMessage;
  auto openOutput = [&]() {
    auto out = mlir::openOutputFile(outputFile, &errorMessage);
    if (!out)
      llvm::errs() << "npcc: error: " << errorMessage << "\n";
    return out;
  };

  if (target == Target::AST) {
    std::string text;
    ast::dump(module, text);
    auto out = openOutput();
    if (!out)
      return 1;
    out->os() << text;
    out->keep();
    return 0;
  }

  Sema sema(&ctx, module);
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
    auto out = openOutput();
    if (!out)
      return 1;
    ir->print(out->os());
    out->keep();
    return 0;
  }

  // --target=c
  mlir::PassManager pm(&ctx);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  buildCPipeline(pm);
  if (mlir::failed(pm.run(*ir)))
    return 1;
  if (emitSource || outputFile == "-") {
    auto out = openOutput();
    if (!out)
      return 1;
    if (mlir::failed(translateToC(*ir, out->os())))
      return 1;
    out->keep();
    return 0;
  }
  llvm::SmallString<128> cFile;
  if (llvm::sys::fs::createTemporaryFile("npcc", "c", cFile)) {
    llvm::errs() << "npcc: error: cannot create a temporary file\n";
    return 1;
  }
  llvm::FileRemover remover(cFile);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(cFile, ec);
    if (ec || mlir::failed(translateToC(*ir, os)))
      return 1;
  }
  return buildExecutable(cFile, outputFile);
}
