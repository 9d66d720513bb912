#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The faults a careless user or a batch system brings to kmer_counter and assembler: output
# folders (unwritable, another's, an older run's), signals, partial files, out of memory,
# resume (--continue), data after a gzip stream, thread counts and limits, and ranks that
# disagree, fail or stop answering under mpiexec. Each case runs the real tools on real data and prints one line:
#   PASS|FAIL  CASE  exit STATUS in SECONDS s[: what was wrong]
# (or SKIP CASE and why: files_only below), then "N passed, N failed"; the exit status is 0 only when every case passed.
#   tests/faults/fault_cases.sh [BIN_DIR]     (default: $XENON_BIN, else build/release/bin)
# A run is stopped at an exact point with XENON_TEST_SIGNAL_AT="SIGNAL:LOG LINE" (RunLog): the
# tool sends itself SIGNAL right after writing that line of its log.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$(cd "${1:-${XENON_BIN:-$root/build/release/bin}}" && pwd)
# shellcheck source=tools/test_data.sh
. "$root/tools/test_data.sh"
reads_1=$(test_data_file unicycler-sample/short_reads_1.fastq.gz) || exit 1
reads_2=$(test_data_file unicycler-sample/short_reads_2.fastq.gz) || exit 1
work=$(mktemp -d /tmp/xenon-faults.XXXXXX)
chmod 755 "$work"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
counter=("$bin/kmer_counter" -t 2 -k 31 --quiet)
assembler=("$bin/assembler" -t 2 -k 31 --quiet)

passed=0
failed=0
status=0    # of the last run()
seconds=0   # its time to exit
problem=""  # why the case failed, empty if it passed

