# SPDX-License-Identifier: BSD-3-Clause
# Xenon: one non-recursive Makefile.
#   make                 optimised build (library, probes, tests)
#   make test            build and run every test; ends with "N passed, N failed"
#   make run             latency_probe with defaults for this machine
#   make test SANITIZE=thread|address   the same suite under ThreadSanitizer / ASan+UBSan
#   make deps            install the Debian packages to build, run and test (apt-get, as root)
#   make deps-dev        also those of the correctness checks, API docs and peer benchmarks
#   make deps-peers      also SPAdes and MEGAHIT, for the by-hand assembly benchmark (not CI)
#   make CONFIG_MPI=n    build and test without MPI (single node only)
#   make CONFIG_GENOMICS=n   leave genomics/ (and zlib) out: the cross builds do
#   make CONFIG_HWLOC=n  build without hwloc (-pin then reports pinning unavailable)
#   make help            every target and option of this file and of mk/*.mk
# Each target and option is described once, in the header of the file that defines it, in
# lines '#   make ...'; `make help` prints those headers.

CXX ?= g++
SANITIZE ?=
CONFIG_MPI ?= y
CONFIG_HWLOC ?= y
CONFIG := $(if $(SANITIZE),$(SANITIZE),release)
BUILD := build/$(CONFIG)$(if $(filter n,$(CONFIG_MPI)),-nompi)

CXXFLAGS ?= -O2 -g
override CXXFLAGS += -std=c++20 -Wall -Wextra -Wpedantic -pthread -I. -Iinclude
override CPPFLAGS += -MMD -MP
# zlib and isa-l (decompression) are for genomics/ alone; the tests write gzip with zlib.
LDLIBS := -lhwloc -lz -lisal -pthread
# A GNU build-id in every program: checkpoints name the build that wrote them by it
# (genomics/io/checkpoint_file.hpp), whatever the toolchain's default.
override LDFLAGS += -Wl,--build-id

ifeq ($(SANITIZE),thread)
  # -O1 -g1: line tables are all a sanitizer's stacks need, and the build takes a third less.
  override CXXFLAGS += -fsanitize=thread -O1 -g1
  override LDFLAGS += -fsanitize=thread
else ifeq ($(SANITIZE),address)
  # -O1 -g1, as for ThreadSanitizer: the build is faster and the stacks read as well.
  override CXXFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O1 -g1
  override LDFLAGS += -fsanitize=address,undefined
else ifneq ($(SANITIZE),)
  $(error SANITIZE must be thread or address, not '$(SANITIZE)')
endif

