#!/usr/bin/env python3
"""The seeds' network-processor experiments on npsim (README.md).

  (a) the modular-NPU router on 1-64 cores: one shared packet memory, then
      a packet memory segment per core, then spinlocks instead of mutexes
      (Berrayana et al., Figs. 4, 5, 6, 8, 9);
  (b) the cycles of each element of that router on one core (their Fig. 7);
  (c) PCSA updates on one NFP microengine with 1 and 8 contexts (NFComms,
      section 5.3.2, Fig. 6);
  (d) run to completion against a pipeline for the router at equal core
      counts, latency and throughput against frame size, with and without
      hardware threads (the programming-models paper, Figs. 4 and 5).

Each prints the seed's figures beside ours and writes plots (PNG and SVG)
to --out. Every number here comes from a simulation run now: nothing is
tuned to the seeds (README.md says where each parameter comes from).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ROUTER = os.path.join(HERE, "router-npu.click")
PCSA = os.path.join(ROOT, "examples", "pcsa", "pcsa.np")

CORES = [1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64]
VARIANTS = [
    ("shared", "one shared packet memory, mutex", []),
    ("segments", "a packet segment per core, mutex",
     ["--set", "memory.packets.scope=core"]),
    ("spinlocks", "a packet segment per core, spinlock",
     ["--set", "memory.packets.scope=core", "--set", "lock.kind=spinlock"]),
]
# What the modular-NPU paper reports (its text; the figures' curves are
# not in our copy, only what the text says of them).
SEED_A = {
    "shared": "peak at 8 processors, barely above 6 (Fig. 4)",
    "segments": "peak at 27 processors, 0.3 bit/cycle, then collapse (Fig. 5)",
    "spinlocks": "still growing past 27; 0.56 bit/cycle at 45 (Fig. 8)",
}
# Fig. 7: cycles per element, one processor, 56-byte packets.
SEED_B = [("Acquisition", 30534), ("Classifier", 608), ("Paint", 25332),
          ("Strip", 356), ("CheckIPHeader", 8506), ("GetIPAddress", 2934),
          ("LookupIPRoute", 598), ("DropBroadcasts", 394), ("PaintTee", 346),
          ("IPGWOptions", 634), ("FixIPSrc", 314), ("DecIPTTL", 998),
          ("IPFragmenter", 422), ("EtherEncap", 15308),
          ("Extraction", 25218)]
SEED_B_TOTAL = 112502
# router-npu.click's instance names, as the paper's element names.
NAMES = {"c0": "Classifier", "chk": "CheckIPHeader", "rt": "LookupIPRoute",
         "cp": "PaintTee", "gio": "IPGWOptions", "dt": "DecIPTTL",
         "fr": "IPFragmenter", "eth": "FromDevice", "toeth": "ToDevice(eth)",
         "toswitch": "ToDevice(switch)", "tome": "Discard(tome)",
         "damaged": "Discard(damaged)"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise SystemExit("reproduce: %s failed (exit %d):\n%s" % (
            " ".join(cmd), p.returncode, p.stderr[-2000:]))
    return p.stdout


class Lab:
    """The work directory, its executables and traces."""

    def __init__(self, out, jobs):
        self.out = os.path.abspath(out)
        self.work = os.path.join(self.out, "work")
        os.makedirs(self.work, exist_ok=True)
        self.jobs = jobs
        self.runs = 0

    def path(self, name):
        return os.path.join(self.work, name)

    def build(self, src, exe, *flags):
        if not os.path.exists(self.path(exe)):
            run(["npcc", src, "--sim", "-o", exe] + list(flags), self.work)
        return self.path(exe)

    def traffic(self, name, *flags):
        if not os.path.exists(self.path(name)):
            run(["npgen", "-o", name, "--quiet"] + list(flags), self.work)
        return self.path(name)

    def sim(self, exe, args, tag):
        """One simulation; its JSON report."""
        js = self.path(tag + ".json")
        run([exe, "--quiet", "--sim-json", js] + args, self.work)
        with open(js) as f:
            return json.load(f)

    def many(self, jobs):
        """Runs (exe, args, tag) in parallel; the reports in order."""
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futs = [pool.submit(self.sim, *j) for j in jobs]
            res = []
            for k, f in enumerate(futs):
                res.append(f.result())
                self.runs += 1
                if (k + 1) % 10 == 0 or k + 1 == len(futs):
                    log("  %d/%d runs" % (k + 1, len(futs)))
            return res


def conflicts(report, memory):
    for m in report["memories"]:
        if m["name"] == memory:
            return sum(b["conflict"] for b in m["banks"])
    return 0


def lock_wait(report):
    return sum(l["wait"] for l in report["locks"])


def plots():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        log("reproduce: no matplotlib (scripts/bootstrap.sh installs it): "
            "tables only")
        return None


def save(plt, fig, lab, name):
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(lab.out, "%s.%s" % (name, ext)), dpi=110)
    plt.close(fig)
    print("  plot: %s.png, %s.svg" % (os.path.join(lab.out, name),
                                      os.path.join(lab.out, name)))


# --- (a) scaling ----------------------------------------------------------

def experiment_a(lab, plt, packets):
    print("\n(a) The modular-NPU router on 1-64 cores (modular-npu, %d "
          "IPv4 packets of 56 bytes)" % packets)
    exe = lab.build(ROUTER, "router-npu")
    pcap = lab.traffic("a.pcap", "--count", str(packets), "--seed", "5",
                       "--mix", "ipv4=1", "--size", "70", "--dst-net",
                       "10.0.0.0/8", "--flows", "4096")
    jobs = []
    for v, _, sets in VARIANTS:
        for c in CORES:
            jobs.append((exe, ["--sim=modular-npu", "--cores", str(c),
                               "--in", pcap, "--out", "0=a-eth.%s%d.pcap" % (
                                   v, c), "--out", "1=a-sw.%s%d.pcap" % (
                                       v, c)] + sets, "a-%s-%d" % (v, c)))
    reports = lab.many(jobs)
    res = {}
    for (exe_, args, tag), r in zip(jobs, reports):
        v, c = tag.split("-")[1], int(tag.split("-")[2])
        res[(v, c)] = r
    print("  throughput, bits/cycle (the window from the first packet in to "
          "the last out):")
    print("  %5s %10s %10s %10s" % ("cores", "shared", "segments",
                                    "spinlocks"))
    for c in CORES:
        print("  %5d %10.3f %10.3f %10.3f" % (
            c, res[("shared", c)]["bits_per_cycle"],
            res[("segments", c)]["bits_per_cycle"],
            res[("spinlocks", c)]["bits_per_cycle"]))
    print("  peaks, ours beside the paper's:")
    for v, what, _ in VARIANTS:
        best = max(CORES, key=lambda c: res[(v, c)]["bits_per_cycle"])
        print("    %-9s (%s): %.3f bit/cycle at %d cores, %.3f at 64 | "
              "paper: %s" % (v, what, res[(v, best)]["bits_per_cycle"], best,
                             res[(v, 64)]["bits_per_cycle"], SEED_A[v]))
    print("  why (cycles per 2,000,000 cycles, as the paper's Fig. 6 counts "
          "them: conflict cycles per memory, summed over its banks, and the "
          "cycles cores waited for the engines' locks):")
    print("  %5s %-9s %12s %12s %12s %12s" % (
        "cores", "variant", "packets", "globals+os", "code", "lock wait"))
    for c in (8, 16, 28, 32, 48, 64):
        for v, _, _ in VARIANTS:
            r = res[(v, c)]
            per = 2e6 / max(r["window"], 1)
            print("  %5d %-9s %12.0f %12.0f %12.0f %12.0f" % (
                c, v, conflicts(r, "packets") * per,
                conflicts(r, "globals") * per, conflicts(r, "code") * per,
                lock_wait(r) * per))
    print("  paper (Fig. 6): over 1.8 million conflict cycles in 2 million "
          "for 28 or more processors, mostly on the RAM of the operating "
          "system's data (the scheduler behind the mutex)")
    if plt:
        fig, ax = plt.subplots(1, 2, figsize=(11, 4))
        for v, what, _ in VARIANTS:
            ax[0].plot(CORES, [res[(v, c)]["bits_per_cycle"] for c in CORES],
                       marker="o", ms=3, label=what)
            ax[1].plot(CORES, [conflicts(res[(v, c)], "globals") * 2e6 /
                               max(res[(v, c)]["window"], 1) for c in CORES],
                       marker="o", ms=3, label=what)
        ax[0].set_xlabel("cores")
        ax[0].set_ylabel("bits/cycle")
        ax[0].set_title("(a) router throughput (cf. paper Figs. 4, 5, 8, 9)")
        ax[0].legend(fontsize=8)
        ax[1].set_xlabel("cores")
        ax[1].set_ylabel("conflict cycles per 2M cycles")
        ax[1].set_title("globals + OS RAM conflicts (cf. Fig. 6)")
        ax[1].legend(fontsize=8)
        fig.tight_layout()
        save(plt, fig, lab, "a-scaling")
    return res


# --- (b) cycles per element -----------------------------------------------

def class_of(name):
    if name in NAMES:
        return NAMES[name]
    return re.sub(r"@\d+$", "", name)


def experiment_b(lab, res_a):
    print("\n(b) Cycles per element, one core (the paper's Fig. 7)")
    r = res_a[("shared", 1)]
    n = max(r["packets_in"], 1)
    rows = [(class_of(e["name"]), e["cycles"] / n) for e in r["elements"]
            if e["cycles"] / n >= 0.05]
    total = sum(c for _, c in rows)
    seed = dict(SEED_B)
    print("  %-24s %10s %7s   %10s %7s" % ("element", "ours", "share",
                                           "paper", "share"))
    for name, cyc in rows:
        s = seed.get(name)
        print("  %-24s %10.1f %6.2f%%   %10s %7s" % (
            name, cyc, 100 * cyc / max(total, 1e-9),
            s if s is not None else "-",
            "%.2f%%" % (100.0 * s / SEED_B_TOTAL) if s else "-"))
    print("  %-24s %10.1f %6.2f%%   %10d %7s" % ("Total", total, 100.0,
                                                SEED_B_TOTAL, "100%"))
    print("  (ours per packet over all packets, paths that are not taken "
          "weigh nothing, unused rows are left out; the paper's, the longest "
          "path. The paper's Paint, "
          "EtherEncap, Acquisition and Extraction copy the packet; npcc's "
          "elements work on it in place)")


# --- (c) PCSA -------------------------------------------------------------

def experiment_c(lab, plt):
    print("\n(c) PCSA updates on one microengine, 1 and 8 contexts "
          "(nfp-like; the sketch in CLS, as in the paper)")
    exe = lab.build(PCSA, "pcsa", "-D", "LOG2M=8")
    sets = ["--sim=nfp-like", "--cores", "1", "--set", "placement.state=cls"]
    jobs = []
    for n in (8, 1024):
        pcap = lab.traffic("c%d.pcap" % n, "--count", str(n), "--seed", "1",
                           "--size", "64", "--flows", str(n))
        for k in (1, 8):
            jobs.append((exe, sets + ["--contexts", str(k), "--in", pcap],
                         "c-%d-%d" % (n, k)))
    res = {tuple(map(int, t.split("-")[1:])): r
           for (_, _, t), r in zip(jobs, lab.many(jobs))}
    print("  %8s %14s %14s %9s" % ("updates", "1 context", "8 contexts",
                                   "fewer"))
    for n in (8, 1024):
        one, eight = res[(n, 1)]["window"], res[(n, 8)]["window"]
        print("  %8d %14d %14d %8.1f%%" % (n, one, eight,
                                           100.0 * (one - eight) / one))
    print("  %8s %14d %14d %8.1f%%   (the paper: 8 updates)" % (
        "paper", 1129, 616, 100.0 * (1129 - 616) / 1129))
    for n in (8, 1024):
        print("  %d updates: %.0f and %.0f cycles per update (the paper: 141 "
              "and 77)" % (n, res[(n, 1)]["window"] / n,
                           res[(n, 8)]["window"] / n))
    if plt:
        fig, ax = plt.subplots(figsize=(6, 4))
        labels = ["paper, 8", "ours, 8", "ours, 1024"]
        one = [1129 / 8, res[(8, 1)]["window"] / 8,
               res[(1024, 1)]["window"] / 1024]
        eight = [616 / 8, res[(8, 8)]["window"] / 8,
                 res[(1024, 8)]["window"] / 1024]
        xs = range(len(labels))
        ax.bar([x - 0.2 for x in xs], one, 0.4, label="1 context")
        ax.bar([x + 0.2 for x in xs], eight, 0.4, label="8 contexts")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("cycles per update")
        ax.set_title("(c) PCSA on one microengine (cf. NFComms Fig. 6)")
        ax.legend()
        fig.tight_layout()
        save(plt, fig, lab, "c-pcsa")
    return res


# --- (d) rtc against a pipeline ---------------------------------------------

SIZES = [64, 128, 256, 512, 1024, 1436]


def experiment_d(lab, plt, packets, cores):
    print("\n(d) Run to completion against a pipeline: the router on %d "
          "cores (powernp-like, 1 Gb/s in and out)" % cores)
    exe = lab.build(ROUTER, "router-npu")
    for k in (1, 4):
        text = run(["npcc", ROUTER, "--explain-mapping", "--cores",
                    str(cores * k)], lab.work)
        why = [l.strip() for l in text.splitlines()
               if l.strip().startswith(("mapping of", "estimated", "why:"))]
        print("  --explain-mapping --cores %d: %s" % (cores * k,
                                                      " / ".join(why)))
    # The paper times latency with one message in flight and throughput
    # with a stream: latency here at a light load (0.05 Gb/s offered),
    # throughput with every packet waiting at the input; 1 Gb/s out.
    loads = {"lat": ["--set", "ingress.gbps=0.05"], "thr": []}
    jobs = []
    for s in SIZES:
        pcap = lab.traffic("d%d.pcap" % s, "--count", str(packets), "--seed",
                           "5", "--mix", "ipv4=1", "--size", str(s),
                           "--dst-net", "10.0.0.0/8", "--flows", "1024")
        for m in ("rtc", "pipeline"):
            for k in (1, 4):
                for load, sets in loads.items():
                    jobs.append((exe, [
                        "--sim=powernp-like", "--cores", str(cores),
                        "--contexts", str(k), "--mapping", m, "--in", pcap,
                        "--out", "0=d-eth.pcap.%s%d%d" % (m, k, s), "--out",
                        "1=d-sw.pcap.%s%d%d" % (m, k, s), "--set",
                        "egress.gbps=1"] + sets,
                        "d-%s-%d-%d-%s" % (m, k, s, load)))
    res = {}
    for (_, _, t), r in zip(jobs, lab.many(jobs)):
        _, m, k, s, load = t.split("-")
        res[(m, int(k), int(s), load)] = r

    def latency(m, k, s, q="median"):
        r = res[(m, k, s, "lat")]
        return r["latency"][q] / r["clock_mhz"]

    def gbps(m, k, s):
        r = res[(m, k, s, "thr")]
        return r["bits_per_cycle"] * r["clock_mhz"] / 1000.0

    print("  %6s %-16s %14s %14s %12s" % ("frame", "mapping", "median latency",
                                          "p99 latency", "throughput"))
    for s in SIZES:
        for m in ("rtc", "pipeline"):
            for k in (1, 4):
                print("  %6d %-16s %11.2f us %11.2f us %8.3f Gb/s" % (
                    s, "%s, %d ctx" % (m, k), latency(m, k, s),
                    latency(m, k, s, "p99"), gbps(m, k, s)))
    print("  paper (Figs. 4, 5): the PowerNP (concurrent execution, rtc) adds "
          "about 15 us per hop, the IXP1200 (pipelined) about 35 us; both "
          "carry about 90% of the best link's throughput, the IXP 48 MB/s "
          "at a 1500-byte MTU")
    if plt:
        fig, ax = plt.subplots(1, 2, figsize=(11, 4))
        for m in ("rtc", "pipeline"):
            for k in (1, 4):
                ax[0].plot(SIZES, [latency(m, k, s) for s in SIZES],
                           marker="o", ms=3, label="%s, %d ctx" % (m, k))
                ax[1].plot(SIZES, [gbps(m, k, s) for s in SIZES], marker="o",
                           ms=3, label="%s, %d ctx" % (m, k))
        ax[0].set_xlabel("frame bytes")
        ax[0].set_ylabel("median latency (us)")
        ax[0].set_title("(d) latency (cf. programming models Fig. 4)")
        ax[1].set_xlabel("frame bytes")
        ax[1].set_ylabel("throughput (Gb/s)")
        ax[1].set_title("(d) throughput (cf. Fig. 5)")
        for a in ax:
            a.legend(fontsize=8)
        fig.tight_layout()
        save(plt, fig, lab, "d-models")
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="npu-scaling-out",
                   help="where the plots and the runs go (default "
                   "./npu-scaling-out)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="simulations at once (default: the host's cores)")
    p.add_argument("--packets", type=int, default=64000,
                   help="packets of experiment (a) (default 64000: some "
                   "2,000,000 cycles at the peak, as the paper runs)")
    p.add_argument("--only", default="abcd",
                   help="the experiments to run, e.g. 'c' (default abcd)")
    a = p.parse_args()
    for tool in ("npcc", "npgen"):
        if not shutil.which(tool):
            raise SystemExit("reproduce: '%s' is not on PATH (make build; "
                             "PATH=build/bin:$PATH)" % tool)
    lab = Lab(a.out, a.jobs)
    plt = plots()
    res_a = None
    if "a" in a.only or "b" in a.only:
        res_a = experiment_a(lab, plt, a.packets)
    if "b" in a.only:
        experiment_b(lab, res_a)
    if "c" in a.only:
        experiment_c(lab, plt)
    if "d" in a.only:
        experiment_d(lab, plt, 2000, 4)
    print("\n%d simulations; plots and runs in %s" % (lab.runs, lab.out))


if __name__ == "__main__":
    main()
