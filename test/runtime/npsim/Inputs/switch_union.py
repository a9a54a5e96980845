"""Whether a simulated router of several NPUs wrote, on each Ethernet
interface, the records the native executor wrote there over its two runs
(the first from the interfaces, the second from the matrix's frames):
as multisets, since how the matrix interleaves frames with an
interface's own traffic is the simulation's timing.

  switch_union.py NATIVE1 NATIVE2 SIM NPUS
"""
import struct
import sys


def records(path):
    data = open(path, "rb").read()
    off, out = 24, []
    while off + 16 <= len(data):
        sec, frac, cap, _ = struct.unpack("<IIII", data[off:off + 16])
        out.append((sec, frac, data[off + 16:off + 16 + cap]))
        off += 16 + cap
    return out


def main():
    first, second, sim, npus = sys.argv[1:5]
    bad = False
    for k in range(int(npus)):
        want = sorted(records("%s/eth%d.pcap" % (first, k)) +
                      records("%s/eth%d.pcap" % (second, k)))
        got = sorted(records("%s/eth%d.pcap" % (sim, k)))
        same = got == want
        bad |= not same
        print("eth%d: %d frames, %s" % (k, len(got), "as native" if same
                                        else "NOT as native (%d there)"
                                        % len(want)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
