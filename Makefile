# Thin wrapper: every target installs what is missing, builds, then acts.
.PHONY: all build check demo bench clean format

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

format:
	@git ls-files '*.c' '*.h' '*.cpp' | xargs clang-format-19 -i

clean:
	rm -rf build
