/*===- ports.c - port, device and packet operations of handlers --*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The functions of nprt.h that generated handlers call. The fast path (a
 * ready channel) is a ring operation and a counter update: no system call,
 * no allocation. Everything that has to wait goes through
 * nprt_exec_wait; everything that ends the instance through
 * nprt_exec_terminate.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/executor.h"
#include "runtime/nprt/profile.h"

#include <string.h>

#define NPRT_LIKELY(x) __builtin_expect(!!(x), 1)
#define NPRT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/*--- Receiving -----------------------------------------------------------*/

static inline nprt_chan *nprt_in_chan(nprt_inst *self, uint32_t port) {
  return port < self->n_in ? self->in[port].ch : NULL;
}

static inline nprt_chan *nprt_out_chan(nprt_inst *self, uint32_t port) {
  return port < self->n_out ? self->out[port].ch : NULL;
}

static __attribute__((noinline)) uint64_t nprt_recv_slow(nprt_inst *self,
                                                         uint32_t port) {
  nprt_chan *c = nprt_in_chan(self, port);
  uint64_t v;
  for (;;) {
    if (!c)
      nprt_exec_terminate(self);
    if (nprt_chan_pop(c, &v))
      break;
    /* Values pushed before the close are visible after it: re-check. */
    if (nprt_chan_closed(c)) {
      if (nprt_chan_pop(c, &v))
        break;
      nprt_exec_terminate(self);
    }
    nprt_exec_wait(self, NPRT_WAIT_RECV, port, 0);
  }
  self->progress = true;
  return v;
}

uint64_t nprt_recv_val(nprt_inst *self, uint32_t port) {
  NPRT_SIM_COST(self->ex->sim, recv);
  nprt_chan *c = nprt_in_chan(self, port);
  uint64_t v;
  if (NPRT_LIKELY(c && nprt_chan_pop(c, &v))) {
    self->progress = true;
    return v;
  }
  return nprt_recv_slow(self, port);
}

nprt_pkt *nprt_recv_pkt(nprt_inst *self, uint32_t port) {
  NPRT_SIM_COST(self->ex->sim, recv);
  nprt_pkt *p = (nprt_pkt *)(uintptr_t)nprt_recv_val(self, port);
  nprt_prof_rx(&self->ex->prof, self, p);
  return p;
}

bool nprt_poll(nprt_inst *self, uint32_t port) {
  NPRT_SIM_COST(self->ex->sim, poll);
  nprt_chan *c = nprt_in_chan(self, port);
  return c && nprt_chan_ready(c);
}

uint64_t nprt_try_recv_val(nprt_inst *self, uint32_t port) {
  NPRT_SIM_COST(self->ex->sim, poll);
  nprt_chan *c = nprt_in_chan(self, port);
  uint64_t v;
  if (!c || !nprt_chan_pop(c, &v))
    return 0;
  self->progress = true;
  return v;
}

nprt_pkt *nprt_try_recv_pkt(nprt_inst *self, uint32_t port) {
  NPRT_SIM_COST(self->ex->sim, poll);
  nprt_pkt *p = (nprt_pkt *)(uintptr_t)nprt_try_recv_val(self, port);
  nprt_prof_rx(&self->ex->prof, self, p);
  return p;
}

uint32_t nprt_select(nprt_inst *self, uint64_t mask) {
  NPRT_SIM_COST(self->ex->sim, select);
  uint32_t n = self->n_in < 64 ? self->n_in : 64;
  for (;;) {
    bool all_ended = true;
    for (uint32_t k = 0; k < n; ++k) {
      uint32_t i = (self->select_next + k) % n;
      if (!(mask >> i & 1u))
        continue;
      nprt_chan *c = self->in[i].ch;
      if (c && nprt_chan_ready(c)) {
        self->select_next = (i + 1) % n;
        self->progress = true;
        return i;
      }
      all_ended = all_ended && (!c || nprt_chan_closed(c));
    }
    if (all_ended) {
      /* Re-check: a value may have been pushed right before the close. */
      for (uint32_t i = 0; i < n; ++i)
        if (mask >> i & 1u && self->in[i].ch &&
            nprt_chan_ready(self->in[i].ch)) {
          self->select_next = (i + 1) % n;
          self->progress = true;
          return i;
        }
      nprt_exec_terminate(self);
    }
    nprt_exec_wait(self, NPRT_WAIT_SELECT, 0, mask);
  }
}

