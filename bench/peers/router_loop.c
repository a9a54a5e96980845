/*===- router_loop.c - benchmark peer: the IPv4 router as one C loop ------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * examples/ipv4-router/router.click written by hand as one plain C loop:
 * the speed ceiling npcc's compiled router is measured against
 * (bench/router.sh). It reads the input pcap through one mmap, runs each
 * frame through the router's elements as direct code (Click's push order:
 * a PaintTee copy, and every ICMP error, goes all the way out before the
 * packet that caused it goes on) and writes the six outputs of router.click
 * into OUTDIR through its own buffers:
 *
 *   router_loop IN OUTDIR [MTU0 MTU1]    (MTUs default to 1500)
 *
 * The outputs are byte for byte those of the compiled router.click given
 * -D MTU0=.. -D MTU1=.. (test/bench/router-loop.test checks it), so the
 * semantics are lib/'s elements': Classifier, ARPResponder, Strip,
 * CheckIPHeader (INTERFACES), GetIPAddress, RadixIPLookup,
 * DropBroadcasts, PaintTee, IPGWOptions, FixIPSrc, DecIPTTL, IPFragmenter,
 * EtherEncap, ICMPError (one IP id counter, TTL 200, time stamp = the
 * latest input time stamp) and ToDump (snap length 2000). Out-of-range
 * reads give 0 and writes are ignored, as the runtime's accessors do.
 * Frames read from a trace have packet_type "host", so DropBroadcasts
 * never drops; there is no ARPQuerier in this configuration.
 *
 * Differences from the compiled router: the configuration (addresses,
 * routes, ARP entries) is compiled in, the input must be a little-endian
 * pcap, and no statistics are kept.
 *
 *===----------------------------------------------------------------------===*/
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/*===-- Configuration (router.click) -------------------------------------===*/

#define IP4(a, b, c, d)                                                        \
  ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* eth0 18.26.4.24/24, eth1 18.26.7.1/24; their MACs and next hops. */
static const uint32_t IfAddr[3] = {0, IP4(18, 26, 4, 24), IP4(18, 26, 7, 1)};
static const uint8_t IfMac[3][6] = {{0},
                                    {0x00, 0x00, 0xc0, 0xae, 0x67, 0xef},
                                    {0x00, 0x00, 0xc0, 0x4f, 0x71, 0xef}};
static const uint8_t NextMac[3][6] = {{0},
                                      {0x00, 0x11, 0x22, 0x33, 0x44, 0x55},
                                      {0x00, 0x66, 0x77, 0x88, 0x99, 0xaa}};
/* CheckIPHeader(INTERFACES ...): bad sources, good destinations. */
static const uint32_t BadSrc[4] = {IP4(18, 26, 4, 255), IP4(18, 26, 7, 255), 0,
                                   0xffffffffu};
static const uint32_t GoodDst[2] = {IP4(18, 26, 4, 24), IP4(18, 26, 7, 1)};

struct route {
  uint32_t addr;
  unsigned plen;
  uint32_t gw; /* 0: none */
  unsigned port;
};
static const struct route Routes[] = {
    {IP4(18, 26, 4, 24), 32, 0, 0},
    {IP4(18, 26, 4, 255), 32, 0, 0},
    {IP4(18, 26, 4, 0), 32, 0, 0},
    {IP4(18, 26, 7, 1), 32, 0, 0},
    {IP4(18, 26, 7, 255), 32, 0, 0},
    {IP4(18, 26, 7, 0), 32, 0, 0},
    {IP4(18, 26, 4, 0), 24, 0, 1},
    {IP4(18, 26, 7, 0), 24, 0, 2},
    {IP4(10, 0, 0, 0), 8, IP4(18, 26, 7, 2), 2},
    {IP4(10, 1, 0, 0), 16, IP4(18, 26, 4, 2), 1},
    {IP4(192, 168, 0, 0), 16, IP4(18, 26, 7, 3), 2},
    {0, 0, IP4(18, 26, 4, 1), 1},
};
#define NROUTES (sizeof(Routes) / sizeof(Routes[0]))

