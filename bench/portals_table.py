"""Prints the match-unit benchmark table: musim --bench=paper results for
each program, side by side with the Figure 1 C function run natively (the
embedded-processor peer of the paper)."""
import json
import sys

programs = [json.load(open(p)) for p in sys.argv[1:-1]]
native = {(r["list_length"], r["match_percent"]): r["ns_per_item"]
          for r in json.load(open(sys.argv[-1]))["runs"]}
names = [p["program"].split("/")[-1] for p in programs]
head = f"{'list':>5} {'match%':>6}"
for n in names:
    head += f" | {n + ' cycles':>16} {'cyc/item':>8} {'hw ratio':>8}"
head += f" | {'native ns/item':>14}"
print(head)
rows = [(r["list_length"], r["match_percent"]) for r in programs[0]["runs"]]
for key in rows:
    line = f"{key[0]:>5} {key[1]:>6}"
    for p in programs:
        r = next(x for x in p["runs"]
                 if (x["list_length"], x["match_percent"]) == key)
        line += (f" | {r['total_cycles']:>16} {r['cycles_per_item']:>8.2f}"
                 f" {r['hw_bound_ratio']:>8.3f}")
    line += f" | {native[key]:>14.2f}"
    print(line)
if len(programs) == 2:
    worst = max(b["cycles_per_item"] - a["cycles_per_item"]
                for a, b in zip(programs[0]["runs"], programs[1]["runs"]))
    print(f"{names[1]} - {names[0]}: at most {worst:.2f} cycles per item")
for n, p in zip(names, programs):
    print(f"{n}: simulator speed {p['sim_cycles_per_second'] / 1e6:.1f} "
          "million simulated cycles per second")
