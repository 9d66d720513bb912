# SPDX-License-Identifier: BSD-3-Clause
# Genome analysis on the engine (genomics/): the input and k-mer library, and its tools.
#   make kmer_counter     build/<config>/bin/kmer_counter
ifeq ($(CONFIG_GENOMICS),y)
GENOMICS_SOURCES := $(wildcard genomics/io/*.cpp genomics/kmer/*.cpp genomics/counter/*.cpp genomics/assembler/*.cpp genomics/run/*.cpp)
GENOMICS_TOOLS := kmer_counter assembler
GENOMICS_BINARIES := $(GENOMICS_TOOLS:%=$(BUILD)/bin/%)

$(GENOMICS_LIBRARY): $(call objects,$(GENOMICS_SOURCES))
	@mkdir -p $(dir $@)
	rm -f $@  # ar would keep members of an earlier configuration
	$(AR) rcs $@ $^

# Each tool is genomics/tools/NAME.cpp.
$(GENOMICS_BINARIES): $(BUILD)/bin/%: $(BUILD)/obj/genomics/tools/%.o $(GENOMICS_LIBRARY) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

.PHONY: $(GENOMICS_TOOLS)
$(GENOMICS_TOOLS): %: $(BUILD)/bin/%

# Reads threaded through the index of unitig ends on one core (performance/threading_bench):
# the lookup of every read-threading round of the assembler, measured alone. Built by `make`
# so that it keeps compiling; run by hand.
$(BUILD)/bin/threading_bench: $(BUILD)/obj/performance/threading_bench/threading_bench.o $(GENOMICS_LIBRARY) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

all: $(GENOMICS_BINARIES) $(BUILD)/bin/threading_bench
test: $(GENOMICS_BINARIES)
# The tools' faults (output folders, signals, out of memory, --continue) run after the
# GoogleTest binaries, in the same "N passed, N failed" (tests/run_tests.sh).
test: export XENON_FAULT_CASES := $(CURDIR)/tests/faults/fault_cases.sh
endif