/* ARPResponder(18.26.4.24 MAC0, 18.26.7.0/24 MAC0). */
static const struct {
  uint32_t addr;
  unsigned plen;
} ArpEntries[] = {{IP4(18, 26, 4, 24), 32}, {IP4(18, 26, 7, 0), 24}};

enum { OUT0, OUT1, TOHOST, BAD, ARPIN, OTHER, NOUT };
static const char *const OutName[NOUT] = {"out0.pcap",   "out1.pcap",
                                          "tohost.pcap", "bad.pcap",
                                          "arpin.pcap",  "other.pcap"};
#define SNAPLEN 2000u /* ToDump's default */
#define ICMP_MTU 576u /* ICMPError's default */

/*===-- Packets ----------------------------------------------------------===*/

#define HEADROOM 64u

struct pkt {
  uint8_t *data;
  uint32_t len;
  int64_t ts;
  uint32_t dst_ip;
  uint32_t paint;
  bool fix_ip_src;
  uint8_t icmp_param;
  /* The input record's lengths (0 for packets made here): an unchanged
   * length keeps a snap-cut frame's wire length, as the runtime writes. */
  uint32_t cap_len, wire_len;
};

static inline uint8_t at(const struct pkt *p, uint32_t i) {
  return i < p->len ? p->data[i] : 0;
}
static inline void set8(struct pkt *p, uint32_t i, uint8_t v) {
  if (i < p->len)
    p->data[i] = v;
}
static inline uint16_t get16(const struct pkt *p, uint32_t i) {
  return (uint16_t)(at(p, i) << 8 | at(p, i + 1));
}
static inline uint32_t get32(const struct pkt *p, uint32_t i) {
  return (uint32_t)at(p, i) << 24 | (uint32_t)at(p, i + 1) << 16 |
         (uint32_t)at(p, i + 2) << 8 | at(p, i + 3);
}
static inline void put16(struct pkt *p, uint32_t i, uint16_t v) {
  set8(p, i, (uint8_t)(v >> 8));
  set8(p, i + 1, (uint8_t)v);
}
static inline void put32(struct pkt *p, uint32_t i, uint32_t v) {
  put16(p, i, (uint16_t)(v >> 16));
  put16(p, i + 2, (uint16_t)v);
}

/* The IPv4 header's length (the header is at byte 0). */
static inline uint32_t ip_hlen(const struct pkt *p) {
  return (at(p, 0) & 15u) * 4;
}

/* The first option at or after `oi` that is not a no-operation. */
static inline uint32_t skip_nops(const struct pkt *p, uint32_t oi,
                                 uint32_t hlen) {
  while (oi < hlen && at(p, oi) == 1)
    ++oi;
  return oi;
}

/* The Internet checksum of bytes [off, off + n) (NPL's csum): 32-bit
 * little-endian words summed apart, folded and byte-swapped (the
 * one's-complement sum does not depend on byte order), then the last
 * bytes as big-endian 16-bit words. */
static uint16_t csum(const struct pkt *p, uint32_t off, uint32_t n) {
  uint64_t end = (uint64_t)off + n, have = end < p->len ? end : p->len;
  uint64_t le = 0, sum = 0, i = off;
  const uint8_t *d = p->data;
  for (; i + 4 <= have; i += 4) {
    uint32_t w;
    memcpy(&w, d + i, 4);
    le += w;
  }
  while (le >> 16)
    le = (le & 0xffff) + (le >> 16);
  sum = (le & 0xff) << 8 | le >> 8;
  for (; i + 1 < have; i += 2)
    sum += (uint32_t)d[i] << 8 | d[i + 1];
  if (i < have)
    sum += (uint32_t)d[i] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t)~sum;
}

/* Click's ip_sum = 0; ip_sum = in_cksum(header). */
static void ip_header_cksum(struct pkt *p, uint32_t hlen) {
  put16(p, 10, 0);
  put16(p, 10, csum(p, 0, hlen));
}

/*===-- Outputs: pcap files written through one buffer each --------------===*/

