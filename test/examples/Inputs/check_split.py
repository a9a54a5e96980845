"""Checks the ethertype-split outputs against npgen's report."""
import json
import sys

report = json.load(open(sys.argv[1]))
outs = [json.load(open(p)) for p in sys.argv[2:5]]
ok = True
expect = [("ipv4", report["ipv4"]), ("arp", report["arp"]),
          ("other", report["ipv6"] + report["other"])]
for i, (cls, n) in enumerate(expect):
    o = outs[i]
    others = sum(o[k] for k in ("ipv4", "arp", "ipv6", "other")) - (
        o["ipv6"] + o["other"] if cls == "other" else o[cls])
    if o["frames"] != n or others != 0:
        print(f"output {i}: expected {n} {cls} frames, got {o}")
        ok = False
    else:
        print(f"output {i}: {cls} only, {n} frames")
print("split matches the generator report" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
