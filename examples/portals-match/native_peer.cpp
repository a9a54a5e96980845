//===- native_peer.cpp - Figure 1 in C on this machine --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The embedded-processor peer of the match-unit benchmark: the paper's
// experiment (section 5.1) run with the reference C function on the host.
// Prints one JSON object with ns per item traversed for each list length
// and match position.
//
//===----------------------------------------------------------------------===//

#include "examples/portals-match/PortalsCorpus.h"
#include "examples/portals-match/portals_ref.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace npcc::portals;

int main(int argc, char **argv) {
  const char *usage =
      "usage: portals-native-bench [REPETITIONS]\n"
      "Runs the paper's match benchmark (64 identical headers, lists of 10,\n"
      "30, 100 and 300 items, match at 0%..100%) with the reference C of\n"
      "Figure 1 on this machine, REPETITIONS times per point (default 200),\n"
      "and prints ns per item traversed as JSON.\n";
  if (argc > 1 && std::string(argv[1]) == "--help") {
    std::fputs(usage, stdout);
    return 0;
  }
  unsigned reps = argc > 1 ? (unsigned)std::atoi(argv[1]) : 200;
  if (reps == 0 || argc > 2) {
    std::fprintf(stderr, "portals-native-bench: error: bad arguments\n%s",
                 usage);
    return 1;
  }
  std::printf("{\"peer\":\"portals_match (C, native)\",\"runs\":[");
  bool first = true;
  uint64_t sink = 0;
  for (unsigned length : {10u, 30u, 100u, 300u}) {
    for (unsigned pct = 0; pct <= 100; pct += 10) {
      unsigned at = (unsigned)std::lround(pct / 100.0 * (length - 1));
      Case c = paperCase(length, at, 64);
      auto list = reinterpret_cast<const uint64_t(*)[8]>(c.list.data());
      auto t0 = std::chrono::steady_clock::now();
      for (unsigned r = 0; r < reps; ++r)
        for (const Words &h : c.headers) {
          uint64_t off = 0, len = 0;
          sink += portals_match(list, c.list.size(), h.data(), &off, &len);
          sink += off + len;
        }
      auto t1 = std::chrono::steady_clock::now();
      double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
      double items = double(reps) * 64 * (at + 1);
      std::printf("%s{\"list_length\":%u,\"match_percent\":%u,"
                  "\"ns_per_item\":%.3f}",
                  first ? "" : ",", length, pct, ns / items);
      first = false;
    }
  }
  std::printf("],\"checksum\":%llu}\n", (unsigned long long)(sink & 0xffff));
  return 0;
}
