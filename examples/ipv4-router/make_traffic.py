#!/usr/bin/env python3
"""Writes traffic.pcap: one or more Ethernet frames for every path through
the two-interface router (README.md lists what happens to each). Frames
arrive on eth0 (18.26.4.24, 00:00:c0:ae:67:ef); time stamps 1 ms apart.

usage: make_traffic.py OUT.pcap
"""
import struct
import sys

ETH0_MAC = bytes.fromhex("0000c0ae67ef")
HOST_MAC = bytes.fromhex("020000000001")  # the sender on eth0's wire
BCAST_MAC = b"\xff" * 6


def ip(a):
    return bytes(int(x) for x in a.split("."))


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ipv4(src, dst, payload, proto=17, ttl=64, df=False, mf=False, frag=0,
         ident=1, options=b"", version=4, ihl=None, total=None, bad_csum=False,
         tos=0):
    ihl = ihl if ihl is not None else 5 + len(options) // 4
    total = total if total is not None else 20 + len(options) + len(payload)
    flags = (0x4000 if df else 0) | (0x2000 if mf else 0) | frag
    h = struct.pack("!BBHHHBBH4s4s", version << 4 | ihl, tos, total, ident,
                    flags, ttl, proto, 0, ip(src), ip(dst)) + options
    c = csum(h)
    if bad_csum:
        c ^= 0x5A5A
    return h[:10] + struct.pack("!H", c) + h[12:] + payload


def udp(sport, dport, n):
    data = bytes((i * 7) & 0xFF for i in range(n))
    return struct.pack("!HHHH", sport, dport, 8 + n, 0) + data


def icmp(typ, code, rest=b"\0\0\0\0", body=b""):
    h = struct.pack("!BBH", typ, code, 0) + rest + body
    return h[:2] + struct.pack("!H", csum(h)) + h[4:]


def tcp(sport, dport):
    return struct.pack("!HHIIBBHHH", sport, dport, 1, 0, 5 << 4, 0x02, 8192, 0,
                       0)


def ether(payload, etype=0x0800, dst=ETH0_MAC, src=HOST_MAC):
    return dst + src + struct.pack("!H", etype) + payload


def arp(op, sha, spa, tha, tpa):
    return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, sha, ip(spa), tha,
                       ip(tpa))


