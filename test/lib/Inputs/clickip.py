#!/usr/bin/env python3
"""Reference models of Click's IPv4 router elements for the library's tests,
written from Click's sources (kohler/click, elements/ip, elements/icmp,
elements/ethernet), independently of the NPL elements.

  clickip.py gen KIND OUT.pcap         write a crafted input trace (ip, ether)
  clickip.py check MODEL IN.pcap OUT...  compare a run's outputs with the
                                         model's (prints 'ok' lines, or the
                                         first difference and exits 1)

A packet is [ts, bytearray, anno], anno a dict of Click's annotations
dst_ip, fix (fix_ip_src), param (icmp_param), ptype (packet_type), paint.
The tests show the annotations by putting ShowAnno's 8 bytes in front
(Inputs/annotest.np)."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clickref import read_pcap, write_pcap, cksum, ones_sum, u16, u32, put16, compare_outputs  # noqa: E402

ETH = bytes.fromhex("020000000002" "020000000001" "0800")


def A(s):
    return struct.unpack("!I", bytes(int(x) for x in s.split(".")))[0]


def ipp(total=None, proto=17, ttl=64, src="10.0.0.1", dst="18.26.7.5", ident=7,
        off=0, opts=b"", payload=b"0123456789", tos=0, version=4, ihl=None,
        bad_sum=False):
    if len(opts) % 4:
        opts = opts + bytes(4 - len(opts) % 4)
    hl = 20 + len(opts)
    if total is None:
        total = hl + len(payload)
    h = bytearray(struct.pack("!BBHHHBBHII", (version << 4) | ((ihl if ihl is not None else hl // 4) & 15),
                              tos, total, ident, off, ttl, proto, 0, A(src), A(dst))) + opts
    put16(h, 10, cksum(bytes(h[:hl])))
    if bad_sum:
        h[10] ^= 0x55
    return bytes(h) + payload


def icmp(type_, code=0, rest=b"\0\0\0\0", data=b"quoted-data!"):
    m = bytearray([type_, code, 0, 0]) + rest + data
    put16(m, 2, cksum(bytes(m)))
    return bytes(m)


def gen_ip():
    P = []
    for ttl in (0, 1, 2, 64, 255):
        P.append(ipp(ttl=ttl, src="18.26.4.9", dst="18.26.7.5", ident=ttl))
    for d in ("18.26.4.24", "18.26.4.255", "18.26.7.1", "18.26.7.99", "1.2.3.4",
              "255.255.255.255", "224.0.0.5", "18.26.4.0", "0.0.0.0", "18.26.4.77"):
        P.append(ipp(dst=d))
    for s in ("18.26.4.255", "18.26.7.255", "0.0.0.0", "255.255.255.255", "127.0.0.1",
              "240.0.0.1", "224.1.1.1", "18.26.4.24"):
        for d in ("18.26.7.5", "18.26.4.24", "18.26.7.1"):
            P.append(ipp(src=s, dst=d))
    P.append(ipp(payload=b"12345678") + bytes(18))               # Ethernet padding
    P.append(ipp(total=22, payload=b"abcdefgh"))                 # length < bytes
    for n in (0, 10, 19):
        P.append(ipp()[:n])                                      # tiny
    P.append(ipp(version=6))
    P.append(ipp(ihl=4))
    P.append(ipp(ihl=15))                                        # header past length
    P.append(ipp(total=200))                                     # length > bytes
    P.append(ipp(total=19))                                      # length < 20
    P.append(ipp(bad_sum=True))
    P.append(ipp(opts=bytes([1, 1, 1, 0]), total=18))            # length < hlen
    # IP options.
    rr = lambda ln, ptr: bytes([7, ln, ptr]) + bytes(range(1, ln - 2))
    P.append(ipp(opts=rr(11, 4) + b"\0"))                        # RR, room for 2
    P.append(ipp(opts=rr(11, 8) + b"\0"))                        # RR, room for 1
    P.append(ipp(opts=rr(11, 12) + b"\0"))                       # RR full
    P.append(ipp(opts=rr(11, 3) + b"\0"))                        # RR bad pointer
    P.append(ipp(opts=rr(11, 5) + b"\0"))                        # RR odd pointer
    P.append(ipp(opts=rr(11, 10) + b"\0"))                       # RR pointer past room
    P.append(ipp(opts=bytes([1, 7, 7, 4]) + bytes(4) + bytes([1, 1, 1, 0])))  # NOP, RR
    ts = lambda ln, ptr, oflw, flg, body=b"": bytes([68, ln, ptr, (oflw << 4) | flg]) + \
        (body + bytes(ln))[:ln - 4]
    P.append(ipp(opts=ts(12, 5, 0, 0)))                          # TS, room for 2
    P.append(ipp(opts=ts(12, 13, 3, 0)))                         # TS full: overflow
    P.append(ipp(opts=ts(12, 13, 15, 0)))                        # TS overflow at 15
    P.append(ipp(opts=ts(12, 5, 0, 1)))                          # TS addresses
    P.append(ipp(opts=ts(12, 9, 0, 1)))                          # TS addr, no room
    P.append(ipp(opts=ts(20, 5, 0, 3, bytes([18, 26, 7, 1, 0, 0, 0, 0, 9, 9, 9, 9]))))
    P.append(ipp(opts=ts(20, 5, 0, 3, bytes([9, 9, 9, 9, 0, 0, 0, 0]))))
    P.append(ipp(opts=ts(12, 13, 0, 3)))                         # TS flag 3 full
    P.append(ipp(opts=ts(12, 5, 0, 2)))                          # TS flag 2
    P.append(ipp(opts=ts(12, 4, 0, 0)))                          # TS pointer 4
    P.append(ipp(opts=bytes([131, 11, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0])))     # LSRR
    P.append(ipp(opts=bytes([137, 7, 4, 1, 2, 3, 4, 0])))        # SSRR, none used
    P.append(ipp(opts=bytes([0x94, 4, 0, 0])))                   # router alert
    P.append(ipp(opts=bytes([0x94, 1, 0, 0])))                   # length 1
    P.append(ipp(opts=bytes([0x94, 9, 0, 0])))                   # length past end
    P.append(ipp(opts=bytes([1, 1, 1, 0x44])))                   # TS, length byte in data
    P.append(ipp(opts=bytes([7, 7, 4, 0, 0, 0, 0, 0]) + ts(12, 9, 15, 0)))  # RR, bad TS
    # ICMP, fragments, DF.
    P.append(ipp(proto=1, payload=icmp(8)))
    P.append(ipp(proto=1, payload=icmp(3, 1)))
    P.append(ipp(proto=1, payload=icmp(11)))
    P.append(ipp(proto=1, payload=icmp(0)))
    P.append(ipp(proto=1, payload=b"\x0b\0\0"))                  # short ICMP
    P.append(ipp(off=0x2000, ident=99))                          # MF, first fragment
    P.append(ipp(off=0x2005, ident=99))                          # later fragment
    P.append(ipp(off=0x0007, ident=99))                          # last fragment
    P.append(ipp(off=0x4000))                                    # DF
    # Long packets.
    big = bytes((k * 13) & 0xFF for k in range(1480))
    P.append(ipp(payload=big))
    P.append(ipp(payload=big, off=0x4000))
    P.append(ipp(payload=big[:556]))                             # 576
    P.append(ipp(payload=big[:557]))                             # 577
    P.append(ipp(payload=big[:1000], off=0x2000 | 100))         # a middle fragment
    P.append(ipp(payload=big[:700], opts=bytes([0x94, 4, 0, 0]) + rr(11, 4) + b"\0"))
    P.append(ipp(payload=big[:700], opts=rr(11, 4) + b"\0"))
    P.append(ipp(payload=big[:700], opts=bytes([0x83, 7, 4, 1, 2, 3, 4, 1])))
    P.append(ipp(proto=1, payload=icmp(8, data=big[:700]), tos=0x10))
    return [ETH + p for p in P]


def M(s):
    return bytes.fromhex(s.replace(":", ""))


def arp(op, sha, spa, tha, tpa, dst="ff:ff:ff:ff:ff:ff", src=None, hrd=1, pro=0x0800,
        etype=0x0806, hln=6, pln=4):
    return (M(dst) + M(src or sha) + struct.pack("!HHHBBH", etype, hrd, pro, hln, pln, op) +
            M(sha) + struct.pack("!I", A(spa)) + M(tha) + struct.pack("!I", A(tpa)))


def gen_arp():
    host, z = "00:20:6a:11:22:33", "00:00:00:00:00:00"
    P = []
    for t in ("18.26.4.24", "18.26.7.1", "18.26.7.99", "18.26.4.25", "18.26.9.3",
              "18.26.10.3", "18.26.200.1", "18.27.0.1", "18.26.7.5"):
        P.append(arp(1, host, "18.26.4.9", z, t))
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24") + bytes(18))          # padded
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24", dst="00:00:c0:ae:67:ef",
                 src="02:00:00:00:00:07"))                                    # unicast
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24", hln=4, pln=9))       # lengths ignored
    P.append(arp(2, host, "18.26.4.9", "00:00:c0:ae:67:ef", "18.26.4.24"))  # a reply
    P.append(arp(3, host, "18.26.4.9", z, "18.26.4.24"))                     # RARP op
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24", hrd=6))
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24", pro=0x86dd))
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24", etype=0x0800))
    P.append(arp(1, host, "18.26.4.9", z, "18.26.4.24")[:41])                # short
    P.append(arp(1, "01:00:5e:00:00:01", "18.26.7.5", z, "18.26.7.1"))     # group sender
    return P


def gen_arpq():
    """(ms after the start, frame): IP packets for ARPQuerier's input 0 and
    ARP frames for input 1."""
    me, host, z = "00:00:c0:ae:67:ef", "00:20:6a:11:22:33", "00:00:00:00:00:00"
    ip = lambda d, ms: (ms, ETH + ipp(src="18.26.7.5", dst=d, ident=ms & 0xFFFF))
    P = [ip("18.26.4.9", 0), ip("18.26.4.9", 10), ip("18.26.4.255", 20),
         ip("255.255.255.255", 21), ip("224.1.2.3", 22), ip("239.200.2.3", 23),
         ip("0.0.0.0", 24), ip("18.26.4.10", 30), ip("18.26.4.9", 150),
         ip("18.26.4.10", 160), ip("18.26.4.9", 170), ip("18.26.4.9", 180),
         ip("18.26.4.9", 190),
         (200, arp(2, host, "18.26.4.9", me, "18.26.4.24", dst=me)),
         ip("18.26.4.9", 210),
         (220, arp(2, "01:00:5e:00:00:01", "18.26.4.10", me, "18.26.4.24", dst=me)),
         (230, arp(1, host, "18.26.4.10", z, "18.26.4.24")),
         (240, arp(2, host, "18.26.4.11", me, "18.26.4.24", dst=me)[:41]),
         (250, arp(2, "00:20:6a:44:55:66", "18.26.4.77", me, "18.26.4.24", dst=me)),
         ip("18.26.4.77", 260), ip("18.26.4.10", 3500),
         ip("18.26.4.9", 61000), ip("18.26.4.9", 61050), ip("18.26.4.12", 61100)]
    P += [ip("18.26.4.50", 62000 + 150 * k) for k in range(26)]
    P += [(66000, arp(2, "00:20:6a:00:00:50", "18.26.4.50", me, "18.26.4.24", dst=me)),
          ip("18.26.4.50", 66100)]
    return P


def gen(kind):
    ts = 1700000000 * 10**9 + 5 * 10**8
    if kind == "ip":
        pkts = gen_ip()
    elif kind == "arp":
        pkts = gen_arp()
    elif kind == "arpq":
        return [(ts + ms * 10**6, p) for ms, p in gen_arpq()]
    elif kind == "ether":
        me, other = "0000c0ae67ef", "0000c04f71ef"
        pkts = []
        for d in (me, "ffffffffffff", "01005e000001", "ffffffffff00", other, "0300c0ae67ef"):
            for sr in (other, me):
                pkts.append(bytes.fromhex(d + sr + "0800") + b"payload")
        pkts.append(bytes.fromhex("0100"))                       # short
        pkts.append(bytes.fromhex("aa" * 6 + me + "0800")[:12])
    else:
        sys.exit("unknown trace " + kind)
    return [(ts + k * 1000, p) for k, p in enumerate(pkts)]


# --- models --------------------------------------------------------------------

def anno():
    return dict(dst_ip=0, fix=0, param=0, ptype=0, paint=0)


def show(p):
    a = p[2]
    return [p[0], bytearray(struct.pack("!IBBBB", a["dst_ip"], a["fix"], a["param"],
                                        a["ptype"], a["paint"] & 0xFF)) + p[1], a]


def strip14(model):
    """Strip(14) -> model -> each output through Unstrip(14) -> ShowAnno."""
    def f(pkts):
        outs = None
        for ts, b, a in pkts:
            head, body = (b, bytearray()) if len(b) < 14 else (b[:14], b[14:])
            res = model([[ts, body, a]])
            if outs is None:
                outs = [[] for _ in res]
            for k, lst in enumerate(res):
                for q in lst:
                    outs[k].append(show([q[0], head + q[1], q[2]]))
        return outs
    return f


def from_len(pkts):
    for p in pkts:
        n = len(p[1])
        p[2].update(ptype=n % 5, fix=int(n % 3 == 0), param=n % 251, dst_ip=A("10.0.0.0") | (n & 0xFF))
    return pkts


def dec_ip_ttl(pkts):
    o0, o1 = [], []
    for p in pkts:
        b = p[1]
        if len(b) < 20 or b[8] <= 1:
            o1.append(p)
            continue
        b[8] -= 1
        c = u16(b, 10)
        s = (~c & 0xFFFF) + 0xFEFF
        put16(b, 10, ~(s + (s >> 16)) & 0xFFFF)
        o0.append(p)
    return [o0, o1]


def check_ip_header(interfaces=(), badsrc=None, gooddst=None, checksum=True, nout=2):
    bad_src, good_dst = [], []
    for pfx in interfaces:
        a, n = pfx.split("/")
        mask = (0xFFFFFFFF << (32 - int(n))) & 0xFFFFFFFF
        bad_src.append((A(a) & mask) | (~mask & 0xFFFFFFFF))
        good_dst.append(A(a))
    if interfaces:
        bad_src += [0, 0xFFFFFFFF]
    if badsrc is not None:
        bad_src = [A(x) for x in badsrc]
    if gooddst is not None:
        good_dst = [A(x) for x in gooddst]

    def f(pkts):
        outs = [[] for _ in range(nout)]
        for p in pkts:
            b = p[1]
            plen = len(b)
            ok = plen >= 20 and b[0] >> 4 == 4 and (b[0] & 15) * 4 >= 20
            if ok:
                hl, ln = (b[0] & 15) * 4, u16(b, 2)
                ok = hl <= ln <= plen and (not checksum or ones_sum(bytes(b[:hl])) == 0xFFFF)
            if ok and u32(b, 12) in bad_src and u32(b, 16) not in good_dst:
                ok = False
            if not ok:
                if nout > 1:
                    outs[1].append(p)
                continue
            del b[ln:]
            p[2]["dst_ip"] = u32(b, 16)
            outs[0].append(p)
        return outs
    return f


def get_ip_address(off):
    def f(pkts):
        for p in pkts:
            p[2]["dst_ip"] = u32(p[1], off)
        return [pkts]
    return f


def set_ip_address(addr):
    def f(pkts):
        for p in pkts:
            p[2]["dst_ip"] = A(addr)
        return [pkts]
    return f


def drop_broadcasts(pkts):
    o0, o1 = [], []
    for p in pkts:
        (o1 if p[2]["ptype"] in (1, 2) else o0).append(p)
    return [o0, o1]


def fix_ip_src(addr):
    def f(pkts):
        for p in pkts:
            b = p[1]
            if p[2]["fix"] and len(b) >= 20:
                p[2]["fix"] = 0
                b[12:16] = struct.pack("!I", A(addr))
                b[10:12] = b"\0\0"
                hl = (b[0] & 15) * 4
                put16(b, 10, cksum(bytes(b[:hl]) + bytes(max(0, hl - len(b)))))
        return [pkts]
    return f


def ip_lookup(routes, nout):
    """IPRouteTable: routes 'ADDR/LEN [GW] PORT'; the first of equal
    prefixes is kept; longest match on dst_ip; a gateway into dst_ip."""
    table = {}
    for r in routes:
        w = r.split()
        a, n = w[0].split("/")
        n = int(n)
        mask = (0xFFFFFFFF << (32 - n)) & 0xFFFFFFFF
        key = (A(a) & mask, n)
        if key not in table:
            table[key] = (A(w[1]) if len(w) == 3 else 0, int(w[-1]))

    def f(pkts):
        outs = [[] for _ in range(nout)]
        for p in pkts:
            d = p[2]["dst_ip"]
            best = None
            for (net, n), hop in table.items():
                mask = (0xFFFFFFFF << (32 - n)) & 0xFFFFFFFF
                if d & mask == net and (best is None or n > best[0]):
                    best = (n, hop)
            if best is None:
                continue
            gw, port = best[1]
            if gw:
                p[2]["dst_ip"] = gw
            outs[port].append(p)
        return outs
    return f


def checked(model):
    """CheckIPHeader (no output 1) in front of model."""
    def f(pkts):
        return model(check_ip_header(nout=1)(pkts)[0])
    return f


ROUTER_ROUTES = ["18.26.4.24/32 0", "18.26.4.255/32 0", "18.26.4.0/32 0",
                 "18.26.7.1/32 0", "18.26.7.255/32 0", "18.26.7.0/32 0",
                 "18.26.4.77/24 1", "18.26.7.0/24 2", "18.26.4.0/24 18.26.4.1 2",
                 "0.0.0.0/0 18.26.4.1 1"]


def host_ether_filter(eth, drop_own=False, drop_other=True, offset=0, nout=2):
    me = bytes.fromhex(eth.replace(":", ""))

    def f(pkts):
        outs = [[] for _ in range(nout)]
        for p in pkts:
            b = bytes(p[1]) + bytes(64)
            e = b[offset:offset + 12]
            if drop_own and e[6:12] == me:
                k = 1
            elif e[:6] == me:
                p[2]["ptype"], k = 0, 0
            elif e[:6] == b"\xff" * 6:
                p[2]["ptype"], k = 1, 0
            elif e[0] & 1:
                p[2]["ptype"], k = 2, 0
            else:
                p[2]["ptype"] = 3
                k = 1 if drop_other else 0
            if k < nout:
                outs[k].append(p)
        return outs
    return f


def shown(model):
    def f(pkts):
        return [[show(p) for p in out] for out in model(pkts)]
    return f


def ip_gw_options(myaddr, others=()):
    me = A(myaddr)
    mine = [A(x) for x in others] + [me]

    def f(pkts):
        o0, o1 = [], []
        for p in pkts:
            b = p[1]
            hl = (b[0] & 15) * 4
            if hl <= 20:
                o0.append(p)
                continue
            ms = (p[0] // 10**6) % 86400000
            oi, changed, err = 20, False, None
            byte = lambda k: b[k] if k < len(b) else 0
            while oi < hl:
                t = byte(oi)
                if t == 1:
                    oi += 1
                    continue
                if t == 0:
                    break
                xlen = byte(oi + 1)
                if xlen < 2 or oi + xlen > hl:
                    err = oi + 1
                    break
                if t == 7:
                    changed = True
                    q = byte(oi + 2) - 1
                    if q >= 3 and q + 4 <= xlen:
                        b[oi + q:oi + q + 4] = struct.pack("!I", me)
                        b[oi + 2] += 4
                    elif q != xlen:
                        err = oi + 2
                        break
                elif t == 68:
                    changed = True
                    q = byte(oi + 2) - 1
                    oflw, flg = byte(oi + 3) >> 4, byte(oi + 3) & 15
                    if q < 4:
                        err = oi + 2
                        break
                    over = False
                    if flg == 0:
                        if q + 4 <= xlen:
                            b[oi + q:oi + q + 4] = struct.pack("!I", ms)
                            b[oi + 2] += 4
                        else:
                            over = True
                    elif flg == 1:
                        if q + 8 <= xlen:
                            b[oi + q:oi + q + 8] = struct.pack("!II", me, ms)
                            b[oi + 2] += 8
                        else:
                            over = True
                    elif flg == 3 and q + 8 <= xlen:
                        if u32(b, oi + q) in mine:
                            b[oi + q + 4:oi + q + 8] = struct.pack("!I", ms)
                            b[oi + 2] += 8
                    else:
                        err = oi + 3
                        break
                    if over:
                        if oflw < 15:
                            b[oi + 3] = ((oflw + 1) << 4) | flg
                        else:
                            err = oi + 3
                            break
                oi += xlen
            if err is not None:
                p[2]["param"] = err & 0xFF
                o1.append(p)
                continue
            if changed:
                b[10:12] = b"\0\0"
                put16(b, 10, cksum(bytes(b[:hl])))
            o0.append(p)
        return [o0, o1]
    return f


ICMP_ERROR_TYPES = (3, 4, 5, 11, 12)


def icmp_error(src, type_, code=0, badaddrs=(), mtu=576, pmtu=0, fix=True, ids=None):
    """ICMPError. Click's IP id counter is one static variable of the
    class, from 1, 16 bits: `ids` is that counter, a one-item list the
    models of several elements share (a fresh one when not given)."""
    bad = [A(x) for x in badaddrs]
    me = A(src)
    ctr = ids if ids is not None else [1]

    def unicast(a):
        return a != 0xFFFFFFFF and a >> 28 != 0xE and a not in bad

    def source_route(b, hl):
        oi = 20
        while oi < hl:
            t = b[oi] if oi < len(b) else 0
            if t == 1:
                oi += 1
                continue
            if t == 0:
                return None
            xl = b[oi + 1] if oi + 1 < len(b) else 0
            if xl < 2 or oi + xl > hl:
                return None
            ptr = b[oi + 2]
            if t in (131, 137) and ptr >= 4 and ptr % 4 == 0 and ptr <= xl + 1:
                return oi
            oi += xl
        return None

    def f(pkts):
        out = []
        for ts, b, a in pkts:
            hl = (b[0] & 15) * 4
            s, d = u32(b, 12), u32(b, 16)
            if b[9] == 1 and (hl + 4 > len(b) or b[hl] in ICMP_ERROR_TYPES):
                continue
            if not unicast(d) or a["ptype"] in (1, 2):
                continue
            if not unicast(s) or s >> 24 in (0, 127) or s >> 28 == 0xF:
                continue
            if u16(b, 6) & 0x1FFF:
                continue
            sr = source_route(b, hl)
            if sr is not None and type_ == 5:
                continue
            if sr is not None and type_ == 12 and code == 0 and sr <= a["param"] < sr + b[sr + 1]:
                sr = None
            opt = b""
            if sr is not None:
                ptr = b[sr + 2]
                o = bytearray([b[sr], ptr - 1, 4])
                for k in range(sr + ptr - 5, sr + 2, -4):
                    o += b[k:k + 4]
                o.append(0)
                opt = bytes(o)
            hlen = 20 + len(opt)
            quote = bytes(b[:max(0, mtu - hlen - 8)])
            rest = bytearray(4)
            if type_ == 12 and code == 0:
                rest[0] = a["param"]
            if type_ == 5:
                rest = bytearray(struct.pack("!I", a["dst_ip"]))
            if type_ == 3 and code == 4:
                rest[2:4] = struct.pack("!H", pmtu)
            m = bytearray([type_, code, 0, 0]) + rest + quote
            put16(m, 2, cksum(bytes(m)))
            h = bytearray(struct.pack("!BBHHHBBHII", 0x40 | hlen // 4, 0, hlen + len(m),
                                      ctr[0] & 0xFFFF, 0, 200, 1, 0, me, s)) + opt
            put16(h, 10, cksum(bytes(h)))
            ctr[0] = (ctr[0] + 1) & 0xFFFF
            na = anno()
            na.update(dst_ip=s, fix=int(fix))
            out.append([ts, h + m, na])
        return [out]
    return f


def set_param(v):
    def f(pkts):
        for p in pkts:
            p[2]["param"] = v
        return [pkts]
    return f


def checked_strip(model):
    """Strip(14) -> CheckIPHeader (no output 1) -> model; outputs without
    their first 14 bytes (new packets)."""
    def f(pkts):
        body = [[ts, b[14:], a] for ts, b, a in pkts]
        return model(check_ip_header(nout=1)(body)[0])
    return f


def ip_fragmenter(mtu, honor_df=True, nout=2):
    """IPFragmenter, with the option walk that advances (Click's never
    does) and xorshift32 ids for DF packets (Click's are random)."""
    rng = [2463534242]

    def copied_opts(b, hl):
        out, i, n = bytearray(), 0, hl - 20
        o = b[20:hl]
        while i < n:
            t = o[i]
            if t == 1:
                i += 1
                continue
            if t == 0 or i == n - 1 or o[i + 1] < 2 or i + o[i + 1] > n:
                break
            if t & 0x80:
                out += o[i:i + o[i + 1]]
            i += o[i + 1]
        while len(out) % 4:
            out.append(0)
        return bytes(out)

    def f(pkts):
        outs = [[] for _ in range(nout)]
        for p in pkts:
            ts, b, a = p
            if len(b) <= mtu:
                outs[0].append(p)
                continue
            hl = (b[0] & 15) * 4
            first = (mtu - hl) & ~7
            in_dlen = u16(b, 2) - hl
            opts = copied_opts(b, hl)
            ohl = 20 + len(opts)
            odl = (mtu - ohl) & ~7
            df = u16(b, 6) & 0x4000
            if (df and honor_df) or first < 8:
                if nout > 1:
                    outs[1].append(p)
                continue
            if df:
                x = rng[0]
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                rng[0] = x
                put16(b, 4, x & 0xFFFF)
                put16(b, 6, u16(b, 6) & ~0x4000)
            had_mf = u16(b, 6) & 0x2000
            put16(b, 2, hl + first)
            put16(b, 6, u16(b, 6) | 0x2000)
            put16(b, 10, 0)
            put16(b, 10, cksum(bytes(b[:hl])))
            outs[0].append([ts, bytearray(b[:hl + first]), dict(a)])
            off = first
            while off < in_dlen:
                dl = min(odl, in_dlen - off)
                h = bytearray(b[:20]) + opts
                h[0] = 0x40 | ohl // 4
                fo = (u16(b, 6) + (off >> 3)) & 0xFFFF
                if off + dl >= in_dlen and not had_mf:
                    fo &= ~0x2000
                put16(h, 6, fo)
                put16(h, 2, ohl + dl)
                put16(h, 10, 0)
                put16(h, 10, cksum(bytes(h)))
                outs[0].append([ts, h + b[hl + off:hl + off + dl], dict(a)])
                off += dl
        return outs
    return f


def arp_responder(entries):
    """ARPResponder: entries 'IP[/LEN] ... ETH'; Click sorts nested
    prefixes more specific first and keeps the later of equal ones, so the
    answer is the longest matching prefix, the last given among equals."""
    table = []
    for e in entries:
        w = e.split()
        for x in w[:-1]:
            a, n = (x.split("/") + ["32"])[:2]
            n = int(n)
            mask = (0xFFFFFFFF << (32 - n)) & 0xFFFFFFFF
            table.append((A(a) & mask, mask, n, M(w[-1])))

    def f(pkts):
        o0, o1 = [], []
        for ts, b, a in pkts:
            best = None
            if (len(b) >= 42 and u16(b, 12) == 0x0806 and u16(b, 14) == 1 and
                    u16(b, 16) == 0x0800 and u16(b, 20) == 1):
                tpa = u32(b, 38)
                for net, mask, n, eth in table:
                    if tpa & mask == net and (best is None or n >= best[0]):
                        best = (n, eth)
            if best is None:
                o1.append([ts, b, a])
                continue
            eth = best[1]
            r = (bytes(b[22:28]) + eth + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 2) +
                 eth + bytes(b[38:42]) + bytes(b[22:28]) + bytes(b[28:32]))
            o0.append([0, bytearray(r), anno()])
        return [o0, o1]
    return f


