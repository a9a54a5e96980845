/*===- pcap_io.c - pcap files as input and output devices -------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The time-stamp precision of an input is the one its magic number declares
 * (libpcap would otherwise convert to what the caller asks for), so the file
 * is opened by us, its magic peeked at, and handed to libpcap. Inputs may be
 * pipes and FIFOs.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/pcap_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
  NPRT_MAGIC_MICRO = (int)0xa1b2c3d4,
  NPRT_MAGIC_NANO = (int)0xa1b23c4d,
};

static uint32_t nprt_bswap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

int nprt_pcap_in_open(nprt_pcap_in *d, const char *path, char *err,
                      size_t errlen) {
  memset(d, 0, sizeof(*d));
  d->path = path;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s", strerror(errno));
    return -1;
  }
  uint32_t magic = 0;
  size_t got = fread(&magic, 1, sizeof(magic), f);
  if (got != sizeof(magic)) {
    snprintf(err, errlen, "%s",
             ferror(f) ? strerror(errno) : "not a pcap file (too short)");
    fclose(f);
    return -1;
  }
  d->nano = magic == (uint32_t)NPRT_MAGIC_NANO ||
            nprt_bswap32(magic) == (uint32_t)NPRT_MAGIC_NANO;
  /* A pipe or FIFO cannot seek back: push the magic back instead (glibc
   * keeps more than one pushed-back byte). */
  if (fseek(f, 0, SEEK_SET) != 0) {
    clearerr(f);
    const unsigned char *m = (const unsigned char *)&magic;
    for (int i = (int)sizeof(magic) - 1; i >= 0; --i)
      if (ungetc(m[i], f) == EOF) {
        snprintf(err, errlen, "cannot re-read the file header");
        fclose(f);
        return -1;
      }
  }
  char pcap_err[PCAP_ERRBUF_SIZE] = "";
  d->pcap = pcap_fopen_offline_with_tstamp_precision(
      f, d->nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO,
      pcap_err);
  if (!d->pcap) {
    /* libpcap says "unknown file format" for a bad magic number. */
    if (strstr(pcap_err, "unknown file format"))
      snprintf(err, errlen, "not a pcap file (%s)", pcap_err);
    else
      snprintf(err, errlen, "%s", pcap_err);
    fclose(f);
    return -1;
  }
  d->linktype = pcap_datalink(d->pcap);
  d->snaplen = pcap_snapshot(d->pcap);
  return 0;
}

nprt_pcap_status nprt_pcap_in_next(nprt_pcap_in *d, nprt_pool *pool,
                                   uint32_t dev, nprt_pkt **out, char *err,
                                   size_t errlen) {
  *out = NULL;
  if (d->done || !d->pcap)
    return NPRT_PCAP_EOF;
  struct pcap_pkthdr *h;
  const u_char *bytes;
  int rc = pcap_next_ex(d->pcap, &h, &bytes);
  if (rc == PCAP_ERROR_BREAK) {
    d->done = true;
    return NPRT_PCAP_EOF;
  }
  if (rc != 1) {
    d->done = true;
    snprintf(err, errlen, "%s", pcap_geterr(d->pcap));
    return NPRT_PCAP_ERROR;
  }
  nprt_pkt *p = nprt_pool_alloc(pool, h->caplen);
  if (!p) {
    d->done = true;
    snprintf(err, errlen, "out of memory");
    return NPRT_PCAP_ERROR;
  }
  memcpy(p->data, bytes, h->caplen);
  p->in_port = dev;
  p->ts = (int64_t)h->ts.tv_sec * 1000000000 +
          (int64_t)h->ts.tv_usec * (d->nano ? 1 : 1000);
  nprt_pkt_buf *b = nprt_pkt_to_buf(p);
  b->cap_len = h->caplen;
  b->wire_len = h->len;
  ++d->packets;
  d->bytes += h->caplen;
  *out = p;
  return NPRT_PCAP_OK;
}

void nprt_pcap_in_close(nprt_pcap_in *d) {
  if (d->pcap)
    pcap_close(d->pcap);
  d->pcap = NULL;
}

