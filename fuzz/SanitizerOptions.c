/*===- SanitizerOptions.c - sanitizer defaults of the fuzz targets ------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * LLVM's BumpPtrAllocator poisons its slabs in our instrumented copies of
 * its inline code, but the prebuilt MLIR libraries hand out memory from
 * them without unpoisoning: manual poisoning is off (as in make check-asan,
 * test/lit.cfg.py). ASAN_OPTIONS still overrides these.
 *
 *===----------------------------------------------------------------------===*/

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allow_user_poisoning=0"; }
