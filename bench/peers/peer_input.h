/*===- peer_input.h - the input trace of a libpcap benchmark peer ---------===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The start every libpcap peer shares: check the argument count, open the
 * input pcap (argv[1], microsecond time stamps, as npcc's runtime reads
 * it). Header-only, so that a peer still builds as one `cc peer.c -lpcap`.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPCC_BENCH_PEERS_PEER_INPUT_H
#define NPCC_BENCH_PEERS_PEER_INPUT_H

#include <pcap/pcap.h>
#include <stdio.h>

/* The input trace of peer `name`, called as `name IN <args>` with `argc`
 * equal to `want`; NULL after printing the usage or libpcap's error. */
static pcap_t *peer_open_input(int argc, char **argv, int want,
                               const char *name, const char *args) {
  if (argc != want) {
    fprintf(stderr, "usage: %s IN%s\n", name, args);
    return NULL;
  }
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *in = pcap_open_offline_with_tstamp_precision(
      argv[1], PCAP_TSTAMP_PRECISION_MICRO, err);
  if (!in)
    fprintf(stderr, "%s: %s\n", name, err);
  return in;
}

#endif /* NPCC_BENCH_PEERS_PEER_INPUT_H */
