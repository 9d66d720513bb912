# SPDX-License-Identifier: BSD-3-Clause
# Correctness checks: weak memory (Relacy, cross builds under qemu) and bad input (fuzzing, lint).
#   make test                 also runs build/.../xenon_model_tests (Relacy model checks)
#   make test-cross           cross-builds for POWER7 big-endian, ppc64el and arm64, runs the
#                             unit tests and a small latency_probe under qemu-user, and checks
#                             the emitted barriers (tools/check_barriers.sh)
#   make fuzz                 builds fuzz/*_fuzzer.cpp with libFuzzer, runs each FUZZ_SECONDS
#   make lint                 clang-tidy (bugprone-, concurrency-, clang-analyzer-) + cppcheck

# ---- Build without hwloc (CONFIG_HWLOC, Makefile) ----
ifeq ($(CONFIG_HWLOC),n)
  override CXXFLAGS += -DXENON_HWLOC=0
  LDLIBS := $(filter-out -lhwloc,$(LDLIBS))
endif

# ---- Relacy model checks: their own binary, because Relacy replaces the global operator
# new while it simulates (sized delete must then go through it too), and because its fibers
# (swapcontext) are not followed by the sanitizers: plain builds only. ----
MODEL_TEST_OBJECTS := $(call objects,$(MODEL_TEST_SOURCES))
MODEL_TEST_BINARY := $(BUILD)/bin/xenon_model_tests

$(MODEL_TEST_OBJECTS): override CXXFLAGS += -fno-sized-deallocation

$(MODEL_TEST_BINARY): $(MODEL_TEST_OBJECTS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -lgtest -lgtest_main -pthread -o $@

ifeq ($(SANITIZE),)
# tests/run_tests.sh runs every xenon_*_tests beside xenon_tests and counts them all.
all test: $(MODEL_TEST_BINARY)
endif

# ---- Cross builds under qemu-user ----
CROSS_TARGETS := ppc64 ppc64le arm64
cross_triple_ppc64 := powerpc64-linux-gnu
cross_cpu_ppc64 := -mcpu=power7
cross_triple_ppc64le := powerpc64le-linux-gnu
cross_cpu_ppc64le := -mcpu=power8
cross_triple_arm64 := aarch64-linux-gnu
cross_cpu_arm64 := -march=armv8-a
GTEST_SOURCE := /usr/src/googletest/googletest

# cross_rules TARGET: GoogleTest for the target from Debian's sources, then a sub-make of
# this Makefile with the cross compiler, no hwloc, no MPI, no genomics (no hwloc, MPI or zlib
# in the cross sysroots), and its own build folder. -O2 as a user builds, without debug
# information: nothing reads it (qemu runs the tests, the barrier check reads symbols), and it
# took half of each compile.
define cross_rules
build/cross-$(1)/gtest/libgtest.a build/cross-$(1)/gtest/libgtest_main.a &:
	@mkdir -p build/cross-$(1)/gtest
	$(cross_triple_$(1))-g++ -O2 $(cross_cpu_$(1)) -pthread -I$(GTEST_SOURCE) \
	  -I$(GTEST_SOURCE)/include -c $(GTEST_SOURCE)/src/gtest-all.cc -o build/cross-$(1)/gtest/gtest-all.o
	$(cross_triple_$(1))-g++ -O2 $(cross_cpu_$(1)) -pthread -I$(GTEST_SOURCE) \
	  -I$(GTEST_SOURCE)/include -c $(GTEST_SOURCE)/src/gtest_main.cc -o build/cross-$(1)/gtest/gtest_main.o
	$(cross_triple_$(1))-ar rcs build/cross-$(1)/gtest/libgtest.a build/cross-$(1)/gtest/gtest-all.o
	$(cross_triple_$(1))-ar rcs build/cross-$(1)/gtest/libgtest_main.a build/cross-$(1)/gtest/gtest_main.o

.PHONY: cross-build-$(1)
cross-build-$(1): build/cross-$(1)/gtest/libgtest.a build/cross-$(1)/gtest/libgtest_main.a
	$$(MAKE) --no-print-directory CXX=$(cross_triple_$(1))-g++ AR=$(cross_triple_$(1))-ar \
	  BUILD=build/cross-$(1) CONFIG_HWLOC=n CONFIG_MPI=n CONFIG_GENOMICS=n \
	  CXXFLAGS="-O2 $(cross_cpu_$(1)) -isystem $(GTEST_SOURCE)/include" \
	  LDFLAGS="-Lbuild/cross-$(1)/gtest" \
	  build/cross-$(1)/bin/xenon_tests build/cross-$(1)/bin/latency_probe \
	  build/cross-$(1)/obj/tools/barrier_points.o
endef
$(foreach target,$(CROSS_TARGETS),$(eval $(call cross_rules,$(target))))

.PHONY: cross-build test-cross
cross-build: $(CROSS_TARGETS:%=cross-build-%)

# Unit tests + latency_probe under qemu-user and the barrier check, per target; one
# "N passed, N failed" line over all of them.
test-cross: cross-build
	tools/test_cross.sh $(CROSS_TARGETS)

# ---- Fuzzing (libFuzzer): fuzz/NAME_fuzzer.cpp is one fuzzer, linked with the library
# sources it names in fuzz/NAME_fuzzer.sources; its seed corpus is fuzz/corpus/NAME/. ----
FUZZ_CXX := clang++-14
FUZZ_SECONDS ?= 30
FUZZ_BUILD := build/fuzz
FUZZERS := $(patsubst fuzz/%_fuzzer.cpp,%,$(wildcard fuzz/*_fuzzer.cpp))
FUZZ_FLAGS := -std=c++20 -O1 -g -I. -Iinclude -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all

$(FUZZ_BUILD)/%_fuzzer: fuzz/%_fuzzer.cpp fuzz/%_fuzzer.sources $(LIB_SOURCES) $(wildcard genomics/*/*.cpp)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_FLAGS) $< $$(cat fuzz/$*_fuzzer.sources) -lz -lisal -o $@

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZERS:%=$(FUZZ_BUILD)/%_fuzzer)
fuzz: fuzz-build
	tools/run_fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

# ---- Static analysis ----
LINT_DIRS := core engine transport performance examples genomics
.PHONY: lint
lint:
	tools/lint.sh $(LINT_DIRS)
