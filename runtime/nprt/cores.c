/*===- cores.c - the cores' threads --------------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each core is a thread running the single-core executor (executor.h)
 * on its own graph (core_partition.c), with its own pool, stacks, clock
 * and devices (core_dev.c); the layer's files are listed in cores.h.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"
#include "runtime/nprt/sim.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* A core reaches its run phase (nprt_exec_hooks.run_phase): its copies
 * start their merged fields at identity, and it waits for every other
 * core to pass its init. If one failed (a table file init could not
 * load), the run ends there on every core, as on one core: its ingress
 * stops before a packet moves. */
static void nprt_core_run_phase(void *core_) {
  nprt_core *c = core_;
  nprt_multi *m = c->m;
  nprt_core_enter_run(c);
  atomic_fetch_add_explicit(&m->at_run, 1, memory_order_acq_rel);
#ifdef NPRT_SIM
  if (c->ex.sim)
    npsim_doorbell_ring(c->ex.sim);
#endif
  while (atomic_load_explicit(&m->at_run, memory_order_acquire) < m->n) {
    if (atomic_load_explicit(&m->abort, memory_order_acquire)) {
      c->ex.status.init_failed = true;
      nprt_status_stop(&c->ex.status);
      return;
    }
#ifdef NPRT_SIM
    if (c->ex.sim) {
      /* Boot is not measured: the last core to arrive rings. */
      npsim_doorbell_wait(c->ex.sim);
      continue;
    }
#endif
    sched_yield();
  }
}

/* Between two scheduler rounds (nprt_exec_hooks.round): the control
 * thread's call, if one is posted; and once the core's ingress stops (a
 * signal, `WRITE stop`, --duration), the ingresses stop handing it
 * records, which it would never take (core_dev.c). */
static void nprt_core_round(void *core_) {
  nprt_core *c = core_;
  nprt_core_tick(c);
  if (nprt_status_stopping(&c->ex.status) &&
      !atomic_load_explicit(&c->in_closed, memory_order_relaxed))
    atomic_store_explicit(&c->in_closed, true, memory_order_release);
}

void nprt_multi_init_cores(nprt_multi *m) {
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    nprt_exec_init(&c->ex, c->graph, m->opts);
    c->ex.hooks = (nprt_exec_hooks){
        .ctx = c, .round = nprt_core_round, .run_phase = nprt_core_run_phase};
    /* Core 0 says once for all what happened to the run. */
    c->ex.role = (nprt_exec_role){.reports = q == 0, .part = true};
    c->ex.devices.in_kind = &nprt_core_in_ops;
    c->ex.devices.out_kind = &nprt_core_out_ops;
    c->ex.devices.kind_ctx = c;
  }
}

static void *nprt_core_main(void *arg) {
  nprt_core *c = arg;
  nprt_multi *m = c->m;
  if (!m->oversubscribed && !m->sim) {
    /* One core per CPU when there are enough; oversubscribed, the host
     * schedules them. */
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(c->id, &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  }
  c->rc = nprt_exec_schedule(&c->ex);
  nprt_core_flush(c);
  nprt_pool_return_away(&c->ex.pool);
  /* A core that did not drain its graph (a deadlock, an init that could
   * not load its table) leaves the others nobody to wait for. A core whose
   * input ended in an error (a capture cut in mid-record) drained it as at
   * the end of its input: the others still read and merge theirs. */
  if (c->rc != NPRT_EXIT_OK || c->ex.status.init_failed)
    atomic_store_explicit(&m->abort, true, memory_order_release);
  atomic_store_explicit(&c->done, UINT64_MAX, memory_order_release);
  atomic_store_explicit(&c->in_closed, true, memory_order_release);
  atomic_store_explicit(&c->finished, true, memory_order_release);
#ifdef NPRT_SIM
  /* A core that ended may be what another waits for at the barrier. */
  if (c->ex.sim)
    npsim_doorbell_ring(c->ex.sim);
#endif
  return NULL;
}

#ifdef NPRT_SIM
static void nprt_core_context(void *arg) { (void)nprt_core_main(arg); }
#endif

int nprt_multi_start(nprt_multi *m) {
#ifdef NPRT_SIM
  /* Simulated: each core is a context of the machine, run by the join. */
  if (m->sim) {
    for (uint32_t q = 0; q < m->n; ++q)
      if (npsim_spawn(m->sim, q, nprt_core_context, &m->cores[q]) != 0) {
        fprintf(m->opts->err, "%s: error: cannot start core %u\n",
                m->opts->prog, q);
        return -1;
      } else {
        m->cores[q].ex.sim = m->cores[q].ex.prof.sim = npsim_ctx_of(m->sim, q);
        npsim_set_user(m->cores[q].ex.sim, &m->cores[q].ex);
      }
    return 0;
  }
#endif
  for (uint32_t q = 0; q < m->n; ++q)
    if (pthread_create(&m->cores[q].thread, NULL, nprt_core_main,
                       &m->cores[q]) != 0) {
      fprintf(m->opts->err, "%s: error: cannot start core %u\n", m->opts->prog,
              q);
      atomic_store(&m->abort, true);
      for (uint32_t k = 0; k < q; ++k)
        pthread_join(m->cores[k].thread, NULL);
      return -1;
    }
  return 0;
}

int nprt_multi_join(nprt_multi *m) {
  int rc = NPRT_EXIT_OK;
#ifdef NPRT_SIM
  if (m->sim) {
    npsim_run(m->sim);
    nprt_sim_free_skips(m);
    /* The simulation is over: what follows (-h, the instances' fini, which
     * may drop what their queues hold) runs on no context, unmeasured. */
    for (uint32_t q = 0; q < m->n; ++q)
      m->cores[q].ex.sim = m->cores[q].ex.prof.sim = NULL;
    uint32_t stuck = npsim_stuck(m->sim);
    if (stuck) {
      fprintf(m->opts->err,
              "%s: error: npsim: the simulation stopped with %u contexts "
              "waiting for what nothing will do\n",
              m->opts->prog, stuck);
      return NPRT_EXIT_ERROR;
    }
  }
#endif
  for (uint32_t q = 0; q < m->n; ++q) {
    if (!m->sim)
      pthread_join(m->cores[q].thread, NULL);
    if (m->cores[q].rc > rc)
      rc = m->cores[q].rc;
  }
  return rc;
}

void nprt_multi_free(nprt_multi *m) {
  nprt_multi_free_ingress(m);
  for (uint32_t q = 0; m->cores && q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    nprt_graph_destroy(c->graph);
    free(c->prog);
    free(c->primary);
    free(c->chans);
    free(c->records);
    free(c->clock_in);
    free(c->heads);
    for (uint32_t dev = 0; dev < c->n_outs; ++dev) {
      free(c->outs[dev].data);
      free(c->outs[dev].recs);
    }
    free(c->outs);
    free(c->self.v);
    nprt_exec_free(&c->ex);
    if (m->local)
      free(m->local[q]);
  }
  for (uint32_t q = 0; m->lanes && q < m->n * m->n; ++q)
    nprt_lane_destroy(m->lanes[q]);
  free(m->lanes);
  free(m->local);
  free(m->tail_local);
  free(m->replicate);
  free(m->tail);
  free(m->edges);
  free(m->cores);
  nprt_devices_free(&m->outs);
  free(m->cmd_acc);
  free(m->cmd_save);
}
