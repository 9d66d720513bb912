#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The assembler against Minia, Velvet and Ray, one after another in one run. Prints one
# ASSEMBLY_BENCH line per tool and data set (wall time, peak memory, and the figures of
# genomics/evaluate_assembly.sh against the reference), then each peer's time over Xenon's on
# the same data set.
#   performance/assembly_bench/assembly_bench.sh         both data sets, all tools
#   DATASETS=shigella TOOLS="xenon ray" THREADS=2 K=63 assembly_bench.sh
#   TOOLS=xenon assembly_bench.sh                        Xenon alone (what CI runs)
# Xenon's contigs must meet the issue's quality targets (E. coli: genome fraction >= 98.75%;
# Shigella: >= 90%; no misassembly on either) and be byte-identical across PROCESSES MPI
# processes (default "2"): the script ends with "N passed, M failed" and fails otherwise.
# Times and N50 are printed, not judged.
# Data sets: ecoli, 40x 2x150 E. coli K-12 simulated once with ART into DATA_DIR (the same
# reads as performance/kmer_bench/kmer_bench.sh), assembled by Xenon, Minia and Velvet;
# shigella, the Unicycler sample's short reads (Shigella sonnei plasmids), assembled by Xenon
# and Ray. Peak memory is that of the largest single process (for Ray, one MPI process).
set -euo pipefail
cd "$(dirname "$0")/../.."
THREADS=${THREADS:-2}
K=${K:-63}
PEER_K=31
DATA_DIR=${DATA_DIR:-results/ecoli}
BUILD=${BUILD:-build/release}
DATASETS=${DATASETS:-"ecoli shigella"}
PROCESSES=${PROCESSES:-2}
TOOLS=${TOOLS:-"xenon minia velvet ray"}
PROGRAM=assembly_bench
# shellcheck source=performance/bench_common.sh
. performance/bench_common.sh
# shellcheck source=tools/test_data.sh
. tools/test_data.sh
assembler=$BUILD/bin/assembler
evaluate=genomics/evaluate_assembly.sh

# The tools each data set is given to, in order.
declare -A tools_of=([ecoli]="xenon minia velvet" [shigella]="xenon ray")
wanted() { [[ " $TOOLS " == *" $1 "* ]]; }
runs() { # DATA: the tools asked for that run on DATA
  local tool
  for tool in ${tools_of[$1]}; do
    if wanted "$tool"; then echo "$tool"; fi
  done
}

for data in $DATASETS; do
  [ -n "${tools_of[$data]:-}" ] || { echo "assembly_bench: unknown data set '$data' (ecoli, shigella)" >&2; exit 2; }
done
for tool in $TOOLS; do
  case $tool in xenon | minia | velvet | ray) ;;
    *) echo "assembly_bench: unknown tool '$tool' (xenon, minia, velvet, ray)" >&2; exit 2 ;;
  esac
done
needed=(/usr/bin/time minimap2 python3)
[[ " $DATASETS " == *" ecoli "* ]] && needed+=(art_illumina)
wanted minia && needed+=(minia)
wanted velvet && needed+=(velveth velvetg)
wanted ray && [[ " $DATASETS " == *" shigella "* ]] && needed+=(Ray mpiexec)
for tool in "${needed[@]}"; do
  command -v "$tool" > /dev/null || { echo "assembly_bench: $tool is missing: run make deps" >&2; exit 2; }
done
if wanted xenon; then
  [ -x "$assembler" ] || { echo "assembly_bench: $assembler is missing: run make" >&2; exit 2; }
fi

declare -A reads_of reference_of
if [[ " $DATASETS " == *" ecoli "* ]]; then
  simulate_ecoli_reads "$DATA_DIR"
  reads=("$DATA_DIR/reads_1.fq" "$DATA_DIR/reads_2.fq")
  reads_of[ecoli]="${reads[*]}"
  reference_of[ecoli]=$DATA_DIR/genome.fa
fi
if [[ " $DATASETS " == *" shigella "* ]]; then
  for file in short_reads_1.fastq.gz short_reads_2.fastq.gz reference.fasta.gz; do
    test_data_file "unicycler-sample/$file" > /dev/null || exit 2
  done
  SHIGELLA=$(test_data_directory)/unicycler-sample
  reads_of[shigella]="$SHIGELLA/short_reads_1.fastq.gz $SHIGELLA/short_reads_2.fastq.gz"
  reference_of[shigella]=$SHIGELLA/reference.fasta.gz
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# evaluate NAME TOOL DATA CONTIGS: the ASSEMBLY_BENCH line of one run.
evaluate() {
  local name=$1 tool=$2 data=$3 contigs=$4
  [ -s "$contigs" ] || { echo "assembly_bench: $name wrote no contigs ($contigs); the end of its log:" >&2; tail -n 30 "$work/$name.log" >&2; exit 1; }
  "$evaluate" "$contigs" "${reference_of[$data]}" --min-contig 500 > "$work/$name.eval" 2>&1 ||
    { echo "assembly_bench: evaluating $name failed:" >&2; cat "$work/$name.eval" >&2; exit 1; }
  awk -v tool="$tool" -v data="$data" -v wall="${wall[$name]}" -v mb="${peak[$name]}" '
    $1 == "ASSEMBLY_METRIC" { value[$2] = $4 }
    END { printf "ASSEMBLY_BENCH tool=%s data=%s wall_s=%.2f peak_mb=%d n50=%s nga50=%s genome_fraction=%s duplication_ratio=%s misassemblies=%s contigs=%s total_length=%s\n",
            tool, data, wall, mb, value["n50"], value["nga50"], value["genome_fraction"], value["duplication_ratio"], value["misassemblies"], value["contigs"], value["total_length"] }
  ' "$work/$name.eval"
}

