/*===- nphls.h - what HLS C++ emitted by npcc runs on -----------*- C++ -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * `npcc --target=hls` lowers element bodies exactly as the C target does
 * (the same np-to-EmitC patterns, the same libnprt ABI of nprt/abi.def);
 * what differs is underneath: an instance is a free-running HLS process
 * whose ports are hls::stream objects, and packets travel between
 * processes as flits (docs/hls-target.md, "Flits"). This header is the
 * FPGA side of that ABI: the flit, the instance record the bodies take as
 * `self`, and the few entry points the process functions call. The packet
 * accessors are nprt/packet.h's, so both targets read and write frames
 * with one implementation.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPHLS_NPHLS_H
#define NPHLS_NPHLS_H

#include <ap_int.h>
#include <hls_stream.h>

#include <stddef.h>
#include <stdint.h>

#include "nprt/nprt.h"

/* Bytes of frame one flit carries. */
#define NPHLS_FLIT_BYTES 64u
/* Frame bytes a packet buffer holds after its headroom: a jumbo frame.
 * Tailroom is libnprt's: frames of up to NPHLS_POOL_FRAME_BYTES may grow
 * to that size, larger ones not at all, so put/take agree with the C
 * target; a frame past NPHLS_FRAME_BYTES cannot be made on the FPGA. */
#define NPHLS_FRAME_BYTES 9216u
#define NPHLS_POOL_FRAME_BYTES 2048u
/* Frame bytes a header-only element holds of a packet it receives (the
 * compiler's kHLSHeaderWindowBytes): the flits that cover them; the rest
 * stay in the stream until the element sends or drops the packet. */
#define NPHLS_WINDOW_BYTES 128u
/* Packets one instance's handler holds at once (received, cloned or new),
 * besides those its packet queues hold. */
#define NPHLS_SLOTS 8u

/* Metadata of a packet, carried on its first flit (sop). */
struct nphls_meta {
  ap_uint<16> len;      /* frame bytes */
  ap_uint<16> headroom; /* bytes the frame may grow by in front (push) */
  ap_uint<16> tailroom; /* and at its end (put) */
  ap_uint<16> wire_len; /* original wire length when captured (pcap) */
  ap_uint<16> cap_len;  /* frame length when captured, 0 if not captured */
  ap_uint<16> lead;     /* bytes in front of the frame the flits carry */
  ap_uint<32> in_port;
  ap_uint<32> paint;
  ap_uint<32> out_port;
  ap_uint<64> anno;
  ap_int<64> ts;
  ap_uint<64> annos[NPRT_PKT_ANNOS];
  /* ap_uint leaves its value undefined; a flit's metadata is all zero
   * unless set. */
  nphls_meta()
      : len(0), headroom(0), tailroom(0), wire_len(0), cap_len(0), lead(0),
        in_port(0), paint(0), out_port(0), anno(0), ts(0) {
    for (unsigned a = 0; a < NPRT_PKT_ANNOS; ++a)
      annos[a] = 0;
  }
};

/* One beat of a packet stream: 64 bytes, byte k in bits [8k+7:8k];
 * `bytes` of them valid (1..64; 0 only in the one flit of an empty
 * packet); sop on the first flit, eop on the last. The bytes are the
 * packet's `meta.lead` bytes of headroom (see nphls_write_flits), then its
 * `meta.len` bytes of frame. */
struct nphls_flit {
  ap_uint<512> data;
  ap_uint<7> bytes;
  ap_uint<1> sop;
  ap_uint<1> eop;
  nphls_meta meta;
  nphls_flit() : data(0), bytes(0), sop(0), eop(0) {}
};

/* The flit's 64 bytes into `out`, and a flit's data from 64 bytes: eight
 * 64-bit words, not 64 bytes one at a time. In C simulation each 512-bit
 * shift is a loop over words, and byte by byte they were most of the
 * simulation's time on packets of a few flits. (Shifts, not range():
 * GCC cannot see that range()'s reversed-bounds path of ap_private is
 * dead and warns at -O2.) */
static inline void nphls_flit_get_bytes(const nphls_flit &x, uint8_t *out) {
  ap_uint<512> d = x.data;
  for (uint32_t w = 0; w < NPHLS_FLIT_BYTES / 8; ++w, d >>= 64) {
    uint64_t v = d.to_uint64();
    for (uint32_t k = 0; k < 8; ++k)
      out[8 * w + k] = (uint8_t)(v >> (8 * k));
  }
}
static inline void nphls_flit_set_bytes(nphls_flit &x, const uint8_t *in) {
  ap_uint<512> d = 0;
  for (uint32_t w = NPHLS_FLIT_BYTES / 8; w-- > 0;) {
    uint64_t v = 0;
    for (uint32_t k = 8; k-- > 0;)
      v = v << 8 | in[8 * w + k];
    d <<= 64;
    d |= ap_uint<512>(v);
  }
  x.data = d;
}

