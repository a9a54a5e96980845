/*===- pcap_dev.c - pcap files as devices --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * See pcap_dev.h. The file formats are pcap_io.c's; this file is the
 * device interface around them.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/pcap_dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

nprt_pcap_in *nprt_pcap_dev_in(const nprt_device *d) {
  return d && d->ops == &nprt_pcap_in_ops ? d->impl : NULL;
}

nprt_pcap_out *nprt_pcap_dev_out(const nprt_device *d) {
  return d && d->ops == &nprt_pcap_out_ops ? d->impl : NULL;
}

void nprt_pcap_dev_write_failed(const nprt_dev_host *host,
                                const nprt_pcap_out *o) {
  const nprt_options *opts = host->opts;
  fprintf(opts->err, "%s: error: %s: cannot write: %s\n", opts->prog, o->path,
          strerror(o->error));
  host->failed(host->ctx, true);
}

nprt_dev_status nprt_pcap_dev_read_failed(const nprt_dev_host *h,
                                          const nprt_pcap_in *in,
                                          nprt_pcap_status st,
                                          const char *err) {
  /* A read interrupted by a stop signal is the end of the input. */
  if (st == NPRT_PCAP_EOF || h->interrupted(h->ctx))
    return NPRT_DEV_END;
  fprintf(h->opts->err, "%s: error: %s: %s\n", h->opts->prog,
          in->path ? in->path : "(no file)", err);
  h->failed(h->ctx, false);
  return NPRT_DEV_ERROR;
}

/*--- Input -----------------------------------------------------------------*/

/* An input device: the file, and the records of its last burst, which
 * the device (nprt_device.rx) hands out. Records are counted (`packets`,
 * `bytes`) when a burst is read; the ones not handed out yet do not count
 * (nprt_pcap_in_stats): records read ahead but never received (ingress
 * stopped) were never the program's. */
typedef struct nprt_pcap_in_dev {
  nprt_pcap_in pcap; /* first: NPRT_PCAP_IN_OPS's operations apply */
  /* How the last burst ended: NPRT_PCAP_OK while there may be more; the
   * end or an error shows once its records are handed out. */
  nprt_pcap_status st;
  nprt_pcap_rec recs[NPRT_RX_BURST];
  char err[PCAP_ERRBUF_SIZE + 64]; /* the error `st` stands for */
} nprt_pcap_in_dev;

static int nprt_pcap_in_dev_open(nprt_device *d, const nprt_dev_config *cfg,
                                 char *err, size_t errlen) {
  nprt_pcap_in_dev *in = nprt_device_alloc(d, sizeof(*in), err, errlen);
  if (!in)
    return -1;
  d->rx = in->recs;
  d->rx_next = d->rx_n = 0;
  d->rx_end = 0;
  if (!cfg->path)
    return 0;
  if (nprt_pcap_in_open(&in->pcap, cfg->path, err, errlen) != 0)
    return -1;
  d->rx_end = nprt_pcap_in_end(&in->pcap);
  return 0;
}

/* Reads the next burst into d->rx: false when it ended before any record
 * (the end, or an error, reported once; then the end). */
static __attribute__((noinline)) bool
nprt_pcap_in_refill(nprt_device *d, nprt_pcap_in_dev *in,
                    nprt_dev_status *status) {
  uint32_t n = 0;
  if (in->st == NPRT_PCAP_OK)
    n = nprt_pcap_in_burst(&in->pcap, in->recs, NPRT_RX_BURST, &in->st, in->err,
                           sizeof(in->err));
  d->rx_next = 0;
  d->rx_n = n;
  if (n)
    return true;
  *status = nprt_pcap_dev_read_failed(d->host, &in->pcap, in->st, in->err);
  in->st = NPRT_PCAP_EOF; /* an error is reported once */
  return false;
}

