/*===- cores.c - running one program on several cores ------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each core is a worker thread running the single-core executor on its own
 * graph, with its own packet pool, stacks, clock and input readers; nothing
 * is shared but the lanes between cores, the output files and a few
 * counters. docs/multicore.md describes the mappings; in short:
 *
 *  - rtc: every core reads the whole input and keeps its share of the
 *    flows (a hash of the IPv4 address pair, else of the source MAC), and
 *    runs its own copy of every replicable instance. Instances that run once
 *    (np-map-cores: their state is order-sensitive) live on core 0; values
 *    sent to them travel on lanes, and core 0 takes them in the order of
 *    the packets that caused them, merging the lanes by sequence number
 *    (the packet's index in its input) and each core's watermark: the
 *    sequence number below which it will send nothing more. What they send
 *    goes to a second copy of the replicable instances on core 0 (the
 *    tail), whose values for run-once instances queue behind the others.
 *  - pipeline: instance i runs on core stages[i]; stages only send to later
 *    stages, over the lane to the next core, which relays what is for a
 *    later one: every lane is FIFO and needs no merging.
 *
 * A lane's two ends are instances the runtime adds: a lane-out per channel
 * crossing cores (a push-shaped sink that stamps the value and puts it on
 * the lane) and one lane-in per receiving core (a source with one output
 * per incoming channel). Everything else is the single-core executor.
 *
 * With --control, the thread that started the cores serves the clients and
 * hands each handler call to the cores through one mailbox per core, which
 * the core runs between two scheduler rounds ("Handlers during the run").
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

#include "runtime/nprt/control.h"
#include "runtime/nprt/graph.h"
#include "runtime/nprt/graph_build.h"
#include "runtime/nprt/handlers.h"
#include "runtime/nprt/lane.h"
#include "runtime/nprt/profile.h"
#include "runtime/nprt/stats.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Messages core 0 may hold for itself before its input waits for the
 * merge to catch up (rtc). */
#define NPRT_SELF_QUEUE_LIMIT 4096u

typedef struct nprt_multi nprt_multi;

/* A growable FIFO of messages a core sends itself (rtc, core 0): producer
 * and consumer are the same thread. */
typedef struct nprt_msgq {
  nprt_lane_msg *v;
  size_t head, n, cap;
} nprt_msgq;

/* Where copy `copy` of program instance `inst` lives in a core's graph. */
enum { NPRT_COPY_MAIN = 0, NPRT_COPY_TAIL = 1 };

/* How a local channel of a core's graph stands for a program channel, for
 * the statistics: it carries the producer's side (sends), the consumer's
 * (receives), or both. */
typedef struct nprt_chan_ref {
  uint32_t prog;
  bool src, dst;
} nprt_chan_ref;

/* A handler call the control thread hands a core (--control; see "Handlers
 * during the run"). */
typedef enum nprt_cmd_kind {
  NPRT_CMD_WRITE, /* write handler `handler` on every copy of `inst` */
  NPRT_CMD_MERGE, /* folds the merged fields of the copies that are not
                   * the primary into `acc` */
  NPRT_CMD_READ,  /* MERGE, then read handler `handler` of the primary
                   * copy with `acc` folded into its state, into `result` */
  NPRT_CMD_STOP,  /* `WRITE stop`: ingress ends, as on a signal */
} nprt_cmd_kind;

typedef struct nprt_cmd {
  nprt_cmd_kind kind;
  uint32_t inst;    /* program instance */
  uint32_t handler; /* index in its handler table */
  uint64_t args[NPRT_MAX_HANDLER_ARGS];
  uint8_t *acc, *save; /* state-sized buffers of the control thread */
  uint64_t result;
} nprt_cmd;

/* A core's records for one shared output device, appended to the file a
 * whole buffer at a time. */
typedef struct nprt_core_out {
  nprt_pcap_out fmt; /* the device's precision and cut, for the records */
  bool file;         /* the device has a file (else: counted only) */
  uint8_t *data;     /* NPRT_PCAP_OUT_BUF bytes, once needed */
  size_t used;
  uint64_t packets, bytes; /* not yet added to the device */
} nprt_core_out;

struct nprt_core {
  nprt_multi *m;
  uint32_t id;
  nprt_graph *graph;
  nprt_exec ex;
  /* Local instance -> program instance (UINT32_MAX: a lane end), and
   * whether it is the copy whose state starts as declared (the others
   * start merged fields at their identity). */
  uint32_t *prog;
  bool *primary;
  uint32_t n_local, cap_local;
  nprt_chan_ref *chans;
  uint32_t cap_chans;
  uint32_t lane_in; /* local id of the lane-in, or UINT32_MAX */
  nprt_msgq self;
  uint64_t cur_seq;
  uint64_t *records;   /* per input device: records read so far */
  uint32_t idle;       /* lane-in polls in a row that found nothing */
  uint64_t reads;      /* packets this core took from its input */
  nprt_core_out *outs; /* per output device */
  uint32_t n_outs;
  pthread_t thread;
  int rc;
  /* Watermark: this core will send nothing more with a lower sequence
   * number; UINT64_MAX once it finished. */
  _Alignas(64) _Atomic uint64_t done;
  _Atomic bool finished;
  /* --control: the core's mailbox. The control thread writes `cmd`, then
   * moves `posted`; the core runs it between two scheduler rounds and sets
   * `acked` to `posted`. One command at a time. */
  nprt_cmd cmd;
  _Alignas(64) _Atomic uint64_t posted;
  _Atomic uint64_t acked;
};

typedef struct nprt_edge {
  bool lane;         /* crosses cores */
  uint32_t dst_core; /* where its consumer is */
  uint32_t in_port;  /* the lane-in's output port for it there */
} nprt_edge;

struct nprt_multi {
  const nprt_program *program;
  const nprt_options *opts;
  uint32_t n; /* cores with work */
  bool pipeline;
  /* rtc with a run-once instance that has a timer: its time must follow
   * the merged order alone, so core 0 takes no share of the input. */
  bool serial_core;
  bool oversubscribed; /* more cores than CPUs */
  nprt_core *cores;
  nprt_lane **lanes; /* [from * n + to], NULL where unused */
  nprt_edge *edges;  /* per program channel */
  bool *replicate;   /* rtc: per program instance */
  bool *tail;        /* rtc: has a tail copy on core 0 */
  uint32_t **local;  /* [core][program instance]: main copy, or UINT32_MAX */
  uint32_t *tail_local;
  pthread_mutex_t out_lock;
  nprt_pcap_out *out_devs;
  uint32_t n_out_devs;
  _Atomic bool abort;      /* a core failed: the others stop waiting on it */
  _Atomic bool stop;       /* an output failed: every core's input ends */
  _Atomic bool read_error; /* an input error was reported (once) */
  /* --control: buffers the size of the largest state object, for reads
   * (nprt_cmd's `acc` and `save`). */
  uint8_t *cmd_acc, *cmd_save;
};

