# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash disable=SC2034,SC2154  # wall, peak are read by the caller; work is the caller's
# Sourced by the genomics benchmarks (performance/kmer_bench, performance/assembly_bench):
# the simulated E. coli reads they share, and timing a run. The caller sets PROGRAM (its name
# in messages) and work (a scratch directory) before calling these.

ECOLI_GENOME=/usr/share/doc/ragout/examples/E.Coli/references/MG1655-K12.fasta.gz

# simulate_ecoli_reads DIR [COVERAGE]: 2x150 ART reads at COVERAGE (default 40) x over E. coli
# K-12 MG1655 into DIR/reads_{1,2}.fq (once; kept for later runs: one DIR per coverage) and
# the genome into DIR/genome.fa.
simulate_ecoli_reads() {
  local dir=$1 coverage=${2:-40}
  mkdir -p "$dir"
  if [ ! -s "$dir/reads_2.fq" ]; then
    [ -s "$ECOLI_GENOME" ] || { echo "$PROGRAM: $ECOLI_GENOME is missing: run make deps" >&2; exit 2; }
    echo "$PROGRAM: simulating 2x150 reads at ${coverage}x over E. coli K-12 MG1655 with ART"
    zcat "$ECOLI_GENOME" > "$dir/genome.fa"
    art_illumina -ss HS25 -i "$dir/genome.fa" -p -l 150 -f "$coverage" -m 400 -s 50 -rs 42 -na \
      -o "$dir/reads_" > "$dir/art.log"
  fi
  [ -s "$dir/genome.fa" ] || zcat "$ECOLI_GENOME" > "$dir/genome.fa"
}

# measure NAME COMMAND...: runs it with its output in $work/NAME.log, and records its wall
# seconds in wall[NAME] and its peak resident memory (MB) in peak[NAME]; a failure ends the
# benchmark with the end of that log.
declare -A wall peak
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/$name.log" 2>&1 ||
    { echo "$PROGRAM: $name failed; the end of its log:" >&2; tail -n 30 "$work/$name.log" >&2; exit 1; }
  read -r "wall[$name]" kilobytes < "$work/time"
  peak[$name]=$((kilobytes / 1024))
}
