/*===- pcie_msg.c - framing of PCIe-slot messages ---------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 *===----------------------------------------------------------------------===*/
#include "pcie_msg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static uint32_t get32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint64_t get64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

void nprt_pcie_msg_init(nprt_pcie_msg *m, uint32_t kind, uint32_t slot) {
  m->used = NPRT_PCIE_HDR;
  m->kind = kind;
  m->slot = slot;
  m->count = 0;
  m->closed = 0;
  m->clock = INT64_MIN;
}

bool nprt_pcie_msg_packet_ok(uint32_t len) {
  return len <= NPRT_PCIE_MSG_MAX - NPRT_PCIE_HDR - NPRT_PCIE_REC;
}

bool nprt_pcie_msg_fits(const nprt_pcie_msg *m, uint32_t len) {
  return m->count < 0xffffu &&
         (size_t)len + NPRT_PCIE_REC <= NPRT_PCIE_MSG_MAX - m->used;
}

bool nprt_pcie_msg_add(nprt_pcie_msg *m, const nprt_pcie_rec *r,
                       const uint8_t *data) {
  uint32_t bytes = r->lead + r->len;
  if (r->lead > NPRT_PCIE_MSG_MAX || !nprt_pcie_msg_fits(m, bytes))
    return false;
  uint8_t *p = m->buf + m->used;
  put32(p, r->len);
  put32(p + 4, r->wire_len);
  put32(p + 8, r->in_port);
  put32(p + 12, r->paint);
  put32(p + 16, r->out_port);
  put32(p + 20, r->headroom);
  put32(p + 24, r->tailroom);
  put32(p + 28, r->lead);
  put64(p + 32, (uint64_t)r->ts);
  put64(p + 40, r->anno);
  for (uint32_t a = 0; a < NPRT_PCIE_ANNOS; ++a)
    put64(p + 48 + 8 * a, r->annos[a]);
  put64(p + 48 + 8 * NPRT_PCIE_ANNOS, r->seq);
  put64(p + 56 + 8 * NPRT_PCIE_ANNOS, (uint64_t)r->clock);
  if (bytes)
    memcpy(p + NPRT_PCIE_REC, data, bytes);
  m->used += NPRT_PCIE_REC + bytes;
  ++m->count;
  return true;
}

void nprt_pcie_msg_seal(nprt_pcie_msg *m) {
  uint8_t *p = m->buf;
  if (m->kind == NPRT_PCIE_SYNC) {
    put64(p + NPRT_PCIE_HDR, (uint64_t)m->clock);
    m->used = NPRT_PCIE_HDR + 8;
  }
  put32(p, NPRT_PCIE_MAGIC);
  p[4] = (uint8_t)m->kind;
  p[5] = (uint8_t)m->slot;
  p[6] = (uint8_t)(m->count & 0xffu);
  p[7] = (uint8_t)(m->count >> 8);
  put32(p + 8, (uint32_t)m->used);
  put32(p + 12, m->closed);
}

int nprt_pcie_msg_check(nprt_pcie_msg *m, size_t n, char *err, size_t errlen) {
  const uint8_t *p = m->buf;
  if (n < NPRT_PCIE_HDR) {
    snprintf(err, errlen, "message of %zu bytes, shorter than its header", n);
    return -1;
  }
  if (get32(p) != NPRT_PCIE_MAGIC) {
    snprintf(err, errlen, "bad message magic 0x%08x", get32(p));
    return -1;
  }
  uint32_t size = get32(p + 8);
  if (size != n || size > NPRT_PCIE_MSG_MAX) {
    snprintf(err, errlen, "message says %u bytes, has %zu", size, n);
    return -1;
  }
  m->kind = p[4];
  m->slot = p[5];
  m->count = (uint32_t)p[6] | (uint32_t)p[7] << 8;
  m->closed = get32(p + 12);
  m->used = n;
  if (m->kind < NPRT_PCIE_DATA || m->kind > NPRT_PCIE_END) {
    snprintf(err, errlen, "unknown message kind %u", m->kind);
    return -1;
  }
  if (m->closed >> NPRT_PCIE_SLOTS ||
      (m->closed && m->kind != NPRT_PCIE_SYNC)) {
    snprintf(err, errlen, "bad mask of closed slots 0x%08x", m->closed);
    return -1;
  }
  if (m->slot >= NPRT_PCIE_SLOTS) {
    snprintf(err, errlen, "slot %u out of range (0..%u)", m->slot,
             NPRT_PCIE_SLOTS - 1);
    return -1;
  }
  size_t off = NPRT_PCIE_HDR;
  if (m->kind == NPRT_PCIE_SYNC) {
    if (n != NPRT_PCIE_HDR + 8 || m->count) {
      snprintf(err, errlen, "a SYNC of %zu bytes and %u packets", n, m->count);
      return -1;
    }
    m->clock = (int64_t)get64(p + NPRT_PCIE_HDR);
    return 0;
  }
  for (uint32_t k = 0; k < m->count; ++k) {
    if (n - off < NPRT_PCIE_REC) {
      snprintf(err, errlen, "slot %u: packet %u of %u is truncated", m->slot,
               k + 1, m->count);
      return -1;
    }
    uint64_t len = (uint64_t)get32(p + off) + get32(p + off + 28);
    if (len > n - off - NPRT_PCIE_REC) {
      snprintf(err, errlen,
               "slot %u: packet %u of %u says %llu bytes, %zu are left",
               m->slot, k + 1, m->count, (unsigned long long)len,
               n - off - NPRT_PCIE_REC);
      return -1;
    }
    off += NPRT_PCIE_REC + (size_t)len;
  }
  if (off != n) {
    snprintf(err, errlen, "slot %u: %zu bytes after the last of %u packets",
             m->slot, n - off, m->count);
    return -1;
  }
  return 0;
}

