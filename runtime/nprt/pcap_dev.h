/*===- pcap_dev.h - pcap files as devices --------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The first kind of device (device.h): an input reads a pcap file
 * (pcap_io.h), an output writes one; a device without --in reads as
 * ended, one without --out counts what it is sent and discards it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PCAP_DEV_H
#define NPRT_PCAP_DEV_H

#include "runtime/nprt/device.h"
#include "runtime/nprt/pcap_io.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const nprt_device_ops nprt_pcap_in_ops;
extern const nprt_device_ops nprt_pcap_out_ops;

/* The file behind a pcap device, or NULL for a device of another kind or
 * one not opened. */
nprt_pcap_in *nprt_pcap_dev_in(const nprt_device *d);
nprt_pcap_out *nprt_pcap_dev_out(const nprt_device *d);

/* Reports a failed write of output `o` ("PROG: error: PATH: cannot write:
 * REASON") and fails the run, stopping ingress. */
void nprt_pcap_dev_write_failed(const nprt_dev_host *host,
                                const nprt_pcap_out *o);

/* A read of `in` ended with `st` (not OK): NPRT_DEV_END at its end or
 * after a stop signal, else reports `err` and fails the run
 * (NPRT_DEV_ERROR). */
nprt_dev_status nprt_pcap_dev_read_failed(const nprt_dev_host *h,
                                          const nprt_pcap_in *in,
                                          nprt_pcap_status st, const char *err);

/* The input operations, for kinds whose state (`impl`) starts with the
 * nprt_pcap_in they read (a core's share, core_dev.c). */
int nprt_pcap_in_dev_close(nprt_device *d);
void nprt_pcap_in_stats(const nprt_device *d, nprt_dev_stats *s);
bool nprt_pcap_in_format(const nprt_device *d, nprt_dev_config *fmt);
void nprt_pcap_dev_free(nprt_device *d);
/* The operations table of such a kind. */
#define NPRT_PCAP_IN_OPS(KIND, OPEN, RX)                                       \
  {.kind = KIND,                                                               \
   .open = OPEN,                                                               \
   .rx_burst = RX,                                                             \
   .close = nprt_pcap_in_dev_close,                                            \
   .stats = nprt_pcap_in_stats,                                                \
   .format = nprt_pcap_in_format,                                              \
   .free = nprt_pcap_dev_free}

#ifdef __cplusplus
}
#endif

#endif /* NPRT_PCAP_DEV_H */
