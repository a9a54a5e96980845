#!/usr/bin/env python3
"""Reference model of the switch matrix header (lib/SwitchEncap.np and
lib/FromSwitch.np, the modular NPU router's elements), written from the
format in docs/elements.md, independently of the NPL elements.

  switchref.py gen switch OUT.pcap          frames with switch headers,
                                            good and bad, for NPU 2
  switchref.py check SwitchEncap IN.pcap OUT...
  switchref.py check FromSwitch IN.pcap OUT...
                                            compare a test's outputs with
                                            the model's, packet by packet
                                            (clickref.py's 'ok' lines)
  switchref.py reasons IN.pcap NPU          how many frames FromSwitch(NPU)
                                            rejects, per reason

The header: bytes 0-1 destination NPU, 2-3 source NPU, 4-5 the length of
the frame behind the header, 6-7 0x5357; all big-endian."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clickref import compare_outputs, read_pcap, write_pcap  # noqa: E402

MARK = 0x5357


def header(dst, src, length, mark=MARK):
    return struct.pack(">HHHH", dst, src, length, mark)


def frame(n, seed):
    # An Ethernet frame of n bytes: a header npdump can read, then bytes
    # that differ from frame to frame.
    eth = bytes.fromhex("020000000002" "020000000001" "88b5")
    body = bytes(((k * 5 + seed) & 0xFF) for k in range(max(0, n - 14)))
    return (eth + body)[:n]


def gen_switch():
    """Frames arriving at NPU 2's switch port, in an order that mixes good
    and bad ones. Each bad frame fails one check, except the last two,
    which fail several (counted under the first, as the element checks)."""
    out = []
    for k, n in enumerate((60, 0, 1, 14, 64, 1000, 1514)):
        out.append(header(2, k & 3, n) + frame(n, k))      # good
        out.append(header(3 if k & 1 else 1, 2, n) + frame(n, k))  # not ours
    out.append(header(0x0102, 0, 60) + frame(60, 9))       # low byte is 2
    out.append(header(0x0200, 0, 60) + frame(60, 10))      # high byte is 2
    out.append(header(2, 0xFFFF, 60) + frame(60, 11))      # any source is fine
    for mark in (0x5753, 0x0000, 0x5358, 0xD357):
        out.append(header(2, 1, 60, mark) + frame(60, mark & 0xFF))
    for length in (61, 59, 0, 0xFFFF, 1084):
        out.append(header(2, 1, length) + frame(60, length & 0xFF))
    out.append(header(2, 1, 1))                            # 1 byte missing
    for n in range(8):                                     # short
        out.append(header(2, 1, 0)[:n])
    out.append(header(3, 1, 61, 0) + frame(60, 1))         # mark, length, dst
    out.append(header(3, 1, 61) + frame(60, 2))            # length and dst
    ts = 1700000000 * 10**9
    return [(ts + k * 1000, b) for k, b in enumerate(out)]


# --- models -------------------------------------------------------------------

def switch_encap(dst, src):
    def f(pkts):
        good = []
        for ts, b in pkts:
            if len(b) <= 0xFFFF:
                good.append((ts, header(dst, src, len(b)) + b))
        return [good]
    return f


def from_switch_reason(b, npu):
    """The first check a frame fails (0 short, 1 mark, 2 length, 3
    destination), or None."""
    if len(b) < 8:
        return 0
    dst, _, length, mark = struct.unpack(">HHHH", b[:8])
    if mark != MARK:
        return 1
    if length != len(b) - 8:
        return 2
    if dst != npu:
        return 3
    return None


def from_switch(npu, noutputs, strip=0):
    def f(pkts):
        outs = [[] for _ in range(noutputs)]
        for ts, b in pkts:
            r = from_switch_reason(b, npu)
            if r is None:
                outs[0].append((ts, b[strip:]))
            elif noutputs > 1:
                outs[1].append((ts, b))
        return outs
    return f


def concat(*fs):
    def f(pkts):
        outs = []
        for g in fs:
            outs += g(pkts)
        return outs
    return f


# The graphs of test/lib/SwitchEncap.np (output 0) and FromSwitch.np.
MODELS = {
    "SwitchEncap": switch_encap(3, 1),
    "FromSwitch": concat(from_switch(2, 2), from_switch(2, 1, strip=8)),
}


def reasons(path, npu):
    counts = [0, 0, 0, 0]
    for _, b in read_pcap(path):
        r = from_switch_reason(b, npu)
        if r is not None:
            counts[r] += 1
    return counts


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1:3] == ["gen", "switch"]:
        write_pcap(sys.argv[3], gen_switch())
    elif len(sys.argv) >= 5 and sys.argv[1] == "check" and sys.argv[2] in MODELS:
        pkts = [(ts, bytes(b)) for ts, b in read_pcap(sys.argv[3])]
        compare_outputs(sys.argv[4:], MODELS[sys.argv[2]](pkts))
    elif len(sys.argv) == 4 and sys.argv[1] == "reasons":
        c = reasons(sys.argv[2], int(sys.argv[3]))
        print("short %d mark %d length %d dst %d" % tuple(c))
    else:
        sys.exit(__doc__)
