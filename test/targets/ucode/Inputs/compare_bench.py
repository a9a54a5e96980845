"""Worst per-item difference between two musim --bench=paper JSON runs."""
import json
import sys

hand, comp = (json.load(open(p))["runs"] for p in sys.argv[1:3])
worst = max(c["cycles_per_item"] - h["cycles_per_item"] for h, c in zip(hand, comp))
print("compiled is at most %.2f cycles per item slower" % worst)