LIB_SOURCES := $(wildcard core/*.cpp engine/*.cpp transport/*.cpp)
GOALS_WITHOUT_BUILD := deps deps-dev deps-peers clean help test-data docs

ifeq ($(CONFIG_MPI),y)
  MPI_COMPILE_FLAGS := $(shell mpicc --showme:compile 2>/dev/null)
  MPI_LINK_FLAGS := $(shell mpicc --showme:link 2>/dev/null)
  # A fresh machine has no mpicc before `make deps`: the goals that install, clean or document
  # need none.
  ifeq ($(MPI_LINK_FLAGS)$(filter-out $(GOALS_WITHOUT_BUILD),$(or $(MAKECMDGOALS),all)),)
  else ifeq ($(MPI_LINK_FLAGS),)
    $(error Open MPI not found (mpicc): run 'make deps', or build without MPI: CONFIG_MPI=n)
  endif
  LIB_SOURCES += $(wildcard transport/mpi/*.cpp)
  LDLIBS += $(MPI_LINK_FLAGS)
  MPI_BASELINES := raw_mpi_probe split_progress_probe
  MPI_PROGRAMS := $(MPI_BASELINES:%=$(BUILD)/bin/%)
  # Only the transport sees MPI: <mpi.h> is on the include path for transport/ alone.
  MPI_CXXFLAGS := $(patsubst -I%,-isystem %,$(MPI_COMPILE_FLAGS)) \
      -DXENON_WITH_MPI=1 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1
  $(BUILD)/obj/transport/%.o: override CXXFLAGS += $(MPI_CXXFLAGS)
else ifneq ($(CONFIG_MPI),n)
  $(error CONFIG_MPI must be y or n, not '$(CONFIG_MPI)')
endif
include tests/sources.mk
PROBES := latency_probe ring_probe idle_probe node_probe balance_probe
EXAMPLES := ping_pair hello ring two_nodes monitor timers ask priorities typed_messages migrate
# Every program a user runs, by name: the one list (mk/bench.mk adds BENCH_PROBES,
# mk/genomics.mk GENOMICS_TOOLS). COMMANDS are installed in bin/ with a man page, EXAMPLES in
# libexec/xenon/ (mk/install.mk); make test hands USER_PROGRAMS to the tests, which check
# that each answers --help, --version and an unknown option alike.
COMMANDS = $(PROBES) $(BENCH_PROBES) $(MPI_BASELINES) $(GENOMICS_TOOLS)
USER_PROGRAMS = $(COMMANDS) $(EXAMPLES)

LIBRARY := $(BUILD)/libxenon.a
# Applications on the engine (mk/genomics.mk); the tests link it too. CONFIG_GENOMICS=n leaves
# them out, and zlib and isa-l with them: the cross builds do, as their sysroots have neither.
CONFIG_GENOMICS ?= y
ifeq ($(CONFIG_GENOMICS),y)
  GENOMICS_LIBRARY := $(BUILD)/libxenon_genomics.a
  TEST_SOURCES += $(GENOMICS_TEST_SOURCES)
else ifeq ($(CONFIG_GENOMICS),n)
  GENOMICS_LIBRARY :=
  LDLIBS := $(filter-out -lz -lisal,$(LDLIBS))
else
  $(error CONFIG_GENOMICS must be y or n, not '$(CONFIG_GENOMICS)')
endif
TEST_BINARY := $(BUILD)/bin/xenon_tests
PROBE_BINARIES := $(PROBES:%=$(BUILD)/bin/%) $(EXAMPLES:%=$(BUILD)/bin/%) $(BUILD)/bin/mpi_scenarios \
  $(MPI_PROGRAMS)

objects = $(patsubst %.cpp,$(BUILD)/obj/%.o,$(1))

.PHONY: all test run deps deps-dev deps-peers clean bench-ring help list-programs
all: $(LIBRARY) $(PROBE_BINARIES) $(TEST_BINARY)
ifeq ($(CONFIG),release)
all: performance/latency_probe/latency_probe
# The predecessor's users run ./performance/latency_probe/latency_probe: keep that path.
performance/latency_probe/latency_probe: $(BUILD)/bin/latency_probe
	cp $< $@
endif

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

$(LIBRARY): $(call objects,$(LIB_SOURCES))
	@mkdir -p $(dir $@)
	rm -f $@  # ar would keep members of an earlier configuration
	$(AR) rcs $@ $^

# Each probe is performance/NAME/NAME.cpp.
define probe_rule
$(BUILD)/bin/$(1): $(BUILD)/obj/performance/$(1)/$(1).o $(LIBRARY)
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(LDFLAGS) $$^ $$(LDLIBS) -o $$@
endef
$(foreach probe,$(PROBES),$(eval $(call probe_rule,$(probe))))
# Plain-MPI programs (transport/mpi/ alone includes <mpi.h>): node_probe's baseline, and the
# measurement of split send/receive progress.
$(BUILD)/bin/raw_mpi_probe: $(BUILD)/obj/transport/mpi/probe/raw_mpi_probe.o $(BUILD)/obj/core/command_line.o
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(BUILD)/bin/split_progress_probe: $(BUILD)/obj/transport/mpi/probe/split_progress_probe.o \
    $(BUILD)/obj/core/command_line.o
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Programs the tests launch (under mpiexec): tests/programs/NAME/*.cpp.
$(BUILD)/bin/mpi_scenarios: $(BUILD)/obj/tests/programs/mpi/scenarios.o $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Each example is examples/NAME.cpp.
$(EXAMPLES:%=$(BUILD)/bin/%): $(BUILD)/bin/%: $(BUILD)/obj/examples/%.o $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/bin/xenon_tests: $(call objects,$(TEST_SOURCES)) $(GENOMICS_LIBRARY) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ -lgtest -lgtest_main $(LDLIBS) -o $@

test: $(TEST_BINARY) $(PROBE_BINARIES)
	XENON_BIN=$(BUILD)/bin XENON_SANITIZE=$(SANITIZE) XENON_MPI=$(CONFIG_MPI) \
	  XENON_PROGRAMS="$(USER_PROGRAMS)" \
	  TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan_suppressions.txt $(TSAN_OPTIONS)" \
	  tests/run_tests.sh $(TEST_BINARY)

run: $(BUILD)/bin/latency_probe
	$(BUILD)/bin/latency_probe -threads-per-node $$(($$(nproc) + 1))

bench-ring: $(BUILD)/bin/ring_probe
	$(BUILD)/bin/ring_probe

# The names make test passes in XENON_PROGRAMS, for running the tests by hand.
list-programs:
	@echo $(USER_PROGRAMS)

deps:
	tools/install_deps.sh
deps-dev:
	tools/install_deps.sh --dev
deps-peers:
	tools/install_deps.sh --peers

help:
	@awk 'FNR == 1 { shown = 0 } /^#   make / { shown = 1; print; next } \
	  shown && /^#      / { print; next } { shown = 0 }' Makefile $(sort $(wildcard mk/*.mk))

clean:
	rm -rf build performance/latency_probe/latency_probe

# Further targets, one concern per file (correctness checks, benchmarks, ...).
include $(sort $(wildcard mk/*.mk))

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
