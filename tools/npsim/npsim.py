#!/usr/bin/env python3
"""npsim: programs on the simulated network processor (docs/npsim.md).

  npsim configs                      the shipped machine descriptions
  npsim check CONFIG [--set K=V]...  read one, or say what is wrong with it
  npsim run PROGRAM [--config C] [--cores N] [--contexts K] [--set K=V]...
            [-- PROGRAM-OPTIONS]
  npsim sweep PROGRAM --in PCAP [axes] [-j N | --ray ADDRESS] [-o CSV]
                      [--json FILE] [--plot PREFIX]

PROGRAM is an NPL (.np) or Click (.click) file, which npcc builds for the
simulator (npcc --sim), or an executable npcc built so. A sweep runs the
grid of its axes (--config, --cores, --contexts, --mapping, --axis
TABLE.KEY=V1,V2) in parallel on this machine, or on a Ray cluster with
--ray ADDRESS ("local" starts one here): the executable and the inputs
travel to the workers, so they need no shared file system. Every point
gives one row: its axes, then what the simulator measured.
"""
import argparse
import concurrent.futures
import csv
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile

PROG = "npsim"


def fail(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(1)


def tool(name):
    """A tool of this toolchain: beside this script, else on PATH."""
    here = os.environ.get("NPSIM_BIN_DIR", "")
    path = os.path.join(here, name) if here else ""
    if path and os.access(path, os.X_OK):
        return path
    found = shutil.which(name)
    if not found:
        fail(f"cannot find '{name}' (beside npsim or on PATH)")
    return found


# --- Building -----------------------------------------------------------------

def build(program, work, defines):
    """The simulator-flavoured executable of `program` (a source is built
    into `work`)."""
    if not os.path.exists(program):
        fail(f"{program}: no such file")
    ext = os.path.splitext(program)[1]
    if ext not in (".np", ".click"):
        if not os.access(program, os.X_OK):
            fail(f"{program}: not an .np or .click file, nor an executable")
        return os.path.abspath(program)
    exe = os.path.join(work, os.path.basename(program) + ".sim")
    cmd = [tool("npcc"), program, "--target=c", "--sim", "-o", exe]
    for d in defines:
        cmd += ["-D", d]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        fail(f"{program}: npcc failed")
    return exe


def check_config(config, sets):
    """Reads `config` with `sets` through npsim-config: the error, or None."""
    cmd = [tool("npsim-config"), config, "--json"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return r.stderr.strip() or f"npsim-config exited {r.returncode}"
    return None


# --- One run --------------------------------------------------------------------

def point_args(point):
    args = [f"--sim={point['config']}", "--quiet"]
    if point.get("cores"):
        args += ["--cores", str(point["cores"])]
    if point.get("contexts"):
        args += ["--contexts", str(point["contexts"])]
    if point.get("mapping"):
        args += ["--mapping", point["mapping"]]
    for key, value in point.get("sets", []):
        args += ["--set", f"{key}={value}"]
    return args


def metrics(report):
    """One flat row of what a run's --sim-json measured."""
    row = {
        "cycles": report["cycles"],
        "window": report["window"],
        "packets_in": report["packets_in"],
        "packets_out": report["packets_out"],
        "bits_per_cycle": report["bits_per_cycle"],
        "mpps": report["mpps"],
        "latency_median": report["latency"]["median"],
        "latency_p99": report["latency"]["p99"],
        "latency_max": report["latency"]["max"],
    }
    cycles = max(report["cycles"], 1)
    cores = report["core_stats"]
    busy = sum(c["busy"] + c["stalled"] for c in cores)
    row["utilisation"] = round(busy / (cycles * max(len(cores), 1)), 6)
    for m in report["memories"]:
        banks = m["banks"]
        row[f"conflict_{m['name']}"] = sum(b["conflict"] for b in banks)
        row[f"accesses_{m['name']}"] = sum(b["accesses"] for b in banks)
    row["interconnect_conflict"] = report["interconnect"]["conflict"]
    for lock in report["locks"]:
        row[f"lock_wait_{lock['name']}"] = lock["wait"]
    for k in report["coprocessors"]:
        row[f"queued_{k['name']}"] = k["queued"]
    return row


def run_point(exe, point, prog_args, cwd):
    """Runs one point in `cwd`; (row, None) or (None, error)."""
    out = os.path.join(cwd, "sim.json")
    cmd = [exe] + point_args(point) + ["--sim-json", out] + prog_args
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip() or f"exit status {r.returncode}")
    with open(out) as f:
        return metrics(json.load(f)), None


def ship_and_run(exe_bytes, files, point, prog_args):
    """On a Ray worker: the executable and the inputs written to a fresh
    directory, then the point run there."""
    with tempfile.TemporaryDirectory(prefix="npsim-") as d:
        exe = os.path.join(d, "prog.sim")
        with open(exe, "wb") as f:
            f.write(exe_bytes)
        os.chmod(exe, 0o755)
        for name, data in files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        return run_point(exe, point, prog_args, d)


# --- Sweeps ---------------------------------------------------------------------

def toml_value(v):
    """A value as TOML writes it: numbers and booleans as they are, a bare
    word quoted (--axis lock.kind=mutex,spinlock)."""
    v = v.strip()
    if v in ("true", "false") or v.startswith(('"', "[")):
        return v
    try:
        float(v.replace("_", ""))
        return v
    except ValueError:
        return '"' + v.replace('\\', '\\\\').replace('"', '\\"') + '"'


def parse_list(text, flag, conv=str):
    try:
        return [conv(v) for v in text.split(",") if v != ""]
    except ValueError:
        fail(f"{flag}: expected a comma-separated list, got '{text}'")


def grid(args):
    """Every point of the sweep, in a fixed order."""
    configs = parse_list(args.config, "--config")
    cores = parse_list(args.cores, "--cores", int) if args.cores else [0]
    contexts = parse_list(args.contexts, "--contexts", int) if args.contexts else [0]
    mappings = parse_list(args.mapping, "--mapping") if args.mapping else [""]
    axes = []
    for a in args.axis:
        key, eq, values = a.partition("=")
        if not eq or not key or "." not in key:
            fail(f"--axis expects TABLE.KEY=V1,V2,..., got '{a}'")
        axes.append((key, [toml_value(v) for v in parse_list(values, "--axis")]))
    for s in args.set:
        if "=" not in s:
            fail(f"--set expects TABLE.KEY=VALUE, got '{s}'")
    fixed = [(k, toml_value(v)) for k, v in (s.split("=", 1) for s in args.set)]
    points = []
    for cfg, n, k, mp, *vals in itertools.product(
            configs, cores, contexts, mappings, *[v for _, v in axes]):
        p = {"config": cfg, "cores": n, "contexts": k, "mapping": mp,
             "sets": fixed + [(key, v) for (key, _), v in zip(axes, vals)]}
        points.append(p)
    return points, [key for key, _ in axes]


def sweep(args):
    work = tempfile.mkdtemp(prefix="npsim-sweep-")
    try:
        exe = build(args.program, work, args.define)
        points, axis_keys = grid(args)
        # Every configuration the sweep will run, checked before any run.
        seen = set()
        for p in points:
            key = (p["config"], tuple(p["sets"]))
            if key in seen:
                continue
            seen.add(key)
            err = check_config(p["config"], [f"{k}={v}" for k, v in p["sets"]])
            if err:
                print(err, file=sys.stderr)
                fail(f"configuration {p['config']} of the sweep is not valid")
        inputs = [os.path.abspath(i) for i in args.inputs]
        for i in inputs:
            if not os.path.isfile(i):
                fail(f"--in {i}: no such file")
        results = run_points(args, exe, points, inputs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = []
    for p, (row, err) in zip(points, results):
        if err is not None:
            fail(f"point {describe(p)}: {err}")
        head = {"config": p["config"], "cores": p["cores"] or "",
                "contexts": p["contexts"] or "", "mapping": p["mapping"]}
        fixed = dict(p["sets"])
        for key in axis_keys:
            v = fixed[key]
            head[key] = v[1:-1] if v.startswith('"') and v.endswith('"') else v
        head.update(row)
        rows.append(head)
    write_results(args, rows)
    if args.plot:
        plot(args, rows, axis_keys)
    return 0


def describe(p):
    s = f"{p['config']}"
    if p["cores"]:
        s += f" --cores {p['cores']}"
    if p["contexts"]:
        s += f" --contexts {p['contexts']}"
    if p["mapping"]:
        s += f" --mapping {p['mapping']}"
    for k, v in p["sets"]:
        s += f" --set {k}={v}"
    return s


def run_points(args, exe, points, inputs):
    prog_args = [a for i in inputs for a in ("--in", os.path.basename(i))]
    total = len(points)
    done = 0

    def progress():
        if not args.quiet:
            print(f"{PROG}: sweep: {done}/{total} points", file=sys.stderr)

    if args.ray:
        try:
            import ray
        except ImportError:
            fail("--ray needs Ray (pip install ray)")
        ray.init(address=None if args.ray == "local" else args.ray,
                 include_dashboard=False, logging_level="ERROR",
                 log_to_driver=False)
        try:
            with open(exe, "rb") as f:
                exe_ref = ray.put(f.read())
            files = {}
            for i in inputs:
                with open(i, "rb") as f:
                    files[os.path.basename(i)] = f.read()
            files_ref = ray.put(files)
            remote = ray.remote(ship_and_run)
            refs = [remote.remote(exe_ref, files_ref, p, prog_args) for p in points]
            results = [None] * total
            pending = {r: n for n, r in enumerate(refs)}
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for r in ready:
                    results[pending.pop(r)] = ray.get(r)
                    done += 1
                    progress()
            return results
        finally:
            ray.shutdown()
    jobs = args.jobs or os.cpu_count() or 1
    results = [None] * total
    with tempfile.TemporaryDirectory(prefix="npsim-runs-") as base, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {}
        for n, p in enumerate(points):
            d = os.path.join(base, str(n))
            os.makedirs(d)
            for i in inputs:
                os.symlink(i, os.path.join(d, os.path.basename(i)))
            futures[pool.submit(run_point, exe, p, prog_args, d)] = n
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()
            done += 1
            progress()
    return results


def write_results(args, rows):
    keys = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    if args.output:
        with open(args.output, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, restval="")
            w.writeheader()
            w.writerows(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    if not args.output and not args.json:
        w = csv.DictWriter(sys.stdout, fieldnames=keys, restval="")
        w.writeheader()
        w.writerows(rows)


def plot(args, rows, axis_keys):
    """y against x, one line per combination of the other axes: PNG and SVG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("--plot needs matplotlib (pip install matplotlib)")
    x, y = args.x, args.y
    if rows and (x not in rows[0] or y not in rows[0]):
        fail(f"--x {x} / --y {y}: not among the columns {', '.join(rows[0])}")
    others = [k for k in ["config", "cores", "contexts", "mapping"] + axis_keys
              if k != x and len({str(r[k]) for r in rows}) > 1]
    series = {}
    for r in rows:
        label = ", ".join(f"{k}={r[k]}" for k in others) or y
        series.setdefault(label, []).append((float(r[x] or 0), float(r[y])))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(args.title or f"{os.path.basename(args.program)}: {y}")
    ax.grid(True, alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize="small")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(f"{args.plot}.{ext}")
    plt.close(fig)


# --- The other commands -------------------------------------------------------

def cmd_configs(_args):
    r = subprocess.run([tool("npsim-config"), "--list"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail(r.stderr.strip())
    for name in r.stdout.split():
        d = subprocess.run([tool("npsim-config"), name], capture_output=True,
                           text=True)
        print(d.stdout.splitlines()[0] if d.returncode == 0 else name)
    return 0


def cmd_check(args):
    cmd = [tool("npsim-config"), args.config]
    for s in args.set:
        cmd += ["--set", s]
    return subprocess.run(cmd).returncode


def cmd_run(args):
    work = tempfile.mkdtemp(prefix="npsim-run-")
    try:
        exe = build(args.program, work, args.define)
        point = {"config": args.config, "cores": args.cores,
                 "contexts": args.contexts, "mapping": args.mapping,
                 "sets": [(k, toml_value(v)) for k, v in
                          (s.split("=", 1) for s in args.set if "=" in s)]}
        cmd = [exe] + [a for a in point_args(point) if a != "--quiet"]
        return subprocess.run(cmd + args.rest).returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(
        prog=PROG, description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("configs", help="list the shipped machine descriptions")
    c = sub.add_parser("check", help="read a configuration, or say what is wrong")
    c.add_argument("config")
    c.add_argument("--set", action="append", default=[], metavar="TABLE.KEY=VALUE")

    def program_opts(p):
        p.add_argument("program", help=".np or .click file, or an executable "
                       "built with npcc --sim")
        p.add_argument("-D", "--define", action="append", default=[],
                       metavar="NAME=VALUE", help="npcc -D, when building")

    r = sub.add_parser("run", help="build (if needed) and run on the simulator")
    program_opts(r)
    r.add_argument("--config", default="nfp-like")
    r.add_argument("--cores", type=int, default=0)
    r.add_argument("--contexts", type=int, default=0)
    r.add_argument("--mapping", default="")
    r.add_argument("--set", action="append", default=[], metavar="TABLE.KEY=VALUE")
    s = sub.add_parser("sweep", help="run a grid of configurations")
    program_opts(s)
    s.add_argument("--in", dest="inputs", action="append", default=[],
                   metavar="PCAP", help="input file (repeatable)")
    s.add_argument("--config", default="nfp-like", help="configurations, comma-separated")
    s.add_argument("--cores", default="", help="core counts, comma-separated")
    s.add_argument("--contexts", default="", help="context counts, comma-separated")
    s.add_argument("--mapping", default="", help="mappings, comma-separated")
    s.add_argument("--axis", action="append", default=[],
                   metavar="TABLE.KEY=V1,V2", help="a configuration key swept")
    s.add_argument("--set", action="append", default=[], metavar="TABLE.KEY=VALUE",
                   help="a configuration key set for every point")
    s.add_argument("-j", "--jobs", type=int, default=0,
                   help="points run at once here (default: the CPUs)")
    s.add_argument("--ray", metavar="ADDRESS",
                   help="run the points on a Ray cluster ('local': start one)")
    s.add_argument("-o", "--output", metavar="CSV", help="the rows as CSV")
    s.add_argument("--json", metavar="FILE", help="the rows as JSON")
    s.add_argument("--plot", metavar="PREFIX", help="write PREFIX.png and PREFIX.svg")
    s.add_argument("--x", default="cores", help="the plot's x column")
    s.add_argument("--y", default="bits_per_cycle", help="the plot's y column")
    s.add_argument("--title", default="", help="the plot's title")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    # npsim --help: every command's options.
    argv = sys.argv[1:]
    if argv in (["--help"], ["-h"]):
        print(ap.format_help())
        for name, p in (("check", c), ("run", r), ("sweep", s)):
            print(f"--- npsim {name} ---")
            print(p.format_help())
        return 0
    # What follows -- is the program's own (npsim run PROG -- --in X).
    rest = []
    if "--" in argv:
        rest = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = ap.parse_args(argv)
    args.rest = rest
    if rest and args.cmd != "run":
        fail("only npsim run takes the program's options after --")
    if args.cmd == "configs":
        return cmd_configs(args)
    if args.cmd == "check":
        return cmd_check(args)
    if args.cmd == "run":
        return cmd_run(args)
    if not args.inputs:
        fail("sweep needs --in PCAP")
    if args.jobs < 0:
        fail("--jobs must be positive")
    return sweep(args)


if __name__ == "__main__":
    sys.exit(main())
