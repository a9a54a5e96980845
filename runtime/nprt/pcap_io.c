/*===- pcap_io.c - pcap files as input and output devices -------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The time-stamp precision of an input is the one its magic number declares
 * (libpcap would otherwise convert to what the caller asks for), so the file
 * is opened by us, its magic peeked at, and handed to libpcap, which checks
 * the file header. Inputs may be pipes and FIFOs; those, and files that are
 * not classic pcap version 2.4, are then read through libpcap. A classic
 * regular file is mapped and its records are parsed where they lie, with
 * libpcap's checks and messages (sf-pcap.c), so the cores of a run can share
 * one mapping and look at a record before deciding to copy it.
 *
 * Outputs are written as pcap_dump writes them (its file header, then
 * records in host byte order), through a buffer of NPRT_PCAP_OUT_BUF bytes.
 * The first write takes NPRT_PCAP_OUT_FIRST bytes and each one after a
 * success twice the last: a file that fills up is found full after at most
 * as many bytes again as it took, as stdio's small buffer would find it
 * early, while a long run writes whole buffers.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/pcap_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
  NPRT_MAGIC_MICRO = (int)0xa1b2c3d4,
  NPRT_MAGIC_NANO = (int)0xa1b23c4d,
};

static uint32_t nprt_bswap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint32_t nprt_load32(const uint8_t *p, bool swapped) {
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return swapped ? nprt_bswap32(v) : v;
}

/* The largest record libpcap reads for a link type (max_snaplen_for_dlt). */
static uint32_t nprt_max_caplen(int linktype) {
  switch (linktype) {
  case 231: /* DLT_DBUS */
    return 128u * 1024 * 1024;
  case 279: /* DLT_EBHSCR */
    return 8u * 1024 * 1024;
  case 249: /* DLT_USBPCAP */
    return 1024u * 1024;
  default:
    return 262144u;
  }
}

/* Maps `f` when it is a regular file in the classic format, version 2.4:
 * the records are then read from the mapping. Anything else stays with
 * libpcap, which has already checked the file header. */
static void nprt_pcap_in_map(nprt_pcap_in *d, FILE *f, uint32_t magic) {
  bool swapped = nprt_bswap32(magic) == (uint32_t)NPRT_MAGIC_MICRO ||
                 nprt_bswap32(magic) == (uint32_t)NPRT_MAGIC_NANO;
  if (!swapped && magic != (uint32_t)NPRT_MAGIC_MICRO &&
      magic != (uint32_t)NPRT_MAGIC_NANO)
    return;
  struct stat st;
  int fd = fileno(f);
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size < 24 || (uint64_t)st.st_size > SIZE_MAX)
    return;
  size_t size = (size_t)st.st_size;
  void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    return;
  const uint8_t *m = map;
  /* Two 16-bit fields, major then minor, in the file's byte order. */
  uint16_t major, minor;
  memcpy(&major, m + 4, 2);
  memcpy(&minor, m + 6, 2);
  if (swapped) {
    major = (uint16_t)(major >> 8 | major << 8);
    minor = (uint16_t)(minor >> 8 | minor << 8);
  }
  if (major != 2 || minor != 4) {
    munmap(map, size);
    return;
  }
  madvise(map, size, MADV_SEQUENTIAL);
  d->map = m;
  d->map_size = size;
  d->off = 24;
  d->swapped = swapped;
  d->map_owned = true;
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
  /* A pipe or a device is read through libpcap: in large reads (each
   * returns what is there, so a FIFO's packets still go on at once). */
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode))
    setvbuf(f, NULL, _IOFBF, NPRT_PCAP_OUT_BUF);
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
  nprt_pcap_in_map(d, f, magic);
  return 0;
}

/* The next record of a mapped file, checked as libpcap's pcap_next_packet
 * checks it, with its messages. */