# run COMMAND...: runs it with stdout/stderr in $work/out and $work/err; sets status, seconds.
run() {
  local start end
  start=$(date +%s%N)
  "$@" >"$work/out" 2>"$work/err"
  status=$?
  end=$(date +%s%N)
  seconds=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
}
# expect CONDITION_TEXT TEST...: records the first condition that does not hold.
expect() {
  local what=$1
  shift
  if [ -z "$problem" ] && ! "$@"; then problem=$what; fi
}
# The case's line, from the last run and every expect since begin().
begin() { problem=""; }
finish() {
  if [ -z "$problem" ]; then
    printf 'PASS  %-44s exit %3d in %5s s\n' "$1" "$status" "$seconds"
    passed=$((passed + 1))
  else
    printf 'FAIL  %-44s exit %3d in %5s s: %s\n' "$1" "$status" "$seconds" "$problem"
    sed 's/^/      stderr: /' "$work/err" | head -5
    failed=$((failed + 1))
  fi
}
status_is() { [ "$status" -eq "$1" ]; }
lacks() { ! grep -q -- "$1" "$2"; }
# faster_than SECONDS: the last run took less. Sanitizer builds run 5-20x slower (and start
# their runtime first), so there the limit is ten times as long.
time_scale=1
[ -z "${XENON_SANITIZE:-}" ] || time_scale=10
faster_than() { awk -v s="$seconds" -v limit="$1" -v scale="$time_scale" 'BEGIN { exit !(s < limit * scale) }'; }
one_line_saying() { [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err"; }
no_partial_files() { ! find "$1" -name '*.partial-*' -o -name '.input-*.copy-*' | grep -q .; }
same_files() {
  local name
  for name in "${@:3}"; do cmp -s "$1/$name" "$2/$name" || return 1; done
}

# Reference results, from uninterrupted runs.
"${counter[@]}" -o "$work/counter-reference" "$reads_1" >/dev/null 2>&1
"${counter[@]}" -o "$work/dump-reference" --dump "$reads_1" >/dev/null 2>&1
"${assembler[@]}" -o "$work/assembler-reference" "$reads_1" "$reads_2" >/dev/null 2>&1
counter_files=(histogram.txt summary.json)
assembler_files=(contigs.fasta scaffolds.fasta assembly.json histogram.txt graph.gfa)

# --- Output folders ---------------------------------------------------------------------
begin
mkdir -p "$work/locked" && chmod 555 "$work/locked"
# Root writes anywhere: as root, the tool runs as nobody (from copies it can read, if need be).
if [ "$(id -u)" -eq 0 ]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); else as_user=(); fi
user_counter=("${counter[@]}")
user_reads=$reads_1
if ! "${as_user[@]}" test -x "$bin/kmer_counter" -a -r "$reads_1"; then
  cp "$bin/kmer_counter" "$reads_1" "$work/" && chmod 755 "$work/kmer_counter" && chmod 644 "$work/$(basename "$reads_1")"
  user_counter[0]=$work/kmer_counter
  user_reads=$work/$(basename "$reads_1")
fi
run "${as_user[@]}" "${user_counter[@]}" -o "$work/locked/out" "$user_reads"
expect "exit status 1" status_is 1
expect "found within a second" faster_than 1
expect "one line naming the folder" one_line_saying "locked/out: cannot create the output directory"
finish "unwritable folder found before any work"

begin
mkdir -p "$work/locked-existing" && chmod 777 "$work/locked-existing"
"${counter[@]}" -o "$work/locked-existing" "$reads_1" >/dev/null 2>&1
chmod 555 "$work/locked-existing"
run "${as_user[@]}" "${user_counter[@]}" -o "$work/locked-existing" "$user_reads"
expect "exit status 1" status_is 1
expect "found within a second" faster_than 1
expect "one line naming the log" one_line_saying "kmer_counter.log: cannot create the log"
finish "unwritable folder of an earlier run"

begin
run "${counter[@]}" -o "$work/new/deeper" "$work/missing.fq"
expect "exit status 1" status_is 1
expect "no folder left" test ! -e "$work/new"
finish "failed run leaves no folder it created"

begin
mkdir -p "$work/foreign" && echo "my notes" >"$work/foreign/notes.txt"
run "${counter[@]}" -o "$work/foreign" "$reads_1"
expect "exit status 1" status_is 1
expect "refusal names --force" one_line_saying "not an output directory of kmer_counter.*--force"
expect "nothing written" test ! -e "$work/foreign/kmer_counter.log"
finish "non-empty folder of another refused"

begin
run "${counter[@]}" -o "$work/foreign" --force "$reads_1"
expect "exit status 0" status_is 0
expect "the other files untouched" grep -qx "my notes" "$work/foreign/notes.txt"
expect "results as a fresh run's" same_files "$work/counter-reference" "$work/foreign" "${counter_files[@]}"
finish "the same folder with --force"

begin
"${counter[@]}" -o "$work/mixed" --dump "$reads_1" >/dev/null 2>&1
run "${counter[@]}" -o "$work/mixed" "$reads_1"
expect "exit status 0" status_is 0
expect "no older counts.txt" test ! -e "$work/mixed/counts.txt"
finish "run without --dump leaves no older counts.txt"

begin
printf '@r1\nACGT\n+\nII\n' >"$work/bad.fq"  # quality shorter than the bases
"${counter[@]}" -o "$work/older" "$reads_1" >/dev/null 2>&1
run "${counter[@]}" -o "$work/older" "$work/bad.fq"
expect "exit status 1" status_is 1
expect "no older histogram left looking current" test ! -e "$work/older/histogram.txt"
expect "no older summary left" test ! -e "$work/older/summary.json"
expect "the log tells the failure" grep -q "exit status 1" "$work/older/kmer_counter.log"
finish "failed run leaves no older results"

begin
"${counter[@]}" -o "$work/stuck" "$reads_1" >/dev/null 2>&1
rm "$work/stuck/summary.json" && mkdir -p "$work/stuck/summary.json/x"  # cannot be replaced
run "${counter[@]}" -o "$work/stuck" "$reads_1"
expect "exit status 1" status_is 1
expect "found before any work" faster_than 1
expect "one line naming the file" one_line_saying "summary.json: in the way: a directory where kmer_counter writes a file"
expect "no older histogram beside it" test ! -e "$work/stuck/histogram.txt"
expect "no partial files" no_partial_files "$work/stuck"
finish "an older output that cannot be replaced"

# --- Signals and partial files ----------------------------------------------------------
for signal in TERM:143 INT:130; do
  begin
  XENON_TEST_SIGNAL_AT="${signal%:*}:phase dump: done" run "${counter[@]}" -o "$work/sig-${signal%:*}" --dump "$reads_1"
  expect "exit status ${signal#*:}" status_is "${signal#*:}"
  expect "one line naming SIG${signal%:*}" one_line_saying "SIG${signal%:*} in phase dump: partial files removed"
  expect "no partial files" no_partial_files "$work/sig-${signal%:*}"
  expect "no counts.txt" test ! -e "$work/sig-${signal%:*}/counts.txt"
  finish "SIG${signal%:*} with counts.txt half-written"
done

# A real signal, from outside, while the engine's threads wait on an input that never ends.
mkfifo "$work/endless"
for signal in INT:130 TERM:143; do
  begin
  sleep 60 >"$work/endless" &
  writer=$!
  "${counter[@]}" -o "$work/live-${signal%:*}" - <"$work/endless" >"$work/out" 2>"$work/err" &
  counter_pid=$!
  sleep 1
  start=$(date +%s%N)
  kill "-${signal%:*}" "$counter_pid"
  wait "$counter_pid"
  status=$?
  seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  kill "$writer" 2>/dev/null
  wait "$writer" 2>/dev/null
  expect "exit status ${signal#*:}" status_is "${signal#*:}"
  expect "ends within a second" faster_than 1
  expect "one line naming SIG${signal%:*}" one_line_saying "SIG${signal%:*} in phase counting, reading standard input"
  expect "no partial files" no_partial_files "$work/live-${signal%:*}"
  finish "SIG${signal%:*} from outside while counting"
done

# The assembler copies standard input before it counts: the half-made copy goes too.
begin
sleep 60 >"$work/endless" &
writer=$!
"${assembler[@]}" -o "$work/live-copy" - <"$work/endless" >"$work/out" 2>"$work/err" &
assembler_pid=$!
for _ in $(seq 50); do ls "$work"/live-copy/.input-1.copy-* >/dev/null 2>&1 && break; sleep 0.1; done
ls "$work"/live-copy/.input-1.copy-* >/dev/null 2>&1 || problem="no copy of standard input was made"
start=$(date +%s%N)
kill -TERM "$assembler_pid"
wait "$assembler_pid"
status=$?
seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
expect "exit status 143" status_is 143
expect "one line naming SIGTERM" one_line_saying "SIGTERM in phase copying inputs read once"
expect "the copy removed" no_partial_files "$work/live-copy"
finish "SIGTERM while the assembler copies standard input"

# Under mpiexec (2 ranks), SIGTERM to mpiexec while counting: Open MPI sends it to every
# rank; node 0 writes its line and removes its partial files, mpiexec ends the job (status 1).
# (Open MPI's own allocations are never freed: LeakSanitizer stays off under mpiexec, as in
# tests/support/mpi_run.hpp.)
mpiexec_command=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
  ASAN_OPTIONS=detect_leaks=0 mpiexec --oversubscribe --bind-to none --timeout 120 -n 2)
