#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench.sh (`make bench`): runs every probe once, in a few minutes, and writes
#   $RESULTS_DIR/bench.txt      every probe's PERFORMANCE_COUNTER lines, then a summary of
#                               the issue-5 targets as ratios measured in this same run
#   $RESULTS_DIR/scaling.csv    latency_probe throughput against workers
#   $RESULTS_DIR/scaling.png    the same, drawn (gnuplot)
# Probes: cacheline_probe (the physical limit), latency_probe for -threads-per-node 1, 2, 3,
# ring_probe, idle_probe, balance_probe (balancing off, then on), the Savina suite (ping-pong on different workers and on the same
# worker, and across workers pinned), and the scaling probe. Environment: XENON_BIN (binaries, default
# build/release/bin), RESULTS_DIR (default results), REPETITIONS (default 3),
# BENCH_QUICK=1 (tiny workloads: a seconds-long smoke run of the same steps).
# Exits 1 if any probe failed (a probe fails when a message count differs).
set -uo pipefail
bin=${XENON_BIN:-build/release/bin}
out=${RESULTS_DIR:-results}
repetitions=${REPETITIONS:-3}
quick=${BENCH_QUICK:-}
mkdir -p "$out"
report="$out/bench.txt"
failed=()

if [ -n "$quick" ]; then
  repetitions=1
  cacheline_args=(-repetitions 1 -rounds 20000 -items 200000)
  latency_args=(-ping-message-count-per-actor 2000)
  ring_args=(-repetitions 1 -items 200000 -rounds 5000)
  idle_args=(-milliseconds 100)
  balance_args=(-task-count 200 -mean-task-steps 20000)
  # 20,000 round trips take about 10 ms: fewer are as short as one scheduler hiccup.
  savina_args=(-repetitions 1 -ping-pong-pings 20000 -thread-ring-passes 2000
    -counting-messages 20000 -fork-join-throughput-messages 200 -big-pings 200
    -chameneos-meetings 2000)
else
  cacheline_args=(-repetitions 7)
  latency_args=()
  ring_args=(-repetitions "$repetitions")
  idle_args=()
  balance_args=()
  savina_args=(-repetitions "$repetitions")
fi

# run TITLE COMMAND...: appends "# TITLE: COMMAND" and the command's output to the report.
run() {
  local title=$1
  shift
  echo "# $title: $*" | tee -a "$report"
  local started=$SECONDS
  if ! "$@" >> "$report" 2> >(tee -a "$report" >&2); then
    failed+=("$title")
    echo "# $title: FAILED" | tee -a "$report"
  fi
  echo "# $title: $((SECONDS - started)) s" >> "$report"
}

