//===- Report.cpp - text and JSON reports of a run ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Report.h"

#include <cstdio>

namespace npcc::musim {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

std::string percent(uint64_t part, uint64_t whole) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * part / whole : 0.0);
  return buf;
}

} // namespace

void printResults(std::ostream &os, const RunResult &result, bool raw) {
  if (raw) {
    for (size_t i = 0; i < result.outputs.size(); ++i)
      os << "out " << i << ": " << tagName(result.outputs[i].tag) << ' '
         << hex(result.outputs[i].value) << '\n';
    return;
  }
  for (size_t i = 0; i < result.headers.size(); ++i) {
    const HeaderResult &h = result.headers[i];
    os << "header " << i << ": ";
    if (!h.complete)
      os << "incomplete\n";
    else if (h.match < 0)
      os << "no match cycles " << h.cycles << '\n';
    else
      os << "match " << h.match << " offset " << h.offset << " length "
         << h.length << " cycles " << h.cycles << '\n';
  }
}

void printStats(std::ostream &os, const RunResult &result, bool raw) {
  const RunStats &s = result.stats;
  os << "cycles " << s.cycles << " (including " << DRAIN_CYCLES << " drain)\n";
  os << "stalls " << s.stalls << '\n';
  os << "words " << s.words << '\n';
  os << "branches taken " << s.taken << " cancelled " << s.cancelled << '\n';
  os << "halted " << (s.halted ? "yes" : "no") << '\n';
  for (unsigned k = 0; k < NUM_SLOTS; ++k)
    os << "slot " << SlotNames[k] << ' ' << s.slots[k] << " ("
       << percent(s.slots[k], s.words) << ")\n";
  if (!raw)
    for (size_t i = 0; i < result.headers.size(); ++i)
      os << "header " << i << " items " << result.headers[i].itemsPushed
         << '\n';
}

void printJson(std::ostream &os, const RunResult &result, bool raw) {
  const RunStats &s = result.stats;
  os << '{';
  if (raw) {
    os << "\"outputs\":[";
    for (size_t i = 0; i < result.outputs.size(); ++i)
      os << (i ? "," : "") << "{\"tag\":\"" << tagName(result.outputs[i].tag)
         << "\",\"value\":\"" << hex(result.outputs[i].value)
         << "\",\"cycle\":" << result.outputs[i].cycle << '}';
  } else {
    os << "\"results\":[";
    for (size_t i = 0; i < result.headers.size(); ++i) {
      const HeaderResult &h = result.headers[i];
      os << (i ? "," : "") << "{\"header\":" << i
         << ",\"complete\":" << (h.complete ? "true" : "false")
         << ",\"match\":" << h.match << ",\"offset\":" << h.offset
         << ",\"length\":" << h.length << ",\"cycles\":" << h.cycles
         << ",\"items_pushed\":" << h.itemsPushed << '}';
    }
  }
  os << "],\"stats\":{\"cycles\":" << s.cycles << ",\"stalls\":" << s.stalls
     << ",\"words_issued\":" << s.words << ",\"branches_taken\":" << s.taken
     << ",\"branches_cancelled\":" << s.cancelled
     << ",\"halted\":" << (s.halted ? "true" : "false") << ",\"slots\":{";
  for (unsigned k = 0; k < NUM_SLOTS; ++k)
    os << (k ? "," : "") << '"' << SlotNames[k] << "\":" << s.slots[k];
  os << "}}}\n";
}

} // namespace npcc::musim
