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
#include <map>
#include <tuple>

using namespace mlir;
using namespace npcc;
using namespace npcc::toemitc;

namespace {

/// Writes items separated by nothing, starting a new line (`indent`) before
/// one that would end past column 80: long tables stay readable.
class Wrapped {
public:
  Wrapped(llvm::raw_ostream &os, StringRef indent) : os(os), indent(indent) {}
  Wrapped &operator<<(const std::string &item) {
    if (column + item.size() > 78) {
      os << indent;
      column = indent.size() - 1;
    }
    os << item;
    column += item.size();
    return *this;
  }

private:
  llvm::raw_ostream &os;
  StringRef indent;
  size_t column = 80;
};

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
    // Each element's tables once, however many instances share it.
    SmallVector<Operation *> elements;
    llvm::DenseSet<Operation *> seen;
    for (Operation *op : info.elementAt)
      if (seen.insert(op).second)
        elements.push_back(op);
    describeSharing(elements, program, os);
    for (Operation *op : elements)
      describeTables(info.elements.at(op), os);
    if (mapped) {
      // Small integers: the tables are NPRT_MAX_CORES rows of n bytes.
      // Runs of (count, stage): a chain of instances in one stage is one.
      os << "static const uint32_t npcc_stage_runs[] = {";
      Wrapped runs(os, "\n  ");
      for (size_t k = 0, e = mapping.stages.size(); k < e;) {
        size_t end = k + 1;
        while (end < e && mapping.stages[end] == mapping.stages[k])
          ++end;
        runs << std::to_string(end - k) + "," +
                    std::to_string(mapping.stages[k]) + ",";
        k = end;
      }
      os << "};\nstatic const uint8_t npcc_auto_pipeline[] = {";
      llvm::ListSeparator sep2(",");
      for (int64_t a : mapping.autoPipeline)
        os << sep2 << a;
      os << "};\n";
    }
    // The instances as classes (an element's code with a placement and a
    // replication) and, per instance, its name and class: what grows with
    // the instances is a few bytes each (nprt_program, compact form).
    std::map<std::tuple<Operation *, std::string, bool>, unsigned> classOf;
    SmallVector<unsigned> instClass;
    std::string classes;
    llvm::raw_string_ostream cs(classes);
    for (unsigned i = 0; i < n; ++i) {
      std::string placement =
          cast<StringAttr>(program.getPlacements()[i]).getValue().str();
      bool replicate = mapped && mapping.replicate[i];
      auto [it, fresh] = classOf.try_emplace(
          {info.elementAt[i], placement, replicate}, classOf.size());
      instClass.push_back(it->second);
      if (fresh)
        cs << "  "
           << describeClass(info.elements.at(info.elementAt[i]), placement,
                            replicate)
           << ",\n";
    }
    if (n) {
      os << "static const nprt_instance_desc npcc_classes[] = {\n"
         << classes << "};\n";
      os << "static const char npcc_inst_names[] =";
      Wrapped names(os, "\n  ");
      for (unsigned i = 0; i < n; ++i) {
        // Each its own literal: a digit after \0 would continue it.
        std::string lit =
            cString(cast<StringAttr>(program.getNames()[i]).getValue());
        lit.insert(lit.size() - 1, "\\0");
        names << " " + lit;
      }
      os << ";\nstatic const uint32_t npcc_inst_class[] = {";
      Wrapped classList(os, "\n  ");
      for (unsigned c : instClass)
        classList << std::to_string(c) + ",";
      os << "};\n";
    }
    unsigned m = program.getChannels().size();
    if (m) {
      // Runs of channels: count, src, src_port, dst, dst_port, depth,
      // flags (NPRT_CHANNEL_*); the k-th of a run leaves src + k for
      // dst + k, so a chain is one run.
      os << "static const uint32_t npcc_channel_words[] = {";
      Wrapped words(os, "\n  ");
      auto flagsOf = [&](unsigned i, const np::ProgramOp::Channel &c) {
        return (c.lossy ? 1u : 0u) | (c.fused ? 2u : 0u) |
               (info.uncountedChannels[i] ? 4u : 0u);
      };
      for (unsigned i = 0; i < m;) {
        np::ProgramOp::Channel c = program.getChannel(i);
        unsigned flags = flagsOf(i, c), count = 1;
        for (; i + count < m; ++count) {
          np::ProgramOp::Channel d = program.getChannel(i + count);
          if (d.src != c.src + count || d.dst != c.dst + count ||
              d.srcPort != c.srcPort || d.dstPort != c.dstPort ||
              d.depth != c.depth || flagsOf(i + count, d) != flags)
            break;
        }
        std::string w;
        for (uint64_t x :
             {(uint64_t)count, (uint64_t)c.src, (uint64_t)c.srcPort,
              (uint64_t)c.dst, (uint64_t)c.dstPort, (uint64_t)c.depth,
              (uint64_t)flags})
          w += std::to_string(x) + ",";
        words << w;
        i += count;
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
    v["instances"] = "NULL";
    v["n_instances"] = std::to_string(n) + "u";
    v["channels"] = "NULL";
    v["n_channels"] = std::to_string(m) + "u";
    v["classes"] = n ? "npcc_classes" : "NULL";
    v["n_classes"] = std::to_string(classOf.size()) + "u";
    v["inst_names"] = n ? "npcc_inst_names" : "NULL";
    v["inst_class"] = n ? "npcc_inst_class" : "NULL";
    v["channel_words"] = m ? "npcc_channel_words" : "NULL";
    unsigned ns = info.shared.size();
    v["shared"] = ns ? "npcc_shared" : "NULL";
    v["n_shared"] = std::to_string(ns) + "u";
    v["stages"] = "NULL";
    v["stage_runs"] = mapped ? "npcc_stage_runs" : "NULL";
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

  /// The row of nprt_instance_desc for instances of `e`'s code placed at
  /// `placement`; the name is per instance (npcc_inst_names).
  std::string describeClass(const NPLoweringInfo::Element &e,
                            StringRef placement, bool replicate) const {
    auto fnOrNull = [&](bool present, StringRef suffix) {
      return present ? e.prefix + "_" + suffix.str() : "NULL";
    };
    llvm::StringMap<std::string> v;
    v["name"] = "NULL";
    v["element"] = cString(e.name);
    v["in_ports"] = cString(e.inPorts);
    v["out_ports"] = cString(e.outPorts);
    v["placement"] = cString(placement);
    v["init"] = fnOrNull(e.hasInit, "init");
    v["handler"] = fnOrNull(true, "handler");
    v["signal"] = fnOrNull(e.hasSignal, "signal");
    v["timer"] = fnOrNull(e.timerPeriod != 0, "timer");
    v["timer_period"] = std::to_string(e.timerPeriod) + "ull";
    v["fini"] = fnOrNull(e.hasFini, "fini");
    v["state_size"] =
        e.hasState ? "sizeof(" + e.prefix + "_state)" : std::string("0");
    v["state_init"] =
        e.hasInitImage ? "&" + e.prefix + "_state_init" : std::string("NULL");
    v["handlers"] =
        e.numControls ? e.prefix + "_handlers" : std::string("NULL");
    v["n_handlers"] = std::to_string(e.numControls) + "u";
    v["push_ports"] = std::to_string(e.pushPorts) + "ull";
    v["select_ports"] = std::to_string(e.selectPorts) + "ull";
    v["shared"] = e.shared >= 0
                      ? "&npcc_shared[" + std::to_string(e.shared) + "]"
                      : std::string("NULL");
    v["replicate"] = replicate ? "true" : "false";
    v["merges"] = e.merges.empty() ? std::string("NULL") : e.prefix + "_merges";
    v["n_merges"] = std::to_string(e.merges.size()) + "u";
    v["push_fns"] = pushesIndirectly() && !e.pushFns.empty()
                        ? e.prefix + "_push_fns"
                        : std::string("NULL");
    return abi::designated("nprt_instance_desc", v);
  }

  /// Whether some fused send calls through its link, which the runtime
  /// fills from the consumers' push_fns.
  bool pushesIndirectly() const { return !info.indirectSends.empty(); }

  /// The merge and push-body tables of `e`'s code.
  void describeTables(const NPLoweringInfo::Element &e,
                      llvm::raw_ostream &os) const {
    if (!e.merges.empty()) {
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
    if (pushesIndirectly() && !e.pushFns.empty()) {
      os << "static const nprt_push_fn " << e.prefix << "_push_fns[] = {";
      llvm::ListSeparator sep(", ");
      SmallVector<StringRef> ports;
      StringRef(e.inPorts).split(ports, ",");
      for (StringRef port : ports) {
        auto it = e.pushFns.find(port.str());
        os << sep
           << (it == e.pushFns.end() ? "NULL" : "(nprt_push_fn)" + it->second);
      }
      os << "};\n";
    }
  }

  /// Says which instances share code, one line per copy shared.
  void describeSharing(ArrayRef<Operation *> elements, np::ProgramOp program,
                       llvm::raw_ostream &os) const {
    bool any = false;
    for (Operation *op : elements) {
      const NPLoweringInfo::Element &e = info.elements.at(op);
      if (e.instances.size() < 2)
        continue;
      if (!any)
        os << "/* Code shared by instances (one copy per line):\n";
      any = true;
      auto name = [&](unsigned i) {
        return cast<StringAttr>(program.getNames()[i]).getValue();
      };
      os << " *   " << e.prefix << ": " << e.name << ", " << e.instances.size()
         << " instances, " << name(e.instances.front())
         << (e.instances.size() > 2 ? " ... " : " and ")
         << name(e.instances.back()) << "\n";
    }
    if (any)
      os << " */\n";
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
