#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# plot_latency.sh: latency_probe's throughput and round-trip latency against
# -threads-per-node, as a PNG (gnuplot). Runs latency_probe R times for each value in LIST,
# interleaved, each writing its counters with --counters-csv, and keeps the medians in
# latency.csv; -from replots such a CSV without running anything. Arguments after -- go to
# every latency_probe run.
#
#   performance/plot_latency.sh [-threads LIST] [-repetitions R] [-out DIR] [-- ARGS]
#   performance/plot_latency.sh -from CSV [-out DIR]
#   LIST is comma-separated (default 1,2,...,cores+1), R defaults to 3, DIR to results.
set -euo pipefail

program=plot_latency.sh
bin=${XENON_BIN:-build/release/bin}
cores=$(nproc)
threads=$(seq -s, 1 $((cores + 1)))
repetitions=3
out=results
from=
probe_args=()

fail() {  # fail MESSAGE: one-line error, exit 2 (bad use)
  echo "$program: error: $1" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
    -threads | --threads) [ $# -ge 2 ] || fail "option $1 needs a value"
      [[ $2 =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
        fail "option $1 expects a comma-separated list of integers >= 1, got '$2'"
      threads=$2; shift 2 ;;
    -repetitions | --repetitions) [ $# -ge 2 ] || fail "option $1 needs a value"
      [[ $2 =~ ^[1-9][0-9]*$ ]] || fail "option $1 expects an integer >= 1, got '$2'"
      repetitions=$2; shift 2 ;;
    -out | --out) [ $# -ge 2 ] || fail "option $1 needs a value"; out=$2; shift 2 ;;
    -from | --from) [ $# -ge 2 ] || fail "option $1 needs a value"
      [ -f "$2" ] || fail "option $1: no file '$2'"; from=$2; shift 2 ;;
    -h | -help | --help)
      sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
      exit 0 ;;
    --) shift; probe_args=("$@"); break ;;
    *) fail "unknown option '$1'" ;;
  esac
done
command -v gnuplot > /dev/null || fail "gnuplot not found (apt-get install gnuplot-nox)"
mkdir -p "$out"
csv=$out/latency.csv
png=$out/latency.png
header=threads_per_node,throughput_median,throughput_min,throughput_max,round_trip_p50_ns,round_trip_p99_ns

if [ -n "$from" ]; then
  [ "$(head -n 1 "$from")" = "$header" ] || fail "$from is not a latency.csv (header: $header)"
  [ "$(realpath "$from")" = "$(realpath -m "$csv")" ] || cp "$from" "$csv"
else
  [ -x "$bin/latency_probe" ] || fail "$bin/latency_probe not found (build it, or set XENON_BIN)"
  runs=$(mktemp -d)
  trap 'rm -rf "$runs"' EXIT
  IFS=, read -r -a thread_list <<< "$threads"
  for ((r = 1; r <= repetitions; r++)); do
    for t in "${thread_list[@]}"; do
      # latency_probe checks its own counts and exits non-zero if any differ: so do we.
      "$bin/latency_probe" -threads-per-node "$t" --quiet --counters-csv "$runs/$t-$r.csv" \
        "${probe_args[@]}" > /dev/null
    done
  done
  counter() {  # counter THREADS NAME: that counter's value in every run with THREADS
    awk -F, -v name="$2" '$1 == name { print $2 }' "$runs/$1"-*.csv
  }
  stats() {  # values on stdin: "median min max" after a numeric sort
    sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'
  }
  echo "$header" > "$csv.tmp"
  for t in "${thread_list[@]}"; do
    read -r median minimum maximum <<< "$(counter "$t" computation-throughput | stats)"
    read -r p50 _ _ <<< "$(counter "$t" round-trip-p50-ns | stats)"
    read -r p99 _ _ <<< "$(counter "$t" round-trip-p99-ns | stats)"
    echo "$t,$median,$minimum,$maximum,$p50,$p99" >> "$csv.tmp"
  done
  mv "$csv.tmp" "$csv"
fi

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || true)
gnuplot <<GNUPLOT
set terminal pngcairo size 1200,500 font "sans,11"
set output "$png.tmp"
set datafile separator ","
set multiplot layout 1,2 title "latency_probe on ${cpu:-unknown CPU}, $cores cores (median; bars: min to max)" noenhanced
set xlabel "-threads-per-node (N >= 2: N-1 workers + 1 communication thread)"
set grid
set key top left
set xtics 1
set offsets 0.3, 0.3, 0, 0
set yrange [0:*]
set ylabel "computation-throughput (million messages / s)"
plot "$csv" using 1:(\$2/1e6):(\$3/1e6):(\$4/1e6) skip 1 with yerrorlines lw 2 pt 7 title "throughput"
set ylabel "sampled ping round trip (ns)"
plot "$csv" using 1:5 skip 1 with linespoints lw 2 pt 7 title "p50", \
     "$csv" using 1:6 skip 1 with linespoints lw 2 pt 5 title "p99"
unset multiplot
GNUPLOT
mv "$png.tmp" "$png"
echo "$program: wrote $csv and $png"
cat "$csv"