/* A lane-out's state object. */
typedef struct nprt_lane_out {
  uint32_t edge;
  uint32_t to; /* the next core on the way */
  bool self;   /* feeds its own core (rtc, core 0) */
  bool main;   /* a main copy's (counts in self_feeders) */
} nprt_lane_out;

bool nprt_core_reports(const nprt_core *core) { return core->id == 0; }

/*--- Self queue -----------------------------------------------------------*/

static bool nprt_msgq_push(nprt_msgq *q, const nprt_lane_msg *m) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 256;
    nprt_lane_msg *v = malloc(cap * sizeof(*v));
    if (!v)
      return false;
    for (size_t i = 0; i < q->n; ++i)
      v[i] = q->v[(q->head + i) % q->cap];
    free(q->v);
    q->v = v;
    q->head = 0;
    q->cap = cap;
  }
  q->v[(q->head + q->n) % q->cap] = *m;
  ++q->n;
  return true;
}

static const nprt_lane_msg *nprt_msgq_peek(const nprt_msgq *q) {
  return q->n ? &q->v[q->head] : NULL;
}

static void nprt_msgq_pop(nprt_msgq *q) {
  q->head = (q->head + 1) % q->cap;
  --q->n;
}

static void nprt_core_flush(nprt_core *core);

/*--- Ingress ---------------------------------------------------------------*/

static uint64_t nprt_mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

/* The big-endian 64-bit number at `p`. */
static inline uint64_t nprt_load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

/* The core whose share of the flows a frame belongs to: a hash of the
 * IPv4 address pair (fragments of one datagram, which carry no ports
 * after the first, stay together), else of the source MAC address. */
static uint32_t nprt_flow_core(const uint8_t *b, uint32_t len, int linktype,
                               uint32_t n) {
  uint32_t ip = UINT32_MAX;
  if (linktype == 1 /* DLT_EN10MB */ && len >= 14) {
    uint32_t off = 12;
    uint16_t type = (uint16_t)(b[off] << 8 | b[off + 1]);
    while ((type == 0x8100 || type == 0x88a8) && len >= off + 6) {
      off += 4;
      type = (uint16_t)(b[off] << 8 | b[off + 1]);
    }
    if (type == 0x0800)
      ip = off + 2;
  } else if (linktype == 12 /* DLT_RAW */ || linktype == 228 /* IPV4 */) {
    ip = 0;
  }
  uint64_t key;
  if (ip != UINT32_MAX && len >= ip + 20 && (b[ip] >> 4) == 4) {
    key = nprt_load_be64(b + ip + 12); /* source, destination */
  } else if (linktype == 1 && len >= 12) {
    /* 1, then the six bytes of the source MAC address (bytes 6-11). */
    key = 1ull << 48 | (nprt_load_be64(b + 4) & 0xffffffffffffull);
  } else {
    key = 2;
  }
  return (uint32_t)(nprt_mix(key) % n);
}

nprt_pcap_status nprt_core_device_next(nprt_core *core, nprt_inst *self,
                                       nprt_pcap_in *d, uint32_t dev,
                                       nprt_pkt **out, char *err,
                                       size_t errlen) {
  nprt_multi *m = core->m;
  nprt_exec *ex = &core->ex;
  if (m->serial_core && core->id == 0) {
    /* Core 0 runs only what runs once: it reads nothing itself. */
    d->done = true;
    return NPRT_PCAP_EOF;
  }
  /* An output failed on some core: ingress stops everywhere. */
  if (atomic_load_explicit(&m->stop, memory_order_acquire)) {
    atomic_store_explicit(&core->done, UINT64_MAX, memory_order_release);
    return NPRT_PCAP_EOF;
  }
  /* Core 0 waits for its merge to catch up before reading more. */
  while (core->self.n > NPRT_SELF_QUEUE_LIMIT && !nprt_exec_stopping(ex))
    nprt_exec_wait(self, NPRT_WAIT_PHASE, ex->phase, 0);
  for (;;) {
    /* The record is looked at where it lies (in the mapped file): only
     * this core's packets are copied into its pool. */
    nprt_pcap_status st = nprt_pcap_in_peek(d, err, errlen);
    uint64_t index = core->records[dev];
    if (st == NPRT_PCAP_OK) {
      ++core->records[dev];
      const nprt_pcap_rec *r = &d->rec;
      if (!m->pipeline &&
          (m->serial_core
               ? 1 + nprt_flow_core(r->bytes, r->caplen, d->linktype, m->n - 1)
               : nprt_flow_core(r->bytes, r->caplen, d->linktype, m->n)) !=
              core->id) {
        nprt_pcap_in_pass(d); /* another core's */
        continue;
      }
      st = nprt_pcap_in_next(d, &ex->pool, dev, out, err, errlen);
    }
    if (st == NPRT_PCAP_ERROR &&
        atomic_exchange_explicit(&m->read_error, true, memory_order_acq_rel))
      st = NPRT_PCAP_EOF; /* every core reads the file: one reports */
    if (st != NPRT_PCAP_OK) {
      /* Nothing more from this core's input (one input device: with
       * several, the first to end already lets the merge pass it). */
      nprt_core_flush(core);
      atomic_store_explicit(&core->done, UINT64_MAX, memory_order_release);
      return st;
    }
    core->cur_seq = index * NPRT_MAX_DEVICES + dev;
    /* The watermark moves once a burst: first the messages it vouches
     * for are published. */
    if (++core->reads % NPRT_LANE_BURST == 0) {
      nprt_core_flush(core);
      uint64_t w = atomic_load_explicit(&core->done, memory_order_relaxed);
      if (core->cur_seq && core->cur_seq - 1 > w && w != UINT64_MAX)
        atomic_store_explicit(&core->done, core->cur_seq - 1,
                              memory_order_release);
    }
    return NPRT_PCAP_OK;
  }
}

/* Hands what core `core` buffered for device `dev` to the shared device,
 * under the lock: one write of whole records. */
static void nprt_core_out_flush(nprt_core *core, uint32_t dev) {
  nprt_multi *m = core->m;
  nprt_core_out *o = &core->outs[dev];
  if (!o->used && !o->packets)
    return;
  pthread_mutex_lock(&m->out_lock);
  nprt_pcap_out *d = &m->out_devs[dev];
  bool failed =
      nprt_pcap_out_append(d, o->data, o->used, o->packets, o->bytes) != 0;
  /* Another core may move the devices once the lock is released. */
  nprt_pcap_out report = *d;
  pthread_mutex_unlock(&m->out_lock);
  o->used = 0;
  o->packets = o->bytes = 0;
  if (failed) {
    nprt_exec_output_failed(&core->ex, &report);
    atomic_store_explicit(&m->stop, true, memory_order_release);
  }
}

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
  if (dev >= m->n_out_devs) {
    /* An output without --out: counted and discarded, as on one core. */
    nprt_pcap_out *v = realloc(m->out_devs, (dev + 1) * sizeof(*v));
    if (!v) {
      pthread_mutex_unlock(&m->out_lock);
      free(o->data);
      o->data = NULL;
      return NULL;
    }
    memset(v + m->n_out_devs, 0, (dev + 1 - m->n_out_devs) * sizeof(*v));
    m->out_devs = v;
    m->n_out_devs = dev + 1;
  }
  const nprt_pcap_out *d = &m->out_devs[dev];
  o->fmt.nano = d->nano;
  o->fmt.cut = d->cut;
  o->file = d->buf != NULL;
  pthread_mutex_unlock(&m->out_lock);
  return o;
}

