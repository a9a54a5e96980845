/*===- pcap_read.c - benchmark peer: the null graph without npcc ----------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Reads every record of a pcap with libpcap and copies it into a frame
 * buffer, as FromDump -> Discard does with a packet, in one tight loop.
 * Prints the packet count and a byte of each copy summed (so the copies
 * cannot be dropped).
 *
 *===----------------------------------------------------------------------===*/
#define _DEFAULT_SOURCE /* u_char in pcap.h */
#include "peer_input.h"

#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  pcap_t *in = peer_open_input(argc, argv, 2, "pcap_read", "");
  if (!in)
    return 1;
  static unsigned char frame[262144];
  struct pcap_pkthdr *h;
  const u_char *bytes;
  uint64_t packets = 0, check = 0;
  int rc;
  while ((rc = pcap_next_ex(in, &h, &bytes)) == 1) {
    memcpy(frame, bytes, h->caplen);
    ++packets;
    check += frame[h->caplen / 2];
  }
  if (rc != PCAP_ERROR_BREAK) {
    fprintf(stderr, "pcap_read: %s\n", pcap_geterr(in));
    return 1;
  }
  pcap_close(in);
  printf("%llu packets, check %llu\n", (unsigned long long)packets,
         (unsigned long long)check);
  return 0;
}