int nprt_pcap_out_open(nprt_pcap_out *d, const char *path, int linktype,
                       int snaplen, bool nano, char *err, size_t errlen) {
  d->path = path;
  d->nano = nano;
  d->cut = 0;
  d->error = 0;
  d->dead = pcap_open_dead_with_tstamp_precision(
      linktype, snaplen,
      nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
  if (!d->dead) {
    snprintf(err, errlen, "cannot create a pcap handle");
    return -1;
  }
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errlen, "%s", strerror(errno));
    pcap_close(d->dead);
    d->dead = NULL;
    return -1;
  }
  d->dumper = pcap_dump_fopen(d->dead, f);
  if (!d->dumper) {
    snprintf(err, errlen, "%s", pcap_geterr(d->dead));
    fclose(f);
    pcap_close(d->dead);
    d->dead = NULL;
    return -1;
  }
  d->file = f;
  /* The file header is still in the stream's buffer: push it out now so
   * that a device that cannot take it fails before the run. */
  if (pcap_dump_flush(d->dumper) != 0 || ferror(f)) {
    snprintf(err, errlen, "%s", strerror(errno));
    fclose(f);
    pcap_close(d->dead);
    d->dumper = NULL;
    d->dead = NULL;
    d->file = NULL;
    return -1;
  }
  return 0;
}

int nprt_pcap_out_write(nprt_pcap_out *d, const nprt_pkt *p) {
  ++d->packets;
  d->bytes += p->len;
  if (!d->dumper || d->error)
    return 0;
  const nprt_pkt_buf *b = nprt_pkt_to_cbuf(p);
  struct pcap_pkthdr h;
  /* Floor division: a time stamp before the epoch keeps 0 <= frac < 1 s. */
  int64_t sec = p->ts / 1000000000, ns = p->ts % 1000000000;
  if (ns < 0) {
    ns += 1000000000;
    --sec;
  }
  h.ts.tv_sec = (time_t)sec;
  h.ts.tv_usec = (suseconds_t)(d->nano ? ns : ns / 1000);
  h.caplen = d->cut && p->len > d->cut ? d->cut : p->len;
  /* An unchanged capture keeps its wire length (snap-length cut). */
  h.len = b->cap_len == p->len && b->wire_len > p->len ? b->wire_len : p->len;
  /* pcap_dump reports nothing: a failed write shows in the stream's error
   * flag (a flag test, no system call). */
  errno = 0;
  pcap_dump((u_char *)d->dumper, &h, p->data);
  if (!ferror(d->file))
    return 0;
  d->error = errno ? errno : EIO;
  return -1;
}

/* After a failed write the file may end in part of a record. Cuts a regular
 * file back to its last complete record, so that what is on disk is a valid
 * capture of the packets before the failure. Returns the bytes kept, or -1
 * when the file is not a regular file or cannot be read back. */
static long long nprt_pcap_trim(FILE *f, const char *path) {
  int fd = fileno(f);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return -1;
  /* The stream is write-only: read the records back through the path. */
  int rd = open(path, O_RDONLY);
  if (rd < 0)
    return -1;
  off_t size = st.st_size, end = 0;
  if (size >= 24) {
    end = 24; /* the file header */
    unsigned char h[16];
    while (end + 16 <= size && pread(rd, h, 16, end) == 16) {
      uint32_t caplen;
      memcpy(&caplen, h + 8, 4); /* written in host order by pcap_dump */
      if (end + 16 + (off_t)caplen > size)
        break;
      end += 16 + (off_t)caplen;
    }
  }
  close(rd);
  return ftruncate(fd, end) == 0 ? (long long)end : -1;
}

int nprt_pcap_out_close(nprt_pcap_out *d, char *err, size_t errlen) {
  int error = d->error;
  if (d->dumper) {
    errno = 0;
    if ((pcap_dump_flush(d->dumper) != 0 || ferror(d->file)) && !error)
      error = errno ? errno : EIO;
    if (error) {
      /* What stdio still buffers cannot be written; dropping it keeps the
       * final close from appending it after the cut. */
      __fpurge(d->file);
      nprt_pcap_trim(d->file, d->path);
    }
    /* pcap_dump_close is fclose() with its result thrown away; close the
     * stream ourselves so that an error of the final close is seen too. */
    errno = 0;
    if (fclose(d->file) != 0 && !error)
      error = errno ? errno : EIO;
  }
  if (d->dead)
    pcap_close(d->dead);
  d->dumper = NULL;
  d->dead = NULL;
  d->file = NULL;
  if (!error)
    return 0;
  d->error = error;
  snprintf(err, errlen, "cannot write: %s", strerror(error));
  return -1;
}

bool nprt_is_char_device(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

bool nprt_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
    return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
         !S_ISCHR(sa.st_mode);
}
