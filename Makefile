# Front end for the Blackhole emulator.  QEMU 10.2.2 is a pinned dependency
# (subprojects/qemu.wrap): ./configure unpacks and verifies it under build/,
# overlays this project's files (symlinks) and applies patches/qemu/*.patch.
# The project's own parts (host tools, libttsim.so, RV32 firmware, the test
# list) are a meson project (meson.build) built in build/meson, which copies
# its outputs into build/ (docs/devel/tenstorrent-build.rst).
#
#   make            build qemu-system-riscv32, the qtests, test firmware,
#                   libttsim.so, tt-host-run, and tt-kernel-run and
#                   tt-matmul-demo with their Tensix kernel firmware,
#                   tt-run with its worker firmware and kernels
#   make demo       a 1024x1024x1024 BF16 matmul on all 140 Tensix tiles of
#                   a P150, checked on the host
#   make check      run every test suite through `meson test` (names,
#                   kinds and times), then the total of checks
#   make bench      run the benchmarks in bench/
#   make fuzz-tensix the Tensix differential fuzzer: FUZZ_TENSIX_PROGRAMS
#                   random kernels from FUZZ_TENSIX_SEED against tt-ref
#                   (and ttsim, with TTSIM_LIB)
#   make fuzz       build qemu-fuzz-riscv32 (clang, libFuzzer, ASan, UBSan)
#                   in build/fuzz and run every Blackhole fuzz target for
#                   FUZZ_SECONDS (default 60) each, from libFuzzer seed
#                   FUZZ_SEED (default: a seed of its own per run)
#   make sanitize   the qtests, firmware tests and fuzz regressions on an
#                   ASan + UBSan qemu-system-riscv32 (same build/fuzz)
#   make check-full make check, the Tensix stress test at 1000 runs (100
#                   on 140 tiles), make sanitize and a short make fuzz
#   make check-series build the QEMU patch series one patch at a time in
#                   build/series (about 15 minutes on 2 cores)

BUILD ?= build
-include $(BUILD)/config.mk
QEMU_BUILD ?= $(BUILD)/qemu
QEMU_SRC ?= $(BUILD)/src
QEMU = $(QEMU_BUILD)/qemu-system-riscv32
FW = $(BUILD)/firmware
TT_QTESTS := $(shell awk '!/^\#/ && NF { print $$1 }' \
               tests/qtest/tenstorrent/tests.list)

MESON_BUILD = $(BUILD)/meson

all: qemu parts dispatch

deps:
	@./scripts/install-deps.sh

$(BUILD)/config.mk:
	@./scripts/install-deps.sh
	./configure --builddir=$(BUILD)

qemu: $(BUILD)/config.mk
	@./scripts/overlay.sh $(CURDIR) $(QEMU_SRC)
	ninja -C $(QEMU_BUILD) qemu-system-riscv32 \
	    $(addprefix tests/qtest/,$(TT_QTESTS))

# The meson project: libttsim.so and its tests, tt-host-run, tt-kernel-run,
# tt-matmul-demo, tt-run, tt-bench-ref, the firmware of firmware/tensix,
# tests/firmware and bench/fw (cross file scripts/riscv32-elf.ini)
$(MESON_BUILD)/build.ninja:
	@./scripts/install-deps.sh
	meson setup --cross-file scripts/riscv32-elf.ini $(MESON_BUILD)

parts: $(MESON_BUILD)/build.ninja
	@ninja -C $(MESON_BUILD)

# names for parts of it (meson builds them all in seconds)
firmware libttsim host-run bench-fw kernel-run tensix-fw matmul-demo: parts

# tt-run's worker firmware, fast-dispatch and example kernels
# (firmware/dispatch) are still built by their Makefile
dispatch: parts dispatch-fw

dispatch-fw:
	@$(MAKE) -s -C firmware/dispatch O=$(abspath $(BUILD))/dispatch

# the vfio-user client QEMU of the guest Linux test (tests/guest/)
X86_BUILD = $(BUILD)/qemu-x86
$(X86_BUILD)/build.ninja: $(BUILD)/config.mk
	./configure --builddir=$(BUILD) --x86-client

x86-client: $(X86_BUILD)/build.ninja
	@./scripts/overlay.sh $(CURDIR) $(QEMU_SRC)
	ninja -C $(X86_BUILD) qemu-system-x86_64

