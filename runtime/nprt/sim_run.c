/*===- sim_run.c - a run on npsim's simulated cores ----------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Only in the simulator's flavour of libnprt (NPRT_SIM, sim.h). A run with
 * --sim is a multicore run (run_cores.c) whose cores are the machine's
 * hardware contexts: core v of the run is context v % K of simulated core
 * v / K, all of them coroutines of npsim's one event loop on this thread.
 * Everything that makes a multicore run give one core's results (the
 * partition, the lanes, the ordered merge) is the host's; npsim adds the
 * time each step takes. docs/npsim.md, "Running a program".
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/run.h"

#include "runtime/nprt/cores.h"
#include "runtime/nprt/sim.h"

#include <stdlib.h>
#include <string.h>

/* Where the shared state of element `sd` lies for core `q`: one object
 * per core and element, as the cores' graphs have. */
typedef struct nprt_sim_shared {
  const nprt_shared_desc *sd;
  uint64_t addr;
} nprt_sim_shared;

static int nprt_sim_place_core(nprt_multi *m, uint32_t q) {
  const nprt_program *p = m->program;
  nprt_core *c = &m->cores[q];
  nprt_sim_shared *placed = calloc(p->n_shared + 1, sizeof(*placed));
  uint32_t n_placed = 0;
  if (!placed) {
    fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
    return -1;
  }
  int rc = 0;
  for (uint32_t l = 0; l < c->n_local && rc == 0; ++l) {
    nprt_inst *in = c->graph->insts[l];
    uint32_t i = c->prog[l];
    if (i == UINT32_MAX) {
      in->sim_tag = NPSIM_TAG_RUNTIME;
      continue;
    }
    in->sim_tag = i;
    const nprt_instance_desc *d = &p->instances[i];
    /* Under rtc an instance that runs once holds what every packet's
     * order depends on: the program's global variables. */
    enum npsim_kind kind =
        !m->pipeline && !m->replicate[i] ? NPSIM_STATE_ONCE : NPSIM_STATE;
    in->sim_kind = kind;
    in->sim_state_bytes = d->state_size;
    if (d->state_size &&
        npsim_place(m->sim, kind, q, d->state_size, d->name, &in->sim_state))
      rc = -1;
    if (rc || !d->shared)
      continue;
    uint32_t k = 0;
    while (k < n_placed && placed[k].sd != d->shared)
      ++k;
    if (k == n_placed) {
      placed[k].sd = d->shared;
      ++n_placed;
      if (npsim_place(m->sim, NPSIM_SHARED, q, d->shared->size, d->element,
                      &placed[k].addr))
        rc = -1;
    }
    in->sim_shared = placed[k].addr;
    in->sim_shared_bytes = d->shared->size;
  }
  free(placed);
  return rc;
}

static bool nprt_sim_skip_add(nprt_sim_skip *s, uint64_t off, uint64_t index) {
  if (s->n == s->at) { /* `at` is the capacity until the run */
    size_t cap = s->at ? 2 * s->at : 64;
    uint64_t *o = realloc(s->off, cap * sizeof(*o));
    if (o)
      s->off = o;
    uint64_t *i = o ? realloc(s->index, cap * sizeof(*i)) : NULL;
    if (!i)
      return false;
    s->index = i;
    s->at = cap;
  }
  s->off[s->n] = off;
  s->index[s->n++] = index;
  return true;
}

/* The ingress engine is told every input packet and the core it is for
 * before the run, as the cores' input devices will decide; each core is
 * told where its packets lie in the (mapped) file. */
static int nprt_sim_scan_inputs(nprt_multi *m) {
  const nprt_devices *t = &m->cores[0].ex.devices;
  char err[PCAP_ERRBUF_SIZE + 64];
  for (uint32_t q = 0; q < m->n; ++q) {
    m->cores[q].skip = calloc(t->n_in ? t->n_in : 1, sizeof(nprt_sim_skip));
    if (!m->cores[q].skip)
      goto oom;
    m->cores[q].n_skip = t->n_in;
  }
  for (uint32_t dev = 0; dev < t->n_in; ++dev) {
    const nprt_pcap_in *from = nprt_core_dev_pcap(&t->in[dev]);
    if (!from || !from->path)
      continue;
    nprt_pcap_in d;
    memset(&d, 0, sizeof(d));
    if (nprt_pcap_in_open(&d, from->path, err, sizeof(err)) != 0)
      return 0; /* the core's own device reports it */
    nprt_pcap_in_share(&d, from);
    bool mapped = d.map != NULL;
    uint64_t index = 0;
    for (;; ++index) {
      uint64_t off = d.off;
      if (nprt_pcap_in_peek(&d, err, sizeof(err)) != NPRT_PCAP_OK) {
        for (uint32_t q = 0; q < m->n && mapped; ++q) {
          m->cores[q].skip[dev].end_off = off;
          m->cores[q].skip[dev].end_index = index;
        }
        break;
      }
      uint32_t owner =
          nprt_core_in_owner(m, dev, d.rec.bytes, d.rec.caplen, d.linktype);
      npsim_ingress_add(m->sim, owner, dev, d.rec.caplen);
      if (mapped && !nprt_sim_skip_add(&m->cores[owner].skip[dev], off, index))
        goto oom;
      nprt_pcap_in_pass(&d);
    }
    nprt_pcap_in_close(&d);
    /* Unmapped files are read record by record (no offsets to go to). */
    for (uint32_t q = 0; q < m->n; ++q) {
      m->cores[q].skip[dev].at = 0;
      m->cores[q].skip[dev].on = mapped;
    }
  }
  return 0;
oom:
  fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
  return -1;
}