/*--- Sending -------------------------------------------------------------*/

static inline void nprt_discard(nprt_inst *self, uint64_t v, bool is_pkt) {
  if (is_pkt && v)
    nprt_pool_put(&self->ex->pool, (nprt_pkt *)(uintptr_t)v);
  ++self->drops;
}

/* Everything but a push into a ready, buffered channel: unconnected ports,
 * gone consumers, full channels, lossy drops, rendezvous. */
static __attribute__((noinline)) void
nprt_send_slow(nprt_inst *self, uint32_t port, uint64_t v, bool is_pkt) {
  nprt_chan *c = nprt_out_chan(self, port);
  if (!c) {
    if (port < self->n_out)
      ++self->out[port].drops;
    nprt_discard(self, v, is_pkt);
    return;
  }
  if (is_pkt)
    atomic_store_explicit(&c->carries_pkt, true, memory_order_relaxed);
  for (;;) {
    if (nprt_chan_consumer_gone(c)) {
      ++c->drops;
      ++self->out[port].drops;
      nprt_discard(self, v, is_pkt);
      return;
    }
    if (nprt_chan_push(c, v))
      break;
    if (c->lossy) {
      ++c->drops;
      ++self->out[port].drops;
      nprt_discard(self, v, is_pkt);
      return;
    }
    nprt_exec_wait(self, NPRT_WAIT_SEND, port, 0);
  }
  self->progress = true;
  nprt_exec_handoff(self, c);
  if (c->depth != 0 || c->lossy)
    return;
  /* Rendezvous: the sender completes once the receiver took the value. */
  uint64_t ticket = nprt_chan_ticket(c) - 1;
  while (!nprt_chan_taken(c, ticket) && !nprt_chan_consumer_gone(c)) {
    nprt_exec_wait(self, NPRT_WAIT_TAKEN, port, ticket);
  }
}

static inline void nprt_send(nprt_inst *self, uint32_t port, uint64_t v,
                             bool is_pkt) {
  nprt_chan *c = nprt_out_chan(self, port);
  if (NPRT_LIKELY(c && c->depth != 0 && !nprt_chan_consumer_gone(c) &&
                  (!is_pkt || atomic_load_explicit(&c->carries_pkt,
                                                   memory_order_relaxed)) &&
                  nprt_chan_push(c, v))) {
    self->progress = true;
    nprt_exec_handoff(self, c);
    return;
  }
  nprt_send_slow(self, port, v, is_pkt);
}

void nprt_send_val(nprt_inst *self, uint32_t port, uint64_t v) {
  NPRT_SIM_COST(self->ex->sim, send);
  nprt_send(self, port, v, false);
}

/* The stand-in for a packet nprt_pkt_new could not allocate: sending,
 * transmitting or dropping it counts a drop and frees nothing. */
static inline bool nprt_is_standin(const nprt_inst *self, const nprt_pkt *p) {
  return p == &self->standin;
}

/* Sending the stand-in is a counted drop of the port and the instance. */
static void nprt_drop_standin(nprt_inst *self, uint32_t port) {
  if (port < self->n_out)
    ++self->out[port].drops;
  ++self->drops;
}

void nprt_send_pkt(nprt_inst *self, uint32_t port, nprt_pkt *p) {
  NPRT_SIM_COST(self->ex->sim, send);
  if (NPRT_UNLIKELY(nprt_is_standin(self, p))) {
    nprt_drop_standin(self, port);
    return;
  }
  nprt_send(self, port, (uint64_t)(uintptr_t)p, true);
}

/*--- Fused channels (np-fuse) --------------------------------------------*/

