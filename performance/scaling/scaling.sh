#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scaling.sh: latency_probe throughput against the number of workers, the "knee" graph.
# Runs latency_probe for 1..K workers (1 worker: -threads-per-node 1; W >= 2 workers:
# -threads-per-node W+1, the communication thread included), R times each, interleaved,
# and writes the medians (with minimum and maximum) to scaling.csv and a plot to
# scaling.png (gnuplot). Arguments after -- go to every latency_probe run.
#
#   performance/scaling/scaling.sh [-max-workers K] [-repetitions R] [-out DIR] [-- ARGS]
#   K defaults to the number of cores + 1 (one past the knee), R to 3, DIR to results.
set -euo pipefail

program=scaling.sh
bin=${XENON_BIN:-build/release/bin}
cores=$(nproc)
max_workers=$((cores + 1))
repetitions=3
out=results
probe_args=()

fail() {  # fail MESSAGE: one-line error, exit 2 (bad use)
  echo "$program: error: $1" >&2
  exit 2
}
positive() {  # positive OPTION VALUE: VALUE must be an integer >= 1
  [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] || fail "option $1 expects an integer >= 1, got '$2'"
}
while [ $# -gt 0 ]; do
  case $1 in
    -max-workers | --max-workers) [ $# -ge 2 ] || fail "option $1 needs a value"
      positive "$1" "$2"; max_workers=$2; shift 2 ;;
    -repetitions | --repetitions) [ $# -ge 2 ] || fail "option $1 needs a value"
      positive "$1" "$2"; repetitions=$2; shift 2 ;;
    -out | --out) [ $# -ge 2 ] || fail "option $1 needs a value"; out=$2; shift 2 ;;
    -h | -help | --help)
      sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      exit 0 ;;
    --) shift; probe_args=("$@"); break ;;
    *) fail "unknown option '$1'" ;;
  esac
done
[ -x "$bin/latency_probe" ] || fail "$bin/latency_probe not found (build it, or set XENON_BIN)"
command -v gnuplot >/dev/null || fail "gnuplot not found (apt-get install gnuplot-nox)"

mkdir -p "$out"
raw="$out/scaling-raw.txt"
csv="$out/scaling.csv"
png="$out/scaling.png"
: > "$raw"
threads_for() { if [ "$1" -eq 1 ]; then echo 1; else echo $(($1 + 1)); fi; }
for ((r = 1; r <= repetitions; r++)); do
  for ((w = 1; w <= max_workers; w++)); do
    echo "# run $r workers $w" >> "$raw"
    # latency_probe checks its own counts and exits non-zero if any differ: so do we.
    "$bin/latency_probe" -threads-per-node "$(threads_for "$w")" "${probe_args[@]}" >> "$raw"
  done
done

counter() {  # counter WORKERS NAME: that counter's value in every run with WORKERS workers
  awk -v w="$1" -v name="$2" '/^# run/ { current = $5 } current == w && $2 == name { print $4 }' "$raw"
}
stats() {  # stats VALUES...: "median min max" after a numeric sort
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'
}
echo "workers,threads_per_node,throughput_median,throughput_min,throughput_max,worker_latency_ns_median,cores" > "$csv"
for ((w = 1; w <= max_workers; w++)); do
  read -r median minimum maximum <<< "$(stats $(counter "$w" computation-throughput))"
  read -r latency _ _ <<< "$(stats $(counter "$w" worker-latency))"
  echo "$w,$(threads_for "$w"),$median,$minimum,$maximum,$latency,$cores" >> "$csv"
done

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
gnuplot <<GNUPLOT
set terminal pngcairo size 900,600 font "sans,11"
set output "$png"
set datafile separator ","
set title "latency_probe throughput against workers (median of $repetitions; bars: min to max)\n${cpu:-unknown CPU}, $cores cores" noenhanced
set xlabel "workers (-threads-per-node = workers + 1 from 2 workers on)"
set ylabel "computation-throughput (million messages / s)"
set key top left
set grid
set xrange [0.5:$max_workers + 0.5]
set xtics 1
set yrange [0:*]
one = system("awk -F, 'NR == 2 { print \$3 }' $csv") + 0
set arrow from $cores + 0.5, graph 0 to $cores + 0.5, graph 1 nohead dashtype 2 lc rgb "gray40"
set label "$cores cores" at $cores + 0.55, graph 0.95 tc rgb "gray40"
plot "$csv" using 1:(\$3/1e6):(\$4/1e6):(\$5/1e6) skip 1 with yerrorlines lw 2 pt 7 title "measured", \
     "$csv" using 1:(one * \$1 / 1e6) skip 1 with lines dashtype 3 lc rgb "gray50" title "linear from 1 worker"
GNUPLOT
echo "$program: wrote $csv and $png"
cat "$csv"