struct out {
  int fd;
  size_t n;
  uint8_t buf[1u << 18];
};
static struct out *Outs[NOUT];
static bool Nano;

static void die(const char *what, const char *path) {
  fprintf(stderr, "router_loop: %s: %s\n", path, what);
  exit(1);
}

static void out_flush(struct out *o) {
  for (size_t done = 0; done < o->n;) {
    ssize_t w = write(o->fd, o->buf + done, o->n - done);
    if (w <= 0)
      die("cannot write", "output");
    done += (size_t)w;
  }
  o->n = 0;
}

static void out_bytes(struct out *o, const void *b, size_t n) {
  if (o->n + n > sizeof(o->buf)) {
    out_flush(o);
    if (n > sizeof(o->buf)) {
      for (size_t done = 0; done < n;) {
        ssize_t w = write(o->fd, (const uint8_t *)b + done, n - done);
        if (w <= 0)
          die("cannot write", "output");
        done += (size_t)w;
      }
      return;
    }
  }
  memcpy(o->buf + o->n, b, n);
  o->n += n;
}

static void out_open(unsigned k, const char *dir, uint32_t linktype) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, OutName[k]);
  struct out *o = malloc(sizeof(*o));
  if (!o)
    die("out of memory", path);
  o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (o->fd < 0)
    die("cannot create", path);
  o->n = 0;
  uint32_t h[6] = {
      Nano ? 0xa1b23c4du : 0xa1b2c3d4u, 2u | 4u << 16, 0, 0, SNAPLEN, linktype};
  out_bytes(o, h, sizeof(h));
  Outs[k] = o;
}

/* ToDump: at most SNAPLEN bytes, the packet's time stamp. */
static void emit(unsigned k, const struct pkt *p) {
  int64_t sec = p->ts / 1000000000, ns = p->ts % 1000000000;
  if (ns < 0) {
    ns += 1000000000;
    --sec;
  }
  uint32_t h[4];
  h[0] = (uint32_t)sec;
  h[1] = (uint32_t)(Nano ? ns : ns / 1000);
  h[2] = p->len > SNAPLEN ? SNAPLEN : p->len;
  h[3] = p->cap_len == p->len && p->wire_len > p->len ? p->wire_len : p->len;
  struct out *o = Outs[k];
  if (o->n + 16 + h[2] <= sizeof(o->buf)) {
    memcpy(o->buf + o->n, h, 16);
    memcpy(o->buf + o->n + 16, p->data, h[2]);
    o->n += 16 + h[2];
    return;
  }
  out_bytes(o, h, 16);
  out_bytes(o, p->data, h[2]);
}

/*===-- RadixIPLookup: a 16-8-8 multibit trie built from Routes ----------===*/

struct hop {
  uint32_t gw;
  unsigned port;
};
/* Entries: a hop index (0: no route), or Sub | a next-level table. */
#define SUB 0x8000u
static uint16_t Level1[1u << 16];
static uint16_t (*Level2)[256], (*Level3)[256];
static unsigned NLevel2, NLevel3;
static struct hop Hops[NROUTES + 1];

static uint16_t *subtable(uint16_t *e, uint16_t (**tables)[256], unsigned *n) {
  if (!(*e & SUB)) {
    uint16_t(*t)[256] = realloc(*tables, (*n + 1) * sizeof(**tables));
    if (!t)
      die("out of memory", "route table");
    *tables = t;
    for (unsigned i = 0; i < 256; ++i)
      t[*n][i] = *e;
    *e = (uint16_t)(SUB | (*n)++);
  }
  return (*tables)[*e & ~SUB];
}

static void fill(uint16_t *t, uint32_t first, uint32_t count, uint16_t hop) {
  for (uint32_t i = 0; i < count; ++i)
    t[first + i] = hop;
}

/* Shorter prefixes first, so that a longer one overwrites; of equal
 * prefixes the first given is kept (Click's). */
