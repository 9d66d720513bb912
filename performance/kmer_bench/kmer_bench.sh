#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The k-mer counter against Jellyfish and KMC on the same reads with the same threads, one
# after another in one run. Prints one KMER_BENCH line per run (wall time, peak
# memory, bases per second), the ratios to Xenon, whether the histograms are identical, and
# then Xenon across 2 and 4 MPI processes.
#   performance/kmer_bench/kmer_bench.sh                 40x E. coli K-12, 2x150, k = 31
#   THREADS=2 K=31 DATA_DIR=results/ecoli kmer_bench.sh
# The reads are simulated once with ART over the E. coli genome of the ragout-examples
# package (performance/bench_common.sh) and kept in DATA_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
THREADS=${THREADS:-2}
K=${K:-31}
DATA_DIR=${DATA_DIR:-results/ecoli}
BUILD=${BUILD:-build/release}
PROCESSES=${PROCESSES:-"2 4"}
counter=$BUILD/bin/kmer_counter

for tool in jellyfish kmc kmc_tools art_illumina /usr/bin/time; do
  command -v "$tool" > /dev/null || { echo "kmer_bench: $tool is missing: run make deps" >&2; exit 2; }
done
[ -x "$counter" ] || { echo "kmer_bench: $counter is missing: run make" >&2; exit 2; }

PROGRAM=kmer_bench
# shellcheck source=performance/bench_common.sh
. performance/bench_common.sh
simulate_ecoli_reads "$DATA_DIR"
reads=("$DATA_DIR/reads_1.fq" "$DATA_DIR/reads_2.fq")
bases=$(awk 'NR % 4 == 2 { total += length($0) } END { print total }' "${reads[@]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# report NAME COMMAND...: measure (bench_common.sh), then its KMER_BENCH line.
report() {
  local name=$1
  measure "$@"
  awk -v name="$name" -v wall="${wall[$name]}" -v mb="${peak[$name]}" -v bases="$bases" \
    'BEGIN { printf "KMER_BENCH tool=%s wall_s=%.2f peak_mb=%d bases_per_s=%.1fM\n", name, wall, mb, bases / wall / 1e6 }'
}
# The histogram without zero lines, "count kmers" with one space.
normalise() { awk '$2 != 0 { print $1, $2 }' "$1"; }

echo "kmer_bench: $(nproc) cores, k=$K, $THREADS threads, $bases bases in ${reads[*]}"
# -threads-per-node counts the communication thread too: THREADS workers need THREADS + 1.
report xenon "$counter" --quiet -threads-per-node $((THREADS + 1)) -k "$K" -o "$work/xenon" "${reads[@]}"
report jellyfish jellyfish count -C -m "$K" -s 100M -t "$THREADS" -o "$work/jf.jf" "${reads[@]}"
jellyfish histo "$work/jf.jf" > "$work/jellyfish.histo"
rm -f "$work/jf.jf"
printf '%s\n' "${reads[@]}" > "$work/kmc.list"
mkdir -p "$work/kmc.tmp"
# -ci1 -cs4294967295: count every k-mer, without KMC's default cap, as Jellyfish does.
report kmc kmc -k"$K" -t"$THREADS" -ci1 -cs4294967295 -fq "@$work/kmc.list" "$work/kmc" "$work/kmc.tmp"
# (KMC lists counts 1 to 10000, as Jellyfish before its line for higher counts.)
kmc_tools transform "$work/kmc" histogram "$work/kmc.histo" > /dev/null 2>&1

same=yes
normalise "$work/xenon/histogram.txt" > "$work/xenon.h"
for other in jellyfish kmc; do
  normalise "$work/$other.histo" > "$work/$other.h"
  if cmp -s "$work/xenon.h" "$work/$other.h"; then
    echo "KMER_BENCH histogram xenon = $other: identical"
  else
    echo "KMER_BENCH histogram xenon = $other: DIFFERENT"
    same=no
  fi
done
for other in jellyfish kmc; do
  awk -v o="$other" -v tw="${wall[$other]}" -v xw="${wall[xenon]}" -v tm="${peak[$other]}" -v xm="${peak[xenon]}" \
    'BEGIN { printf "KMER_BENCH ratio %s/xenon: time %.2fx, memory %.2fx\n", o, tw / xw, tm / xm }'
done

if [ -n "$PROCESSES" ] && command -v mpiexec > /dev/null; then
  for processes in $PROCESSES; do
    name=xenon-${processes}p
    # Each process: one worker and its communication thread, all on the same cores.
    report "$name" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      OMPI_MCA_mpi_yield_when_idle=1 mpiexec --oversubscribe --bind-to none -n "$processes" \
      "$counter" --quiet -threads-per-node 2 -k "$K" -o "$work/$name" "${reads[@]}"
    if cmp -s "$work/$name/histogram.txt" "$work/xenon/histogram.txt" &&
       cmp -s "$work/$name/summary.json" "$work/xenon/summary.json"; then
      echo "KMER_BENCH $name output = xenon output: identical"
    else
      echo "KMER_BENCH $name output = xenon output: DIFFERENT"
      same=no
    fi
  done
fi
if [ "$same" = yes ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
[ "$same" = yes ]