if [ "${XENON_MPI:-y}" != n ]; then
  for _ in $(seq 30); do cat "$reads_1"; done >"$work/long.fq.gz"  # gzip members, one after the other
  begin
  "${mpiexec_command[@]}" "$bin/kmer_counter" -t 1 -k 31 --quiet -o "$work/mpi-term" "$work/long.fq.gz" \
    >"$work/out" 2>"$work/err" &
  mpiexec_pid=$!
  for _ in $(seq 100); do grep -q "phase counting: started" "$work/mpi-term/kmer_counter.log" 2>/dev/null && break; sleep 0.1; done
  sleep 0.5
  start=$(date +%s%N)
  kill -TERM "$mpiexec_pid"
  wait "$mpiexec_pid"
  status=$?
  seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  expect "mpiexec's exit status is not 0" test "$status" -ne 0
  expect "ends within 3 s" faster_than 3
  expect "node 0's line naming SIGTERM" grep -q "SIGTERM in phase counting, reading .*long.fq.gz: partial files removed, exit status 143" "$work/err"
  expect "in node 0's log" grep -q "error: terminated by SIGTERM" "$work/mpi-term/kmer_counter.log"
  expect "no partial files" no_partial_files "$work/mpi-term"
  finish "SIGTERM to mpiexec (2 ranks) while counting"
  rm -f "$work/long.fq.gz"
fi

begin
(XENON_TEST_SIGNAL_AT="KILL:phase dump: done" "${counter[@]}" -o "$work/killed" --dump "$reads_1" >/dev/null 2>&1; true) 2>/dev/null  # no "Killed" from bash
ls "$work"/killed/counts.txt.partial-* >/dev/null 2>&1 || problem="SIGKILL left no partial file to clean"
touch "$work/killed/histogram.txt.partial-$$"  # a live process's: not stale
run "${counter[@]}" -o "$work/killed" "$reads_1"
expect "exit status 0" status_is 0
expect "the killed run's partial file removed" test -z "$(ls "$work"/killed/counts.txt.partial-* 2>/dev/null)"
expect "a live process's partial file kept" test -e "$work/killed/histogram.txt.partial-$$"
finish "stale partial files of a SIGKILLed run"