static nprt_pcap_status nprt_pcap_map_peek(nprt_pcap_in *d, char *err,
                                           size_t errlen) {
  size_t left = d->map_size - d->off;
  if (left == 0) {
    d->done = true;
    return NPRT_PCAP_EOF;
  }
  d->done = true; /* unless the record is good */
  if (left < NPRT_PCAP_REC_HDR) {
    snprintf(err, errlen,
             "truncated dump file; tried to read %u header bytes, only got "
             "%zu",
             NPRT_PCAP_REC_HDR, left);
    return NPRT_PCAP_ERROR;
  }
  const uint8_t *h = d->map + d->off;
  /* As libpcap reads them: signed in the host's byte order, unsigned once
   * swapped. */
  uint32_t usec = nprt_load32(h, d->swapped);
  uint32_t ufrac = nprt_load32(h + 4, d->swapped);
  int64_t sec = d->swapped ? (int64_t)usec : (int64_t)(int32_t)usec;
  int64_t frac = d->swapped ? (int64_t)ufrac : (int64_t)(int32_t)ufrac;
  uint32_t caplen = nprt_load32(h + 8, d->swapped);
  uint32_t len = nprt_load32(h + 12, d->swapped);
  uint32_t max = nprt_max_caplen(d->linktype);
  if (caplen > max) {
    if (caplen > (uint32_t)d->snaplen)
      snprintf(err, errlen,
               "invalid packet capture length %u, bigger than snaplen of %d",
               caplen, d->snaplen);
    else
      snprintf(err, errlen,
               "invalid packet capture length %u, bigger than maximum of %u",
               caplen, max);
    return NPRT_PCAP_ERROR;
  }
  left -= NPRT_PCAP_REC_HDR;
  if (left < caplen) {
    /* A record over the snap length: libpcap reads the snap length first,
     * then passes over the rest. */
    uint32_t want = caplen > (uint32_t)d->snaplen && left < (size_t)d->snaplen
                        ? (uint32_t)d->snaplen
                        : caplen;
    snprintf(err, errlen,
             "truncated dump file; tried to read %u captured bytes, only got "
             "%zu",
             want, left);
    return NPRT_PCAP_ERROR;
  }
  d->done = false;
  d->off += NPRT_PCAP_REC_HDR + (size_t)caplen;
  /* libpcap keeps the first snap-length bytes of a longer record. */
  d->rec.bytes = h + NPRT_PCAP_REC_HDR;
  d->rec.caplen = caplen > (uint32_t)d->snaplen ? (uint32_t)d->snaplen : caplen;
  d->rec.len = len;
  d->rec.ts = (int64_t)sec * 1000000000 + (int64_t)frac * (d->nano ? 1 : 1000);
  d->pending = true;
  return NPRT_PCAP_OK;
}

/* The record at d->off when it is whole and needs no cut (every record of
 * a well-formed file in the host's byte order): no copy of its header. */
static inline bool nprt_pcap_map_fast(nprt_pcap_in *d, nprt_pcap_rec *r) {
  size_t left = d->map_size - d->off;
  if (d->swapped || d->pending || d->done || left < NPRT_PCAP_REC_HDR)
    return false;
  const uint8_t *h = d->map + d->off;
  uint32_t v[4];
  memcpy(v, h, sizeof(v));
  /* The snap length is at most what libpcap allows for the link type. */
  if (v[2] > (uint32_t)d->snaplen || left - NPRT_PCAP_REC_HDR < v[2])
    return false;
  d->off += NPRT_PCAP_REC_HDR + (size_t)v[2];
  r->bytes = h + NPRT_PCAP_REC_HDR;
  r->caplen = v[2];
  r->len = v[3];
  r->ts = (int64_t)(int32_t)v[0] * 1000000000 +
          (int64_t)(int32_t)v[1] * (d->nano ? 1 : 1000);
  return true;
}

nprt_pcap_status nprt_pcap_in_peek(nprt_pcap_in *d, char *err, size_t errlen) {
  if (d->pending)
    return NPRT_PCAP_OK;
  if (d->done || !d->pcap)
    return NPRT_PCAP_EOF;
  if (d->map) {
    if (!nprt_pcap_map_fast(d, &d->rec))
      return nprt_pcap_map_peek(d, err, errlen);
    d->pending = true;
    return NPRT_PCAP_OK;
  }
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
  d->rec.bytes = bytes;
  d->rec.caplen = h->caplen;
  d->rec.len = h->len;
  d->rec.ts = (int64_t)h->ts.tv_sec * 1000000000 +
              (int64_t)h->ts.tv_usec * (d->nano ? 1 : 1000);
  d->pending = true;
  return NPRT_PCAP_OK;
}

nprt_pcap_status nprt_pcap_in_next(nprt_pcap_in *d, nprt_pool *pool,
                                   uint32_t dev, nprt_pkt **out, char *err,
                                   size_t errlen) {
  *out = NULL;
  nprt_pcap_rec fast;
  const nprt_pcap_rec *r = &fast;
  if (!d->map || !nprt_pcap_map_fast(d, &fast)) {
    nprt_pcap_status st = nprt_pcap_in_peek(d, err, errlen);
    if (st != NPRT_PCAP_OK)
      return st;
    d->pending = false;
    r = &d->rec;
  }
  nprt_pkt *p = nprt_pcap_rec_pkt(pool, dev, r, nprt_pcap_in_end(d));
  if (!p) {
    d->done = true;
    snprintf(err, errlen, "out of memory");
    return NPRT_PCAP_ERROR;
  }
  ++d->packets;
  d->bytes += r->caplen;
  *out = p;
  return NPRT_PCAP_OK;
}

