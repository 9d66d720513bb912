#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Makes the genomics test data set (what `make test-data` runs) from installed Debian packages
# into OUT_DIR (default build/test-data), with the layout and contents of ../shared/data, and
# checks it against tools/test_data.sha256. Does nothing when OUT_DIR already holds the checked
# set. Usage: tools/make_test_data.sh [OUT_DIR]
#   lambda/            bowtie2-examples: the lambda phage reference and its example reads, copied;
#                      art_{1,2}.fq.gz simulated over that reference by ART with a fixed seed
#                      (art-nextgen-simulation-tools), which gives the same reads every time
#   illumina-real/     gasic-examples: real Illumina reads, copied
#   unicycler-sample/  unicycler-data: the Shigella plasmid reference (gzip -9 -n) and reads
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/test_data.sh
. "$here/test_data.sh"
out=${1:-$XENON_TEST_DATA_MADE}
[ $# -le 1 ] || { echo "make_test_data: usage: tools/make_test_data.sh [OUT_DIR]" >&2; exit 2; }

if [ -d "$out" ] && test_data_verify "$out" 2> /dev/null; then
  echo "test-data: $out is complete and matches tools/test_data.sha256"
  exit 0
fi

# A folder that is there but not a (damaged) data set is the user's: never replaced.
if [ -d "$out" ]; then
  for entry in "$out"/* "$out"/.[!.]*; do
    case ${entry##*/} in lambda | illumina-real | unicycler-sample | '*' | '.[!.]*') ;;
      *) echo "make_test_data: $out holds other files (${entry##*/}): give a new or empty folder" >&2; exit 2 ;;
    esac
  done
fi

bowtie2=/usr/share/doc/bowtie2/examples
gasic=/usr/share/doc/gasic/examples/reads
unicycler=/usr/share/unicycler-data/sample_data

# source PACKAGE FILE: FILE, which PACKAGE installs, or one line saying what to install.
source_file() {
  local package=$1 file=$2
  [ -f "$file" ] && return 0
  if dpkg -s "$package" > /dev/null 2>&1; then
    # Slim images often tell dpkg to leave /usr/share/doc out (path-exclude).
    echo "make_test_data: $file is missing although $package is installed: is /usr/share/doc excluded in /etc/dpkg/dpkg.cfg.d/? Reinstall $package without that" >&2
  else
    echo "make_test_data: $file is missing: install the Debian package $package (\`make deps\` does)" >&2
  fi
  exit 1
}
source_file bowtie2-examples "$bowtie2/reference/lambda_virus.fa.gz"
source_file bowtie2-examples "$bowtie2/reads/reads_1.fq.gz"
source_file bowtie2-examples "$bowtie2/reads/reads_2.fq.gz"
source_file gasic-examples "$gasic/SRR059298_subset.fastq.gz"
source_file unicycler-data "$unicycler/reference.fasta"
source_file unicycler-data "$unicycler/short_reads_1.fastq.gz"
source_file unicycler-data "$unicycler/short_reads_2.fastq.gz"
command -v art_illumina > /dev/null ||
  { echo "make_test_data: art_illumina is missing: install the Debian package art-nextgen-simulation-tools (\`make deps\` does)" >&2; exit 1; }

# Made beside OUT_DIR, then renamed into place: an interrupted run leaves no half data set.
mkdir -p "$(dirname "$out")"
partial=$(mktemp -d "$out.partial.XXXXXX")
trap 'rm -rf "$partial"' EXIT
mkdir -p "$partial/lambda" "$partial/illumina-real" "$partial/unicycler-sample"
cp "$bowtie2/reference/lambda_virus.fa.gz" "$bowtie2/reads/reads_1.fq.gz" "$bowtie2/reads/reads_2.fq.gz" \
  "$partial/lambda/"
cp "$gasic/SRR059298_subset.fastq.gz" "$partial/illumina-real/"
cp "$unicycler/short_reads_1.fastq.gz" "$unicycler/short_reads_2.fastq.gz" "$partial/unicycler-sample/"
# -n: no name or time in the header, so the same bytes on every machine.
gzip -9 -n -c "$unicycler/reference.fasta" > "$partial/unicycler-sample/reference.fasta.gz"

# 8,075 pairs of 2x150 reads at 50x from an error-free donor; -rs fixes ART's random seed.
gzip -dc "$partial/lambda/lambda_virus.fa.gz" > "$partial/lambda.fa"
art_illumina -ss HS25 -i "$partial/lambda.fa" -p -l 150 -f 50 -m 400 -s 50 -rs 20240101 -na \
  -o "$partial/art_" > "$partial/art.log" 2>&1 ||
  { echo "make_test_data: art_illumina failed:" >&2; cat "$partial/art.log" >&2; exit 1; }
for mate in 1 2; do
  gzip -9 -n -c "$partial/art_$mate.fq" > "$partial/lambda/art_$mate.fq.gz"
done
rm -f "$partial/lambda.fa" "$partial/art.log" "$partial"/art_*.fq

if ! test_data_verify "$partial"; then
  echo "make_test_data: the data made from the packages differs from tools/test_data.sha256 (another package version?)" >&2
  exit 1
fi
rm -rf "$out"
mv "$partial" "$out"
chmod 755 "$out"
echo "test-data: made $out from Debian packages and checked it against tools/test_data.sha256"
