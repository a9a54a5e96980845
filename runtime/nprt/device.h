/*===- device.h - one interface for every kind of device -----------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A device is where packets enter or leave the graph: NPL's
 * `device_recv(dev)` and `device_send(dev, p)`. Every kind of device is a
 * table of operations (nprt_device_ops) and the executor calls only
 * through it (ports.c): a new kind of I/O is a new table, never a branch
 * in the executor. The kinds so far:
 *
 *   pcap_dev.c   pcap files (--in, --out)                   "pcap"
 *   core_dev.c   one core's share of them in a multicore    "core"
 *                run: steered input, output gathered on
 *                lanes to the one shared file
 *   pcie.c       PCIe slots to the FPGA's C simulation      "pcie-slot"
 *   core_lanes.c the two ends of a lane between cores        "lane"
 *
 * How to add one is in runtime/nprt/README.md ("Adding a device"). The
 * rules every kind follows:
 *
 *  - Bursts. rx_burst returns up to `max` packets and tx_burst takes `n`;
 *    the executor asks for one packet at a time today (NPL receives one),
 *    a device may still batch behind the call (the PCIe slots do). A kind
 *    whose frames lie in memory (a mapped pcap file) publishes its burst
 *    of records in nprt_device.rx, which the executor copies into packets
 *    without calling it (below).
 *  - Ownership. A received packet belongs to the caller; it comes from
 *    the host's pool (nprt_dev_host.pool). A packet given to tx_burst
 *    belongs to the device from then on, whether it was accepted or not:
 *    the device frees it (into the same pool) once written or dropped.
 *  - Drops. tx_burst returns how many packets it accepted; the executor
 *    counts each one it refused as a fault and a drop of the sending
 *    instance. What a device drops on its own (a full buffer, a peer that
 *    went away) it counts in its statistics.
 *  - Errors. A device reports its own errors on host->opts->err, as
 *    "PROG: error: WHERE: WHAT", then calls host->failed: the run's exit
 *    status becomes 1 and, when asked, ingress stops. A receive that
 *    failed returns NPRT_DEV_ERROR, which ends the input for the caller.
 *  - Waiting. A device never blocks the thread: it returns NPRT_DEV_BUSY
 *    or NPRT_DEV_AGAIN and the executor runs the rest of the graph.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_DEVICE_H
#define NPRT_DEVICE_H

#include "runtime/nprt/options.h"
#include "runtime/nprt/pcap_io.h"
#include "runtime/nprt/pool.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Records a device reads at once (a pcap input parses this many, then
 * hands them out one receive at a time). */
#define NPRT_RX_BURST 32u

typedef enum nprt_dev_status {
  NPRT_DEV_OK,    /* packets were returned */
  NPRT_DEV_END,   /* the input ended: nothing more will come */
  NPRT_DEV_ERROR, /* the input failed (reported): it ended */
  /* Nothing yet; the device waits for the graph to take what it already
   * gave (a multicore run's merge): the caller lets the others run once,
   * then asks again. */
  NPRT_DEV_BUSY,
  /* Nothing yet; more can only come once the rest of the graph moves (a
   * reactive device, below): the caller waits until rx_ready says to ask
   * again. A receiver that waits while nothing else can move is stuck, as
   * one waiting on an empty channel is (a deadlock unless the graph is
   * drained). */
  NPRT_DEV_AGAIN,
} nprt_dev_status;

/* What the statistics print of a device (--stats, --stats-json). */
typedef struct nprt_dev_stats {
  const char *path; /* the file, or NULL: none (counted and discarded) */
  uint64_t packets, bytes;
  uint64_t unwritten; /* an output's packets lost to a failed write */
} nprt_dev_stats;

/* What a device may ask of the executor that runs it. */
typedef struct nprt_dev_host {
  nprt_pool *pool;          /* received packets come from it */
  const nprt_options *opts; /* the program's name and error stream */
  void *ctx;
  /* Ingress is to stop (a signal, `WRITE stop`, a failed output). */
  bool (*stopping)(void *ctx);
  /* A stop signal arrived (SIGINT, SIGTERM). */
  bool (*interrupted)(void *ctx);
  /* The device reported an error: the run fails; with `stop`, ingress
   * stops as well. */
  void (*failed)(void *ctx, bool stop);
  /* The program's clock (ns), INT64_MIN before it started. */
  int64_t (*clock)(void *ctx);
} nprt_dev_host;

typedef struct nprt_device nprt_device;

/* How a device is opened: what --in or --out gave, and for an output what
 * its file header mirrors. */
typedef struct nprt_dev_config {
  const char *path;
  int linktype, snaplen; /* outputs: the file header */
  bool nano;             /* outputs: nanosecond time stamps */
  uint32_t cut;          /* outputs: a snap length the program gave */
} nprt_dev_config;

