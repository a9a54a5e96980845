/*===- npsim.h - npsim as libnprt's simulator flavour sees it ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The C interface of the simulator (Bridge.cpp over Engine.h). libnprt
 * compiled with NPRT_SIM (the `nprt-sim` library that `npcc --sim` links)
 * runs each core of a multicore run as one simulated hardware context
 * and calls these where the program computes, touches memory, waits or
 * moves packets in and out (docs/npsim.md, "Running a program").
 *
 * A "vcore" is the runtime's core: vcore v is context v % K of simulated
 * core v / K, K the contexts per core.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPSIM_NPSIM_H
#define NPSIM_NPSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct npsim_machine npsim_machine;
typedef struct npsim_ctx npsim_ctx;

/* What a simulated address belongs to: the configuration's placement. */
enum npsim_kind {
  NPSIM_STATE = 0,  /* state of an instance every core copies */
  NPSIM_STATE_ONCE, /* state of an instance that runs once */
  NPSIM_SHARED,     /* an element's shared state */
  NPSIM_TABLE,      /* a lookup table */
  NPSIM_PACKET,     /* a packet buffer */
  NPSIM_LANE,       /* a lane between contexts */
  NPSIM_ENGINE,     /* the engines' queues */
  NPSIM_N_KINDS
};

/* Coprocessors, in the configuration's order. */
enum npsim_unit { NPSIM_CRC = 0, NPSIM_CHECKSUM, NPSIM_LPM, NPSIM_HASH };

/* The [costs] table: cycles of the runtime's own operations. */
typedef struct npsim_costs {
  uint32_t send, recv, poll, select, device_recv, device_send, drop, clone,
      pkt_new, call, sw_csum_per16, sw_crc_per_byte, sw_lpm_per_level,
      sw_hash_probe;
} npsim_costs;

/* Tags cycles count against besides the program's instances (0..n-1). */
#define NPSIM_TAG_ACQUISITION 0xfffffff0u
#define NPSIM_TAG_EXTRACTION 0xfffffff1u
#define NPSIM_TAG_RUNTIME 0xfffffff2u

/*--- The machine ---------------------------------------------------------*/

/* Reads configuration `config` ("" for the default, nfp-like) with the
 * `sets`; `cores`/`contexts` 0 take the configuration's. NULL, with the
 * error printed on `err` as "PROG: error: ...", when it cannot. */
npsim_machine *npsim_open(const char *prog, const char *config,
                          const char *const *sets, uint32_t n_sets,
                          uint32_t cores, uint32_t contexts, FILE *err);
void npsim_close(npsim_machine *m);
uint32_t npsim_cores(const npsim_machine *m);
uint32_t npsim_contexts(const npsim_machine *m);
const npsim_costs *npsim_costs_of(const npsim_machine *m);
/* Whether the machine has coprocessor `unit`. */
bool npsim_has_unit(const npsim_machine *m, enum npsim_unit unit);
/* The name of the configuration and the file it came from. */
const char *npsim_config_name(const npsim_machine *m);

/* A simulated address for `bytes` of `kind` belonging to vcore `vcore`,
 * in the copy of its memory that vcore's core reaches; -1 with an error
 * naming the configuration's placement key when the memory is full
 * ("what" names the object). */
int npsim_place(npsim_machine *m, enum npsim_kind kind, uint32_t vcore,
                uint64_t bytes, const char *what, uint64_t *addr);

/* Runs `fn(arg)` as vcore `vcore`'s context; -1 when no stack. */
int npsim_spawn(npsim_machine *m, uint32_t vcore, void (*fn)(void *),
                void *arg);
/* Runs every context to its end; the simulated cycles. */
uint64_t npsim_run(npsim_machine *m);
npsim_ctx *npsim_ctx_of(npsim_machine *m, uint32_t vcore);
npsim_machine *npsim_machine_of(npsim_ctx *c);
/* What the runtime keeps for a context (its executor). */
void npsim_set_user(npsim_ctx *c, void *user);
void *npsim_user(const npsim_ctx *c);
uint32_t npsim_vcore(const npsim_ctx *c);

/*--- The packet engines -------------------------------------------------*/

/* Ingress: the next packet of input device `dev` (in input order), of
 * `bytes` bytes, is for vcore `vcore`. Given for every packet before the
 * run. Each input device has an ingress engine and a wire of its own. */
int npsim_ingress_add(npsim_machine *m, uint32_t vcore, uint32_t dev,
                      uint32_t bytes);
/* The running context's next packet of input `dev` from its ingress
 * engine: sleeps until the engine placed it, takes its descriptor (under
 * the engines' lock) and returns where it lies and the cycle it
 * arrived. */
void npsim_ingress_take(npsim_ctx *c, uint32_t dev, uint64_t *addr,
                        uint64_t *born);
/* Egress: the running context hands a packet of `bytes` bytes at `addr`,
 * born at `born`, to the egress engine of output `dev`. */