static void routes_build(void) {
  for (unsigned plen = 0; plen <= 32; ++plen)
    for (unsigned r = 0; r < NROUTES; ++r) {
      if (Routes[r].plen != plen)
        continue;
      uint32_t mask = plen ? ~0u << (32 - plen) : 0, a = Routes[r].addr & mask;
      bool dup = false;
      for (unsigned s = 0; s < r; ++s)
        dup |= Routes[s].plen == plen && (Routes[s].addr & mask) == a;
      if (dup)
        continue;
      uint16_t hop = (uint16_t)(r + 1);
      Hops[hop] = (struct hop){Routes[r].gw, Routes[r].port};
      if (plen <= 16) {
        fill(Level1, a >> 16, 1u << (16 - plen), hop);
        continue;
      }
      uint16_t *l2 = subtable(&Level1[a >> 16], &Level2, &NLevel2);
      if (plen <= 24) {
        fill(l2, (a >> 8) & 255, 1u << (24 - plen), hop);
        continue;
      }
      uint16_t *l3 = subtable(&l2[(a >> 8) & 255], &Level3, &NLevel3);
      fill(l3, a & 255, 1u << (32 - plen), hop);
    }
}

static inline unsigned route_lookup(uint32_t a) {
  unsigned e = Level1[a >> 16];
  if (e & SUB) {
    e = Level2[e & ~SUB][(a >> 8) & 255];
    if (e & SUB)
      e = Level3[e & ~SUB][a & 255];
  }
  return e;
}

/*===-- The router -------------------------------------------------------===*/

static unsigned Mtu[3] = {0, 1500, 1500};
static int64_t Now;             /* the latest input time stamp (now()) */
static uint16_t NextIcmpId = 1; /* every ICMPError's one counter */
static uint8_t *Scratch;        /* later fragments */

static void route(struct pkt *p);

enum {
  ICMP_UNREACH = 3,
  ICMP_REDIRECT = 5,
  ICMP_TIMXCEED = 11,
  ICMP_PARAMPROB = 12
};

/* ICMPError's source route option (131 or 137) offset, 0 if none. */
static uint32_t source_route(const struct pkt *p) {
  uint32_t hlen = ip_hlen(p);
  for (uint32_t oi = skip_nops(p, 20, hlen); oi < hlen;) {
    uint8_t t = at(p, oi);
    uint32_t xlen = at(p, oi + 1), ptr = at(p, oi + 2);
    if (t == 0 || xlen < 2 || oi + xlen > hlen)
      return 0;
    if ((t == 131 || t == 137) && ptr >= 4 && ptr % 4 == 0 && ptr <= xlen + 1)
      return oi;
    oi = skip_nops(p, oi + xlen, hlen);
  }
  return 0;
}

static bool unicast(uint32_t a) {
  return a != 0xffffffffu && (a & 0xf0000000u) != 0xe0000000u;
}

static bool is_error_type(uint8_t t) {
  return t == 3 || t == 4 || t == 5 || t == 11 || t == 12;
}

/* ICMPError(IfAddr[ifc], type, code): the error about `p` (left as it is),
 * routed again. */
