/*===- core_dev.c - a core's share of the devices ------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A core of a multicore run reads its share of the inputs and gathers its
 * records for the outputs all cores share: the third kind of device
 * (device.h). Inputs are the pcap files themselves, each core looking at
 * every record where it lies and copying only its own (flow steering,
 * core_steer.c). Outputs are written by core 0's pcap devices, which the
 * run hands to all (nprt_multi.outs): a core appends a whole buffer of
 * records at a time, under a lock.
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

#include "runtime/nprt/pcap_dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  /* An output failed on some core: ingress stops everywhere. */
  if (atomic_load_explicit(&m->stop, memory_order_acquire)) {
    atomic_store_explicit(&core->done, UINT64_MAX, memory_order_release);
    return NPRT_DEV_END;
  }
  /* Core 0 waits for its merge to catch up before reading more. */
  if (core->self.n > NPRT_SELF_QUEUE_LIMIT && !h->stopping(h->ctx))
    return NPRT_DEV_BUSY;
  char err[PCAP_ERRBUF_SIZE + 64];
  for (;;) {
    /* The record is looked at where it lies (in the mapped file): only
     * this core's packets are copied into its pool. */
    nprt_pcap_status st = nprt_pcap_in_peek(d, err, sizeof(err));
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
      st = nprt_pcap_in_next(d, h->pool, dev, &pkts[0], err, sizeof(err));
    }
    if (st == NPRT_PCAP_ERROR &&
        atomic_exchange_explicit(&m->read_error, true, memory_order_acq_rel))
      st = NPRT_PCAP_EOF; /* every core reads the file: one reports */
    if (st != NPRT_PCAP_OK) {
      /* Nothing more from this core's input (one input device: with
       * several, the first to end already lets the merge pass it). */
      nprt_core_flush(core);
      atomic_store_explicit(&core->done, UINT64_MAX, memory_order_release);
      return nprt_pcap_dev_read_failed(h, d, st, err);
    }
    core->cur_seq = index * NPRT_MAX_DEVICES + dev;
    if (m->tick_to > core->id && pkts[0])
      nprt_core_send_tick(core, pkts[0]->ts);
    /* The watermark moves once a burst: first the messages it vouches
     * for are published. */
    if (++core->reads % NPRT_LANE_BURST == 0) {
      nprt_core_flush(core);
      uint64_t w = atomic_load_explicit(&core->done, memory_order_relaxed);
      if (core->cur_seq && core->cur_seq - 1 > w && w != UINT64_MAX)
        atomic_store_explicit(&core->done, core->cur_seq - 1,
                              memory_order_release);
    }
    *n = 1;
    return NPRT_DEV_OK;
  }
}

const nprt_device_ops nprt_core_in_ops =
    NPRT_PCAP_IN_OPS("core", nprt_core_in_open, nprt_core_in_rx);

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

/* Appends what every core still buffers, core by core. */
void nprt_multi_flush_outputs(nprt_multi *m) {
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
  for (uint32_t i = 0; i < n; ++i)
    sent += nprt_core_out_send(d->impl, d->id, pkts[i]);
  return sent;
}

/* The shared files are closed, and report, once for all cores. */
const nprt_device_ops nprt_core_out_ops = {
    .kind = "core",
    .open = nprt_core_out_open,
    .tx_burst = nprt_core_out_tx,
};
