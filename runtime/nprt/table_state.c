/*===- table_state.c - np.table on a table in element state ---------------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Generated code passes keys and values through the words in front of the
 * table region (the "slot"), so that one entry point with scalar arguments
 * serves every table operation.
 *
 *===----------------------------------------------------------------------===*/

#include "nprt/nprt.h"
#include "nprt/tables.h"
#ifdef NPRT_SIM
#include "runtime/nprt/sim.h"
#endif

enum { kInsert, kRemove, kLookup, kCount, kClear };

static uint32_t lpm_op(uint64_t *slot, void *t, uint32_t op, uint32_t cap,
                       uint32_t addr, uint32_t len) {
  switch (op) {
  case kInsert:
    return nprt_lpm_insert(t, cap, addr, len, slot[0]);
  case kRemove:
    return nprt_lpm_remove(t, cap, addr, len);
  case kLookup:
    return nprt_lpm_lookup(t, cap, addr, &slot[0]);
  case kCount:
    return nprt_lpm_count(t, cap);
  default:
    nprt_lpm_clear(t, cap);
    return 1;
  }
}

static uint32_t hash_op(uint64_t *slot, void *t, uint32_t op, uint32_t cap,
                        uint32_t kw, uint32_t vw) {
  switch (op) {
  case kInsert:
    return nprt_hash_insert(t, cap, kw, vw, slot, slot + kw);
  case kRemove:
    return nprt_hash_remove(t, cap, kw, vw, slot);
  case kLookup:
    return nprt_hash_lookup(t, cap, kw, vw, slot, slot + kw);
  case kCount:
    return nprt_hash_count(t, cap, kw, vw);
  default:
    nprt_hash_clear(t, cap, kw, vw);
    return 1;
  }
}

uint32_t nprt_table_op(void *state, uint32_t kind, uint32_t op,
                       uint32_t capacity, uint32_t kw, uint32_t vw, uint32_t a0,
                       uint32_t a1) {
  uint64_t *slot = (uint64_t *)state;
#ifdef NPRT_SIM
  if (npsim_running())
    nprt_sim_table(state, kind, op, kw);
#endif
  if (kind == 0)
    return lpm_op(slot, slot + 1, op, capacity, a0, a1);
  return hash_op(slot, slot + kw + vw, op, capacity, kw, vw);
}
