/*===- core_dev.c - a core's share of the devices ------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A core of a multicore run reads its share of the inputs and gathers its
 * records for the outputs all cores share: the third kind of device
 * (device.h). Under rtc, an input mapped whole has one ingress (below):
 * its records are scanned once, and each core is handed descriptors of
 * its own (flow steering, core_steer.c), which it copies into its pool.
 * Other inputs (a pipeline's, which core 0 alone reads; a file read
 * through libpcap; a simulated run's) are read by each core itself,
 * looking at every record and copying only its own. Outputs are written
 * by core 0's pcap devices, which the run hands to all (nprt_multi.outs):
 * a core appends a whole buffer of records at a time, under a lock.
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

#include "runtime/nprt/pcap_dev.h"
#include "runtime/nprt/sim.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*--- Input: this core's share ---------------------------------------*/

/* A core's input device: the pcap file, read where it lies (one mapping
 * for every core), of which it copies only its own packets. */
typedef struct nprt_core_in {
  nprt_pcap_in pcap; /* first: pcap_dev.c's input operations apply */
  nprt_core *core;
} nprt_core_in;

nprt_pcap_in *nprt_core_dev_pcap(const nprt_device *d) {
  return d && d->ops == &nprt_core_in_ops ? &((nprt_core_in *)d->impl)->pcap
                                          : NULL;
}

static int nprt_core_in_open(nprt_device *d, const nprt_dev_config *cfg,
                             char *err, size_t errlen) {
  nprt_core *core = d->impl;
  nprt_core_in *ci = nprt_device_alloc(d, sizeof(*ci), err, errlen);
  if (!ci)
    return -1;
  ci->core = core;
  if (!cfg->path)
    return 0;
  if (nprt_pcap_in_open(&ci->pcap, cfg->path, err, errlen) != 0)
    return -1;
  if (core->m->serial_core && core->id == 0) {
    /* Read for its time stamps only (core_lanes.c, clock ticks). */
    struct nprt_core_clock_in *v =
        realloc(core->clock_in, (core->n_clock_in + 1) * sizeof(*v));
    if (!v) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    core->clock_in = v;
    v[core->n_clock_in++] = (struct nprt_core_clock_in){d->id, &ci->pcap};
  }
  return 0;
}

uint32_t nprt_core_in_owner(const nprt_multi *m, uint32_t dev,
                            const uint8_t *bytes, uint32_t caplen,
                            int linktype) {
  if (m->pipeline)
    return 0;
#ifdef NPRT_SIM
  /* Several NPUs: an interface's packets go to the contexts of its NPU
   * (sim_run.c checked that each input is some NPU's). */
  uint32_t npus = m->sim ? npsim_npus(m->sim) : 1;
  if (npus > 1) {
    uint32_t per = m->n / npus;
    int npu = npsim_npu_of_device(m->sim, dev);
    return (uint32_t)(npu < 0 ? 0 : npu) * per +
           nprt_flow_core(bytes, caplen, linktype, per);
  }
#else
  (void)dev;
#endif
  return m->serial_core ? 1 + nprt_flow_core(bytes, caplen, linktype, m->n - 1)
                        : nprt_flow_core(bytes, caplen, linktype, m->n);
}

/*--- One ingress per input (rtc) -----------------------------------------*/

/* Every core scanning the whole file to keep its share costs each core the
 * records of all the others (two cores ran slower than one). Instead, an
 * input has one ingress: a cursor over the shared mapping and, per core, an
 * nprt_spsc ring of descriptors (where the record lies, its lengths, its
 * time stamp, its index in the input, which makes the sequence number).
 *
 * Who scans: a dedicated reader thread would take a CPU of its own, which
 * on a machine with as many CPUs as cores is one the cores lack, and would
 * have to be woken or spin. So the reader is whichever core runs out: a
 * core whose ring is empty takes the ingress's try-lock, scans the next
 * stretch (up to NPRT_INGRESS_CHUNK records), writes each record's
 * descriptor to its owner's ring, publishes the rings and then the
 * position, and lets go. The lock orders the producers, so each ring has
 * one producer at any instant (a new holder sees its predecessor's writes
 * through the lock's acquire), and the owner is its one consumer. A core
 * that finds the lock taken spins a little: the holder never waits while
 * it holds it. Each record is scanned once, by one core; each core copies
 * only its own.
 *
 * A full ring stops the scan at that record (per-core order is the file's).
 * A core then starved of records, which would otherwise scan on to its
 * next one, vouches instead for the position the scan reached: its next
 * packet lies past it, so it moves its sequence number and watermark there
 * (as if it had read up to it) and lets its graph run (NPRT_DEV_BUSY), or
 * core 0's merge could wait for it while its own ring, full, waits for
 * core 0. A core that takes no more (its ingress stopped, it finished or
 * failed: nprt_core.in_closed) has its records dropped, not waited for. */

