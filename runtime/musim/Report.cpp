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

/// Per-header figures of a list-manager run: items traversed, cycles per
/// item and per match, and the ratio to the hardware bound (8-cycle header
/// plus 8 cycles per item pushed).
struct Rates {
  uint64_t items = 0, matches = 0, cycles = 0, matchCycles = 0, bound = 0;
  explicit Rates(const RunResult &r) {
    for (const HeaderResult &h : r.headers) {
      if (!h.complete)
        continue;
      items += h.itemsPushed;
      cycles += h.cycles;
      bound += 8 + 8 * h.itemsPushed;
      if (h.match >= 0) {
        ++matches;
        matchCycles += h.cycles;
      }
    }
  }
  std::string perItem() const { return ratio(cycles, items); }
  std::string perMatch() const { return ratio(matchCycles, matches); }
  std::string hwRatio() const { return ratio(cycles, bound); }
  static std::string ratio(uint64_t a, uint64_t b) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.3f", b ? double(a) / b : 0.0);
    return buf;
  }
};

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
  if (raw)
    return;
  for (size_t i = 0; i < result.headers.size(); ++i)
    os << "header " << i << " items " << result.headers[i].itemsPushed << '\n';
  Rates r(result);
  os << "items traversed " << r.items << ", cycles per item " << r.perItem()
     << '\n';
  os << "matches " << r.matches << ", cycles per matched header "
     << r.perMatch() << '\n';
  os << "hardware bound ratio " << r.hwRatio() << '\n';
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
  os << "],\"stats\":{\"cycles\":" << s.cycles;
  if (!raw) {
    Rates r(result);
    os << ",\"items_traversed\":" << r.items
       << ",\"cycles_per_item\":" << r.perItem() << ",\"matches\":" << r.matches
       << ",\"cycles_per_matched_header\":" << r.perMatch()
       << ",\"hw_bound_ratio\":" << r.hwRatio();
  }
  os << ",\"stalls\":" << s.stalls << ",\"words_issued\":" << s.words
     << ",\"branches_taken\":" << s.taken
     << ",\"branches_cancelled\":" << s.cancelled
     << ",\"halted\":" << (s.halted ? "true" : "false") << ",\"slots\":{";
  for (unsigned k = 0; k < NUM_SLOTS; ++k)
    os << (k ? "," : "") << '"' << SlotNames[k] << "\":" << s.slots[k];
  os << "}}}\n";
}

} // namespace npcc::musim