static void icmp_error(const struct pkt *p, unsigned ifc, uint8_t type,
                       uint8_t code) {
  uint32_t hlen = ip_hlen(p), s = get32(p, 12), net = s >> 24;
  if (at(p, 9) == 1 && (hlen + 4 > p->len || is_error_type(at(p, hlen))))
    return;
  if (!unicast(get32(p, 16)) || !unicast(s) || net == 0 || net == 127 ||
      (net & 0xf0) == 0xf0 || (get16(p, 6) & 0x1fff) != 0)
    return;
  uint32_t sr = source_route(p);
  if (sr) {
    if (type == ICMP_REDIRECT)
      return;
    if (type == ICMP_PARAMPROB && code == 0 && sr <= p->icmp_param &&
        p->icmp_param < sr + at(p, sr + 1))
      sr = 0;
  }
  uint32_t olen = 0, ohl = 20;
  if (sr) {
    olen = at(p, sr + 2) - 1u;
    ohl = (20 + olen + 3) / 4 * 4;
  }
  uint32_t xlen = 0;
  if (ICMP_MTU >= ohl + 8)
    xlen = ICMP_MTU - ohl - 8 < p->len ? ICMP_MTU - ohl - 8 : p->len;
  uint8_t buf[HEADROOM + ICMP_MTU + 64];
  struct pkt q = {.data = buf + HEADROOM, .len = ohl + 8 + xlen, .ts = Now};
  memset(q.data, 0, q.len);
  q.data[0] = (uint8_t)(0x40 | ohl / 4);
  put16(&q, 2, (uint16_t)q.len);
  put16(&q, 4, NextIcmpId++);
  q.data[8] = 200;
  q.data[9] = 1;
  put32(&q, 12, IfAddr[ifc]);
  put32(&q, 16, s);
  if (sr) {
    uint32_t ptr = at(p, sr + 2);
    q.data[20] = at(p, sr);
    q.data[21] = (uint8_t)olen;
    q.data[22] = 4;
    set8(&q, 20 + olen, 0);
    /* The recorded addresses, last first. */
    for (uint32_t k = 0; k < (ptr - 4) / 4 && k < 10; ++k)
      for (uint32_t b = 0; b < 4; ++b)
        set8(&q, 23 + 4 * k + b, at(p, sr + ptr - 5 - 4 * k + b));
  }
  q.data[ohl] = type;
  q.data[ohl + 1] = code;
  if (type == ICMP_PARAMPROB && code == 0)
    q.data[ohl + 4] = p->icmp_param;
  if (type == ICMP_REDIRECT)
    put32(&q, ohl + 4, p->dst_ip);
  memcpy(q.data + ohl + 8, p->data, xlen);
  put16(&q, ohl + 2, csum(&q, ohl, 8 + xlen));
  put16(&q, 10, csum(&q, 0, ohl));
  q.dst_ip = s;
  q.fix_ip_src = true;
  route(&q);
}

/* IPGWOptions(IfAddr[ifc]): false (and icmp_param set) on an error. */
static bool gw_options(struct pkt *p, unsigned ifc) {
  uint32_t hlen = ip_hlen(p);
  if (hlen <= 20)
    return true;
  uint32_t ms = (uint32_t)((p->ts / 1000000) % 86400000);
  uint32_t me = IfAddr[ifc], where = 0;
  bool changed = false, err = false;
  for (uint32_t oi = skip_nops(p, 20, hlen); oi < hlen;) {
    uint8_t t = at(p, oi);
    if (t == 0)
      break;
    uint32_t xlen = at(p, oi + 1);
    if (xlen < 2 || oi + xlen > hlen) {
      err = true;
      where = oi + 1;
      break;
    }
    if (t == 7 || t == 68)
      changed = true;
    if (t == 7) {
      int32_t q = (int32_t)at(p, oi + 2) - 1;
      if (q >= 3 && (uint32_t)q + 4 <= xlen) {
        put32(p, oi + (uint32_t)q, me);
        set8(p, oi + 2, (uint8_t)(at(p, oi + 2) + 4));
      } else if (q != (int32_t)xlen) {
        err = true;
        where = oi + 2;
        break;
      }
    } else if (t == 68) {
      int32_t q = (int32_t)at(p, oi + 2) - 1;
      uint8_t oflw = at(p, oi + 3) >> 4, flg = at(p, oi + 3) & 15;
      if (q < 4) {
        err = true;
        where = oi + 2;
        break;
      }
      uint32_t a = oi + (uint32_t)q;
      bool overflow = false;
      if (flg == 0) {
        if ((uint32_t)q + 4 <= xlen) {
          put32(p, a, ms);
          set8(p, oi + 2, (uint8_t)(at(p, oi + 2) + 4));
        } else {
          overflow = true;
        }
      } else if (flg == 1) {
        if ((uint32_t)q + 8 <= xlen) {
          put32(p, a, me);
          put32(p, a + 4, ms);
          set8(p, oi + 2, (uint8_t)(at(p, oi + 2) + 8));
        } else {
          overflow = true;
        }
      } else if (flg == 3 && (uint32_t)q + 8 <= xlen) {
        if (get32(p, a) == me) {
          put32(p, a + 4, ms);
          set8(p, oi + 2, (uint8_t)(at(p, oi + 2) + 8));
        }
      } else {
        err = true;
        where = oi + 3;
        break;
      }
      if (overflow) {
        if (oflw < 15) {
          set8(p, oi + 3, (uint8_t)((oflw + 1) << 4 | flg));
        } else {
          err = true;
          where = oi + 3;
          break;
        }
      }
    }
    oi = skip_nops(p, oi + xlen, hlen);
  }
  if (err) {
    p->icmp_param = (uint8_t)where;
    return false;
  }
  if (changed)
    ip_header_cksum(p, hlen);
  return true;
}

