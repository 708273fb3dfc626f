# Front end for the Blackhole emulator.  QEMU 10.2.2 is a pinned dependency:
# ./configure unpacks and verifies it under build/, overlays this project's
# files (symlinks) and applies patches/qemu/*.patch.
#
#   make            build qemu-system-riscv32, the qtests, test firmware,
#                   libttsim.so, tt-host-run, and tt-kernel-run and
#                   tt-matmul-demo with their Tensix kernel firmware,
#                   tt-run with its worker firmware and kernels
#   make demo       a 1024x1024x1024 BF16 matmul on all 140 Tensix tiles of
#                   a P150, checked on the host
#   make check      run every test
#   make bench      run the benchmarks in bench/
#   make fuzz       build qemu-fuzz-riscv32 (clang, libFuzzer, ASan, UBSan)
#                   in build/fuzz and run every Blackhole fuzz target for
#                   FUZZ_SECONDS (default 60) each
#   make sanitize   the qtests, firmware tests and fuzz regressions on an
#                   ASan + UBSan qemu-system-riscv32 (same build/fuzz)
#   make check-full make check, make sanitize and a short make fuzz

BUILD ?= build
-include $(BUILD)/config.mk
QEMU_BUILD ?= $(BUILD)/qemu
QEMU_SRC ?= $(BUILD)/src
QEMU = $(QEMU_BUILD)/qemu-system-riscv32
FW = $(BUILD)/firmware
TT_QTESTS := $(shell sed -n '/^tt_qtests = \[/,/^]/p' \
               tests/qtest/tenstorrent/meson.build | grep -o "tt-[a-z0-9-]*-test")

all: qemu firmware libttsim host-run kernel-run matmul-demo dispatch

deps:
	@./scripts/install-deps.sh

$(BUILD)/config.mk:
	@./scripts/install-deps.sh
	./configure --builddir=$(BUILD)

qemu: $(BUILD)/config.mk
	@./scripts/overlay.sh $(CURDIR) $(QEMU_SRC)
	ninja -C $(QEMU_BUILD) qemu-system-riscv32 \
	    $(addprefix tests/qtest/,$(TT_QTESTS))

# libttsim.so, a libttsim-ABI library driving the machine over vfio-user
libttsim:
	@$(MAKE) -s -C tools/libttsim O=$(abspath $(BUILD))/libttsim

# tt-host-run: bench/fw's image on every BRISC through the libttsim ABI
host-run: $(BUILD)/tt-host-run bench-fw

# the libttsim host side both programs and tools/libttsim's tests share
TT_HOST = tools/tt-host.c tools/tt-host.h tools/libttsim/libttsim.h

$(BUILD)/tt-host-run: tools/tt-host-run.c tools/tt-bench-kernels.h $(TT_HOST)
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Itools -o $@ tools/tt-host-run.c tools/tt-host.c -ldl

bench-fw:
	@$(MAKE) -s -C bench/fw O=$(abspath $(BUILD))/bench

# tt-kernel-run: tests/tensix/fw's unpack/math/pack kernels on one Tensix
# tile through the libttsim ABI, checked against tools/tt-ref.c
# (tests/tensix/kernel-test.sh runs it); neither needs QEMU to build
kernel-run: $(BUILD)/tt-kernel-run tensix-fw

$(BUILD)/tt-kernel-run: tools/tt-kernel-run.c tools/tt-ref.c tools/tt-ref.h \
                        $(TT_HOST) tests/tensix/fw/kernel-params.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Itools -Itests/tensix/fw -o $@ tools/tt-kernel-run.c \
	    tools/tt-ref.c tools/tt-host.c -ldl -lm

tensix-fw:
	@$(MAKE) -s -C tests/tensix/fw O=$(abspath $(BUILD))/tensix-fw

# tt-matmul-demo: the same firmware on every Tensix tile, operands
# streamed from GDDR by NCRISC, C written back by BRISC; checked against
# tools/tt-ref.c and an FP64 product (tests/tensix/matmul-demo-test.sh)
matmul-demo: $(BUILD)/tt-matmul-demo tensix-fw