void nprt_sim_free_skips(nprt_multi *m) {
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    for (uint32_t dev = 0; c->skip && dev < c->n_skip; ++dev) {
      free(c->skip[dev].off);
      free(c->skip[dev].index);
    }
    free(c->skip);
    c->skip = NULL;
  }
}

void nprt_sim_matrix_idle(void *core_, const struct timespec *timeout) {
  (void)timeout;
  nprt_core *c = core_;
  nprt_core_flush(c);
  /* Once the matrix ended, the next time the graph cannot move ends it. */
  if (npsim_matrix_idle(c->ex.sim))
    c->ex.hooks.idle = NULL;
}

/* Several NPUs joined by a switch matrix: every core runs the whole graph
 * on the packets of its NPU's interfaces (rtc, every instance copied), and
 * waits for the matrix when its graph cannot move. */
static int nprt_sim_matrix_setup(nprt_multi *m) {
  uint32_t npus = npsim_npus(m->sim);
  if (npus == 1)
    return 0;
  const nprt_options *o = m->opts;
  const nprt_program *p = m->program;
  if (m->pipeline || m->serial_core) {
    const char *once = NULL;
    for (uint32_t i = 0; i < p->n_instances && !m->pipeline && !once; ++i)
      if (!m->replicate[i])
        once = p->instances[i].name;
    if (m->pipeline)
      fprintf(o->err,
              "%s: error: a switch matrix of %u NPUs needs every instance "
              "copied on every core (rtc), not a pipeline\n",
              o->prog, npus);
    else
      fprintf(o->err,
              "%s: error: a switch matrix of %u NPUs needs every instance "
              "copied on every core (rtc), but '%s' runs once (npcc "
              "--explain-mapping says why)\n",
              o->prog, npus, once ? once : "?");
    return -1;
  }
  const nprt_devices *t = &m->cores[0].ex.devices;
  for (uint32_t dev = 0; dev < t->n_in; ++dev) {
    const nprt_pcap_in *in = nprt_core_dev_pcap(&t->in[dev]);
    if (!in || !in->path)
      continue;
    int npu = npsim_npu_of_device(m->sim, dev);
    if (npu < 0 || npsim_is_port(m->sim, dev)) {
      fprintf(o->err, "%s: error: --in %u: %s\n", o->prog, dev,
              npu < 0 ? "with a switch matrix, an input is an NPU's "
                        "Ethernet interface (device k for NPU k)"
                      : "the device is an NPU's port on the switch matrix: "
                        "its frames come from the matrix");
      return -1;
    }
  }
  for (uint32_t q = 0; q < m->n; ++q)
    m->cores[q].ex.hooks.idle = nprt_sim_matrix_idle;
  return 0;
}

int nprt_sim_prepare(nprt_multi *m) {
  if (nprt_sim_matrix_setup(m) != 0)
    return -1;
  for (uint32_t q = 0; q < m->n; ++q)
    if (nprt_sim_place_core(m, q) != 0)
      return -1;
  return nprt_sim_scan_inputs(m);
}

int nprt_run_sim(const nprt_program *program, const nprt_options *o) {
  npsim_machine *sim = npsim_open(o->prog, o->sim, o->sim_sets, o->n_sim_sets,
                                  o->cores, o->contexts, o->err);
  if (!sim)
    return NPRT_EXIT_ERROR;
  uint32_t n = npsim_cores(sim) * npsim_contexts(sim);
  uint32_t mapping = o->mapping_given ? o->mapping : program->mapping;
  if (n > NPRT_MAX_CORES && mapping == NPRT_MAPPING_PIPELINE) {
    fprintf(o->err,
            "%s: error: --mapping=pipeline: the program's stages cover up to "
            "%u cores x contexts, not %u\n",
            o->prog, NPRT_MAX_CORES, n);
    npsim_close(sim);
    return NPRT_EXIT_ERROR;
  }
  if (n > NPRT_MAX_CORES)
    mapping = NPRT_MAPPING_RTC;
  int rc = nprt_run_cores_on(program, o, n, mapping, sim);
  npsim_close(sim);
  return rc;
}