/* The records of the burst not handed out stop counting as received. */
static void nprt_pcap_in_drop_pending(nprt_device *d, nprt_pcap_in *in) {
  uint64_t bytes;
  in->packets -= nprt_device_rx_pending(d, &bytes);
  in->bytes -= bytes;
  d->rx_next = d->rx_n = 0;
}

/* The executor copies a burst's records itself (nprt_device_rx_rec); it
 * calls this when the burst is used up, and for what it leaves to the
 * kind (a frame bigger than a buffer, an empty free list). */
static nprt_dev_status nprt_pcap_in_rx(nprt_device *d, nprt_pkt **pkts,
                                       uint32_t max, uint32_t *n) {
  nprt_pcap_in_dev *in = d->impl;
  nprt_pool *pool = d->host->pool;
  uint32_t k = 0;
  nprt_dev_status status = NPRT_DEV_OK;
  while (k < max) {
    if (d->rx_next == d->rx_n && !nprt_pcap_in_refill(d, in, &status))
      break;
    const nprt_pcap_rec *r = &d->rx[d->rx_next];
    nprt_pkt *p = nprt_pcap_rec_pkt(pool, d->id, r, d->rx_end);
    if (__builtin_expect(p == NULL, 0)) {
      /* The input ends here, as a failed read ends it. */
      nprt_pcap_in_drop_pending(d, &in->pcap);
      in->pcap.done = true;
      in->st = NPRT_PCAP_ERROR;
      snprintf(in->err, sizeof(in->err), "out of memory");
      if (!k) /* else the error shows at the next call */
        nprt_pcap_in_refill(d, in, &status);
      break;
    }
    ++d->rx_next;
    pkts[k++] = p;
  }
  *n = k;
  return k ? NPRT_DEV_OK : status;
}

int nprt_pcap_in_dev_close(nprt_device *d) {
  /* The burst's records point into the mapping. */
  nprt_pcap_in_drop_pending(d, d->impl);
  nprt_pcap_in_close(d->impl);
  return 0;
}

void nprt_pcap_in_stats(const nprt_device *d, nprt_dev_stats *s) {
  const nprt_pcap_in *in = d->impl;
  uint64_t bytes;
  uint32_t pending = nprt_device_rx_pending(d, &bytes);
  *s = (nprt_dev_stats){in->path, in->packets - pending, in->bytes - bytes};
}

bool nprt_pcap_in_format(const nprt_device *d, nprt_dev_config *fmt) {
  const nprt_pcap_in *in = d->impl;
  if (!in->pcap)
    return false;
  fmt->linktype = in->linktype;
  fmt->snaplen = in->snaplen;
  fmt->nano = in->nano;
  return true;
}

void nprt_pcap_dev_free(nprt_device *d) { free(d->impl); }

const nprt_device_ops nprt_pcap_in_ops =
    NPRT_PCAP_IN_OPS("pcap", nprt_pcap_in_dev_open, nprt_pcap_in_rx);

/*--- Output ----------------------------------------------------------------*/

static int nprt_pcap_out_dev_open(nprt_device *d, const nprt_dev_config *cfg,
                                  char *err, size_t errlen) {
  nprt_pcap_out *out = nprt_device_alloc(d, sizeof(*out), err, errlen);
  if (!out)
    return -1;
  out->fd = -1;
  if (!cfg->path)
    return 0;
  if (nprt_pcap_out_open(out, cfg->path, cfg->linktype, cfg->snaplen, cfg->nano,
                         err, errlen) != 0)
    return -1;
  out->cut = cfg->cut;
  return 0;
}

static __attribute__((noinline)) uint32_t nprt_pcap_out_tx_more(nprt_device *d,
                                                                nprt_pkt **pkts,
                                                                uint32_t n) {
  nprt_pcap_out *out = d->impl;
  nprt_pool *pool = d->host->pool;
  for (uint32_t i = 0; i < n; ++i) {
    if (nprt_pcap_out_write(out, pkts[i]) != 0)
      nprt_pcap_dev_write_failed(d->host, out);
    nprt_pool_free(pool, pkts[i]);
  }
  return n;
}

