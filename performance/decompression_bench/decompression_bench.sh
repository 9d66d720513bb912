#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Measures zlib, isa-l and libdeflate side by side (decompression_bench.cpp) on the test
# data's gzip files and on a larger file: the Shigella reads of unicycler-sample four times
# over, as one gzip stream and as BGZF. Run by `make decompression-bench`.
#   decompression_bench.sh BINARY [RUNS]
set -euo pipefail
binary=$1
runs=${2:-3}
source "$(dirname "$0")/../../tools/test_data.sh"
data=$(test_data_directory)
work=$(mktemp -d /tmp/xenon-decompression-XXXXXX)
trap 'rm -rf "$work"' EXIT
command -v bgzip >/dev/null || { echo "decompression_bench: error: bgzip not found (make deps installs tabix)" >&2; exit 1; }
for i in 1 2 3 4; do gzip -dc "$data/unicycler-sample/short_reads_1.fastq.gz"; done > "$work/shigella_x4.fq"
gzip -6 -c "$work/shigella_x4.fq" > "$work/shigella_x4.fq.gz"
bgzip -c "$work/shigella_x4.fq" > "$work/shigella_x4.bgzf.fq.gz"
rm "$work/shigella_x4.fq"
"$binary" -runs "$runs" $(find "$data" -name '*.gz' | sort) "$work/shigella_x4.fq.gz" "$work/shigella_x4.bgzf.fq.gz"
