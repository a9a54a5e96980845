"""Delta debugging over the tree: passes of transformations to a fixpoint.

The engine holds the current (interesting) tree and asks the test about
candidates in a fixed order, so a reduction is deterministic whenever the
test is. Lists are cut with ddmin first (whole chunks of declarations,
items, statements), then nodes are changed one at a time (instances
removed and their neighbours reconnected, blocks unwrapped, expressions
simplified), and the passes repeat until a round changes nothing.
"""

import sys
import time

from . import transforms
from .lexer import tokenize
from .printer import program
from .tree import at, declared_in, names_in, walk, without


def size(text):
    """(tokens, lines) of a program text."""
    return len(tokenize(text)) - 1, text.count("\n")


class Engine:
    """Reduces `tree` with `test(text) -> bool` (already true of the
    tree's text); progress goes to `log` unless it is None, and each
    smaller interesting text to `keep` unless it is None (so that a
    reduction stopped half way still leaves its best program)."""

    def __init__(self, tree, test, log=sys.stderr, keep=None):
        self.tree = tree
        self.text = program(tree)
        self.test = test
        self.log = log
        self.keep = keep
        self.start = time.monotonic()
        self.declared = declared_in(tree)

    def note(self, what):
        if self.log is None:
            return
        tokens, lines = size(self.text)
        self.log.write(f"npsmith-reduce: {what}: {tokens} tokens, {lines} "
                       f"lines, {self.test.runs} tests, "
                       f"{time.monotonic() - self.start:.1f} s\n")
        self.log.flush()

    def dangling(self, cand):
        """Whether `cand` uses a name the program declared that it no
        longer declares: it cannot compile, so no need to ask npcc."""
        lost = self.declared - declared_in(cand)
        return bool(lost & names_in(cand))

    def attempt(self, cand):
        """Keeps `cand` if it is smaller and interesting."""
        return self.attempt_first([cand])

    def attempt_first(self, cands):
        """Keeps the first of `cands` that is smaller and interesting;
        whether there was one."""
        kept, texts = [], []
        for cand in cands:
            text = program(cand)
            if (text == self.text or len(text) > len(self.text)
                    or text in texts or self.dangling(cand)):
                continue
            kept.append(cand)
            texts.append(text)
        k = self.test.first(texts)
        if k is None:
            return False
        self.tree, self.text = kept[k], texts[k]
        if self.keep is not None:
            self.keep(self.text)
        return True

    def ddmin(self, path, field):
        """ddmin over list `field` of the node at `path`: remove chunks,
        halving them until single items."""
        n = 1
        while True:
            count = len(getattr(at(self.tree, path), field))
            if count == 0:
                return
            n = min(n, count)
            chunk = -(-count // n)
            cands = [without(self.tree, path, field,
                             range(first, min(first + chunk, count)))
                     for first in range(0, count, chunk)]
            if self.attempt_first(cands):
                n = max(n - 1, 1)
            else:
                if n >= count:
                    return
                n = min(count, n * 2)

    def lists(self, top_only=False):
        """ddmin over every list, outer ones first (a handler goes before
        its statements are tried one by one). A removal changes the paths
        of later sites only, so they are listed again after each."""
        k = 0
        while True:
            sites = transforms.list_sites(self.tree)
            if k >= len(sites):
                return
            path, field = sites[k]
            if not (top_only and path):
                self.ddmin(path, field)
            k += 1

    def scan(self, candidates):
        """Each node in pre-order: the first interesting candidate of
        `candidates(tree, path, node)` replaces the tree."""
        k = 0
        while True:
            nodes = list(walk(self.tree))
            if k >= len(nodes):
                return
            path, node = nodes[k]
            self.attempt_first(list(candidates(self.tree, path, node)))
            k += 1

    def instances(self):
        """Graph instances, in order, until none can go."""
        while self.attempt_first(
                [c for _, c in transforms.instance_candidates(self.tree)]):
            pass

    def run(self):
        """Reduces to a fixpoint; returns the final text."""
        self.note("start")
        passes = [
            ("declarations", lambda: self.lists(top_only=True)),
            ("instances", self.instances),
            ("lists", self.lists),
            ("blocks", lambda: self.scan(transforms.block_candidates)),
            ("expressions", lambda: self.scan(transforms.expr_candidates)),
        ]
        while True:
            before = self.text
            for name, run in passes:
                run()
                self.note(name)
            if self.text == before:
                return self.text
