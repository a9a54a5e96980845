/*===- pcie_msg.h - framing of PCIe-slot messages ---------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The messages the host executable and the FPGA's C simulation exchange
 * over their socket, as ClickNP's PCIe I/O channel (section 5.3) carries
 * them: each message is at most NPRT_PCIE_MSG_MAX (64 KB) and belongs to
 * one slot; a DATA message carries a batch of packets, each with its
 * length and metadata. Plain C11 that also compiles as C++ (the
 * testbench builds it).
 *
 *   header (16 bytes, host byte order: both ends run on one machine)
 *     u32 magic 'NPCS'  u8 kind  u8 slot  u16 count  u32 size  u32 closed
 *   per packet (DATA)
 *     u32 len  u32 wire_len  u32 in_port  u32 paint  u32 out_port
 *     u32 headroom  u32 tailroom  u32 lead  i64 ts  u64 anno
 *     u64 annos[NPRT_PCIE_ANNOS]  u64 seq  i64 clock  lead bytes  len bytes
 *   (the packet's annotations and room as its buffer had them, and the
 *   `lead` bytes in front of its frame from the first that is not 0:
 *   what a strip took off, or a push exposed and the program wrote; the
 *   rest of the headroom reads as 0 on both sides; `seq` numbers the
 *   packets a side sends, over all slots, so that the other can take the
 *   packets of one SYNC in the order they were sent; `clock` is the
 *   sender's clock when it sent the packet, INT64_MIN before it read any
 *   packet from a device: the receiver's clock moves to it)
 *
 * Kinds: DATA (a batch for `slot`), SYNC (the host: run until idle and
 * answer; the FPGA: idle, every output sent, and `slot` 1 while input
 * devices of its own have packets left for later SYNCs, else 0), END (the
 * host: no more packets; the FPGA answers END and exits, with status 3
 * if its part of the graph deadlocked).
 *
 * A SYNC carries, after its header, the i64 clock of its sender: the
 * FPGA's moves the host's clock on, as one core's moves with the packets
 * of devices the host never sees.
 *
 * A SYNC's `closed` has bit S set for each slot S whose sender ended: the
 * slots the host sends into (the host's SYNC) or the FPGA sends into (the
 * FPGA's), so far. The receiver of a closed slot ends once it took what
 * was sent, as a channel's does once its producer ended; a receiver whose
 * slot stays open waits, and a run in which only such receivers are left
 * is drained or deadlocked as one on a single core would be.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PCIE_MSG_H
#define NPRT_PCIE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPRT_PCIE_MSG_MAX 65536u
#define NPRT_PCIE_SLOTS 30u
#define NPRT_PCIE_MAGIC 0x5343504eu /* "NPCS" */
#define NPRT_PCIE_HDR 16u
#define NPRT_PCIE_ANNOS 16u /* NPRT_PKT_ANNOS */
#define NPRT_PCIE_REC (64u + 8u * NPRT_PCIE_ANNOS)

enum { NPRT_PCIE_DATA = 1, NPRT_PCIE_SYNC = 2, NPRT_PCIE_END = 3 };

typedef struct nprt_pcie_rec {
  uint32_t len, wire_len, in_port, paint, out_port;
  uint32_t headroom, tailroom, lead;
  int64_t ts;
  uint64_t anno;
  uint64_t annos[NPRT_PCIE_ANNOS];
  uint64_t seq;
  int64_t clock;
} nprt_pcie_rec;

/* One message being filled (DATA) or read. */
typedef struct nprt_pcie_msg {
  uint8_t buf[NPRT_PCIE_MSG_MAX];
  size_t used; /* bytes of buf in use, header included */
  uint32_t kind, slot, count;
  uint32_t closed; /* SYNC: slots whose sender ended (a bit per slot) */
  int64_t clock;   /* SYNC: the sender's clock (INT64_MIN: not started) */
} nprt_pcie_msg;

/* An empty message of `kind` for `slot`. */
void nprt_pcie_msg_init(nprt_pcie_msg *m, uint32_t kind, uint32_t slot);
/* Whether a packet of `len` bytes (lead and frame) still fits into `m`. */
bool nprt_pcie_msg_fits(const nprt_pcie_msg *m, uint32_t len);
/* Whether a packet of `len` bytes (lead and frame) fits into any message. */
bool nprt_pcie_msg_packet_ok(uint32_t len);
/* Appends a packet, its `r->lead + r->len` bytes at `data`; false when it
 * does not fit. */
bool nprt_pcie_msg_add(nprt_pcie_msg *m, const nprt_pcie_rec *r,
                       const uint8_t *data);
/* Writes the header; the message is then buf[0 .. used). */
void nprt_pcie_msg_seal(nprt_pcie_msg *m);

/* Checks a whole message of `n` bytes (header and every record); sets
 * kind, slot, count and used. -1 with a reason in `err` if malformed. */
int nprt_pcie_msg_check(nprt_pcie_msg *m, size_t n, char *err, size_t errlen);
/* The packet at *off (start: NPRT_PCIE_HDR) of a checked message, its
 * lead and then its frame at *data; moves *off past it. */
void nprt_pcie_msg_at(const nprt_pcie_msg *m, size_t *off, nprt_pcie_rec *r,
                      const uint8_t **data);

/* Sends a sealed message on `fd`; -1 (errno set) if the peer is gone. */
int nprt_pcie_send(int fd, const nprt_pcie_msg *m);
/* Receives one message into `m` and checks it: 0, 1 at a clean end of
 * stream (the peer closed between messages), -1 with a reason in `err`
 * (a truncated message, a malformed one, a read error). */
int nprt_pcie_recv(int fd, nprt_pcie_msg *m, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_PCIE_MSG_H */
