# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks: the physical limit, the Savina suite, the scaling curve, and
# `make bench`, which runs every probe and writes results/bench.txt (+ scaling CSV and PNG).
#   make bench                       full run (a few minutes)
#   make bench BENCH_QUICK=1         a seconds-long smoke run of the same script
#   make bench BENCH_RESULTS=DIR     write the results elsewhere (default: results)
#   make decompression-bench         zlib, isa-l and libdeflate side by side on the test data's
#                                    gzip files and a larger one, plain gzip and BGZF (MB/s);
#                                    needs libdeflate-dev (make deps-dev)
#   make peers                       latency_probe's and three Savina workloads on Xenon, CAF
#                                    and Erlang, one after another (performance/peers; minutes;
#                                    needs libcaf-dev and erlang-base: make deps-dev)

BENCH_PROBES := cacheline_probe savina
BENCH_BINARIES := $(BENCH_PROBES:%=$(BUILD)/bin/%)
BENCH_RESULTS ?= results

# cacheline_probe is one translation unit (performance/cacheline_probe/cacheline_probe.cpp,
# its measurements are headers beside it); the Savina suite is one binary built from every
# performance/savina/*.cpp, one benchmark per file.
SAVINA_SOURCES := $(wildcard performance/savina/*.cpp)

$(BUILD)/bin/cacheline_probe: $(BUILD)/obj/performance/cacheline_probe/cacheline_probe.o $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/bin/savina: $(call objects,$(SAVINA_SOURCES)) $(LIBRARY)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Not built by `make`: libdeflate is a dev package, measured against, not linked by the tools.
$(BUILD)/bin/decompression_bench: performance/decompression_bench/decompression_bench.cpp \
    $(BUILD)/obj/genomics/io/bgzf.o $(BUILD)/obj/genomics/io/positioned_file.o $(BUILD)/obj/genomics/io/input_copies.o \
    $(BUILD)/obj/genomics/io/input_file.o
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) $(filter %.cpp %.o,$^) -ldeflate $(LDLIBS) -o $@

.PHONY: decompression-bench
decompression-bench: $(BUILD)/bin/decompression_bench
	performance/decompression_bench/decompression_bench.sh $< 3

# Built by `make`, and before `make test` (tests/performance/ runs them with tiny workloads).
all: $(BENCH_BINARIES)
test: $(BENCH_BINARIES)

# The same workloads on CAF and Erlang beside Xenon's (make deps-dev first); minutes, not in CI.
.PHONY: peers
peers: $(BUILD)/bin/latency_probe $(BUILD)/bin/savina
	performance/peers/run_peers.sh $(BUILD)/bin 3

.PHONY: bench
bench: $(BUILD)/bin/latency_probe $(BUILD)/bin/ring_probe $(BUILD)/bin/idle_probe \
    $(BUILD)/bin/balance_probe $(BENCH_BINARIES)
	XENON_BIN=$(BUILD)/bin RESULTS_DIR=$(BENCH_RESULTS) BENCH_QUICK=$(BENCH_QUICK) \
	  performance/bench.sh
