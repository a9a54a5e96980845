//===- TestUtil.h - helpers shared by the runtime unit tests ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#ifndef NPRT_TEST_UNIT_TESTUTIL_H
#define NPRT_TEST_UNIT_TESTUTIL_H

#include "test/unit/TestShim.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace nprt_test {

/// A path in the GoogleTest temporary directory, unique per call.
inline std::string tempPath(const std::string &name) {
  static int counter = 0;
  return ::testing::TempDir() + "nprt-" + std::to_string(getpid()) + "-" +
         std::to_string(counter++) + "-" + name;
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

inline std::string readAll(FILE *f) {
  std::string s;
  rewind(f);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    s.append(buf, n);
  return s;
}

struct RunResult {
  int rc;
  std::string out, err;
};

/// Runs `g` with `o`, capturing what the runtime prints.
inline RunResult run(nprt_graph *g, nprt_options &o) {
  FILE *out = tmpfile(), *err = tmpfile();
  o.out = out;
  o.err = err;
  RunResult r;
  r.rc = nprt_test_run(g, &o);
  r.out = readAll(out);
  r.err = readAll(err);
  fclose(out);
  fclose(err);
  o.out = stdout;
  o.err = stderr;
  return r;
}

/// Little-endian pcap writer, so tests control every byte of their input.
class PcapBuilder {
public:
  /// `swapped`: written in big-endian byte order (as by a big-endian host).
  PcapBuilder(bool nano = false, uint32_t snaplen = 65535,
              uint32_t linktype = 1, bool swapped = false)
      : swapped(swapped) {
    put32(nano ? 0xa1b23c4du : 0xa1b2c3d4u);
    put16(2);
    put16(4);
    put32(0);
    put32(0);
    put32(snaplen);
    put32(linktype);
  }
  PcapBuilder &packet(uint32_t sec, uint32_t frac, const std::string &data,
                      uint32_t wireLen = 0) {
    put32(sec);
    put32(frac);
    put32((uint32_t)data.size());
    put32(wireLen ? wireLen : (uint32_t)data.size());
    bytes += data;
    return *this;
  }
  std::string bytes;

private:
  bool swapped;
  void put16(uint16_t v) {
    if (swapped)
      v = (uint16_t)(v >> 8 | v << 8);
    bytes += (char)(v & 0xff);
    bytes += (char)(v >> 8);
  }
  void put32(uint32_t v) {
    put16((uint16_t)(swapped ? v >> 16 : v & 0xffff));
    put16((uint16_t)(swapped ? v & 0xffff : v >> 16));
  }
};

inline std::string frame(size_t len, unsigned seed) {
  std::string s(len, '\0');
  for (size_t i = 0; i < len; ++i)
    s[i] = (char)((i * 31 + seed * 7) & 0xff);
  return s;
}

} // namespace nprt_test

#endif // NPRT_TEST_UNIT_TESTUTIL_H
