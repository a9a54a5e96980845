//===- nphls.cpp - the libnprt ABI for HLS processes ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The entry points of nprt/abi.def that element bodies call, for an
// instance that runs as an HLS process (nphls.h). Frame accessors and
// checksums are libnprt's own (nprt/packet.h, checksum.c); this file only
// moves packets between streams and the instance's packet buffers.
//
//===----------------------------------------------------------------------===//

#include "nphls/nphls.h"

#ifndef __SYNTHESIS__
#include <algorithm>
#include <map>
#include <memory>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <vector>
#endif

namespace {

nphls_buf &bufOf(nprt_pkt *p) {
  // `pkt` is the first member of nphls_buf.
  return *reinterpret_cast<nphls_buf *>(p);
}

void resetBuf(nphls_buf &b, uint32_t len) {
  // Bytes a later push exposes read as 0, not as the buffer's previous
  // packet's, as in the C target's pool and the interpreter.
  for (uint32_t k = 0; k < NPRT_PKT_HEADROOM; ++k)
    b.bytes[k] = 0;
  b.pkt = nprt_pkt();
  b.pkt.data = b.bytes + NPRT_PKT_HEADROOM;
  b.pkt.len = len;
  b.pkt.headroom = NPRT_PKT_HEADROOM;
  b.pkt.tailroom =
      len <= NPHLS_POOL_FRAME_BYTES ? NPHLS_POOL_FRAME_BYTES - len : 0;
  b.cap_len = b.wire_len = 0;
  b.live = true;
  b.tail = nullptr;
  b.start = b.pkt.data;
  b.loaded = b.end = len;
}

/// A free buffer of `self`, or NULL when all its slots are live.
nphls_buf *allocBuf(nprt_inst *self) {
  for (uint32_t k = 0; k < self->n_slots; ++k)
    if (!self->slots[k].live)
      return &self->slots[k];
  return nullptr;
}

/// The stand-in of a packet that could not be allocated.
nprt_pkt *standin(nprt_inst *self) {
  ++self->counts.alloc_failures;
  resetBuf(self->standin, 0);
  self->standin.pkt.tailroom = 0;
  self->standin.live = false;
  return &self->standin.pkt;
}

bool isStandin(nprt_inst *self, const nprt_pkt *p) {
  return p == &self->standin.pkt;
}

/// Reads the flits `b` left in its input stream into the buffer, after
/// those it holds: the packet is needed whole after all.
void spill(nprt_inst *self, nphls_buf &b) {
  if (!b.tail)
    return;
  uint32_t at = b.loaded;
  for (;;) {
    nphls_flit x = b.tail->read();
    ++self->counts.buffered_flits;
    uint8_t bytes[NPHLS_FLIT_BYTES];
    nphls_flit_get_bytes(x, bytes);
    for (uint32_t k = 0; k < (uint32_t)x.bytes; ++k)
      if (at + k < b.end)
        b.start[at + k] = bytes[k];
    at += NPHLS_FLIT_BYTES;
    if (x.eop)
      break;
  }
  b.tail = nullptr;
  b.loaded = b.end;
  ++self->counts.spills;
}

/// Spills every packet whose tail waits in `s`, so that what `s` holds
/// next is a packet of its own.
void settle(nprt_inst *self, const void *s) {
  for (uint32_t k = 0; k < self->n_slots; ++k)
    if (self->slots[k].live && self->slots[k].tail == s)
      spill(self, self->slots[k]);
}

/// Reads and discards the flits `b` left in its input stream.
void discardTail(nprt_inst *self, nphls_buf &b) {
  while (b.tail) {
    nphls_flit x = b.tail->read();
    ++self->counts.streamed_flits;
    if (x.eop)
      b.tail = nullptr;
  }
}

/// Frees the buffer of `p`; flits it left in its input stream go too.
void release(nprt_inst *self, nprt_pkt *p) {
  nphls_buf &b = bufOf(p);
  discardTail(self, b);
  b.live = false;
}

/// Packs bytes into the flits of one packet of `total` bytes, the first
/// carrying `meta`.
class FlitPacker {
public:
  FlitPacker(nphls_pkt_stream &s, uint32_t total, const nphls_meta &meta)
      : s(s), total(total), meta(meta) {
    if (total == 0)
      flush();
  }
  void put(uint8_t byte) {
    bytes[fill] = byte;
    ++fill;
    ++emitted;
    if (fill == NPHLS_FLIT_BYTES || emitted == total)
      flush();
  }

private:
  void flush() {
    for (uint32_t k = fill; k < NPHLS_FLIT_BYTES; ++k)
      bytes[k] = 0;
    nphls_flit_set_bytes(flit, bytes);
    flit.bytes = fill;
    flit.sop = first;
    flit.eop = emitted == total;
    if (first)
      flit.meta = meta;
    s.write(flit);
    flit = nphls_flit();
    first = false;
    fill = 0;
  }
  nphls_pkt_stream &s;
  uint32_t total, emitted = 0, fill = 0;
  bool first = true;
  nphls_meta meta;
  nphls_flit flit;
  uint8_t bytes[NPHLS_FLIT_BYTES];
};

/// The bytes of the flits left in a stream, one at a time.
class TailReader {
public:
  TailReader(nphls_pkt_stream *s) : s(s) {}
  uint8_t next() {
    if (at == avail) {
      if (done)
        return 0;
      x = s->read();
      ++flits;
      at = 0;
      avail = x.bytes;
      done = x.eop;
      if (avail == 0)
        return 0;
      nphls_flit_get_bytes(x, bytes);
    }
    return bytes[at++];
  }
  /// Reads the flits not read yet.
  void drain() {
    while (!done) {
      x = s->read();
      ++flits;
      done = x.eop;
    }
  }
  uint32_t flits = 0;

private:
  nphls_pkt_stream *s;
  nphls_flit x;
  uint8_t bytes[NPHLS_FLIT_BYTES];
  uint32_t at = 0, avail = 0;
  bool done = false;
};

nphls_meta metaOf(const nphls_buf &b, uint32_t lead) {
  nphls_meta m;
  m.lead = lead;
  m.len = b.pkt.len;
  m.headroom = b.pkt.headroom;
  m.tailroom = b.pkt.tailroom;
  m.wire_len = b.wire_len;
  m.cap_len = b.cap_len;
  m.in_port = b.pkt.in_port;
  m.paint = b.pkt.paint;
  m.out_port = b.pkt.out_port;
  m.anno = b.pkt.anno;
  m.ts = b.pkt.ts;
  for (uint32_t a = 0; a < NPRT_PKT_ANNOS; ++a)
    m.annos[a] = b.pkt.annos[a];
  return m;
}

#ifndef __SYNTHESIS__
uint64_t activity;
int64_t clockNs;
void (*deviceReadHook)(const nphls_pkt_stream *);
unsigned pushDepth;
std::map<const void *, std::function<void()>> &consumers() {
  static std::map<const void *, std::function<void()>> c;
  return c;
}
std::vector<nphls_csim_instance> &registry() {
  static std::vector<nphls_csim_instance> r;
  return r;
}

/// A channel's bound and the packets it holds (C simulation).
struct Bound {
  uint32_t depth = 1, packets = 0;
  bool lossy = false;
  /* Its consumer ended: what is sent there is dropped (docs/runtime.md). */
  bool gone = false;
};
std::map<const void *, Bound> &bounds() {
  static std::map<const void *, Bound> b;
  return b;
}

/// An instance's run on a stack of its own (C simulation): suspended
/// while a send waits on the full channel `waitOn`.
struct Run {
  ucontext_t ctx, caller;
  std::unique_ptr<char[]> stack;
  nprt_inst *self = nullptr;
  void (*handler)(nprt_inst *) = nullptr;
  const void *waitOn = nullptr;
  bool active = false; // started and not finished
};
constexpr size_t kRunStack = 1u << 20;
std::map<const nprt_inst *, Run> &runs() {
  static std::map<const nprt_inst *, Run> r;
  return r;
}
/// The run executing now (innermost), if it has a stack of its own.
Run *current;
bool resumeAllowed = true;

bool hasRoom(const void *stream) {
  auto it = bounds().find(stream);
  return it == bounds().end() || it->second.gone ||
         it->second.packets < it->second.depth;
}

void runEntry(unsigned lo, unsigned hi) {
  Run *r = (Run *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
  r->handler(r->self);
  nphls_end_run(r->self);
  r->active = false;
  swapcontext(&r->ctx, &r->caller);
}

/// Switches to `r` until it finishes or waits again.
void enter(Run *r) {
  Run *outer = current;
  current = r;
  swapcontext(&r->caller, &r->ctx);
  current = outer;
}
#endif

} // namespace

uint32_t nphls_write_flits(nphls_pkt_stream &s, nphls_buf &b) {
  // The bytes pulled off the front (Strip) travel first, so that a later
  // push (Unstrip) finds them, as in the C target's one buffer.
  uint32_t lead = nprt_pkt_lead(&b.pkt);
  const uint8_t *from = b.pkt.data - lead;
  uint32_t len = lead + b.pkt.len;
  FlitPacker out(s, len, metaOf(b, lead));
  if (!b.tail) {
    for (uint32_t p = 0; p < len; ++p)
      out.put(from[p]);
    return 0;
  }
  // Byte p of the packet is at from + p: buffered below `held`, in the
  // tail's flits up to `stop` (where the frame ended when it arrived), and
  // buffered again past it (bytes a put appended).
  const uint8_t *held = b.start + b.loaded, *stop = b.start + b.end;
  uint32_t p = 0;
  for (; p < len && from + p < held; ++p)
    out.put(from[p]);
  if (p % NPHLS_FLIT_BYTES == 0 && p > 0 && from + p == held &&
      from + len == stop) {
    // The common case: the header changed in place, or grew or shrank at
    // the front by whole flits, so the tail's flits go out as they are.
    uint32_t n = 0;
    for (bool eop = false; !eop; ++n) {
      nphls_flit x = b.tail->read();
      eop = x.eop;
      x.sop = 0;
      x.meta = nphls_meta();
      s.write(x);
    }
    b.tail = nullptr;
    return n;
  }
  TailReader tail(b.tail);
  const uint8_t *next = held; // the address of the tail's next byte
  for (; p < len; ++p) {
    const uint8_t *a = from + p;
    if (a >= held && a < stop) {
      for (; next < a; ++next)
        tail.next();
      out.put(tail.next());
      ++next;
    } else {
      out.put(*a);
    }
  }
  tail.drain();
  b.tail = nullptr;
  return tail.flits;
}

uint32_t nphls_read_flits(nphls_pkt_stream &s, nphls_buf &b, uint32_t window) {
  nphls_flit x = s.read();
  uint32_t len = x.meta.len;
  resetBuf(b, len > NPHLS_FRAME_BYTES ? NPHLS_FRAME_BYTES : len);
  // A frame cut to fit the buffer is read whole (its tail would not fit).
  if (len > NPHLS_FRAME_BYTES)
    window = 0;
  // The packet keeps the room it had (as a buffer passed between the C
  // target's elements does), within what one buffer holds.
  uint32_t head = x.meta.headroom, tail = x.meta.tailroom;
  if (head + b.pkt.len + tail <= sizeof(b.bytes)) {
    b.pkt.headroom = head;
    b.pkt.tailroom = tail;
    b.pkt.data = b.bytes + head;
  }
  b.wire_len = x.meta.wire_len;
  b.cap_len = x.meta.cap_len;
  b.pkt.in_port = x.meta.in_port;
  b.pkt.paint = x.meta.paint;
  b.pkt.out_port = x.meta.out_port;
  b.pkt.anno = x.meta.anno;
  b.pkt.ts = x.meta.ts;
  for (uint32_t a = 0; a < NPRT_PKT_ANNOS; ++a)
    b.pkt.annos[a] = x.meta.annos[a];
  // The lead fits in front of the frame unless the packet's room did not
  // fit the buffer; its bytes past the headroom are then dropped.
  uint32_t lead = x.meta.lead, room = (uint32_t)(b.pkt.data - b.bytes);
  uint32_t skip = lead > room ? lead - room : 0;
  lead -= skip;
  if (skip)
    window = 0;
  b.start = b.pkt.data - lead;
  b.end = lead + b.pkt.len;
  // Headroom past the initial one that the lead does not cover (a strip's
  // bytes that were 0) reads as 0 too.
  for (uint8_t *z = b.bytes + NPRT_PKT_HEADROOM; z < b.start; ++z)
    *z = 0;
  // With a window, the flits that cover the lead and `window` bytes of
  // frame; the others stay in `s`.
  uint32_t want = lead + window;
  uint32_t n = 1, at = 0;
  for (;; at += NPHLS_FLIT_BYTES, ++n) {
    uint8_t bytes[NPHLS_FLIT_BYTES];
    nphls_flit_get_bytes(x, bytes);
    for (uint32_t k = 0; k < (uint32_t)x.bytes; ++k)
      if (at + k >= skip && at + k - skip < b.end)
        b.start[at + k - skip] = bytes[k];
    if (x.eop)
      break;
    if (window && at + NPHLS_FLIT_BYTES >= want) {
      b.tail = &s;
      break;
    }
    x = s.read();
  }
  b.loaded = b.tail ? at + NPHLS_FLIT_BYTES : b.end;
  return n;
}

void nphls_whole(nprt_inst *self, nprt_pkt *p) {
  if (p && !isStandin(self, p))
    spill(self, bufOf(p));
}

void nphls_end_run(nprt_inst *self) {
  for (uint32_t k = 0; k < self->n_slots; ++k)
    if (self->slots[k].live)
      spill(self, self->slots[k]);
}

/// Whether a packet or value of its own waits in `s` (a tail a held
/// packet left there is read in first).
static bool waits(nprt_inst *self, nphls_pkt_stream *s) {
  if (!s)
    return false;
  settle(self, s);
  return !s->empty();
}

/// Receives a packet from `s` into a free buffer, its header window only
/// when the instance is header-only.
static nprt_pkt *receive(nprt_inst *self, nphls_pkt_stream &s) {
  settle(self, &s);
#ifndef __SYNTHESIS__
  auto bound = bounds().find(&s);
  if (bound != bounds().end() && bound->second.packets)
    --bound->second.packets;
#endif
  nphls_buf *b = allocBuf(self);
  if (!b) {
    // More packets held than the instance has buffers: this one is lost,
    // and counted (a fault of the FPGA build, not of the program).
    ++self->counts.faults;
    self->counts.buffered_flits += nphls_read_flits(s, self->standin);
    return standin(self);
  }
  self->counts.buffered_flits += nphls_read_flits(s, *b, self->window);
  ++self->counts.received;
  return &b->pkt;
}

/// Writes `p` to `s` and frees its buffer.
static void transmit(nprt_inst *self, nphls_pkt_stream &s, nprt_pkt *p) {
  self->counts.streamed_flits += nphls_write_flits(s, bufOf(p));
  ++self->counts.sent;
  release(self, p);
}

bool nphls_ready(nprt_inst *self, uint64_t mask, int dev) {
  if (self->finished)
    return false;
  for (uint32_t k = 0; k < self->n_in && k < 64; ++k) {
    if (!((mask >> k) & 1u))
      continue;
    if (waits(self, self->in[k]) || (self->vin[k] && !self->vin[k]->empty()))
      return true;
  }
  return dev >= 0 && (uint32_t)dev < self->n_dev_in &&
         waits(self, self->dev_in[dev]);
}

extern "C" {

void *nprt_state(nprt_inst *self) { return self->state; }

void *nprt_shared(nprt_inst *self) { return self->shared; }

nprt_pkt *nprt_recv_pkt(nprt_inst *self, uint32_t port) {
  return receive(self, *self->in[port]);
}

uint64_t nprt_recv_val(nprt_inst *self, uint32_t port) {
  ++self->counts.received;
  return self->vin[port]->read();
}

bool nprt_poll(nprt_inst *self, uint32_t port) {
  return port < self->n_in && (waits(self, self->in[port]) ||
                               (self->vin[port] && !self->vin[port]->empty()));
}

nprt_pkt *nprt_try_recv_pkt(nprt_inst *self, uint32_t port) {
  return nprt_poll(self, port) ? nprt_recv_pkt(self, port) : nullptr;
}

uint64_t nprt_try_recv_val(nprt_inst *self, uint32_t port) {
  return nprt_poll(self, port) ? nprt_recv_val(self, port) : 0;
}

void nprt_send_pkt(nprt_inst *self, uint32_t port, nprt_pkt *p) {
  if (isStandin(self, p) || port >= self->n_out || !self->out[port]) {
    ++self->counts.drops;
    release(self, p);
    return;
  }
#ifndef __SYNTHESIS__
  const void *s = self->out[port];
  auto bound = bounds().find(s);
  if (bound != bounds().end() && bound->second.gone) {
    ++self->counts.drops;
    release(self, p);
    return;
  }
  if (bound != bounds().end() && !hasRoom(s)) {
    if (bound->second.lossy) {
      ++self->counts.drops;
      release(self, p);
      return;
    }
    // Its consumer runs first (the C runtime hands over to it), which
    // may make room; else the run waits for room when it can be suspended
    // (a run nested in its own instance's cannot: the channel then holds
    // one more).
    nphls_csim_pushed(s);
    Run *r = current;
    if (r && r->self == self && !hasRoom(s)) {
      r->waitOn = s;
      while (!hasRoom(s))
        swapcontext(&r->ctx, &r->caller);
      r->waitOn = nullptr;
      if (bound->second.gone) {
        ++self->counts.drops;
        release(self, p);
        return;
      }
    }
  }
  bool wasEmpty = self->out[port]->empty();
  if (bound != bounds().end())
    ++bound->second.packets;
#endif
  transmit(self, *self->out[port], p);
#ifndef __SYNTHESIS__
  if (wasEmpty)
    nphls_csim_pushed(self->out[port]);
#endif
}

void nprt_send_val(nprt_inst *self, uint32_t port, uint64_t v) {
  if (port >= self->n_out || !self->vout[port]) {
    ++self->counts.drops;
    return;
  }
#ifndef __SYNTHESIS__
  auto bound = bounds().find(self->vout[port]);
  if (bound != bounds().end() && bound->second.gone) {
    ++self->counts.drops;
    return;
  }
  bool wasEmpty = self->vout[port]->empty();
#endif
  self->vout[port]->write(v);
  ++self->counts.sent;
#ifndef __SYNTHESIS__
  if (wasEmpty)
    nphls_csim_pushed(self->vout[port]);
#endif
}

uint32_t nprt_select(nprt_inst *self, uint64_t mask) {
  uint32_t first = 0;
  bool seen = false;
  for (uint32_t k = 0; k < self->n_in && k < 64; ++k) {
    if (!((mask >> k) & 1u))
      continue;
    if (nprt_poll(self, k))
      return k;
    if (!seen)
      first = k;
    seen = true;
  }
  return first;
}

nprt_pkt *nprt_device_recv(nprt_inst *self, uint32_t dev) {
  nprt_pkt *p = receive(self, *self->dev_in[dev]);
#ifndef __SYNTHESIS__
  if (deviceReadHook)
    deviceReadHook(self->dev_in[dev]);
#endif
  return p;
}

void nprt_device_send(nprt_inst *self, uint32_t dev, nprt_pkt *p) {
  if (isStandin(self, p) || dev >= self->n_dev_out || !self->dev_out[dev]) {
    ++self->counts.drops;
    release(self, p);
    return;
  }
  transmit(self, *self->dev_out[dev], p);
}

void nprt_drop(nprt_inst *self, nprt_pkt *p) {
  ++self->counts.drops;
  if (!isStandin(self, p))
    release(self, p);
}

nprt_pkt *nprt_clone(nprt_inst *self, const nprt_pkt *p) {
  nphls_buf *b = allocBuf(self);
  if (!b || p->len > NPHLS_FRAME_BYTES)
    return standin(self);
  nphls_buf &from = bufOf(const_cast<nprt_pkt *>(p));
  spill(self, from);
  // A new buffer's room, as libnprt's clone.
  resetBuf(*b, p->len);
  b->pkt.in_port = p->in_port;
  b->pkt.paint = p->paint;
  b->pkt.out_port = p->out_port;
  b->pkt.anno = p->anno;
  b->pkt.ts = p->ts;
  for (uint32_t a = 0; a < NPRT_PKT_ANNOS; ++a)
    b->pkt.annos[a] = p->annos[a];
  for (uint32_t k = 0; k < p->len; ++k)
    b->pkt.data[k] = p->data[k];
  b->cap_len = from.cap_len;
  b->wire_len = from.wire_len;
  return &b->pkt;
}

nprt_pkt *nprt_pkt_new(nprt_inst *self, uint32_t len) {
  nphls_buf *b = allocBuf(self);
  if (!b || len > NPHLS_FRAME_BYTES)
    return standin(self);
  resetBuf(*b, len);
  for (uint32_t k = 0; k < len; ++k)
    b->pkt.data[k] = 0;
  return &b->pkt;
}

void nprt_fault(nprt_inst *self, uint32_t) { ++self->counts.faults; }

uint64_t nprt_now(nprt_inst *) {
#ifndef __SYNTHESIS__
  return (uint64_t)clockNs;
#else
  return 0;
#endif
}

void nprt_finish(nprt_inst *self) { self->finished = true; }

void nprt_print_pkt(nprt_inst *self, const nprt_pkt *p, const char *label,
                    int32_t max) {
#ifndef __SYNTHESIS__
  if (p && !isStandin(self, p))
    spill(self, bufOf(const_cast<nprt_pkt *>(p)));
  fprintf(stderr, "%s: %4u |", label, p ? p->len : 0u);
  for (uint32_t k = 0; p && k < p->len && (max < 0 || k < (uint32_t)max); ++k)
    fprintf(stderr, "%s%02x", k % 4 ? "" : " ", p->data[k]);
  fputc('\n', stderr);
#endif
  (void)self;
}

void nprt_print_val(nprt_inst *, const char *label, uint64_t v,
                    bool is_signed) {
#ifndef __SYNTHESIS__
  if (is_signed)
    fprintf(stderr, "%s: %lld\n", label, (long long)(int64_t)v);
  else
    fprintf(stderr, "%s: %llu\n", label, (unsigned long long)v);
#endif
}

uint64_t nprt_handler_arg(nprt_inst *self, uint32_t k) {
  return k < NPRT_MAX_HANDLER_ARGS ? self->args[k] : 0;
}

void nprt_handler_result(nprt_inst *self, uint64_t v) { self->result = v; }

} // extern "C"

#ifndef __SYNTHESIS__
void nphls_csim_on_write(const void *stream, std::function<void()> consumer) {
  consumers()[stream] = std::move(consumer);
}

void nphls_csim_pushed(const void *stream) {
  auto it = consumers().find(stream);
  if (it == consumers().end() || pushDepth >= NPHLS_CSIM_MAX_NEST)
    return;
  ++pushDepth;
  it->second();
  --pushDepth;
}

void nphls_csim_depth(const void *stream, uint32_t depth, bool lossy) {
  Bound &b = bounds()[stream];
  b.depth = depth ? depth : 1;
  b.lossy = lossy;
}

bool nphls_csim_resume(nprt_inst *self) {
  auto it = runs().find(self);
  if (it == runs().end() || !it->second.active)
    return false;
  Run &r = it->second;
  // Running: this call is nested in its own run, which it may reenter
  // (nphls_csim_run).
  if (!r.waitOn)
    return false;
  if (!hasRoom(r.waitOn) || !resumeAllowed)
    return true;
  nphls_csim_note_run();
  enter(&r);
  return true;
}

void nphls_csim_allow_resume(bool allow) { resumeAllowed = allow; }

void nphls_csim_run(nprt_inst *self, void (*handler)(nprt_inst *)) {
  Run &r = runs()[self];
  if (r.active) {
    // Nested in its own run (a cycle of pushes): run it in place.
    handler(self);
    nphls_end_run(self);
    return;
  }
  if (!r.stack)
    r.stack.reset(new char[kRunStack]);
  r.self = self;
  r.handler = handler;
  r.waitOn = nullptr;
  r.active = true;
  getcontext(&r.ctx);
  r.ctx.uc_stack.ss_sp = r.stack.get();
  r.ctx.uc_stack.ss_size = kRunStack;
  r.ctx.uc_link = nullptr;
  uintptr_t at = (uintptr_t)&r;
  makecontext(&r.ctx, (void (*)())runEntry, 2, (unsigned)(at & 0xffffffffu),
              (unsigned)(at >> 32));
  enter(&r);
}

uint64_t nphls_csim_activity(void) { return activity; }

void nphls_csim_on_device_read(void (*hook)(const nphls_pkt_stream *dev)) {
  deviceReadHook = hook;
}

void nphls_csim_set_clock(int64_t ns) { clockNs = ns; }

void nphls_csim_note_run(void) { ++activity; }

void nphls_csim_register(nprt_inst *self, const nprt_handler_desc *handlers,
                         uint32_t n_handlers, nprt_signal_fn signal,
                         nprt_fn fini) {
  nphls_csim_instance i{self, handlers, n_handlers, signal, fini, {},
                        {},   {},       {},         {},     {},   false};
  i.in.assign(self->in, self->in + self->n_in);
  for (uint32_t d = 0; d < self->n_dev_in; ++d)
    if (self->dev_in[d])
      i.devIn.push_back(self->dev_in[d]);
  for (uint32_t d = 0; d < self->n_dev_out; ++d)
    if (self->dev_out[d])
      i.devOut.push_back(self->dev_out[d]);
  i.vin.assign(self->vin, self->vin + self->n_in);
  i.out.assign(self->out, self->out + self->n_out);
  i.vout.assign(self->vout, self->vout + self->n_out);
  registry().push_back(std::move(i));
}

nphls_csim_instance *nphls_csim_find(const char *name) {
  for (nphls_csim_instance &i : registry())
    if (strcmp(i.self->name, name) == 0)
      return &i;
  return nullptr;
}

uint32_t nphls_csim_count(void) { return (uint32_t)registry().size(); }

namespace {
bool inSend(nprt_inst *s) {
  auto it = runs().find(s);
  return it != runs().end() && it->second.active && it->second.waitOn;
}

bool holds(nphls_csim_instance &i, size_t p) {
  return waits(i.self, i.in[p]) || (i.vin[p] && !i.vin[p]->empty());
}
} // namespace

bool nphls_csim_end_instances(
    const std::vector<const nphls_pkt_stream *> &open) {
  std::vector<nphls_csim_instance> &reg = registry();
  // Who writes each stream; a stream no instance writes (an input device,
  // or the stand-in of an unconnected port) is closed.
  std::map<const void *, size_t> producer;
  for (size_t k = 0; k < reg.size(); ++k)
    for (size_t p = 0; p < reg[k].out.size(); ++p) {
      if (reg[k].out[p])
        producer[reg[k].out[p]] = k;
      if (reg[k].vout[p])
        producer[reg[k].vout[p]] = k;
    }
  bool any = false;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < reg.size(); ++k) {
      nphls_csim_instance &i = reg[k];
      if (i.ended || inSend(i.self))
        continue;
      bool end = true;
      for (size_t p = 0; p < i.in.size() && p < 64 && !i.self->finished; ++p) {
        if (!((i.self->push_mask >> p) & 1u))
          continue;
        const void *stream = i.in[p] ? (const void *)i.in[p] : i.vin[p];
        auto from = producer.find(stream);
        if (holds(i, p) || (from != producer.end() && !reg[from->second].ended))
          end = false;
      }
      for (nphls_pkt_stream *dev : i.devIn)
        if (!dev->empty() ||
            std::find(open.begin(), open.end(), dev) != open.end())
          end = false;
      if (!end)
        continue;
      // What waits for it is dropped, and so is what is sent to it later.
      i.ended = changed = any = true;
      i.self->finished = true;
      for (size_t p = 0; p < i.in.size(); ++p) {
        if (i.in[p]) {
          Bound &b = bounds()[i.in[p]];
          b.gone = true;
          b.packets = 0;
          while (!i.in[p]->empty())
            i.in[p]->read();
        }
        if (i.vin[p]) {
          bounds()[i.vin[p]].gone = true;
          while (!i.vin[p]->empty())
            i.vin[p]->read();
        }
      }
    }
  }
  return any;
}

