#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Node-to-node figures through Xenon actors against plain MPI, in one run, over shared
# memory and over TCP loopback: one-way latency and streaming bandwidth per payload size
# with the ratio Xenon / MPI, the half-bandwidth size n_1/2 of each, and the 8-byte message
# rate with aggregation on and off. Usage: [REPETITIONS=N] performance/node_probe/compare.sh
# [RESULTS_DIR]. With REPETITIONS > 1 the three programs run N times, interleaved, and every
# figure is the median of its N values (this machine's noise swings single runs by 2x).
set -euo pipefail
bin=${XENON_BIN:-build/release/bin}
out=${1:-results}
repetitions=${REPETITIONS:-1}
[[ $repetitions =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: REPETITIONS must be a positive integer" >&2; exit 2; }
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Two ranks of one thread each on two cores do not oversubscribe, so neither program is told
# to yield when idle (Open MPI's default here): a sched_yield in every empty poll would
# add a system call to each side of every round trip, MPI's and ours alike.
mpirun_flags=(--oversubscribe --bind-to none --timeout 300 -n 2)
declare -A transports=([shared-memory]="--mca btl self,vader"
                       [tcp]="--mca btl self,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo")

value() { awk -v name="$2" '$2 == name { print $4 }' "$1"; }

for transport in shared-memory tcp; do
  read -r -a mca <<<"${transports[$transport]}"
  runs="$out/node_probe-$transport-runs.txt"
  raw="$out/node_probe-$transport.txt"
  : > "$runs"
  for ((run = 1; run <= repetitions; run++)); do
    {
      mpirun "${mpirun_flags[@]}" "${mca[@]}" "$bin/raw_mpi_probe"
      mpirun "${mpirun_flags[@]}" "${mca[@]}" "$bin/node_probe" -threads-per-node 1
      mpirun "${mpirun_flags[@]}" "${mca[@]}" "$bin/node_probe" -threads-per-node 1 \
        -aggregation-bytes 0 | sed 's/xenon-/xenon-unaggregated-/'
    } >> "$runs"
  done
  # One line per counter, its median over the runs, in the probes' own format.
  awk '$1 == "PERFORMANCE_COUNTER" {
         if (!($2 in count)) order[++names] = $2
         values[$2, ++count[$2]] = $4; unit[$2] = ""
         for (i = 5; i <= NF; i++) unit[$2] = unit[$2] " " $i }
       END { for (k = 1; k <= names; k++) {
               name = order[k]; n = count[name]
               for (i = 1; i <= n; i++) sorted[i] = values[name, i] + 0
               for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
               median = (n % 2) ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
               printf "PERFORMANCE_COUNTER %s = %.3f%s\n", name, median, unit[name] } }' "$runs" > "$raw"
  echo "## $transport (medians of $repetitions run(s): $raw; every run: $runs)"
  echo "| payload | MPI one-way | Xenon one-way | Xenon / MPI | MPI stream | Xenon stream | Xenon / MPI |"
  echo "|---|---|---|---|---|---|---|"
  for size in 0 8 64 512 4096 32768 262144 1048576 4194304; do
    ml=$(value "$raw" "mpi-one-way-latency-$size-bytes"); xl=$(value "$raw" "xenon-one-way-latency-$size-bytes")
    mb=$(value "$raw" "mpi-stream-bandwidth-$size-bytes"); xb=$(value "$raw" "xenon-stream-bandwidth-$size-bytes")
    awk -v s="$size" -v ml="$ml" -v xl="$xl" -v mb="${mb:-0}" -v xb="${xb:-0}" 'BEGIN {
      bw = (mb > 0) ? sprintf("%.0f MB/s | %.0f MB/s | %.2f", mb, xb, xb / mb) : "- | - | -"
      printf "| %d B | %.2f us | %.2f us | %.2f | %s |\n", s, ml / 1000, xl / 1000, xl / ml, bw }'
  done
  for who in mpi xenon; do
    # n_1/2: the smallest size whose streaming bandwidth reaches half the peak.
    awk -v who="$who" '$2 ~ "^" who "-stream-bandwidth-" {
        split($2, parts, "-"); size = parts[4] + 0; bw[size] = $4; if ($4 > peak) peak = $4 }
      END { n = 0; for (s in bw) sizes[++n] = s + 0
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sizes[j] < sizes[i]) { t = sizes[i]; sizes[i] = sizes[j]; sizes[j] = t }
            for (i = 1; i <= n; i++) if (bw[sizes[i]] >= peak / 2) { printf "%s: peak %.0f MB/s, n_1/2 = %d B\n", who, peak, sizes[i]; exit } }' "$raw"
  done
  mr=$(value "$raw" mpi-8-byte-message-rate); xr=$(value "$raw" xenon-8-byte-message-rate)
  ur=$(value "$raw" xenon-unaggregated-8-byte-message-rate)
  awk -v mr="$mr" -v xr="$xr" -v ur="$ur" 'BEGIN {
    printf "8-byte message rate: MPI %.2f M/s, Xenon aggregated %.2f M/s, Xenon one message per frame %.2f M/s (aggregation gains %.1fx)\n\n", mr / 1e6, xr / 1e6, ur / 1e6, xr / ur }'
done
