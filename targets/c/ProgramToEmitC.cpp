//===- ProgramToEmitC.cpp - the np.program as the C target's tables ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The np.program becomes constant nprt_shared_desc, nprt_instance_desc,
// nprt_channel_desc and nprt_program tables (field names from
// nprt/abi.def) and a main() that hands the program to nprt_main, with
// the core mapping np-map-cores planned.
//
//===----------------------------------------------------------------------===//

#include "targets/c/ProgramToEmitC.h"

#include "targets/c/Mapping/MapCores.h"
#include "targets/emitc/ProgramLowering.h"
#include "targets/emitc/RuntimeABI.h"

#include "dialects/NP/IR/NPOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

namespace {

/// The program's tables and a main() that hands them to libnprt.
struct CProgramLowering : ProgramLowering {
  CProgramLowering(TypeConverter &tc, MLIRContext *ctx,
                   const NPLoweringInfo &info)
      : ProgramLowering(tc, ctx, info, "nprt/nprt.h") {}

  void printProgram(np::ProgramOp program,
                    llvm::raw_ostream &os) const override {
    auto module = program->getParentOfType<ModuleOp>();
    describeShared(os);
    unsigned n = program.getElements().size();
    c::ProgramMapping mapping;
    bool mapped = mapping.read(program) && mapping.numInstances() == n;
    for (unsigned i = 0; i < n; ++i) {
      const NPLoweringInfo::Element &e = info.elements.at(info.elementAt[i]);
      if (e.merges.empty())
        continue;
      os << "static const nprt_merge_desc " << e.prefix << "_merges[] = {\n";
      for (const NPLoweringInfo::Element::Merge &mg : e.merges) {
        llvm::StringMap<std::string> v;
        v["offset"] = "offsetof(" + e.prefix + "_state, " + mg.field + ")";
        v["width"] = std::to_string(mg.bytes) + "u";
        v["bits"] = std::to_string(mg.bits) + "u";
        v["count"] = std::to_string(mg.count) + "u";
        v["op"] = mg.op;
        os << "  " << abi::designated("nprt_merge_desc", v) << ",\n";
      }
      os << "};\n";
    }
    if (mapped) {
      // Small integers: the tables are NPRT_MAX_CORES rows of n bytes.
      os << "static const uint8_t npcc_stages[] = {";
      llvm::ListSeparator sep(",");
      for (int64_t st : mapping.stages)
        os << sep << st;
      os << "};\nstatic const uint8_t npcc_auto_pipeline[] = {";
      llvm::ListSeparator sep2(",");
      for (int64_t a : mapping.autoPipeline)
        os << sep2 << a;
      os << "};\n";
    }
    if (n) {
      os << "static const nprt_instance_desc npcc_instances[] = {\n";
      for (unsigned i = 0; i < n; ++i) {
        const NPLoweringInfo::Element &e = info.elements.at(info.elementAt[i]);
        auto fnOrNull = [&](bool present, StringRef suffix) {
          return present ? e.prefix + "_" + suffix.str() : "NULL";
        };
        llvm::StringMap<std::string> v;
        v["name"] = cString(cast<StringAttr>(program.getNames()[i]).getValue());
        v["element"] = cString(e.name);
        v["in_ports"] = cString(e.inPorts);
        v["out_ports"] = cString(e.outPorts);
        v["placement"] =
            cString(cast<StringAttr>(program.getPlacements()[i]).getValue());
        v["init"] = fnOrNull(e.hasInit, "init");
        v["handler"] = fnOrNull(true, "handler");
        v["signal"] = fnOrNull(e.hasSignal, "signal");
        v["timer"] = fnOrNull(e.timerPeriod != 0, "timer");
        v["timer_period"] = std::to_string(e.timerPeriod) + "ull";
        v["fini"] = fnOrNull(e.hasFini, "fini");
        v["state_size"] =
            e.hasState ? "sizeof(" + e.prefix + "_state)" : std::string("0");
        v["state_init"] = e.hasInitImage ? "&" + e.prefix + "_state_init"
                                         : std::string("NULL");
        v["handlers"] =
            e.numControls ? e.prefix + "_handlers" : std::string("NULL");
        v["n_handlers"] = std::to_string(e.numControls) + "u";
        v["push_ports"] = std::to_string(e.pushPorts) + "ull";
        v["select_ports"] = std::to_string(e.selectPorts) + "ull";
        v["shared"] = e.shared >= 0
                          ? "&npcc_shared[" + std::to_string(e.shared) + "]"
                          : std::string("NULL");
        v["replicate"] = mapped && mapping.replicate[i] ? "true" : "false";
        v["merges"] =
            e.merges.empty() ? std::string("NULL") : e.prefix + "_merges";
        v["n_merges"] = std::to_string(e.merges.size()) + "u";
        os << "  " << abi::designated("nprt_instance_desc", v) << ",\n";
      }
      os << "};\n";
    }
    unsigned m = program.getChannels().size();
    if (m) {
      os << "static const nprt_channel_desc npcc_channels[] = {\n";
      for (unsigned i = 0; i < m; ++i) {
        np::ProgramOp::Channel c = program.getChannel(i);
        llvm::StringMap<std::string> v;
        v["src"] = std::to_string(c.src) + "u";
        v["src_port"] = std::to_string(c.srcPort) + "u";
        v["dst"] = std::to_string(c.dst) + "u";
        v["dst_port"] = std::to_string(c.dstPort) + "u";
        v["depth"] = std::to_string(c.depth) + "u";
        v["lossy"] = c.lossy ? "true" : "false";
        v["fused"] = c.fused ? "true" : "false";
        v["uncounted"] = info.uncountedChannels[i] ? "true" : "false";
        os << "  " << abi::designated("nprt_channel_desc", v) << ",\n";
      }
      os << "};\n";
    }
    // The files the program names (np.devices, from the front end).
    auto devices = module->getAttrOfType<ArrayAttr>("np.devices");
    unsigned nd = devices ? devices.size() : 0;
    if (nd) {
      os << "static const nprt_device_desc npcc_devices[] = {\n";
      for (Attribute a : devices) {
        auto d = cast<DictionaryAttr>(a);
        auto str = [&](StringRef k) {
          return cString(cast<StringAttr>(d.get(k)).getValue());
        };
        auto num = [&](StringRef k) {
          return std::to_string(cast<IntegerAttr>(d.get(k)).getInt()) + "u";
        };
        llvm::StringMap<std::string> v;
        v["output"] =
            cast<BoolAttr>(d.get("output")).getValue() ? "true" : "false";
        v["dev"] = num("dev");
        v["path"] = str("path");
        v["define"] = str("define");
        v["link_type"] = num("link_type");
        v["snaplen"] = num("snaplen");
        v["sender"] = d.get("sender") ? str("sender") : "NULL";
        os << "  " << abi::designated("nprt_device_desc", v) << ",\n";
      }
      os << "};\n";
    }
    llvm::StringMap<std::string> v;
    v["devices"] = nd ? "npcc_devices" : "NULL";
    v["n_devices"] = std::to_string(nd) + "u";
    v["name"] = cString(program.getSymName());
    v["instances"] = n ? "npcc_instances" : "NULL";
    v["n_instances"] = std::to_string(n) + "u";
    v["channels"] = m ? "npcc_channels" : "NULL";
    v["n_channels"] = std::to_string(m) + "u";
    unsigned ns = info.shared.size();
    v["shared"] = ns ? "npcc_shared" : "NULL";
    v["n_shared"] = std::to_string(ns) + "u";
    v["stages"] = mapped ? "npcc_stages" : "NULL";
    v["auto_pipeline"] = mapped ? "npcc_auto_pipeline" : "NULL";
    auto runDefault = [&](StringRef name) {
      auto a = module->getAttrOfType<IntegerAttr>(name);
      return std::to_string(a ? a.getInt() : 0) + "u";
    };
    v["cores"] = runDefault("np.cores");
    v["mapping"] = runDefault("np.mapping_kind");
    os << "static const nprt_program npcc_program = "
       << abi::designated("nprt_program", v) << ";\n\n";
    os << "int main(int argc, char **argv) {\n"
          "  return nprt_main(argc, argv, &npcc_program);\n}";
  }

  /// The table of the shared objects the runtime allocates, one per
  /// source name with shared state.
  void describeShared(llvm::raw_ostream &os) const {
    if (info.shared.empty())
      return;
    os << "static const nprt_shared_desc npcc_shared[] = {\n";
    for (const NPLoweringInfo::Shared &sh : info.shared) {
      llvm::StringMap<std::string> v;
      v["size"] = "sizeof(" + sh.type + ")";
      v["init"] = sh.hasInitImage ? "&" + sh.type + "_init" : "NULL";
      os << "  " << abi::designated("nprt_shared_desc", v) << ",\n";
    }
    os << "};\n";
  }
};

} // namespace

void npcc::c::populateCProgramPatterns(TypeConverter &tc,
                                       RewritePatternSet &patterns,
                                       const NPLoweringInfo &info) {
  patterns.add<CProgramLowering>(tc, patterns.getContext(), info);
}
