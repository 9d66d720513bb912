#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Counts every data set of datasets.sh with Jellyfish (canonical, -C) at every k and writes
# what Jellyfish reports into OUT_DIR (default: expected/ beside this script):
#   NAME.kK.histo   `jellyfish histo` verbatim
#   NAME.kK.stats   `jellyfish stats` verbatim (Unique, Distinct, Total, Max_count)
# Usage: jellyfish_expected.sh [DATA_DIR [OUT_DIR]]   (DATA_DIR: default tools/test_data.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/test_data.sh
. "$here/../../tools/test_data.sh"
data=${1:-$(test_data_directory)}
out=${2:-$here/expected}
command -v jellyfish > /dev/null ||
  { echo "jellyfish_expected.sh: jellyfish is not installed: run \`make deps\` (Debian package jellyfish)" >&2; exit 2; }
# shellcheck source=datasets.sh
source "$here/datasets.sh"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for line in "${XENON_DATASETS[@]}"; do
  read -r -a fields <<< "$line"
  name=${fields[0]}
  inputs=()
  for file in "${fields[@]:1}"; do
    if [ $# -eq 0 ]; then test_data_file "$file" > /dev/null || exit 2; fi
    zcat "$data/$file" > "$work/$(basename "$file" .gz)"
    inputs+=("$work/$(basename "$file" .gz)")
  done
  for k in "${XENON_KMER_LENGTHS[@]}"; do
    jellyfish count -C -m "$k" -s 10M -t 2 -o "$work/counts.jf" "${inputs[@]}"
    jellyfish histo "$work/counts.jf" > "$out/$name.k$k.histo"
    jellyfish stats "$work/counts.jf" > "$out/$name.k$k.stats"
    rm -f "$work/counts.jf"
  done
  rm -f "${inputs[@]}"
done