/* The static form of nprt_send followed by nprt_exec_handoff's pushed call:
 * under the same conditions as that call, the value passes through the
 * empty channel (nprt_chan_pass), so every counter (the channel's packets
 * and occupancy, the consumer's received count, progress flags,
 * iterations, the nesting depth) moves as it would; the caller's direct
 * call then stands for the handler the runtime would have called, which
 * would have popped this very value. Anything else (the consumer ended, a
 * channel that holds values, init or signals running, the nesting limit)
 * is an ordinary send. */
static __attribute__((noinline)) nprt_inst *
nprt_fused_send(nprt_inst *self, uint32_t port, uint64_t v, bool is_pkt) {
  nprt_send(self, port, v, is_pkt);
  return NULL;
}

_Static_assert(NPRT_LINK_MAX_NEST == NPRT_MAX_NEST, "link.h's nesting limit");

/* Arms the port's link (nprt/link.h) after a call went through: until it
 * is disarmed, the next values take the inline path. Never while
 * profiling, which counts more per call, nor in the simulator's flavour,
 * which charges the runtime's own work per call. */
static inline void nprt_link_arm(nprt_inst *self, uint32_t port, nprt_chan *c,
                                 nprt_inst *to, bool select) {
#ifdef NPRT_SIM
  (void)self, (void)port, (void)c, (void)to, (void)select;
#else
  nprt_exec *ex = self->ex;
  if (ex->prof.on)
    return;
  nprt_link *l = &self->links[port];
  *l = (nprt_link){
      to, &c->packets, (nprt_inst *const *)&ex->sched.running, &l->spare, 0,
      0,  l->push};
  if (select) {
    l->select_next = &to->select_next;
    l->select_to = to->select_next;
  }
  to->armed_in = true;
#endif
}

void nprt_link_disarm(nprt_inst *self, uint32_t port) {
  if (port < self->n_out)
    self->links[port].to = NULL;
}

void nprt_link_disarm_into(nprt_inst *to) {
  if (!to->armed_in)
    return;
  to->armed_in = false;
  nprt_inst *const *insts = to->ex->graph->insts;
  for (uint32_t i = 0; i < to->n_in; ++i) {
    const nprt_chan *c = to->in[i].ch;
    if (c)
      nprt_link_disarm(insts[c->src], c->src_port);
  }
}

/* A call for a value on `port` stands for the select `to`'s handler starts
 * with: that select answers `port` only while no other port it waits on
 * holds a value (it serves ready ports round-robin). */
static bool nprt_select_would_take(const nprt_inst *to, uint32_t port) {
  uint64_t mask = to->select_ports & ~(UINT64_C(1) << port);
  for (uint32_t i = 0; mask && i < to->n_in && i < 64; ++i)
    if ((mask >> i & 1u) && to->in[i].ch &&
        nprt_chan_occupancy(to->in[i].ch) != 0)
      return false;
  return true;
}

static inline nprt_inst *nprt_fused_enter(nprt_inst *self, uint32_t port,
                                          uint64_t v, bool is_pkt) {
  nprt_chan *c = nprt_out_chan(self, port);
  nprt_exec *ex = self->ex;
  nprt_inst *f = ex->sched.running;
  if (NPRT_LIKELY(c && ex->sched.phase == NPRT_PHASE_RUN &&
                  (c->uncounted || f->nest < NPRT_MAX_NEST) &&
                  !nprt_chan_consumer_gone(c))) {
    nprt_inst *to = ex->graph->insts[c->dst];
    /* The channel may lead to an instance the runtime added instead of
     * the element the call site names: then it is a plain send. */
    bool select = c->dst_port < 64 && (to->select_ports >> c->dst_port & 1u);
    if (NPRT_LIKELY(c->dst_port < 64 && (to->push_ports >> c->dst_port & 1u) &&
                    !to->runtime_added &&
                    (!select || nprt_select_would_take(to, c->dst_port)) &&
                    nprt_chan_pass(c))) {
      if (is_pkt &&
          !atomic_load_explicit(&c->carries_pkt, memory_order_relaxed))
        atomic_store_explicit(&c->carries_pkt, true, memory_order_relaxed);
      self->progress = true;
      f->nest += !c->uncounted;
      ++to->iterations;
      to->progress = true;
      if (select) {
        uint32_t n = to->n_in < 64 ? to->n_in : 64;
        to->select_next = (c->dst_port + 1) % n;
      }
      nprt_link_arm(self, port, c, to, select);
      nprt_prof_sim(&ex->prof, to);
      if (NPRT_UNLIKELY(ex->prof.on)) {
        if (is_pkt) {
          ++to->rx_pkts;
          to->rx_bytes += ((const nprt_pkt *)(uintptr_t)v)->len;
        }
        /* A tail call: the fast path keeps no register across it. */
        if (NPRT_UNLIKELY(ex->prof.window))
          return nprt_prof_fused(&ex->prof, to);
      }
      return to;
    }
  }
  /* Out of line: the fast path above stays a leaf. The value may stay in
   * the channel: the next ones must come here to keep their order. */
  nprt_link_disarm(self, port);
  if (c && c->dst < ex->graph->n_insts)
    nprt_link_disarm_into(ex->graph->insts[c->dst]);
  return nprt_fused_send(self, port, v, is_pkt);
}

