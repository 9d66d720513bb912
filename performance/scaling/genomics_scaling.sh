#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# How kmer_counter and assembler spread over MPI processes: runs both on the same reads for
# P = 1, 2, 4, 8 processes (mpiexec --oversubscribe --bind-to none, one worker each: -t 1),
# checks that every P writes the same bytes as P = 1, and prints what each process cost, per
# phase (performance/scaling/scaling_report.py: SCALING, SCALING_PHASE, SCALING_RUN lines),
# the issue's targets marked met or MISSED (TARGET lines), and the model's predictions for
# 16 to 1,024 nodes (performance/scaling/model.py: MODEL lines).
#   performance/scaling/genomics_scaling.sh                  40x E. coli K-12, 2x150, k = 31
#   COVERAGE=10 performance/scaling/genomics_scaling.sh      the same genome at 10x (quick)
#   K=rounds TOOLS=assembler genomics_scaling.sh    the assembler's default rounds of k (no -k)
#   READS="build/test-data/illumina-real/SRR059298_subset.fastq.gz" genomics_scaling.sh
#   PROCESSES="1 2" TOOLS=kmer_counter OUT=results/scaling genomics_scaling.sh
#   NETNS=1 PROCESSES="1 2 4" genomics_scaling.sh   one process per simulated host (Linux
#       network namespaces, tests/netns/netns_mpi_test.sh; root): TCP between all processes
# Busy time is wall-clock time inside receive(): on fewer cores than processes (2 cores here)
# the busy time of ranks working at once includes time the OS gave to the others. Busy CPU
# time (busy_cpu_s, serial_cpu_s, the *_cpu_* targets; --stats measures it) does not, and the
# model fits on it; compare wall-clock busy time across P only where P <= cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
COVERAGE=${COVERAGE:-40}
K=${K:-31}
PROCESSES=${PROCESSES:-"1 2 4 8"}
TOOLS=${TOOLS:-"kmer_counter assembler"}
BUILD=${BUILD:-build/release}
OUT=${OUT:-results/scaling}
DATA_DIR=${DATA_DIR:-results/ecoli-${COVERAGE}x}
TIMEOUT=${TIMEOUT:-1800}
NETNS=${NETNS:-0}
PROGRAM=genomics_scaling

fail() {
  echo "$PROGRAM: error: $1" >&2
  exit 2
}
[[ $COVERAGE =~ ^[1-9][0-9]*$ ]] || fail "COVERAGE must be a whole number of at least 1, got '$COVERAGE'"
[[ $K == rounds || $K =~ ^[1-9][0-9]*$ ]] || fail "K must be a whole number or 'rounds', got '$K'"
for p in $PROCESSES; do
  [[ $p =~ ^[1-9][0-9]*$ ]] || fail "PROCESSES must list whole numbers of at least 1, got '$p'"
done
[ -n "$PROCESSES" ] || fail "PROCESSES is empty"
for tool in $TOOLS; do
  case $tool in
    kmer_counter | assembler) [ -x "$BUILD/bin/$tool" ] || fail "$BUILD/bin/$tool is missing: run make" ;;
    *) fail "TOOLS may list kmer_counter and assembler, not '$tool'" ;;
  esac
done
command -v mpiexec > /dev/null || fail "mpiexec is missing: run make deps (Open MPI)"
command -v python3 > /dev/null || fail "python3 is missing"

if [ -n "${READS:-}" ]; then
  read -r -a reads <<< "$READS"
  for file in "${reads[@]}"; do [ -r "$file" ] || fail "READS: cannot read $file"; done
  data="${READS}"
else
  command -v art_illumina > /dev/null || fail "art_illumina is missing: run make deps-dev"
  # shellcheck source=performance/bench_common.sh
  . performance/bench_common.sh
  simulate_ecoli_reads "$DATA_DIR" "$COVERAGE"
  reads=("$DATA_DIR/reads_1.fq" "$DATA_DIR/reads_2.fq")
  data="E. coli K-12 MG1655, 2x150 ART reads at ${COVERAGE}x ($DATA_DIR)"
fi

case $NETNS in
  0) transport="shared memory (one host)" ;;
  1) transport="TCP between simulated hosts (network namespaces, one process each)" ;;
  *) fail "NETNS must be 0 or 1, got '$NETNS'" ;;
esac

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)  # ranks on simulated hosts start elsewhere: absolute paths
bin=$(cd "$BUILD/bin" && pwd)
for i in "${!reads[@]}"; do reads[i]=$(realpath "${reads[i]}"); done
report=$OUT/report.txt
echo "$PROGRAM: $(nproc) cores, k=$K, P = $PROCESSES, reads: $data, between processes: $transport" | tee "$report"

# run_tool P TOOL ARGS...: the tool on P processes, one worker each.
run_tool() {
  local processes=$1
  shift
  if [ "$NETNS" = 1 ] && [ "$processes" -gt 1 ]; then
    XENON_BIN=$bin XENON_NETNS_HOSTS=$processes XENON_NETNS_LIMIT=$TIMEOUT XENON_NETNS_MPI_TIMEOUT=$TIMEOUT \
      XENON_NETNS_COMMAND="$*" tests/netns/netns_mpi_test.sh
  else
    env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 \
      mpiexec --oversubscribe --bind-to none --timeout "$TIMEOUT" -n "$processes" "$@"
  fi
}
stats_dirs=()
identical=yes
for tool in $TOOLS; do
  reference=
  for p in $PROCESSES; do
    run=$OUT/$tool/P$p
    rm -rf "$run"
    mkdir -p "$run"
    echo "$PROGRAM: $tool on $p process(es)" >&2
    # No picture of the graph: Bandage draws it, one program on node 0 after the outputs are
    # published (seconds for E. coli), not the assembler's work across nodes; and the graphs of
    # genomes that need many nodes are past its automatic limit anyway.
    extra=()
    [ "$tool" = assembler ] && extra=(--graph-image no)
    # K=rounds: the assembler chooses its rounds of k itself; the counter counts at its own
    # default k (31).
    if [ "$K" != rounds ]; then
      extra+=(-k "$K")
    fi
    if ! run_tool "$p" "$bin/$tool" --quiet -t 1 "${extra[@]}" --stats "$run/stats" -o "$run/out" \
      "${reads[@]}" > "$run/run.log" 2>&1; then
      echo "$PROGRAM: $tool on $p process(es) failed; the end of $run/run.log:" >&2
      tail -n 20 "$run/run.log" >&2
      exit 1
    fi
    stats_dirs+=("$run/stats")
    # The outputs but the log and the run record (which tell times and the process count) must
    # not change.
    if [ -z "$reference" ]; then
      reference=$run/out
    else
      for file in "$reference"/*; do
        name=$(basename "$file")
        [ "$name" = "$tool.log" ] || [ "$name" = run.json ] && continue
        if cmp -s "$file" "$run/out/$name"; then
          echo "IDENTICAL tool=$tool P=$p file=$name same-as=$(basename "$(dirname "$reference")") yes" | tee -a "$report"
        else
          echo "IDENTICAL tool=$tool P=$p file=$name same-as=$(basename "$(dirname "$reference")") NO" | tee -a "$report"
          identical=no
        fi
      done
    fi
  done
done

python3 performance/scaling/scaling_report.py "${stats_dirs[@]}" | tee -a "$report"
network=ib-pcie
[ "$NETNS" = 1 ] && network=tcp-netns  # the model's checks against these runs need their network
python3 performance/scaling/model.py --network "$network" "$report" | tee -a "$report"
echo "$PROGRAM: report in $report; every output identical across P: $identical"
[ "$identical" = yes ]
