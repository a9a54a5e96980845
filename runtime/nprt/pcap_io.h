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
 * libpcap checks every input's file header. A regular file in the classic
 * format (either time-stamp precision, either byte order, version 2.4) is
 * then mapped whole and its records parsed in place, with libpcap's checks
 * and messages; other inputs (pipes, pcapng, older versions) are read
 * through libpcap. Outputs go through a user-space buffer written with one
 * write() per NPRT_PCAP_OUT_BUF bytes.
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

/* Bytes an output buffers before it writes them (and a pipe input reads
 * at once). */
#define NPRT_PCAP_OUT_BUF (256u * 1024u)
/* What an output's first write takes; each later one doubles, up to
 * NPRT_PCAP_OUT_BUF (pcap_io.c). */
#define NPRT_PCAP_OUT_FIRST 4096u
/* A record header in a classic pcap file. */
#define NPRT_PCAP_REC_HDR 16u

/* One record of an input, as it is in the file (or in libpcap's buffer):
 * valid until the device moves past it. */
typedef struct nprt_pcap_rec {
  const uint8_t *bytes;
  uint32_t caplen, len;
  int64_t ts; /* nanoseconds */
} nprt_pcap_rec;

typedef struct nprt_pcap_in {
  const char *path; /* NULL: no --in for this device */
  pcap_t *pcap;     /* checked the file header; reads when `map` is NULL */
  int linktype;
  int snaplen;
  bool nano;
  bool done; /* end of input or read error seen */
  /* The mapped file: records start at `off` (a classic capture only). */
  const uint8_t *map;
  size_t map_size, off;
  bool swapped;   /* the file's byte order is not the host's */
  bool map_owned; /* unmapped by close (else another device's mapping) */
  bool pending;   /* `rec` was peeked and not yet passed */
  nprt_pcap_rec rec;
  uint64_t packets, bytes;
} nprt_pcap_in;

typedef struct nprt_pcap_out {
  const char *path; /* NULL: packets are counted and discarded */
  int fd;
  uint8_t *buf; /* NPRT_PCAP_OUT_BUF bytes; NULL: no file */
  size_t used;
  size_t limit; /* bytes buffered before the next write */
  bool nano;
  uint32_t cut; /* records keep at most this many bytes; 0: all */
  int error;    /* errno of the first failed write, 0 while none failed */
  uint64_t packets, bytes; /* handed over (and, once closed, in the file) */
  /* Packets lost to a failed write: handed over after it, or cut off with
   * the torn end of the file when it closed. */
  uint64_t unwritten;
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
/* The next record without taking it (d->rec): the same results as
 * nprt_pcap_in_next, which then takes it; nprt_pcap_in_pass passes over it
 * (the device counts only the packets it hands out). */
nprt_pcap_status nprt_pcap_in_peek(nprt_pcap_in *d, char *err, size_t errlen);
static inline void nprt_pcap_in_pass(nprt_pcap_in *d) { d->pending = false; }
/* Makes `d` (opened on the same file as `from`) read `from`'s mapping, if
 * it has one, instead of its own: one mapping for the cores of a run.
 * `from` must stay open while `d` is. */
void nprt_pcap_in_share(nprt_pcap_in *d, const nprt_pcap_in *from);
void nprt_pcap_in_close(nprt_pcap_in *d);

/* Creates `path` with the given file header parameters; -1 and `err` on
 * failure. */
int nprt_pcap_out_open(nprt_pcap_out *d, const char *path, int linktype,
                       int snaplen, bool nano, char *err, size_t errlen);
/* Writes `p` (if the device has a file) and counts it. Does not free.
 * Returns -1 when this write made the file fail (d->error is set); later
 * packets are counted but not written, and return 0. Records are buffered:
 * a failure shows when the buffer is written. */
int nprt_pcap_out_write(nprt_pcap_out *d, const nprt_pkt *p);
/* The record nprt_pcap_out_write would write for `p`, into `to` (room for
 * NPRT_PCAP_REC_HDR + p->len bytes); returns its size. */
size_t nprt_pcap_out_record(const nprt_pcap_out *d, const nprt_pkt *p,
                            uint8_t *to);
/* Appends `n` bytes of whole records (made by nprt_pcap_out_record) that
 * hold `packets` packets of `bytes` frame bytes, after what is buffered:
 * how the cores of a run share an output. -1 as nprt_pcap_out_write. */
int nprt_pcap_out_append(nprt_pcap_out *d, const uint8_t *data, size_t n,
                         uint64_t packets, uint64_t bytes);
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