# --- Out of memory ----------------------------------------------------------------------
# ASan and TSan reserve terabytes of address space: a sanitizer build cannot run under ulimit -v.
if [ -z "${XENON_SANITIZE:-}" ]; then
begin
(printf '@r1\n'; head -c 200000000 /dev/zero | tr '\0' 'A') >"$work/one-line.fq"  # no newline: held whole
run bash -c 'ulimit -v 500000; exec "$@"' - "${counter[@]}" -o "$work/oom" "$work/one-line.fq"
expect "exit status 1" status_is 1
expect "one line naming the phase and file" one_line_saying "out of memory in phase counting, reading .*one-line.fq"
expect "the log tells it" grep -q "error: out of memory" "$work/oom/kmer_counter.log"
rm -f "$work/one-line.fq"
finish "out of memory (ulimit -v) while counting"
fi

# --- Resume (--continue) ----------------------------------------------------------------
# Under ThreadSanitizer each run is 10-20x slower, and most resume cases test files (what a
# checkpoint holds, which options and builds may take it up), not threads: the release and
# ASan builds run those. Cases with ranks, or killed while the stores count, save or clean,
# run in every build.
# files_only CASE: true, with a SKIP line, under ThreadSanitizer.
files_only() {
  [ "${XENON_SANITIZE:-}" = thread ] || return 1
  printf 'SKIP  %-44s files, not threads: the release and ASan builds run it\n' "$1"
}
# kill_and_continue OUT "LOG LINE" COMMAND...: the run killed (SIGKILL) after that log
# line, then the same with --continue; the case's status is the second run's.
# killed_at OUT "LOG LINE" COMMAND...: the run killed (SIGKILL) after that log line, its
# checkpoints left in OUT.
killed_at() {
  local out=$1 line=$2
  shift 2
  (XENON_TEST_SIGNAL_AT="KILL:$line" "$@" -o "$out" >/dev/null 2>&1; true) 2>/dev/null  # no "Killed" from bash
}
kill_and_continue() {
  local out=$1 line=$2
  shift 2
  killed_at "$out" "$line" "$@"
  run "$@" -o "$out" --continue
}

for line in "phase counting: started" "phase histogram: started" "phase writing: started"; do
  if [ "$line" != "phase counting: started" ] && files_only "kmer_counter killed at '$line', --continue"; then continue; fi
  begin
  kill_and_continue "$work/resume-counter" "$line" "${counter[@]}" "$reads_1"
  expect "exit status 0" status_is 0
  expect "same bytes as an uninterrupted run" same_files "$work/counter-reference" "$work/resume-counter" "${counter_files[@]}"
  expect "the checkpoint removed after success" test ! -e "$work/resume-counter/checkpoints"
  if [ "$line" = "phase writing: started" ]; then
    expect "the count skipped" grep -q "phases counting and histogram: skipped" "$work/resume-counter/kmer_counter.log"
  fi
  finish "kmer_counter killed at '$line', --continue"
done

if ! files_only "kmer_counter --continue on a damaged checkpoint"; then
  begin
  # A run killed after its count leaves the checkpoint (one that succeeds removes it).
  killed_at "$work/resume-counter" "phase writing: started" "${counter[@]}" "$reads_1"
  # A bit of the contents flipped (in the last but ten byte: the header, which names the origin, is before).
  checkpoint="$work/resume-counter/checkpoints/counted"
  at=$(($(stat -c %s "$checkpoint") - 10))
  printf "\\$(printf '%03o' $(($(od -An -tu1 -j "$at" -N1 "$checkpoint") ^ 1)))" |
    dd of="$checkpoint" bs=1 seek="$at" conv=notrunc status=none
  run "${counter[@]}" -o "$work/resume-counter" --continue "$reads_1"
  expect "exit status 0" status_is 0
  expect "the damage found" grep -q "damaged (its CRC-32 does not match)" "$work/resume-counter/kmer_counter.log"
  expect "same bytes as an uninterrupted run" same_files "$work/counter-reference" "$work/resume-counter" "${counter_files[@]}"
  finish "kmer_counter --continue on a damaged checkpoint"
