#!/usr/bin/env python3
# ===- check_profile.py - checks a --stats-json profile --------------------===#
#
# SPDX-License-Identifier: Apache-2.0
#
# Usage: check_profile.py STATS.json CORES NAME=PACKETS:BYTES:DROPS...
# Checks what a run must give whatever the machine: the key order of the
# profile sections, the deterministic counts of the named instances, a
# sampled window at least, positive cycles for every instance sampled (on
# one core, every named instance sampled), one entry per core with busy + wait = cycles,
# and channel occupancy means within [0, max_occupancy].
# ===----------------------------------------------------------------------===#
import json
import sys


def fail(msg):
    sys.exit("check_profile: " + msg)


path, cores = sys.argv[1], int(sys.argv[2])
with open(path) as f:
    data = json.load(f)
keys = list(data)
want = ["program", "status", "elements", "channels", "devices", "pool",
        "profile", "cores"]
if keys != want:
    fail(f"top-level keys {keys}, want {want}")
prof = data["profile"]
if list(prof) != ["clock", "sample_every", "windows", "dropped", "cycles"]:
    fail(f"profile keys {list(prof)}")
if prof["windows"] <= prof["dropped"] or prof["cycles"] <= 0:
    fail(f"nothing sampled: {prof}")
elements = {e["name"]: e for e in data["elements"]}
for e in data["elements"]:
    tail = list(e)[-4:]
    if tail != ["packets", "bytes", "cycles", "sampled"]:
        fail(f"element keys end in {tail}")
    if e["sampled"] > 0 and e["cycles"] <= 0:
        fail(f"'{e['name']}' sampled {e['sampled']} times but no cycles")
    if e["sampled"] > e["iterations"]:
        fail(f"'{e['name']}' sampled more than it ran")
if sum(e["cycles"] for e in data["elements"]) != prof["cycles"]:
    fail("profile cycles are not the sum of the elements'")
for spec in sys.argv[3:]:
    name, counts = spec.split("=")
    packets, nbytes, drops = (int(x) for x in counts.split(":"))
    e = elements.get(name)
    if e is None:
        fail(f"no element '{name}'")
    got = (e["packets"], e["bytes"], e["drops"])
    if got != (packets, nbytes, drops):
        fail(f"'{name}': packets, bytes, drops {got}, want "
             f"{(packets, nbytes, drops)}")
    if cores == 1 and e["sampled"] <= 0:
        fail(f"'{name}' was never sampled")
if len(data["cores"]) != cores:
    fail(f"{len(data['cores'])} cores, want {cores}")
for i, c in enumerate(data["cores"]):
    if list(c) != ["core", "cycles", "busy", "wait"] or c["core"] != i:
        fail(f"core entry {c}")
    if c["cycles"] <= 0 or c["busy"] + c["wait"] != c["cycles"]:
        fail(f"core {i}: {c}")
for ch in data["channels"]:
    if list(ch)[-2:] != ["occupancy_samples", "mean_occupancy"]:
        fail(f"channel keys {list(ch)}")
    if not 0 <= ch["mean_occupancy"] <= max(ch["max_occupancy"], 0):
        fail(f"channel {ch['src']}: mean {ch['mean_occupancy']} outside "
             f"[0, {ch['max_occupancy']}]")
print("profile ok")
