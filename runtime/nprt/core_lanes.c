/*===- core_lanes.c - lanes between cores and the ordered merge ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A value sent to an instance on another core travels on a lane (lane.h)
 * from a lane-out (a push-shaped sink on the sending core) to the
 * receiving core's lane-in (a source with one output per incoming
 * channel). Under a pipeline every lane is FIFO; under rtc core 0 merges
 * its own queue and every other core's lane by sequence number and each
 * core's watermark, so run-once instances see values in the order one
 * core would have given.
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"
#include "runtime/nprt/sim.h"

#include "runtime/nprt/profile.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/*--- Self queue ----------------------------------------------------------*/

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

/* Publishes every message this core wrote to its lanes (cores.h). Before a
 * watermark moves, and whenever the core could wait: a message must never
 * sit unpublished while another core waits for it. */
void nprt_core_flush(nprt_core *core) {
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
static bool nprt_lane_send(nprt_core *core, uint32_t to,
                           const nprt_lane_msg *msg) {
  nprt_multi *m = core->m;
  if (to == core->id) {
    if (!nprt_msgq_push(&core->self, msg)) {
      fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
      abort();
    }
    return true;
  }
  nprt_lane *l = m->lanes[core->id * m->n + to];
  uint32_t spins = 0;
  uint64_t t0 = core->ex.prof.on ? nprt_prof_clock() : 0;
#ifdef NPRT_SIM
  if (core->ex.sim) {
    /* The message is written to the lane's ring in memory, and seen by
     * the receiver from then on. */
    npsim_mem(core->ex.sim, NPSIM_LANE,
              ((uint64_t)(core->id * m->n + to) * 16 + msg->seq % 16) * 32, 32,
              true);
    npsim_sync(core->ex.sim);
  }
#endif
  while (!nprt_lane_push(l, msg)) {
    nprt_lane_flush(l);
    if (atomic_load_explicit(&m->abort, memory_order_acquire)) {
      /* The receiver is gone: the value is dropped, and counted. */
      if (msg->is_pkt)
        nprt_pool_free(&core->ex.pool, (nprt_pkt *)(uintptr_t)msg->value);
      return false;
    }
#ifdef NPRT_SIM
    if (core->ex.sim) {
      npsim_poll(core->ex.sim);
      continue;
    }
#endif
    nprt_backoff(m, &spins);
  }
  if (spins)
    nprt_prof_wait(&core->ex.prof, t0);
  return true;
}

void nprt_core_send_tick(nprt_core *core, int64_t ts) {
  const nprt_lane_msg tick = {
      .seq = core->cur_seq, .now = ts, .edge = NPRT_LANE_TICK};
  nprt_lane_send(core, core->id + 1, &tick);
}

void nprt_lane_out_handler(nprt_inst *self) {
  nprt_lane_out *st = self->state_obj;
  nprt_chan *c = self->in[0].ch;
  uint64_t v = nprt_recv_val(self, 0);
  /* A value that is not a packet rides in the device's carrier. */
  nprt_pkt *p = &st->lane.carrier;
  if (c && atomic_load_explicit(&c->carries_pkt, memory_order_relaxed))
    p = (nprt_pkt *)(uintptr_t)v;
  else
    p->anno = v;
  /* The lane refuses only once the run aborted (the receiver is gone): the
   * device freed the value, and the abort reports the run. */
  (void)st->dev.ops->tx_burst(&st->dev, &p, 1);
}

void nprt_lane_out_fini(nprt_inst *self) { (void)self; }

typedef enum { NPRT_NEXT_NONE, NPRT_NEXT_MSG, NPRT_NEXT_END } nprt_next;

/* True when nothing on this core can send to itself any more: the main
 * copies' lane-outs ended and every local channel is empty, or every
 * instance but the lane-in waits for what has not come (a feedback loop
 * keeps a lane-out open; a value waits in a channel its consumer reads
 * only with another's) and none waits for its timer. Ending the lane-in
 * then closes its outputs, and the graph ends as it does on one core. */
static bool nprt_self_quiet(const nprt_core *core) {
  if (core->self.n)
    return false;
  const nprt_graph *g = core->graph;
  bool open = false;
  for (uint32_t l = 0; l < core->n_local && !open; ++l) {
    const nprt_inst *in = g->insts[l];
    const nprt_lane_out *st = in->state_obj;
    open = core->prog[l] == UINT32_MAX &&
           in->handler == nprt_lane_out_handler && st->self &&
           in->state != NPRT_DONE;
  }
  for (uint32_t i = 0; i < g->n_chans && !open; ++i)
    open = nprt_chan_occupancy(g->chans[i]) != 0;
  if (!open)
    return true;
  nprt_inst *lane_in = g->insts[core->lane_in];
  if (!nprt_exec_idle_but(&core->ex, &lane_in, 1))
    return false;
  for (uint32_t i = 0; i < g->n_insts; ++i)
    if (g->insts[i]->state != NPRT_DONE && g->insts[i]->wait == NPRT_WAIT_TIMER)
      return false;
  return true;
}

/* The oldest message on the lane from core `from` to `core`, NULL when
 * there is none or no such lane. */
static const nprt_lane_msg *nprt_lane_head(const nprt_core *core,
                                           uint32_t from) {
  nprt_lane *l = core->m->lanes[from * core->m->n + core->id];
  return l ? nprt_lane_peek(l) : NULL;
}

/*--- Clock ticks (rtc, a serial core 0) ------------------------------------*/

/* On one core, reading a packet moves the clock to its time stamp and runs
 * the timers that fell due before it, whether or not the packet reaches a
 * timer's instance. A serial core 0 runs every instance with a timer but
 * takes no packet: it reads each input for its time stamps instead, and
 * passes each record's time (a tick) once every message of an earlier
 * packet was delivered and before any of that packet's own. */

/* The next record any input has, as a tick: the lowest sequence number.
 * False once every input ended (or failed: the core reading packets
 * reports that). */
static bool nprt_next_tick(nprt_core *core, nprt_lane_msg *tick) {
  char err[PCAP_ERRBUF_SIZE + 64];
  bool any = false;
  for (uint32_t i = 0; i < core->n_clock_in; ++i) {
    nprt_pcap_in *d = core->clock_in[i].pcap;
    uint32_t dev = core->clock_in[i].dev;
    if (nprt_pcap_in_peek(d, err, sizeof(err)) != NPRT_PCAP_OK)
      continue;
    uint64_t seq = core->records[dev] * NPRT_MAX_DEVICES + dev;
    if (!any || seq < tick->seq)
      *tick =
          (nprt_lane_msg){.seq = seq, .now = d->rec.ts, .edge = NPRT_LANE_TICK};
    any = true;
  }
  return any;
}

static void nprt_pass_tick(nprt_core *core, const nprt_lane_msg *tick) {
  uint32_t dev = (uint32_t)(tick->seq % NPRT_MAX_DEVICES);
  for (uint32_t i = 0; i < core->n_clock_in; ++i)
    if (core->clock_in[i].dev == dev) {
      nprt_pcap_in_pass(core->clock_in[i].pcap);
      ++core->records[dev];
    }
}

/* Whether core `k`, whose lane was empty when looked at, can no longer send
 * a message numbered below `seq`. The watermark is read before the lane
 * again: a message published before the watermark moved is in the lane by
 * then, and a lane found empty earlier may have been filled meanwhile
 * (with lower numbers than the watermark now vouches for). */
static bool nprt_lane_past(const nprt_core *core, uint32_t k, uint64_t seq) {
  uint64_t w =
      atomic_load_explicit(&core->m->cores[k].done, memory_order_acquire);
  const nprt_lane_msg *h = nprt_lane_head(core, k);
  return h ? h->seq >= seq : w >= seq;
}

/* Whether no source but core 0's own queue can still send a message below
 * `seq`: its lane holds a later one, or its watermark is at `seq`. */
static bool nprt_others_past(const nprt_core *core,
                             const nprt_lane_msg *const *heads, uint64_t seq) {
  const nprt_multi *m = core->m;
  for (uint32_t k = 0; k < m->n; ++k)
    if (k != core->id && !heads[k] && !nprt_lane_past(core, k, seq))
      return false;
  return true;
}

/* rtc, core 0: every other core finished and its lane is empty, nothing
 * waits in the self queue, and no input record is left to tick. */
static bool nprt_only_self_left(nprt_core *core) {
  nprt_multi *m = core->m;
  nprt_lane_msg tick;
  if (m->pipeline || core->self.n ||
      (core->n_clock_in && nprt_next_tick(core, &tick)))
    return false;
  for (uint32_t k = 0; k < m->n; ++k)
    if (k != core->id &&
        (!atomic_load_explicit(&m->cores[k].finished, memory_order_acquire) ||
         nprt_lane_head(core, k)))
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
  if (!core->heads && !(core->heads = calloc(m->n, sizeof(*core->heads)))) {
    fprintf(m->opts->err, "%s: error: out of memory\n", m->opts->prog);
    abort();
  }
  const nprt_lane_msg **heads = core->heads;
  for (uint32_t k = 0; k < m->n; ++k) {
    heads[k] =
        k == core->id ? nprt_msgq_peek(&core->self) : nprt_lane_head(core, k);
    if (heads[k] && heads[k]->seq < best_seq) {
      best = k;
      best_seq = heads[k]->seq;
    }
  }
  /* A serial core 0: the next record's tick goes before the messages of
   * that record and later ones, once no earlier message can come. */
  /* What a timer of the tick sent through core 0's own queue goes
   * before the tick's next timer, as one core hands it over at once; the
   * handler passes the tick once no timer is left due. */
  nprt_lane_msg tick;
  if (core->n_clock_in && !nprt_status_stopping(&core->ex.status) &&
      nprt_next_tick(core, &tick) &&
      (best == UINT32_MAX || tick.seq < best_seq ||
       (tick.seq == best_seq && best != core->id))) {
    if (!nprt_others_past(core, heads, tick.seq))
      return NPRT_NEXT_NONE;
    *out = tick;
    return NPRT_NEXT_MSG;
  }
  if (best == UINT32_MAX) {
    bool ended = nprt_self_quiet(core);
    for (uint32_t k = 0; k < m->n && ended; ++k)
      if (k != core->id)
        ended =
            atomic_load_explicit(&m->cores[k].finished, memory_order_acquire) &&
            !nprt_lane_head(core, k);
    return ended ? NPRT_NEXT_END : NPRT_NEXT_NONE;
  }
  /* Every other source must be past best_seq: a message waiting with a
   * higher number, or a watermark at or above it. */
  for (uint32_t k = 0; k < m->n; ++k) {
    if (k == best || heads[k])
      continue;
    if (k != core->id ? !nprt_lane_past(core, k, best_seq)
                      : atomic_load_explicit(&core->done,
                                             memory_order_relaxed) < best_seq)
      return NPRT_NEXT_NONE;
  }
  *out = *heads[best];
  if (best == core->id)
    nprt_msgq_pop(&core->self);
  else
    nprt_lane_pop(m->lanes[best * m->n + core->id]);
  return NPRT_NEXT_MSG;
}

/*--- Lane devices (device.h) ---------------------------------------------*/

void nprt_lane_dev_init(nprt_device *d, nprt_lane_dev *lane, nprt_core *core,
                        const nprt_device_ops *ops) {
  lane->core = core;
  d->ops = ops;
  d->impl = lane;
  d->host = &core->ex.devices.host;
  d->output = ops == &nprt_lane_tx_ops;
}

static void nprt_lane_count(nprt_lane_dev *lane, const nprt_lane_msg *msg) {
  ++lane->packets;
  if (msg->is_pkt && msg->value)
    lane->bytes += ((const nprt_pkt *)(uintptr_t)msg->value)->len;
}

/* The lane-out's device: stamps each value with the core's sequence number
 * and clock and puts it on the way to the core that takes it (its lane
 * out, a nprt_lane_out, holds where). */
static uint32_t nprt_lane_tx(nprt_device *d, nprt_pkt **pkts, uint32_t n) {
  nprt_lane_dev *lane = d->impl;
  nprt_lane_out *st =
      (nprt_lane_out *)(void *)((char *)lane - offsetof(nprt_lane_out, lane));
  nprt_core *core = lane->core;
  uint32_t sent = 0;
  for (uint32_t i = 0; i < n; ++i) {
    bool is_pkt = pkts[i] != &lane->carrier;
    nprt_lane_msg msg = {
        .seq = core->cur_seq,
        .value = is_pkt ? (uint64_t)(uintptr_t)pkts[i] : lane->carrier.anno,
        .now = core->ex.clock.started ? core->ex.clock.now : NPRT_LANE_NO_CLOCK,
        .edge = st->edge,
        .is_pkt = is_pkt};
    nprt_lane_count(lane, &msg);
    sent += nprt_lane_send(core, st->to, &msg);
  }
  return sent;
}

/* The lane-in's device: the next message in order (nprt_next_msg), its
 * value as a packet or in the carrier, and the message in `last`. BUSY
 * while a source may still send an earlier one. */
static nprt_dev_status nprt_lane_rx(nprt_device *d, nprt_pkt **pkts,
                                    uint32_t max, uint32_t *n) {
  nprt_lane_dev *lane = d->impl;
  *n = 0;
  if (!max)
    return NPRT_DEV_OK;
  nprt_next r = nprt_next_msg(lane->core, &lane->last);
  if (r != NPRT_NEXT_MSG)
    return r == NPRT_NEXT_END ? NPRT_DEV_END : NPRT_DEV_BUSY;
  if (lane->last.edge != NPRT_LANE_TICK)
    nprt_lane_count(lane, &lane->last);
  NPRT_SIM_DO(lane->core->ex.sim,
              npsim_mem(lane->core->ex.sim, NPSIM_LANE,
                        (uint64_t)(lane->last.seq % 16) * 32, 32, false));
  lane->carrier.anno = lane->last.value;
  pkts[0] = lane->last.is_pkt ? (nprt_pkt *)(uintptr_t)lane->last.value
                              : &lane->carrier;
  *n = 1;
  return NPRT_DEV_OK;
}

static void nprt_lane_stats(const nprt_device *d, nprt_dev_stats *s) {
  const nprt_lane_dev *lane = d->impl;
  s->packets = lane->packets;
  s->bytes = lane->bytes;
}

const nprt_device_ops nprt_lane_tx_ops = {
    .kind = "lane",
    .tx_burst = nprt_lane_tx,
    .stats = nprt_lane_stats,
};

const nprt_device_ops nprt_lane_rx_ops = {
    .kind = "lane",
    .rx_burst = nprt_lane_rx,
    .stats = nprt_lane_stats,
};

void nprt_lane_in_handler(nprt_inst *self) {
  nprt_lane_in *st = self->state_obj;
  nprt_core *core = st->lane.core;
  nprt_multi *m = core->m;
  for (uint32_t burst = 0; burst < 64; ++burst) {
    nprt_pkt *p;
    uint32_t got = 0;
    nprt_dev_status r = st->dev.ops->rx_burst(&st->dev, &p, 1, &got);
    if (r == NPRT_DEV_END) {
      nprt_core_flush(core);
      nprt_exec_terminate(self);
    }
    if (!got) {
      nprt_core_flush(core);
      if (atomic_load_explicit(&m->abort, memory_order_acquire))
        nprt_exec_terminate(self);
      /* Only this core's own instances can still send, and all of them
       * wait: time moves on to the next timer, as on one core. */
      if (nprt_only_self_left(core) && nprt_exec_idle_but(self->ex, &self, 1) &&
          nprt_clock_jump_from(self)) {
        self->progress = true;
        continue;
      }
      /* Nothing yet: let the other threads on this CPU run. */
      uint64_t t0 = self->ex->prof.on ? nprt_prof_clock() : 0;
#ifdef NPRT_SIM
      if (core->ex.sim) {
        npsim_poll(core->ex.sim);
        return;
      }
#endif
      nprt_idle(m, &core->idle);
      nprt_prof_wait(&self->ex->prof, t0);
      return;
    }
    core->idle = 0;
    const nprt_lane_msg msg = st->lane.last;
    nprt_exec *ex = self->ex;
    if (msg.edge == NPRT_LANE_TICK) {
      /* What its timers send belongs before the record's own messages. */
      uint64_t own = core->cur_seq;
      core->cur_seq = msg.seq;
      if (m->pipeline) {
        /* A pipeline's tick goes on to the later stages with timers. */
        if (core->id < m->tick_to)
          nprt_lane_send(core, core->id + 1, &msg);
        nprt_exec_advance(self, msg.now);
      } else if (!nprt_exec_advance_one(self, msg.now)) {
        /* rtc: one timer at a time (nprt_next_msg); no more due. */
        nprt_pass_tick(core, &msg);
      }
      core->cur_seq = own;
      self->progress = true;
      continue;
    }
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
     * moves forward, running the timers that fall due. With ticks, core
     * 0's own clock already reads as one core's. */
    bool timed = msg.now != NPRT_LANE_NO_CLOCK && !core->n_clock_in;
    if (timed && (!ex->clock.started || msg.now > ex->clock.now))
      nprt_exec_advance(self, msg.now);
    int64_t clock = ex->clock.now;
    if (timed)
      ex->clock.now = msg.now;
    core->cur_seq = msg.seq;
    if (msg.is_pkt)
      nprt_send_pkt(self, e->in_port, p);
    else
      nprt_send_val(self, e->in_port, msg.value);
    core->cur_seq = own;
    ex->clock.now = clock;
  }
  /* What this burst sent on to later stages goes out together. */
  nprt_core_flush(core);
}

void nprt_multi_drain(nprt_multi *m) {
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