bool nprt_core_device_send(nprt_core *core, uint32_t dev, nprt_pkt *p) {
  if (dev >= NPRT_MAX_DEVICES)
    return false;
  nprt_core_out *o = nprt_core_out_dev(core, dev);
  if (!o)
    return false;
  size_t need = NPRT_PCAP_REC_HDR + p->len;
  if (o->file && o->used + need > NPRT_PCAP_OUT_BUF)
    nprt_core_out_flush(core, dev);
  if (o->file && !atomic_load_explicit(&core->m->stop, memory_order_relaxed)) {
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

/* Appends what every core still buffers, core by core. */
static void nprt_multi_flush_outputs(nprt_multi *m) {
  for (uint32_t q = 0; q < m->n; ++q)
    for (uint32_t dev = 0; dev < m->cores[q].n_outs; ++dev)
      if (m->cores[q].outs[dev].data)
        nprt_core_out_flush(&m->cores[q], dev);
}

/*--- Lanes -----------------------------------------------------------------*/

static inline void nprt_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 16; ++i)
    __builtin_ia32_pause();
#endif
}

/* One more poll that found nothing: on a CPU of its own a core spins
 * (pausing), and gives the CPU up only now and then; with more cores than
 * CPUs it gives it up soon, or the core it waits for cannot run. */
static void nprt_idle(const nprt_multi *m, uint32_t *polls) {
  ++*polls;
  if (m->oversubscribed ? *polls > 4 : (*polls & 1023) == 0)
    sched_yield();
  else
    nprt_pause();
}

static void nprt_backoff(const nprt_multi *m, uint32_t *spins) {
  nprt_idle(m, spins);
}

/* Publishes every message this core wrote to its lanes. Before a
 * watermark moves, and whenever the core could wait: a message must never
 * sit unpublished while another core waits for it. */
static void nprt_core_flush(nprt_core *core) {
  nprt_multi *m = core->m;
  for (uint32_t to = 0; to < m->n; ++to) {
    nprt_lane *l = m->lanes[core->id * m->n + to];
    if (l)
      nprt_lane_flush(l);
  }
}

/* Puts `msg` on the way to core `to`: the self queue, or the lane, waiting
 * for room (the receiving core never waits for this one: lanes only go
 * forward). */
static void nprt_lane_send(nprt_core *core, uint32_t to,
                           const nprt_lane_msg *msg) {
  nprt_multi *m = core->m;
  if (to == core->id) {
    if (!nprt_msgq_push(&core->self, msg)) {
      fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
      abort();
    }
    return;
  }
  nprt_lane *l = m->lanes[core->id * m->n + to];
  uint32_t spins = 0;
  uint64_t t0 = core->ex.prof ? nprt_prof_clock() : 0;
  while (!nprt_lane_push(l, msg)) {
    nprt_lane_flush(l);
    if (atomic_load_explicit(&m->abort, memory_order_acquire)) {
      /* The receiver is gone: the value is dropped, and counted. */
      if (msg->is_pkt)
        nprt_pool_free(&core->ex.pool, (nprt_pkt *)(uintptr_t)msg->value);
      return;
    }
    nprt_backoff(m, &spins);
  }
  if (spins)
    nprt_prof_wait(&core->ex, t0);
}

static void nprt_lane_out_handler(nprt_inst *self) {
  nprt_lane_out *st = self->state_obj;
  nprt_core *core = self->ex->core;
  nprt_chan *c = self->in[0].ch;
  uint64_t v = nprt_recv_val(self, 0);
  nprt_lane_msg msg = {
      .seq = core->cur_seq,
      .value = v,
      .now = core->ex.now,
      .edge = st->edge,
      .is_pkt =
          c && atomic_load_explicit(&c->carries_pkt, memory_order_relaxed)};
  nprt_lane_send(core, st->to, &msg);
}

static void nprt_lane_out_fini(nprt_inst *self) { (void)self; }

typedef enum { NPRT_NEXT_NONE, NPRT_NEXT_MSG, NPRT_NEXT_END } nprt_next;

/* True when nothing on this core can send to itself any more: the main
 * copies' lane-outs ended and every local channel is empty. */
static bool nprt_self_quiet(const nprt_core *core) {
  if (core->self.n)
    return false;
  const nprt_graph *g = core->graph;
  for (uint32_t l = 0; l < core->n_local; ++l) {
    const nprt_inst *in = g->insts[l];
    const nprt_lane_out *st = in->state_obj;
    if (core->prog[l] == UINT32_MAX && in->handler == nprt_lane_out_handler &&
        st->self && st->main && in->state != NPRT_DONE)
      return false;
  }
  for (uint32_t i = 0; i < g->n_chans; ++i)
    if (nprt_chan_occupancy(g->chans[i]) != 0)
      return false;
  return true;
}

/* The next message for this core, in order: under a pipeline the one lane
 * from the previous core; under rtc (core 0) the message with the lowest
 * sequence number once no other source can still send a lower one. */
static nprt_next nprt_next_msg(nprt_core *core, nprt_lane_msg *out) {
  nprt_multi *m = core->m;
  if (m->pipeline) {
    nprt_lane *l = core->id ? m->lanes[(core->id - 1) * m->n + core->id] : NULL;
    if (!l)
      return NPRT_NEXT_END;
    const nprt_lane_msg *h = nprt_lane_peek(l);
    if (h) {
      *out = *h;
      nprt_lane_pop(l);
      return NPRT_NEXT_MSG;
    }
    nprt_core *up = &m->cores[core->id - 1];
    if (atomic_load_explicit(&up->finished, memory_order_acquire) &&
        !nprt_lane_peek(l))
      return NPRT_NEXT_END;
    return NPRT_NEXT_NONE;
  }
  /* rtc: core 0 merges its own queue and every other core's lane. */
  uint32_t best = UINT32_MAX;
  uint64_t best_seq = UINT64_MAX;
  const nprt_lane_msg *heads[NPRT_MAX_CORES];
  for (uint32_t k = 0; k < m->n; ++k) {
    heads[k] = k == core->id ? nprt_msgq_peek(&core->self)
               : m->lanes[k * m->n + core->id]
                   ? nprt_lane_peek(m->lanes[k * m->n + core->id])
                   : NULL;
    if (heads[k] && heads[k]->seq < best_seq) {
      best = k;
      best_seq = heads[k]->seq;
    }
  }
  if (best == UINT32_MAX) {
    bool ended = nprt_self_quiet(core);
    for (uint32_t k = 0; k < m->n && ended; ++k)
      if (k != core->id)
        ended =
            atomic_load_explicit(&m->cores[k].finished, memory_order_acquire) &&
            !nprt_lane_peek(m->lanes[k * m->n + core->id]);
    return ended ? NPRT_NEXT_END : NPRT_NEXT_NONE;
  }
  /* Every other source must be past best_seq: a message waiting with a
   * higher number, or a watermark at or above it. */
  for (uint32_t k = 0; k < m->n; ++k) {
    if (k == best || heads[k])
      continue;
    uint64_t w = atomic_load_explicit(&m->cores[k].done, memory_order_acquire);
    if (w < best_seq) {
      /* The watermark was read first: a message sent before it moved is
       * in the lane by now. */
      if (k != core->id) {
        const nprt_lane_msg *h = nprt_lane_peek(m->lanes[k * m->n + core->id]);
        if (h && h->seq > best_seq)
          continue;
      }
      return NPRT_NEXT_NONE;
    }
  }
  *out = *heads[best];
  if (best == core->id)
    nprt_msgq_pop(&core->self);
  else
    nprt_lane_pop(m->lanes[best * m->n + core->id]);
  return NPRT_NEXT_MSG;
}

