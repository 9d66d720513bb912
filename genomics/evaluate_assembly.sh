#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Evaluates an assembly against its known reference, as QUAST would (QUAST is not packaged):
#   genomics/evaluate_assembly.sh CONTIGS.fasta REFERENCE.fasta[.gz]... [--min-contig 500]
# Prints one line per metric, "ASSEMBLY_METRIC name = value": contig count, total length,
# largest contig, N50 and NG50 of the contigs of at least --min-contig bp; genome fraction,
# duplication ratio, NGA50 and misassemblies (relocations, translocations, inversions) from
# the primary alignments of minimap2 -cx asm5 (with several references, a community, also
# per reference file); and, when MUMmer is installed, dnadiff's figures as a cross-check.
# Scaffolds are judged as QUAST judges them: every figure of the whole scaffolds (n50 is then
# the scaffold N50, and parts of one scaffold placed in the wrong order, orientation or
# distance are misassemblies), and scaffold_gaps, broken_contigs and broken_n50 of the
# scaffolds cut at runs of 10 N or more; with gaps, how well they are sized: the bases each
# side of a gap aligned on their own, scaffold_gaps_placed (gaps whose sides lie in order on
# one reference sequence) and the median and largest difference between a gap's N and the
# bases between its sides there (scaffold_gap_error_median, scaffold_gap_error_max).
# The arithmetic is in genomics/assembly_metrics.py. Bad use or input: one line on stderr, exit
# status 2 or 1.
set -euo pipefail

program=evaluate_assembly
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
  cat <<EOF
usage: $0 CONTIGS.fasta REFERENCE.fasta[.gz]... [--min-contig BP]
  Aligns the contigs of at least BP bp (default 500) to the reference(s) with minimap2 -cx asm5
  and prints "ASSEMBLY_METRIC name = value" lines (see genomics/README.md). CONTIGS may be
  scaffolds (gaps: runs of 10 N or more): see broken_n50. Several reference
  files are a community (one genome each): every metric is over all of them, and genome
  fraction, duplication ratio and NGA50 are given for each file too.
EOF
  exit 0
}

# Bad use: exit status 2; bad input: exit status 1; one line either way.
usage_error() {
  echo "$program: error: $* (see --help)" >&2
  exit 2
}

fail() {
  echo "$program: error: $*" >&2
  exit 1
}

min_contig=500
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage ;;
    --min-contig)
      [ $# -ge 2 ] || usage_error "--min-contig needs a length in bp"
      min_contig=$2
      shift 2
      ;;
    --min-contig=*) min_contig=${1#--min-contig=}; shift ;;
    -*) usage_error "unknown option '$1'" ;;
    *) files+=("$1"); shift ;;
  esac
done
[ ${#files[@]} -ge 2 ] ||
  usage_error "expected CONTIGS.fasta and at least one REFERENCE.fasta[.gz], got ${#files[@]} file(s)"
contigs=${files[0]}
references=("${files[@]:1}")
[[ "$min_contig" =~ ^[0-9]+$ ]] ||
  usage_error "--min-contig must be a whole number of bp, got '$min_contig'"
for file in "${files[@]}"; do
  [ -e "$file" ] || fail "$file: no such file"
  if [ ! -f "$file" ] || [ ! -r "$file" ]; then fail "$file: not a readable file"; fi
  [ -s "$file" ] || fail "$file: empty (no FASTA record)"
done
command -v python3 >/dev/null || fail "python3 is not installed"
command -v minimap2 >/dev/null || fail "minimap2 is not installed (Debian package minimap2)"

work=$(mktemp -d "${TMPDIR:-/tmp}/evaluate-assembly-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Contig metrics; writes the kept contigs and the decompressed reference into $work.
python3 "$here/assembly_metrics.py" prepare "$min_contig" "$contigs" "$work" "${references[@]}" \
  >"$work/contig_metrics"
cat "$work/contig_metrics"

# minimap2 aligns the kept contigs (target: the reference); PAF with CIGAR (-c), so that the
# primary alignments carry exact coordinates. Its own chatter goes to a log shown on failure.
if ! minimap2 -cx asm5 -t 2 "$work/reference.fa" "$work/contigs.fa" \
  >"$work/alignments.paf" 2>"$work/minimap2.log"; then
  fail "minimap2 failed: $(tail -n 1 "$work/minimap2.log")"
fi
python3 "$here/assembly_metrics.py" paf "$work"

# Scaffold gaps: the bases on each side aligned on their own, to see how well each gap's N
# match the bases between its sides on the reference.
if [ -s "$work/gap_flanks.fa" ]; then
  if ! minimap2 -cx asm5 -t 2 "$work/reference.fa" "$work/gap_flanks.fa" \
    >"$work/gap_flanks.paf" 2>"$work/minimap2.log"; then
    fail "minimap2 failed on the gaps' sides: $(tail -n 1 "$work/minimap2.log")"
  fi
  python3 "$here/assembly_metrics.py" gaps "$work"
fi

# The cross-check: dnadiff (nucmer) on the same contigs.
if ! command -v dnadiff >/dev/null; then
  echo "ASSEMBLY_NOTE dnadiff is not installed (Debian package mummer): no dnadiff_ cross-check"
elif grep -q "^ASSEMBLY_METRIC contigs = 0$" "$work/contig_metrics"; then
  echo "ASSEMBLY_NOTE no contig of at least $min_contig bp: no dnadiff_ cross-check"
else
  if ! (cd "$work" && dnadiff -p dnadiff reference.fa contigs.fa) >"$work/dnadiff.log" 2>&1; then
    fail "dnadiff failed: $(tail -n 1 "$work/dnadiff.log")"
  fi
  python3 "$here/assembly_metrics.py" dnadiff "$work/dnadiff.report"
fi
