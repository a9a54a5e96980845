/*===- pcap_io.h - pcap files as input and output devices -------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Input device N reads one pcap file, output device N writes one. An output
 * file copies link type, snap length and time-stamp precision from input
 * device N (else input 0, else Ethernet/65535/microseconds), and each packet
 * keeps its capture time stamp and original wire length, so a passthrough
 * graph writes a file byte-identical to its input.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PCAP_IO_H
#define NPRT_PCAP_IO_H

#include "runtime/nprt/pool.h"

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_pcap_in {
  const char *path; /* NULL: no --in for this device */
  pcap_t *pcap;
  int linktype;
  int snaplen;
  bool nano;
  bool done; /* end of input or read error seen */
  uint64_t packets, bytes;
} nprt_pcap_in;

typedef struct nprt_pcap_out {
  const char *path; /* NULL: packets are counted and discarded */
  pcap_t *dead;
  pcap_dumper_t *dumper;
  FILE *file; /* the dumper's stream */
  bool nano;
  uint32_t cut; /* records keep at most this many bytes; 0: all */
  int error; /* errno of the first failed write, 0 while none failed */
  uint64_t packets, bytes;
} nprt_pcap_out;

typedef enum nprt_pcap_status {
  NPRT_PCAP_OK,
  NPRT_PCAP_EOF,
  NPRT_PCAP_ERROR,
} nprt_pcap_status;

/* Opens `path`; on failure writes "<reason>" to `err` and returns -1. */
int nprt_pcap_in_open(nprt_pcap_in *d, const char *path, char *err,
                      size_t errlen);
/* Reads the next packet into a buffer of `pool`, tagging it with in_port
 * `dev`. NPRT_PCAP_ERROR (reason in `err`) for a truncated or unreadable
 * record; the device then counts as exhausted. */
nprt_pcap_status nprt_pcap_in_next(nprt_pcap_in *d, nprt_pool *pool,
                                   uint32_t dev, nprt_pkt **out, char *err,
                                   size_t errlen);
void nprt_pcap_in_close(nprt_pcap_in *d);

/* Creates `path` with the given file header parameters; -1 and `err` on
 * failure. */
int nprt_pcap_out_open(nprt_pcap_out *d, const char *path, int linktype,
                       int snaplen, bool nano, char *err, size_t errlen);
/* Writes `p` (if the device has a file) and counts it. Does not free.
 * Returns -1 when this write made the file fail (d->error is set); later
 * packets are counted but not written, and return 0. */
int nprt_pcap_out_write(nprt_pcap_out *d, const nprt_pkt *p);
/* Flushes and closes, checking the flush and the close; -1 and `err` if any
 * data could not be written (now or by an earlier write). */
int nprt_pcap_out_close(nprt_pcap_out *d, char *err, size_t errlen);

/* True when `a` and `b` name the same existing file (same device and inode,
 * through links). Character devices such as /dev/null never count. */
bool nprt_same_file(const char *a, const char *b);
/* True when `path` exists and is a character device. */
bool nprt_is_char_device(const char *path);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_PCAP_IO_H */
