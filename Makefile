# Thin wrapper: every target installs what is missing, builds, then acts.
.PHONY: all build install check check-long check-asan check-tsan fuzz demo bench reproduce clean format fuzz-match fuzz-programs fuzz-programs-asan
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local

all: build

build:
	@bash scripts/bootstrap.sh
	@cmake --build build

# The toolchain under PREFIX (bin/, lib/, include/, share/npcc/), which
# finds its parts relative to itself: PREFIX can be moved afterwards.
install: build
	@cmake --install build --prefix $(PREFIX)

check: build
	@cmake --build build --target check-npcc

# The same suite with the long sweeps whole (every seed of the generated
# programs, every proof of the bit built-ins) where make check runs a fixed
# sample of each (test/lit.cfg.py, %{sample}).
check-long: build
	@NPCC_CHECK_LONG=1 cmake --build build --target check-npcc

# The whole suite again on a build with ASan+UBSan and assertions (build-asan/).
check-asan:
	@bash scripts/bootstrap.sh asan
	@cmake --build build-asan --target check-npcc

# ThreadSanitizer on what runs on several threads (build-tsan/): libnprt and
# its units, and the programs of the multicore lit tests, which build/'s
# npcc builds with -fsanitize=thread against that libnprt.
# npsim's pinned cycles (runtime/npsim/cycles.test) under TSan are the
# same as without: the simulator is deterministic under either sanitizer.
TSAN_TESTS ?= examples/(ipv4-router-cores|cores-examples|explain-mapping)\.test|targets/c/map-cores\.np|runtime/(control-cores|cores-io)\.test|runtime/npsim/(cycles|hand-computed|interfaces|switch)\.test
check-tsan: build
	@bash scripts/bootstrap.sh tsan
	@cmake --build build-tsan --target nprt nprt-sim nprt-unittests npsim-unittests
	@LIT_FILTER='$(TSAN_TESTS)' bash test/run-checks.sh build-tsan build-tsan/test

# libFuzzer targets (build-fuzz/, clang-19), FUZZ_SECONDS each, one at a time.
fuzz:
	@bash scripts/bootstrap.sh
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash fuzz/run.sh

demo: build
	@bash examples/passthrough/demo.sh

# Benchmarks against peers measured in the same run, Click 2.1 among them:
# built once from ../shared/peers into build/peers/click (about 6 minutes,
# bench/peers/build-click.sh); never part of make check. Ends with every
# target of issue 28 and its verdict (bench/README.md).
bench: build
	@bash scripts/bootstrap.sh bench
	@bash bench/peers/build-click.sh click >/dev/null
	@bash bench/run.sh

# The seeds' network-processor experiments on npsim, their figures beside
# ours, plots in build/reproduce (examples/npu-scaling/README.md).
reproduce: build
	@PATH="$(CURDIR)/build/bin:$$PATH" python3 examples/npu-scaling/reproduce.py --out build/reproduce

# Generated match programs: npcc --target=ucode on musim against the
# reference interpreter (test/targets/ucode/Inputs/match_diff.py).
fuzz-match: build
	@python3 test/targets/ucode/Inputs/match_diff.py build/bin/npcc build/bin/musim \
	  build/fuzz-match --seed $(or $(SEED),0) --programs $(or $(PROGRAMS),1000) \
	  $(if $(CALLS),--calls)

# Generated NPL programs (tools/npsmith, docs/npsmith.md) on the reference
# interpreter, the C target on one core and on two (rtc, pipeline) and the
# HLS C simulation; failing cases land in FUZZ_WORK/failures/<seed>/.
# NPCC=build-asan/bin/npcc tests the compilers built with ASan and UBSan,
# which fuzz-programs-asan builds first; FUZZ_FLAGS adds npsmith flags
# (FUZZ_FLAGS='--hls-every 4 --timeout 10').
FUZZ_WORK ?= build/fuzz-programs
fuzz-programs: build
	@build/bin/npsmith fuzz --seed $(or $(SEED),0) --programs $(or $(PROGRAMS),100) \
	  -j $(or $(JOBS),2) --work $(FUZZ_WORK) $(if $(NPCC),--npcc $(NPCC)) \
	  $(if $(EXPLORE),--explore) $(if $(TARGETS),--targets $(TARGETS)) $(FUZZ_FLAGS)

fuzz-programs-asan: build
	@bash scripts/bootstrap.sh asan
	@cmake --build build-asan --target npcc nprt
	@$(MAKE) --no-print-directory fuzz-programs NPCC=build-asan/bin/npcc \
	  FUZZ_WORK=build-asan/fuzz-programs

format:
	@NPCC_EXTRA_PACKAGES=clang-format-19 bash scripts/bootstrap.sh
	@git ls-files '*.c' '*.h' '*.cpp' | xargs clang-format-19 -i

clean:
	rm -rf build build-asan build-tsan build-fuzz
