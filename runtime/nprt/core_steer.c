/*===- core_steer.c - flow steering --------------------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Under rtc each core takes its share of the flows: a hash of the IPv4
 * address pair (fragments of one datagram stay together), else of the
 * source MAC address. The ingress of an input (core_dev.c) hashes each
 * record once, as it hands it to its core. One function, so that a
 * different key (ports, a VLAN) is one change.
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/cores.h"

#include <string.h>

static uint64_t nprt_mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

/* The big-endian 64-bit number at `p`. */
static inline uint64_t nprt_load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

/* The core whose share of the flows a frame belongs to: a hash of the
 * IPv4 address pair (fragments of one datagram, which carry no ports
 * after the first, stay together), else of the source MAC address. */
uint32_t nprt_flow_core(const uint8_t *b, uint32_t len, int linktype,
                        uint32_t n) {
  uint32_t ip = UINT32_MAX;
  if (linktype == 1 /* DLT_EN10MB */ && len >= 14) {
    uint32_t off = 12;
    uint16_t type = (uint16_t)(b[off] << 8 | b[off + 1]);
    while ((type == 0x8100 || type == 0x88a8) && len >= off + 6) {
      off += 4;
      type = (uint16_t)(b[off] << 8 | b[off + 1]);
    }
    if (type == 0x0800)
      ip = off + 2;
  } else if (linktype == 12 /* DLT_RAW */ || linktype == 228 /* IPV4 */) {
    ip = 0;
  }
  uint64_t key;
  if (ip != UINT32_MAX && len >= ip + 20 && (b[ip] >> 4) == 4) {
    key = nprt_load_be64(b + ip + 12); /* source, destination */
  } else if (linktype == 1 && len >= 12) {
    /* 1, then the six bytes of the source MAC address (bytes 6-11). */
    key = 1ull << 48 | (nprt_load_be64(b + 4) & 0xffffffffffffull);
  } else {
    key = 2;
  }
  return (uint32_t)(nprt_mix(key) % n);
}
