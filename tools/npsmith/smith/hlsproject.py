"""What the differential runners read from an HLS project.

npcc --target=hls rejects some programs with a documented error (an
element the hls target cannot build, a channel the host/FPGA split cannot
cut); those are skipped, not failures. The
testbench (tb.cpp) lists the design's devices: those without a file name
take --in/--out on the simulation's command line, the others are files
the program names. test/targets/hls/Inputs/hls_diff.py and smith.run
both use these.
"""
import os
import re

# The hls target's own refusals, those of its synthesizability lint
# (docs/hls-lint.md) and those of the host/FPGA split (docs/hls-target.md,
# Host and FPGA: only packet channels, at most 30 slots).
SKIP = re.compile(
    r"error: ((?:element '[^']*'(?:: (?:the hls target|a source without)"
    r"| (?:\(instance '[^']*'\) )?cannot run on the FPGA:)"
    r"|the channel from .*only packet channels can cross between host"
    r"|placement cuts .* data slots)[^\n]*)")
DEVICE = re.compile(r"\{(\d+)u, (nullptr|\"[^\"]*\"), \"[^\"]*\", \d+u, "
                    r"\d+u\}")


def rejection(stderr):
    """The documented reason the hls target refused a program, or None."""
    m = SKIP.search(stderr)
    return m.group(1) if m else None


def devices(tb, table):
    """[(device, path or 'nullptr')] of the testbench's `table` (inputs
    or outputs)."""
    m = re.search(r"static const nphls_tb_device %s\[\] = \{(.*?)\};" % table,
                  tb, re.S)
    if not m:
        return []
    return [(int(d), p) for d, p in DEVICE.findall(m.group(1))]


def has_host(tb):
    """Whether the design is the FPGA side of a graph split between host
    and FPGA (docs/hls-target.md): its testbench has PCIe slot devices,
    which the host executable (DIR/host --fpga=DIR/csim.out) drives."""
    return '"pcie-slot:' in tb


def host_instances(proj):
    """The instance names of the host side of a split graph (DIR/host.c),
    the only ones the host executable takes --signal for: the simulation
    has no command hub yet (docs/hls-target.md)."""
    try:
        with open(os.path.join(proj, "host.c")) as f:
            text = f.read()
    except OSError:
        return set()
    return set(re.findall(r'\{\.name = "([^"]*)", \.element = ', text))