/* Records a core scans at most per hold of the lock. */
#define NPRT_INGRESS_CHUNK 256u
/* Descriptors each core's ring holds. */
#define NPRT_INGRESS_SLOTS 2048u
/* Polls of a taken lock before the core lets its graph run. */
#define NPRT_INGRESS_SPINS 64u
/* A starved core's nap (below). */
#define NPRT_INGRESS_NAP_NS 20000

/* A record handed to its core: 32 bytes. */
typedef struct nprt_in_desc {
  const uint8_t *bytes; /* in the mapping */
  uint64_t index;       /* the record's number in the input */
  int64_t ts;
  uint32_t caplen, len;
} nprt_in_desc;

struct nprt_ingress {
  uint32_t dev;
  /* Under the lock: the cursor (over the mapping core 0's device made),
   * how the scan ended. */
  nprt_pcap_in cur;
  nprt_pcap_status end_st;
  char err[PCAP_ERRBUF_SIZE + 64];
  nprt_spsc **ring; /* per core; NULL for a core that reads no packet */
  _Atomic bool *gone; /* per core: it took the end of this input */
  _Alignas(64) _Atomic bool lock;
  _Atomic uint64_t pos; /* records handed out (or dropped) */
  _Atomic bool ended;   /* the scan reached the end or an error */
};

enum { NPRT_SCAN_MOVED, NPRT_SCAN_BLOCKED, NPRT_SCAN_ENDED };

/* Under the lock: hands out the next stretch of records. MOVED when it
 * passed at least one, BLOCKED when the first record's core has no room,
 * ENDED once the input ended. */
static int nprt_ingress_scan(nprt_multi *m, nprt_ingress *g) {
  if (atomic_load_explicit(&g->ended, memory_order_relaxed))
    return NPRT_SCAN_ENDED;
  uint64_t pos = atomic_load_explicit(&g->pos, memory_order_relaxed);
  uint32_t moved = 0;
  int res = NPRT_SCAN_MOVED;
  for (; moved < NPRT_INGRESS_CHUNK; ++moved) {
    nprt_pcap_status st = nprt_pcap_in_peek(&g->cur, g->err, sizeof(g->err));
    if (st != NPRT_PCAP_OK) {
      g->end_st = st;
      res = NPRT_SCAN_ENDED;
      break;
    }
    const nprt_pcap_rec *r = &g->cur.rec;
    uint32_t o = nprt_core_in_owner(m, g->dev, r->bytes, r->caplen,
                                    g->cur.linktype);
    if (g->ring[o] &&
        !atomic_load_explicit(&m->cores[o].in_closed, memory_order_relaxed) &&
        !atomic_load_explicit(&g->gone[o], memory_order_relaxed)) {
      const nprt_in_desc e = {r->bytes, pos, r->ts, r->caplen, r->len};
      if (!nprt_spsc_write1(g->ring[o], &e, sizeof(e))) {
        res = NPRT_SCAN_BLOCKED;
        break;
      }
    }
    nprt_pcap_in_pass(&g->cur);
    ++pos;
  }
  for (uint32_t q = 0; q < m->n; ++q)
    if (g->ring[q] && nprt_spsc_unpublished(g->ring[q]))
      nprt_spsc_publish(g->ring[q]);
  /* The descriptors before the position that vouches for them. */
  atomic_store_explicit(&g->pos, pos, memory_order_release);
  if (res == NPRT_SCAN_ENDED)
    atomic_store_explicit(&g->ended, true, memory_order_release);
  return moved && res == NPRT_SCAN_BLOCKED ? NPRT_SCAN_MOVED : res;
}

