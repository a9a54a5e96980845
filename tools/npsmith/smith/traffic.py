"""Random traffic for a generated program: the input pcaps of a case.

The frames are meant to take the program down every path: sizes from a
bare Ethernet header to jumbo frames, IPv4 (UDP, TCP, ICMP, options, right
and wrong checksums, TTLs 0 and 1), ARP, IPv6, VLAN tags and other
ethertypes, the bytes the program's classifiers compare (the manifest's
hints), a few flows so that a multicore run's per-flow order means
something, time gaps long enough for timers to fire, and the damage a
capture can carry (records cut short, a file ending in mid-record). All of
it is drawn from the manifest's seed and the device number, so a case
directory's inputs are the same bytes on every machine.
"""
import os
import random
import struct

from . import pcap

BASE_TIME = 1700000000


def ip_checksum(data):
    """The Internet checksum (RFC 1071) of `data`: 0 over a header whose
    checksum field is right, the field's value over one where it is 0."""
    words = memoryview(bytes(data) + b"\0" * (len(data) & 1)).cast("B")
    total = (sum(words[0::2]) << 8) + sum(words[1::2])
    return ~(total % 0xFFFF or (0xFFFF if total else 0)) & 0xFFFF


class Flow:
    """Addresses and protocol shared by the frames of one flow."""

    def __init__(self, rng):
        self.src_mac = bytes([2, 0, 0]) + rng.randbytes(3)
        self.dst_mac = (b"\xff" * 6 if rng.random() < 0.1 else
                        bytes([rng.choice((0, 2, 1))]) + rng.randbytes(5))
        self.src_ip = bytes([10, rng.randrange(4), rng.randrange(256),
                             rng.randrange(1, 255)])
        self.dst_ip = (bytes([192, 168, rng.randrange(4), rng.randrange(256)])
                       if rng.random() < 0.8 else rng.randbytes(4))
        self.proto = rng.choices((17, 6, 1, 47, rng.randrange(256)),
                                 (50, 30, 12, 3, 5))[0]
        self.sport = rng.choice((53, 80, 443, 1234, rng.randrange(65536)))
        self.dport = rng.choice((53, 80, 443, 8080, rng.randrange(65536)))
        self.vlan = rng.randrange(1, 4095) if rng.random() < 0.15 else None
        self.kind = rng.choices(("ipv4", "arp", "ipv6", "other"),
                                (75, 9, 9, 7))[0]
        self.ethertype = rng.choice((0x88CC, 0x8847, 0x88E5, 0x0842,
                                     rng.randrange(0x0600, 0x10000),
                                     rng.randrange(0, 0x0600)))


