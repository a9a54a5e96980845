/*===- PcapFuzzer.c - libFuzzer target: libnprt's pcap reader -----------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * One input is one capture file, read as `--in` would read it: open, every
 * record into pool buffers until end or error, close. Errors are fine; a
 * crash, hang, sanitizer report or a packet the pool does not get back is a
 * bug.
 *
 *===----------------------------------------------------------------------===*/

#include "FuzzInput.h"
#include "runtime/nprt/pcap_io.h"
#include "runtime/nprt/pool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = npccFuzzWriteInput(data, size, ".pcap");
  if (!path)
    return 0;
  char err[256];
  nprt_pcap_in in;
  memset(&in, 0, sizeof in);
  if (nprt_pcap_in_open(&in, path, err, sizeof err) != 0)
    return 0;
  nprt_pool pool;
  nprt_pool_init(&pool);
  for (;;) {
    nprt_pkt *p = NULL;
    nprt_pcap_status st = nprt_pcap_in_next(&in, &pool, 0, &p, err, sizeof err);
    if (st != NPRT_PCAP_OK)
      break;
    /* Touch every byte the reader claims the packet has. */
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < p->len; ++i)
      sum += p->data[i];
    (void)sum;
    nprt_pool_free(&pool, p);
  }
  nprt_pcap_in_close(&in);
  if (pool.live != 0)
    abort();
  nprt_pool_destroy(&pool);
  return 0;
}