/* EtherEncap(0x0800, IfMac[ifc], NextMac[ifc]) and ToDump. The bytes in
 * front of data are the packet's headroom. */
static void encap_out(struct pkt *p, unsigned ifc) {
  p->data -= 14;
  p->len += 14;
  memcpy(p->data, NextMac[ifc], 6);
  memcpy(p->data + 6, IfMac[ifc], 6);
  p->data[12] = 0x08;
  p->data[13] = 0x00;
  emit(ifc == 1 ? OUT0 : OUT1, p);
}

/* IPFragmenter's walk of the options later fragments carry. */
static uint32_t frag_options(const struct pkt *p, uint8_t *to) {
  uint32_t end = ip_hlen(p), n = 0;
  for (uint32_t k = skip_nops(p, 20, end); k < end;) {
    uint8_t t = at(p, k);
    uint32_t l = at(p, k + 1);
    if (t == 0 || k == end - 1 || l < 2 || k + l > end)
      break;
    if (t & 0x80) {
      if (to)
        for (uint32_t i = 0; i < l; ++i)
          to[n + i] = at(p, k + i);
      n += l;
    }
    k = skip_nops(p, k + l, end);
  }
  return n;
}

/* IPFragmenter(Mtu[ifc]) -> EtherEncap -> ToDump; false: to o[1]. */
static bool fragment_out(struct pkt *p, unsigned ifc) {
  uint32_t mtu = Mtu[ifc];
  if (p->len <= mtu) {
    encap_out(p, ifc);
    return true;
  }
  int64_t hlen = (int64_t)ip_hlen(p);
  int64_t first_dlen = ((int64_t)mtu - hlen) & ~(int64_t)7;
  int64_t in_dlen = (int64_t)get16(p, 2) - hlen;
  uint32_t optlen = frag_options(p, NULL);
  int64_t out_hlen = 20 + (int64_t)((optlen + 3) / 4 * 4);
  int64_t out_dlen_max = ((int64_t)mtu - out_hlen) & ~(int64_t)7;
  uint16_t flags = get16(p, 6);
  if ((flags & 0x4000) || first_dlen < 8)
    return false;
  bool had_mf = flags & 0x2000;
  put16(p, 2, (uint16_t)(hlen + first_dlen));
  put16(p, 6, flags | 0x2000);
  ip_header_cksum(p, (uint32_t)hlen);
  uint32_t off16 = get16(p, 6);
  /* The first fragment: the packet cut short (its bytes stay for later). */
  struct pkt first = *p;
  first.len = (uint32_t)(hlen + first_dlen);
  encap_out(&first, ifc);
  for (int64_t off = first_dlen; off < in_dlen;) {
    int64_t out_dlen = out_dlen_max;
    if (out_dlen + off > in_dlen)
      out_dlen = in_dlen - off;
    uint32_t n = (uint32_t)(out_hlen + out_dlen);
    struct pkt q = *p;
    q.data = Scratch + HEADROOM;
    q.len = n;
    q.cap_len = q.wire_len = 0;
    memcpy(q.data, p->data, 20);
    for (uint32_t i = 0; i < (uint32_t)out_dlen; ++i)
      q.data[out_hlen + i] = at(p, (uint32_t)(hlen + off) + i);
    uint32_t w = 20 + frag_options(p, q.data + 20);
    for (; w & 3; ++w)
      q.data[w] = 0;
    q.data[0] = (uint8_t)((q.data[0] & 0xf0) | out_hlen / 4);
    uint32_t f = (off16 + ((uint32_t)off >> 3)) & 0xffff;
    if (out_dlen + off >= in_dlen && !had_mf)
      f &= ~0x2000u;
    put16(&q, 6, (uint16_t)f);
    put16(&q, 2, (uint16_t)n);
    ip_header_cksum(&q, (uint32_t)out_hlen);
    encap_out(&q, ifc);
    off += out_dlen;
  }
  return true;
}

