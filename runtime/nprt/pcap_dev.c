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

static int nprt_pcap_in_dev_open(nprt_device *d, const nprt_dev_config *cfg,
                                 char *err, size_t errlen) {
  nprt_pcap_in *in = nprt_device_alloc(d, sizeof(*in), err, errlen);
  if (!in)
    return -1;
  return cfg->path ? nprt_pcap_in_open(in, cfg->path, err, errlen) : 0;
}

static nprt_dev_status nprt_pcap_in_rx(nprt_device *d, nprt_pkt **pkts,
                                       uint32_t max, uint32_t *n) {
  nprt_pcap_in *in = d->impl;
  const nprt_dev_host *h = d->host;
  char err[PCAP_ERRBUF_SIZE + 64];
  *n = 0;
  while (*n < max) {
    nprt_pcap_status st =
        nprt_pcap_in_next(in, h->pool, d->id, &pkts[*n], err, sizeof(err));
    if (st == NPRT_PCAP_OK) {
      ++*n;
      continue;
    }
    if (*n)
      break; /* the end shows at the next call */
    return nprt_pcap_dev_read_failed(h, in, st, err);
  }
  return NPRT_DEV_OK;
}

int nprt_pcap_in_dev_close(nprt_device *d) {
  nprt_pcap_in_close(d->impl);
  return 0;
}

void nprt_pcap_in_stats(const nprt_device *d, nprt_dev_stats *s) {
  const nprt_pcap_in *in = d->impl;
  *s = (nprt_dev_stats){in->path, in->packets, in->bytes};
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

static uint32_t nprt_pcap_out_tx(nprt_device *d, nprt_pkt **pkts, uint32_t n) {
  nprt_pcap_out *out = d->impl;
  for (uint32_t i = 0; i < n; ++i) {
    if (nprt_pcap_out_write(out, pkts[i]) != 0)
      nprt_pcap_dev_write_failed(d->host, out);
    nprt_pool_free(d->host->pool, pkts[i]);
  }
  return n;
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