def arp_querier(ip, eth, capacity=2048, entry_capacity=0, entry_packet_capacity=0,
                slim_factor=2, timeout=300, broadcast=None, poll_timeout=60,
                broadcast_poll=False, nout=2):
    """ARPQuerier with its own ARPTable, fed by Classifier(12/0806, 12/0800):
    ARP frames to input 1, IP frames through Strip(14) and
    GetIPAddress(16) to input 0. Jiffies are milliseconds of the packets'
    time; the expiry timer runs timeout s after the first packet, then
    every timeout + 1 s."""
    a, n = (ip.split("/") + ["32"])[:2]
    my_ip = A(a)
    mask = (0xFFFFFFFF << (32 - int(n))) & 0xFFFFFFFF
    bcast = A(broadcast) if broadcast else (my_ip | (~mask & 0xFFFFFFFF))
    if not broadcast and bcast == my_ip:
        bcast = 0xFFFFFFFF
    me = M(eth)
    tj = timeout * 1000
    HZ = 1000

    class E:
        pass

    def f(pkts):
        outs = [[] for _ in range(nout)]
        qout = outs[nout - 1]
        table, age = {}, []          # ip -> E; age list of E
        st = dict(count=0, drops=0, tdrops=0, queries=0)
        t0 = pkts[0][0] // 10**6 if pkts else 0
        timer = [t0 + tj] if tj else [None]

        def expired(e, now):
            return tj and e.live + tj < now

        def known(e, now):
            return e.known and not expired(e, now)

        def allow_poll(e, now):
            return now >= e.polled + (2 * HZ if e.polls >= 10 else HZ // 10)

        def mark_poll(e, now):
            e.polled = now
            e.polls = min(e.polls + 1, 255)

        def slim(now):
            while age and (expired(age[0], now) or (entry_capacity and len(table) > entry_capacity)):
                e = age.pop(0)
                del table[e.ip]
                st["count"] -= len(e.q)
                st["tdrops"] += len(e.q)
            if capacity and st["count"] > capacity:
                sc = capacity - capacity // slim_factor or 1
                for e in age:
                    while e.q and st["count"] > sc:
                        e.q.pop(0)
                        st["count"] -= 1
                        st["tdrops"] += 1
                    if st["count"] <= sc:
                        break

        def ensure(ipa, now):
            if ipa not in table:
                e = E()
                e.ip, e.eth, e.known, e.polls, e.live, e.polled, e.q = ipa, b"\xff" * 6, False, 0, now, now - HZ, []
                if entry_capacity and len(table) + 1 > entry_capacity:
                    # Click counts the new entry first, then slims.
                    table[None] = None
                    slim(now)
                    del table[None]
                table[ipa] = e
                age.append(e)
            return table[ipa]

        def query(p, dst_eth):
            ts, b, an = p
            q = (dst_eth + me + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + me +
                 struct.pack("!I", my_ip) + bytes(6) + struct.pack("!I", an["dst_ip"]))
            st["queries"] += 1
            qout.append([ts, bytearray(q), anno()])

        def handle_ip(p, now):
            ts, b, an = p
            if not my_ip:
                st["drops"] += 1
                return
            b[0:0] = bytes(12) + b"\x08\x00"
            d = an["dst_ip"]
            e = table.get(d)
            if e is not None and known(e, now):
                b[0:6] = e.eth
                if poll_timeout and now >= e.live + poll_timeout * 1000 and allow_poll(e, now):
                    mark_poll(e, now)
                    query(p, b"\xff" * 6 if broadcast_poll else e.eth)
            elif d == 0xFFFFFFFF or d == bcast:
                b[0:6] = b"\xff" * 6
            elif d >> 28 == 0xE:
                b[0:6] = bytes([1, 0, 0x5E, (d >> 16) & 0x7F, (d >> 8) & 0xFF, d & 0xFF])
            elif d == 0:
                st["drops"] += 1
                return
            else:
                e = ensure(d, now)
                if tj and e.live < now - tj:
                    e.live = now - tj
                    i = age.index(e)
                    j = i + 1
                    while j < len(age) and age[j].live < e.live:
                        j += 1
                    age.insert(j, e)
                    del age[i]
                if entry_packet_capacity and len(e.q) >= entry_packet_capacity:
                    st["tdrops"] += 1
                    return
                st["count"] += 1
                if capacity and st["count"] > capacity:
                    slim(now)
                e.q.append(p)
                if allow_poll(e, now):
                    mark_poll(e, now)
                    query(p, b"\xff" * 6)
                return
            b[6:12] = me
            outs[0].append(p)

        for p in pkts:
            ts, b, an = p
            now = ts // 10**6
            while timer[0] is not None and timer[0] <= now:
                slim(timer[0])
                timer[0] += tj + 1000
            if u16(b, 12) == 0x0806:
                if len(b) < 42:
                    continue
                sha, spa = bytes(b[22:28]), u32(b, 28)
                if u16(b, 14) == 1 and u16(b, 16) == 0x0800 and u16(b, 20) == 2 and not sha[0] & 1:
                    e = ensure(spa, now)
                    e.eth, e.known, e.live, e.polls, e.polled = sha, sha != b"\xff" * 6, now, 0, now - HZ
                    age.remove(e)
                    age.append(e)
                    waiting, e.q = e.q, []
                    st["count"] -= len(waiting)
                    for w in waiting:
                        w[1][0:6] = sha
                        w[1][6:12] = me
                        outs[0].append(w)
            elif u16(b, 12) == 0x0800:
                body = [ts, b[14:], an]
                an["dst_ip"] = u32(body[1], 16)
                handle_ip(body, now)
        if os.environ.get("ARPQ_STATS"):
            print("count %d length %d queries %d drops %d table_drops %d" %
                  (len(table), st["count"], st["queries"], st["drops"], st["tdrops"]))
        return outs
    return f


def concat(*fs):
    def f(pkts):
        outs = []
        for g in fs:
            outs += g([[ts, bytearray(b), dict(a)] for ts, b, a in pkts])
        return outs
    return f


def tee(*fs):
    """Tee to the models `fs`, as Click pushes: each packet goes down
    output 0's path, then output 1's, ..., before the next packet enters,
    so state the paths share (ICMPError's id counter) sees the packets in
    that order. One list of outputs, those of fs[0] first (as concat)."""
    def f(pkts):
        outs = []
        for g in fs:
            outs += g([])
        for ts, b, a in pkts:
            got = []
            for g in fs:
                got += g([[ts, bytearray(b), dict(a)]])
            for o, x in zip(outs, got):
                o += x
        return outs
    return f


def icmp_errors():
    """The five ICMPErrors of ICMPError.np behind one Tee: one id counter."""
    ids = [1]
    para = shown(checked_strip(icmp_error("18.26.4.24", 12, ids=ids)))
    return tee(
        shown(checked_strip(icmp_error("18.26.4.24", 11, ids=ids))),
        lambda p: para(from_len(p)),
        shown(checked_strip(seq(set_ip_address("18.26.4.1"), icmp_error("18.26.4.24", 5, 1, ids=ids)))),
        shown(checked_strip(seq(set_param(22), icmp_error("18.26.4.24", 12, 0, ids=ids)))),
        shown(checked_strip(icmp_error("18.26.4.24", 3, 4, ("18.26.4.255", "1.2.3.4"), 100, 1500,
                                       False, ids=ids))))


def seq(*fs):
    """Models in a chain, each feeding its output 0 to the next."""
    def f(pkts):
        for g in fs:
            pkts = g(pkts)[0]
        return [pkts]
    return f


MODELS = {
    "DecIPTTL": strip14(dec_ip_ttl),
    "CheckIPHeader": concat(
        strip14(check_ip_header()),
        strip14(check_ip_header(("18.26.4.24/24", "18.26.7.1/24"), nout=1)),
        strip14(check_ip_header(badsrc=("18.26.4.9", "127.0.0.1"), gooddst=("18.26.7.1",),
                                checksum=False, nout=1))),
    "CheckIPHeaderClick": strip14(check_ip_header(("18.26.4.24/24", "18.26.7.1/24"))),
    "GetIPAddress": concat(strip14(get_ip_address(16)), strip14(get_ip_address(12))),
    "SetIPAddress": strip14(set_ip_address("1.2.3.4")),
    "DropBroadcasts": concat(lambda p: strip14(drop_broadcasts)(from_len(p)),
                             lambda p: strip14(lambda q: drop_broadcasts(q)[:1])(from_len(p))),
    "IPLookup": concat(strip14(checked(ip_lookup(ROUTER_ROUTES, 3))),
                       strip14(checked(ip_lookup(ROUTER_ROUTES[:-1] + ["224.0.0.0/4 3"], 4)))),
    "HostEtherFilter": concat(shown(host_ether_filter("00:00:c0:ae:67:ef")),
                              shown(host_ether_filter("00:00:c0:ae:67:ef", True, False, nout=1))),
    "IPGWOptions": strip14(checked(ip_gw_options("18.26.7.1", ("9.9.9.9",)))),
    "ICMPError": lambda p: icmp_errors()(p),
    "IPFragmenter": concat(
        shown(checked_strip(ip_fragmenter(576))),
        shown(checked_strip(ip_fragmenter(1500, nout=1))),
        shown(checked_strip(ip_fragmenter(300, False, 1))),
        shown(checked_strip(ip_fragmenter(60)))),
    "ARPResponder": concat(
        arp_responder(["18.26.4.24 00:00:c0:ae:67:ef", "18.26.7.0/24 00:00:c0:ae:67:ef"]),
        lambda p: arp_responder(["18.26.0.0/16 02:00:00:00:00:0a", "18.26.7.0/24 02:00:00:00:00:0b",
                                 "18.26.7.0/24 02:00:00:00:00:0c", "18.26.7.5 02:00:00:00:00:0d",
                                 "18.26.9.0/24 18.26.10.0/24 02:00:00:00:00:0e"])(p)[:1]),
    "ARPResponderClick": arp_responder(["18.26.4.24 00:00:c0:ae:67:ef", "18.26.7.0/24 00:00:c0:ae:67:ef",
                                        "18.26.9.0/24 18.26.10.0/24 00:00:c0:4f:71:ef"]),
    "ARPQuerier": concat(
        arp_querier("18.26.4.24/24", "00:00:c0:ae:67:ef"),
        arp_querier("18.26.4.24", "00:00:c0:ae:67:ef", capacity=4, entry_capacity=2,
                    entry_packet_capacity=3, timeout=2, poll_timeout=1, broadcast_poll=True,
                    nout=1)),
    "ARPQuerierClick": arp_querier("18.26.4.24", "00:00:c0:ae:67:ef", capacity=4, entry_capacity=2,
                                   entry_packet_capacity=3, timeout=2, poll_timeout=1,
                                   broadcast_poll=True, nout=1),
    "FixIPSrc": lambda p: strip14(fix_ip_src("18.26.4.24"))(from_len(p)),
}


def check(model, inp, outs):
    pkts = [[ts, bytearray(b), anno()] for ts, b in read_pcap(inp)]
    compare_outputs(outs, MODELS[model](pkts), shown=None)


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        write_pcap(sys.argv[3], gen(sys.argv[2]))
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