/* What follows rt[ifc]: DropBroadcasts (packet_type is always "host"
 * here) -> PaintTee(ifc) -> IPGWOptions -> FixIPSrc -> DecIPTTL ->
 * IPFragmenter -> EtherEncap -> out, the errors to ICMPError -> rt. */
static void interface_out(struct pkt *p, unsigned ifc) {
  if (p->paint == ifc)
    icmp_error(p, ifc, ICMP_REDIRECT, 1);
  if (!gw_options(p, ifc)) {
    icmp_error(p, ifc, ICMP_PARAMPROB, 0);
    return;
  }
  if (p->fix_ip_src && p->len >= 20) {
    p->fix_ip_src = false;
    put32(p, 12, IfAddr[ifc]);
    ip_header_cksum(p, ip_hlen(p));
  }
  uint8_t ttl = at(p, 8);
  if (p->len < 20 || ttl <= 1) {
    icmp_error(p, ifc, ICMP_TIMXCEED, 0);
    return;
  }
  p->data[8] = ttl - 1;
  uint32_t sum = (uint16_t)~get16(p, 10) + 0xfeffu;
  put16(p, 10, (uint16_t)~(uint16_t)(sum + (sum >> 16)));
  if (!fragment_out(p, ifc))
    icmp_error(p, ifc, ICMP_UNREACH, 4);
}

/* RadixIPLookup on the dst_ip annotation. */
static void route(struct pkt *p) {
  unsigned h = route_lookup(p->dst_ip);
  if (!h)
    return; /* no route: dropped */
  if (Hops[h].gw)
    p->dst_ip = Hops[h].gw;
  if (Hops[h].port == 0)
    emit(TOHOST, p);
  else
    interface_out(p, Hops[h].port);
}

/* Strip(14) -> CheckIPHeader(INTERFACES ...) -> GetIPAddress(16) -> rt. */
static void ip_input(struct pkt *p) {
  p->paint = 1;
  p->data += 14;
  p->len -= 14;
  uint32_t plen = p->len, hlen = ip_hlen(p), len = get16(p, 2);
  bool bad = plen < 20 || at(p, 0) >> 4 != 4 || hlen < 20 || len > plen ||
             len < hlen || csum(p, 0, hlen) != 0;
  if (!bad) {
    uint32_t src = get32(p, 12), dst = get32(p, 16);
    for (unsigned i = 0; i < 4; ++i)
      bad |= src == BadSrc[i];
    if (bad)
      bad = dst != GoodDst[0] && dst != GoodDst[1];
  }
  if (bad) {
    emit(BAD, p);
    return;
  }
  p->len = len;
  p->dst_ip = get32(p, 16);
  route(p);
}

/* ARPResponder: a 42-byte reply, or the request dropped. */
static void arp_request(const struct pkt *p) {
  if (p->len < 42 || get16(p, 14) != 1 || get16(p, 16) != 0x0800)
    return;
  uint32_t tpa = get32(p, 38);
  bool found = false;
  for (unsigned i = 0; i < sizeof(ArpEntries) / sizeof(ArpEntries[0]); ++i) {
    unsigned l = ArpEntries[i].plen;
    found |= ((tpa ^ ArpEntries[i].addr) & (l ? ~0u << (32 - l) : 0)) == 0;
  }
  if (!found)
    return;
  uint8_t buf[42];
  memcpy(buf, p->data + 22, 6); /* the request's sender hardware address */
  memcpy(buf + 6, IfMac[1], 6);
  memcpy(buf + 12, (const uint8_t[]){0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 2},
         10);
  memcpy(buf + 22, IfMac[1], 6);
  memcpy(buf + 28, p->data + 38, 4);
  memcpy(buf + 32, p->data + 22, 10); /* the request's sender: tha, tpa */
  struct pkt q = {.data = buf, .len = 42};
  emit(OUT0, &q);
}

