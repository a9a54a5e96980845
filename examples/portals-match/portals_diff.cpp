//===- portals_diff.cpp - match-unit program vs Figure 1 in C -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs a match-unit image under musim's list manager on seeded random
// Portals lists and headers and compares every header's result (matching
// item, offset, length) with the reference C of Figure 1. Any difference is
// printed with the case seed so it can be replayed; the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "examples/portals-match/PortalsCorpus.h"
#include "examples/portals-match/portals_ref.h"
#include "runtime/isa/ISA.h"
#include "runtime/musim/Run.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace npcc;

static int usage(const char *msg) {
  if (msg)
    std::fprintf(stderr, "portals-diff: error: %s\n", msg);
  std::fprintf(stderr,
               "usage: portals-diff PROG.mu [--lists N] [--headers H] "
               "[--max-items M] [--seed S] [--dump PREFIX]\n"
               "Compares PROG.mu under musim with the reference C of "
               "Figure 1 on N\nseeded random lists of up to M items, "
               "each with H headers. --dump writes the first list and its\n"
               "headers as PREFIX.list and PREFIX.headers for musim.\n");
  return msg ? 1 : 0;
}

int main(int argc, char **argv) {
  const char *image = nullptr;
  const char *dumpPrefix = nullptr; // write the first list's files and stop
  unsigned long lists = 1000, headers = 20, maxItems = 12, seed = 1;
  for (int i = 1; i < argc; ++i) {
    auto num = [&](unsigned long &out) {
      if (i + 1 >= argc)
        return false;
      char *end = nullptr;
      out = std::strtoul(argv[++i], &end, 0);
      return *end == 0;
    };
    std::string a = argv[i];
    if (a == "--help")
      return usage(nullptr);
    bool ok = true;
    if (a == "--lists")
      ok = num(lists);
    else if (a == "--headers")
      ok = num(headers);
    else if (a == "--max-items")
      ok = num(maxItems);
    else if (a == "--seed")
      ok = num(seed);
    else if (a == "--dump" && i + 1 < argc)
      dumpPrefix = argv[++i];
    else if (a[0] != '-' && !image)
      image = argv[i];
    else
      return usage(("unknown argument '" + a + "'").c_str());
    if (!ok)
      return usage(("bad value for '" + a + "'").c_str());
  }
  if (!image)
    return usage("no image given");

  std::ifstream in(image, std::ios::binary);
  if (!in)
    return usage((std::string("cannot open '") + image + "'").c_str());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<mu::Word> words;
  mu::Diag diag;
  musim::Program prog;
  std::string error;
  if (!mu::readImage(image, bytes, words, diag)) {
    std::fprintf(stderr, "%s\n", diag.str().c_str());
    return 1;
  }
  if (!musim::loadProgram(words, prog, error)) {
    std::fprintf(stderr, "portals-diff: error: %s\n", error.c_str());
    return 1;
  }

  uint64_t compared = 0, matches = 0, mismatches = 0, items = 0;
  musim::RunConfig config;
  for (unsigned long l = 0; l < lists; ++l) {
    portals::Case c = portals::makeCase(seed + l, maxItems, headers);
    if (dumpPrefix) {
      // musim's text formats: one item or header per line, 8 hex words.
      for (int f = 0; f < 2; ++f) {
        std::string name = std::string(dumpPrefix) + (f ? ".headers" : ".list");
        FILE *out = std::fopen(name.c_str(), "w");
        if (!out)
          return usage(("cannot write '" + name + "'").c_str());
        for (const portals::Words &w : f ? c.headers : c.list) {
          for (unsigned k = 0; k < 8; ++k)
            std::fprintf(out, "%s%llx", k ? " " : "", (unsigned long long)w[k]);
          std::fprintf(out, "\n");
        }
        std::fclose(out);
      }
      return 0;
    }
    std::vector<musim::Item> list(c.list.begin(), c.list.end());
    std::vector<musim::Item> hdrs(c.headers.begin(), c.headers.end());
    musim::RunResult run;
    if (!musim::runList(prog, list, hdrs, config, run)) {
      std::fprintf(stderr, "portals-diff: error: list seed %lu: %s\n", seed + l,
                   run.error.c_str());
      return 1;
    }
    for (size_t h = 0; h < hdrs.size(); ++h) {
      uint64_t off = 0, len = 0;
      long want =
          portals_match(reinterpret_cast<const uint64_t(*)[8]>(c.list.data()),
                        c.list.size(), c.headers[h].data(), &off, &len);
      const musim::HeaderResult &got = run.headers[h];
      ++compared;
      items += got.itemsPushed;
      matches += want >= 0;
      bool same = got.complete && got.match == want &&
                  (want < 0 || (got.offset == off && got.length == len));
      if (same)
        continue;
      if (++mismatches <= 10)
        std::printf("MISMATCH list seed %lu header %zu: reference %ld "
                    "offset %llu length %llu, unit %lld offset %llu "
                    "length %llu%s\n",
                    seed + l, h, want, (unsigned long long)off,
                    (unsigned long long)len, (long long)got.match,
                    (unsigned long long)got.offset,
                    (unsigned long long)got.length,
                    got.complete ? "" : " (incomplete)");
    }
  }
  std::printf("portals-diff: %llu headers on %lu lists (%llu matched, %llu "
              "not), %llu items streamed, %llu mismatches\n",
              (unsigned long long)compared, lists, (unsigned long long)matches,
              (unsigned long long)(compared - matches),
              (unsigned long long)items, (unsigned long long)mismatches);
  return mismatches ? 1 : 0;
}
