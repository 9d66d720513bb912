#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the same workloads on Xenon, CAF and Erlang, one after another, and prints one table
# of wall-clock nanoseconds per message with the peers' ratios to Xenon from this one run.
#   performance/peers/run_peers.sh [BIN_DIR] [REPETITIONS]     (BIN_DIR: build/release/bin)
# Needs `make deps-dev` (libcaf-dev, erlang-base) and a release build (`make`). Not part of
# CI: it takes a few minutes. Workloads (each runtime's version checks its own counts):
#   latency    latency_probe's: 100 actors per worker, 40,000 pings each to random actors,
#              each awaiting its pong
#   big        Savina's: 120 actors x 20,000 random pings, each awaiting its pong
#   ping-pong  Savina's: two actors, 40,000 round trips
#   fork-join-throughput  Savina's fjthrput: a driver sends 10,000 messages to each of 60 actors
# Each figure is the median of REPETITIONS (3) runs, for 1 and for 2 workers. WORKLOADS="big
# ping-pong" runs only those.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/release/bin}
repetitions=${2:-3}
build=$root/build/peers
for tool in g++ erlc erl; do
  command -v "$tool" >/dev/null || { echo "run_peers.sh: error: $tool is missing: run make deps-dev" >&2; exit 1; }
done
[ -f /usr/include/caf/all.hpp ] || { echo "run_peers.sh: error: CAF headers missing: run make deps-dev" >&2; exit 1; }
for program in latency_probe savina; do
  [ -x "$bin/$program" ] || { echo "run_peers.sh: error: $bin/$program missing: run make" >&2; exit 1; }
done
mkdir -p "$build"
g++ -O2 -std=c++17 -o "$build/caf_peer" "$root/performance/peers/caf/caf_peer.cpp" -lcaf_core -lpthread
erlc -o "$build" "$root/performance/peers/erlang/xenon_peer.erl"

counter() { sed -n "s/^PERFORMANCE_COUNTER $1 = \([0-9.]*\).*/\1/p"; }

# Xenon: W workers is -threads-per-node 1 for one (the worker drives everything), else W+1
# (a communication thread beside the workers; it parks when there is no other node).
xenon_ns() {
  local benchmark=$1 workers=$2 placement_asked=${3:-} threads out best=""
  threads=$((workers == 1 ? 1 : workers + 1))
  if [ "$benchmark" = latency ]; then
    for _ in $(seq "$repetitions"); do
      out=$("$bin/latency_probe" -threads-per-node "$threads" 2>/dev/null)
      best+="$(awk -v t="$(counter elapsed-time <<<"$out")" -v m="$(counter message-count <<<"$out")" \
        'BEGIN { printf "%.0f", t * 1e9 / m }') "
    done
    tr ' ' '\n' <<<"$best" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
  else
    local placement=() name=$benchmark
    if [ "$benchmark" = ping-pong ]; then  # one worker: both actors on it; two: one each, or as asked
      local where=${placement_asked:-$([ "$workers" = 1 ] && echo same || echo different)}
      placement=(-ping-pong-placement "$where")
      name=ping-pong-$([ "$where" = same ] && echo same-worker || echo different-workers)
    fi
    "$bin/savina" -benchmark "$benchmark" -threads-per-node "$threads" -repetitions "$repetitions" "${placement[@]}" |
      counter "savina-$name-ns-per-message" | awk '{ printf "%.0f\n", $1 }'
  fi
}
caf_ns() { "$build/caf_peer" -benchmark "$1" -workers "$2" -repetitions "$repetitions" | counter ns-per-message; }
erlang_ns() { erl -noshell +S "$2:$2" -pa "$build" -run xenon_peer main "$1" "$2" "$repetitions" | counter ns-per-message; }

row() {
  awk -v b="$1" -v w="$2" -v x="$3" -v c="$4" -v e="$5" \
    'BEGIN { printf "| %s | %d | %d | %d | %d | %.1fx | %.1fx |\n", b, w, x, c, e, c / x, e / x }'
}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# CAF $(dpkg-query -W -f='${Version}' libcaf-dev 2>/dev/null), Erlang/OTP $(erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().'), median of $repetitions"
printf '| workload | workers | Xenon ns/message | CAF ns/message | Erlang ns/message | CAF / Xenon | Erlang / Xenon |\n'
printf '|---|---|---|---|---|---|---|\n'
for benchmark in ${WORKLOADS:-latency big ping-pong fork-join-throughput}; do
  for workers in 1 2; do
    x=$(xenon_ns "$benchmark" "$workers")
    c=$(caf_ns "$benchmark" "$workers")
    e=$(erlang_ns "$benchmark" "$workers")
    for figure in "$x" "$c" "$e"; do
      [ -n "$figure" ] && [ "$figure" != 0 ] ||
        { echo "run_peers.sh: error: $benchmark with $workers worker(s): a runtime printed no ns-per-message" >&2; exit 1; }
    done
    row "$benchmark" "$workers" "$x" "$c" "$e"
    # CAF's and Erlang's schedulers keep the two ping-pong actors on one thread when they can;
    # Xenon places them: its row above has them on different workers, this one on one.
    if [ "$benchmark$workers" = ping-pong2 ]; then
      row "ping-pong (Xenon's actors on one worker)" 2 "$(xenon_ns ping-pong 2 same)" "$c" "$e"
    fi
  done
done
