#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Reproduces the README's results table in one run: latency_probe for -threads-per-node 1,
# 2 and 3 (default workload, repetitions interleaved, median reported) and ring_probe
# (ours against Boost). Prints markdown rows and the raw counters to results/.
set -euo pipefail
bin=${XENON_BIN:-build/release/bin}
repetitions=${REPETITIONS:-5}
out=${RESULTS_DIR:-results}
mkdir -p "$out"
raw="$out/latency_probe.txt"
: > "$raw"
for ((r = 1; r <= repetitions; r++)); do
  for threads in 1 2 3; do
    echo "# run $r threads-per-node $threads" >> "$raw"
    "$bin/latency_probe" -threads-per-node "$threads" >> "$raw"
  done
done
echo "| latency_probe -threads-per-node | workers | computation-throughput (median of $repetitions) | worker-latency | round-trip p50 |"
echo "|---|---|---|---|---|"
# median VALUES...: the middle value after a numeric sort
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
counter() {  # counter THREADS NAME: that counter's value in every run with THREADS
  awk -v t="$1" -v name="$2" '/^# run/ { current = $5 } current == t && $2 == name { print $4 }' "$raw"
}
for threads in 1 2 3; do
  workers=$(counter "$threads" worker-count-per-node | head -n 1)
  throughput=$(median $(counter "$threads" computation-throughput))
  latency=$(median $(counter "$threads" worker-latency))
  round_trip=$(median $(counter "$threads" round-trip-p50-ns))
  printf '| %d | %d | %.1f M messages/s | %d ns | %d ns |\n' "$threads" "$workers" \
    "$(awk -v x="$throughput" 'BEGIN { print x / 1e6 }')" "$latency" "$round_trip"
done
echo
"$bin/ring_probe" -repetitions "$repetitions" | tee "$out/ring_probe.txt"
echo
"$bin/idle_probe" -threads-per-node 3 | tee "$out/idle_probe.txt"