fi

if ! files_only "kmer_counter --continue with another -k"; then
  begin
  killed_at "$work/resume-counter" "phase writing: started" "${counter[@]}" "$reads_1"
  run "$bin/kmer_counter" -t 2 -k 25 --quiet -o "$work/resume-counter" --continue "$reads_1"
  expect "exit status 0" status_is 0
  expect "a checkpoint of other options not used" grep -q "came from other inputs or options" "$work/resume-counter/kmer_counter.log"
  expect "k=25 in the summary" grep -q '"k": 25' "$work/resume-counter/summary.json"
  finish "kmer_counter --continue with another -k"
fi

if ! files_only "kmer_counter --continue with another build of the same version"; then
  begin
  # Another build of the same version: the executable with one more byte (ELF loaders ignore
  # bytes after the sections), as a rebuild with other code would differ; its build-id is the
  # same, so the executable's size and CRC-32 in the header tell them apart.
  killed_at "$work/resume-counter" "phase writing: started" "${counter[@]}" "$reads_1"
  cp "$bin/kmer_counter" "$work/kmer_counter-other-build"
  printf 'X' >>"$work/kmer_counter-other-build"
  run "$work/kmer_counter-other-build" "${counter[@]:1}" -o "$work/resume-counter" --continue "$reads_1"
  expect "exit status 0" status_is 0
  expect "a checkpoint of another build not used" grep -q "checkpoint not used: .*came from another build of the program: it says" "$work/resume-counter/kmer_counter.log"
  expect "same bytes as an uninterrupted run" same_files "$work/counter-reference" "$work/resume-counter" "${counter_files[@]}"
  rm -f "$work/kmer_counter-other-build"
  finish "kmer_counter --continue with another build of the same version"
fi

# With --dump the stores save their k-mers too (checkpoints/kmers-I-of-N), before `counted`.
for line in "phase saving k-mers: started" "phase dump: started" "phase writing: started"; do
  if [ "$line" != "phase saving k-mers: started" ] && files_only "kmer_counter --dump killed at '$line', --continue"; then
    continue
  fi
  begin
  rm -rf "$work/resume-dump"
  kill_and_continue "$work/resume-dump" "$line" "${counter[@]}" --dump "$reads_1"
  expect "exit status 0" status_is 0
  expect "same bytes as an uninterrupted run" same_files "$work/dump-reference" "$work/resume-dump" counts.txt "${counter_files[@]}"
  expect "the checkpoints removed after success" test ! -e "$work/resume-dump/checkpoints"
  if [ "$line" = "phase saving k-mers: started" ]; then
    expect "counted again" grep -q "phase counting: done" "$work/resume-dump/kmer_counter.log"
  else
    expect "the count skipped" grep -q "phases counting and histogram: skipped: the counted k-mers" "$work/resume-dump/kmer_counter.log"
    expect "not counted again" lacks "phase counting" "$work/resume-dump/kmer_counter.log"
  fi
  finish "kmer_counter --dump killed at '$line', --continue"
done

# The shards of 2 stores spread over 3 (another -t), then over the 2 nodes of mpiexec: the
# stores load them at once, so these run under ThreadSanitizer too.
begin
rm -rf "$work/resume-dump"
killed_at "$work/resume-dump" "phase dump: started" "${counter[@]}" --dump "$reads_1"
expect "two shards saved" test -s "$work/resume-dump/checkpoints/kmers-1-of-2"
run "$bin/kmer_counter" -t 3 -k 31 --quiet --dump -o "$work/resume-dump" --continue "$reads_1"
expect "exit status 0" status_is 0
expect "the count skipped" grep -q "counted k-mers from checkpoints" "$work/resume-dump/kmer_counter.log"
expect "same bytes as an uninterrupted run" same_files "$work/dump-reference" "$work/resume-dump" counts.txt "${counter_files[@]}"
finish "kmer_counter --dump --continue with another thread count"

if [ "${XENON_MPI:-y}" != n ]; then
  begin
  rm -rf "$work/resume-dump"
  killed_at "$work/resume-dump" "phase dump: started" "${counter[@]}" --dump "$reads_1"
  run "${mpiexec_command[@]}" "$bin/kmer_counter" -t 1 -k 31 --quiet --dump -o "$work/resume-dump" --continue "$reads_1"
  expect "exit status 0" status_is 0
  expect "the count skipped" grep -q "counted k-mers from checkpoints" "$work/resume-dump/kmer_counter.log"
  expect "same bytes as an uninterrupted run" same_files "$work/dump-reference" "$work/resume-dump" counts.txt "${counter_files[@]}"
  finish "kmer_counter --dump --continue under mpiexec (2 ranks)"