def frames():
    out = []
    add = lambda what, f: out.append((what, f))
    U = lambda n=72: udp(1234, 53, n)
    # Forwarding to both interfaces and through gateways.
    add("fwd eth1 direct", ether(ipv4("18.26.4.99", "18.26.7.50", U())))
    add("fwd eth0 direct + redirect", ether(ipv4("18.26.4.99", "18.26.4.77", U())))
    add("fwd 10/8 via 18.26.7.2", ether(ipv4("18.26.4.99", "10.0.0.5", tcp(40000, 80), proto=6)))
    add("fwd 10.1/16 via 18.26.4.2 + redirect", ether(ipv4("18.26.4.99", "10.1.2.3", U())))
    add("fwd 192.168/16 via 18.26.7.3", ether(ipv4("18.26.4.99", "192.168.1.1", U())))
    add("fwd default via 18.26.4.1 + redirect", ether(ipv4("18.26.4.99", "8.8.8.8", U())))
    add("icmp echo to eth1 host", ether(ipv4("18.26.4.99", "18.26.7.50", icmp(8, 0, b"\0\1\0\1", b"ping" * 8), proto=1)))
    add("limited broadcast destination", ether(ipv4("18.26.4.99", "255.255.255.255", U())))
    # TTL.
    add("ttl 1 -> time exceeded", ether(ipv4("18.26.4.99", "18.26.7.50", U(), ttl=1)))
    add("ttl 0 -> time exceeded", ether(ipv4("18.26.4.99", "18.26.7.50", U(), ttl=0)))
    add("ttl 2 -> forwarded with ttl 1", ether(ipv4("18.26.4.99", "18.26.7.50", U(), ttl=2)))
    add("ttl 1 icmp error: no error about an error",
        ether(ipv4("18.26.4.99", "18.26.7.50", icmp(3, 1, body=ipv4("18.26.7.50", "18.26.4.99", U(8))), proto=1, ttl=1)))
    add("ttl 1 later fragment: no error", ether(ipv4("18.26.4.99", "18.26.7.50", U(40), ttl=1, frag=100)))
    # Sizes: 1600 and 1000 bytes, with and without DF (MTU 1500, or 576).
    add("1600 DF -> needfrag", ether(ipv4("18.26.4.99", "18.26.7.50", U(1572), df=True)))
    add("1600 -> fragments", ether(ipv4("18.26.4.99", "18.26.7.50", U(1572), ident=0x1234)))
    add("1000 DF (needfrag at MTU 576)", ether(ipv4("18.26.4.99", "18.26.7.50", U(972), df=True)))
    add("1000 (fragments at MTU 576)", ether(ipv4("18.26.4.99", "18.26.7.50", U(972), ident=0x2345)))
    add("1000 with RR option (fragments at MTU 576)",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(960), ident=0x3456,
                   options=bytes([7, 11, 4]) + b"\0" * 8 + b"\0")))
    # The router and its broadcast addresses.
    for dst in ("18.26.4.24", "18.26.7.1", "18.26.4.255", "18.26.4.0", "18.26.7.255", "18.26.7.0"):
        add("to the router " + dst, ether(ipv4("18.26.4.99", dst, U())))
    # IP options.
    add("RR option with room",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([7, 11, 4]) + b"\0" * 8 + b"\0")))
    add("RR option full", ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([7, 7, 8, 1, 2, 3, 4, 0]))))
    add("TS option (timestamps only)",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([68, 12, 5, 0]) + b"\0" * 8)))
    add("TS option with addresses",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([68, 12, 5, 1]) + b"\0" * 8)))
    add("malformed option length -> parameter problem",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([7, 2, 4, 0]))))
    add("malformed RR pointer -> parameter problem",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([7, 7, 3, 0, 0, 0, 0, 0]))))
    add("NOP and EOL options", ether(ipv4("18.26.4.99", "18.26.7.50", U(), options=bytes([1, 1, 0, 0]))))
    # Bad headers: CheckIPHeader's output 1.
    add("bad checksum", ether(ipv4("18.26.4.99", "18.26.7.50", U(), bad_csum=True)))
    add("bad version", ether(ipv4("18.26.4.99", "18.26.7.50", U(), version=6)))
    add("short header (ihl 4)", ether(ipv4("18.26.4.99", "18.26.7.50", U(), ihl=4)))
    add("total length above the frame", ether(ipv4("18.26.4.99", "18.26.7.50", U(), total=400)))
    add("total length below the header", ether(ipv4("18.26.4.99", "18.26.7.50", U(), total=19)))
    add("runt: 10 bytes of IP", ether(ipv4("18.26.4.99", "18.26.7.50", U())[:10]))
    for src in ("18.26.4.255", "18.26.7.255", "255.255.255.255", "0.0.0.0"):
        add("broadcast source " + src, ether(ipv4(src, "18.26.7.50", U())))
    add("trailing bytes past the total length",
        ether(ipv4("18.26.4.99", "18.26.7.50", U(20)) + b"\xee" * 12))
    # ARP.
    add("ARP who-has 18.26.4.24", ether(arp(1, HOST_MAC, "18.26.4.99", b"\0" * 6, "18.26.4.24"), 0x0806, dst=BCAST_MAC))
    add("ARP who-has 18.26.7.9 (proxy)", ether(arp(1, HOST_MAC, "18.26.4.99", b"\0" * 6, "18.26.7.9"), 0x0806, dst=BCAST_MAC))
    add("ARP who-has 18.26.4.77 (not ours)", ether(arp(1, HOST_MAC, "18.26.4.99", b"\0" * 6, "18.26.4.77"), 0x0806, dst=BCAST_MAC))
    add("ARP reply", ether(arp(2, HOST_MAC, "18.26.4.1", ETH0_MAC, "18.26.4.24"), 0x0806))
    add("ARP other op", ether(arp(3, HOST_MAC, "18.26.4.1", ETH0_MAC, "18.26.4.24"), 0x0806))
    # Other link types.
    add("IPv6", ether(b"\x60" + b"\0" * 39 + U(), 0x86DD))
    add("LLDP (unknown ethertype)", ether(b"\x02\x07\x04" + b"\0" * 43, 0x88CC))
    add("runt frame (10 bytes)", ETH0_MAC + HOST_MAC[:4])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for k, (_, fr) in enumerate(frames()):
            f.write(struct.pack("<IIII", 1700000000, k * 1000, len(fr), len(fr)))
            f.write(fr)


if __name__ == "__main__":
    main()