{
  echo "# make bench: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "# load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$report"

run cacheline_probe "$bin/cacheline_probe" "${cacheline_args[@]}"
for ((r = 1; r <= repetitions; r++)); do
  for threads in 1 2 3; do
    run "latency_probe run $r threads-per-node $threads" \
      "$bin/latency_probe" -threads-per-node "$threads" "${latency_args[@]}"
  done
done
run ring_probe "$bin/ring_probe" "${ring_args[@]}"
run idle_probe "$bin/idle_probe" -threads-per-node 3 "${idle_args[@]}"
for balance in off on; do
  run "balance_probe balance $balance" "$bin/balance_probe" -threads-per-node 3 -balance "$balance" \
    "${balance_args[@]}"
done
run "savina all" "$bin/savina" -threads-per-node 3 "${savina_args[@]}"
run "savina ping-pong same worker" "$bin/savina" -threads-per-node 3 -benchmark ping-pong \
  -ping-pong-placement same "${savina_args[@]}"
# The floor's two threads are pinned to two cores; unpinned, Linux at times runs both workers
# on one core, and each round trip then waits for a preemption or a yield (microseconds). So
# the target compares the engine pinned with the floor pinned, and the unpinned run is shown
# beside it (breakdown-ping-pong-unpinned-...).
run "savina ping-pong pinned" "$bin/savina" -threads-per-node 3 -benchmark ping-pong -pin \
  "${savina_args[@]}"
scaling_args=(-repetitions "$repetitions" -out "$out")
[ -z "$quick" ] || scaling_args+=(-- "${latency_args[@]}")
run scaling env XENON_BIN="$bin" "$(dirname "$0")/scaling/scaling.sh" "${scaling_args[@]}"

# ---- Summary: the engine's targets, as ratios of figures from this run ----
value() {  # value NAME: the first value of counter NAME in the report
  awk -v name="$1" '$1 == "PERFORMANCE_COUNTER" && $2 == name { print $4; exit }' "$report"
}
latency_median() {  # latency_median THREADS NAME: median over this run's latency_probe runs
  awk -v t="$2" -v name="$1" '
    /^# latency_probe run/ { current = ($6 == t ":") } /^# / && !/^# latency_probe run/ { current = 0 }
    current && $2 == name { print $4 }' "$report" |
    sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
# target NAME VALUE OP LIMIT UNIT: prints the figure and whether it meets the target.
target() {
  local verdict
  verdict=$(awk -v v="$2" -v op="$3" -v l="$4" 'BEGIN {
    if (v == "") { print "not measured"; exit }
    ok = (op == "<=") ? (v <= l) : (v >= l); print ok ? "met" : "MISSED" }')
  printf 'PERFORMANCE_COUNTER %s = %s %s (target %s %s: %s)\n' "$1" "${2:-?}" "$5" "$3" "$4" \
    "$verdict" | tee -a "$report"
}
value_in() {  # value_in TITLE NAME: counter NAME in the output of the run titled TITLE
  awk -v title="# $1:" -v name="$2" '
    /^# / { current = (index($0, title) == 1) } current && $1 == "PERFORMANCE_COUNTER" && $2 == name { print $4; exit }' \
    "$report"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.3f", a / b }'; }

# The floor: the fastest repetition of the cache-line round trip. Noise (other processes on
# the cores) only ever adds to it, so its minimum is the best estimate of the hardware; the
# engine's figures are medians, so a noisy run errs against the engine, never for it.
cacheline=$(value cacheline-round-trip-min)
lp1=$(latency_median computation-throughput 1)
lp3=$(latency_median computation-throughput 3)
lp3_latency=$(latency_median worker-latency 3)
ping_pong=$(value_in "savina ping-pong pinned" savina-ping-pong-different-workers-round-trip)
ping_pong_unpinned=$(value savina-ping-pong-different-workers-round-trip)
idle=$(value idle-cpu-fraction-of-one-core)
{
  echo
  echo "# summary: the engine's targets, measured in this run (latency_probe: median of $repetitions)"
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" -v c="$(nproc)" 'BEGIN { exit !(l > c / 2) }'; then
    echo "# warning: load average $load on $(nproc) cores: other processes shared the cores; figures are noisy"
  fi
  echo "PERFORMANCE_COUNTER cacheline-round-trip-min-this-run = $cacheline ns"
  echo "PERFORMANCE_COUNTER latency-probe-1-thread-throughput = $lp1 messages / s"
  echo "PERFORMANCE_COUNTER latency-probe-3-threads-throughput = $lp3 messages / s"
  echo "PERFORMANCE_COUNTER latency-probe-3-threads-worker-latency = $lp3_latency ns"
  echo "PERFORMANCE_COUNTER savina-ping-pong-different-workers-pinned-round-trip-this-run = $ping_pong ns"
  echo "PERFORMANCE_COUNTER savina-ping-pong-different-workers-unpinned-round-trip-this-run = $ping_pong_unpinned ns"
} | tee -a "$report"
target target-latency-probe-1-thread-million-messages-per-s \
  "$(ratio "$lp1" 1000000)" ">=" 20 "M messages / s"
target target-latency-probe-3-threads-million-messages-per-s \
  "$(ratio "$lp3" 1000000)" ">=" 30 "M messages / s"
target target-latency-probe-3-threads-worker-latency-over-cacheline-round-trip \
  "$(ratio "$lp3_latency" "$cacheline")" "<=" 3 "x"
target target-savina-ping-pong-different-workers-pinned-round-trip-over-cacheline-round-trip \
  "$(ratio "$ping_pong" "$cacheline")" "<=" 2 "x"
target target-idle-cpu-percent-of-one-core "$(ratio "$idle" 0.01)" "<=" 2 "%"
# Where a cross-worker round trip goes: the bare ring's round trip (the same SpscRing, no
# engine) and the engine's same-worker round trip (no crossing) bracket the engine's one;
# context switches per round trip show time lost to the scheduler (yield, park).
ring_trip=$(value ring-xenon-round-trip-8B)
ping_pong_p50=$(value_in "savina ping-pong pinned" savina-ping-pong-different-workers-round-trip-p50)
same_worker=$(value savina-ping-pong-same-worker-round-trip)
pings=$(awk '$2 == "savina-ping-pong-different-workers-message-count" { print $4 / 2; exit }' "$report")
switches=$(value_in "savina ping-pong pinned" savina-ping-pong-different-workers-involuntary-context-switches)
switches_unpinned=$(value savina-ping-pong-different-workers-involuntary-context-switches)
{
  echo
  echo "# where the time goes: Savina ping-pong across workers against its floors (same run)"
  echo "PERFORMANCE_COUNTER breakdown-bare-spsc-ring-round-trip-over-cacheline-round-trip = $(ratio "$ring_trip" "$cacheline") x"
  echo "PERFORMANCE_COUNTER breakdown-ping-pong-p50-round-trip-over-cacheline-round-trip = $(ratio "$ping_pong_p50" "$cacheline") x"
  echo "PERFORMANCE_COUNTER breakdown-ping-pong-mean-over-p50-round-trip = $(ratio "$ping_pong" "$ping_pong_p50") x"
  echo "PERFORMANCE_COUNTER breakdown-ping-pong-same-worker-round-trip = $same_worker ns"
  echo "PERFORMANCE_COUNTER breakdown-ping-pong-involuntary-context-switches-per-round-trip = $(ratio "$switches" "$pings")"
  echo "PERFORMANCE_COUNTER breakdown-ping-pong-unpinned-round-trip-over-cacheline-round-trip = $(ratio "$ping_pong_unpinned" "$cacheline") x"
  echo "PERFORMANCE_COUNTER breakdown-ping-pong-unpinned-involuntary-context-switches-per-round-trip = $(ratio "$switches_unpinned" "$pings")"
} | tee -a "$report"
echo "# load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$report"

echo "bench: wrote $report, $out/scaling.csv, $out/scaling.png"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: failed: ${failed[*]}" | tee -a "$report" >&2
  exit 1
fi
