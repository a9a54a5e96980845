#!/usr/bin/env python3
"""The switch matrix and the checks of examples/npu-switch (router4.np):

  npu_switch.py split RUN MATRIX
      Reads RUN/sw0..3.pcap (what NPU k wrote to its switch port, device
      4 + k), checks every frame's switch header (docs/elements.md,
      SwitchEncap: destination another NPU, source k, the length of the
      frame behind it, 0x5357) and that it names the NPU that owns the
      inner frame's IPv4 destination (10.0.j.0/24 is NPU j). Then does the
      matrix's work: MATRIX/sw<j>.pcap gets every frame for NPU j, ordered
      by time stamp, then by source NPU.

  npu_switch.py check IN RUN1 MATRIX RUN2
      IN/eth0..3.pcap are the frames that arrived on the Ethernet links,
      RUN1 the run on them, MATRIX what split wrote, RUN2 the run on the
      matrix's frames (MATRIX/sw<j>.pcap on device 4 + j). Each frame
      with a good IPv4 header (what CheckIPHeader passes) and a
      destination in 10.0.0.0/22 must leave, unchanged, on the Ethernet
      link of its destination's NPU: in RUN1 if it arrived on that link,
      in RUN2 if it crossed the matrix, in the order it arrived per pair
      of links. Nothing else leaves.

Each prints one line per port and exits 1 at the first wrong frame."""
import os
import struct
import sys

MARK = 0x5357


def read_pcap(path):
    if not os.path.exists(path):
        return []
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), hex(magic)
    nano = magic == 0xA1B23C4D
    off, out = 24, []
    while off < len(data):
        sec, frac, caplen, _ = struct.unpack("<IIII", data[off:off + 16])
        off += 16
        out.append((sec * 10**9 + (frac if nano else frac * 1000),
                    data[off:off + caplen]))
        off += caplen
    return out


def write_pcap(path, pkts):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
        for ts, b in pkts:
            f.write(struct.pack("<IIII", ts // 10**9, ts % 10**9, len(b), len(b)))
            f.write(b)


def fail(msg):
    print("WRONG " + msg)
    sys.exit(1)


def ip_ok(frame):
    """Whether CheckIPHeader (no options given) passes the IPv4 packet
    behind the Ethernet header: long enough, version 4, a header length
    of at least 20 bytes, a total length that fits, a right checksum."""
    ip = frame[14:]
    if len(frame) < 14 or frame[12:14] != b"\x08\x00" or len(ip) < 20:
        return False
    hlen = (ip[0] & 0xF) * 4
    total = struct.unpack(">H", ip[2:4])[0]
    if ip[0] >> 4 != 4 or hlen < 20 or total > len(ip) or total < hlen:
        return False
    s = sum(struct.unpack(">%dH" % (hlen // 2), ip[:hlen]))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s == 0xFFFF


def owner(frame):
    """The NPU whose link owns the frame's IPv4 destination, or None."""
    if len(frame) < 34:
        return None
    dst = struct.unpack(">I", frame[30:34])[0]
    if dst & 0xFFFFFC00 != 0x0A000000:      # not in 10.0.0.0/22
        return None
    return (dst >> 8) & 3


def split(run, matrix):
    to = [[] for _ in range(4)]
    for k in range(4):
        counts = [0] * 4
        for n, (ts, b) in enumerate(read_pcap(os.path.join(run, "sw%d.pcap" % k))):
            if len(b) < 8:
                fail("sw%d frame %d: %d bytes" % (k, n, len(b)))
            dst, src, length, mark = struct.unpack(">HHHH", b[:8])
            inner = b[8:]
            if mark != MARK or src != k or length != len(inner) or \
               dst > 3 or dst == k or owner(inner) != dst:
                fail("sw%d frame %d: header %s, inner destination NPU %s" %
                     (k, n, b[:8].hex(), owner(inner)))
            counts[dst] += 1
            to[dst].append((ts, k, b))
        print("switch port %d: %s" % (k, ", ".join(
            "%d to NPU %d" % (counts[j], j) for j in range(4) if j != k)))
    os.makedirs(matrix, exist_ok=True)
    for j in range(4):
        to[j].sort(key=lambda x: (x[0], x[1]))
        write_pcap(os.path.join(matrix, "sw%d.pcap" % j), [(ts, b) for ts, _, b in to[j]])


def check(inp, run1, matrix, run2):
    dropped = 0
    local = [[] for _ in range(4)]
    remote = [[[] for _ in range(4)] for _ in range(4)]   # [to][from]
    for k in range(4):
        for ts, b in read_pcap(os.path.join(inp, "eth%d.pcap" % k)):
            j = owner(b) if ip_ok(b) else None
            if j is not None:             # CheckIPHeader cuts the padding
                b = b[:14 + struct.unpack(">H", b[16:18])[0]]
            if j is None:
                dropped += 1
            elif j == k:
                local[k].append(b)
            else:
                remote[j][k].append(b)
    for j in range(4):
        got1 = [b for _, b in read_pcap(os.path.join(run1, "eth%d.pcap" % j))]
        if got1 != local[j]:
            fail("eth%d in the first run: %d frames, want the %d that arrived "
                 "on eth%d for it" % (j, len(got1), len(local[j]), j))
        # The second run: the matrix's frames for NPU j, header off, in the
        # order the matrix delivered them; those from NPU k are the frames
        # that arrived on eth k for eth j, in their order.
        delivered = [b for _, b in read_pcap(os.path.join(matrix, "sw%d.pcap" % j))]
        got2 = [b for _, b in read_pcap(os.path.join(run2, "eth%d.pcap" % j))]
        if got2 != [b[8:] for b in delivered]:
            fail("eth%d in the second run: %d frames, not the %d the matrix "
                 "delivered, header off" % (j, len(got2), len(delivered)))
        for k in range(4):
            sent = [b[8:] for b in delivered if struct.unpack(">H", b[2:4])[0] == k]
            if sent != remote[j][k]:
                fail("eth%d: %d frames from eth%d, want %d" %
                     (j, len(sent), k, len(remote[j][k])))
        if read_pcap(os.path.join(run2, "sw%d.pcap" % j)):
            fail("the second run wrote to switch port %d" % j)
        print("eth%d: %d from its own link, %d through the switch" %
              (j, len(got1), len(got2)))
    print("dropped (bad header or no route): %d" % dropped)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "split":
        split(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        sys.exit(__doc__)
