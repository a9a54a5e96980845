/*===- pcap_copy.c - benchmark peer: the same job without npcc ------------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Reads a pcap, bumps `stages` packet and byte counters per frame, writes
 * it out: what a passthrough graph of that many Counters does, written as
 * one tight libpcap loop. npcc's output is measured against it.
 *
 *===----------------------------------------------------------------------===*/
#define _DEFAULT_SOURCE /* u_char in pcap.h */
#include "peer_input.h"

#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  pcap_t *in = peer_open_input(argc, argv, 4, "pcap_copy", " OUT STAGES");
  if (!in)
    return 1;
  pcap_t *dead = pcap_open_dead(pcap_datalink(in), pcap_snapshot(in));
  pcap_dumper_t *out = pcap_dump_open(dead, argv[2]);
  if (!out) {
    fprintf(stderr, "pcap_copy: %s\n", pcap_geterr(dead));
    return 1;
  }
  int stages = atoi(argv[3]);
  uint64_t packets[64] = {0}, bytes[64] = {0};
  struct pcap_pkthdr *h;
  const u_char *data;
  while (pcap_next_ex(in, &h, &data) == 1) {
    for (int s = 0; s < stages && s < 64; ++s) {
      packets[s] += 1;
      bytes[s] += h->caplen;
    }
    pcap_dump((u_char *)out, h, data);
  }
  pcap_dump_close(out);
  pcap_close(dead);
  pcap_close(in);
  printf("%llu\n", (unsigned long long)packets[0] + bytes[stages - 1] * 0);
  return 0;
}