nprt_inst *nprt_fused_enter_pkt(nprt_inst *self, uint32_t port, nprt_pkt *p) {
  if (NPRT_UNLIKELY(nprt_is_standin(self, p))) {
    nprt_drop_standin(self, port);
    return NULL;
  }
  return nprt_fused_enter(self, port, (uint64_t)(uintptr_t)p, true);
}

nprt_inst *nprt_fused_enter_val(nprt_inst *self, uint32_t port, uint64_t v) {
  return nprt_fused_enter(self, port, v, false);
}

void nprt_fused_leave(nprt_inst *self) {
  nprt_exec *ex = self->ex;
  --ex->sched.running->nest;
  nprt_prof_switch(&ex->prof, self);
}

void nprt_fused_pass_leave(nprt_inst *self) {
  nprt_prof_switch(&self->ex->prof, self);
}

/*--- Devices -------------------------------------------------------------*/

/* Every kind of device is called through its table (device.h). */

/* No packet yet from input `d` (rx_burst said `st`): waits as the status
 * says until one comes, or ends the instance. Returns the device's packet
 * and sets *dp to the device (the table may have moved). */
static __attribute__((noinline)) nprt_pkt *
nprt_device_wait(nprt_inst *self, uint32_t dev, nprt_device **dp,
                 nprt_dev_status st) {
  nprt_exec *ex = self->ex;
  nprt_device *d = *dp;
  bool reactive = d->ops->reactive;
  nprt_pkt *p;
  for (;;) {
    if (st == NPRT_DEV_BUSY) {
      nprt_exec_wait(self, NPRT_WAIT_PHASE, ex->sched.phase, 0);
      /* While it waited, another instance may have opened a device of a
       * higher number, moving the table. */
      d = nprt_devices_in(&ex->devices, dev);
    } else {
      if (st != NPRT_DEV_AGAIN)
        nprt_exec_terminate(self);
      /* The sender's clock may have moved without a packet for this
       * receiver (the FPGA read a device of its own): so does ours, with
       * the timers that fall due, as on one core. */
      int64_t t = reactive && d->ops->rx_clock && !ex->clock.live
                      ? d->ops->rx_clock(d)
                      : INT64_MIN;
      if (t != INT64_MIN && (!ex->clock.started || t > ex->clock.now))
        nprt_exec_advance(self, t);
      /* More can come once the graph moves: wait for the device to say
       * so (device.h). */
      nprt_exec_wait(self, NPRT_WAIT_DEVICE, dev, 0);
      d = nprt_devices_in(&ex->devices, dev);
    }
    uint32_t n = 0;
    st = d->ops->rx_burst(d, &p, 1, &n);
    if (n)
      break;
  }
  *dp = d;
  return p;
}

/* The clock after packet `p` from input `d`, in every case but the
 * common one (nprt_device_recv). */
