/*===- devices.c - the devices of one executor ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/devices.h"

#include "runtime/nprt/pcap_dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nprt_devices_init(nprt_devices *t, const nprt_dev_host *host) {
  memset(t, 0, sizeof(*t));
  t->host = *host;
  t->in_kind = &nprt_pcap_in_ops;
  t->out_kind = &nprt_pcap_out_ops;
}

/* Entry `dev` of one side's array, growing it (new entries not made). */
static nprt_device *nprt_devices_slot(nprt_devices *t, uint32_t dev,
                                      bool output) {
  nprt_device **v = output ? &t->out : &t->in;
  uint32_t *n = output ? &t->n_out : &t->n_in;
  if (dev >= NPRT_MAX_DEVICES)
    return NULL;
  if (dev >= *n) {
    nprt_device *grown = realloc(*v, (dev + 1) * sizeof(**v));
    if (!grown)
      return NULL;
    memset(grown + *n, 0, (dev + 1 - *n) * sizeof(**v));
    for (uint32_t i = *n; i <= dev; ++i) {
      grown[i].id = i;
      grown[i].output = output;
    }
    *v = grown;
    *n = dev + 1;
  }
  return &(*v)[dev];
}

static void nprt_device_release(nprt_device *d) {
  if (d->ops && d->ops->free)
    d->ops->free(d);
  d->ops = NULL;
  d->impl = NULL;
  d->sender = NULL;
  d->rx = NULL;
  d->rx_next = d->rx_n = 0;
  d->rx_end = 0;
}

/* Makes `d` of the table's kind, opened as `cfg` says. */
static int nprt_devices_make(nprt_devices *t, nprt_device *d,
                             const nprt_dev_config *cfg, char *err,
                             size_t errlen) {
  nprt_device_release(d);
  d->ops = d->output ? t->out_kind : t->in_kind;
  d->impl = t->kind_ctx;
  d->host = &t->host;
  int rc = d->ops->open(d, cfg, err, errlen);
  if (rc != 0 && d->impl == t->kind_ctx) { /* failed before making state */
    d->ops = NULL;
    d->impl = NULL;
  }
  return rc;
}

nprt_device *nprt_devices_get(nprt_devices *t, uint32_t dev, bool output) {
  nprt_device *d = nprt_devices_slot(t, dev, output);
  if (!d || d->ops)
    return d;
  nprt_dev_config none = {0};
  char err[64];
  return nprt_devices_make(t, d, &none, err, sizeof(err)) == 0 ? d : NULL;
}

nprt_device *nprt_devices_bind(nprt_devices *t, uint32_t dev, bool output,
                               const nprt_device_ops *ops, void *impl) {
  nprt_device *d = nprt_devices_slot(t, dev, output);
  if (!d)
    return NULL;
  nprt_device_release(d);
  d->ops = ops;
  d->impl = impl;
  d->host = &t->host;
  return d;
}

/* The format of input `dev`, into `fmt`; false if it has none. */
static bool nprt_devices_format(const nprt_devices *t, uint32_t dev,
                                nprt_dev_config *fmt) {
  const nprt_device *d = dev < t->n_in ? &t->in[dev] : NULL;
  return d && d->ops && d->ops->format && d->ops->format(d, fmt);
}

int nprt_devices_open(nprt_devices *t, bool outputs) {
  const nprt_options *o = t->host.opts;
  char err[PCAP_ERRBUF_SIZE + 64];
  for (uint32_t i = 0; i < o->n_ins; ++i) {
    nprt_device *d = nprt_devices_slot(t, o->ins[i].dev, false);
    nprt_dev_config cfg = {.path = o->ins[i].path};
    if (!d || nprt_devices_make(t, d, &cfg, err, sizeof(err)) != 0) {
      fprintf(o->err, "%s: error: %s: %s\n", o->prog, o->ins[i].path,
              d ? err : "out of memory");
      return -1;
    }
  }
  for (uint32_t i = 0; outputs && i < o->n_outs; ++i) {
    uint32_t dev = o->outs[i].dev;
    /* The header mirrors the input of the same number, else the first;
     * a link type the program gives (ToDump's ENCAP) wins. */
    nprt_dev_config src = {0};
    bool has =
        nprt_devices_format(t, dev, &src) || nprt_devices_format(t, 0, &src);
    nprt_dev_config cfg = {
        .path = o->outs[i].path,
        .linktype = o->outs[i].link_type ? (int)o->outs[i].link_type
                    : has                ? src.linktype
                                         : DLT_EN10MB,
        .snaplen = o->outs[i].snaplen ? (int)o->outs[i].snaplen
                   : has              ? src.snaplen
                                      : 65535,
        .nano = has ? src.nano : false,
        .cut = o->outs[i].snaplen,
    };
    nprt_device *d = nprt_devices_slot(t, dev, true);
    if (d) {
      /* Outputs are files even on a core whose outputs are its share. */
      nprt_device_release(d);
      d->ops = &nprt_pcap_out_ops;
      d->host = &t->host;
    }
    if (!d || d->ops->open(d, &cfg, err, sizeof(err)) != 0) {
      fprintf(o->err, "%s: error: %s: %s\n", o->prog, o->outs[i].path,
              d ? err : "out of memory");
      return -1;
    }
  }
  return 0;
}

int nprt_devices_close(nprt_devices *t) {
  int rc = 0;
  for (uint32_t i = 0; i < t->n_in; ++i)
    if (t->in[i].ops && t->in[i].ops->close)
      t->in[i].ops->close(&t->in[i]);
  for (uint32_t i = 0; i < t->n_out; ++i)
    if (t->out[i].ops && t->out[i].ops->close &&
        t->out[i].ops->close(&t->out[i]) != 0)
      rc = -1;
  return rc;
}

bool nprt_devices_rx_ready(const nprt_devices *t, uint32_t dev) {
  const nprt_device *d = dev < t->n_in ? &t->in[dev] : NULL;
  return !d || !d->ops || !d->ops->rx_ready || d->ops->rx_ready(d);
}

void nprt_devices_sender_ended(nprt_devices *t, const char *name) {
  for (uint32_t i = 0; i < t->n_out; ++i) {
    nprt_device *d = &t->out[i];
    if (d->ops && d->ops->tx_end && d->sender && strcmp(d->sender, name) == 0)
      d->ops->tx_end(d);
  }
}

void nprt_devices_free(nprt_devices *t) {
  for (uint32_t i = 0; i < t->n_in; ++i)
    nprt_device_release(&t->in[i]);
  for (uint32_t i = 0; i < t->n_out; ++i)
    nprt_device_release(&t->out[i]);
  free(t->in);
  free(t->out);
  t->in = t->out = NULL;
  t->n_in = t->n_out = 0;
}

nprt_dev_stats *nprt_devices_stats(const nprt_devices *t, bool output,
                                   uint32_t *n) {
  const nprt_device *v = output ? t->out : t->in;
  /* Up to the last device with statistics: the others list nothing. */
  *n = output ? t->n_out : t->n_in;
  while (*n && !(v[*n - 1].ops && v[*n - 1].ops->stats))
    --*n;
  nprt_dev_stats *s = *n ? calloc(*n, sizeof(*s)) : NULL;
  if (!s)
    *n = 0;
  for (uint32_t i = 0; i < *n; ++i)
    nprt_device_stats(&v[i], &s[i]);
  return s;
}
