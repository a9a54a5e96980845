/*===- program_expand.h - the compact program form, expanded ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The C target may describe a program's instances and channels compactly
 * (nprt/abi.def, nprt_program): instances as rows of `classes` picked by
 * `inst_class` and named by `inst_names`, channels as NPRT_CHANNEL_WORDS
 * words each in `channel_words`. nprt_main expands that form into the
 * `instances` and `channels` tables everything else reads, once, before
 * anything else looks at the program.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PROGRAM_EXPAND_H
#define NPRT_PROGRAM_EXPAND_H

#include "nprt/nprt.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sets *out to `in` with its compact tables expanded: `instances` when it
 * is NULL and `n_instances` is not 0, `channels` when it is NULL and
 * `n_channels` is not 0; a table given in full is kept as it is. The
 * expanded tables live in one heap block, *storage, which the caller frees
 * with nprt_program_expand_free once done with *out; *storage is NULL when
 * nothing was expanded (*out is then a plain copy of `in`). Instance names
 * point into `in->inst_names`. Checks what the expansion reads: every
 * class index below `n_classes`, `n_instances` non-empty names in
 * `inst_names`, every channel's ends below `n_instances` and only known
 * NPRT_CHANNEL_* flags. On malformed input or no memory, reports to `err`
 * (NULL: stderr) as "PROG: error: ..." (`prog` NULL: the program's name)
 * and returns -1 with *storage NULL; otherwise returns 0. */
int nprt_program_expand(const nprt_program *in, nprt_program *out,
                        void **storage, FILE *err, const char *prog);
/* Frees what nprt_program_expand allocated (NULL: nothing). */
void nprt_program_expand_free(void *storage);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_PROGRAM_EXPAND_H */