uint32_t nprt_pcap_in_burst(nprt_pcap_in *d, nprt_pcap_rec *recs, uint32_t max,
                            nprt_pcap_status *st, char *err, size_t errlen) {
  uint32_t n = 0;
  *st = NPRT_PCAP_OK;
  if (d->map && !d->swapped && !d->pending && !d->done) {
    /* A well-formed file in the host's byte order: the records checked
     * as nprt_pcap_map_fast checks them, in one loop. */
    const uint8_t *at = d->map + d->off, *end = d->map + d->map_size;
    uint32_t snap = (uint32_t)d->snaplen;
    int64_t unit = d->nano ? 1 : 1000;
    uint64_t bytes = 0;
    nprt_pcap_rec *r = recs, *last = recs + max;
    while (r < last && (size_t)(end - at) >= NPRT_PCAP_REC_HDR) {
      uint32_t v[4];
      memcpy(v, at, sizeof(v));
      const uint8_t *frame = at + NPRT_PCAP_REC_HDR;
      if (v[2] > snap || (size_t)(end - frame) < v[2])
        break;
      r->bytes = frame;
      r->caplen = v[2];
      r->len = v[3];
      r->ts =
          (int64_t)(int32_t)v[0] * 1000000000 + (int64_t)(int32_t)v[1] * unit;
      at = frame + v[2];
      bytes += v[2];
      ++r;
    }
    n = (uint32_t)(r - recs);
    d->off = (size_t)(at - d->map);
    d->packets += n;
    d->bytes += bytes;
  }
  while (n < max) {
    /* A well-formed record in the host's byte order: checked and passed
     * where it lies. */
    if (d->map && nprt_pcap_map_fast(d, &recs[n])) {
      ++n;
      continue;
    }
    /* The rest (the other byte order, a record to cut, the end, an
     * error, a file libpcap reads) as nprt_pcap_in_next takes it. */
    nprt_pcap_status s = nprt_pcap_in_peek(d, err, errlen);
    if (s != NPRT_PCAP_OK) {
      *st = s;
      break;
    }
    d->pending = false;
    recs[n++] = d->rec;
    ++d->packets;
    d->bytes += d->rec.caplen;
    if (!d->map)
      break; /* the bytes are libpcap's until its next read */
  }
  return n;
}

void nprt_pcap_in_share(nprt_pcap_in *d, const nprt_pcap_in *from) {
  if (!from->map || !d->map || d->map_size != from->map_size)
    return;
  if (d->map_owned)
    munmap((void *)(uintptr_t)d->map, d->map_size);
  d->map = from->map;
  d->map_size = from->map_size;
  d->map_owned = false;
}

void nprt_pcap_in_close(nprt_pcap_in *d) {
  if (d->map && d->map_owned)
    munmap((void *)(uintptr_t)d->map, d->map_size);
  d->map = NULL;
  d->pending = false;
  if (d->pcap)
    pcap_close(d->pcap);
  d->pcap = NULL;
}

