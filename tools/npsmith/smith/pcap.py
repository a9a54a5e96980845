"""Classic pcap files, read and written without libpcap.

npsmith writes the inputs of each case itself (smith.traffic) because it
needs what npgen does not give: the manifest's hint bytes at fixed
offsets, records cut short on purpose and files that end in mid-record.
Reading is tolerant of such a file: the records before the damage are
returned with a note saying where it was, which is what the runtime and
npdump keep too.
"""
import struct

MAGIC_US = 0xA1B2C3D4
MAGIC_NS = 0xA1B23C4D

# Link types the traffic writer knows how to fill.
LINKTYPE_ETHERNET = 1
LINKTYPE_RAW = 101
LINKTYPE_RAW_OLD = 12
LINKTYPE_IPV4 = 228
RAW_IP_LINKTYPES = (LINKTYPE_RAW_OLD, LINKTYPE_RAW, LINKTYPE_IPV4)


class Pcap:
    """A pcap file's header fields and its records.

    A record is a tuple (sec, frac, wire_len, data): frac is in
    microseconds or nanoseconds as `nanosecond` says, and len(data) is the
    captured length. `damage` is None or why reading stopped early.
    """

    def __init__(self, linktype=LINKTYPE_ETHERNET, nanosecond=False,
                 snaplen=65535, records=None, damage=None):
        self.linktype = linktype
        self.nanosecond = nanosecond
        self.snaplen = snaplen
        self.records = records if records is not None else []
        self.damage = damage


def parse(data, name="pcap"):
    """Parses the bytes of a pcap file; raises ValueError if it is not one."""
    if len(data) < 24:
        raise ValueError("%s: not a pcap file (%d bytes)" % (name, len(data)))
    for end in ("<", ">"):
        magic = struct.unpack(end + "I", data[:4])[0]
        if magic in (MAGIC_US, MAGIC_NS):
            break
    else:
        raise ValueError("%s: not a pcap file (bad magic)" % name)
    snaplen, linktype = struct.unpack(end + "II", data[16:24])
    out = Pcap(linktype, magic == MAGIC_NS, snaplen)
    off = 24
    while off < len(data):
        if off + 16 > len(data):
            out.damage = "record %d: header cut" % len(out.records)
            break
        sec, frac, caplen, wire = struct.unpack(end + "IIII",
                                                data[off:off + 16])
        off += 16
        if off + caplen > len(data):
            out.damage = "record %d: data cut" % len(out.records)
            break
        out.records.append((sec, frac, wire, data[off:off + caplen]))
        off += caplen
    return out


def read(path):
    """Reads a pcap file (see parse)."""
    with open(path, "rb") as f:
        return parse(f.read(), path)


def encode(pcap, cut=None):
    """The bytes of `pcap` in host-independent little-endian order.

    `cut`, when given, is the number of bytes to drop from the end, which
    leaves the last record incomplete when it is below that record's size.
    """
    magic = MAGIC_NS if pcap.nanosecond else MAGIC_US
    parts = [struct.pack("<IHHiIII", magic, 2, 4, 0, 0, pcap.snaplen,
                         pcap.linktype)]
    for sec, frac, wire, data in pcap.records:
        parts.append(struct.pack("<IIII", sec, frac, len(data), wire))
        parts.append(bytes(data))
    blob = b"".join(parts)
    if cut:
        blob = blob[:len(blob) - cut]
    return blob


def write(path, pcap, cut=None):
    """Writes `pcap` to `path` (see encode)."""
    with open(path, "wb") as f:
        f.write(encode(pcap, cut))