int nprt_multi_open_ingress(nprt_multi *m) {
  uint32_t readers = m->serial_core ? m->n - 1 : m->n;
  if (m->pipeline || m->sim || readers < 2)
    return 0;
  const nprt_devices *d0 = &m->cores[0].ex.devices;
  m->ingress = calloc(d0->n_in ? d0->n_in : 1, sizeof(*m->ingress));
  if (!m->ingress)
    goto oom;
  m->n_ingress = d0->n_in;
  for (uint32_t dev = 0; dev < d0->n_in; ++dev) {
    const nprt_pcap_in *from = nprt_core_dev_pcap(&d0->in[dev]);
    bool shared = from && from->map && from->path;
    for (uint32_t q = 1; q < m->n && shared; ++q) {
      const nprt_devices *t = &m->cores[q].ex.devices;
      const nprt_pcap_in *in =
          dev < t->n_in ? nprt_core_dev_pcap(&t->in[dev]) : NULL;
      shared = in && in->map == from->map;
    }
    if (!shared)
      continue; /* each core reads it (libpcap) */
    nprt_ingress *g = calloc(1, sizeof(*g));
    if (!g)
      goto oom;
    m->ingress[dev] = g;
    g->dev = dev;
    g->ring = calloc(m->n, sizeof(*g->ring));
    g->gone = calloc(m->n, sizeof(*g->gone));
    if (!g->ring || !g->gone)
      goto oom;
    char err[PCAP_ERRBUF_SIZE + 64];
    bool opened = nprt_pcap_in_open(&g->cur, from->path, err, sizeof(err)) == 0;
    if (opened)
      nprt_pcap_in_share(&g->cur, from);
    if (!opened || g->cur.map != from->map) {
      /* It opened for every core a moment ago; if not now, or not onto
       * the same mapping (descriptors point into it), each core reads it
       * itself. */
      if (opened)
        nprt_pcap_in_close(&g->cur);
      m->ingress[dev] = NULL;
      free(g->ring);
      free(g->gone);
      free(g);
      continue;
    }
    for (uint32_t q = m->serial_core ? 1 : 0; q < m->n; ++q)
      if (!(g->ring[q] = nprt_spsc_create(NPRT_INGRESS_SLOTS,
                                          sizeof(nprt_in_desc))))
        goto oom;
  }
  return 0;
oom:
  fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
  return -1;
}

void nprt_multi_free_ingress(nprt_multi *m) {
  for (uint32_t dev = 0; m->ingress && dev < m->n_ingress; ++dev) {
    nprt_ingress *g = m->ingress[dev];
    if (!g)
      continue;
    nprt_pcap_in_close(&g->cur);
    for (uint32_t q = 0; g->ring && q < m->n; ++q)
      if (g->ring[q])
        nprt_spsc_destroy(g->ring[q]);
    free(g->ring);
    free(g->gone);
    free(g);
  }
  free(m->ingress);
  m->ingress = NULL;
  m->n_ingress = 0;
}

#ifdef NPRT_SIM
/* A port on the switch matrix: the frames the matrix brought this context,
 * NPRT_DEV_AGAIN while none is there (the graph waits, then the core,
 * nprt_sim_matrix_idle), the end once the matrix ended. */
static nprt_dev_status nprt_core_port_rx(nprt_core *core, nprt_pcap_in *d,
                                         const nprt_dev_host *h, uint32_t dev,
                                         nprt_pkt **pkts, uint32_t *n) {
  npsim_frame f;
  int r = npsim_matrix_take(core->ex.sim, dev, &f);
  if (r < 0)
    return NPRT_DEV_END;
  if (r == 0)
    return NPRT_DEV_AGAIN;
  nprt_pkt *p = nprt_pool_alloc(h->pool, f.len);
  if (!p) {
    fprintf(core->m->opts->err, "%s: error: out of memory\n",
            core->m->opts->prog);
    return NPRT_DEV_END;
  }
  memcpy(p->data, f.bytes, f.len);
  p->in_port = dev;
  p->ts = f.ts;
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  b->cap_len = b->wire_len = f.len;
  p->sim_addr = f.addr;
  p->sim_born = f.born;
  ++d->packets;
  d->bytes += f.len;
  core->records[dev] = f.index + 1;
  core->cur_seq = f.index * NPRT_MAX_DEVICES + dev;
  pkts[0] = p;
  *n = 1;
  return NPRT_DEV_OK;
}

static bool nprt_core_in_ready(const nprt_device *dev_) {
  const nprt_core_in *ci = dev_->impl;
  nprt_core *core = ci->core;
  return !core->ex.sim || !npsim_is_port(core->m->sim, dev_->id) ||
         npsim_matrix_ready(core->ex.sim, dev_->id);
}
#endif

/* Nothing more from this core's input (one input device: with several,
 * the first to end already lets the merge pass it). A read error is
 * reported once: every core meets it. */
