/*===- portals_ref.c - Figure 1 of the match-unit paper, in C -------------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Line by line the match function of Figure 1 (lines 10-50); the list walk
 * is portals_match. All arithmetic is uint64_t, as in the figure, so a
 * local offset beyond the MD length wraps the remaining space exactly as
 * the match unit's 64-bit subtract does.
 *
 *===----------------------------------------------------------------------===*/
#include "portals_ref.h"

int portals_match_item(const uint64_t item[8], const uint64_t hdr[8],
                       uint64_t *offset, uint64_t *mlength) {
  /* Check the match bits. */
  if ((item[0] ^ hdr[0]) & item[1])
    return 0;
  /* Check the match id NID and PID. */
  uint32_t nid = (uint32_t)item[2];
  uint32_t pid = (uint32_t)(item[2] >> 32) & 0xffffu;
  if (nid != PTL_NID_ANY && nid != (uint32_t)hdr[1])
    return 0;
  if (pid != PTL_PID_ANY && pid != ((uint32_t)(hdr[1] >> 32) & 0xffffu))
    return 0;
  /* The MD must be valid and active (non-zero threshold). */
  unsigned opts = (unsigned)item[3] & 0xffffu;
  unsigned threshold = (unsigned)(item[2] >> 48);
  if (!(opts & PTL_OPT_VALID) || !threshold)
    return 0;
  /* The MD must respond to the operation. */
  unsigned op = (unsigned)(hdr[1] >> 48);
  if (op == PTL_MSG_PUT && !(opts & PTL_OPT_PUT))
    return 0;
  else if (op == PTL_MSG_GET && !(opts & PTL_OPT_GET))
    return 0;
  uint64_t md_len = item[4];
  /* The effective offset, clamped so the arithmetic below works. */
  uint64_t off;
  if (opts & PTL_OPT_REMOTE_OFFSET) {
    off = hdr[4];
    if (off >= md_len)
      off = md_len;
  } else {
    off = item[5];
  }
  uint64_t remain = md_len - off;
  /* Inactive if it uses max_size and the remaining space is too small. */
  if ((opts & PTL_OPT_MAX_SIZE) && !(opts & PTL_OPT_TRUNCATE)) {
    if (remain < item[6])
      return 0;
  }
  /* The length to receive. */
  uint64_t len;
  if (hdr[5] <= remain)
    len = hdr[5];
  else if (opts & PTL_OPT_TRUNCATE)
    len = remain;
  else
    return 0;
  *offset = off;
  *mlength = len;
  return 1;
}

long portals_match(const uint64_t (*list)[8], size_t n, const uint64_t hdr[8],
                   uint64_t *offset, uint64_t *mlength) {
  for (size_t i = 0; i < n; ++i)
    if (portals_match_item(list[i], hdr, offset, mlength))
      return (long)i;
  return -1;
}