static void nprt_lane_in_handler(nprt_inst *self) {
  nprt_core *core = self->ex->core;
  nprt_multi *m = core->m;
  for (uint32_t burst = 0; burst < 64; ++burst) {
    nprt_lane_msg msg;
    nprt_next r = nprt_next_msg(core, &msg);
    if (r == NPRT_NEXT_END) {
      nprt_core_flush(core);
      nprt_exec_terminate(self);
    }
    if (r == NPRT_NEXT_NONE) {
      nprt_core_flush(core);
      if (atomic_load_explicit(&m->abort, memory_order_acquire))
        nprt_exec_terminate(self);
      /* Nothing yet: let the other threads on this CPU run. */
      uint64_t t0 = self->ex->prof ? nprt_prof_clock() : 0;
      nprt_idle(m, &core->idle);
      nprt_prof_wait(self->ex, t0);
      return;
    }
    core->idle = 0;
    const nprt_edge *e = &m->edges[msg.edge];
    if (e->dst_core != core->id) {
      /* For a later stage: relay it, in order. */
      nprt_lane_send(core, core->id + 1, &msg);
      self->progress = true;
      continue;
    }
    /* What the delivery sends on belongs to the message's packet; the
     * core's own packet, if one is half done, keeps its number. */
    uint64_t own = core->cur_seq;
    /* The clock reads as it did for the sender (an element stamping a
     * packet it makes with now() stamps it as on one core); it only
     * moves forward, running the timers that fall due. */
    nprt_exec *ex = self->ex;
    if (!ex->clock_started || msg.now > ex->now)
      nprt_exec_advance(self, msg.now);
    int64_t clock = ex->now;
    ex->now = msg.now;
    core->cur_seq = msg.seq;
    if (msg.is_pkt)
      nprt_send_pkt(self, e->in_port, (nprt_pkt *)(uintptr_t)msg.value);
    else
      nprt_send_val(self, e->in_port, msg.value);
    core->cur_seq = own;
    ex->now = clock;
  }
  /* What this burst sent on to later stages goes out together. */
  nprt_core_flush(core);
}

/*--- Building each core's graph --------------------------------------------*/

static bool nprt_core_note(nprt_core *c, uint32_t prog, bool primary) {
  if (c->n_local == c->cap_local) {
    uint32_t cap = c->cap_local ? 2 * c->cap_local : 16;
    uint32_t *p = realloc(c->prog, cap * sizeof(*p));
    if (!p)
      return false;
    c->prog = p;
    bool *q = realloc(c->primary, cap * sizeof(*q));
    if (!q)
      return false;
    c->primary = q;
    c->cap_local = cap;
  }
  c->prog[c->n_local] = prog;
  c->primary[c->n_local] = primary;
  ++c->n_local;
  return true;
}

static uint32_t nprt_core_add(nprt_core *c, uint32_t inst, bool primary) {
  uint32_t id = nprt_graph_add_program_instance(c->graph, c->m->program, inst);
  if (id != UINT32_MAX && !nprt_core_note(c, inst, primary))
    return UINT32_MAX;
  return id;
}

/* Records what the channel just connected in `c` stands for. */
static void nprt_core_chan(nprt_core *c, uint32_t prog, bool src, bool dst) {
  nprt_graph *g = c->graph;
  if (g->n_chans > c->cap_chans) {
    uint32_t cap = g->cap_chans;
    nprt_chan_ref *v = realloc(c->chans, cap * sizeof(*v));
    if (!v)
      return;
    c->chans = v;
    c->cap_chans = cap;
  }
  if (g->n_chans)
    c->chans[g->n_chans - 1] = (nprt_chan_ref){prog, src, dst};
}

static void nprt_core_connect(nprt_core *c, uint32_t k, uint32_t from,
                              uint32_t to, bool src, bool dst) {
  const nprt_channel_desc *d = &c->m->program->channels[k];
  uint32_t before = c->graph->n_chans;
  nprt_graph_connect(c->graph, from, d->src_port, to, d->dst_port, d->depth,
                     d->lossy);
  if (c->graph->n_chans > before)
    nprt_core_chan(c, k, src, dst);
}

/* A lane-out on core `c` for channel `k`, fed by local instance `from`. */
static void nprt_core_lane_out(nprt_core *c, uint32_t k, uint32_t from,
                               uint32_t to, bool main) {
  nprt_graph *g = c->graph;
  const nprt_channel_desc *d = &c->m->program->channels[k];
  char name[64];
  snprintf(name, sizeof(name), "(lane %u>%u ch%u)", c->id, to, k);
  uint32_t id = nprt_graph_add_instance(g, name, "(lane out)", "i", "", NULL,
                                        nprt_lane_out_handler, NULL, "npu");
  if (id == UINT32_MAX || !nprt_core_note(c, UINT32_MAX, false))
    return;
  nprt_lane_out *st = calloc(1, sizeof(*st));
  if (!st)
    return;
  st->edge = k;
  st->to = to;
  st->self = to == c->id;
  st->main = main;
  g->insts[id]->state_obj = st;
  g->insts[id]->push_ports = 1;
  g->insts[id]->lane_end = true;
  g->insts[id]->fini = nprt_lane_out_fini;
  uint32_t before = g->n_chans;
  nprt_graph_connect(g, from, d->src_port, id, 0, d->depth, d->lossy);
  if (g->n_chans > before)
    nprt_core_chan(c, k, true, false);
}

