# SPDX-License-Identifier: BSD-3-Clause
# Soak: over 100 million messages across workers and across processes, every count
# checked exactly. latency_probe itself exits non-zero if any ping, reply or message went
# missing (it compares pings sent, pings received and replies received with the expected total
# and requires dead-letter-count = 0); each run here also checks the printed counters.
#   make soak                  two runs of 100,000,000 messages each (about 80 s on 2 cores:
#                              10 s in one process, 70 s across two)
#   make soak SOAK_LOCAL_PINGS=... SOAK_MPI_PINGS=...   pings per actor in each run
#                              (message-count = 2 x actors x pings)

SOAK_ACTORS ?= 100
# 2 processes x 2 workers x 100 actors x 125,000 pings x 2 (ping + reply) = 100,000,000.
SOAK_MPI_PINGS ?= 125000
# 1 process x 2 workers x 100 actors x 250,000 pings x 2 = 100,000,000.
SOAK_LOCAL_PINGS ?= 250000
# Whole-job limit, well above the few minutes a run takes: a hang fails instead of blocking CI.
SOAK_TIMEOUT ?= 600

# The same mpiexec flags as tests/mpi/mpi_test.cpp: as root if need be, more ranks than
# cores, no binding (all of a rank's threads would share one core), idle ranks yield, and a
# timeout that ends the whole job.
SOAK_MPIEXEC := OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  OMPI_MCA_mpi_yield_when_idle=1 mpiexec --oversubscribe --bind-to none \
  --timeout $(SOAK_TIMEOUT) -n 2

# The counters each run prints (and any error line).
SOAK_SHOWN := node-count|worker-count =|actor-count =|message-count =|elapsed-time|\
computation-throughput|messages-received-by-actors|dead-letter-count|error

# soak_run NAME EXPECTED_MESSAGES COMMAND: runs COMMAND, prints its time and counters, and
# fails unless it exited 0, printed message-count = EXPECTED_MESSAGES and no dead letter.
define soak_run
	@echo "--- soak $(1): $(3)"
	@log=$(BUILD)/soak/$(1).log; started=$$(date +%s%N); \
	$(3) > $$log 2>&1; status=$$?; \
	ms=$$((($$(date +%s%N) - started) / 1000000)); \
	echo "    wall time $$((ms / 1000)).$$((ms % 1000 / 100)) s, exit $$status"; \
	grep -E '$(SOAK_SHOWN)' $$log | sed 's/^/    /'; \
	if [ $$status -eq 0 ] && grep -qx 'PERFORMANCE_COUNTER message-count = $(2)' $$log \
	  && grep -qx 'PERFORMANCE_COUNTER dead-letter-count = 0' $$log; then \
	  echo "    ok: $(2) messages, every count exact"; \
	else \
	  echo "FAIL soak $(1): see $$log"; exit 1; \
	fi
endef

.PHONY: soak
soak: $(BUILD)/bin/latency_probe
	@mkdir -p $(BUILD)/soak
	$(call soak_run,single-process,$(shell echo $$((4 * $(SOAK_ACTORS) * $(SOAK_LOCAL_PINGS)))),\
	  $(BUILD)/bin/latency_probe -threads-per-node 3 -actor-count-per-worker $(SOAK_ACTORS) \
	  -ping-message-count-per-actor $(SOAK_LOCAL_PINGS))
ifeq ($(CONFIG_MPI),y)
	$(call soak_run,two-processes,$(shell echo $$((8 * $(SOAK_ACTORS) * $(SOAK_MPI_PINGS)))),\
	  $(SOAK_MPIEXEC) $(BUILD)/bin/latency_probe -threads-per-node 3 \
	  -actor-count-per-worker $(SOAK_ACTORS) -ping-message-count-per-actor $(SOAK_MPI_PINGS))
	@echo "2 passed, 0 failed"
else
	@echo "soak two-processes: skipped, built with CONFIG_MPI=n"
	@echo "1 passed, 0 failed"
endif
