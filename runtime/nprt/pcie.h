/*===- pcie.h - PCIe-slot devices to the FPGA's C simulation ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A program split by placement (npcc --target=hls on a graph with @host
 * instances) has devices named "pcie-slot:S": each is one end of a channel
 * the compiler cut between host and FPGA. With --fpga=CSIM the executable
 * runs CSIM (the FPGA part's C simulation) on a socket pair and exchanges
 * those packets with it in messages of at most 64 KB, a batch of one
 * slot's packets each (pcie_msg.h).
 *
 * The host drives the exchange: what it sends into a slot is batched
 * until the batch is full or an instance that receives from the FPGA finds
 * nothing to receive; then every batch goes out, followed by SYNC, and the
 * simulation runs its design until idle and answers with its outputs and
 * SYNC. Each side's SYNC says which of its slots' senders ended, so that a
 * slot ends as the channel it stands for would: its receiver ends once
 * the sender ended and everything sent was taken. A slot is a reactive
 * device (device.h): a receiver that finds nothing while the FPGA is idle
 * and its sender lives waits for the graph to send more. After the run
 * the host sends END and waits for the simulation to exit; the simulation
 * judges its part of the graph as the host's runtime judges the host's
 * (drained, or deadlocked: exit status 3).
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_PCIE_H
#define NPRT_PCIE_H

#include "runtime/nprt/devices.h"

typedef struct nprt_pcie nprt_pcie;

/* Starts --fpga's simulation if the program has PCIe-slot devices and
 * makes those devices of `t` its slots (*link: the link, NULL without
 * slots); -1 (reported) if it cannot, or if they and --fpga do not go
 * together. */
int nprt_pcie_start(nprt_devices *t, nprt_pcie **link);
/* Sends END, waits for the simulation to exit and frees the link; -1
 * (reported) if it failed or exited with an error, 1 if its part of the
 * graph deadlocked (it exited with status 3, naming its blocked
 * instances). NULL is ignored. */
int nprt_pcie_finish(nprt_pcie *link);

#endif /* NPRT_PCIE_H */