/* A header field of W bits (1..64), `bit` bits after byte `off` of the
 * frame in network bit order, as HLS code types it: the element bodies
 * read and write header fields through these (np.pkt_get, np.pkt_set),
 * with libnprt's semantics (bits past the frame read as 0 and are not
 * written). */
template <int W>
static inline ap_uint<W> nphls_pkt_get(const nprt_pkt *p, uint64_t off,
                                       uint32_t bit) {
  return ap_uint<W>(nprt_pkt_get_bits(p, off, bit, W));
}
template <int W>
static inline void nphls_pkt_set(nprt_pkt *p, uint64_t off, uint32_t bit,
                                 ap_uint<W> v) {
  nprt_pkt_set_bits(p, off, bit, W, v.to_uint64());
}

typedef hls::stream<nphls_flit> nphls_pkt_stream;
typedef hls::stream<ap_uint<64>> nphls_val_stream;

/* A packet buffer of an instance: the frame accessors see `pkt`. A
 * packet received into a header-only element's buffer may hold only its
 * first flits: its stream bytes (lead, then frame) start at `start`, the
 * first `loaded` of them are here, and the rest, up to `end`, are still
 * the flits waiting in `tail` (NULL once they are all here). */
struct nphls_buf {
  nprt_pkt pkt;
  uint32_t cap_len, wire_len;
  bool live;
  nphls_pkt_stream *tail = nullptr;
  uint8_t *start = nullptr;
  uint32_t loaded = 0, end = 0;
  uint8_t bytes[NPRT_PKT_HEADROOM + NPHLS_FRAME_BYTES];
};

/* Counters of one instance (csim prints them with --stats). */
struct nphls_counts {
  uint64_t runs, received, sent, drops, faults, alloc_failures;
  /* Flits read into packet buffers; flits that went from an input stream
   * to an output stream (or were discarded at a drop) without a buffer;
   * packets whose tail had to be read in after all (spills). */
  uint64_t buffered_flits, streamed_flits, spills;
};

/* The running instance a body takes as `self`. Ports are the streams its
 * process function was called with, in declaration order; a port that no
 * channel connects is NULL (a send there is a counted drop). */
struct nprt_inst {
  void *state;
  void *shared;
  nphls_pkt_stream **in, **out;
  nphls_val_stream **vin, **vout;
  uint32_t n_in, n_out;
  /* Device streams by device number (FromDevice/ToDevice, FromDump/ToDump). */
  nphls_pkt_stream **dev_in, **dev_out;
  uint32_t n_dev_in, n_dev_out;
  /* Its packet buffers: NPHLS_SLOTS for what a handler holds, and one
   * per packet its packet queues may hold (the process declares them). */
  nphls_buf *slots;
  uint32_t n_slots;
  /* What an allocation that failed returns (as libnprt's stand-in): it
   * reads as an empty frame, and sending or dropping it counts a drop. */
  nphls_buf standin;
  nphls_counts counts;
  /* Frame bytes a receive buffers: NPHLS_WINDOW_BYTES (the rest stay in
   * the stream), or 0 for whole packets. */
  uint32_t window;
  bool started, finished;
  /* The input ports whose values start a run (np::pushPortMask): the
   * instance ends when all of them are closed and empty. */
  uint64_t push_mask;
  /* A read handler's value (nprt_handler_result). */
  uint64_t result;
  uint64_t args[NPRT_MAX_HANDLER_ARGS];
  const char *name;
};

/* Whether the process should run its handler now: a value waits on one of
 * the input ports in `mask`, or on input device `dev` (a source; -1 for
 * none). */
bool nphls_ready(nprt_inst *self, uint64_t mask, int dev);

/* Flits of a frame: the number of beats `len` bytes take. */
static inline uint32_t nphls_flits(uint32_t len) {
  return len == 0 ? 1u : (len + NPHLS_FLIT_BYTES - 1) / NPHLS_FLIT_BYTES;
}

/* Writes buffer `b`'s packet to `s` as flits; flits still in its tail
 * stream go on to `s` after the buffered ones. Returns the flits that came
 * from the tail. The headroom travels from its first non-zero byte (the
 * lead): what a pull took off the front, and what a push exposed and the
 * program wrote before pulling it again. The rest of it reads as 0 in
 * every buffer, so a later push downstream finds the same bytes as in the
 * C target's one buffer. */
uint32_t nphls_write_flits(nphls_pkt_stream &s, nphls_buf &b);
/* Reads one packet's flits from `s` into buffer `b`: all of them, or with
 * `window` > 0 those that cover the lead and `window` bytes of frame (the
 * rest stay in `s` as the buffer's tail). Returns the flits read. */
uint32_t nphls_read_flits(nphls_pkt_stream &s, nphls_buf &b,
                          uint32_t window = 0);
/* Reads the rest of `p` into its buffer, if flits of it are still in its
 * input stream: the compiler calls this before an op that needs more of
 * the packet than its header window (a slow path; counted as a spill). */