/* A new second for output `out`: where time stamp `ts` lies. */
static __attribute__((noinline)) void nprt_pcap_out_second(nprt_pcap_out *out,
                                                           int64_t ts) {
  /* Floor division: a time stamp before the epoch keeps 0 <= frac < 1 s. */
  int64_t sec = ts / 1000000000, ns = ts % 1000000000;
  if (ns < 0) {
    ns += 1000000000;
    --sec;
  }
  out->sec_ts = ts - ns;
  out->sec = (uint32_t)(uint64_t)sec;
}

/* The executor sends one packet at a time. The common record (a file that
 * has not failed, room in the buffer before the next write is due, a
 * frame of at most a cache line that is not cut, with a line of buffer
 * room from its start, of a buffer of this pool) calls nothing: its
 * header is made from the second of the last one, its bytes copied as the
 * whole line (the bytes past the record are overwritten by the next one
 * or never written), its buffer freed as nprt_pool_free would. The same
 * bytes as nprt_pcap_out_write's. */
static uint32_t nprt_pcap_out_tx(nprt_device *d, nprt_pkt **pkts, uint32_t n) {
  nprt_pcap_out *out = d->impl;
  nprt_pool *pool = d->host->pool;
  nprt_pkt *p = pkts[0];
  uint32_t len = p->len;
  size_t at = out->used;
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  if (__builtin_expect(n != 1 || out->error || !out->buf || len > 64u ||
                           p->tailroom + len < 64u ||
                           at + NPRT_PCAP_REC_HDR + 64u > out->limit ||
                           (out->cut && len > out->cut) ||
                           b->state != NPRT_BUF_LIVE || p->pool != pool,
                       0))
    return nprt_pcap_out_tx_more(d, pkts, n);
  uint64_t into = (uint64_t)p->ts - (uint64_t)out->sec_ts;
  if (__builtin_expect(into >= 1000000000u, 0)) {
    nprt_pcap_out_second(out, p->ts);
    into = (uint64_t)p->ts - (uint64_t)out->sec_ts;
  }
  uint32_t h[4];
  h[0] = out->sec;
  h[1] = (uint32_t)(out->nano ? into : into / 1000);
  h[2] = len;
  /* An unchanged capture keeps its wire length (snap-length cut). */
  h[3] = b->cap_len == len && b->wire_len > len ? b->wire_len : len;
  uint8_t line[64];
  memcpy(line, p->data, sizeof(line));
  /* Freed before the copy out: the buffer's fields are not reloaded. */
  b->state = NPRT_BUF_FREE;
  ++pool->freed;
  --pool->live;
  p->next = pool->free_list;
  pool->free_list = p;
  uint8_t *to = out->buf + at;
  memcpy(to, h, sizeof(h));
  memcpy(to + sizeof(h), line, sizeof(line));
  out->used = at + sizeof(h) + len;
  ++out->packets;
  out->bytes += len;
  return 1;
}

static int nprt_pcap_out_dev_close(nprt_device *d) {
  nprt_pcap_out *out = d->impl;
  char err[256];
  bool reported = out->error != 0;
  if (nprt_pcap_out_close(out, err, sizeof(err)) == 0)
    return 0;
  if (!reported)
    fprintf(d->host->opts->err, "%s: error: %s: %s\n", d->host->opts->prog,
            out->path, err);
  return -1;
}

static void nprt_pcap_out_stats(const nprt_device *d, nprt_dev_stats *s) {
  const nprt_pcap_out *out = d->impl;
  *s = (nprt_dev_stats){out->path, out->packets, out->bytes, out->unwritten};
}

const nprt_device_ops nprt_pcap_out_ops = {
    .kind = "pcap",
    .open = nprt_pcap_out_dev_open,
    .tx_burst = nprt_pcap_out_tx,
    .close = nprt_pcap_out_dev_close,
    .stats = nprt_pcap_out_stats,
    .free = nprt_pcap_dev_free,
};
