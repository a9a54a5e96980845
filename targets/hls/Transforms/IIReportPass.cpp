//===- IIReportPass.cpp - np-ii-report: remarks and JSON ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs computeII on every instance of the top graph and says what it found:
// a remark per instance, a note per cause, and the JSON report.
//
//===----------------------------------------------------------------------===//

#include "targets/hls/Transforms/HLSMemory.h"
#include "targets/hls/Transforms/IIReport.h"
#include "targets/hls/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

namespace npcc::hls {
#define GEN_PASS_DEF_IIREPORT
#include "targets/hls/Transforms/Passes.h.inc"
} // namespace npcc::hls

using namespace mlir;
using namespace npcc;
using namespace npcc::np;
using namespace npcc::hls;

namespace {

llvm::json::Object jsonLocation(Location loc) {
  llvm::json::Object out;
  FileLineColLoc file;
  loc->walk([&](Location inner) {
    if (auto f = dyn_cast<FileLineColLoc>(inner)) {
      file = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (file) {
    out["file"] = file.getFilename().str();
    out["line"] = file.getLine();
    out["col"] = file.getColumn();
  }
  return out;
}

/// Every (instance name, element) pair the report covers.
SmallVector<std::pair<std::string, ElementOp>> instancesOf(ModuleOp module) {
  SmallVector<std::pair<std::string, ElementOp>> out;
  SymbolTable symbols(module);
  for (auto graph : module.getOps<GraphOp>()) {
    if (!graph.getTop())
      continue;
    for (auto instance : graph.getBody()->getOps<InstanceOp>())
      if (auto element = symbols.lookup<ElementOp>(instance.getCallee()))
        out.push_back({instance.getSymName().str(), element});
    return out;
  }
  for (auto program : module.getOps<ProgramOp>()) {
    for (auto [ref, name] :
         llvm::zip(program.getElements(), program.getNames()))
      if (auto element = symbols.lookup<ElementOp>(
              cast<FlatSymbolRefAttr>(ref).getValue()))
        out.push_back({cast<StringAttr>(name).str(), element});
    return out;
  }
  for (auto element : module.getOps<ElementOp>())
    out.push_back({"", element});
  return out;
}

StringRef sourceName(ElementOp element) {
  if (auto origin = element.getOrigin())
    return *origin;
  return element.getSymName();
}

} // namespace

llvm::json::Value hls::iiReportJSON(ModuleOp module, const IIOptions &options) {
  llvm::json::Array elements;
  for (auto &[instance, element] : instancesOf(module)) {
    IIResult result = computeII(element, options);
    llvm::json::Array reasons;
    for (const IIReason &reason : result.reasons) {
      StringRef key = reason.kind == "stream" ? "port"
                      : reason.kind == "loop" ? "loop"
                                              : "state";
      reasons.push_back(
          llvm::json::Object{{"kind", reason.kind},
                             {key, reason.subject},
                             {"ii", reason.ii},
                             {"location", jsonLocation(reason.loc)},
                             {"text", reason.text}});
    }
    // Where the element needs more of a packet than its header window
    // (the FPGA reads the packet in whole there; docs/hls-target.md).
    llvm::json::Array whole;
    for (auto &[op, text] : wholePacketOps(element))
      whole.push_back(llvm::json::Object{
          {"location", jsonLocation(op->getLoc())}, {"text", text}});
    bool headerOnly = whole.empty();
    llvm::json::Object entry{{"element", sourceName(element)},
                             {"symbol", element.getSymName()},
                             {"location", jsonLocation(element.getLoc())},
                             {"ii", result.ii},
                             {"reasons", std::move(reasons)},
                             {"header_only", headerOnly},
                             {"reads_whole", std::move(whole)}};
    if (!instance.empty())
      entry["name"] = instance;
    elements.push_back(std::move(entry));
  }
  return llvm::json::Object{{"assume_hls_passes", options.assumeHLSPasses},
                            {"elements", std::move(elements)}};
}

LogicalResult hls::writeIIReport(ModuleOp module, StringRef path,
                                 const IIOptions &options) {
  std::string error;
  auto out = openOutputFile(path, &error);
  if (!out)
    return module.emitError("cannot write the II report '")
           << path << "': " << error;
  out->os() << llvm::formatv("{0:2}", iiReportJSON(module, options)) << "\n";
  out->keep();
  return success();
}

namespace {

struct IIReportPass : hls::impl::IIReportBase<IIReportPass> {
  using IIReportBase::IIReportBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    IIOptions options;
    options.assumeHLSPasses = assumeHLSPasses;
    for (auto &[instance, element] : instancesOf(module)) {
      IIResult result = computeII(element, options);
      std::string who =
          instance.empty()
              ? ("element '" + element.getSymName() + "'").str()
              : ("'" + instance + "' (" + sourceName(element) + ")").str();
      std::string summary = result.summary();
      size_t colon = summary.find(':');
      InFlightDiagnostic remark = emitRemark(element.getLoc())
                                  << summary.substr(0, colon) << " for " << who;
      if (colon != std::string::npos)
        remark << summary.substr(colon);
      for (const IIReason &reason : result.reasons)
        remark.attachNote(reason.loc)
            << (reason.ii ? "II=" + std::to_string(reason.ii)
                          : std::string("II unbounded"))
            << ": " << reason.text;
    }
    if (!report.empty() && failed(writeIIReport(module, report, options)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