static nprt_dev_status nprt_core_in_end(nprt_core *core, nprt_device *dev_,
                                        nprt_ingress *g, nprt_pcap_status st,
                                        const char *err) {
  nprt_core_in *ci = dev_->impl;
  nprt_multi *m = core->m;
  if (st == NPRT_PCAP_ERROR &&
      atomic_exchange_explicit(&m->read_error[dev_->id], true,
                               memory_order_acq_rel))
    st = NPRT_PCAP_EOF;
  nprt_core_flush(core);
  atomic_store_explicit(&core->done, UINT64_MAX, memory_order_release);
  if (g) /* its ingress drops what is left for it */
    atomic_store_explicit(&g->gone[core->id], true, memory_order_release);
  return nprt_pcap_dev_read_failed(dev_->host, &ci->pcap, st, err);
}

/* The core took record `index` of input `dev` (pkts[0]; NULL: none, a
 * simulated context's packet to come): its sequence number, and its
 * watermark once a burst. */
static nprt_dev_status nprt_core_in_took(nprt_core *core, uint32_t dev,
                                         uint64_t index, nprt_pkt **pkts,
                                         uint32_t *n) {
  nprt_multi *m = core->m;
#ifdef NPRT_SIM
  if (core->ex.sim && pkts[0]) {
    /* The ingress engine placed it in packet memory for this context,
     * or will: the context may wait for it, so what it wrote to its
     * lanes is published first (nprt_core_flush), or the next stage
     * waits for the next packet to arrive here. */
    nprt_core_flush(core);
    npsim_tag(core->ex.sim, NPSIM_TAG_ACQUISITION);
    npsim_ingress_take(core->ex.sim, dev, &pkts[0]->sim_addr,
                       &pkts[0]->sim_born);
  }
#endif
  core->cur_seq = index * NPRT_MAX_DEVICES + dev;
  if (m->tick_to > core->id && pkts[0])
    nprt_core_send_tick(core, pkts[0]->ts);
  /* The watermark moves once a burst (simulated, once a packet: a
   * context reads few): first the messages it vouches for are
   * published. */
  if (++core->reads % NPRT_LANE_BURST == 0 || m->sim) {
    nprt_core_flush(core);
    uint64_t w = atomic_load_explicit(&core->done, memory_order_relaxed);
    if (core->cur_seq && core->cur_seq - 1 > w && w != UINT64_MAX)
      atomic_store_explicit(&core->done, core->cur_seq - 1,
                            memory_order_release);
  }
  *n = 1;
  return NPRT_DEV_OK;
}

/* The lowest sequence number a packet this core reads next can have, over
 * its inputs: from an ingress, the first descriptor in its ring, else the
 * position the scan reached (read before the ring is looked at: every
 * record before it is in the ring by then); from an input it reads
 * itself, the next record it looks at. */
static uint64_t nprt_core_in_past(nprt_core *core) {
  nprt_multi *m = core->m;
  const nprt_devices *t = &core->ex.devices;
  uint64_t past = UINT64_MAX;
  for (uint32_t d = 0; d < t->n_in; ++d) {
    if (!nprt_core_dev_pcap(&t->in[d]) || !nprt_core_dev_pcap(&t->in[d])->path)
      continue;
    nprt_ingress *g = d < m->n_ingress ? m->ingress[d] : NULL;
    uint64_t v;
    if (!g) {
      v = core->records[d];
    } else if (atomic_load_explicit(&g->gone[core->id], memory_order_relaxed)) {
      continue;
    } else {
      v = atomic_load_explicit(&g->pos, memory_order_acquire);
      const nprt_in_desc *e = nprt_spsc_peek(g->ring[core->id],
                                             sizeof(nprt_in_desc));
      if (e)
        v = e->index;
    }
    v = v * NPRT_MAX_DEVICES + d;
    if (v < past)
      past = v;
  }
  return past;
}

