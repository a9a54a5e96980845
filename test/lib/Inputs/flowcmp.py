#!/usr/bin/env python3
"""Compares the outputs of a multicore run with a reference run (the
interpreter, or one core), port by port:

  flowcmp.py REF_DIR RUN_DIR FILE...

For every FILE (a pcap in both directories) the two must hold the same
multiset of records (time stamp, length and bytes), and within each flow
the same order. A flow is what a multicore run keeps on one core: IPv4
frames (Ethernet, VLAN-tagged, or raw IP link types) by their address
pair, other frames by their Ethernet addresses and type. Prints one 'ok'
line per file, or the first difference and exits 1."""
import collections
import struct
import sys


def read_pcap(path):
    data = open(path, "rb").read()
    if len(data) < 24:
        raise SystemExit("%s: not a pcap file" % path)
    magic_le = struct.unpack("<I", data[:4])[0]
    if magic_le in (0xA1B2C3D4, 0xA1B23C4D):
        end = "<"
    elif struct.unpack(">I", data[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D):
        end = ">"
    else:
        raise SystemExit("%s: not a pcap file" % path)
    linktype = struct.unpack(end + "I", data[20:24])[0]
    off, out = 24, []
    while off + 16 <= len(data):
        sec, frac, caplen, wire = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        out.append((sec, frac, wire, data[off:off + caplen]))
        off += caplen
    return linktype, out


def flow(linktype, b):
    ip = None
    if linktype == 1 and len(b) >= 14:
        off = 12
        typ = b[off] << 8 | b[off + 1]
        while typ in (0x8100, 0x88A8) and len(b) >= off + 6:
            off += 4
            typ = b[off] << 8 | b[off + 1]
        if typ == 0x0800:
            ip = off + 2
    elif linktype in (12, 101, 228):
        ip = 0
    if ip is not None and len(b) >= ip + 20 and b[ip] >> 4 == 4:
        return ("ip", bytes(b[ip + 12:ip + 20]))
    return ("l2", bytes(b[:14]))


def compare(ref_path, run_path):
    lt, ref = read_pcap(ref_path)
    _, run = read_pcap(run_path)
    if collections.Counter(ref) != collections.Counter(run):
        extra = collections.Counter(run) - collections.Counter(ref)
        missing = collections.Counter(ref) - collections.Counter(run)
        return ("%d records, reference %d; %d missing, %d extra" %
                (len(run), len(ref), sum(missing.values()),
                 sum(extra.values())))
    by_ref, by_run = collections.defaultdict(list), collections.defaultdict(list)
    for r in ref:
        by_ref[flow(lt, r[3])].append(r)
    for r in run:
        by_run[flow(lt, r[3])].append(r)
    for key, recs in by_ref.items():
        if by_run[key] != recs:
            for k, (a, b) in enumerate(zip(recs, by_run[key])):
                if a != b:
                    return "flow %r: record %d of the flow differs" % (key, k)
    return None


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    ref_dir, run_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = False
    for f in files:
        err = compare("%s/%s" % (ref_dir, f), "%s/%s" % (run_dir, f))
        if err:
            print("%s: %s" % (f, err))
            bad = True
        else:
            print("ok %s" % f)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
