//===- CoreProfile.cpp - measured costs for np-map-cores ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "targets/c/Mapping/CoreProfile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace npcc::np;
using namespace npcc::c;

/// A JSON number as a double, or `fallback` when absent or not a number.
static std::optional<double> number(const llvm::json::Object &o,
                                    llvm::StringRef key) {
  if (const llvm::json::Value *v = o.get(key))
    return v->getAsNumber();
  return std::nullopt;
}

LogicalResult npcc::c::readCoreProfile(ProgramOp program, llvm::StringRef path,
                                       CoreProfile &out) {
  out.path = path.str();
  auto fail = [&]() {
    return program.emitError() << "profile '" << path << "': ";
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    fail() << "cannot read: " << buf.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buf)->getBuffer());
  if (!json) {
    fail() << "not JSON: " << llvm::toString(json.takeError());
    return failure();
  }
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *elements =
      root ? root->getArray("elements") : nullptr;
  const llvm::json::Object *devices =
      root ? root->getObject("devices") : nullptr;
  const llvm::json::Array *rx = devices ? devices->getArray("rx") : nullptr;
  if (!elements || !rx) {
    fail() << "not the --stats-json output of a run (no 'elements' or "
              "'devices')";
    return failure();
  }
  for (const llvm::json::Value &d : *rx)
    if (const llvm::json::Object *o = d.getAsObject())
      out.read += number(*o, "packets").value_or(0);
  if (out.read <= 0) {
    fail() << "the run read no packets";
    return failure();
  }
  if (std::optional<llvm::StringRef> name = root->getString("program"))
    if (*name != program.getSymName())
      program.emitWarning()
          << "profile '" << path << "' is of program '" << *name << "', not '"
          << program.getSymName() << "'";
  llvm::StringSet<> names;
  for (Attribute a : program.getNames())
    names.insert(cast<StringAttr>(a).getValue());
  unsigned matched = 0;
  for (const llvm::json::Value &e : *elements) {
    const llvm::json::Object *o = e.getAsObject();
    std::optional<llvm::StringRef> name =
        o ? o->getString("name") : std::nullopt;
    std::optional<double> cycles = o ? number(*o, "cycles") : std::nullopt;
    std::optional<double> iterations =
        o ? number(*o, "iterations") : std::nullopt;
    if (!name || !iterations) {
      fail() << "an element without 'name' or 'iterations'";
      return failure();
    }
    if (!cycles) {
      fail() << "no cycles for '" << *name
             << "': not written by a run with --stats-json of this npcc";
      return failure();
    }
    if (!names.contains(*name)) {
      program.emitWarning()
          << "profile '" << path << "': no instance '" << *name << "' in '"
          << program.getSymName() << "'; ignored";
      continue;
    }
    MeasuredInstance &m = out.instances[*name];
    m.cycles = *cycles;
    m.iterations = *iterations;
    if (const llvm::json::Array *ports = o->getArray("out"))
      for (const llvm::json::Value &p : *ports) {
        const llvm::json::Object *po = p.getAsObject();
        m.outPackets.push_back(po ? number(*po, "packets").value_or(0) : 0);
      }
    ++matched;
  }
  if (!matched)
    program.emitWarning() << "profile '" << path << "' names no instance of '"
                          << program.getSymName()
                          << "'; the static estimates stay";
  return success();
}
