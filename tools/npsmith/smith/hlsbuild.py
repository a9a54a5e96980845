"""Builds an HLS project's C simulation (csim.out) fast.

The project's Makefile compiles everything for each project: its two
program files (design.cpp, tb.cpp) and the runtime files npcc copies into
every project (src/), all against Xilinx's ap_types headers, about 9 s.
A fuzzing run builds hundreds of projects whose runtime files are the same
bytes, so this builds them once per distinct content into a cache keyed
by a hash of the files, the compiler and the flags, with a precompiled
header of include/nphls/nphls.h and include/nphls/tb.h (the ap_types
headers are most of each compile), then compiles design.cpp and tb.cpp
against it and links: well under a second. The flags are the Makefile's
own, read from it, so the simulation is the one `make csim` builds; a
Makefile this cannot read is built with make.
"""
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

PCH_HEADERS = ("nphls/nphls.h", "nphls/tb.h")


def default_cache():
    base = os.environ.get("NPSMITH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or
        os.path.join(os.path.expanduser("~"), ".cache"), "npsmith")
    return os.path.join(base, "hls")


def makefile_vars(text):
    """The variables of the generated Makefile, with $(X) expanded."""
    vars = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Z_]+)\s*(\?=|\+=|=)\s*(.*)$", line)
        if not m:
            continue
        name, op, value = m.groups()
        if op == "?=" and name in vars:
            continue
        vars[name] = (vars.get(name, "") + " " + value).strip() \
            if op == "+=" else value.strip()

    def expand(v, depth=0):
        if depth > 5:
            return v
        return re.sub(r"\$\((\w+)\)",
                      lambda m: expand(vars.get(m.group(1), ""), depth + 1), v)
    return {k: expand(v) for k, v in vars.items()}


_versions = {}


def tool_version(cmd):
    if cmd not in _versions:
        _versions[cmd] = _tool_version(cmd)
    return _versions[cmd]


def _tool_version(cmd):
    r = subprocess.run([cmd, "--version"], capture_output=True, text=True)
    return r.stdout.splitlines()[0] if r.stdout else cmd


def project_key(proj, cxx, cc, cxxflags, cflags, files):
    h = hashlib.sha256()
    for part in (tool_version(cxx), tool_version(cc), cxxflags, cflags):
        h.update(part.encode() + b"\0")
    for rel in files:
        h.update(rel.encode() + b"\0")
        with open(os.path.join(proj, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:24]


def shared_files(proj):
    """The project's files that every project copies (include/, src/)."""
    out = []
    for top in ("include", "src"):
        for d, _, names in os.walk(os.path.join(proj, top)):
            for n in names:
                out.append(os.path.relpath(os.path.join(d, n), proj))
    return sorted(out)


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def build_cache(proj, entry, cxx, cc, cxxflags, cflags, sources, c_objs):
    """Compiles the shared sources and headers of `proj` into `entry`;
    returns None or the failing compiler output."""
    parent = os.path.dirname(entry)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=parent, prefix=".build-")
    try:
        inc = ["-I" + os.path.join(proj, "include")]
        for hdr in PCH_HEADERS:
            out = os.path.join(tmp, "pch", hdr + ".gch")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            r = run([cxx] + cxxflags + inc + ["-x", "c++-header",
                                              os.path.join(proj, "include",
                                                           hdr), "-o", out],
                    proj)
            if r.returncode:
                return r.stderr
        for src in sources:
            obj = os.path.join(tmp, os.path.basename(src) + ".o")
            r = run([cxx] + cxxflags + ["-c", src, "-o", obj], proj)
            if r.returncode:
                return r.stderr
        for obj in c_objs:
            src = os.path.join("src", obj[:-2] + ".c")
            r = run([cc] + cflags + ["-c", src, "-o", os.path.join(tmp, obj)],
                    proj)
            if r.returncode:
                return r.stderr
        try:
            os.rename(tmp, entry)
        except OSError:
            pass  # another process built the same entry first
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compile_cached(proj, entry, compiler, src):
    """Compiles the project's `src` into an object kept in the cache
    entry under the hash of its bytes: tb.cpp is the same for every
    program with the same devices and graph name, so most builds skip it.
    Returns (object path, None) or (None, compiler output)."""
    with open(os.path.join(proj, src), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:24]
    obj = os.path.join(entry, "objs", "%s-%s.o" % (
        os.path.basename(src), digest))
    if os.path.exists(obj):
        return obj, None
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(obj), suffix=".o")
    os.close(fd)
    r = run(compiler + ["-c", src, "-o", tmp], proj)
    if r.returncode:
        os.unlink(tmp)
        return None, r.stderr
    os.rename(tmp, obj)
    return obj, None


def build_csim(proj, cache=None):
    """Builds `proj`/csim.out; returns (ok, compiler output)."""
    mk = os.path.join(proj, "Makefile")
    with open(mk) as f:
        v = makefile_vars(f.read())
    # As make picks them: its built-in CXX and CC win over the Makefile's
    # `?=` defaults, the environment over both.
    cxx = os.environ.get("CXX") or "g++"
    cc = os.environ.get("CC") or "cc"
    sources = v.get("SOURCES", "").split()
    own = [s for s in sources if not s.startswith("src/")]
    shared = [s for s in sources if s.startswith("src/")]
    c_objs = v.get("C_OBJECTS", "").split()
    if (not own or "CXXFLAGS" not in v or "CFLAGS" not in v or
            any(not o.endswith(".o") for o in c_objs)):
        r = run(["make", "-s", "csim.out"], proj)
        return r.returncode == 0, r.stdout + r.stderr
    cxxflags, cflags = v["CXXFLAGS"].split(), v["CFLAGS"].split()
    key = project_key(proj, cxx, cc, v["CXXFLAGS"], v["CFLAGS"],
                      shared_files(proj))
    entry = os.path.join(cache or default_cache(), key)
    if not os.path.isdir(entry):
        # One process builds an entry while the others (fuzz -j, lit)
        # wait for it rather than build it too.
        os.makedirs(os.path.dirname(entry), exist_ok=True)
        with open(entry + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            err = None
            if not os.path.isdir(entry):
                err = build_cache(proj, entry, cxx, cc, cxxflags, cflags,
                                  shared, c_objs)
        if err is not None:
            return False, err
    # The precompiled headers' directory first: GCC takes nphls/X.h.gch
    # there in place of the project's nphls/X.h (-Winvalid-pch would say
    # if it could not).
    flags = ["-I" + os.path.join(entry, "pch")] + cxxflags
    objs = []
    for src in own:
        if src == "design.cpp":
            # The program itself: new every time, not worth keeping.
            obj = "design.o"
            r = run([cxx] + flags + ["-c", src, "-o", obj], proj)
            err = r.stderr if r.returncode else None
        else:
            obj, err = compile_cached(proj, entry, [cxx] + flags, src)
        if err is not None:
            return False, err
        objs.append(obj)
    objs += [os.path.join(entry, os.path.basename(s) + ".o") for s in shared]
    objs += [os.path.join(entry, o) for o in c_objs]
    r = run([cxx] + cxxflags + objs + ["-o", "csim.out"], proj)
    return r.returncode == 0, r.stderr