fi

if ! files_only "kmer_counter --dump --continue on a damaged shard"; then
  begin
  rm -rf "$work/resume-dump"
  killed_at "$work/resume-dump" "phase dump: started" "${counter[@]}" --dump "$reads_1"
  printf 'X' | dd of="$work/resume-dump/checkpoints/kmers-1-of-2" bs=1 seek=5000 conv=notrunc status=none
  run "${counter[@]}" --dump -o "$work/resume-dump" --continue "$reads_1"
  expect "exit status 0" status_is 0
  expect "the damage found" grep -q "kmers-1-of-2 is damaged (its CRC-32 does not match)" "$work/resume-dump/kmer_counter.log"
  expect "counted again" grep -q "phase counting: done" "$work/resume-dump/kmer_counter.log"
  expect "same bytes as an uninterrupted run" same_files "$work/dump-reference" "$work/resume-dump" counts.txt "${counter_files[@]}"
  finish "kmer_counter --dump --continue on a damaged shard"
fi

if ! files_only "kmer_counter --dump --continue after a run without --dump"; then
  begin
  rm -rf "$work/resume-dump"
  killed_at "$work/resume-dump" "phase writing: started" "${counter[@]}" "$reads_1"
  run "${counter[@]}" --dump -o "$work/resume-dump" --continue "$reads_1"
  expect "exit status 0" status_is 0
  expect "no k-mers saved without --dump" grep -q "holds no counted k-mers" "$work/resume-dump/kmer_counter.log"
  expect "same bytes as an uninterrupted run" same_files "$work/dump-reference" "$work/resume-dump" counts.txt "${counter_files[@]}"
  finish "kmer_counter --dump --continue after a run without --dump"
fi

# Every phase in a plain build; under a sanitizer (each assembler run 10x slower) the stores'
# cleaning (done again from the start: the graph is saved cleaned), the first phase that
# resumes from the graph, and (not under ThreadSanitizer: files only) one after the contigs,
# which take the same code paths.
assembler_phases=(counting histogram "solid k-mers" edges walks unitigs cleaning "read bridges" "repeats, round 1" "reads and pairs" contigs
  scaffolds writing)
[ -z "${XENON_SANITIZE:-}" ] || assembler_phases=(cleaning "read bridges" writing)
[ "${XENON_SANITIZE:-}" != thread ] || assembler_phases=(cleaning "read bridges")  # writing: files only
# Killed while Bandage draws graph.png (after graph.gfa is published): the contigs checkpoint
# is still there, and the picture is drawn again. Without Bandage there is no such phase.
# Not under ThreadSanitizer: a resume from the contigs checkpoint, files only.
! command -v Bandage >/dev/null || [ "${XENON_SANITIZE:-}" = thread ] || assembler_phases+=("graph image")
for phase in "${assembler_phases[@]}"; do
  begin
  rm -rf "$work/resume-assembler"
  kill_and_continue "$work/resume-assembler" "phase $phase: started" "${assembler[@]}" "$reads_1" "$reads_2"
  expect "exit status 0" status_is 0
  expect "same bytes as an uninterrupted run" same_files "$work/assembler-reference" "$work/resume-assembler" "${assembler_files[@]}"
  case $phase in
    "read bridges" | repeats* | reads* | contigs | scaffolds)
      expect "the graph's phases skipped" grep -q "phases counting to cleaning: skipped" "$work/resume-assembler/assembler.log" ;;
    writing | "graph image")
      expect "every phase to the contigs skipped" grep -q "phases counting to contigs: skipped" "$work/resume-assembler/assembler.log"
      expect "nothing but the writing done" lacks "phase contigs" "$work/resume-assembler/assembler.log"
      expect "the scaffolds from the checkpoint" lacks "phase scaffolds" "$work/resume-assembler/assembler.log" ;;
  esac
  finish "assembler killed in '$phase', --continue"
done

