#!/usr/bin/env python3
"""Checks smith.flows' rule on made-up runs of an encapsulating program
(every output frame has the same new outer Ethernet header, of a type
that is not IP): records of two
input flows interleaved otherwise than the reference are the same run
when each output record is given the flow of its input packet (by time
stamp), and not when flows come from the output's own bytes; a swap
within one input flow is a difference either way. Prints one line per
comparison. Records the program made (stamps no input has) keep no
order, and one flow's packets on two input devices are two flows."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "npsmith"))
from smith import flows, pcap  # noqa: E402

ETH = bytes.fromhex("ffffffffffff020000000001" "0800")
OUTER = bytes.fromhex("ffffffffffff020000000009" "88b5")


def ipv4(src, dst):
    return bytes([0x45, 0, 0, 20, 0, 0, 0, 0, 64, 17, 0, 0]) + src + dst


A = ipv4(bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
B = ipv4(bytes([10, 0, 0, 3]), bytes([10, 0, 0, 4]))


def main():
    inputs = [(1, k, 34, ETH + (A if k % 2 else B)) for k in range(6)]
    key_of = flows.input_flows([pcap.Pcap(records=inputs)])
    # The program's output: one outer header for all, the input behind it.
    out = [(s, f, w + 14, OUTER + d) for s, f, w, d in inputs]
    # On two cores: flow B's packets (even stamps) first.
    moved = [r for r in out if r[1] % 2 == 0] + [r for r in out
                                                 if r[1] % 2]
    swapped = list(out)
    swapped[1], swapped[3] = swapped[3], swapped[1]
    for name, run in (("interleaved", moved), ("swapped", swapped)):
        for rule, key in (("input flows", key_of), ("own bytes", None)):
            why = flows.compare_records(1, out, run, key)
            print("%s by %s: %s" % (name, rule, why or "same"))
    # Two packets the program made (stamps no input has): their order is
    # free, only that they are there counts.
    made = out + [(9, 1, 34, ETH + A), (9, 2, 34, ETH + A)]
    run = out + [made[-1], made[-2]]
    print("made, swapped: %s" % (flows.compare_records(1, made, run, key_of)
                                 or "same"))
    # Flow A on two input devices: two flows, which the cores may
    # interleave; a swap within one device's is still a difference.
    dev0 = [(2, k, 34, ETH + A) for k in range(3)]
    dev1 = [(3, k, 34, ETH + A) for k in range(3)]
    key2 = flows.input_flows([pcap.Pcap(records=dev0),
                              pcap.Pcap(records=dev1)])
    ref = [dev0[0], dev1[0], dev0[1], dev1[1], dev0[2], dev1[2]]
    print("two devices, interleaved: %s" % (flows.compare_records(
        1, ref, dev0 + dev1, key2) or "same"))
    print("two devices, swapped: %s" % (flows.compare_records(
        1, ref, [dev0[1], dev1[0], dev0[0]] + dev1[1:] + [dev0[2]], key2)
        or "same"))


if __name__ == "__main__":
    main()
