#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks that the cross-built ring and parker emit the barriers their orders need, by
# disassembling tools/barrier_points.cpp as compiled for each target:
#   POWER: release = lwsync (or sync) before the store; acquire = isync (ld; cmp; bc; isync)
#          or a sync after the load; the parker's seq_cst fence = sync (hwsync), not lwsync.
#   ARM64: release = stlr (or dmb); acquire = ldar/ldapr (or dmb); seq_cst fence = dmb ish.
# The weakened_ functions (relaxed orders) must have none of them: the negative control.
# QEMU does not reorder memory, so this is how CI knows the barriers are really there.
# Usage: tools/check_barriers.sh TARGET OBJECT   (TARGET: ppc64, ppc64le or arm64)
# Ends with "N passed, N failed" (one check per function).
set -uo pipefail
target=$1
object=$2
case "$target" in
  ppc64 | ppc64le)
    objdump=powerpc64-linux-gnu-objdump
    [ "$target" = ppc64le ] && objdump=powerpc64le-linux-gnu-objdump
    release='lwsync|hwsync|sync'
    acquire='isync|lwsync|hwsync|sync'
    full='hwsync|sync'
    any='lwsync|hwsync|sync|isync'
    ;;
  arm64)
    objdump=aarch64-linux-gnu-objdump
    release='stlr|dmb'
    acquire='ldar|ldapr|dmb'
    full='dmb[[:space:]]+ish$'
    any='stlr|ldar|ldapr|dmb'
    ;;
  *)
    echo "check_barriers: unknown target '$target'" >&2
    exit 2
    ;;
esac

disassembly=$($objdump -d --no-show-raw-insn "$object") || exit 1
passed=0
failed=0

# The instructions of one function (ELFv1 big-endian POWER names its code ".name").
body() {
  echo "$disassembly" | awk -v name="$1" '
    /^[0-9a-f]+ <.*>:$/ { inside = ($2 == "<" name ">:" || $2 == "<." name ">:"); next }
    inside && NF { sub(/^[[:space:]]*[0-9a-f]+:[[:space:]]*/, ""); print }'
}

check() {  # check FUNCTION WHAT PATTERN want|none
  local code found
  code=$(body "$1")
  if [ -z "$code" ]; then
    echo "FAIL $target $1: not found in $object"
    failed=$((failed + 1))
    return
  fi
  found=$(echo "$code" | grep -E "^($3)([[:space:]]|$)" | awk '{print $1}' | sort -u | tr '\n' ' ')
  if [ "$4" = want ] && [ -n "$found" ]; then
    echo "ok   $target $1: $2: ${found% }"
    passed=$((passed + 1))
  elif [ "$4" = none ] && [ -z "$found" ]; then
    echo "ok   $target $1: $2: none, as expected"
    passed=$((passed + 1))
  else
    echo "FAIL $target $1: $2: expected ${4/want/one of} /$3/, found '${found% }'"
    echo "$code" | sed 's/^/       /'
    failed=$((failed + 1))
  fi
}

check xenon_barrier_publish "release store of tail" "$release" want
check xenon_barrier_observe_tail "acquire load of tail" "$acquire" want
check xenon_barrier_observe_head "acquire load of head" "$acquire" want
check xenon_barrier_consumer_took_everything "acquire load of head (balancing hand-off)" "$acquire" want
check xenon_barrier_release_head "release store of head" "$release" want
check xenon_barrier_wake "seq_cst fence in Parker::wake" "$full" want
check xenon_barrier_weakened_publish "relaxed store (control)" "$any" none
check xenon_barrier_weakened_observe_tail "relaxed load (control)" "$any" none
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
