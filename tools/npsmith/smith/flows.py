"""What a multicore run must keep of one core's outputs.

On several cores (docs/multicore.md) every output port receives the same
packets as on one core, in the same order within each flow, where a flow
is what the runtime keeps on one core: IPv4 frames (Ethernet, VLAN-tagged,
or raw IP link types) by their address pair, other frames by their
Ethernet addresses and type. test/lib/Inputs/flowcmp.py and smith.run
both compare by this rule.
"""
import collections

from . import pcap


def flow(linktype, b):
    """The flow key of frame bytes `b` on `linktype`."""
    ip = None
    if linktype == pcap.LINKTYPE_ETHERNET and len(b) >= 14:
        off = 12
        typ = b[off] << 8 | b[off + 1]
        while typ in (0x8100, 0x88A8) and len(b) >= off + 6:
            off += 4
            typ = b[off] << 8 | b[off + 1]
        if typ == 0x0800:
            ip = off + 2
    elif linktype in pcap.RAW_IP_LINKTYPES:
        ip = 0
    if ip is not None and len(b) >= ip + 20 and b[ip] >> 4 == 4:
        return ("ip", bytes(b[ip + 12:ip + 20]))
    return ("l2", bytes(b[:14]))


def stamp_ns(record, nanosecond):
    """A record's time stamp in nanoseconds."""
    return record[0] * 10**9 + record[1] * (1 if nanosecond else 1000)


def input_flows(inputs):
    """A function giving an output record the flow of the input packet it
    came from, by time stamp (the runtime keeps a packet's stamp): a
    program that rewrites the headers it is steered by (an encapsulation)
    still keeps the order of the input's flows, not of its own bytes.
    `inputs` are smith.pcap.Pcap objects. A record with a stamp two inputs
    share, or none has (a packet the program made, or stamped itself), has
    no flow (None): the order of such records is not checked, only that
    they are there. A flow is one input's:
    the same addresses on two input devices are two flows, whose packets
    the cores interleave as their devices' readers run."""
    keys = {}
    for device, p in enumerate(inputs):
        for r in p.records:
            t = stamp_ns(r, p.nanosecond)
            k = (device, flow(p.linktype, r[3]))
            keys[t] = k if keys.get(t, k) == k else None

    def key_of(linktype, nanosecond, record):
        return keys.get(stamp_ns(record, nanosecond))
    return key_of


def compare_records(linktype, ref, run, key_of=None, nanosecond=False):
    """None if `run` holds the records of `ref` as a multicore run may
    (same multiset, same order per flow), else the first difference.
    `key_of(linktype, nanosecond, record)` gives a record's flow (default:
    by its own bytes), None for a record whose order is free."""
    cref, crun = collections.Counter(ref), collections.Counter(run)
    if cref != crun:
        extra, missing = crun - cref, cref - crun
        return ("%d records, reference %d; %d missing, %d extra" %
                (len(run), len(ref), sum(missing.values()),
                 sum(extra.values())))
    by_ref = collections.defaultdict(list)
    by_run = collections.defaultdict(list)
    if key_of is None:
        def key_of(lt, _, r):
            return flow(lt, r[3])
    for r in ref:
        by_ref[key_of(linktype, nanosecond, r)].append(r)
    for r in run:
        by_run[key_of(linktype, nanosecond, r)].append(r)
    for key, recs in by_ref.items():
        if key is not None and by_run[key] != recs:
            for k, (a, b) in enumerate(zip(recs, by_run[key])):
                if a != b:
                    return "flow %r: record %d of the flow differs" % (key, k)
    return None


def compare_files(ref_path, run_path):
    """compare_records on two pcap files; a file that is not a pcap, or
    whose header differs, is a difference too."""
    try:
        ref, run = pcap.read(ref_path), pcap.read(run_path)
    except (OSError, ValueError) as e:
        return str(e)
    if (ref.linktype, ref.nanosecond, ref.snaplen) != (
            run.linktype, run.nanosecond, run.snaplen):
        return "pcap headers differ"
    return compare_records(ref.linktype, ref.records, run.records)
