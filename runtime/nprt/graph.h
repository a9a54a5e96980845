/*===- graph.h - element instances and their connections -------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The graph as the generated builder describes it: instances with named
 * ports, and channels between an output port and an input port. The
 * executor adds the run-time state of each instance (its green thread, what
 * it waits for, its counters) to the same structure.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_GRAPH_H
#define NPRT_GRAPH_H

#include "nprt/nprt.h"
#include "runtime/nprt/channel.h"
#include "runtime/nprt/graph_build.h"

#include <setjmp.h>
#include <stdio.h>
#include <ucontext.h>

typedef struct nprt_exec nprt_exec;

/* Packets moved through a connected port are counted once, by its channel
 * (see nprt_in_packets / nprt_out_packets), not again on the port. */
typedef struct nprt_in_port {
  nprt_chan *ch; /* NULL when unconnected: reads as closed */
  char *name;
} nprt_in_port;

typedef struct nprt_out_port {
  nprt_chan *ch; /* NULL when unconnected: sends are counted drops */
  char *name;
  uint64_t drops; /* sends refused: unconnected, lossy full, consumer gone */
} nprt_out_port;

/* Values the instance received through `p`. */
static inline uint64_t nprt_in_packets(const nprt_in_port *p) {
  if (!p->ch)
    return 0;
  /* The values of an armed link's calls (nprt/link.h) are counted in
   * `packets` only: they never entered the ring. */
  uint64_t passed =
      p->ch->packets - atomic_load_explicit(&p->ch->tail, memory_order_acquire);
  return atomic_load_explicit(&p->ch->head, memory_order_acquire) + passed -
         p->ch->consumer_drops;
}

/* Values the instance sent through `p` (accepted by the channel). */
static inline uint64_t nprt_out_packets(const nprt_out_port *p) {
  return p->ch ? p->ch->packets : 0;
}

typedef enum nprt_inst_state {
  NPRT_READY,   /* runnable */
  NPRT_BLOCKED, /* waiting for `wait` */
  NPRT_DONE,    /* terminated */
} nprt_inst_state;

typedef enum nprt_wait_kind {
  NPRT_WAIT_NONE,
  NPRT_WAIT_RECV,   /* a value or the end on in-port `wait_port` */
  NPRT_WAIT_SEND,   /* room (or no consumer) on out-port `wait_port` */
  NPRT_WAIT_TAKEN,  /* rendezvous: value `wait_ticket` taken on `wait_port` */
  NPRT_WAIT_SELECT, /* one of the in-ports in `wait_mask` */
  NPRT_WAIT_PHASE,  /* the executor reaching phase `wait_port` */
  NPRT_WAIT_TIMER,  /* a source's timer running (deadline `wait_ticket`) */
  NPRT_WAIT_DEVICE, /* input device `wait_port` ready (rx_ready) */
} nprt_wait_kind;

struct nprt_inst {
  /* First, as nprt/link.h's nprt_inst_head: what the inline fast path of
   * a fused send reads (graph.c checks the offsets). */
  nprt_link *links;            /* one per output port; armed by ports.c */
  const nprt_pkt *standin_ptr; /* &standin */
  uint64_t iterations;
  uint32_t nest; /* pushed handler calls in progress on this one's stack */
  bool progress; /* a value moved during the current handler iteration */

  /* Hot: touched by every port operation. */
  nprt_in_port *in;
  nprt_out_port *out;
  uint32_t n_in, n_out;
  nprt_exec *ex;
  uint32_t open_inputs; /* connected input channels not closed yet */

  uint32_t id;
  /* npsim (sim.h): what its cycles count against (the program instance),
   * and where its state and its element's shared state lie. */
  uint32_t sim_tag;
  uint32_t sim_kind; /* npsim_kind of its state */
  uint64_t sim_state, sim_shared;
  uint64_t sim_state_bytes, sim_shared_bytes;
  char *name, *element, *placement;
  nprt_fn init, handler;
  nprt_signal_fn signal;
  /* The timer body runs on the instance's own stack, from inside the
   * blocking call the instance waits in when it falls due. */
  nprt_fn timer;
  nprt_fn fini; /* after the run, on the scheduler's stack; never blocks */
  uint64_t timer_period; /* ns; 0 without a timer */
  int64_t timer_deadline;
  bool timer_due, in_timer;
  uint64_t *signals; /* --signal values, in command-line order */
  uint32_t n_signals;