declare -A fraction misassembled
mpi_env=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
echo "assembly_bench: $(nproc) cores, $THREADS threads; data sets: $DATASETS; tools: $TOOLS"
echo "assembly_bench: xenon: -k $K, $THREADS workers + 1 communication thread;" \
  "minia: -kmer-size $PEER_K -abundance-min 2, $THREADS cores, pairs not used (Minia ignores them);" \
  "velvet: k $PEER_K, paired (-ins_length 400), single-threaded build;" \
  "ray: -k $PEER_K, paired, 2 MPI processes; contigs evaluated from 500 bp"
for data in $DATASETS; do
  read -r -a reads <<< "${reads_of[$data]}"
  for tool in $(runs "$data"); do
    name=$tool-$data
    case $tool in
      xenon)
        # -threads-per-node counts the communication thread too: THREADS workers need THREADS + 1.
        measure "$name" "$assembler" --quiet -threads-per-node $((THREADS + 1)) -k "$K" \
          -o "$work/$name" "${reads[@]}"
        contigs=$work/$name/contigs.fasta ;;
      minia)
        mkdir -p "$work/$name"
        # -out-tmp: Minia's temporary files go to the current directory otherwise.
        measure "$name" minia -in "$(IFS=,; echo "${reads[*]}")" -kmer-size "$PEER_K" -abundance-min 2 \
          -nb-cores "$THREADS" -out "$work/$name/minia" -out-tmp "$work/$name"
        contigs=$work/$name/minia.contigs.fa ;;
      velvet)
        # shellcheck disable=SC2016 # the inner shell expands its own arguments
        measure "$name" bash -c 'velveth "$1" "$2" -shortPaired -fastq -separate "$3" "$4" &&
          velvetg "$1" -exp_cov auto -cov_cutoff auto -ins_length 400' \
          velvet "$work/$name" "$PEER_K" "${reads[@]}"
        contigs=$work/$name/contigs.fa ;;
      ray)
        # Ray reads gzip itself, and refuses an output directory that exists.
        measure "$name" "${mpi_env[@]}" mpiexec --oversubscribe -n 2 \
          Ray -k "$PEER_K" -p "${reads[@]}" -o "$work/$name"
        contigs=$work/$name/Contigs.fasta ;;
    esac
    evaluate "$name" "$tool" "$data" "$contigs"
    if [ "$tool" = xenon ]; then
      fraction[$data]=$(awk '$2 == "genome_fraction" { print $4 }' "$work/$name.eval")
      misassembled[$data]=$(awk '$2 == "misassemblies" { print $4 }' "$work/$name.eval")
      cp "$contigs" "$work/xenon-$data.contigs.fasta"
    fi
    rm -rf "${work:?}/$name"
  done
done

for data in $DATASETS; do
  [ -n "${wall[xenon-$data]:-}" ] || continue
  for tool in $(runs "$data"); do
    [ "$tool" = xenon ] && continue
    awk -v t="$tool" -v d="$data" -v tw="${wall[$tool-$data]}" -v xw="${wall[xenon-$data]}" \
      -v tm="${peak[$tool-$data]}" -v xm="${peak[xenon-$data]}" \
      'BEGIN { printf "ASSEMBLY_BENCH ratio %s/xenon data=%s: time %.2fx, memory %.2fx\n", t, d, tw / xw, tm / xm }'
  done
done

# The issue's targets for Xenon, and the same bytes across MPI processes.
declare -A minimum_fraction=([ecoli]=98.75 [shigella]=90)
passed=0
failed=0
judge() { # WHAT CONDITION(0/1)
  if [ "$2" = 1 ]; then
    echo "ASSEMBLY_BENCH check $1: met"
    passed=$((passed + 1))
  else
    echo "ASSEMBLY_BENCH check $1: NOT MET"
    failed=$((failed + 1))
  fi
}
if wanted xenon; then
  for data in $DATASETS; do
    judge "xenon $data genome_fraction ${fraction[$data]} >= ${minimum_fraction[$data]}" \
      "$(awk -v f="${fraction[$data]}" -v m="${minimum_fraction[$data]}" 'BEGIN { print (f >= m) ? 1 : 0 }')"
    judge "xenon $data misassemblies ${misassembled[$data]} = 0" "$([ "${misassembled[$data]}" = 0 ] && echo 1 || echo 0)"
    read -r -a reads <<< "${reads_of[$data]}"
    for processes in $PROCESSES; do
      command -v mpiexec > /dev/null || break
      name=xenon-$data-${processes}p
      measure "$name" "${mpi_env[@]}" OMPI_MCA_mpi_yield_when_idle=1 mpiexec --oversubscribe --bind-to none \
        -n "$processes" "$assembler" --quiet -threads-per-node 2 -k "$K" -o "$work/$name" "${reads[@]}"
      echo "ASSEMBLY_BENCH tool=xenon data=$data processes=$processes wall_s=${wall[$name]} peak_mb=${peak[$name]}"
      judge "xenon $data contigs across $processes processes = one process" \
        "$(cmp -s "$work/$name/contigs.fasta" "$work/xenon-$data.contigs.fasta" && echo 1 || echo 0)"
      rm -rf "${work:?}/$name"
    done
  done
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
