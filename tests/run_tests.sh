#!/usr/bin/env bash
# Runs the GoogleTest binary and ends with one line "N passed, N failed" counting every test
# case; exits non-zero if any failed or the binary died.
set -uo pipefail
binary=$1
log=$(mktemp)
"$binary" --gtest_color=no 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -cE '^\[       OK \] ' "$log")
failed=$(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$log")
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "test binary exited with status $status before finishing" >&2
  failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
