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
#include <map>
#include <stdio.h>
#include <string.h>
#include <vector>
#endif

namespace {

nphls_buf &bufOf(nprt_pkt *p) {
  // `pkt` is the first member of nphls_buf.
  return *reinterpret_cast<nphls_buf *>(p);
}

void resetBuf(nphls_buf &b, uint32_t len) {
  b.pkt = nprt_pkt();
  b.pkt.data = b.bytes + NPRT_PKT_HEADROOM;
  b.pkt.len = len;
  b.pkt.headroom = NPRT_PKT_HEADROOM;
  b.pkt.tailroom =
      len <= NPHLS_POOL_FRAME_BYTES ? NPHLS_POOL_FRAME_BYTES - len : 0;
  b.cap_len = b.wire_len = 0;
  b.live = true;
}

/// A free buffer of `self`, or NULL when all NPHLS_SLOTS are live.
nphls_buf *allocBuf(nprt_inst *self) {
  for (uint32_t k = 0; k < NPHLS_SLOTS; ++k)
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

void freeBuf(nprt_pkt *p) { bufOf(p).live = false; }

#ifndef __SYNTHESIS__
uint64_t activity;
int64_t clockNs;
unsigned pushDepth;
std::map<const void *, std::function<void()>> &consumers() {
  static std::map<const void *, std::function<void()>> c;
  return c;
}
std::vector<nphls_csim_instance> &registry() {
  static std::vector<nphls_csim_instance> r;
  return r;
}
#endif

} // namespace

bool nphls_ready(nprt_inst *self, uint64_t mask, int dev) {
  if (self->finished)
    return false;
  for (uint32_t k = 0; k < self->n_in && k < 64; ++k) {
    if (!((mask >> k) & 1u))
      continue;
    if ((self->in[k] && !self->in[k]->empty()) ||
        (self->vin[k] && !self->vin[k]->empty()))
      return true;
  }
  return dev >= 0 && (uint32_t)dev < self->n_dev_in && self->dev_in[dev] &&
         !self->dev_in[dev]->empty();
}

void nphls_write_flits(nphls_pkt_stream &s, const nphls_buf &b) {
  // The bytes pulled off the front (Strip) travel first, so that a later
  // push (Unstrip) finds them, as in the C target's one buffer.
  uint32_t lead = nphls_lead(b.pkt.headroom);
  const uint8_t *from = b.pkt.data - lead;
  uint32_t len = lead + b.pkt.len, n = nphls_flits(len);
  for (uint32_t f = 0; f < n; ++f) {
    nphls_flit x;
    uint32_t at = f * NPHLS_FLIT_BYTES;
    uint32_t bytes = len - at < NPHLS_FLIT_BYTES ? len - at : NPHLS_FLIT_BYTES;
    x.data = 0;
    for (uint32_t k = 0; k < bytes; ++k)
      x.data.range(8 * k + 7, 8 * k) = from[at + k];
    x.bytes = bytes;
    x.sop = f == 0;
    x.eop = f + 1 == n;
    x.meta = nphls_meta();
    if (f == 0) {
      x.meta.len = b.pkt.len;
      x.meta.headroom = b.pkt.headroom;
      x.meta.tailroom = b.pkt.tailroom;
      x.meta.wire_len = b.wire_len;
      x.meta.cap_len = b.cap_len;
      x.meta.in_port = b.pkt.in_port;
      x.meta.paint = b.pkt.paint;
      x.meta.out_port = b.pkt.out_port;
      x.meta.anno = b.pkt.anno;
      x.meta.ts = b.pkt.ts;
      for (uint32_t a = 0; a < NPRT_PKT_ANNOS; ++a)
        x.meta.annos[a] = b.pkt.annos[a];
    }
    s.write(x);
  }
}

void nphls_read_flits(nphls_pkt_stream &s, nphls_buf &b) {
  nphls_flit x = s.read();
  uint32_t len = x.meta.len;
  resetBuf(b, len > NPHLS_FRAME_BYTES ? NPHLS_FRAME_BYTES : len);
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
  uint32_t lead = nphls_lead(b.pkt.headroom);
  uint8_t *to = b.pkt.data - lead;
  for (uint32_t at = 0;; at += NPHLS_FLIT_BYTES) {
    for (uint32_t k = 0; k < (uint32_t)x.bytes; ++k)
      if (at + k < lead + b.pkt.len)
        to[at + k] = nphls_flit_byte(x, k);
    if (x.eop)
      break;
    x = s.read();
  }
#ifndef __SYNTHESIS__
  if (b.pkt.ts > clockNs)
    clockNs = b.pkt.ts;
#endif
}

extern "C" {

void *nprt_state(nprt_inst *self) { return self->state; }

void *nprt_shared(nprt_inst *self) { return self->shared; }

nprt_pkt *nprt_recv_pkt(nprt_inst *self, uint32_t port) {
  nphls_buf *b = allocBuf(self);
  if (!b) {
    // More packets held than the instance has buffers: this one is lost,
    // and counted (a fault of the FPGA build, not of the program).
    ++self->counts.faults;
    nphls_read_flits(*self->in[port], self->standin);
    return standin(self);
  }
  nphls_read_flits(*self->in[port], *b);
  ++self->counts.received;
  return &b->pkt;
}

uint64_t nprt_recv_val(nprt_inst *self, uint32_t port) {
  ++self->counts.received;
  return self->vin[port]->read();
}

bool nprt_poll(nprt_inst *self, uint32_t port) {
  return port < self->n_in && ((self->in[port] && !self->in[port]->empty()) ||
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
  } else {
#ifndef __SYNTHESIS__
    bool wasEmpty = self->out[port]->empty();
#endif
    nphls_write_flits(*self->out[port], bufOf(p));
    ++self->counts.sent;
    freeBuf(p);
#ifndef __SYNTHESIS__
    if (wasEmpty)
      nphls_csim_pushed(self->out[port]);
#endif
    return;
  }
  freeBuf(p);
}

void nprt_send_val(nprt_inst *self, uint32_t port, uint64_t v) {
  if (port >= self->n_out || !self->vout[port]) {
    ++self->counts.drops;
    return;
  }
#ifndef __SYNTHESIS__
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
  nphls_buf *b = allocBuf(self);
  if (!b) {
    ++self->counts.faults;
    nphls_read_flits(*self->dev_in[dev], self->standin);
    return standin(self);
  }
  nphls_read_flits(*self->dev_in[dev], *b);
  ++self->counts.received;
  return &b->pkt;
}

void nprt_device_send(nprt_inst *self, uint32_t dev, nprt_pkt *p) {
  if (isStandin(self, p) || dev >= self->n_dev_out || !self->dev_out[dev]) {
    ++self->counts.drops;
  } else {
    nphls_write_flits(*self->dev_out[dev], bufOf(p));
    ++self->counts.sent;
  }
  freeBuf(p);
}

void nprt_drop(nprt_inst *self, nprt_pkt *p) {
  ++self->counts.drops;
  if (!isStandin(self, p))
    freeBuf(p);
}

nprt_pkt *nprt_clone(nprt_inst *self, const nprt_pkt *p) {
  nphls_buf *b = allocBuf(self);
  if (!b || p->len > NPHLS_FRAME_BYTES)
    return standin(self);
  const nphls_buf &from = bufOf(const_cast<nprt_pkt *>(p));
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

uint64_t nphls_csim_activity(void) { return activity; }

void nphls_csim_note_run(void) { ++activity; }

void nphls_csim_register(nprt_inst *self, const nprt_handler_desc *handlers,
                         uint32_t n_handlers, nprt_signal_fn signal,
                         nprt_fn fini) {
  registry().push_back({self, handlers, n_handlers, signal, fini});
}

nphls_csim_instance *nphls_csim_find(const char *name) {
  for (nphls_csim_instance &i : registry())
    if (strcmp(i.self->name, name) == 0)
      return &i;
  return nullptr;
}

uint32_t nphls_csim_count(void) { return (uint32_t)registry().size(); }

nphls_csim_instance *nphls_csim_at(uint32_t i) { return &registry()[i]; }
#endif