  nprt_inst_state state;
  nprt_wait_kind wait;
  /* The instance whose port `wait_port`/`wait_mask` name: itself, or an
   * instance whose handler this one's stack runs as a call (push_ports)
   * and which had to wait there. */
  const struct nprt_inst *wait_on;
  uint32_t wait_port;
  uint64_t wait_mask;
  uint64_t wait_ticket;
  uint32_t select_next; /* round-robin start of the next select */
  uint32_t batch;       /* handler iterations since it last blocked */
  bool started;
  bool used_device; /* called nprt_device_recv: exempt from the idle rule */
  /* In-ports whose values may run `handler` as a call on the sender's
   * stack (nprt_instance_desc.push_ports). */
  uint64_t push_ports;
  /* Of push_ports, those where a pushed call stands for the select the
   * handler starts with (nprt_instance_desc.select_ports). */
  uint64_t select_ports;
  /* The push body of each input port, or NULL
   * (nprt_instance_desc.push_fns); nprt_graph_connect puts the one of a
   * channel's port in its sender's link. */
  const nprt_push_fn *push_fns;
  /* Some link into it is armed (nprt/link.h). */
  bool armed_in;
  /* The runtime added it (a multicore run's lane ends, say): no element of
   * the program, so never the target of a fused call, which names one. */
  bool runtime_added;
  /* Fed by another core (a multicore run's lane-in): not an ingress, so a
   * stop does not end it; it ends once what feeds it did, and until then
   * delivers what the other cores drain. */
  bool relay;

  void *state_obj;  /* the instance's state object (nprt_state), or NULL */
  void *shared_obj; /* its element's shared object (nprt_shared), or NULL */
  const nprt_handler_desc *handlers; /* read and write handlers */
  uint32_t n_handlers;
  /* The arguments of the write handler running, and the value of the read
   * handler running (nprt_handler_arg, nprt_handler_result). */
  uint64_t handler_args[NPRT_MAX_HANDLER_ARGS];
  uint64_t handler_result;
  /* What nprt_pkt_new returns when the pool is exhausted: an empty packet
   * that is never freed or sent (see nprt/abi.def). */
  nprt_pkt standin;

  uint64_t drops, faults, allocs, alloc_failures;
  /* Packets received from channels, fused calls and devices, and their
   * bytes. */
  uint64_t rx_pkts, rx_bytes;
  /* Profiling (profile.h): cycles charged in sampled windows, and
   * activations begun in them. */
  uint64_t prof_cycles, prof_iters;
  /* Its entry in the open window's log (executor.h), valid while
   * prof_window_id is the executor's window count. */
  uint64_t prof_window_id;
  uint32_t prof_slot;

  jmp_buf jb;
  ucontext_t uc;
  void *stack; /* mapping including the guard page */
  size_t stack_bytes;
  void *tsan_fiber; /* ThreadSanitizer's view of the stack (NPRT_TSAN) */
};

/* Some input port is connected: the instance is not a source. */
static inline bool nprt_inst_has_inputs(const nprt_inst *in) {
  for (uint32_t i = 0; i < in->n_in; ++i)
    if (in->in[i].ch)
      return true;
  return false;
}

struct nprt_graph {
  nprt_inst **insts;
  uint32_t n_insts, cap_insts;
  nprt_chan **chans;
  uint32_t n_chans, cap_chans;
  void **shared; /* the program's shared objects, owned by the graph */
  uint32_t n_shared;
  char error[256]; /* first construction error, "" if none */
  /* A core's graph in a multicore run may hold a second copy of an
   * instance, under the same name (core_partition.c: the rtc tail). */
  bool copies;
};

nprt_graph *nprt_graph_create(void);
/* Frees instances and channels; values left in channels are not freed. */
void nprt_graph_destroy(nprt_graph *g);
/* Index of the instance called `name`, or UINT32_MAX. */
uint32_t nprt_graph_find(const nprt_graph *g, const char *name);

#endif /* NPRT_GRAPH_H */
