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
 * SYNC. A slot is a reactive device (device.h): a receiving instance that
 * finds nothing while no other instance can run has reached the end of
 * its slot. After the run the host sends END and waits for the simulation
 * to exit.
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
 * (reported) if it failed or exited with an error. NULL is ignored. */
int nprt_pcie_finish(nprt_pcie *link);

#endif /* NPRT_PCIE_H */