void nphls_whole(nprt_inst *self, nprt_pkt *p);
/* Ends a run of the handler: a packet the instance still holds (in its
 * state) cannot keep flits in a stream other packets follow, so their
 * tails are read in. */
void nphls_end_run(nprt_inst *self);

#ifndef __SYNTHESIS__
#include <functional>
#include <stdio.h>
#include <vector>

/* C simulation only: the order in which a design's processes see their
 * packets is timing in hardware; the simulation makes it the C target's
 * push order, so that outputs are comparable byte for byte. The top
 * function registers, per channel, the call of its consumer's process;
 * a send into an empty channel makes that call at once, on the sender's
 * stack (Click's push), at most NPHLS_CSIM_MAX_NEST deep (the C runtime's
 * bound; deeper values wait for the top function's next call). */
#define NPHLS_CSIM_MAX_NEST 64u
void nphls_csim_on_write(const void *stream, std::function<void()> consumer);
/* `stream` was empty before the value just written to it. */
void nphls_csim_pushed(const void *stream);

/* C simulation only: the channel `stream` holds at most `depth` packets
 * (at least 1: a rendezvous is a one-place FIFO), as the program's channel
 * does, where hls::stream itself has no bound. A send into a full channel
 * waits (the run is suspended, as a process stalls on a full FIFO in
 * hardware, and resumed once the consumer took a packet), or drops the
 * packet (counted) when the channel is `lossy`. */
void nphls_csim_depth(const void *stream, uint32_t depth, bool lossy);
/* C simulation only: resumes the instance's run that waits on a full
 * channel if the channel has room now. True while such a run exists (the
 * process starts no other). */
bool nphls_csim_resume(nprt_inst *self);
/* C simulation only: whether waiting runs may be resumed (default true).
 * The testbench holds them while an input device's turn of packets
 * enters, as the C runtime steps a waiting sender only after a source's
 * burst. */
void nphls_csim_allow_resume(bool allow);
/* C simulation only: runs `handler` and nphls_end_run on a stack of the
 * instance's own, so that a send into a full channel can suspend it. */
void nphls_csim_run(nprt_inst *self, void (*handler)(nprt_inst *));

/* C simulation only: every handler run counts here, so the testbench can
 * call the top function until the design is idle. */
uint64_t nphls_csim_activity(void);
void nphls_csim_note_run(void);
/* C simulation only: the clock now() reads is the testbench's, as on one
 * core it is the time of the last packet read from a device: `hook` runs
 * each time an instance read a packet from the device stream `dev`, and
 * may set the clock. */
void nphls_csim_on_device_read(void (*hook)(const nphls_pkt_stream *dev));
void nphls_csim_set_clock(int64_t ns);
/* C simulation only: instances register themselves on their first run so
 * the testbench can call their read handlers (-h) and print counts. */
struct nphls_csim_instance {
  nprt_inst *self;
  const nprt_handler_desc *handlers;
  uint32_t n_handlers;
  /* The element's signal and fini bodies (NULL: none). */
  nprt_signal_fn signal;
  nprt_fn fini;
  /* The instance's streams by port (its process keeps them on its stack,
   * in `self` only while it runs). */
  std::vector<nphls_pkt_stream *> in, out;
  std::vector<nphls_val_stream *> vin, vout;
  /* The streams of the devices it reads and writes. */
  std::vector<nphls_pkt_stream *> devIn, devOut;
  /* Terminated (nphls_csim_end_instances). */
  bool ended;
};
void nphls_csim_register(nprt_inst *self, const nprt_handler_desc *handlers,
                         uint32_t n_handlers, nprt_signal_fn signal,
                         nprt_fn fini);
nphls_csim_instance *nphls_csim_find(const char *name);
uint32_t nphls_csim_count(void);
nphls_csim_instance *nphls_csim_at(uint32_t i);
/* The C runtime's termination rule (docs/runtime.md): an instance ends
 * when each of its push ports is closed (its producer ended) and empty,
 * each device stream it reads is empty and not in `open` (the input
 * devices that may still deliver: a PCIe slot whose host sender lives, a
 * file with packets left), and it does not wait in a send; what waits in
 * its input channels, and what is sent there later, is dropped. Returns
 * whether an instance ended (the design then runs on: a send that waited
 * for it goes on). */
bool nphls_csim_end_instances(
    const std::vector<const nphls_pkt_stream *> &open = {});
/* Whether every instance that writes the device stream `dev` ended: what
 * it carries is complete (a PCIe slot the FPGA sends into closed). */
bool nphls_csim_sender_ended(const nphls_pkt_stream *dev);
/* After that, the C runtime's deadlock rule: if an instance that did not
 * end waits in a send, or values are left in a channel it does not wait
 * on, prints a line per instance that did not end to `err` and returns
 * true. */
bool nphls_csim_deadlock(FILE *err);
#endif

#endif /* NPHLS_NPHLS_H */
