/*===- tb.h - the C-simulation testbench of an npcc HLS design --*- C++ -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The generated tb.cpp describes the design's devices and how to call its
 * top function; nphls_tb_main does the rest with the flags of an
 * executable of the C target (--in, --out, -h, --stats): it reads the
 * input pcaps, hands the design one packet at a time (64 of one input,
 * then 64 of the next, as the C runtime runs its sources) and calls the
 * top function until no process runs any more, and writes what the output
 * devices produced as pcaps, as libnprt writes them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPHLS_TB_H
#define NPHLS_TB_H

#include "nphls/nphls.h"

/* A device of the design and the pcap it reads or writes unless the
 * command line names another (path NULL: it must). */
struct nphls_tb_device {
  uint32_t dev;
  const char *path;
  /* NAME of a NAME=FILE argument that replaces `path` ("" for none). */
  const char *define;
  /* Outputs: pcap link type (DLT_*, 0: the input's) and snap length. */
  uint32_t link_type, snaplen;
};

struct nphls_tb_design {
  const char *name;
  const nphls_tb_device *ins, *outs;
  uint32_t n_ins, n_outs;
  /* One call of the top function with the device streams, by number. */
  void (*step)(nphls_pkt_stream *dev_in, nphls_pkt_stream *dev_out);
  uint32_t n_dev_in, n_dev_out;
};

int nphls_tb_main(int argc, char **argv, const nphls_tb_design *design);

#endif /* NPHLS_TB_H */