bool nphls_csim_sender_ended(const nphls_pkt_stream *dev) {
  for (const nphls_csim_instance &i : registry())
    if (!i.ended &&
        std::find(i.devOut.begin(), i.devOut.end(), dev) != i.devOut.end())
      return false;
  return true;
}

bool nphls_csim_deadlock(FILE *err) {
  std::vector<nphls_csim_instance> &reg = registry();
  bool stuck = false;
  for (nphls_csim_instance &i : reg) {
    if (i.ended)
      continue;
    stuck |= inSend(i.self);
    for (size_t p = 0; p < i.in.size(); ++p)
      stuck |= holds(i, p);
  }
  if (!stuck)
    return false;
  for (nphls_csim_instance &i : reg) {
    if (i.ended)
      continue;
    uint32_t left = 0;
    for (size_t p = 0; p < i.in.size(); ++p)
      left += holds(i, p);
    if (inSend(i.self))
      fprintf(err, "deadlock: instance '%s' blocked in send\n", i.self->name);
    else if (left)
      fprintf(err,
              "deadlock: instance '%s' blocked in receive, values left on "
              "%u of its input ports\n",
              i.self->name, left);
    else
      fprintf(err, "deadlock: instance '%s' blocked in receive\n",
              i.self->name);
  }
  return true;
}

nphls_csim_instance *nphls_csim_at(uint32_t i) { return &registry()[i]; }
#endif