/* The core's next packet from the ingress of its input (above). */
static nprt_dev_status nprt_core_in_take(nprt_device *dev_, nprt_ingress *g,
                                         nprt_pkt **pkts, uint32_t *n) {
  nprt_core_in *ci = dev_->impl;
  nprt_core *core = ci->core;
  nprt_multi *m = core->m;
  uint32_t dev = dev_->id;
  nprt_spsc *r = g->ring[core->id];
  uint32_t spins = 0;
  uint64_t t0 = 0;
  for (;;) {
    const nprt_in_desc *e = nprt_spsc_peek(r, sizeof(nprt_in_desc));
    if (e) {
      const nprt_in_desc rec = *e;
      nprt_spsc_skip(r);
      core->starved = 0;
      if (nprt_spsc_unreleased(r) >= NPRT_RING_BURST)
        nprt_spsc_release(r);
      if (spins)
        nprt_prof_wait(&core->ex.prof, t0);
      nprt_pkt *p = nprt_pool_alloc(dev_->host->pool, rec.caplen);
      if (!p)
        return nprt_core_in_end(core, dev_, g, NPRT_PCAP_ERROR,
                                "out of memory");
      memcpy(p->data, rec.bytes, rec.caplen);
      p->in_port = dev;
      p->ts = rec.ts;
      nprt_pkt_buf *b = nprt_pkt_to_buf(p);
      b->cap_len = rec.caplen;
      b->wire_len = rec.len;
      ++ci->pcap.packets;
      ci->pcap.bytes += rec.caplen;
      core->records[dev] = rec.index + 1;
      pkts[0] = p;
      return nprt_core_in_took(core, dev, rec.index, pkts, n);
    }
    /* Empty: the slots go back to the scan, then the end (published after
     * the last descriptors) or the next stretch. */
    nprt_spsc_release(r);
    if (atomic_load_explicit(&g->ended, memory_order_acquire)) {
      if (nprt_spsc_peek(r, sizeof(nprt_in_desc)))
        continue;
      if (spins)
        nprt_prof_wait(&core->ex.prof, t0);
      return nprt_core_in_end(core, dev_, g, g->end_st, g->err);
    }
    if (!atomic_exchange_explicit(&g->lock, true, memory_order_acquire)) {
      int res = nprt_ingress_scan(m, g);
      atomic_store_explicit(&g->lock, false, memory_order_release);
      if (res != NPRT_SCAN_BLOCKED)
        continue;
    } else if (spins < NPRT_INGRESS_SPINS) {
      /* Another core scans: it holds the lock a stretch at most. */
      if (!spins++ && core->ex.prof.on)
        t0 = nprt_prof_clock();
      if (m->oversubscribed)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
      else
        for (int i = 0; i < 16; ++i)
          __builtin_ia32_pause();
#endif
      continue;
    }
    /* Starved: its next packet lies past what the scan handed out. */
    uint64_t past = nprt_core_in_past(core);
    if (nprt_spsc_peek(r, sizeof(nprt_in_desc)))
      continue; /* one came meanwhile */
    if (past != UINT64_MAX && past > core->cur_seq)
      core->cur_seq = past;
    nprt_core_flush(core);
    uint64_t w = atomic_load_explicit(&core->done, memory_order_relaxed);
    if (core->cur_seq && core->cur_seq - 1 > w && w != UINT64_MAX)
      atomic_store_explicit(&core->done, core->cur_seq - 1,
                            memory_order_release);
    /* Nothing comes until a slower core takes from its full ring: a core
     * whose graph merges no lane (every core but core 0 under rtc) sleeps
     * rather than spin through its rounds, which would take CPU time from
     * the others (and on a machine with no CPU to spare, from the slower
     * core). Not long: the slower core drains a stretch in about as long. */
    if (!spins && core->ex.prof.on)
      t0 = nprt_prof_clock();
    if (++core->starved > 2 && core->lane_in == UINT32_MAX && !m->sim)
      nanosleep(&(struct timespec){0, NPRT_INGRESS_NAP_NS}, NULL);
    else if (m->oversubscribed)
      sched_yield();
    nprt_prof_wait(&core->ex.prof, t0);
    return NPRT_DEV_BUSY;
  }
}

/* The next packet of the core's input: under rtc the packets of its share
 * of the flows, under a pipeline every packet. Sets the core's sequence
 * number (the packet's index in its input) and moves its watermark. */
