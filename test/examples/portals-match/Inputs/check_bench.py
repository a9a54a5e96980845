"""Extracts the figures the paper quotes from `musim --bench=paper --json`."""
import json
import sys

d = json.load(open(sys.argv[1]))
runs = {(r["list_length"], r["match_percent"]): r for r in d["runs"]}
print("10 items at 100%%: hw_bound_ratio %.4f" % runs[(10, 100)]["hw_bound_ratio"])
# Each 10% step of a 300-item list adds 30 failing items to every header.
a, b = runs[(300, 50)], runs[(300, 60)]
steps = (round(0.6 * 299) - round(0.5 * 299)) * 64
print("failing item cycles %.2f" % ((b["total_cycles"] - a["total_cycles"]) / steps))
print("300 items at 100%%: hw_bound_ratio %.4f" % runs[(300, 100)]["hw_bound_ratio"])