static int nprt_multi_build(nprt_multi *m, const uint8_t *stages) {
  const nprt_program *p = m->program;
  uint32_t n = m->n, ni = p->n_instances, nc = p->n_channels;
  m->replicate = calloc(ni ? ni : 1, sizeof(bool));
  m->tail = calloc(ni ? ni : 1, sizeof(bool));
  m->edges = calloc(nc ? nc : 1, sizeof(nprt_edge));
  m->local = calloc(n, sizeof(uint32_t *));
  m->tail_local = malloc((ni ? ni : 1) * sizeof(uint32_t));
  m->lanes = calloc((size_t)n * n, sizeof(nprt_lane *));
  if (!m->replicate || !m->tail || !m->edges || !m->local || !m->tail_local ||
      !m->lanes)
    return -1;
  for (uint32_t i = 0; i < ni; ++i) {
    m->replicate[i] = p->instances[i].replicate;
    m->tail_local[i] = UINT32_MAX;
    if (!m->pipeline && !m->replicate[i] && p->instances[i].timer)
      m->serial_core = true;
  }
  if (m->serial_core)
    atomic_store(&m->cores[0].done, UINT64_MAX);
  if (!m->pipeline) {
    /* The tail: replicable instances that values from run-once ones
     * reach. */
    bool changed = true;
    while (changed) {
      changed = false;
      for (uint32_t k = 0; k < nc; ++k) {
        const nprt_channel_desc *c = &p->channels[k];
        bool from = !m->replicate[c->src] || m->tail[c->src];
        if (from && m->replicate[c->dst] && !m->tail[c->dst]) {
          m->tail[c->dst] = true;
          changed = true;
        }
      }
    }
  }
  for (uint32_t k = 0; k < n; ++k) {
    nprt_core *c = &m->cores[k];
    c->m = m;
    c->id = k;
    c->lane_in = UINT32_MAX;
    c->graph = nprt_graph_create();
    if (c->graph)
      c->graph->copies = !m->pipeline && k == 0;
    m->local[k] = malloc((ni ? ni : 1) * sizeof(uint32_t));
    c->records = calloc(NPRT_MAX_DEVICES, sizeof(uint64_t));
    if (!c->graph || !m->local[k] || !c->records)
      return -1;
    for (uint32_t i = 0; i < ni; ++i) {
      bool here = m->pipeline ? stages[i] == k : m->replicate[i] || k == 0;
      m->local[k][i] =
          here ? nprt_core_add(c, i, m->pipeline || k == 0) : UINT32_MAX;
      if (here && m->local[k][i] == UINT32_MAX)
        return -1;
    }
  }
  for (uint32_t i = 0; i < ni; ++i)
    if (m->tail[i] && (m->tail_local[i] =
                           nprt_core_add(&m->cores[0], i, false)) == UINT32_MAX)
      return -1;
  /* Channels: local ones, then lane ends. `ports[core]` collects the
   * channels each core's lane-in delivers. */
  uint32_t *in_count = calloc(n, sizeof(uint32_t));
  if (!in_count)
    return -1;
  for (uint32_t k = 0; k < nc; ++k) {
    const nprt_channel_desc *c = &p->channels[k];
    nprt_edge *e = &m->edges[k];
    if (m->pipeline) {
      uint32_t a = stages[c->src], b = stages[c->dst];
      if (a == b) {
        nprt_core_connect(&m->cores[a], k, m->local[a][c->src],
                          m->local[a][c->dst], true, true);
        continue;
      }
      *e = (nprt_edge){true, b, in_count[b]++};
      nprt_core_lane_out(&m->cores[a], k, m->local[a][c->src], a + 1, true);
      for (uint32_t s = a; s < b; ++s)
        if (!m->lanes[s * n + s + 1] &&
            !(m->lanes[s * n + s + 1] = nprt_lane_create()))
          return free(in_count), -1;
      continue;
    }
    bool rs = m->replicate[c->src], rd = m->replicate[c->dst];
    if (rs && rd) {
      for (uint32_t q = 0; q < n; ++q)
        nprt_core_connect(&m->cores[q], k, m->local[q][c->src],
                          m->local[q][c->dst], true, true);
      if (m->tail[c->src])
        nprt_core_connect(&m->cores[0], k, m->tail_local[c->src],
                          m->tail_local[c->dst], true, true);
    } else if (rs) {
      /* To a run-once instance: from every copy over a lane to core 0. */
      *e = (nprt_edge){true, 0, in_count[0]++};
      for (uint32_t q = 0; q < n; ++q) {
        nprt_core_lane_out(&m->cores[q], k, m->local[q][c->src], 0, true);
        if (q && !m->lanes[q * n] && !(m->lanes[q * n] = nprt_lane_create()))
          return free(in_count), -1;
      }
      if (m->tail[c->src])
        nprt_core_lane_out(&m->cores[0], k, m->tail_local[c->src], 0, false);
    } else if (rd) {
      nprt_core_connect(&m->cores[0], k, m->local[0][c->src],
                        m->tail_local[c->dst], true, true);
    } else {
      nprt_core_connect(&m->cores[0], k, m->local[0][c->src],
                        m->local[0][c->dst], true, true);
    }
  }
  /* Lane-ins: one output per channel delivered on the core. */
  for (uint32_t q = 0; q < n; ++q) {
    nprt_core *c = &m->cores[q];
    bool relays = m->pipeline && q && m->lanes[(q - 1) * n + q];
    if (!in_count[q] && !relays)
      continue;
    size_t len = 1;
    for (uint32_t k = 0; k < nc; ++k)
      if (m->edges[k].lane && m->edges[k].dst_core == q)
        len += 12;
    char *ports = calloc(1, len);
    if (!ports)
      return free(in_count), -1;
    for (uint32_t k = 0; k < nc; ++k)
      if (m->edges[k].lane && m->edges[k].dst_core == q)
        snprintf(ports + strlen(ports), len - strlen(ports), "%sch%u",
                 *ports ? "," : "", k);
    uint32_t id =
        nprt_graph_add_instance(c->graph, "(lane in)", "(lane in)", "", ports,
                                NULL, nprt_lane_in_handler, NULL, "npu");
    free(ports);
    if (id == UINT32_MAX || !nprt_core_note(c, UINT32_MAX, false))
      return free(in_count), -1;
    c->lane_in = id;
    for (uint32_t k = 0; k < nc; ++k) {
      const nprt_channel_desc *d = &p->channels[k];
      if (!m->edges[k].lane || m->edges[k].dst_core != q)
        continue;
      uint32_t before = c->graph->n_chans;
      nprt_graph_connect(c->graph, id, m->edges[k].in_port, m->local[q][d->dst],
                         d->dst_port, d->depth, d->lossy);
      if (c->graph->n_chans > before)
        nprt_core_chan(c, k, false, true);
    }
  }
  free(in_count);
  for (uint32_t q = 0; q < n; ++q) {
    if (m->cores[q].graph->error[0]) {
      fprintf(m->opts->err, "%s: error: %s\n", m->opts->prog,
              m->cores[q].graph->error);
      return -1;
    }
    nprt_graph_settle(m->cores[q].graph);
  }
  return 0;
}

/*--- Merged state ----------------------------------------------------------*/

static uint64_t nprt_merge_load(const uint8_t *p, uint32_t w) {
  switch (w) {
  case 1:
    return *p;
  case 2:
    return *(const uint16_t *)(const void *)p;
  case 4:
    return *(const uint32_t *)(const void *)p;
  default:
    return *(const uint64_t *)(const void *)p;
  }
}

static void nprt_merge_store(uint8_t *p, uint32_t w, uint64_t v) {
  switch (w) {
  case 1:
    *p = (uint8_t)v;
    break;
  case 2:
    *(uint16_t *)(void *)p = (uint16_t)v;
    break;
  case 4:
    *(uint32_t *)(void *)p = (uint32_t)v;
    break;
  default:
    *(uint64_t *)(void *)p = v;
  }
}