static __attribute__((noinline)) void
nprt_device_clock(nprt_inst *self, const nprt_device *d, nprt_pkt *p) {
  nprt_exec *ex = self->ex;
  bool reactive = d->ops->reactive;
  /* A reactive device's packets (the FPGA's answers) keep their stamps;
   * on the trace's clock they move it to the sender's clock when it sent
   * them (rx_clock), as reading from a device had moved it on one core:
   * the FPGA may have read a device of its own, which the host's clock
   * never saw (npsmith, seed 100023), and a packet it made has the stamp
   * 0, which must not start the clock (seed 202997). Live, the host's
   * clock runs on its own. */
  if (reactive && ex->clock.live)
    return;
  /* Live, a packet is stamped when it is read, as a capture would be. */
  if (ex->clock.live)
    p->ts = nprt_clock_live_now(&ex->clock);
  int64_t t = reactive && d->ops->rx_clock ? d->ops->rx_clock(d) : p->ts;
  /* In order, before the end, no timer to run: only the clock moves. */
  if (t == INT64_MIN)
    ;
  else if (ex->clock.started && !ex->clock.has_timers && t >= ex->clock.now &&
           t <= ex->clock.end)
    ex->clock.now = t;
  else
    nprt_exec_advance(self, t);
}

/* Everything but the next record of a burst (nprt_device_recv). */
static __attribute__((noinline)) nprt_pkt *
nprt_device_recv_slow(nprt_inst *self, uint32_t dev) {
  nprt_exec *ex = self->ex;
  self->used_device = true;
  nprt_device *d = nprt_devices_in(&ex->devices, dev);
  if (NPRT_UNLIKELY(!d || !d->ops->rx_burst))
    nprt_exec_terminate(self);
  bool reactive = d->ops->reactive;
  if (!reactive && nprt_status_stopping(&ex->status))
    nprt_exec_terminate(self);
  nprt_pkt *p;
  uint32_t n = 0;
  nprt_dev_status st = d->ops->rx_burst(d, &p, 1, &n);
  if (NPRT_UNLIKELY(!n))
    p = nprt_device_wait(self, dev, &d, st);
  self->progress = true;
  int64_t t = p->ts;
  if (NPRT_LIKELY(!reactive && !ex->clock.live && ex->clock.started &&
                  !ex->clock.has_timers && t >= ex->clock.now &&
                  t <= ex->clock.end))
    ex->clock.now = t;
  else
    nprt_device_clock(self, d, p);
  nprt_prof_rx(&self->ex->prof, self, p);
  nprt_prof_sim(&ex->prof, self);
  return p;
}

/* Every packet a source reads passes here. The common case, the next
 * record of the burst a device read (nprt_device.rx), stamped in order on
 * the trace's clock with nothing to run before it, is a copy into a
 * buffer of the pool and a few tests, with no call of the device; the
 * device is called once its burst is used up, and for the rest. */
nprt_pkt *nprt_device_recv(nprt_inst *self, uint32_t dev) {
  nprt_exec *ex = self->ex;
  nprt_devices *t = &ex->devices;
  if (NPRT_LIKELY(dev < t->n_in)) {
    nprt_device *d = &t->in[dev];
    uint32_t next = d->rx_next;
    /* A device that reads records is not reactive: stopping ends it. */
    if (NPRT_LIKELY(next < d->rx_n && !nprt_status_stopping(&ex->status))) {
      nprt_pkt *p = nprt_device_rx_rec(d, &ex->pool, &d->rx[next]);
      if (NPRT_LIKELY(p != NULL)) {
        d->rx_next = next + 1;
        self->used_device = true;
        self->progress = true;
        nprt_clock *c = &ex->clock;
        int64_t ts = p->ts;
        if (NPRT_LIKELY(!c->live && c->started && !c->has_timers &&
                        ts >= c->now && ts <= c->end))
          c->now = ts;
        else
          nprt_device_clock(self, d, p);
        nprt_prof_rx(&ex->prof, self, p);
        nprt_prof_sim(&ex->prof, self);
        return p;
      }
    }
  }
  return nprt_device_recv_slow(self, dev);
}

