#!/usr/bin/env bash
# Counts every data set of datasets.sh with Jellyfish (canonical, -C) at every k and writes
# what Jellyfish reports into OUT_DIR (default: expected/ beside this script):
#   NAME.kK.histo   `jellyfish histo` verbatim
#   NAME.kK.stats   `jellyfish stats` verbatim (Unique, Distinct, Total, Max_count)
# Usage: jellyfish_expected.sh [DATA_DIR [OUT_DIR]]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../../../shared/data}
out=${2:-$here/expected}
command -v jellyfish > /dev/null || { echo "jellyfish_expected.sh: jellyfish not installed" >&2; exit 2; }
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