if ! files_only "assembler --continue with another --min-contig"; then
  # The contigs depend on --min-contig: another value takes the graph's checkpoint instead.
  begin
  rm -rf "$work/resume-assembler"
  "${assembler[@]}" --min-contig 1000 -o "$work/assembler-long-reference" "$reads_1" "$reads_2" >/dev/null 2>&1
  killed_at "$work/resume-assembler" "phase writing: started" "${assembler[@]}" "$reads_1" "$reads_2"
  expect "the contigs saved" test -s "$work/resume-assembler/checkpoints/contigs"
  run "${assembler[@]}" --min-contig 1000 -o "$work/resume-assembler" --continue "$reads_1" "$reads_2"
  expect "exit status 0" status_is 0
  expect "the contigs of other options not used" grep -q "checkpoints/contigs not used: .*came from other inputs or options" "$work/resume-assembler/assembler.log"
  expect "the graph's phases skipped" grep -q "phases counting to cleaning: skipped" "$work/resume-assembler/assembler.log"
  expect "same bytes as an uninterrupted run" same_files "$work/assembler-long-reference" "$work/resume-assembler" "${assembler_files[@]}"
  finish "assembler --continue with another --min-contig"
fi

if ! files_only "assembler with several k killed, --continue"; then
  # Several k in turn, killed in the last round once its graph is saved: --continue does the
  # earlier round again (only the last keeps checkpoints; its graph names what the one before
  # carried) and goes on from the last round's graph, for the bytes of an uninterrupted run.
  begin
  rounds=("$bin/assembler" -t 2 --k-list "25,45" --quiet --graph-image no)
  "${rounds[@]}" -o "$work/rounds-reference" "$reads_1" "$reads_2" >/dev/null 2>&1
  rm -rf "$work/resume-rounds"
  # Round 1 settles no repeat: this is round 2's.
  killed_at "$work/resume-rounds" "phase repeats, round 1: started" "${rounds[@]}" "$reads_1" "$reads_2"
  expect "the last round's graph saved" test -s "$work/resume-rounds/checkpoints/graph"
  run "${rounds[@]}" -o "$work/resume-rounds" --continue "$reads_1" "$reads_2"
  expect "exit status 0" status_is 0
  expect "round 2 went on from its graph" grep -q "phases counting to cleaning: skipped" "$work/resume-rounds/assembler.log"
  expect "round 1 done again" grep -q "round 2 of 2: k=45, keeping the k-mers of the " "$work/resume-rounds/assembler.log"
  expect "same bytes as an uninterrupted run" same_files "$work/rounds-reference" "$work/resume-rounds" "${assembler_files[@]}"
  finish "assembler with several k killed, --continue"
fi

if ! files_only "assembler --12 killed in 'read bridges', --continue"; then
  # The same pairs as one interleaved file (--12), resumed from the graph: node 0 threads and
  # pairs every read alone (records 1 and 2, 3 and 4, ... of the file), for the bytes the stores
  # gave from the two files. Then other roles for the same file: its checkpoint is not used.
  begin
  rm -rf "$work/resume-interleaved"
  zcat "$reads_1" | paste - - - - >"$work/mates_1.tsv"
  zcat "$reads_2" | paste - - - - >"$work/mates_2.tsv"
  paste "$work/mates_1.tsv" "$work/mates_2.tsv" | tr '\t' '\n' >"$work/interleaved.fq"
  kill_and_continue "$work/resume-interleaved" "phase read bridges: started" "${assembler[@]}" --12 "$work/interleaved.fq"
  expect "exit status 0" status_is 0
  expect "the graph's phases skipped" grep -q "phases counting to cleaning: skipped" "$work/resume-interleaved/assembler.log"
  expect "same bytes as the two files" same_files "$work/assembler-reference" "$work/resume-interleaved" "${assembler_files[@]}"
  finish "assembler --12 killed in 'read bridges', --continue"
fi
if ! files_only "assembler --continue with -s after --12"; then
  begin
  rm -rf "$work/resume-interleaved"
  killed_at "$work/resume-interleaved" "phase read bridges: started" "${assembler[@]}" --12 "$work/interleaved.fq"
  run "${assembler[@]}" -o "$work/resume-interleaved" --continue -s "$work/interleaved.fq"
  expect "exit status 0" status_is 0
  expect "the checkpoint of other roles not used" grep -q "checkpoints/graph came from other inputs or options" \
    "$work/resume-interleaved/assembler.log"
  finish "assembler --continue with -s after --12"
fi