# every suite through meson test (one per suite, with its kind, name and
# time; tests/run-tests.sh runs each), then the checks they made in all
check: deps all x86-client
	@meson test -C $(MESON_BUILD) --print-errorlogs; rc=$$?; \
	    awk '/^[0-9]+ passed, [0-9]+ failed$$/ { p += $$1; f += $$3 } \
	         END { print p " passed, " f " failed" }' \
	        $(MESON_BUILD)/meson-logs/testlog.txt; exit $$rc

check-meson: check

demo: deps qemu libttsim matmul-demo
	@TT_EMU_QEMU=$(QEMU) TT_EMU_ARGS="-M blackhole,board=p150" \
	    $(BUILD)/tt-matmul-demo --lib $(BUILD)/libttsim/libttsim.so

bench: deps all
	@bench/run.sh $(BUILD)

# Fuzzing and sanitizers share one clang build: ./configure --fuzz
FUZZ_BUILD ?= $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_SEED ?=

$(FUZZ_BUILD)/config.mk:
	@./scripts/install-deps.sh
	./configure --builddir=$(FUZZ_BUILD) --fuzz

fuzz-build: $(FUZZ_BUILD)/config.mk
	@./scripts/overlay.sh $(CURDIR) $(FUZZ_BUILD)/src
	ninja -C $(FUZZ_BUILD)/qemu qemu-fuzz-riscv32

fuzz: fuzz-build
	@FUZZ_SEED=$(FUZZ_SEED) tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) \
	    $(FUZZ_SECONDS) $(FUZZ_TARGETS)

sanitize-build: $(FUZZ_BUILD)/config.mk
	@./scripts/overlay.sh $(CURDIR) $(FUZZ_BUILD)/src
	ninja -C $(FUZZ_BUILD)/qemu qemu-system-riscv32 \
	    $(addprefix tests/qtest/,$(TT_QTESTS))

sanitize: deps sanitize-build firmware
	@tests/fuzz/run-sanitize.sh $(BUILD) $(FUZZ_BUILD)

# The Tensix differential fuzzer (tools/tt-kernel-run --fuzz): N random
# programs from seed S against tt-ref, and bit for bit against ttsim when
# TTSIM_LIB names a libttsim.so built from tenstorrent/ttsim
FUZZ_TENSIX_PROGRAMS ?= 10000
FUZZ_TENSIX_SEED ?= 1

fuzz-tensix: deps qemu libttsim kernel-run
	@TT_EMU_QEMU=$(QEMU) $(BUILD)/tt-kernel-run \
	    --lib $(BUILD)/libttsim/libttsim.so --sfpu --sfpu-macro \
	    --fuzz $(FUZZ_TENSIX_PROGRAMS) --seed $(FUZZ_TENSIX_SEED) \
	    $(if $(TTSIM_LIB),--compare-lib $(TTSIM_LIB))
	@TT_EMU_QEMU=$(QEMU) $(BUILD)/tt-kernel-run \
	    --lib $(BUILD)/libttsim/libttsim.so --sfpu --sfpu-macro \
	    --fuzz $(FUZZ_TENSIX_PROGRAMS) --seed $(FUZZ_TENSIX_SEED) \
	    --fuzz-invalid

# tt-umd's api_tests and simulator microbenchmarks against our library
# (and ttsim with TTSIM_LIB), one test per process, then tt-umd opening
# every chip of the P300, QuietBox 2 and Galaxy libraries: TT_UMD_BUILD=<dir>
umd-check: deps qemu libttsim
	@tests/umd/umd-check.sh $(BUILD)
	@tests/umd/umd-cluster.sh $(BUILD)

check-full: check
	@TT_STRESS_RUNS="1000 1000" tests/run-tests.sh $(BUILD) tensix-stress
	@$(MAKE) sanitize
	@$(MAKE) fuzz

# every prefix of patches/qemu applies and builds, in a build of its own
check-series: deps
	@scripts/tenstorrent/series-build.sh $(BUILD)/series

clean:
	rm -rf $(BUILD)

.PHONY: fuzz fuzz-build sanitize sanitize-build check-full fuzz-tensix \
	umd-check check-series

.PHONY: all deps qemu firmware check demo bench clean x86-client libttsim \
        host-run bench-fw kernel-run tensix-fw matmul-demo dispatch \
        dispatch-fw parts check-meson