void nprt_device_send(nprt_inst *self, uint32_t dev, nprt_pkt *p) {
  nprt_exec *ex = self->ex;
  if (nprt_is_standin(self, p)) {
    ++self->drops;
    return;
  }
  nprt_device *d = nprt_devices_out(&ex->devices, dev);
  if (d && d->ops->tx_burst) {
    uint32_t sent = d->ops->tx_burst(d, &p, 1);
    nprt_prof_sim(&ex->prof, self);
    if (sent == 1) {
      self->progress = true;
      return;
    }
    /* Refused: the device freed it; a fault and a drop of the sender. */
    ++self->faults;
    ++self->drops;
    return;
  }
  ++self->faults;
  nprt_discard(self, (uint64_t)(uintptr_t)p, true);
}

/*--- Packets and faults --------------------------------------------------*/

void nprt_drop(nprt_inst *self, nprt_pkt *p) {
  NPRT_SIM_COST(self->ex->sim, drop);
  if (nprt_is_standin(self, p)) {
    ++self->drops;
    return;
  }
  nprt_discard(self, (uint64_t)(uintptr_t)p, true);
}

/* An allocation the pool refused: the caller gets the empty stand-in. */
static nprt_pkt *nprt_alloc_failed(nprt_inst *self) {
  ++self->alloc_failures;
  memset(&self->standin, 0, sizeof(self->standin));
  return &self->standin;
}

nprt_pkt *nprt_clone(nprt_inst *self, const nprt_pkt *p) {
  nprt_pkt *c = nprt_pool_clone(&self->ex->pool, p);
  if (NPRT_UNLIKELY(!c))
    return nprt_alloc_failed(self);
  ++self->allocs;
#ifdef NPRT_SIM
  npsim_ctx *sim = self->ex->sim;
  if (sim) {
    /* A buffer of its own, and the bytes copied into it. */
    NPRT_SIM_COST(sim, clone);
    c->sim_addr = npsim_packet_alloc(sim);
    npsim_pkt(sim, p->sim_addr, 0, p->len, false);
    npsim_pkt(sim, c->sim_addr, 0, p->len, true);
  }
#endif
  return c;
}

nprt_pkt *nprt_pkt_new(nprt_inst *self, uint32_t len) {
  nprt_pkt *p = nprt_pool_alloc_zeroed(&self->ex->pool, len);
  if (NPRT_UNLIKELY(!p))
    return nprt_alloc_failed(self);
  ++self->allocs;
#ifdef NPRT_SIM
  npsim_ctx *sim = self->ex->sim;
  if (sim) {
    NPRT_SIM_COST(sim, pkt_new);
    p->sim_addr = npsim_packet_alloc(sim);
    p->sim_born = npsim_now(sim);
  }
#endif
  return p;
}

void *nprt_state(nprt_inst *self) { return self->state_obj; }

void *nprt_shared(nprt_inst *self) { return self->shared_obj; }

uint64_t nprt_handler_arg(nprt_inst *self, uint32_t k) {
  return k < NPRT_MAX_HANDLER_ARGS ? self->handler_args[k] : 0;
}

void nprt_handler_result(nprt_inst *self, uint64_t v) {
  self->handler_result = v;
}

void nprt_fault(nprt_inst *self, uint32_t kind) {
  (void)kind;
  ++self->faults;
}

/*--- Printing (the `print` built-in and the Print element) ---------------*/

void nprt_print_pkt(nprt_inst *self, const nprt_pkt *p, const char *label,
                    int32_t max) {
  FILE *f = self->ex->opts->err;
  if (label[0])
    fprintf(f, "%s: ", label);
  fprintf(f, "%4u", p->len);
  uint32_t n = max < 0 || (uint32_t)max > p->len ? p->len : (uint32_t)max;
  if (n)
    fputs(" | ", f);
  for (uint32_t i = 0; i < n; ++i)
    fprintf(f, "%s%02x", i && i % 4 == 0 ? " " : "", p->data[i]);
  fputc('\n', f);
}

void nprt_print_val(nprt_inst *self, const char *label, uint64_t v,
                    bool is_signed) {
  FILE *f = self->ex->opts->err;
  if (is_signed)
    fprintf(f, "%s: %lld\n", label, (long long)(int64_t)v);
  else
    fprintf(f, "%s: %llu\n", label, (unsigned long long)v);
}
