#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The figures of `make bench` that a change to the message path could move, side by side in
# one run: BASE_BIN (a directory with latency_probe and savina built from an earlier commit)
# against this tree's, with load balancing off and on, interleaved REPETITIONS times so that
# the machine's swings fall on all three alike. Prints, per workload, the median of each and
# the ratios to BASE (throughput: higher is better) and of balancing on to off.
#   performance/bench_compare.sh BASE_BIN [REPETITIONS]       (default 5)
# Workloads: latency_probe -threads-per-node 1 and 3 (computation-throughput, messages/s),
# and each Savina benchmark with -threads-per-node 3 (messages / elapsed-time).
set -euo pipefail
if [ $# -lt 1 ] || [ ! -x "$1/latency_probe" ] || [ ! -x "$1/savina" ]; then
  echo "usage: $0 BASE_BIN [REPETITIONS]: BASE_BIN must hold executable latency_probe and savina" >&2
  exit 2
fi
base=$1
repetitions=${2:-5}
[[ $repetitions =~ ^[1-9][0-9]*$ ]] || { echo "$0: REPETITIONS must be a whole number of at least 1, got '$repetitions'" >&2; exit 2; }
ours=${XENON_BIN:-build/release/bin}
benchmarks=(ping-pong thread-ring counting fork-join-throughput big chameneos)

latency() {  # latency() BIN THREADS [OPTIONS...]: messages/s
  "$1/latency_probe" -threads-per-node "$2" "${@:3}" --quiet | awk '/computation-throughput/ {print $4}'
}
savina() {  # savina() BIN BENCHMARK [OPTIONS...]: messages/s of one repetition
  "$1/savina" -threads-per-node 3 -repetitions 1 -benchmark "$2" "${@:3}" |
    awk -v b="$2" '$2 ~ "-throughput$" && $2 ~ b {print $4; exit}'
}
for ((run = 1; run <= repetitions; ++run)); do
  for threads in 1 3; do
    echo "latency-t$threads base $(latency "$base" "$threads")"
    echo "latency-t$threads off $(latency "$ours" "$threads" -balance off)"
    echo "latency-t$threads on $(latency "$ours" "$threads" -balance on)"
  done
  for benchmark in "${benchmarks[@]}"; do
    echo "savina-$benchmark base $(savina "$base" "$benchmark")"
    echo "savina-$benchmark off $(savina "$ours" "$benchmark" -balance off)"
    echo "savina-$benchmark on $(savina "$ours" "$benchmark" -balance on)"
  done
done | python3 -c '
import statistics, sys
runs = {}
order = []
for line in sys.stdin:
    workload, kind, *value = line.split()
    if not value:
        sys.exit(f"bench_compare: {workload} ({kind}) printed no throughput")
    if workload not in runs:
        order.append(workload)
    runs.setdefault(workload, {}).setdefault(kind, []).append(float(value[0]))
print("| workload | base msgs/s | off msgs/s | on msgs/s | off / base | on / base | on / off |")
print("|---|---|---|---|---|---|---|")
for workload in order:
    m = {kind: statistics.median(values) for kind, values in runs[workload].items()}
    base, off, on = m["base"], m["off"], m["on"]
    print(f"| {workload} | {base:,.0f} | {off:,.0f} | {on:,.0f} | "
          f"{off / base:.3f} | {on / base:.3f} | {on / off:.3f} |")
'
