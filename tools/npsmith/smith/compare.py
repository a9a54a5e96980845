"""How two runs of one program are compared.

A run of the C target on one core must equal the interpreter's in every
byte it writes and every counter it keeps, except what is measured (time,
cycles) or names the run's files. On several cores the runtime promises
less (docs/multicore.md): the same packets per port and the same order
within a flow, the same counters, the same read handler values; which core
did what, how often a loop spun and how full a channel got are its own.
test/targets/interp/Inputs/target_diff.py compares by the same rules.
"""
import collections
import json
import os
import re

from . import flows, pcap

# Scheduling, not the program: how often each activation loop spun, how
# full the channels and the pool got, and what was measured.
MULTICORE_ONLY_FIELDS = {
    "element": ("iterations",),
    "channel": ("max_occupancy", "occupancy_samples", "mean_occupancy"),
    "pool": ("high_water",),
}


# AddressSanitizer's note, once per process, that it saw a stack switch
# it was not told about in time (npsim's contexts switch stacks through
# _longjmp, announced with __sanitizer_start_switch_fiber, which the
# longjmp interceptor does not consult): a build with ASan writes it to
# the stderr of every simulated run.
FIBER_NOTE = re.compile(
    r"==\d+==WARNING: ASan is ignoring requested __asan_handle_no_return:"
    r"[^\n]*\n(False positive error reports may follow\n)?"
    r"(For details see https://github.com/google/sanitizers/issues/189\n)?")


def normalise(text, names):
    """`text` with each (old, new) pair of `names` replaced, and without
    ASan's note on stack switches (FIBER_NOTE)."""
    for old, new in names:
        text = text.replace(old, new)
    return FIBER_NOTE.sub("", text)


def stats_without_files(stats, multicore=False):
    """The counters of a --stats-json object, without the file names of
    the output devices and what a run measures (cycles, time per core; a
    window in which the thread was preempted is dropped, with its
    samples). With `multicore`, also without what depends on scheduling."""
    for dev in stats.get("devices", {}).get("tx", []):
        dev["file"] = None
    for e in stats.get("elements", []):
        e.pop("cycles", None)
        e.pop("sampled", None)
    profile = stats.get("profile", {})
    for k in ("cycles", "dropped", "clock"):
        profile.pop(k, None)
    stats.pop("cores", None)
    if multicore:
        stats.pop("profile", None)
        for e in stats.get("elements", []):
            for k in MULTICORE_ONLY_FIELDS["element"]:
                e.pop(k, None)
        for c in stats.get("channels", []):
            for k in MULTICORE_ONLY_FIELDS["channel"]:
                c.pop(k, None)
        for k in MULTICORE_ONLY_FIELDS["pool"]:
            stats.get("pool", {}).pop(k, None)
    return stats


def load_stats(path, multicore=False):
    """stats_without_files of the JSON file at `path`, or None if the run
    wrote none; a file that is not JSON is returned as its text."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    try:
        return stats_without_files(json.loads(text), multicore)
    except ValueError:
        return text


def stats_difference(ref_path, run_path, multicore=False):
    """None if the two statistics files agree, else what differs."""
    a = load_stats(ref_path, multicore)
    b = load_stats(run_path, multicore)
    if (a is None) != (b is None):
        return "only one run wrote its statistics"
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return "statistics differ in '%s':\n  ref: %s\n  run: %s" % (
                    key, json.dumps(a.get(key))[:600],
                    json.dumps(b.get(key))[:600])
    return "statistics differ"


def read_bytes(path):
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


EXACT, FLOWS, MULTISET = "exact", "flows", "multiset"


def output_difference(ref_path, run_path, order=EXACT, key_of=None):
    """None if the output pcaps agree, else what differs. `order` says
    how: EXACT byte for byte; FLOWS the same multiset of records and the
    same order within each flow (flows given by `key_of`, as in
    smith.flows.compare_records), as a multicore run must; MULTISET the
    same records in any order, where interleaving is documented free."""
    a, b = read_bytes(ref_path), read_bytes(run_path)
    if a is None and b is None:
        return None
    if a is None or b is None:
        return "written by %s run only" % ("the reference" if b is None
                                           else "this")
    if a == b:
        return None
    try:
        ra, rb = pcap.parse(a, ref_path), pcap.parse(b, run_path)
    except ValueError as e:
        return str(e)
    if order == EXACT:
        return first_record_difference(ra, rb)
    if (ra.linktype, ra.nanosecond, ra.snaplen) != (
            rb.linktype, rb.nanosecond, rb.snaplen):
        return "pcap headers differ"
    if order == MULTISET:
        return multiset_difference(ra.records, rb.records)
    return flows.compare_records(ra.linktype, ra.records, rb.records,
                                 key_of, ra.nanosecond)


def multiset_difference(ra, rb):
    """What two lists of records differ by, ignoring their order."""
    missing = collections.Counter(ra) - collections.Counter(rb)
    extra = collections.Counter(rb) - collections.Counter(ra)
    if not missing and not extra:
        return None
    return "%d records, reference %d; %d missing, %d extra" % (
        len(rb), len(ra), sum(missing.values()), sum(extra.values()))


def first_record_difference(ra, rb):
    """Where two parsed pcaps first differ, as text."""
    if (ra.linktype, ra.nanosecond, ra.snaplen) != (
            rb.linktype, rb.nanosecond, rb.snaplen):
        return "pcap headers differ"
    for k, (x, y) in enumerate(zip(ra.records, rb.records)):
        if x != y:
            what = ("time stamp" if x[:2] != y[:2] else "length"
                    if (x[2], len(x[3])) != (y[2], len(y[3])) else "bytes")
            return "record %d differs (%s)" % (k, what)
    if len(ra.records) != len(rb.records):
        return "%d records, reference %d" % (len(rb.records),
                                             len(ra.records))
    return "bytes differ (%s)" % (rb.damage or ra.damage or "pcap framing")
