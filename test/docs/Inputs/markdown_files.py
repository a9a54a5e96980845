"""The Markdown files the documentation tests read."""
import os


def all_markdown(root):
    """Every Markdown file of the source tree: not build trees, hidden
    directories or test Inputs (which hold deliberately broken examples)."""
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith((".", "build"))
                         and x != "Inputs")
        found += sorted(os.path.join(d, f) for f in files if f.endswith(".md"))
    return found
