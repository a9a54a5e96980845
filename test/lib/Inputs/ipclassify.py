#!/usr/bin/env python3
"""An independent model of the IPClassifier patterns the tests use: each
pattern string maps to a Python predicate written by hand from Click's
rules (elements/ip/ipfilter.cc: fields read from the IP header and from
the transport header at 4 * IHL; port, ICMP type and TCP flag tests only
on first fragments of their protocol; a test on bytes past the end of the
packet is false, and `!=`, `>=`, `<=` negate that result).

  ipclassify.py gen OUT.pcap                  crafted Ethernet+IPv4 frames
  ipclassify.py check SET IN.pcap OUT...      compare a classifier's outputs
                                              with the model (SET: a, b, c)
  ipclassify.py outs PREFIX SET               print --out PREFIXk.pcap ...
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clickref import read_pcap, write_pcap  # noqa: E402
from clickip import ipp, ETH, A  # noqa: E402


def F(p, off, w, tr=False):
    """The w-byte big-endian field at off (after 4 * IHL when tr), None when
    it is not all in the packet."""
    if tr:
        off += ((p[0] & 15) * 4) if p else 0
    if off + w > len(p):
        return None
    return int.from_bytes(p[off:off + w], "big")


def T(v, pred):
    return v is not None and pred(v)


def proto(p, *ns):
    return any(T(F(p, 9, 1), lambda v: v == n) for n in ns)


def first(p):
    return T(F(p, 6, 2), lambda v: v & 0x1FFF == 0)


def transp(p, protos, pred):
    return first(p) and proto(p, *protos) and pred()


def sport(p, f, protos=(6, 17)):
    return transp(p, protos, lambda: T(F(p, 0, 2, True), f))


def dport(p, f, protos=(6, 17)):
    return transp(p, protos, lambda: T(F(p, 2, 2, True), f))


def src(p, net, m=0xFFFFFFFF):
    return T(F(p, 12, 4), lambda v: v & m == A(net) & m)


def dst(p, net, m=0xFFFFFFFF):
    return T(F(p, 16, 4), lambda v: v & m == A(net) & m)


def byte(p, off, f):
    return T(F(p, off, 1), f)


def icmptype(p, f):
    return transp(p, (1,), lambda: T(F(p, 0, 1, True), f))


def tcpflags(p, bits):
    return transp(p, (6,), lambda: T(F(p, 13, 1, True), lambda v: v & bits == bits))


def ternary(c, y, n):
    return (c and y) or (not c and n)


SETS = {
    "a": [
        ("tcp dst port 80", lambda p: dport(p, lambda v: v == 80, (6,))),
        ("udp src port 53 or 123",
         lambda p: sport(p, lambda v: v == 53, (17,)) or sport(p, lambda v: v == 123, (17,))),
        ("icmp type echo", lambda p: icmptype(p, lambda v: v == 8)),
        ("src host 10.0.0.1 && ip ttl > 64",
         lambda p: src(p, "10.0.0.1") and byte(p, 8, lambda v: v > 64)),
        ("dst net 192.168.0.0/16 and not tcp",
         lambda p: dst(p, "192.168.0.0", 0xFFFF0000) and not proto(p, 6)),
    ],
    "b": [
        ("ip proto 47", lambda p: proto(p, 47)),
        ("tcp && !(src or dst port 22)",
         lambda p: proto(p, 6) and not (sport(p, lambda v: v == 22) or dport(p, lambda v: v == 22))),
        ("ip dscp 46 or ip tos 16",
         lambda p: byte(p, 1, lambda v: v >> 2 == 46) or byte(p, 1, lambda v: v == 16)),
        ("net 172.16.0.0 mask 255.240.0.0",
         lambda p: src(p, "172.16.0.0", 0xFFF00000) or dst(p, "172.16.0.0", 0xFFF00000)),
        ("udp port 1000 or 2000",
         lambda p: any(sport(p, lambda v: v == n, (17,)) or dport(p, lambda v: v == n, (17,))
                       for n in (1000, 2000))),
        ("ip frag", lambda p: not T(F(p, 6, 2), lambda v: v & 0x3FFF == 0)),
    ],
    "c": [
        ("src port >= 1024 and dst port < 1024",
         lambda p: transp(p, (6, 17), lambda: not T(F(p, 0, 2, True), lambda v: v < 1024))
         and dport(p, lambda v: v < 1024)),
        ("ip ttl <= 1", lambda p: not byte(p, 8, lambda v: v > 1)),
        ("tcp opt syn and not ack", lambda p: tcpflags(p, 2) and not tcpflags(p, 0x10)),
        ("icmp type != 0",
         lambda p: transp(p, (1,), lambda: not T(F(p, 0, 1, True), lambda v: v == 0))),
        ("ip hl > 5", lambda p: byte(p, 0, lambda v: v & 15 > 5)),
        ("(udp or icmp) and ip unfrag",
         lambda p: proto(p, 17, 1) and T(F(p, 6, 2), lambda v: v & 0x3FFF == 0)),
        ("src and dst host 10.0.0.1", lambda p: src(p, "10.0.0.1") and dst(p, "10.0.0.1")),
        ("ip proto tcp ? dst port 443 : src net 10.0.0.0/8",
         lambda p: ternary(proto(p, 6), dport(p, lambda v: v == 443, (6,)),
                           src(p, "10.0.0.0", 0xFF000000))),
        ("false", lambda p: False),
    ],
    "click": [
        ("tcp dst port 80", lambda p: dport(p, lambda v: v == 80, (6,))),
        ("udp", lambda p: proto(p, 17)),
        ("-", lambda p: True),
    ],
}


def tcp(sp, dp, flags=0x10):
    return struct.pack("!HHIIBBHHH", sp, dp, 1, 2, 0x50, flags, 8192, 0, 0)


def udp(sp, dp):
    return struct.pack("!HHHH", sp, dp, 12, 0) + b"data"


def icmp(t, code=0):
    return bytes([t, code, 0, 0, 0, 1, 0, 2]) + b"ping"


def gen():
    P = []
    addrs = ["10.0.0.1", "10.9.8.7", "192.168.4.5", "172.20.1.1", "172.32.0.1",
             "18.26.4.9", "1.2.3.4"]
    ports = [22, 53, 80, 123, 443, 1000, 1023, 1024, 2000, 40000]
    # Hand-picked cases.
    P.append(ipp(proto=6, payload=tcp(40000, 80)))
    P.append(ipp(proto=6, payload=tcp(80, 40000)))
    P.append(ipp(proto=17, payload=udp(53, 9999)))
    P.append(ipp(proto=17, payload=udp(123, 9999)))
    P.append(ipp(proto=1, payload=icmp(8)))
    P.append(ipp(proto=1, payload=icmp(0)))
    P.append(ipp(proto=47, payload=b"gre-payload"))
    P.append(ipp(proto=6, off=0x2000, payload=tcp(1, 80)))            # MF, offset 0
    P.append(ipp(proto=6, off=0x0010, payload=tcp(1, 80)))            # offset 16
    P.append(ipp(proto=17, off=0x0005, payload=udp(1000, 5)))
    P.append(ipp(proto=6, opts=bytes([1, 1, 1, 0]), payload=tcp(5, 80)))  # IHL 6
    P.append(ipp(proto=6, opts=bytes(8), payload=tcp(2000, 443, 0x02)))  # IHL 7
    P.append(ipp(proto=6, payload=tcp(3000, 22, 0x02)))
    P.append(ipp(proto=6, payload=tcp(3000, 22, 0x12)))
    P.append(ipp(src="10.0.0.1", dst="10.0.0.1", ttl=65, proto=17, payload=udp(7, 7)))
    P.append(ipp(tos=0xB8, proto=17, payload=udp(7, 7)))              # dscp 46
    P.append(ipp(tos=16, ttl=1, proto=99, payload=b"x"))
    P.append(ipp(ttl=0, dst="192.168.1.1", proto=6, payload=tcp(1, 2)))
    for n in (0, 1, 8, 9, 10, 19, 20, 21, 22, 23, 24, 33, 34):          # short
        P.append(ipp(proto=6, src="10.0.0.1", ttl=200, payload=tcp(1500, 80, 0x02))[:n])
        P.append(ipp(proto=1, payload=icmp(8))[:n])
    P.append(ipp(proto=6, opts=bytes(40), payload=b"")[:60])          # IHL 15, no TCP
    # Random ones.
    rnd = random.Random(7)
    for _ in range(300):
        pr = rnd.choice([1, 6, 6, 17, 17, 47, 50])
        if pr == 6:
            pay = tcp(rnd.choice(ports), rnd.choice(ports), rnd.choice([0x02, 0x12, 0x10, 0x11]))
        elif pr == 17:
            pay = udp(rnd.choice(ports), rnd.choice(ports))
        elif pr == 1:
            pay = icmp(rnd.choice([0, 3, 8, 11]))
        else:
            pay = b"opaque payload"
        p = ipp(proto=pr, payload=pay, src=rnd.choice(addrs), dst=rnd.choice(addrs),
                ttl=rnd.choice([0, 1, 2, 64, 65, 200]), tos=rnd.choice([0, 16, 0xB8, 0x10 | 3]),
                off=rnd.choice([0, 0, 0, 0x2000, 0x0003, 0x4000]),
                opts=rnd.choice([b"", b"", bytes([1, 1, 1, 0]), bytes(12)]))
        if rnd.random() < 0.1:
            p = p[:rnd.randrange(len(p))]
        P.append(p)
    ts = 1700000000 * 10**9
    return [(ts + k * 1000, ETH + p) for k, p in enumerate(P)]


def check(name, inp, outs):
    pats = SETS[name]
    assert len(outs) == len(pats), "want %d outputs" % len(pats)
    want = [[] for _ in pats]
    drops = 0
    for _, frame in read_pcap(inp):
        ip = frame[14:]
        k = next((k for k, (_, f) in enumerate(pats) if f(ip)), None)
        if k is None:
            drops += 1
        else:
            want[k].append(frame)
    bad = False
    for k, path in enumerate(outs):
        got = [b for _, b in read_pcap(path)]
        if got != want[k]:
            print("DIFFERENT %s output %d (%r): got %d packets, want %d" %
                  (name, k, pats[k][0], len(got), len(want[k])))
            bad = True
        else:
            print("ok %s output %d: %d packets" % (name, k, len(got)))
    print("%s drops %d" % (name, drops))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        write_pcap(sys.argv[2], gen())
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "patterns":
        print("\n".join(p for p, _ in SETS[sys.argv[2]]))
    else:
        sys.exit(__doc__)