static nprt_dev_status nprt_core_in_rx(nprt_device *dev_, nprt_pkt **pkts,
                                       uint32_t max, uint32_t *n) {
  nprt_core_in *ci = dev_->impl;
  nprt_core *core = ci->core;
  nprt_pcap_in *d = &ci->pcap;
  const nprt_dev_host *h = dev_->host;
  uint32_t dev = dev_->id;
  nprt_multi *m = core->m;
  *n = 0;
  if (!max)
    return NPRT_DEV_OK;
  if (m->serial_core && core->id == 0) {
    /* Core 0 runs only what runs once: it takes no packet itself, and
     * reads the file only for its clock (core_lanes.c). */
    return NPRT_DEV_END;
  }
#ifdef NPRT_SIM
  if (core->ex.sim && npsim_is_port(m->sim, dev))
    return nprt_core_port_rx(core, d, h, dev, pkts, n);
#endif
  /* An output failed on some core: ingress stops everywhere. */
  if (atomic_load_explicit(&m->stop, memory_order_acquire)) {
    atomic_store_explicit(&core->done, UINT64_MAX, memory_order_release);
    atomic_store_explicit(&core->in_closed, true, memory_order_release);
    return NPRT_DEV_END;
  }
  /* Core 0 waits for its merge to catch up before reading more. */
  if (core->self.n > NPRT_SELF_QUEUE_LIMIT && !h->stopping(h->ctx)) {
    NPRT_SIM_DO(core->ex.sim, npsim_poll(core->ex.sim));
    return NPRT_DEV_BUSY;
  }
  nprt_ingress *g = dev < m->n_ingress ? m->ingress[dev] : NULL;
  if (g)
    return nprt_core_in_take(dev_, g, pkts, n);
  char err[PCAP_ERRBUF_SIZE + 64];
#ifdef NPRT_SIM
  /* Simulated, the core goes straight to its next packet: 64 contexts
   * passing every record would cost the host more than the packets. */
  if (dev < core->n_skip && core->skip[dev].on && !d->pending) {
    nprt_sim_skip *s = &core->skip[dev];
    d->off = s->at < s->n ? s->off[s->at] : s->end_off;
    core->records[dev] = s->at < s->n ? s->index[s->at] : s->end_index;
    s->at += s->at < s->n;
  }
#endif
  for (;;) {
    /* The record is looked at where it lies (in the mapped file): only
     * this core's packets are copied into its pool. */
    nprt_pcap_status st = nprt_pcap_in_peek(d, err, sizeof(err));
    uint64_t index = core->records[dev];
    if (st == NPRT_PCAP_OK) {
      ++core->records[dev];
      const nprt_pcap_rec *r = &d->rec;
      if (nprt_core_in_owner(m, dev, r->bytes, r->caplen, d->linktype) !=
          core->id) {
        nprt_pcap_in_pass(d); /* another core's */
        continue;
      }
      st = nprt_pcap_in_next(d, h->pool, dev, &pkts[0], err, sizeof(err));
    }
    if (st != NPRT_PCAP_OK)
      return nprt_core_in_end(core, dev_, NULL, st, err);
    return nprt_core_in_took(core, dev, index, pkts, n);
  }
}

#ifdef NPRT_SIM
const nprt_device_ops nprt_core_in_ops = {.kind = "core",
                                          .open = nprt_core_in_open,
                                          .rx_burst = nprt_core_in_rx,
                                          .rx_ready = nprt_core_in_ready,
                                          .close = nprt_pcap_in_dev_close,
                                          .stats = nprt_pcap_in_stats,
                                          .format = nprt_pcap_in_format,
                                          .free = nprt_pcap_dev_free};
#else
const nprt_device_ops nprt_core_in_ops =
    NPRT_PCAP_IN_OPS("core", nprt_core_in_open, nprt_core_in_rx);
#endif

/*--- Output: records gathered for the shared files ------------------*/

/* Hands what core `core` buffered for device `dev` to the shared device,
 * under the lock: one write of whole records. */
static void nprt_core_out_flush(nprt_core *core, uint32_t dev) {
  nprt_multi *m = core->m;
  nprt_core_out *o = &core->outs[dev];
  if (!o->used && !o->packets)
    return;
  pthread_mutex_lock(&m->out_lock);
  nprt_pcap_out *d = nprt_pcap_dev_out(&m->outs.out[dev]);
  bool failed =
      nprt_pcap_out_append(d, o->data, o->used, o->packets, o->bytes) != 0;
  /* Another core may move the devices once the lock is released. */
  nprt_pcap_out report = *d;
  pthread_mutex_unlock(&m->out_lock);
  o->used = 0;
  o->packets = o->bytes = 0;
  if (failed) {
    nprt_pcap_dev_write_failed(&core->ex.devices.host, &report);
    atomic_store_explicit(&m->stop, true, memory_order_release);
  }
}

