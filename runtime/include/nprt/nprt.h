/*===- nprt.h - npcc runtime ABI used by generated C ------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The interface between C emitted by `npcc --target=c` and libnprt, as
 * declared by nprt/abi.def: generated code describes its graph with a
 * constant nprt_program, keeps each instance's state in the object that
 * nprt_state returns, and moves values through ports by index.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_NPRT_H
#define NPRT_NPRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nprt/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One element instance as the executor sees it. Opaque to generated code. */
typedef struct nprt_inst nprt_inst;

typedef void (*nprt_fn)(nprt_inst *self);
typedef void (*nprt_signal_fn)(nprt_inst *self, int64_t arg);
/* A push body, stored untyped: (nprt_inst *, nprt_pkt *) for a port of
 * packets, (nprt_inst *, int64_t) for one of values. */
typedef void (*nprt_push_fn)(void);
/* nprt_program.channel_words: the words of one run of channels (count,
 * src, src_port, dst, dst_port, depth, flags) and the flags. */
#define NPRT_CHANNEL_WORDS 7u
enum {
  NPRT_CHANNEL_LOSSY = 1u,
  NPRT_CHANNEL_FUSED = 2u,
  NPRT_CHANNEL_UNCOUNTED = 4u,
};

/* Value kinds of handler parameters and results (nprt_handler_desc): an
 * unsigned or signed integer of a width (1..64), a bool, or an IPv4 prefix
 * (len << 32 | addr); NPRT_VAL_DEFAULT marks a parameter with a default. */
#define NPRT_VAL_UINT 0x000u
#define NPRT_VAL_INT 0x100u
#define NPRT_VAL_BOOL 0x200u
#define NPRT_VAL_PREFIX 0x300u
#define NPRT_VAL_KIND_MASK 0x300u
#define NPRT_VAL_WIDTH_MASK 0xffu
#define NPRT_VAL_DEFAULT 0x1000u
/* Operators of nprt_merge_desc. */
#define NPRT_MERGE_SUM 1u
#define NPRT_MERGE_OR 2u
#define NPRT_MERGE_UMAX 3u
#define NPRT_MERGE_SMAX 4u
#define NPRT_MERGE_UMIN 5u
#define NPRT_MERGE_SMIN 6u
/* nprt_program.mapping: as npcc's MappingKind. */
#define NPRT_MAPPING_AUTO 0u
#define NPRT_MAPPING_RTC 1u
#define NPRT_MAPPING_PIPELINE 2u
/* Core counts the mapping tables cover (nprt_program.stages). */
#define NPRT_MAX_CORES 16u
/* npsim's simulated cores and their hardware contexts (--sim). */
#define NPRT_SIM_MAX_CORES 64u
#define NPRT_SIM_MAX_CONTEXTS 8u
/* Parameters of one write handler, at most. */
#define NPRT_MAX_HANDLER_ARGS 16u

/* Result kinds of nprt/abi.def as C types. */
#define NPRT_ABI_RESULT_VOID void
#define NPRT_ABI_RESULT_BOOL bool
#define NPRT_ABI_RESULT_INT int
#define NPRT_ABI_RESULT_U32 uint32_t
#define NPRT_ABI_RESULT_U64 uint64_t
#define NPRT_ABI_RESULT_PKT nprt_pkt *
#define NPRT_ABI_RESULT_PTR void *
#define NPRT_ABI_RESULT_INST nprt_inst *

/* The structs and functions themselves, with their documentation, are in
 * nprt/abi.def. */
#define NPRT_ABI_STRUCT(name) typedef struct name {
#define NPRT_ABI_FIELD(strct, field, ctype) ctype field;
#define NPRT_ABI_STRUCT_END(name)                                              \
  }                                                                            \
  name;
#define NPRT_ABI_FN(name, result, arity, params)                               \
  NPRT_ABI_RESULT_##result name params;
#include "nprt/abi.def"

#include "nprt/link.h"

/* The cost annotations of the emitted C (c-annotate-costs): npsim's in a
 * program built with `npcc --sim`, nothing otherwise. `lv` is the state
 * element the next statement reads or writes. */
#ifdef NPRT_SIM
#define NPRT_SIM_BLOCK(cycles, code_offset, code_bytes)                        \
  nprt_sim_block(cycles, code_offset, code_bytes)
#define NPRT_SIM_RD(lv) nprt_sim_ptr(&(lv), (uint32_t)sizeof(lv), false)
#define NPRT_SIM_WR(lv) nprt_sim_ptr(&(lv), (uint32_t)sizeof(lv), true)
#else
#define NPRT_SIM_BLOCK(cycles, code_offset, code_bytes) ((void)0)
#define NPRT_SIM_RD(lv) ((void)0)
#define NPRT_SIM_WR(lv) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* NPRT_NPRT_H */
