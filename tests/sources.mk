# SPDX-License-Identifier: BSD-3-Clause
# The unit and end-to-end tests linked into xenon_tests, listed one by one: a test file is
# built because it is named here, not because of how deep its folder is. A *_test.cpp under
# tests/ that is in no list (here, or MODEL_TEST_SOURCES in mk/correctness.mk) stops the build.
TEST_SOURCES := \
  tests/core/command_line_test.cpp \
  tests/core/counter_report_test.cpp \
  tests/core/parker_test.cpp \
  tests/core/random_test.cpp \
  tests/core/spsc_ring_test.cpp \
  tests/core/typed_encoding_test.cpp \
  tests/engine/ask_test.cpp \
  tests/engine/balancing_test.cpp \
  tests/engine/busy_time_test.cpp \
  tests/engine/communicator_test.cpp \
  tests/engine/engine_test.cpp \
  tests/engine/mailbox_backpressure_test.cpp \
  tests/engine/mailbox_test.cpp \
  tests/engine/migration_test.cpp \
  tests/engine/monitor_test.cpp \
  tests/engine/names_and_payloads_test.cpp \
  tests/engine/outbound_channel_test.cpp \
  tests/engine/priorities_test.cpp \
  tests/engine/queue_time_test.cpp \
  tests/engine/run_observation_test.cpp \
  tests/engine/thread_limits_test.cpp \
  tests/engine/trace_and_report_test.cpp \
  tests/engine/timer_queue_test.cpp \
  tests/engine/timers_test.cpp \
  tests/engine/typed_messages_test.cpp \
  tests/engine/wire_frame_recorded_test.cpp \
  tests/engine/wire_frame_test.cpp \
  tests/engine/worker_test.cpp \
  tests/examples/ask_test.cpp \
  tests/examples/hello_test.cpp \
  tests/examples/migrate_test.cpp \
  tests/examples/monitor_test.cpp \
  tests/examples/ping_pair_test.cpp \
  tests/examples/priorities_test.cpp \
  tests/examples/ring_test.cpp \
  tests/examples/timers_test.cpp \
  tests/examples/two_nodes_test.cpp \
  tests/examples/typed_messages_test.cpp \
  tests/install/install_test.cpp \
  tests/mpi/mpi_test.cpp \
  tests/mpi/netns_test.cpp \
  tests/performance/cacheline_probe_test.cpp \
  tests/performance/latency_probe_output_test.cpp \
  tests/performance/latency_probe_test.cpp \
  tests/performance/plot_latency_test.cpp \
  tests/performance/savina_test.cpp \
  tests/tools/help_test.cpp \
  tests/tools/licence_test.cpp \
  tests/transport/loopback_transport_test.cpp

# Tests of genome analysis (left out with CONFIG_GENOMICS=n).
GENOMICS_TEST_SOURCES := \
  tests/genomics/ambiguity_codes_test.cpp \
  tests/genomics/assembler_graph_test.cpp \
  tests/genomics/assembler_test.cpp \
  tests/genomics/assembly_checkpoints_test.cpp \
  tests/genomics/bridge_tracer_test.cpp \
  tests/genomics/carried_kmer_exchange_test.cpp \
  tests/genomics/contig_test.cpp \
  tests/genomics/piece_joining_test.cpp \
  tests/genomics/junction_cleaning_test.cpp \
  tests/genomics/counter_protocol_test.cpp \
  tests/genomics/de_bruijn_test.cpp \
  tests/genomics/end_index_test.cpp \
  tests/genomics/evaluate_assembly_test.cpp \
  tests/genomics/fasta_output_test.cpp \
  tests/genomics/filter_keeper_test.cpp \
  tests/genomics/freed_memory_test.cpp \
  tests/genomics/input_ranges_test.cpp \
  tests/genomics/k_choice_test.cpp \
  tests/genomics/kmer_counter_test.cpp \
  tests/genomics/kmer_filter_test.cpp \
  tests/genomics/kmer_shards_test.cpp \
  tests/genomics/kmer_test.cpp \
  tests/genomics/mate_pairing_test.cpp \
  tests/genomics/merge_tree_test.cpp \
  tests/genomics/output_directory_test.cpp \
  tests/genomics/paired_gaps_test.cpp \
  tests/genomics/read_bridges_test.cpp \
  tests/genomics/read_pairing_test.cpp \
  tests/genomics/read_share_test.cpp \
  tests/genomics/read_threads_test.cpp \
  tests/genomics/read_tracer_test.cpp \
  tests/genomics/resident_memory_timeline_test.cpp \
  tests/genomics/scaffolding_test.cpp \
  tests/genomics/scaling_statistics_test.cpp \
  tests/genomics/sequence_input_test.cpp \
  tests/genomics/sliced_read_share_test.cpp \
  tests/genomics/tool_options_test.cpp

# Relacy model checks, a binary of their own (mk/correctness.mk).
MODEL_TEST_SOURCES := \
  tests/model/core/parker_model_test.cpp \
  tests/model/core/spsc_ring_model_test.cpp \
  tests/model/engine/actor_hand_off_model_test.cpp

UNLISTED_TESTS := $(filter-out $(TEST_SOURCES) $(GENOMICS_TEST_SOURCES) $(MODEL_TEST_SOURCES), \
  $(shell find tests -name '*_test.cpp'))
ifneq ($(UNLISTED_TESTS),)
  $(error tests not listed in tests/sources.mk (so never built): $(UNLISTED_TESTS))
endif