/* Writes all `n` bytes; -1 with errno set when the file takes no more. */
static int nprt_write_all(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = EIO;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Writes what is buffered; on failure records the error and drops it.
 * Each write that succeeds doubles the next one, up to the buffer. */
static int nprt_pcap_out_flush(nprt_pcap_out *d) {
  size_t n = d->used;
  d->used = 0;
  if (!n || nprt_write_all(d->fd, d->buf, n) == 0) {
    if (n && d->limit < NPRT_PCAP_OUT_BUF)
      d->limit *= 2;
    return 0;
  }
  d->error = errno ? errno : EIO;
  return -1;
}

/* The 24-byte file header pcap_dump_open writes for these parameters. */
static int nprt_pcap_file_header(int linktype, int snaplen, bool nano,
                                 uint8_t *to, char *err, size_t errlen) {
  pcap_t *dead = pcap_open_dead_with_tstamp_precision(
      linktype, snaplen,
      nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
  if (!dead) {
    snprintf(err, errlen, "cannot create a pcap handle");
    return -1;
  }
  char *text = NULL;
  size_t size = 0;
  FILE *mem = open_memstream(&text, &size);
  pcap_dumper_t *dumper = mem ? pcap_dump_fopen(dead, mem) : NULL;
  if (!dumper) {
    snprintf(err, errlen, "%s", mem ? pcap_geterr(dead) : strerror(errno));
    if (mem)
      fclose(mem);
    free(text);
    pcap_close(dead);
    return -1;
  }
  pcap_dump_close(dumper); /* fclose: `text` now holds what it wrote */
  pcap_close(dead);
  int rc = size == 24 ? 0 : -1;
  if (rc == 0)
    memcpy(to, text, 24);
  else
    snprintf(err, errlen, "cannot create a pcap handle");
  free(text);
  return rc;
}

int nprt_pcap_out_open(nprt_pcap_out *d, const char *path, int linktype,
                       int snaplen, bool nano, char *err, size_t errlen) {
  d->path = path;
  d->nano = nano;
  d->cut = 0;
  d->error = 0;
  d->used = 0;
  d->limit = NPRT_PCAP_OUT_FIRST;
  d->buf = NULL;
  d->fd = -1;
  d->sec_ts = 0;
  d->sec = 0;
  uint8_t header[24];
  if (nprt_pcap_file_header(linktype, snaplen, nano, header, err, errlen) != 0)
    return -1;
  uint8_t *buf = malloc(NPRT_PCAP_OUT_BUF);
  if (!buf) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  /* The file header goes out now, so that a device that cannot take it
   * fails before the run. */
  if (fd < 0 || nprt_write_all(fd, header, sizeof(header)) != 0) {
    snprintf(err, errlen, "%s", strerror(errno));
    if (fd >= 0)
      close(fd);
    free(buf);
    return -1;
  }
  d->fd = fd;
  d->buf = buf;
  return 0;
}

size_t nprt_pcap_out_record(const nprt_pcap_out *d, const nprt_pkt *p,
                            uint8_t *to) {
  uint32_t h[4];
  nprt_pcap_rec_header(p, d->nano, d->cut, h);
  memcpy(to, h, sizeof(h));
  memcpy(to + sizeof(h), p->data, h[2]);
  return sizeof(h) + h[2];
}

int nprt_pcap_out_write(nprt_pcap_out *d, const nprt_pkt *p) {
  if (d->error) {
    ++d->unwritten;
    return 0;
  }
  ++d->packets;
  d->bytes += p->len;
  if (!d->buf)
    return 0;
  size_t need = NPRT_PCAP_REC_HDR + p->len;
  if (d->used + need > d->limit && nprt_pcap_out_flush(d) != 0)
    return -1;
  if (need <= NPRT_PCAP_OUT_BUF) {
    d->used += nprt_pcap_out_record(d, p, d->buf + d->used);
    return 0;
  }
  /* A record bigger than the buffer: its header, then its bytes. */
  uint8_t *rec = malloc(need);
  if (!rec) {
    d->error = ENOMEM;
    return -1;
  }
  size_t n = nprt_pcap_out_record(d, p, rec);
  int rc = nprt_write_all(d->fd, rec, n);
  if (rc != 0)
    d->error = errno ? errno : EIO;
  free(rec);
  return rc;
}

int nprt_pcap_out_append(nprt_pcap_out *d, const uint8_t *data, size_t n,
                         uint64_t packets, uint64_t bytes) {
  if (d->error) {
    d->unwritten += packets;
    return 0;
  }
  d->packets += packets;
  d->bytes += bytes;
  if (!d->buf || !n)
    return 0;
  if (nprt_pcap_out_flush(d) != 0)
    return -1;
  if (nprt_write_all(d->fd, data, n) == 0)
    return 0;
  d->error = errno ? errno : EIO;
  return -1;
}

/* After a failed write the file may end in part of a record. Cuts a regular
 * file back to its last complete record, so that what is on disk is a valid
 * capture of the packets before the failure, and counts the records kept
 * and their original lengths. Returns the bytes kept, or -1 when the file
 * is not a regular file or cannot be read back. */
static long long nprt_pcap_trim(int fd, const char *path, uint64_t *records,
                                uint64_t *lengths) {
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return -1;
  /* The descriptor is write-only: read the records back through the path. */
  int rd = open(path, O_RDONLY | O_CLOEXEC);
  if (rd < 0)
    return -1;
  off_t size = st.st_size, end = 0;
  if (size >= 24) {
    end = 24; /* the file header */
    unsigned char h[16];
    while (end + 16 <= size && pread(rd, h, 16, end) == 16) {
      uint32_t caplen, len;
      memcpy(&caplen, h + 8, 4); /* written in host order */
      memcpy(&len, h + 12, 4);
      if (end + 16 + (off_t)caplen > size)
        break;
      end += 16 + (off_t)caplen;
      ++*records;
      *lengths += len;
    }
  }
  close(rd);
  return ftruncate(fd, end) == 0 ? (long long)end : -1;
}

int nprt_pcap_out_close(nprt_pcap_out *d, char *err, size_t errlen) {
  int error = d->error;
  if (d->buf) {
    errno = 0;
    if (!error && nprt_pcap_out_flush(d) != 0)
      error = d->error;
    uint64_t records = 0, lengths = 0;
    if (error && nprt_pcap_trim(d->fd, d->path, &records, &lengths) >= 0 &&
        records < d->packets) {
      d->unwritten += d->packets - records;
      d->packets = records;
      d->bytes = lengths;
    }
    errno = 0;
    if (close(d->fd) != 0 && !error)
      error = errno ? errno : EIO;
    free(d->buf);
  }
  d->buf = NULL;
  d->fd = -1;
  d->used = 0;
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
