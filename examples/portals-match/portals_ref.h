/*===- portals_ref.h - Figure 1 of the match-unit paper, in C -----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The reference semantics of the Portals match function on the item and
 * header layout of docs/match-unit-isa.md. It is the oracle of the
 * differential tests and the embedded-processor peer of the benchmark.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPCC_PORTALS_REF_H
#define NPCC_PORTALS_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  PTL_OPT_VALID = 1u << 0,
  PTL_OPT_PUT = 1u << 1,
  PTL_OPT_GET = 1u << 2,
  PTL_OPT_REMOTE_OFFSET = 1u << 3,
  PTL_OPT_MAX_SIZE = 1u << 4,
  PTL_OPT_TRUNCATE = 1u << 5,
};
enum { PTL_MSG_PUT = 1, PTL_MSG_GET = 2 };
#define PTL_NID_ANY 0xffffffffu
#define PTL_PID_ANY 0xffffu

/* Matches one list item against a header: 1 with *offset and *mlength set,
 * or 0. */
int portals_match_item(const uint64_t item[8], const uint64_t hdr[8],
                       uint64_t *offset, uint64_t *mlength);

/* Figure 1's loop: the index of the first matching item of `list`, or -1. */
long portals_match(const uint64_t (*list)[8], size_t n, const uint64_t hdr[8],
                   uint64_t *offset, uint64_t *mlength);

#ifdef __cplusplus
}
#endif

#endif /* NPCC_PORTALS_REF_H */