typedef struct nprt_device_ops {
  const char *kind;
  /* A reactive device only returns what the graph sent it (the FPGA's
   * answers): its packets keep their time stamps (which move the trace's
   * clock as any packet read does: the FPGA may have read them from a
   * device of its own), ingress stopping does not end it (a stop signal
   * does), and a receiver that finds nothing waits (NPRT_DEV_AGAIN). */
  bool reactive;
  /* Opens `d` as `cfg` says; -1 with the reason in `err` on failure. NULL
   * when the kind is opened by its own setup (a PCIe link). */
  int (*open)(nprt_device *d, const nprt_dev_config *cfg, char *err,
              size_t errlen);
  /* Up to `max` packets into `pkts`, their count in *n (0 unless OK). */
  nprt_dev_status (*rx_burst)(nprt_device *d, nprt_pkt **pkts, uint32_t max,
                              uint32_t *n);
  /* Takes the `n` packets (see Ownership); returns how many it accepted. */
  uint32_t (*tx_burst)(nprt_device *d, nprt_pkt **pkts, uint32_t n);
  /* After rx_burst returned NPRT_DEV_AGAIN: whether asking again may
   * return something else. May be NULL (always). */
  bool (*rx_ready)(const nprt_device *d);
  /* Outputs: the device's sender (nprt_device.sender) ended; nothing more
   * will be sent to it. May be NULL. */
  void (*tx_end)(nprt_device *d);
  /* Reactive devices: the time the clock moves to after rx_burst: for the
   * packet it returned, the clock of the side that sent it when it sent
   * it; after NPRT_DEV_AGAIN, that side's clock as it last said
   * (INT64_MIN to leave it). NULL: the packet's time stamp. */
  int64_t (*rx_clock)(const nprt_device *d);
  /* Flushes and closes; -1 if data was lost (reported here unless it was
   * when it happened). Leaves `d` closed, its statistics still readable
   * until nprt_device_free. */
  int (*close)(nprt_device *d);
  void (*stats)(const nprt_device *d, nprt_dev_stats *s);
  /* Inputs: the link type, snap length and time stamp precision of what
   * it receives, into `fmt`; false when unknown (no file). An output that
   * the program gives no link type mirrors them. May be NULL. */
  bool (*format)(const nprt_device *d, nprt_dev_config *fmt);
  /* Frees the backend's state (`impl`). */
  void (*free)(nprt_device *d);
} nprt_device_ops;

struct nprt_device {
  const nprt_device_ops *ops; /* NULL: not made yet */
  void *impl;                 /* the kind's own state */
  const nprt_dev_host *host;
  uint32_t id; /* the device number (in_port of what it receives) */
  bool output;
  /* Outputs: the instance whose end ends what the device is sent
   * (nprt_device_desc.sender), or NULL. */
  const char *sender;
  /* Inputs whose frames lie in memory where the device read them (a
   * mapped pcap file): the records of the burst it read last, rx[rx_next]
   * to rx[rx_n - 1] not handed out yet. The executor copies the next
   * into a packet itself (nprt_device_rx_rec), without calling the kind:
   * a burst costs one call of rx_burst, which reads the next one once
   * these are taken (and handles what the copy does not: a frame too
   * big for a buffer, an empty pool). Bytes of a record may be read up
   * to `rx_end` (at least the record's end), which lets a short frame be
   * copied as one whole cache line. The kind counts a burst's records as
   * received when it reads them and the ones still here as not
   * (nprt_device_rx_pending). A kind that does not read so leaves rx_n 0. */
  const nprt_pcap_rec *rx;
  uint32_t rx_next, rx_n;
  uintptr_t rx_end;
};

/* The records of `d`'s burst not handed out yet, and their bytes. */
static inline uint32_t nprt_device_rx_pending(const nprt_device *d,
                                              uint64_t *bytes) {
  *bytes = 0;
  for (uint32_t i = d->rx_next; i < d->rx_n; ++i)
    *bytes += d->rx[i].caplen;
  return d->rx_n - d->rx_next;
}

/* Record `r` of input `d` as a new packet of `pool`, or NULL when it needs
 * what only the kind's rx_burst does (a frame bigger than a buffer, an
 * empty free list). A frame of at most a cache line with a line of bytes
 * before `rx_end` is copied as that line, one fixed copy (the bytes past
 * the frame are buffer room nothing reads). */
static inline nprt_pkt *nprt_device_rx_rec(const nprt_device *d,
                                           nprt_pool *pool,
                                           const nprt_pcap_rec *r) {
  uint32_t caplen = r->caplen;
  if (__builtin_expect(!pool->free_list || caplen > NPRT_POOL_BUF_BYTES, 0))
    return NULL;
  nprt_pkt *p = nprt_pool_get(pool, caplen);
  /* The fields before the copy: the reset's stores to them fold away. */
  p->in_port = d->id;
  p->ts = r->ts;
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  b->cap_len = caplen;
  b->wire_len = r->len;
  if (caplen <= 64u && d->rx_end >= (uintptr_t)r->bytes + 64u)
    memcpy(p->data, r->bytes, 64u);
  else
    memcpy(p->data, r->bytes, caplen);
  return p;
}

/* For `open`: zeroed state of `size` bytes as the device's `impl`; NULL
 * with the reason in `err` when memory is out. */
static inline void *nprt_device_alloc(nprt_device *d, size_t size, char *err,
                                      size_t errlen) {
  void *impl = calloc(1, size);
  if (impl)
    d->impl = impl;
  else
    snprintf(err, errlen, "out of memory");
  return impl;
}

static inline void nprt_device_stats(const nprt_device *d, nprt_dev_stats *s) {
  s->path = NULL;
  s->packets = s->bytes = 0;
  if (d->ops && d->ops->stats)
    d->ops->stats(d, s);
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_DEVICE_H */