$(BUILD)/tt-matmul-demo: tools/tt-matmul-demo.c tools/tt-matmul-check.c \
                         tools/tt-matmul-check.h tools/tt-ref.c \
                         tools/tt-ref.h $(TT_HOST) \
                         tests/tensix/fw/kernel-params.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Itools -Itests/tensix/fw -o $@ tools/tt-matmul-demo.c \
	    tools/tt-matmul-check.c tools/tt-ref.c tools/tt-host.c -ldl -lm \
	    -lpthread

# tt-run: tt-metal-shaped programs (kernels per core role, CBs, runtime
# arguments, L1 and GDDR buffers) launched through launch messages, by
# TLB windows or the fast-dispatch command queue, over the libttsim ABI;
# tests/dispatch holds the worker firmware, the prefetch/dispatch kernels
# and the test kernels it runs (tests/dispatch/dispatch-test.sh)
dispatch: $(BUILD)/tt-run dispatch-fw

$(BUILD)/tt-run: tools/tt-run.c tools/tt-runtime.c tools/tt-runtime.h \
                 tools/tt-cq.c tests/dispatch/layout.h tests/dispatch/cq.h \
                 $(TT_HOST)
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Itools -Itests/dispatch -o $@ tools/tt-run.c \
	    tools/tt-runtime.c tools/tt-cq.c tools/tt-host.c -ldl

dispatch-fw:
	@$(MAKE) -s -C tests/dispatch O=$(abspath $(BUILD))/dispatch

firmware:
	@$(MAKE) -s -C tests/firmware O=$(abspath $(FW))

# the vfio-user client QEMU of the guest Linux test (tests/guest/)
X86_BUILD = $(BUILD)/qemu-x86
$(X86_BUILD)/build.ninja: $(BUILD)/config.mk
	./configure --builddir=$(BUILD) --x86-client

x86-client: $(X86_BUILD)/build.ninja
	@./scripts/overlay.sh $(CURDIR) $(QEMU_SRC)
	ninja -C $(X86_BUILD) qemu-system-x86_64

check: deps all x86-client
	@tests/run-tests.sh $(BUILD)

demo: deps qemu libttsim matmul-demo
	@TT_EMU_QEMU=$(QEMU) TT_EMU_ARGS="-M blackhole,board=p150" \
	    $(BUILD)/tt-matmul-demo --lib $(BUILD)/libttsim/libttsim.so

bench: deps all $(BUILD)/tt-bench-ref
	@bench/run.sh $(BUILD)

$(BUILD)/tt-bench-ref: tools/tt-bench-ref.c tools/tt-bench-kernels.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -o $@ $<

# Fuzzing and sanitizers share one clang build: ./configure --fuzz
FUZZ_BUILD ?= $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

$(FUZZ_BUILD)/config.mk:
	@./scripts/install-deps.sh
	./configure --builddir=$(FUZZ_BUILD) --fuzz

fuzz-build: $(FUZZ_BUILD)/config.mk
	@./scripts/overlay.sh $(CURDIR) $(FUZZ_BUILD)/src
	ninja -C $(FUZZ_BUILD)/qemu qemu-fuzz-riscv32

fuzz: fuzz-build
	@tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

sanitize-build: $(FUZZ_BUILD)/config.mk
	@./scripts/overlay.sh $(CURDIR) $(FUZZ_BUILD)/src
	ninja -C $(FUZZ_BUILD)/qemu qemu-system-riscv32 \
	    $(addprefix tests/qtest/,$(TT_QTESTS))

sanitize: deps sanitize-build firmware
	@tests/fuzz/run-sanitize.sh $(BUILD) $(FUZZ_BUILD)

check-full: check
	@$(MAKE) sanitize
	@$(MAKE) fuzz

clean:
	rm -rf $(BUILD)

.PHONY: fuzz fuzz-build sanitize sanitize-build check-full

.PHONY: all deps qemu firmware check demo bench clean x86-client libttsim \
        host-run bench-fw kernel-run tensix-fw matmul-demo dispatch \
        dispatch-fw