static int64_t nprt_sext(uint64_t v, uint32_t w) {
  unsigned shift = 64 - 8 * w;
  return (int64_t)(v << shift) >> shift;
}

/* The value that leaves any other unchanged under `op`. */
static uint64_t nprt_merge_identity(uint32_t op, uint32_t w) {
  uint64_t all = w == 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;
  switch (op) {
  case NPRT_MERGE_UMIN:
    return all;
  case NPRT_MERGE_SMAX:
    return 1ull << (8 * w - 1);
  case NPRT_MERGE_SMIN:
    return all >> 1;
  default:
    return 0;
  }
}

static uint64_t nprt_merge_op(uint32_t op, uint32_t w, uint64_t a, uint64_t b) {
  switch (op) {
  case NPRT_MERGE_SUM:
    return a + b;
  case NPRT_MERGE_OR:
    return a | b;
  case NPRT_MERGE_UMAX:
    return a > b ? a : b;
  case NPRT_MERGE_UMIN:
    return a < b ? a : b;
  case NPRT_MERGE_SMAX:
    return nprt_sext(a, w) > nprt_sext(b, w) ? a : b;
  default:
    return nprt_sext(a, w) < nprt_sext(b, w) ? a : b;
  }
}

/* Sets the merged fields of a copy that is not the primary to their
 * identity, so that the copies add up to the state one core would have. */
static void nprt_merge_reset(const nprt_instance_desc *d, void *state) {
  for (uint32_t f = 0; state && f < d->n_merges; ++f) {
    const nprt_merge_desc *md = &d->merges[f];
    uint8_t *base = (uint8_t *)state + md->offset;
    for (uint32_t e = 0; e < md->count; ++e)
      nprt_merge_store(base + (size_t)e * md->width, md->width,
                       nprt_merge_identity(md->op, md->width));
  }
}

static void nprt_merge_into(const nprt_instance_desc *d, void *acc,
                            const void *copy) {
  for (uint32_t f = 0; acc && copy && f < d->n_merges; ++f) {
    const nprt_merge_desc *md = &d->merges[f];
    uint8_t *a = (uint8_t *)acc + md->offset;
    const uint8_t *b = (const uint8_t *)copy + md->offset;
    for (uint32_t e = 0; e < md->count; ++e) {
      size_t off = (size_t)e * md->width;
      nprt_merge_store(a + off, md->width,
                       nprt_merge_op(md->op, md->width,
                                     nprt_merge_load(a + off, md->width),
                                     nprt_merge_load(b + off, md->width)));
    }
  }
}

/*--- Handlers during the run ----------------------------------------------*/

/* With --control, the thread that started the cores serves the clients
 * (the control thread), on a view of the program: a graph loaded from it
 * that never runs, whose instances name the handlers. A read or a write of
 * an element's own handler becomes a command to each core that holds a
 * copy of the instance: the control thread puts it in the core's mailbox
 * and waits; the core runs it between two scheduler rounds, when each of
 * its instances is parked in a port operation (as handlers run on one
 * core), and acknowledges. So a write reaches every copy between two of
 * that core's packets, the packet path never waits for the control thread
 * and takes no lock, and the reply goes out once every copy has it. A core
 * whose scheduler returned takes no more commands: the control thread runs
 * them on its graph itself. */

