/*===- abi_check.c - abi.def against the declarations ----------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * nprt.h declares the extern functions of nprt/abi.def from the entries
 * themselves; the packet accessors are written by hand in packet.h. This
 * file makes the compiler prove that every entry's result, parameters and
 * arity match what is declared, so the lowering's view cannot drift.
 *
 *===----------------------------------------------------------------------===*/
#include "nprt/nprt.h"

#define NPRT_ARITY(...) NPRT_ARITY_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define NPRT_ARITY_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n

#define NPRT_ABI_CHECK(name, result, arity, params)                            \
  _Static_assert(__builtin_types_compatible_p(                                 \
                     __typeof__(&name), NPRT_ABI_RESULT_##result(*) params),   \
                 #name " does not match nprt/abi.def");                        \
  _Static_assert(NPRT_ARITY params == arity,                                   \
                 #name ": wrong arity in nprt/abi.def");
#define NPRT_ABI_FN NPRT_ABI_CHECK
#define NPRT_ABI_INLINE NPRT_ABI_CHECK
#define NPRT_ABI_META(npl_name, enumerator, value)                             \
  _Static_assert(enumerator == value, #enumerator);
#include "nprt/abi.def"

/* ISO C forbids an empty translation unit. */
typedef int nprt_abi_checked;