#ifdef NPRT_SIM
/* --sim: keeps `p`'s record with its order (cores.h); frees it. */
static bool nprt_core_out_keep(nprt_core *core, nprt_core_out *o, nprt_pkt *p) {
  size_t need = NPRT_PCAP_REC_HDR + p->len;
  bool ok = true;
  size_t cap = o->cap ? o->cap : NPRT_PCAP_OUT_BUF; /* first: the malloc */
  if (o->file && o->used + need > cap) {
    while (cap < o->used + need)
      cap *= 2;
    uint8_t *v = realloc(o->data, cap);
    if (v) {
      o->data = v;
      o->cap = cap;
    } else {
      ok = false;
    }
  }
  if (ok && o->n_recs == o->cap_recs) {
    size_t n = o->cap_recs ? 2 * o->cap_recs : 256;
    struct nprt_sim_rec *v = realloc(o->recs, n * sizeof(*v));
    if (v) {
      o->recs = v;
      o->cap_recs = n;
    } else {
      ok = false;
    }
  }
  if (!ok) {
    fprintf(core->m->opts->err, "%s: error: out of memory\n",
            core->m->opts->prog);
    abort();
  }
  size_t n = o->file ? nprt_pcap_out_record(&o->fmt, p, o->data + o->used) : 0;
  o->recs[o->n_recs++] = (struct nprt_sim_rec){
      core->cur_seq, npsim_now(core->ex.sim), o->used, n, p->len};
  o->used += n;
  ++o->packets;
  o->bytes += p->len;
  nprt_pool_free(&core->ex.pool, p);
  return true;
}

/* One record to write, and whose it is. */
typedef struct nprt_sim_out {
  const struct nprt_sim_rec *rec;
  const nprt_core_out *from;
  uint32_t core;
} nprt_sim_out;

static int nprt_sim_out_order(const void *a_, const void *b_) {
  const nprt_sim_out *a = a_, *b = b_;
  if (a->rec->seq != b->rec->seq)
    return a->rec->seq < b->rec->seq ? -1 : 1;
  if (a->rec->cycle != b->rec->cycle)
    return a->rec->cycle < b->rec->cycle ? -1 : 1;
  if (a->core != b->core)
    return a->core < b->core ? -1 : 1;
  return a->rec < b->rec ? -1 : a->rec > b->rec;
}

/* Writes every core's records for `dev` in the order of their packets. */
static void nprt_sim_write_output(nprt_multi *m, uint32_t dev) {
  size_t total = 0;
  for (uint32_t q = 0; q < m->n; ++q)
    if (dev < m->cores[q].n_outs)
      total += m->cores[q].outs[dev].n_recs;
  nprt_sim_out *v = calloc(total ? total : 1, sizeof(*v));
  if (!v) {
    fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
    abort();
  }
  size_t k = 0;
  for (uint32_t q = 0; q < m->n; ++q) {
    if (dev >= m->cores[q].n_outs)
      continue;
    const nprt_core_out *o = &m->cores[q].outs[dev];
    for (size_t r = 0; r < o->n_recs; ++r)
      v[k++] = (nprt_sim_out){&o->recs[r], o, q};
  }
  qsort(v, total, sizeof(*v), nprt_sim_out_order);
  nprt_pcap_out *d = nprt_pcap_dev_out(&m->outs.out[dev]);
  bool failed = false;
  for (size_t i = 0; i < total && d; ++i)
    failed |= nprt_pcap_out_append(d, v[i].from->data + v[i].rec->off,
                                   v[i].rec->n, 1, v[i].rec->len) != 0;
  free(v);
  for (uint32_t q = 0; q < m->n; ++q)
    if (dev < m->cores[q].n_outs) {
      nprt_core_out *o = &m->cores[q].outs[dev];
      o->used = o->n_recs = 0;
      o->packets = o->bytes = 0;
    }
  if (failed && d) {
    nprt_pcap_dev_write_failed(&m->cores[0].ex.devices.host, d);
    atomic_store_explicit(&m->stop, true, memory_order_release);
  }
}
#endif

/* This core's buffer for output device `dev`, made on first use (the
 * shared device too, when it has no --out). NULL when out of memory. */
static nprt_core_out *nprt_core_out_dev(nprt_core *core, uint32_t dev) {
  if (dev < core->n_outs && core->outs[dev].data)
    return &core->outs[dev];
  nprt_multi *m = core->m;
  if (dev >= core->n_outs) {
    nprt_core_out *v = realloc(core->outs, (dev + 1) * sizeof(*v));
    if (!v)
      return NULL;
    memset(v + core->n_outs, 0, (dev + 1 - core->n_outs) * sizeof(*v));
    core->outs = v;
    core->n_outs = dev + 1;
  }
  nprt_core_out *o = &core->outs[dev];
  o->data = malloc(NPRT_PCAP_OUT_BUF);
  if (!o->data)
    return NULL;
  pthread_mutex_lock(&m->out_lock);
  /* An output without --out: counted and discarded, as on one core. */
  const nprt_pcap_out *d = nprt_pcap_dev_out(nprt_devices_out(&m->outs, dev));
  if (!d) {
    pthread_mutex_unlock(&m->out_lock);
    free(o->data);
    o->data = NULL;
    return NULL;
  }
  o->fmt.nano = d->nano;
  o->fmt.cut = d->cut;
  o->file = d->buf != NULL;
  pthread_mutex_unlock(&m->out_lock);
  return o;
}

