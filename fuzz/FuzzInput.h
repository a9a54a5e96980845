//===- FuzzInput.h - fuzz inputs as files for path readers ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Readers that take a path (the NPL loader, libpcap) get the input through a
// file private to the fuzzer process, rewritten for each input.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FUZZ_FUZZINPUT_H
#define NPCC_FUZZ_FUZZINPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes the input to the process's scratch file ending in `suffix` and
 * returns its path (static storage), or NULL if it cannot be written. */
static char npccFuzzPath[256];
static inline void npccFuzzRemoveInput(void) { remove(npccFuzzPath); }

static inline const char *npccFuzzWriteInput(const uint8_t *data, size_t size,
                                             const char *suffix) {
  char *path = npccFuzzPath;
  if (!path[0]) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof npccFuzzPath, "%s/npcc-fuzz-%d%s",
             dir && *dir ? dir : "/tmp", (int)getpid(), suffix);
    atexit(npccFuzzRemoveInput);
  }
  FILE *f = fopen(path, "wb");
  if (!f)
    return NULL;
  size_t n = size ? fwrite(data, 1, size, f) : 0;
  if (fclose(f) != 0 || n != size)
    return NULL;
  return path;
}

#endif /* NPCC_FUZZ_FUZZINPUT_H */
