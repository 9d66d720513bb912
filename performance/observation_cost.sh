#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What the engine's counters and --trace cost latency_probe: BASE (a latency_probe built
# from a commit before them) and this tree's, interleaved, REPETITIONS times for
# -threads-per-node 1 and 3: without and with --trace. Prints the median
# computation-throughput of each and the ratios to BASE.
#   performance/observation_cost.sh BASE_LATENCY_PROBE [REPETITIONS]
set -euo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 BASE_LATENCY_PROBE [REPETITIONS]: BASE must be an executable latency_probe" >&2
  exit 2
fi
base=$1
repetitions=${2:-9}
ours=${XENON_BIN:-build/release/bin}/latency_probe
trace=$(mktemp /tmp/observation-cost-XXXXXX.json)
trap 'rm -f "$trace"' EXIT
throughput() { "$@" --quiet | awk '/computation-throughput/ {print $4}'; }
for threads in 1 3; do
  for ((run = 1; run <= repetitions; ++run)); do
    echo "$threads base $(throughput "$base" -threads-per-node "$threads")"
    echo "$threads counters $(throughput "$ours" -threads-per-node "$threads")"
    echo "$threads trace $(throughput "$ours" -threads-per-node "$threads" --trace "$trace")"
  done
done | python3 -c '
import statistics, sys
runs = {}
for line in sys.stdin:
    threads, kind, value = line.split()
    runs.setdefault(threads, {}).setdefault(kind, []).append(float(value))
for threads, kinds in runs.items():
    median = {kind: statistics.median(values) for kind, values in kinds.items()}
    base = median["base"]
    print(f"-threads-per-node {threads}: " + ", ".join(
        f"{kind} {value / 1e6:.2f} M/s ({value / base:.3f}x)" for kind, value in median.items()))
'