void nprt_pcie_msg_at(const nprt_pcie_msg *m, size_t *off, nprt_pcie_rec *r,
                      const uint8_t **data) {
  const uint8_t *p = m->buf + *off;
  r->len = get32(p);
  r->wire_len = get32(p + 4);
  r->in_port = get32(p + 8);
  r->paint = get32(p + 12);
  r->out_port = get32(p + 16);
  r->headroom = get32(p + 20);
  r->tailroom = get32(p + 24);
  r->lead = get32(p + 28);
  r->ts = (int64_t)get64(p + 32);
  r->anno = get64(p + 40);
  for (uint32_t a = 0; a < NPRT_PCIE_ANNOS; ++a)
    r->annos[a] = get64(p + 48 + 8 * a);
  r->seq = get64(p + 48 + 8 * NPRT_PCIE_ANNOS);
  r->clock = (int64_t)get64(p + 56 + 8 * NPRT_PCIE_ANNOS);
  *data = p + NPRT_PCIE_REC;
  *off += NPRT_PCIE_REC + r->lead + r->len;
}

int nprt_pcie_send(int fd, const nprt_pcie_msg *m) {
  size_t done = 0;
  while (done < m->used) {
    ssize_t k = send(fd, m->buf + done, m->used - done, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    done += (size_t)k;
  }
  return 0;
}

/* 0, or the bytes short of `n` at end of stream; -1 on a read error. */
static long nprt_read_full(int fd, uint8_t *to, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t k = read(fd, to + done, n - done);
    if (k < 0 && errno == EINTR)
      continue;
    /* A peer that exited with our data unread resets the connection:
     * that too ends the stream. */
    if (k < 0 && errno != ECONNRESET)
      return -1;
    if (k <= 0)
      return (long)(n - done);
    done += (size_t)k;
  }
  return 0;
}

int nprt_pcie_recv(int fd, nprt_pcie_msg *m, char *err, size_t errlen) {
  long short_by = nprt_read_full(fd, m->buf, NPRT_PCIE_HDR);
  if (short_by < 0) {
    snprintf(err, errlen, "read: %s", strerror(errno));
    return -1;
  }
  if (short_by == NPRT_PCIE_HDR)
    return 1;
  if (short_by) {
    snprintf(err, errlen, "truncated message (%ld of %u header bytes)",
             NPRT_PCIE_HDR - short_by, NPRT_PCIE_HDR);
    return -1;
  }
  uint32_t size = get32(m->buf + 8);
  if (get32(m->buf) != NPRT_PCIE_MAGIC) {
    snprintf(err, errlen, "bad message magic 0x%08x", get32(m->buf));
    return -1;
  }
  if (size < NPRT_PCIE_HDR || size > NPRT_PCIE_MSG_MAX) {
    snprintf(err, errlen, "message size %u out of range (%u..%u)", size,
             NPRT_PCIE_HDR, NPRT_PCIE_MSG_MAX);
    return -1;
  }
  short_by = nprt_read_full(fd, m->buf + NPRT_PCIE_HDR, size - NPRT_PCIE_HDR);
  if (short_by < 0) {
    snprintf(err, errlen, "read: %s", strerror(errno));
    return -1;
  }
  if (short_by) {
    snprintf(err, errlen, "truncated message (%ld of %u bytes)",
             (long)size - short_by, size);
    return -1;
  }
  return nprt_pcie_msg_check(m, size, err, errlen);
}
