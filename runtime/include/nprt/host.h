/*===- host.h - running an nprt_program from a host process ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Generated C calls nprt_main. A host that supplies its own element bodies
 * (npcc's reference interpreter runs np dialect IR behind the function
 * pointers of an nprt_program) calls nprt_main_hosted, which takes the same
 * command line and adds what such a host needs from the executor. Not part
 * of the generated-code ABI (nprt/abi.def).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_HOST_H
#define NPRT_HOST_H

#include "nprt/nprt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nprt_host {
  /* Stack of each instance's green thread in bytes (0: the default). */
  size_t stack_bytes;
} nprt_host;

/* nprt_main with `host`'s settings; `host` may be NULL. */
int nprt_main_hosted(int argc, char **argv, const nprt_program *program,
                     const nprt_host *host);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_HOST_H */
