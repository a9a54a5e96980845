# Thin wrapper: every target installs what is missing, builds, then acts.
.PHONY: all build check demo bench clean format fuzz-match

all: build

build:
	@bash scripts/bootstrap.sh
	@cmake --build build

check: build
	@cmake --build build --target check-npcc

demo: build
	@bash examples/passthrough/demo.sh

bench: build
	@bash bench/run.sh

# Generated match programs: npcc --target=ucode on musim against the
# reference interpreter (test/targets/ucode/Inputs/match_diff.py).
fuzz-match: build
	@python3 test/targets/ucode/Inputs/match_diff.py build/bin/npcc build/bin/musim \
	  build/fuzz-match --seed $(or $(SEED),0) --programs $(or $(PROGRAMS),1000)

format:
	@git ls-files '*.c' '*.h' '*.cpp' | xargs clang-format-19 -i

clean:
	rm -rf build
