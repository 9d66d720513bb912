#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs each libFuzzer binary FUZZER_fuzzer in BUILD_DIR for SECONDS, starting from the seed
# corpus fuzz/corpus/FUZZER/ (new inputs go to BUILD_DIR/corpus/FUZZER, not into the tree).
# A crash leaves its input in BUILD_DIR/crashes/FUZZER/: copy it to fuzz/regressions/FUZZER/
# (where each fuzzer re-runs every file first) and fix the bug.
# Usage: tools/run_fuzzers.sh BUILD_DIR SECONDS FUZZER...
# Ends with "N passed, N failed" (one per fuzzer).
set -uo pipefail
build=$1
seconds=$2
shift 2
passed=0
failed=0
for fuzzer in "$@"; do
  binary=$build/${fuzzer}_fuzzer
  work=$build/corpus/$fuzzer
  crashes=$build/crashes/$fuzzer
  mkdir -p "$work" "$crashes"
  regressions=()
  if compgen -G "fuzz/regressions/$fuzzer/*" >/dev/null; then
    regressions=(fuzz/regressions/"$fuzzer"/*)
  fi
  echo "--- $fuzzer: ${#regressions[@]} regression input(s), then $seconds s of fuzzing"
  ok=1
  if [ ${#regressions[@]} -gt 0 ] && ! "$binary" "${regressions[@]}"; then ok=0; fi
  # -close_fd_mask=1: --help inputs print the help text; keep the log to libFuzzer's lines.
  if [ "$ok" -eq 1 ] && ! "$binary" -max_total_time="$seconds" -close_fd_mask=1 -timeout=5 \
    -rss_limit_mb=1024 -artifact_prefix="$crashes/" -print_final_stats=1 \
    "$work" "fuzz/corpus/$fuzzer" 2>&1 | grep -vE '^#[0-9]+.*(NEW|REDUCE|pulse)'; then
    ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1))
  else
    echo "FAIL $fuzzer: see $crashes/"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