void npsim_egress(npsim_ctx *c, uint32_t dev, uint64_t addr, uint32_t bytes,
                  uint64_t born);
/*--- Several NPUs joined by a switch matrix ([switch]) ------------------*/

/* The NPUs (1 without a matrix), and the NPU device `dev` is an interface
 * of (-1: none; 0 for every device without a matrix). */
uint32_t npsim_npus(const npsim_machine *m);
int npsim_npu_of_device(const npsim_machine *m, uint32_t dev);
/* Whether `dev` is an NPU's port on the matrix. */
bool npsim_is_port(const npsim_machine *m, uint32_t dev);
/* The running context sent a frame out of port `dev`: the matrix takes it
 * to the port of the NPU its header names, for context `lane` (taken
 * modulo the contexts of an NPU) there. */
void npsim_matrix_send(npsim_ctx *c, uint32_t dev, const uint8_t *bytes,
                       uint32_t len, int64_t ts, uint32_t lane, uint64_t born);
typedef struct npsim_frame {
  const uint8_t *bytes; /* valid until the context's next take */
  uint32_t len;
  int64_t ts;
  uint64_t index; /* its number among the port's frames */
  uint64_t addr, born;
} npsim_frame;
/* The running context's next frame from port `dev`: 1 with it, 0 when
 * none is there yet, -1 once the matrix ended. */
int npsim_matrix_take(npsim_ctx *c, uint32_t dev, npsim_frame *out);
/* Whether npsim_matrix_take would return something other than 0. */
bool npsim_matrix_ready(npsim_ctx *c, uint32_t dev);
/* The running context's graph cannot move: it waits until a frame comes
 * for it or the matrix ends; true once it ended. */
bool npsim_matrix_idle(npsim_ctx *c);

/* A buffer in packet memory for a packet the program makes. */
uint64_t npsim_packet_alloc(npsim_ctx *c);

/*--- Called by a running context ----------------------------------------*/

void npsim_compute(npsim_ctx *c, uint32_t cycles);
/* A basic block of generated code: its cycles and its code. */
void npsim_block(npsim_ctx *c, uint32_t cycles, uint32_t code_off,
                 uint32_t code_bytes);
/* An access to `bytes` at simulated address `addr` of `kind`. */
void npsim_mem(npsim_ctx *c, enum npsim_kind kind, uint64_t addr,
               uint32_t bytes, bool write);
/* An access to bytes [off, off + bytes) of the packet at `addr`: the
 * first `ingress.header_bytes` are in the context's local memory. */
void npsim_pkt(npsim_ctx *c, uint64_t addr, uint64_t off, uint32_t bytes,
               bool write);
/* Work for coprocessor `unit` on `bytes`; `sw` cycles without one. */
void npsim_coproc(npsim_ctx *c, enum npsim_unit unit, uint32_t bytes,
                  uint32_t sw);
/* Sleeps, at no cost, until a context rings (the runtime's barriers,
 * which a real machine does not have: boot is not measured). */
void npsim_doorbell_wait(npsim_ctx *c);
void npsim_doorbell_ring(npsim_ctx *c);
/* After npsim_run: contexts that never ended (they wait for what nothing
 * will do: a deadlock of the simulation). */
uint32_t npsim_stuck(const npsim_machine *m);
/* A poll that found nothing (a lane, a merge): time passes. */
void npsim_poll(npsim_ctx *c);
/* Its cycles count against `tag` from now. */
void npsim_tag(npsim_ctx *c, uint32_t tag);
/* The stack the context now runs on (NULL: its own). */
void npsim_on_stack(npsim_ctx *c, void *base, size_t size, void *tsan);
/* Where the context's clock is. */
uint64_t npsim_now(const npsim_ctx *c);
/* Lets every event before the context's time happen first: what it does
 * next (a lane's message) is seen by the others at its time. */
void npsim_sync(npsim_ctx *c);
/* The context that runs now on this thread, NULL outside a simulation:
 * for the runtime's code that has no executor at hand. */
npsim_ctx *npsim_running(void);

/*--- Reports ------------------------------------------------------------*/

/* The report: throughput, latency, cycles per element (names of the
 * tags 0..n_tags-1), utilisation, conflicts, locks, coprocessors. As a
 * table on `out`, and as JSON to `json` (NULL: none); a Perfetto trace to
 * `trace` if tracing was asked for before the run. -1 if a file failed. */
int npsim_report(npsim_machine *m, const char *const *tags, uint32_t n_tags,
                 FILE *out, const char *json);
/* Records which context ran what when (before npsim_run), and writes it
 * as a Chrome/Perfetto trace (JSON: one process per core, one thread per
 * context, a slice per stretch a context held its core with one tag,
 * microseconds at the clock). -1 (reported) if the file fails. */
void npsim_trace_on(npsim_machine *m);
int npsim_write_trace(npsim_machine *m, const char *const *tags,
                      uint32_t n_tags, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* NPSIM_NPSIM_H */
