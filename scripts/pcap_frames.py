"""The frames of a pcap file, read with the struct module alone.

An oracle that must not trust npcc's own readers (libnprt, npdump) uses
this: examples/pcsa/check.py and the npgen tests' source counter.
"""
import struct
import sys


def frames(path, prog):
    """Yields the captured bytes of every record of the pcap at `path`;
    exits naming `prog` when the file is not a pcap."""
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        sys.exit(f"{prog}not a pcap file: {path}")
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack(end + "I", data[off + 8:off + 12])[0]
        yield data[off + 16:off + 16 + caplen]
        off += 16 + caplen


def ipv4_source(frame):
    """Bytes 26..29 of an Ethernet frame of ethertype 0x0800 long enough to
    hold them, else None."""
    if len(frame) >= 30 and frame[12:14] == b"\x08\x00":
        return frame[26:30]
    return None