class Writer:
    """Draws the frames of one input device."""

    def __init__(self, seed, spec):
        self.rng = random.Random("npsmith-traffic/%d/%d" %
                                 (seed, spec.get("device", 0)))
        self.spec = spec
        self.linktype = spec.get("linktype", pcap.LINKTYPE_ETHERNET)
        self.min_len = max(1, spec.get("min_len", 14))
        self.max_len = max(self.min_len, spec.get("max_len", 9000))
        self.flows = [Flow(self.rng) for _ in range(self.rng.randint(2, 9))]
        self.hints = [(h["offset"], [bytes.fromhex(b) for b in h["bytes"]])
                      for h in spec.get("hints", []) if h.get("bytes")]

    def size(self):
        """A frame length: mostly 60-1514, some runts, some jumbo frames."""
        r = self.rng
        k = r.random()
        if k < 0.12:
            n = r.randint(14, 59)
        elif k < 0.22:
            n = r.randint(1515, 9000)
        elif k < 0.55:
            n = r.choice((60, 64, 64, 128, 576, 1500, 1514))
        else:
            n = r.randint(60, 1514)
        return min(max(n, self.min_len), self.max_len)

    def payload(self, n):
        r = self.rng
        k = r.random()
        if k < 0.5:
            return r.randbytes(n)
        if k < 0.75:
            return bytes(n)
        return bytes((i * 7 + 3) & 0xFF for i in range(n))

    def ipv4(self, f, n):
        """An IPv4 packet of at most n bytes (the frame is cut to fit)."""
        r = self.rng
        opts = b""
        if r.random() < 0.1:
            opts = bytes([1] * (4 * r.randint(1, 10) - 1) + [0])
            if r.random() < 0.5:
                opts = b"\x07\x07\x04" + r.randbytes(4) + b"\x00"
        ihl = 5 + len(opts) // 4
        total = max(n, ihl * 4)
        if r.random() < 0.05:
            total = r.randrange(65536)
        ttl = r.choices((0, 1, 2, 64, 128, 255, r.randrange(256)),
                        (6, 8, 4, 40, 15, 10, 17))[0]
        frag = 0
        if r.random() < 0.08:
            frag = r.choice((0x2000, 0x4000, r.randrange(1, 0x2000),
                             0x2000 | r.randrange(1, 0x2000)))
        proto = f.proto if r.random() < 0.9 else r.randrange(256)
        version = 4 if r.random() < 0.97 else r.randrange(16)
        hdr = bytearray(struct.pack(
            "!BBHHHBBH4s4s", version << 4 | ihl, r.choice((0, 0, 0x10, 0xb8)),
            total & 0xFFFF, r.randrange(65536), frag, ttl, proto, 0,
            f.src_ip, f.dst_ip)) + opts
        csum = ip_checksum(bytes(hdr))
        if r.random() < 0.15:
            csum = (csum + r.randrange(1, 65536)) & 0xFFFF
        hdr[10:12] = struct.pack("!H", csum)
        body = self.l4(proto, f, max(0, n - len(hdr)))
        return bytes(hdr) + body

    def l4(self, proto, f, n):
        r = self.rng
        if proto == 17:
            h = struct.pack("!HHHH", f.sport, f.dport, min(n, 65535),
                            r.choice((0, r.randrange(65536))))
        elif proto == 6:
            h = struct.pack("!HHIIBBHHH", f.sport, f.dport,
                            r.randrange(1 << 32), r.randrange(1 << 32),
                            5 << 4, r.choice((0x02, 0x10, 0x12, 0x18, 0x11,
                                              0x04, r.randrange(256))),
                            r.randrange(65536), r.randrange(65536), 0)
        elif proto == 1:
            typ, code = r.choice(((8, 0), (0, 0), (3, r.randrange(16)),
                                  (11, 0), (r.randrange(256), 0)))
            rest = struct.pack("!HH", r.randrange(65536), r.randrange(65536))
            body = self.payload(max(0, n - 8))
            c = ip_checksum(struct.pack("!BBH", typ, code, 0) + rest + body)
            return (struct.pack("!BBH", typ, code, c) + rest + body)[:n]
        else:
            h = b""
        return (h + self.payload(max(0, n - len(h))))[:n]

    def ipv6(self, f, n):
        r = self.rng
        nh = r.choice((17, 6, 58, 0, 43, 44))
        body = self.l4(nh if nh != 58 else 1, f, max(0, n - 40))
        hdr = struct.pack("!IHBB16s16s", 6 << 28 | r.randrange(1 << 20),
                          len(body), nh, r.choice((0, 1, 64, 255)),
                          b"\xfd" + bytes(14) + f.src_ip[3:],
                          b"\xfd" + bytes(14) + f.dst_ip[3:])
        return hdr + body

    def arp(self, f):
        r = self.rng
        return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4,
                           r.choice((1, 2, 3)), f.src_mac, f.src_ip,
                           f.dst_mac if r.random() < 0.5 else bytes(6),
                           f.dst_ip)

    def frame(self):
        """One frame of a random flow, with hints applied."""
        r = self.rng
        f = r.choice(self.flows)
        n = self.size()
        if self.linktype in pcap.RAW_IP_LINKTYPES:
            data = self.ipv4(f, n)[:n]
            ip_at = 0
        elif self.linktype != pcap.LINKTYPE_ETHERNET:
            data = self.payload(n)
            ip_at = None
        else:
            eth = f.dst_mac + f.src_mac
            if f.vlan is not None:
                eth += struct.pack("!HH", 0x8100, r.randrange(8) << 13 |
                                   f.vlan)
            kind = f.kind if r.random() < 0.9 else r.choice(
                ("ipv4", "arp", "ipv6", "other"))
            room = max(0, n - len(eth) - 2)
            if kind == "ipv4":
                eth, body = eth + b"\x08\x00", self.ipv4(f, room)
            elif kind == "arp":
                eth, body = eth + b"\x08\x06", self.arp(f)
            elif kind == "ipv6":
                eth, body = eth + b"\x86\xdd", self.ipv6(f, room)
            else:
                eth = eth + struct.pack("!H", f.ethertype)
                body = self.payload(room)
            ip_at = len(eth) if kind == "ipv4" else None
            data = (eth + body)[:n]
            if len(data) < n:
                data += bytes(n - len(data))
        data = bytearray(data)
        good = (ip_at is not None and len(data) >= ip_at + 20 and
                ip_checksum(bytes(data[ip_at:ip_at + 20])) == 0)
        self.apply_hints(data)
        if good and r.random() < 0.8 and data[ip_at] >> 4 == 4:
            # Keep the checksum right when a hint changed a header byte.
            ihl = (data[ip_at] & 15) * 4
            if ihl >= 20 and len(data) >= ip_at + ihl:
                data[ip_at + 10:ip_at + 12] = b"\0\0"
                c = ip_checksum(bytes(data[ip_at:ip_at + ihl]))
                data[ip_at + 10:ip_at + 12] = struct.pack("!H", c)
        return bytes(data)

    def apply_hints(self, data):
        for off, choices in self.hints:
            if self.rng.random() < 0.5:
                b = self.rng.choice(choices)
                if off + len(b) <= len(data):
                    data[off:off + len(b)] = b

    def gap_ns(self):
        """Time to the next frame: mostly micro-, sometimes milliseconds."""
        r = self.rng
        k = r.random()
        if k < 0.7:
            # At least 1 us, so that every frame has a stamp of its own
            # in either precision (smith.flows.input_flows needs it).
            return r.randint(1000, 100000)
        if k < 0.95:
            return r.randint(1000000, 50000000)
        return r.randint(100000000, 2000000000)

    def pcap(self):
        """The pcap of this device, and how many bytes to cut off."""
        r = self.rng
        nano = r.random() < 0.3
        out = pcap.Pcap(self.linktype, nano, 65535)
        t = BASE_TIME * 10**9 + r.randrange(10**9)
        for _ in range(self.spec.get("count", 100)):
            t += self.gap_ns()
            data = self.frame()
            wire = len(data)
            if self.spec.get("truncate") and r.random() < 0.12:
                data = data[:r.randrange(0, wire) if r.random() < 0.1
                            else r.randrange(min(14, wire - 1), wire)]
            frac = t % 10**9 if nano else t % 10**9 // 1000
            out.records.append((t // 10**9, frac, wire, data))
        cut = None
        if self.spec.get("cut") and out.records:
            last = 16 + len(out.records[-1][3])
            cut = r.randint(1, last - 1)
        return out, cut


def write_inputs(case_dir, manifest):
    """Writes in<d>.pcap in `case_dir` for every input of `manifest`;
    returns the paths written."""
    paths = []
    for spec in manifest.get("inputs", []):
        path = os.path.join(case_dir, "in%d.pcap" % spec.get("device", 0))
        p, cut = Writer(manifest.get("seed", 0), spec).pcap()
        pcap.write(path, p, cut)
        paths.append(path)
    return paths
