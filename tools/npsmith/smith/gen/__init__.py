"""npsmith's program generator: `generate(seed)` writes one well-typed
NPL program with its manifest (how to run it: devices, traffic hints,
handlers, signals) and the text files it loads. The same seed always
gives the same case."""
import json
import os

from .program import Gen


class Case:
    def __init__(self, program, manifest, files, coverage):
        self.program = program
        self.manifest = manifest
        self.files = files
        # Constructs written (a Counter), for the generator's own tests.
        self.coverage = coverage

    def write(self, directory):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "prog.np"), "w") as f:
            f.write(self.program)
        with open(os.path.join(directory, "manifest.json"), "w") as f:
            json.dump(self.manifest, f, indent=1, sort_keys=True)
            f.write("\n")
        for name, text in self.files.items():
            with open(os.path.join(directory, name), "w") as f:
                f.write(text)


def generate(seed, explore=False):
    g = Gen(seed, explore)
    program, manifest = g.generate()
    return Case(program, manifest, dict(g.files), g.cov)