static void nprt_core_apply(nprt_core *c, nprt_cmd *cmd) {
  if (cmd->kind == NPRT_CMD_STOP) {
    c->ex.stop = true;
    c->ex.stop_requested = true;
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

void nprt_core_tick(nprt_core *c) {
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

void nprt_multi_write(nprt_multi *m, uint32_t inst, uint32_t handler,
                      const uint64_t *args) {
  nprt_cmd cmd = {.kind = NPRT_CMD_WRITE, .inst = inst, .handler = handler};
  memcpy(cmd.args, args, sizeof(cmd.args));
  nprt_multi_broadcast(m, &cmd);
}

void nprt_multi_stop(nprt_multi *m) {
  nprt_cmd cmd = {.kind = NPRT_CMD_STOP};
  nprt_multi_broadcast(m, &cmd);
}

uint64_t nprt_multi_read(nprt_multi *m, uint32_t inst, uint32_t handler) {
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

/* Serves the clients while the cores run: a poll of the sockets at least
 * every 2 ms, to see the cores end. */
static void nprt_multi_serve(nprt_multi *m, nprt_exec *view) {
  for (;;) {
    bool all = true;
    for (uint32_t q = 0; q < m->n && all; ++q)
      all = atomic_load_explicit(&m->cores[q].finished, memory_order_acquire);
    if (all)
      return;
    struct timespec ts = {0, 2000000};
    if (nprt_stop_signal)
      nanosleep(&ts, NULL); /* the cores drain */
    else
      nprt_control_wait(view->control, view, &ts);
  }
}

/* Once every core finished: as one core whose graph cannot move, serves
 * the clients until `stop`, a signal or, with --live, the end of
 * --duration (handlers now run on the cores' graphs from this thread),
 * unless the run already stopped or failed. A
 * signal that ends it is the run's, as if the cores had seen it. */
static void nprt_multi_linger(nprt_multi *m, nprt_exec *view, int rc) {
  bool ended = rc == NPRT_EXIT_ERROR ||
               atomic_load_explicit(&m->stop, memory_order_acquire);
  for (uint32_t q = 0; q < m->n; ++q)
    ended |= m->cores[q].ex.stop || m->cores[q].ex.init_failed ||
             m->cores[q].ex.io_error;
  if (ended)
    return;
  /* With --live, the end of --duration is one too. */
  const nprt_exec *ex = &m->cores[0].ex;
  bool timed = m->opts->live && ex->end != INT64_MAX;
  while (!view->stop && !nprt_stop_signal) {
    int64_t d = timed ? ex->end + 1 - nprt_exec_live_now(ex) : 0;
    if (timed && d <= 0)
      break;
    struct timespec ts = {(time_t)(d / 1000000000), (long)(d % 1000000000)};
    nprt_control_wait(view->control, view, timed ? &ts : NULL);
  }
  if (nprt_stop_signal) {
    m->cores[0].ex.signo = nprt_stop_signal;
    nprt_exec_report_signal(&m->cores[0].ex, false);
  }
}

/* The control thread's view: the program's graph, never run, and the
 * buffers reads need. */
static int nprt_multi_view(nprt_multi *m, nprt_exec *view) {
  const nprt_program *p = m->program;
  size_t size = 1;
  for (uint32_t i = 0; i < p->n_instances; ++i)
    if (p->instances[i].state_size > size)
      size = p->instances[i].state_size;
  m->cmd_acc = malloc(size);
  m->cmd_save = malloc(size);
  view->graph = nprt_graph_create();
  if (view->graph)
    nprt_graph_load(view->graph, p);
  if (!m->cmd_acc || !m->cmd_save || !view->graph || view->graph->error[0]) {
    fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
    return -1;
  }
  for (uint32_t i = 0; i < view->graph->n_insts; ++i)
    view->graph->insts[i]->ex = view;
  return 0;
}

/*--- Running ---------------------------------------------------------------*/

static void *nprt_core_main(void *arg) {
  nprt_core *c = arg;
  nprt_multi *m = c->m;
  if (!m->oversubscribed) {
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
  if (c->rc != NPRT_EXIT_OK || c->ex.io_error)
    atomic_store_explicit(&m->abort, true, memory_order_release);
  atomic_store_explicit(&c->done, UINT64_MAX, memory_order_release);
  atomic_store_explicit(&c->finished, true, memory_order_release);
  return NULL;
}

/* Copies that are not the primary start their merged fields at identity;
 * init and --signal ran on every copy, so this runs before the first
 * packet, when each core reaches its run phase (nprt_exec_schedule). */
static void nprt_core_reset_copies(nprt_core *c) {
  for (uint32_t l = 0; l < c->n_local; ++l)
    if (c->prog[l] != UINT32_MAX && !c->primary[l])
      nprt_merge_reset(&c->m->program->instances[c->prog[l]],
                       c->graph->insts[l]->state_obj);
}

void nprt_core_enter_run(nprt_core *c) { nprt_core_reset_copies(c); }

/* The run as one graph, for the statistics and the handlers: counters
 * summed over the copies, merged state combined, the rest from the
 * primary copy. */
static nprt_graph *nprt_multi_summary(nprt_multi *m, nprt_exec *sum,
                                      nprt_core_prof *prof) {
  const nprt_program *p = m->program;
  nprt_graph *g = nprt_graph_create();
  if (!g)
    return NULL;
  nprt_graph_load(g, p);
  if (g->error[0])
    return g;
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    for (uint32_t l = 0; l < c->n_local; ++l) {
      uint32_t i = c->prog[l];
      if (i == UINT32_MAX)
        continue;
      nprt_inst *from = c->graph->insts[l], *to = g->insts[i];
      to->iterations += from->iterations;
      to->rx_pkts += from->rx_pkts;
      to->rx_bytes += from->rx_bytes;
      to->prof_cycles += from->prof_cycles;
      to->prof_iters += from->prof_iters;
      to->drops += from->drops;
      to->faults += from->faults;
      to->allocs += from->allocs;
      to->alloc_failures += from->alloc_failures;
      for (uint32_t o = 0; o < from->n_out && o < to->n_out; ++o)
        to->out[o].drops += from->out[o].drops;
      size_t size = p->instances[i].state_size;
      if (c->primary[l] && size && from->state_obj && to->state_obj)
        memcpy(to->state_obj, from->state_obj, size);
    }
  }
  /* Merged fields of the other copies. */
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    for (uint32_t l = 0; l < c->n_local; ++l) {
      uint32_t i = c->prog[l];
      if (i != UINT32_MAX && !c->primary[l])
        nprt_merge_into(&p->instances[i], g->insts[i]->state_obj,
                        c->graph->insts[l]->state_obj);
    }
    for (uint32_t k = 0; k < c->graph->n_chans; ++k) {
      const nprt_chan_ref *r = &c->chans[k];
      const nprt_chan *from = c->graph->chans[k];
      nprt_chan *to = g->chans[r->prog];
      if (r->src) {
        to->packets += from->packets;
        to->drops += from->drops;
        to->occ_sum += from->occ_sum;
        to->occ_samples += from->occ_samples;
        if (from->max_occupancy > to->max_occupancy)
          to->max_occupancy = from->max_occupancy;
        atomic_fetch_add(&to->tail, atomic_load(&from->tail));
      }
      if (r->dst) {
        atomic_fetch_add(&to->head, atomic_load(&from->head));
        to->consumer_drops += from->consumer_drops;
      }
    }
    /* Input devices: each core counted its share. */
    nprt_exec *ex = &c->ex;
    for (uint32_t d = 0; d < ex->n_in_devs; ++d) {
      nprt_pcap_in *to = nprt_exec_in_dev(sum, d);
      if (!to)
        continue;
      to->path = ex->in_devs[d].path;
      to->packets += ex->in_devs[d].packets;
      to->bytes += ex->in_devs[d].bytes;
    }
    prof[q] = (nprt_core_prof){ex->prof_end - ex->prof_start, ex->prof_wait,
                               ex->prof_windows, ex->prof_dropped};
    sum->prof_windows += ex->prof_windows;
    sum->prof_dropped += ex->prof_dropped;
    sum->pool.allocated += ex->pool.allocated;
    sum->pool.freed += ex->pool.freed;
    sum->io_error |= ex->io_error;
    sum->deadlock |= ex->deadlock;
    if (!sum->signo)
      sum->signo = ex->signo;
    if (ex->now > sum->now)
      sum->now = ex->now;
  }
  sum->pool.live = sum->pool.allocated > sum->pool.freed
                       ? sum->pool.allocated - sum->pool.freed
                       : 0;
  for (uint32_t i = 0; i < g->n_insts; ++i)
    g->insts[i]->ex = sum;
  return g;
}

static void nprt_multi_free(nprt_multi *m) {
  for (uint32_t q = 0; m->cores && q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    nprt_graph_destroy(c->graph);
    free(c->prog);
    free(c->primary);
    free(c->chans);
    free(c->records);
    for (uint32_t dev = 0; dev < c->n_outs; ++dev)
      free(c->outs[dev].data);
    free(c->outs);
    free(c->self.v);
    free(c->ex.in_devs);
    free(c->ex.out_devs);
    nprt_pool_destroy(&c->ex.pool);
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
}

/* Frees what is left in the lanes (after a stop or a failure): counted as
 * drops of the lane-in. */
static void nprt_multi_drain(nprt_multi *m) {
  for (uint32_t from = 0; from < m->n; ++from)
    for (uint32_t to = 0; to < m->n; ++to) {
      nprt_lane *l = m->lanes[from * m->n + to];
      const nprt_lane_msg *h;
      while (l && (h = nprt_lane_peek(l))) {
        if (h->is_pkt)
          nprt_pool_free(&m->cores[to].ex.pool,
                         (nprt_pkt *)(uintptr_t)h->value);
        nprt_core *c = &m->cores[to];
        if (c->lane_in != UINT32_MAX)
          ++c->graph->insts[c->lane_in]->drops;
        nprt_lane_pop(l);
      }
    }
  for (uint32_t q = 0; q < m->n; ++q) {
    nprt_core *c = &m->cores[q];
    const nprt_lane_msg *h;
    while ((h = nprt_msgq_peek(&c->self))) {
      if (h->is_pkt)
        nprt_pool_free(&c->ex.pool, (nprt_pkt *)(uintptr_t)h->value);
      if (c->lane_in != UINT32_MAX)
        ++c->graph->insts[c->lane_in]->drops;
      nprt_msgq_pop(&c->self);
    }
  }
}

int nprt_run_cores(const nprt_program *program, const nprt_options *o,
                   uint32_t cores, uint32_t mapping) {
  nprt_multi m;
  memset(&m, 0, sizeof(m));
  m.program = program;
  m.opts = o;
  const uint8_t *stages =
      program->stages
          ? program->stages + (size_t)(cores - 1) * program->n_instances
          : NULL;
  m.pipeline = mapping == NPRT_MAPPING_PIPELINE ||
               (mapping == NPRT_MAPPING_AUTO && program->auto_pipeline &&
                program->auto_pipeline[cores - 1]);
  if (m.pipeline && !stages) {
    fprintf(o->err,
            "%s: error: --mapping=pipeline: the program was compiled "
            "without a mapping\n",
            o->prog);
    return NPRT_EXIT_ERROR;
  }
  m.n = cores;
  if (m.pipeline) {
    /* Cores past the last stage would idle. */
    uint32_t used = 1;
    for (uint32_t i = 0; i < program->n_instances; ++i)
      if (stages[i] + 1u > used)
        used = stages[i] + 1u;
    m.n = used;
  }
  m.oversubscribed = m.n > (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
  m.cores = calloc(m.n, sizeof(nprt_core));
  pthread_mutex_init(&m.out_lock, NULL);
  int rc = NPRT_EXIT_ERROR;
  struct sigaction old[3];
  nprt_exec_catch_signals(old);
  nprt_handler_report report;
  memset(&report, 0, sizeof(report));
  nprt_exec sum;
  memset(&sum, 0, sizeof(sum));
  sum.opts = o;
  sum.end = INT64_MAX;
  nprt_graph *summary = NULL;
  /* --control: the control thread's view of the program. */
  nprt_exec view;
  memset(&view, 0, sizeof(view));
  view.opts = o;
  view.end = INT64_MAX;
  view.multi = &m;
  nprt_core_prof *prof = NULL;
  if (!m.cores || nprt_multi_build(&m, stages) != 0) {
    if (!m.cores || !m.cores[0].graph || !m.cores[0].graph->error[0])
      fprintf(o->err, "%s: error: out of memory\n", o->prog);
    goto done;
  }
  for (uint32_t q = 0; q < m.n; ++q) {
    nprt_core *c = &m.cores[q];
    c->ex.graph = c->graph;
    c->ex.opts = o;
    c->ex.end = INT64_MAX;
    c->ex.core = c;
    nprt_pool_init(&c->ex.pool);
  }
  if (nprt_exec_check_output_paths(o) != 0)
    goto done;
  for (uint32_t k = 0; k < o->n_signals; ++k) {
    bool known = false;
    for (uint32_t i = 0; i < program->n_instances && !known; ++i)
      known = strcmp(program->instances[i].name, o->signals[k].inst) == 0;
    if (!known) {
      fprintf(o->err, "%s: error: --signal: no instance named '%s'\n", o->prog,
              o->signals[k].inst);
      goto done;
    }
  }
  /* The control socket opens before any output file, as on one core. */
  if (o->control &&
      (nprt_multi_view(&m, &view) != 0 || nprt_exec_open_control(&view) != 0))
    goto done;
  for (uint32_t q = 0; q < m.n; ++q)
    if (nprt_exec_attach_signals(&m.cores[q].ex) != 0 ||
        nprt_exec_open_devices(&m.cores[q].ex, q == 0) != 0)
      goto done;
  /* One mapping of each input file for every core. */
  for (uint32_t q = 1; q < m.n; ++q)
    for (uint32_t d = 0; d < m.cores[q].ex.n_in_devs; ++d)
      if (d < m.cores[0].ex.n_in_devs)
        nprt_pcap_in_share(&m.cores[q].ex.in_devs[d],
                           &m.cores[0].ex.in_devs[d]);
  /* Core 0 opened the outputs (with its inputs' link types); all share
   * them. */
  m.out_devs = m.cores[0].ex.out_devs;
  m.n_out_devs = m.cores[0].ex.n_out_devs;
  m.cores[0].ex.out_devs = NULL;
  m.cores[0].ex.n_out_devs = 0;
  for (uint32_t q = 0; q < m.n; ++q)
    if (pthread_create(&m.cores[q].thread, NULL, nprt_core_main, &m.cores[q]) !=
        0) {
      fprintf(o->err, "%s: error: cannot start core %u\n", o->prog, q);
      atomic_store(&m.abort, true);
      for (uint32_t k = 0; k < q; ++k)
        pthread_join(m.cores[k].thread, NULL);
      goto done;
    }
  rc = NPRT_EXIT_OK;
  if (view.control)
    nprt_multi_serve(&m, &view);
  for (uint32_t q = 0; q < m.n; ++q) {
    pthread_join(m.cores[q].thread, NULL);
    if (m.cores[q].rc > rc)
      rc = m.cores[q].rc;
  }
  nprt_multi_flush_outputs(&m);
  if (view.control) {
    nprt_multi_linger(&m, &view, rc);
    nprt_control_close(view.control);
    view.control = NULL;
  }
  nprt_multi_drain(&m);
  prof = calloc(m.n, sizeof(*prof));
  summary = prof ? nprt_multi_summary(&m, &sum, prof) : NULL;
  if (!summary || summary->error[0]) {
    fprintf(o->err, "%s: error: out of memory\n", o->prog);
    rc = NPRT_EXIT_ERROR;
    goto done;
  }
  sum.graph = summary;
  sum.prof = o->stats || o->stats_json;
  sum.core_prof = prof;
  sum.n_core_prof = m.n;
  sum.out_devs = m.out_devs;
  sum.n_out_devs = m.n_out_devs;
  /* -h reads the state the run left, before fini empties the queues. */
  nprt_handler_report_collect(&sum, &report);
  for (uint32_t q = 0; q < m.n; ++q)
    nprt_exec_wind_down(&m.cores[q].ex);
  if (nprt_exec_close_devices(&sum) != 0)
    sum.io_error = true;
  m.out_devs = NULL;
  if (sum.io_error || rc == NPRT_EXIT_ERROR)
    rc = NPRT_EXIT_ERROR;
  else if (sum.signo)
    rc = NPRT_EXIT_SIGNAL + sum.signo;
  if (nprt_stats_report(&sum) != 0)
    rc = NPRT_EXIT_ERROR;
  if (nprt_handler_report_print(&report, o) != 0)
    rc = NPRT_EXIT_ERROR;
done:
  if (m.out_devs) {
    sum.out_devs = m.out_devs;
    sum.n_out_devs = m.n_out_devs;
    nprt_exec_close_devices(&sum);
  }
  for (uint32_t q = 0; m.cores && q < m.n; ++q)
    nprt_exec_close_devices(&m.cores[q].ex);
  nprt_handler_report_free(&report);
  free(sum.in_devs);
  free(sum.out_devs);
  nprt_graph_destroy(summary);
  nprt_control_close(view.control);
  nprt_graph_destroy(view.graph);
  free(m.cmd_acc);
  free(m.cmd_save);
  free(prof);
  nprt_multi_free(&m);
  pthread_mutex_destroy(&m.out_lock);
  nprt_exec_restore_signals(old);
  return rc;
}