if [ "${XENON_MPI:-y}" != n ]; then
  begin
  rm -rf "$work/resume-mpi"
  kill_and_continue "$work/resume-mpi" "phase read bridges: started" "${mpiexec_command[@]}" "$bin/assembler" -t 1 -k 31 \
    --quiet "$reads_1" "$reads_2"
  expect "exit status 0" status_is 0
  expect "same bytes as an uninterrupted run" same_files "$work/assembler-reference" "$work/resume-mpi" "${assembler_files[@]}"
  expect "the graph's phases skipped" grep -q "phases counting to cleaning: skipped" "$work/resume-mpi/assembler.log"
  finish "assembler under mpiexec (2 ranks) killed, --continue"
fi

# --- Input, threads and ranks -------------------------------------------------------------
# A gzip file with other bytes after it (cat a.gz b.fq > c.fq.gz) once passed for a.gz alone.
begin
{ cat "$reads_1"; printf '@extra\nACGT\n+\nIIII\n'; } >"$work/appended.fq.gz"
run "${counter[@]}" -o "$work/appended" "$work/appended.fq.gz"
expect "exit status 1" status_is 1
expect "one line naming the offset" one_line_saying "data after the end of the gzip stream at byte $(stat -c %s "$reads_1")"
finish "gzip file with other bytes appended"

begin
run "$bin/kmer_counter" --quiet -threads-per-node 4096 -o "$work/many-threads" "$reads_1"
expect "exit status 1" status_is 1
expect "one line naming the bound" one_line_saying "at most .* workers are allowed"
expect "fails fast" faster_than 2
finish "-threads-per-node 4096"

# Under a limit of 20 processes per user, 32 threads cannot all start (needs root, to run as
# nobody, whom the limit binds; not under a sanitizer, whose runtime starts threads of its own:
# ThreadLimits.ThreadCreationFailureEndsWithOneLineAndExitOne covers those builds).
if [ "$(id -u)" -eq 0 ] && [ -z "${XENON_SANITIZE:-}" ] && command -v prlimit >/dev/null && command -v setpriv >/dev/null; then
  begin
  mkdir -p "$work/nproc" && chmod 777 "$work/nproc"
  printf '>r\nACGTACGTACGTACGTACGTACGTACGTACGTAAA\n' >"$work/nproc/in.fa" && chmod 644 "$work/nproc/in.fa"
  run setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=20 \
    "$bin/kmer_counter" --quiet -threads-per-node 32 -o "$work/nproc/out" "$work/nproc/in.fa"
  expect "exit status 1" status_is 1
  expect "one line naming the cause" one_line_saying "cannot start thread .*(ulimit -u) may be too low"
  finish "thread creation fails (ulimit -u 20)"
fi

if [ "${XENON_MPI:-y}" != n ]; then
  mpi_base=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0
    mpiexec --oversubscribe --bind-to none --timeout 120)
  begin
  run "${mpi_base[@]}" -n 1 "$bin/kmer_counter" --quiet -t 2 -o "$work/mixed" "$reads_1" \
    : -n 1 "$bin/kmer_counter" --quiet -t 1 -o "$work/mixed" "$reads_1"
  expect "a non-zero exit status" test "$status" -ne 0
  expect "a line naming both options" grep -q "the ranks were started with different engine options: rank 0 with -threads-per-node 3 .*rank 1 with -threads-per-node 1" "$work/err"
  expect "ends within 30 s" faster_than 30
  finish "ranks started with different options"

  begin
  run "${mpi_base[@]}" -n 2 "$bin/mpi_scenarios" -scenario unknown-type -threads-per-node 1
  expect "a non-zero exit status" test "$status" -ne 0
  expect "a line naming the rank and the failure" grep -q "xenon: rank 1 of 2 on .* failed: no actor type .*; ending the job" "$work/err"
  expect "ends within 30 s" faster_than 30
  finish "a rank fails (unknown actor type)"

  begin
  run "${mpi_base[@]}" -n 2 "$bin/mpi_scenarios" -scenario stopped -heartbeat-timeout 3 -threads-per-node 1
  expect "a non-zero exit status" test "$status" -ne 0
  expect "a line naming the silent rank" grep -q "failed: rank 1 has sent nothing for 3 s (-heartbeat-timeout)" "$work/err"
  expect "ends within 30 s" faster_than 30
  finish "a rank stops answering (SIGSTOP, heartbeat 3 s)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
