#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs, for each cross target built by `make cross-build` (build/cross-TARGET/), the unit
# tests and a small multi-worker latency_probe under qemu-user, then the barrier check.
# Ends with one "N passed, N failed" line over every target.
# Usage: tools/test_cross.sh TARGET...   (ppc64, ppc64le, arm64)
set -uo pipefail
cd "$(dirname "$0")/.."

# Suites that exercise the ring, parker, options and engine in this process. The others
# start our binaries as child processes, which needs binfmt_misc (absent in containers).
filter='SpscRing*:Parker*:CommandLine*:Random*:Engine*:Action*:ActorName*:Payload*:Scheduling*:WireFrame*:Typed*:*Balancing*:QueueTime*:Migration*'
passed=0
failed=0
count() {  # count LOG: adds the log's last "N passed, N failed" line to the totals
  local summary
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
  if [ -z "$summary" ]; then
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + $(echo "$summary" | awk '{print $1}')))
  failed=$((failed + $(echo "$summary" | awk '{print $3}')))
}

for target in "$@"; do
  case "$target" in
    ppc64) qemu=qemu-ppc64 sysroot=/usr/powerpc64-linux-gnu ;;
    ppc64le) qemu=qemu-ppc64le sysroot=/usr/powerpc64le-linux-gnu ;;
    arm64) qemu=qemu-aarch64 sysroot=/usr/aarch64-linux-gnu ;;
    *) echo "test_cross: unknown target '$target'" >&2; exit 2 ;;
  esac
  bin=build/cross-$target/bin
  log=$(mktemp)
  started=$SECONDS
  echo "--- $target: unit tests under $qemu"
  # The stress tests scale down under XENON_SANITIZE, as they do under the sanitizers:
  # emulation is 10-50x slower than the host.
  XENON_SANITIZE=qemu GTEST_FILTER=$filter XENON_RUNNER="$qemu -L $sysroot" \
    tests/run_tests.sh "$bin/xenon_tests" 2>&1 | tee "$log"
  count "$log"
  echo "--- $target: latency_probe -threads-per-node 3 under $qemu"
  if timeout 300 "$qemu" -L "$sysroot" "$bin/latency_probe" -threads-per-node 3 \
    -ping-message-count-per-actor 2000 2>&1 | tee "$log"; then
    passed=$((passed + 1))
  else
    echo "FAIL $target: latency_probe exited with status $?"
    failed=$((failed + 1))
  fi
  echo "--- $target: barriers"
  tools/check_barriers.sh "$target" "build/cross-$target/obj/tools/barrier_points.o" | tee "$log"
  count "$log"
  rm -f "$log"
  echo "--- $target: $((SECONDS - started)) s"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
