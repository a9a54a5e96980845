/*===- sim_hooks.c - the cost annotations of the emitted C ---------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Only in the simulator's flavour of libnprt (NPRT_SIM, sim.h): what
 * NPRT_SIM_BLOCK, NPRT_SIM_RD/WR (nprt.h) and the packet accessors
 * (packet.h) call. The running context is npsim's; the instance whose code
 * runs is the one its executor's profile last entered (nprt_prof_sim), and
 * a host address inside that instance's state or shared object is
 * translated to the simulated address the object was placed at
 * (sim_run.c). Outside a simulation each call returns at once.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/executor.h"
#include "runtime/nprt/sim.h"

void nprt_sim_block(uint32_t cycles, uint32_t code_offset,
                    uint32_t code_bytes) {
  npsim_ctx *c = npsim_running();
  if (c)
    npsim_block(c, cycles, code_offset, code_bytes);
}

/* The simulated address of host address `p` inside the running
 * instance's state (its kind in `kind`) or shared object; false when it
 * is in neither (a local of the handler: a register or the stack). */
static bool nprt_sim_addr(npsim_ctx *c, const void *p, enum npsim_kind *kind,
                          uint64_t *addr) {
  const nprt_exec *ex = npsim_user(c);
  const nprt_inst *in = ex ? ex->prof.sim_cur : NULL;
  if (!in)
    return false;
  uintptr_t a = (uintptr_t)p;
  uintptr_t s = (uintptr_t)in->state_obj, h = (uintptr_t)in->shared_obj;
  if (in->state_obj && a >= s && a - s < in->sim_state_bytes) {
    *kind = (enum npsim_kind)in->sim_kind;
    *addr = in->sim_state + (a - s);
    return true;
  }
  if (in->shared_obj && a >= h && a - h < in->sim_shared_bytes) {
    *kind = NPSIM_SHARED;
    *addr = in->sim_shared + (a - h);
    return true;
  }
  return false;
}

void nprt_sim_ptr(const void *p, uint32_t bytes, bool write) {
  npsim_ctx *c = npsim_running();
  enum npsim_kind kind;
  uint64_t addr;
  if (c && nprt_sim_addr(c, p, &kind, &addr))
    npsim_mem(c, kind, addr, bytes, write);
}

void nprt_sim_unit(const nprt_pkt *p, uint32_t off, uint32_t len,
                   enum npsim_unit unit) {
  npsim_ctx *c = npsim_running();
  if (!c)
    return;
  const npsim_costs *k = npsim_costs_of(npsim_machine_of(c));
  if (p) {
    uint32_t n = off < p->len ? (len < p->len - off ? len : p->len - off) : 0;
    if (n)
      npsim_pkt(c, p->sim_addr, off, n, false);
  }
  uint32_t sw = unit == NPSIM_CHECKSUM ? k->sw_csum_per16 * ((len + 15) / 16)
                                       : k->sw_crc_per_byte * len;
  npsim_coproc(c, unit, len, sw);
}

void nprt_sim_table(const void *state, uint32_t kind, uint32_t op,
                    uint32_t kw) {
  npsim_ctx *c = npsim_running();
  if (!c)
    return;
  const npsim_costs *k = npsim_costs_of(npsim_machine_of(c));
  enum npsim_kind where;
  uint64_t addr = 0;
  if (!nprt_sim_addr(c, state, &where, &addr))
    addr = 0;
  /* A lookup (op 2) walks the table: a tree search engine or hash unit if
   * the machine has one, else the core, reading the table's memory at each
   * step (an LPM trie: up to 32 levels, 8 on the way a typical route
   * takes; a hash: one probe). Other operations are the control plane's. */
  if (op != 2) {
    npsim_compute(c, k->call);
    return;
  }
  if (kind == 0 && npsim_has_unit(npsim_machine_of(c), NPSIM_LPM)) {
    npsim_coproc(c, NPSIM_LPM, 4, 0);
  } else if (kind == 0) {
    for (uint32_t level = 0; level < 8; ++level) {
      npsim_mem(c, NPSIM_TABLE, addr + 64 + 16 * level, 16, false);
      npsim_compute(c, k->sw_lpm_per_level);
    }
  } else {
    npsim_coproc(c, NPSIM_HASH, 8 * kw, k->sw_hash_probe);
    npsim_mem(c, NPSIM_TABLE, addr + 64, 8 * kw, false);
  }
}

void nprt_sim_pkt(const nprt_pkt *p, uint64_t off, uint32_t bytes, bool write) {
  npsim_ctx *c = npsim_running();
  if (c)
    npsim_pkt(c, p->sim_addr, off, bytes, write);
}
