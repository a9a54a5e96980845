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
#include <string.h>

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
  /* The second of the last record written (a packet's time stamp split
   * into seconds and fraction without a division while the second lasts):
   * it began at `sec_ts` ns. Zero (second 0) is a valid start. */
  int64_t sec_ts;
  uint32_t sec;
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
/* Takes up to `max` records at once into `recs`, with nprt_pcap_in_next's
 * checks and messages, without making packets of them; they count as
 * read (`packets`, `bytes`; a caller that does not hand some out takes
 * them off again). Returns how many; *st says why
 * it stopped short of `max`: NPRT_PCAP_EOF, or NPRT_PCAP_ERROR with the
 * reason in `err` for the record after the last one returned (the device
 * counts as exhausted from then on). A mapped file's records stay valid
 * while `d` is open; an input read through libpcap gives one record at a
 * time (libpcap's buffer holds one). */
uint32_t nprt_pcap_in_burst(nprt_pcap_in *d, nprt_pcap_rec *recs, uint32_t max,
                            nprt_pcap_status *st, char *err, size_t errlen);
/* The end of what record bytes of `d` may be read up to: the end of its
 * mapping, 0 for an input read through libpcap. */
static inline uintptr_t nprt_pcap_in_end(const nprt_pcap_in *d) {
  return d->map ? (uintptr_t)(d->map + d->map_size) : 0;
}
/* Copies record `r` into a new packet of `pool` tagged with in_port
 * `dev`; NULL when memory is out. A record of at most a cache line whose
 * bytes lie at least that far before `end` (nprt_pcap_in_end) is copied
 * as a whole cache line: one fixed copy instead of a call to memcpy (the
 * bytes past the frame are buffer room nothing reads). Inline: every
 * packet of an input passes here. */
static inline nprt_pkt *nprt_pcap_rec_pkt(nprt_pool *pool, uint32_t dev,
                                          const nprt_pcap_rec *r,
                                          uintptr_t end) {
  nprt_pkt *p = nprt_pool_get(pool, r->caplen);
  if (__builtin_expect(p == NULL, 0))
    return NULL;
  /* The fields before the copy: the reset's stores to them fold away. */
  p->in_port = dev;
  p->ts = r->ts;
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  b->cap_len = r->caplen;
  b->wire_len = r->len;
  if (r->caplen <= 64u && end >= (uintptr_t)r->bytes + 64u)
    memcpy(p->data, r->bytes, 64u);
  else
    memcpy(p->data, r->bytes, r->caplen);
  return p;
}
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
/* The 16-byte record header nprt_pcap_out_write writes for `p`, cut to
 * `cut` bytes (0: none): pcap_dump's, 32-bit seconds and fraction,
 * captured and original length, in host byte order. */
static inline void nprt_pcap_rec_header(const nprt_pkt *p, bool nano,
                                        uint32_t cut, uint32_t h[4]) {
  const nprt_pkt_buf *b = nprt_pkt_to_cbuf(p);
  /* Floor division: a time stamp before the epoch keeps 0 <= frac < 1 s. */
  int64_t sec = p->ts / 1000000000, ns = p->ts % 1000000000;
  if (ns < 0) {
    ns += 1000000000;
    --sec;
  }
  h[0] = (uint32_t)(uint64_t)sec;
  h[1] = (uint32_t)(nano ? ns : ns / 1000);
  h[2] = cut && p->len > cut ? cut : p->len;
  /* An unchanged capture keeps its wire length (snap-length cut). */
  h[3] = b->cap_len == p->len && b->wire_len > p->len ? b->wire_len : p->len;
}
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
