/*===- devices.h - the devices of one executor ---------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The table of an executor's devices by number, inputs and outputs apart
 * (device.h). A device is made when --in or --out opens it or when the
 * program first uses it, of the kind the table's owner chose: pcap files
 * unless a multicore run makes each core's its share (core_dev.c). Kinds
 * that set themselves up (the PCIe slots) bind their devices with
 * nprt_devices_bind.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_DEVICES_H
#define NPRT_DEVICES_H

#include "runtime/nprt/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_devices {
  nprt_device *in, *out; /* by device number; ops NULL: not made */
  uint32_t n_in, n_out;
  nprt_dev_host host;
  /* The kinds devices are made of (pcap files by default), and what their
   * `open` finds in `impl` (nprt_device_ops.open). */
  const nprt_device_ops *in_kind, *out_kind;
  void *kind_ctx;
} nprt_devices;

/* An empty table whose devices ask `host`, made of pcap files. */
void nprt_devices_init(nprt_devices *t, const nprt_dev_host *host);
/* Input (output) device `dev`, made without a file on first use; NULL past
 * NPRT_MAX_DEVICES or when memory is exhausted. */
static inline nprt_device *nprt_devices_in(nprt_devices *t, uint32_t dev);
static inline nprt_device *nprt_devices_out(nprt_devices *t, uint32_t dev);
/* Their path for a device not made yet. */
nprt_device *nprt_devices_get(nprt_devices *t, uint32_t dev, bool output);
/* Makes `dev` a device of kind `ops` with state `impl` (already set up),
 * in place of any it was; NULL past NPRT_MAX_DEVICES or out of memory. */
nprt_device *nprt_devices_bind(nprt_devices *t, uint32_t dev, bool output,
                               const nprt_device_ops *ops, void *impl);
/* Opens the --in files, and with `outputs` the --out files (their headers
 * mirror the input of the same number, else the first); reports and
 * returns -1 on failure. */
int nprt_devices_open(nprt_devices *t, bool outputs);
/* Closes every device, flushing the outputs; -1 if an output lost data. */
int nprt_devices_close(nprt_devices *t);
/* Whether input `dev`, after it returned NPRT_DEV_AGAIN, may have more. */
bool nprt_devices_rx_ready(const nprt_devices *t, uint32_t dev);
/* Instance `name` ended: tells the output devices it was the sender of. */
void nprt_devices_sender_ended(nprt_devices *t, const char *name);
/* Frees every device (closed or not) and the table. */
void nprt_devices_free(nprt_devices *t);

/* The statistics of every input (output) device, by number, in a new
 * array of *n entries (NULL when there are none or memory is out). */
nprt_dev_stats *nprt_devices_stats(const nprt_devices *t, bool output,
                                   uint32_t *n);

/* Inline: every packet a handler receives or transmits looks its device
 * up. */
static inline nprt_device *nprt_devices_in(nprt_devices *t, uint32_t dev) {
  return dev < t->n_in && t->in[dev].ops ? &t->in[dev]
                                         : nprt_devices_get(t, dev, false);
}

static inline nprt_device *nprt_devices_out(nprt_devices *t, uint32_t dev) {
  return dev < t->n_out && t->out[dev].ops ? &t->out[dev]
                                           : nprt_devices_get(t, dev, true);
}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_DEVICES_H */