/* Classifier(12/0806 20/0001, 12/0806 20/0002, 12/0800, -). */
static void receive(struct pkt *p) {
  const uint8_t *d = p->data;
  if (p->len >= 14 && d[12] == 0x08 && d[13] == 0x06 && p->len >= 22 &&
      d[20] == 0 && (d[21] == 1 || d[21] == 2)) {
    if (d[21] == 1)
      arp_request(p);
    else
      emit(ARPIN, p);
  } else if (p->len >= 14 && d[12] == 0x08 && d[13] == 0x00) {
    ip_input(p);
  } else {
    emit(OTHER, p);
  }
}

/*===-- FromDump: the input pcap, mapped once ----------------------------===*/

int main(int argc, char **argv) {
  if (argc != 3 && argc != 5) {
    fprintf(stderr, "usage: router_loop IN OUTDIR [MTU0 MTU1]\n");
    return 1;
  }
  if (argc == 5) {
    Mtu[1] = (unsigned)strtoul(argv[3], NULL, 10);
    Mtu[2] = (unsigned)strtoul(argv[4], NULL, 10);
  }
  int fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0)
    die("cannot open", argv[1]);
  size_t size = (size_t)st.st_size;
  if (size < 24)
    die("not a pcap file (too short)", argv[1]);
  const uint8_t *in =
      mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (in == MAP_FAILED)
    die("cannot map", argv[1]);
  madvise((void *)in, size, MADV_SEQUENTIAL);
  uint32_t fh[6];
  memcpy(fh, in, sizeof(fh));
  if (fh[0] != 0xa1b2c3d4u && fh[0] != 0xa1b23c4du)
    die("not a little-endian pcap file", argv[1]);
  Nano = fh[0] == 0xa1b23c4du;
  for (unsigned k = 0; k < NOUT; ++k)
    out_open(k, argv[2], k == TOHOST || k == BAD ? 101 : fh[5]);
  routes_build();

  /* Room for a frame (grown as frames need), and for an ICMP error. */
  size_t bufsize = HEADROOM + ICMP_MTU + 64;
  uint8_t *buf = malloc(bufsize);
  Scratch = malloc(bufsize);
  if (!buf || !Scratch)
    die("out of memory", argv[1]);

  bool clock = false;
  for (size_t at = 24; at + 16 <= size;) {
    uint32_t h[4];
    memcpy(h, in + at, 16);
    if (h[2] > size - at - 16)
      die("truncated record", argv[1]);
    if (HEADROOM + (size_t)h[2] + 64 > bufsize) {
      bufsize = HEADROOM + (size_t)h[2] + 64;
      free(Scratch);
      Scratch = malloc(bufsize);
      uint8_t *more = realloc(buf, bufsize);
      if (!more || !Scratch)
        die("out of memory", argv[1]);
      buf = more;
    }
    struct pkt p = {
        .data = buf + HEADROOM, .len = h[2], .cap_len = h[2], .wire_len = h[3]};
    memcpy(p.data, in + at + 16, h[2]);
    p.ts = (int64_t)h[0] * 1000000000 + (int64_t)h[1] * (Nano ? 1 : 1000);
    if (!clock || p.ts > Now)
      Now = p.ts;
    clock = true;
    receive(&p);
    at += 16 + (size_t)h[2];
  }
  for (unsigned k = 0; k < NOUT; ++k) {
    out_flush(Outs[k]);
    if (close(Outs[k]->fd) != 0)
      die("cannot write", OutName[k]);
    free(Outs[k]);
  }
  free(buf);
  free(Scratch);
  free(Level2);
  free(Level3);
  munmap((void *)in, size);
  close(fd);
  return 0;
}
