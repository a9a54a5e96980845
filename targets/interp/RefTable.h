//===- RefTable.h - the interpreter's own lookup tables ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// np.table, written independently of libnprt's trie and open addressing:
// ordered maps searched the obvious way, so that the differential tests
// compare the runtime's tables against plain definitions.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TARGETS_INTERP_REFTABLE_H
#define NPCC_TARGETS_INTERP_REFTABLE_H

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace npcc::interp {

class RefTable {
public:
  /// Runs operation `op` (np::TableOpKind's values) of a table of `kind`
  /// (np::TableKind's) on `slot`, the words in front of the table in state.
  uint32_t run(unsigned kind, unsigned op, uint32_t capacity, unsigned kw,
               unsigned vw, uint64_t *slot, uint32_t a0, uint32_t a1);

private:
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> prefixes; // (len, addr)
  std::map<std::vector<uint64_t>, std::vector<uint64_t>> entries;
};

} // namespace npcc::interp

#endif // NPCC_TARGETS_INTERP_REFTABLE_H
