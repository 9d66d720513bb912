#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the GoogleTest binary, then every other xenon_*_tests binary beside it (suites that
# mk/*.mk build with their own flags, e.g. xenon_model_tests), and ends with one line
# "N passed, N failed" counting every test case of all of them; exits non-zero if any failed
# or a binary died. XENON_FAULT_CASES, if set (mk/genomics.mk sets it for make test), names a
# script that ends with its own "N passed, N failed" line (tests/faults/fault_cases.sh): it
# runs after the binaries, and its cases count in the same total. XENON_RUNNER, if set, is put in front of each binary (e.g. "qemu-ppc64 -L
# /usr/powerpc64-linux-gnu" for a cross build).
set -uo pipefail
read -r -a runner <<<"${XENON_RUNNER:-}"
binary=$1
binaries=("$binary")
for extra in "$(dirname "$binary")"/xenon_*_tests; do
  [ -x "$extra" ] && [ "$extra" != "$binary" ] && binaries+=("$extra")
done
passed=0
failed=0
for test_binary in "${binaries[@]}"; do
  log=$(mktemp)
  "${runner[@]}" "$test_binary" --gtest_color=no 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  binary_passed=$(grep -cE '^\[       OK \] ' "$log")
  binary_failed=$(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$log")
  rm -f "$log"
  if [ "$status" -ne 0 ] && [ "$binary_failed" -eq 0 ]; then
    echo "test binary $test_binary exited with status $status before finishing" >&2
    binary_failed=1
  fi
  passed=$((passed + binary_passed))
  failed=$((failed + binary_failed))
done
if [ -n "${XENON_FAULT_CASES:-}" ]; then
  log=$(mktemp)
  "$XENON_FAULT_CASES" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  summary=$(tail -n 1 "$log")
  rm -f "$log"
  if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
  fi
  if [ "$status" -ne 0 ] && [ "${BASH_REMATCH[2]:-0}" -eq 0 ]; then
    echo "$XENON_FAULT_CASES exited with status $status before finishing" >&2
    failed=$((failed + 1))
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
