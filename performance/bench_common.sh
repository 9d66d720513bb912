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

# The mock community: five bacteria from the ragout examples at depths 10x to 60x (6x
# apart), two of them strains of one species (H. pylori G27 and ELS37: 95.4% identity over
# 94.5% of ELS37, minimap2 asm20, gap-compressed). "NAME GENOME DEPTH SEED" each; the seeds keep
# the data set the same from one generation to the next.
RAGOUT_EXAMPLES=/usr/share/doc/ragout/examples
COMMUNITY_GENOMES=(
  "hpylori_G27 $RAGOUT_EXAMPLES/H.Pylori/references/G27.fasta.gz 60 42"
  "hpylori_ELS37 $RAGOUT_EXAMPLES/H.Pylori/references/ELS37.fasta.gz 10 43"
  "saureus_N315 $RAGOUT_EXAMPLES/S.Aureus/references/N315.fasta.gz 30 44"
  "vcholerae_N16961 $RAGOUT_EXAMPLES/V.Cholerae/references/O1_biovar.fasta.gz 20 45"
  "ecoli_MG1655 $RAGOUT_EXAMPLES/E.Coli/references/MG1655-K12.fasta.gz 10 46")

# simulate_community_reads DIR: 2x150 ART reads of every COMMUNITY_GENOMES genome at its depth
# (as simulate_ecoli_reads), mixed into DIR/reads_{1,2}.fq (once; kept for later runs), and
# each genome as its own reference, DIR/NAME.fa, its sequences named NAME_1, NAME_2 (the
# read names ART derives from them stay unique across genomes).
simulate_community_reads() {
  local dir=$1 entry name genome depth seed
  mkdir -p "$dir"
  for entry in "${COMMUNITY_GENOMES[@]}"; do
    read -r name genome depth seed <<< "$entry"
    [ -s "$genome" ] || { echo "$PROGRAM: $genome is missing: run make deps-dev (ragout-examples)" >&2; exit 2; }
    [ -s "$dir/$name.fa" ] ||
      zcat "$genome" | awk -v name="$name" '/^>/ { print ">" name "_" ++n; next } { print }' > "$dir/$name.fa"
  done
  [ -s "$dir/reads_2.fq" ] && return
  echo "$PROGRAM: simulating 2x150 reads of a mock community of ${#COMMUNITY_GENOMES[@]} genomes with ART"
  rm -f "$dir/reads_1.fq.partial" "$dir/reads_2.fq.partial"
  for entry in "${COMMUNITY_GENOMES[@]}"; do
    read -r name genome depth seed <<< "$entry"
    art_illumina -ss HS25 -i "$dir/$name.fa" -p -l 150 -f "$depth" -m 400 -s 50 -rs "$seed" -na \
      -o "$dir/${name}_reads_" > "$dir/$name.art.log"
    cat "$dir/${name}_reads_1.fq" >> "$dir/reads_1.fq.partial"
    cat "$dir/${name}_reads_2.fq" >> "$dir/reads_2.fq.partial"
    rm "$dir/${name}_reads_1.fq" "$dir/${name}_reads_2.fq"
  done
  # Complete files only under the final names: a run stopped half-way starts again.
  mv "$dir/reads_1.fq.partial" "$dir/reads_1.fq"
  mv "$dir/reads_2.fq.partial" "$dir/reads_2.fq"
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