/* Writes `p` to output device `dev`, which all cores share; frees it.
 * False when there is no such device. */
static bool nprt_core_out_send(nprt_core *core, uint32_t dev, nprt_pkt *p) {
  nprt_core_out *o =
      dev < NPRT_MAX_DEVICES ? nprt_core_out_dev(core, dev) : NULL;
  if (!o) {
    nprt_pool_free(&core->ex.pool, p);
    return false;
  }
  size_t need = NPRT_PCAP_REC_HDR + p->len;
#ifdef NPRT_SIM
  if (core->m->sim)
    return nprt_core_out_keep(core, o, p);
#endif
  if (o->file && o->used + need > NPRT_PCAP_OUT_BUF)
    nprt_core_out_flush(core, dev);
  /* After a failed write the shared device counts what it is handed as
   * unwritten; the other outputs go on taking what the graph drains. */
  if (o->file) {
    if (need <= NPRT_PCAP_OUT_BUF) {
      o->used += nprt_pcap_out_record(&o->fmt, p, o->data + o->used);
    } else {
      /* A record bigger than the buffer goes out on its own. */
      uint8_t *rec = malloc(need);
      if (!rec) {
        nprt_pool_free(&core->ex.pool, p);
        return false;
      }
      size_t n = nprt_pcap_out_record(&o->fmt, p, rec);
      uint8_t *keep = o->data;
      o->data = rec;
      o->used = n;
      ++o->packets;
      o->bytes += p->len;
      nprt_core_out_flush(core, dev);
      o->data = keep;
      free(rec);
      nprt_pool_free(&core->ex.pool, p);
      return true;
    }
  }
  ++o->packets;
  o->bytes += p->len;
  nprt_pool_free(&core->ex.pool, p);
  return true;
}

/* Appends what every core still buffers, core by core (--sim: every
 * record, in the order of the packets they came from). */
void nprt_multi_flush_outputs(nprt_multi *m) {
#ifdef NPRT_SIM
  if (m->sim) {
    uint32_t n_dev = 0;
    for (uint32_t q = 0; q < m->n; ++q)
      if (m->cores[q].n_outs > n_dev)
        n_dev = m->cores[q].n_outs;
    for (uint32_t dev = 0; dev < n_dev; ++dev)
      nprt_sim_write_output(m, dev);
    return;
  }
#endif
  for (uint32_t q = 0; q < m->n; ++q)
    for (uint32_t dev = 0; dev < m->cores[q].n_outs; ++dev)
      if (m->cores[q].outs[dev].data)
        nprt_core_out_flush(&m->cores[q], dev);
}

static int nprt_core_out_open(nprt_device *d, const nprt_dev_config *cfg,
                              char *err, size_t errlen) {
  (void)cfg, (void)err, (void)errlen;
  return d->impl ? 0 : -1; /* the core: what it gathers is in core->outs */
}

static uint32_t nprt_core_out_tx(nprt_device *d, nprt_pkt **pkts, uint32_t n) {
  uint32_t sent = 0;
  for (uint32_t i = 0; i < n; ++i) {
#ifdef NPRT_SIM
    nprt_core *core = d->impl;
    if (core->ex.sim) {
      /* The egress engine takes it out of packet memory. */
      npsim_tag(core->ex.sim, NPSIM_TAG_EXTRACTION);
      npsim_egress(core->ex.sim, d->id, pkts[i]->sim_addr, pkts[i]->len,
                   pkts[i]->sim_born);
      /* Out of an NPU's port, it crosses the matrix (and is written to
       * the port's --out file, if any, as a tap). The context it goes to
       * at the other end: by its flow, behind the matrix's header. */
      if (npsim_is_port(core->m->sim, d->id)) {
        const nprt_pkt *p = pkts[i];
        uint32_t lane = p->len > 8 ? nprt_flow_core(p->data + 8, p->len - 8,
                                                    DLT_EN10MB, core->m->n)
                                   : 0;
        npsim_matrix_send(core->ex.sim, d->id, p->data, p->len, p->ts, lane,
                          p->sim_born);
      }
    }
#endif
    sent += nprt_core_out_send(d->impl, d->id, pkts[i]);
  }
  return sent;
}

/* The shared files are closed, and report, once for all cores. */
const nprt_device_ops nprt_core_out_ops = {
    .kind = "core",
    .open = nprt_core_out_open,
    .tx_burst = nprt_core_out_tx,
};
