#!/usr/bin/env python3
"""Reference models of Click elements for the library's tests, written from
Click's sources (kohler/click), independently of the NPL elements.

  clickref.py gen KIND OUT.pcap             write a crafted input trace
  clickref.py check MODEL IN.pcap OUT...    compare the outputs of a run
                                            with the model's, packet by
                                            packet; prints 'ok' lines or
                                            the first difference (exit 1)
  clickref.py source MODEL OUT...           the same for a source without
                                            input, time stamps included

Each model takes the input packets [(ts_ns, bytes)] and returns one list of
packets per output port."""
import struct
import sys


# --- pcap ------------------------------------------------------------------

def read_pcap(path):
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    nano = magic == 0xA1B23C4D
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), hex(magic)
    off, out = 24, []
    while off < len(data):
        sec, frac, caplen, _ = struct.unpack("<IIII", data[off:off + 16])
        off += 16
        out.append((sec * 10**9 + (frac if nano else frac * 1000), data[off:off + caplen]))
        off += caplen
    return out


def write_pcap(path, pkts):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
        for ts, b in pkts:
            f.write(struct.pack("<IIII", ts // 10**9, ts % 10**9, len(b), len(b)))
            f.write(b)


# --- checksums (RFC 1071) -----------------------------------------------------

def ones_sum(b, acc=0):
    if len(b) % 2:
        b = b + b"\0"
    for k in range(0, len(b), 2):
        acc += (b[k] << 8) | b[k + 1]
    while acc >> 16:
        acc = (acc & 0xFFFF) + (acc >> 16)
    return acc


def cksum(b):
    return ~ones_sum(b) & 0xFFFF


def update_in_cksum(c, old, new):
    # click_update_in_cksum
    s = (~c & 0xFFFF) + (~old & 0xFFFF) + new
    s = (s & 0xFFFF) + (s >> 16)
    return ~(s + (s >> 16)) & 0xFFFF


def u16(b, o):
    return (b[o] << 8) | b[o + 1] if o + 1 < len(b) else (b[o] << 8 if o < len(b) else 0)


def u32(b, o):
    return (u16(b, o) << 16) | u16(b, o + 2)


def put16(b, o, v):
    b[o:o + 2] = bytes([(v >> 8) & 0xFF, v & 0xFF])


# --- crafted traces -------------------------------------------------------------

ETH = bytes.fromhex("020000000002" "020000000001" "0800")


def ip_header(total, proto=17, ttl=64, src=0x0A000001, dst=0xC0A80002, ident=7,
              off=0, opts=b""):
    ihl = (20 + len(opts)) // 4
    h = bytearray(struct.pack("!BBHHHBBHII", 0x40 | ihl, 0, total, ident, off, ttl,
                              proto, 0, src, dst)) + opts
    put16(h, 10, cksum(bytes(h)))
    return h


def udp_packet(payload, ulen=None, off=0, opts=b"", sport=1234, dport=53,
               csum_zero=False):
    udp = bytearray(struct.pack("!HHHH", sport, dport, 8 + len(payload), 0x1111)) + payload
    if ulen is not None:
        put16(udp, 4, ulen)
    ip = ip_header(20 + len(opts) + len(udp), off=off, opts=opts)
    if csum_zero:
        # Choose the last two payload bytes so that the checksum is 0.
        ip_ = bytes(ip)
        src, dst = u32(ip_, 12), u32(ip_, 16)
        udp[-2:] = b"\0\0"
        udp[6:8] = b"\0\0"
        s = ones_sum(bytes(udp), (src >> 16) + (src & 0xFFFF) + (dst >> 16) +
                     (dst & 0xFFFF) + 17 + len(udp))
        put16(udp, len(udp) - 2, (0xFFFF - s) & 0xFFFF)
        udp[6:8] = b"\x12\x34"                 # wrong on input
    return ETH + bytes(ip) + bytes(udp)


def gen(kind):
    ts = 1700000000 * 10**9
    pkts = []
    if kind == "sizes":
        # Every length from 0 to 70, then some longer ones; byte k is k*7+len.
        for n in list(range(0, 71)) + [128, 1000, 1514]:
            pkts.append(bytes(((k * 7 + n) & 0xFF) for k in range(n)))
    elif kind == "udp":
        for n in range(0, 12):                     # odd and even payloads
            pkts.append(udp_packet(bytes(range(n))))
        pkts.append(udp_packet(b"abcdef", csum_zero=True))   # sums to 0
        pkts.append(udp_packet(b"xyz0", csum_zero=True))
        pkts.append(udp_packet(b"12345", ulen=10))            # ulen < data
        pkts.append(udp_packet(b"12345", ulen=20))            # ulen > data
        pkts.append(udp_packet(b"12345", ulen=4))             # ulen < 8
        pkts.append(udp_packet(b"frag", off=0x2000))          # MF
        pkts.append(udp_packet(b"frag", off=0x0001))          # offset
        pkts.append(udp_packet(b"dfok", off=0x4000))          # DF is fine
        lsrr = bytes([131, 11, 4]) + bytes([1, 2, 3, 4, 9, 8, 7, 6]) + b"\0"
        pkts.append(udp_packet(b"route", opts=lsrr))          # source route
        pkts.append(udp_packet(b"nop", opts=bytes([1, 1, 1, 0])))
        pkts.append(ETH + bytes(ip_header(20)[:19]))          # short IP
        pkts.append(ETH + bytes(ip_header(28)) + b"\0\1\2")   # short UDP
        pkts.append(ETH)
    elif kind == "ipbad":
        for n in (0, 10, 19):
            pkts.append(ETH + bytes(ip_header(20))[:n])
        h = bytearray(ip_header(40)); h[0] = 0x44                  # ihl 4
        pkts.append(ETH + bytes(h) + bytes(20))
        h = bytearray(ip_header(40)); h[0] = 0x47                  # ihl 7 > len
        pkts.append(ETH + bytes(h))
        h = bytearray(ip_header(48, opts=bytes([1] * 8)))          # ihl 7 ok
        h[10:12] = b"\xde\xad"
        pkts.append(ETH + bytes(h) + bytes(20))
        for n in (0, 1, 2, 3, 7):
            h = bytearray(ip_header(20 + n, ident=n)); h[10:12] = b"\0\0"
            pkts.append(ETH + bytes(h) + bytes(range(n)))
    elif kind == "timed":
        # Rate changes: 10 kpps, 500 pps, a 250 ms pause, 20 kpps, a 1 s
        # pause, 2 kpps; sizes vary so that byte rates differ from packet
        # rates.
        out, t = [], ts + 123456
        for gap, n in ((100000, 300), (2000000, 100), (250000000, 1),
                       (50000, 400), (1000000000, 1), (500000, 200)):
            for k in range(n):
                t += gap
                size = 60 + (len(out) * 37) % 1400
                out.append((t, bytes((len(out) + j) & 0xFF for j in range(size))))
        return out
    else:
        sys.exit("unknown trace " + kind)
    return [(ts + k * 1000, p) for k, p in enumerate(pkts)]


# --- models -------------------------------------------------------------------
# Packets are [ts, bytearray, paint].

def m_strip14(pkts, f):
    # Strip(14) -> element -> Unstrip(14), for the IP elements.
    outs = None
    for ts, b, paint in pkts:
        if len(b) < 14:
            head, body = b, bytearray()        # Click's pull: empty packet
        else:
            head, body = b[:14], b[14:]
        res = f([[ts, body, paint]])
        if outs is None:
            outs = [[] for _ in res]
        for k, lst in enumerate(res):
            for q in lst:
                outs[k].append([q[0], head + q[1], q[2]])
    return outs or [[], []]


def set_ip_checksum(pkts):
    out = []
    for ts, b, pt in pkts:
        hl = (b[0] & 15) * 4 if b else 0
        if len(b) < 20 or hl < 20 or hl > len(b):
            continue
        b[10:12] = b"\0\0"
        put16(b, 10, cksum(bytes(b[:hl])))
        out.append([ts, b, pt])
    return [out]


def pseudo_dst(b):
    end, k = (b[0] & 15) * 4, 20
    while k < end:
        t = b[k]
        if t == 1:
            k += 1
            continue
        if t == 0:
            break
        if k + 1 >= end or b[k + 1] < 2 or k + b[k + 1] > end:
            break
        l = b[k + 1]
        if t in (131, 137) and l >= 7:
            return u32(b, k + l - 4)
        k += l
    return u32(b, 16)


def udp_cksum(b, h, ulen):
    b[h + 6:h + 8] = b"\0\0"
    src, dst = u32(b, 12), pseudo_dst(b)
    acc = (src >> 16) + (src & 0xFFFF) + (dst >> 16) + (dst & 0xFFFF) + b[9] + ulen
    return ~ones_sum(bytes(b[h:h + ulen]), acc) & 0xFFFF    # 0 stays 0


def set_udp_checksum(pkts):
    o0, o1 = [], []
    for ts, b, pt in pkts:
        h = (b[0] & 15) * 4 if b else 0
        tlen = len(b) - h
        ulen = u16(b, h + 4)
        frag = (u16(b, 6) & 0x3FFF) != 0
        if frag or tlen < 8 or tlen < ulen:
            o1.append([ts, b, pt])
            continue
        put16(b, h + 6, udp_cksum(b, h, ulen))
        o0.append([ts, b, pt])
    return [o0, o1]


def udpip_encap(src, sport, dst, dport, checksum):
    def f(pkts):
        out = []
        for n, (ts, b, pt) in enumerate(pkts):
            L = len(b) + 28
            ip = bytearray(struct.pack("!BBHHHBBHII", 0x45, 0, L & 0xFFFF, n & 0xFFFF, 0,
                                       250, 17, 0, src, dst))
            put16(ip, 10, cksum(bytes(ip)))
            q = ip + bytearray(struct.pack("!HHHH", sport, dport, (L - 20) & 0xFFFF, 0)) + b
            if checksum:
                put16(q, 26, udp_cksum(q, 20, (L - 20) & 0xFFFF))
            out.append([ts, q, pt])
        return [out]
    return f


def ip_encap(proto, src, dst, tos=-1, ttl=250, dscp=-1, ect=0, ce=False, df=False):
    t = tos if tos >= 0 else (dscp << 2 if dscp >= 0 else 0)
    t |= {0: 0, 1: 1, 2: 2}[ect] | (3 if ce else 0)
    tmpl = bytearray(struct.pack("!BBHHHBBHII", 0x45, t, 0, 0, 0x4000 if df else 0,
                                 ttl, proto, 0, src, dst))
    tsum = cksum(bytes(tmpl))

    def f(pkts):
        out = []
        for n, (ts, b, pt) in enumerate(pkts):
            ip = bytearray(tmpl)
            L = (len(b) + 20) & 0xFFFF
            put16(ip, 2, L)
            put16(ip, 4, n & 0xFFFF)
            c = update_in_cksum(update_in_cksum(tsum, 0, L), 0, n & 0xFFFF)
            put16(ip, 10, c)
            out.append([ts, ip + b, pt])
        return [out]
    return f


def hash_switch(offset, length, n):
    def f(pkts):
        outs = [[] for _ in range(n)]
        for ts, b, pt in pkts:
            if len(b) < offset + length:
                outs[0].append([ts, b, pt])
                continue
            d = sum(b[offset:offset + length])
            k = (d ^ (d >> 4)) & (n - 1) if n in (2, 4, 8) else d % n
            outs[k].append([ts, b, pt])
        return outs
    return f


def ether_mirror(pkts):
    out = []
    for ts, b, pt in pkts:
        full = b + bytes(max(0, 12 - len(b)))
        sw = full[6:12] + full[0:6]
        b[:min(12, len(b))] = sw[:min(12, len(b))]
        out.append([ts, b, pt])
    return [out]


def truncate(n):
    return lambda pkts: [[[ts, b[:n], pt] for ts, b, pt in pkts]]


def round_robin(n):
    def f(pkts):
        outs = [[] for _ in range(n)]
        for k, p in enumerate(pkts):
            outs[k % n].append(p)
        return outs
    return f


def paint_by_len(pkts):
    # The tests' PaintByLen helper: paint = length % 4.
    for p in pkts:
        p[2] = len(p[1]) % 4
    return pkts


def check_paint(color, nout):
    def f(pkts):
        outs = [[] for _ in range(nout)]
        for p in pkts:
            k = 0 if p[2] == color else 1
            if k < nout:
                outs[k].append(p)
        return outs
    return f


def paint_tee(color):
    # Both outputs merged in one device: the copy goes out first.
    def f(pkts):
        out = []
        for p in pkts:
            if p[2] == color:
                out.append(p)
            out.append(p)
        return [out]
    return f


def xorshift32(x):
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


def random_sample(prob, active=True):
    def f(pkts):
        o0, o1, x = [], [], 2463534242
        for p in pkts:
            if not active:
                o0.append(p)
                continue
            x = xorshift32(x)
            (o0 if (x & 0x0FFFFFFF) < prob else o1).append(p)
        return [o0, o1]
    return f


def jiffies(ts):
    return (ts // 1000000) & 0xFFFFFFFF


def meter(rates, by_bytes):
    # BandwidthMeter::configure and push, RateEWMA<4, 10> (ewma.hh).
    meters = [((r << 10) // 1000) & 0xFFFFFFFF for r in rates]

    def upd(avg, x):
        target = ((x << 10) + 8) & 0xFFFFFFFF
        d = (target - avg) & 0xFFFFFFFF
        if d >= 1 << 31:
            d -= 1 << 32
        return (avg + (d >> 4)) & 0xFFFFFFFF

    def f(pkts):
        outs = [[] for _ in range(len(rates) + 1)]
        avg = cur = 0
        epoch = None
        for p in pkts:
            now = jiffies(p[0])
            if epoch is None:
                epoch = now
            if now != epoch:
                avg = upd(avg, cur)
                if (epoch + 1) & 0xFFFFFFFF != now:
                    n = (now - epoch - 1) & 0xFFFFFFFF
                    if n >= 100:
                        avg = 0
                    else:
                        for _ in range(n):
                            avg = upd(avg, 0)
                cur = 0
                epoch = now
            cur = (cur + (len(p[1]) if by_bytes else 1)) & 0xFFFFFFFF
            k = next((i for i, m in enumerate(meters) if avg < m), len(meters))
            outs[k].append(p)
        return outs
    return f


M32 = 0xFFFFFFFF


def token_rate(rate, cap):
    # TokenRateX::assign: (token scale, tokens per tick, ticks until full).
    if rate:
        cap = max(cap, (rate - 1) // 1000 + 1)
    scale = M32 // cap
    if rate:
        tpt = (rate * scale) // 1000 or 1
        return scale, tpt, (M32 - 1) // tpt + 1
    return scale, 0, M32


def refill(tokens, tp, now, tpt, tuf):
    # TokenCounterX::refill at jiffy `now`; a clock that went back: diff 0.
    diff = now - tp if tp <= now else 0
    if diff >= tuf:
        return M32
    n = (tokens + diff * tpt) & M32
    return M32 if n < tokens else n


def rated_splitter(rate, dur_ms=20, burst=0):
    # RatedUnqueue::configure_helper, then the bucket.
    scale, tpt, tuf = token_rate(rate, burst or min(rate * dur_ms // 1000, M32) or 1)

    def f(pkts):
        o0, o1, tokens, tp = [], [], 0, 0
        for p in pkts:
            now = jiffies(p[0])
            tokens = refill(tokens, tp, now, tpt, tuf)
            tp = now
            if scale <= tokens:
                tokens -= scale
                o0.append(p)
            else:
                o1.append(p)
        return [o0, o1]
    return f


def rated_source(data, rate=10, limit=-1, length=-1):
    # RatedSource::configure, setup_packet and run_task (ratedsource.cc), in
    # virtual time from 0: the task runs at 0 and then at every jiffy (the
    # element's 1 ms timer); each run sends while the bucket has a token.
    # The first refill fills the bucket: Click's time point starts at 0 and
    # its jiffies are far from 0.
    scale, tpt, tuf = token_rate(rate, 2 if rate < 200 else rate // 100)
    if length < 0:
        pkt = data
    else:
        pkt = (data * (length // max(len(data), 1) + 1))[:length] if data else bytes(length)
    out, tokens, tp, t = [], None, 0, 0
    while limit < 0 or len(out) < limit:
        while limit < 0 or len(out) < limit:
            now = jiffies(t)
            tokens = M32 if tokens is None else refill(tokens, tp, now, tpt, tuf)
            tp = now
            if tokens < scale:
                break
            tokens -= scale
            out.append((t, pkt))
        t += 1000000
        if limit < 0 and t > 10**10:
            break
    return out


SOURCES = {
    # test/lib/RatedSource.np's four sources, then its Click configuration's.
    "RatedSource": [rated_source(b"abc", 10, 12),
                    rated_source(b"0123456789", 250, 30, 25),
                    rated_source(b"\0\n\t#", 3000, 40, 3),
                    rated_source(b"Random bullshit in a packet, at least 64 bytes long. Well, now it is.", 7, 4)],
}


def concat(*fs):
    def f(pkts):
        outs = []
        for g in fs:
            outs += g([[ts, bytearray(b), pt] for ts, b, pt in pkts])
        return outs
    return f


MODELS = {
    "CheckPaint": lambda p: concat(check_paint(2, 2), check_paint(3, 1))(paint_by_len(p)),
    "PaintTee": lambda p: paint_tee(1)(paint_by_len(p)),
    "RandomSample": concat(random_sample(0x08000000), random_sample(0x01000000),
                           random_sample(0, active=False)),
    "Meter": concat(meter([1000, 5000, 12000], False), meter([3000], False)),
    "BandwidthMeter": concat(meter([400000, 2000000], True), meter([100000, 1000000, 3000000, 4000000], True)),
    "RatedSplitter": concat(rated_splitter(1000), rated_splitter(5000, burst=3),
                            rated_splitter(300, dur_ms=1000)),
    "SetIPChecksum": lambda p: m_strip14(p, set_ip_checksum),
    "SetUDPChecksum": lambda p: m_strip14(p, set_udp_checksum),
    "UDPIPEncap": concat(udpip_encap(0x0A000001, 1234, 0x0A000002, 53, True),
                         udpip_encap(0x01020304, 7, 0x05060708, 9, False)),
    "IPEncap": concat(ip_encap(4, 0x12345678, 0x9ABCDEF0),
                      ip_encap(17, 0x0A000001, 0xFFFFFFFF, dscp=46, ect=2, ttl=1, df=True)),
    "HashSwitch": concat(hash_switch(26, 8, 4), hash_switch(2, 5, 3)),
    "EtherMirror": ether_mirror,
    "Truncate": truncate(14),
    "RoundRobin3": round_robin(3),
}


def compare_outputs(outs, want, shown=16, timed=False):
    """Compares each output pcap with the packets the model wants there
    (their time stamps too if `timed`); prints one line per output (the
    first difference, `shown` bytes of each side) and exits 1 if any
    differs."""
    bad = False
    for k, path in enumerate(outs):
        got = read_pcap(path)
        exp = want[k] if k < len(want) else []
        for j in range(max(len(got), len(exp))):
            g = got[j][1] if j < len(got) else None
            e = bytes(exp[j][1]) if j < len(exp) else None
            if timed and g is not None and e is not None and got[j][0] != exp[j][0]:
                print("DIFFERENT output %d packet %d: time stamp %d want %d" %
                      (k, j, got[j][0], exp[j][0]))
                bad = True
                break
            if g != e:
                print("DIFFERENT output %d packet %d: got %s want %s" %
                      (k, j, g and g[:shown].hex(), e and e[:shown].hex()))
                bad = True
                break
        else:
            print("ok output %d: %d packets" % (k, len(got)))
    sys.exit(1 if bad else 0)


def check(model, inp, outs):
    pkts = [[ts, bytearray(b), 0] for ts, b in read_pcap(inp)]
    compare_outputs(outs, MODELS[model](pkts))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        write_pcap(sys.argv[3], gen(sys.argv[2]))
    elif sys.argv[1] == "subseq":
        # The output is the input with some packets left out, in order.
        inp = [b for _, b in read_pcap(sys.argv[2])]
        out = [b for _, b in read_pcap(sys.argv[3])]
        k = 0
        for b in out:
            while k < len(inp) and inp[k] != b:
                k += 1
            if k == len(inp):
                sys.exit("NOT IN ORDER")
            k += 1
        print("in order: %d of %d" % (len(out), len(inp)))
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "source":
        compare_outputs(sys.argv[3:], SOURCES[sys.argv[2]], timed=True)
    else:
        sys.exit(__doc__)
