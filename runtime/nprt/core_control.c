/*===- core_control.c - handler calls relayed to the cores ---------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * With --control, the thread that started the cores serves the clients
 * (the control thread), on a handler context (nprt_handler_ctx) whose
 * graph is loaded from the program and never runs: its instances name the
 * handlers, and these relays make the calls. A read or a write of
 * an element's own handler becomes a command to each core that holds a
 * copy of the instance: the control thread puts it in the core's mailbox
 * and waits; the core runs it between two scheduler rounds, when each of
 * its instances is parked in a port operation (as handlers run on one
 * core), and acknowledges. So a write reaches every copy between two of
 * that core's packets, the packet path never waits for the control thread
 * and takes no lock, and the reply goes out once every copy has it. A core
 * whose scheduler returned takes no more commands: the control thread runs
 * them on its graph itself.
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

#include <sched.h>
#include <string.h>
#include <time.h>

static void nprt_core_apply(nprt_core *c, nprt_cmd *cmd) {
  if (cmd->kind == NPRT_CMD_STOP) {
    nprt_status_stop(&c->ex.status);
    return;
  }
  const nprt_instance_desc *d = &c->m->program->instances[cmd->inst];
  /* The copies that are not the primary first: a read folds them in. */
  for (uint32_t l = 0; l < c->n_local; ++l) {
    if (c->prog[l] != cmd->inst)
      continue;
    nprt_inst *in = c->graph->insts[l];
    if (cmd->kind == NPRT_CMD_WRITE) {
      const nprt_handler_desc *h = &in->handlers[cmd->handler];
      memcpy(in->handler_args, cmd->args, sizeof(cmd->args));
      if (h->fn)
        h->fn(in);
    } else if (!c->primary[l]) {
      nprt_merge_into(d, cmd->acc, in->state_obj);
    }
  }
  if (cmd->kind != NPRT_CMD_READ)
    return;
  for (uint32_t l = 0; l < c->n_local; ++l) {
    if (c->prog[l] != cmd->inst || !c->primary[l])
      continue;
    /* The primary reads as the copies combined, then is itself again. */
    nprt_inst *in = c->graph->insts[l];
    size_t size = in->state_obj ? d->state_size : 0;
    if (size)
      memcpy(cmd->save, in->state_obj, size);
    nprt_merge_into(d, in->state_obj, cmd->acc);
    const nprt_handler_desc *h = &in->handlers[cmd->handler];
    in->handler_result = 0;
    if (h->fn)
      h->fn(in);
    cmd->result = in->handler_result;
    if (size)
      memcpy(in->state_obj, cmd->save, size);
  }
}

void nprt_core_tick(void *core) {
  nprt_core *c = core;
  uint64_t p = atomic_load_explicit(&c->posted, memory_order_acquire);
  if (p == atomic_load_explicit(&c->acked, memory_order_relaxed))
    return;
  nprt_core_apply(c, &c->cmd);
  atomic_store_explicit(&c->acked, p, memory_order_release);
}

/* Whether core `c` holds a copy of program instance `inst`, and the
 * primary one. */
static bool nprt_core_holds(const nprt_core *c, uint32_t inst, bool *primary) {
  bool any = false;
  *primary = false;
  for (uint32_t l = 0; l < c->n_local; ++l)
    if (c->prog[l] == inst) {
      any = true;
      *primary |= c->primary[l];
    }
  return any;
}

/* Hands `cmd` to core `c`; false when its scheduler returned (the caller
 * then runs it: nprt_cmd_finish). */
static bool nprt_cmd_post(nprt_core *c, const nprt_cmd *cmd) {
  /* The core reads `cmd` only after `posted` moves, and the previous
   * command was acknowledged (or the core finished): no race on it. */
  c->cmd = *cmd;
  if (atomic_load_explicit(&c->finished, memory_order_acquire))
    return false;
  atomic_fetch_add_explicit(&c->posted, 1, memory_order_release);
  return true;
}

/* Waits until core `c` ran its command, or runs it here if the core
 * finished first. */
static void nprt_cmd_finish(nprt_core *c, bool posted) {
  uint64_t seq = atomic_load_explicit(&c->posted, memory_order_relaxed);
  for (uint32_t spins = 0; posted; ++spins) {
    if (atomic_load_explicit(&c->acked, memory_order_acquire) == seq)
      return;
    if (atomic_load_explicit(&c->finished, memory_order_acquire)) {
      /* It acknowledged before it finished, or never will. */
      if (atomic_load_explicit(&c->acked, memory_order_acquire) == seq)
        return;
      break;
    }
    /* A core takes it within a scheduler round: yield to it, then nap. */
    if (spins < 64) {
      sched_yield();
    } else {
      struct timespec ts = {0, 20000};
      nanosleep(&ts, NULL);
    }
  }
  nprt_core_apply(c, &c->cmd);
}

/* Runs `cmd` on every core that holds a copy of its instance (every core
 * for a stop), all at once. */
static void nprt_multi_broadcast(nprt_multi *m, const nprt_cmd *cmd) {
  bool holds[NPRT_MAX_CORES], posted[NPRT_MAX_CORES], primary;
  for (uint32_t q = 0; q < m->n; ++q) {
    holds[q] = cmd->kind == NPRT_CMD_STOP ||
               nprt_core_holds(&m->cores[q], cmd->inst, &primary);
    posted[q] = holds[q] && nprt_cmd_post(&m->cores[q], cmd);
  }
  for (uint32_t q = 0; q < m->n; ++q)
    if (holds[q])
      nprt_cmd_finish(&m->cores[q], posted[q]);
}

void nprt_multi_write(void *ctx, uint32_t inst, uint32_t handler,
                      const uint64_t *args) {
  nprt_multi *m = ctx;
  nprt_cmd cmd = {.kind = NPRT_CMD_WRITE, .inst = inst, .handler = handler};
  memcpy(cmd.args, args, sizeof(cmd.args));
  nprt_multi_broadcast(m, &cmd);
}

void nprt_multi_stop(void *ctx) {
  nprt_multi *m = ctx;
  nprt_cmd cmd = {.kind = NPRT_CMD_STOP};
  nprt_multi_broadcast(m, &cmd);
}

uint64_t nprt_multi_read(void *ctx, uint32_t inst, uint32_t handler) {
  nprt_multi *m = ctx;
  const nprt_instance_desc *d = &m->program->instances[inst];
  nprt_cmd cmd = {.kind = NPRT_CMD_MERGE,
                  .inst = inst,
                  .handler = handler,
                  .acc = d->n_merges ? m->cmd_acc : NULL,
                  .save = m->cmd_save};
  nprt_merge_reset(d, cmd.acc);
  /* The other copies' merged fields, one core after the other, then the
   * read on the core of the primary. */
  uint32_t home = UINT32_MAX;
  for (uint32_t q = 0; q < m->n; ++q) {
    bool primary;
    nprt_core *c = &m->cores[q];
    if (!nprt_core_holds(c, inst, &primary))
      continue;
    if (primary)
      home = q;
    else if (cmd.acc)
      nprt_cmd_finish(c, nprt_cmd_post(c, &cmd));
  }
  if (home == UINT32_MAX)
    return 0;
  cmd.kind = NPRT_CMD_READ;
  nprt_core *c = &m->cores[home];
  nprt_cmd_finish(c, nprt_cmd_post(c, &cmd));
  return c->cmd.result;
}
