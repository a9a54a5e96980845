# lit configuration for the npcc test suite.
import os
import lit.formats

config.name = "npcc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".np", ".test", ".mua", ".click"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.npcc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.npcc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Generated programs link libnprt from the build tree.
config.environment["NPCC_RUNTIME_DIR"] = os.path.join(config.npcc_obj_root, "lib")

# Long sweeps (generated programs, proofs of every width) run a fixed
# sample that still takes each of their paths; `make check-long`
# (NPCC_CHECK_LONG=1) runs them whole. A test passes %{sample} to its sweep.
check_long = os.environ.get("NPCC_CHECK_LONG", "") not in ("", "0")
config.substitutions.append(("%{sample}", "" if check_long else "--sample"))
# Tests too slow for make check (minutes of CPU) say `REQUIRES: long`.
if check_long:
    config.available_features.add("long")
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%src", config.npcc_src_root))
config.substitutions.append(("%lib", os.path.join(config.npcc_src_root, "lib")))
config.substitutions.append(("%examples", os.path.join(config.npcc_src_root, "examples")))
# Sanitizer builds (make check-asan): npcc builds every program with the
# flags libnprt was built with (NPCC_CFLAGS), and C compiled by a test
# directly gets them too. A sanitizer report aborts the process, so that
# `not` and exit status checks see a crash, never an ordinary error exit
# (run-checks.sh sets the same defaults for the GoogleTest units).
cflags = getattr(config, "npcc_test_cflags", "")
if cflags:
    config.environment["NPCC_CFLAGS"] = cflags
    config.available_features.add("sanitizer")
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in our
# instrumented copies of its inline code, but the prebuilt MLIR libraries
# hand out memory from them without unpoisoning (false use-after-poison).
sanitizer_defaults = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1:allow_user_poisoning=0",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:abort_on_error=1",
    "TSAN_OPTIONS": "halt_on_error=1:abort_on_error=1:second_deadlock_stack=1",
}
for var, default in sanitizer_defaults.items():
    config.environment[var] = os.environ.get(var, default)
if "LSAN_OPTIONS" in os.environ:
    config.environment["LSAN_OPTIONS"] = os.environ["LSAN_OPTIONS"]
# The hls projects' Makefiles build csim.out with $(OPT) (-O2 unless set):
# OPT='-O1 -g -fsanitize=address,undefined' instruments the simulations.
if "OPT" in os.environ:
    config.environment["OPT"] = os.environ["OPT"]

config.substitutions.append(("%cc", " ".join(
    [config.c_compiler, "-std=c11 -Wall -Werror", cflags]).strip()))
config.substitutions.append(("%cxx", config.cxx_compiler + " -std=c++17 -Wall -Werror"))
# HLS output compiles as a Vitis user's csim compiles it: against Xilinx's
# ap_types headers, with the issue's flags (no -O: the headers' own
# uninitialized values trip GCC's flow analysis only when optimizing).
config.substitutions.append(("%hlscxx", config.cxx_compiler +
    " -std=c++17 -Wall -Werror -Wno-unknown-pragmas -isystem " +
    config.ap_types_dir))
config.environment["NPCC_AP_TYPES_DIR"] = config.ap_types_dir
config.substitutions.append(("%nprt_include", os.path.join(config.npcc_src_root, "runtime", "include")))
# FileCheck is FileCheck-19 on Debian; tests write plain FileCheck.
config.substitutions.append((r"\bFileCheck\b", config.filecheck))
# valgrind checks the compiler's own memory use on a C compile (not in a
# sanitizer build: valgrind cannot run ASan binaries; ASan checks there).
import shutil
if shutil.which("valgrind") and not cflags:
    config.available_features.add("valgrind")
