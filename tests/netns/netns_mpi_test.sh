#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Xenon across simulated hosts: Linux network namespaces joined by veth pairs to a bridge
# in a namespace of its own, with addresses that exist only inside them, and mpiexec
# launching one Open MPI daemon (orted) per "host" through an rsh agent that enters the
# host's namespace (ip netns exec) and UTS namespace (its own hostname). Ranks on
# different hosts can then only talk over TCP: their btl_tcp traffic crosses the veth pairs,
# which this script checks by reading the interfaces' byte counters.
#
#   XENON_BIN=build/release/bin tests/netns/netns_mpi_test.sh
#
# Needs root, `ip` (iproute2), `unshare` (util-linux) and mpiexec (Open MPI 4.1). Prints
# one PASS or FAIL line per check and exits non-zero if any failed or it could not set up.
# Removes its namespaces (and with them the veth pairs and the bridge) when it ends, on
# failure or interruption too; a watchdog ends it after XENON_NETNS_LIMIT seconds (90), and
# each mpiexec has XENON_NETNS_MPI_TIMEOUT seconds (30). XENON_NETNS_HOSTS: hosts (2).
#
# With XENON_NETNS_COMMAND set, it checks nothing: it runs that command (split into words)
# as one rank per host (XENON_NETNS_HOSTS ranks, all traffic over TCP), prints its output
# and exits with its status, cleaning up as always. performance/scaling/genomics_scaling.sh
# uses it (NETNS=1) to measure the genomics tools between simulated hosts.
set -uo pipefail

bin=${XENON_BIN:-build/release/bin}
bin=$(cd "$bin" 2>/dev/null && pwd) || { echo "FAIL: no binary folder ${XENON_BIN:-build/release/bin}"; exit 2; }
limit=${XENON_NETNS_LIMIT:-90}
hosts=${XENON_NETNS_HOSTS:-2}
mpi_timeout=${XENON_NETNS_MPI_TIMEOUT:-30}  # mpirun --timeout of each run (exit 110 then)

# Names unique to this run: the PID. Every namespace name starts with "xenon-netns-$$-".
tag="xenon-netns-$$"
bridge_ns="$tag-br"
node_ns=()
for ((i = 1; i <= hosts; ++i)); do node_ns+=("$tag-h$i"); done
launcher_ns="$tag-ln"  # where mpiexec runs
all_ns=("${node_ns[@]}" "$launcher_ns" "$bridge_ns")
# A /24 private to the namespaces; the root namespace never sees it, so it cannot collide
# with this machine's own networks (and two runs at once are in separate namespaces).
subnet_prefix="10.$((200 + $$ % 50)).$((($$ / 50) % 250))"
subnet="$subnet_prefix.0/24"
address() { echo "$subnet_prefix.$1"; }  # host i (1-based) is .i
work=$(mktemp -d /tmp/xenon-netns.XXXXXX)
failures=0
watchdog=""

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null && wait "$watchdog" 2>/dev/null
  local ns pid
  for ns in "${all_ns[@]}"; do
    [ -e "/var/run/netns/$ns" ] || continue
    # Whatever still runs in our namespaces (a rank or daemon after a failure) was started
    # by this script.
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null || echo "netns: could not remove namespace $ns" >&2
  done
  rm -rf "$work"
  local left
  left=$(ip netns list 2>/dev/null | grep -c "^$tag-")
  if [ "$left" -ne 0 ]; then
    echo "FAIL: $left namespaces of this run remain ($tag-*)"
    [ "$status" -eq 0 ] && status=1
  else
    echo "netns: cleaned up: no namespace $tag-* remains (nor its veth pairs, bridge, addresses)"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'echo "FAIL: interrupted"; exit 130' INT
trap 'echo "FAIL: ended by the watchdog or a signal"; exit 143' TERM

# Watchdog: after $limit seconds, stop whatever runs in our namespaces (mpiexec and its
# ranks live there), then end the script; the EXIT trap cleans up.
# (Its sleep holds no copy of our output, and goes when the watchdog is stopped: a reader of
# our output, such as the GoogleTest wrapper, sees its end as soon as we end.)
(
  sleeper=""
  trap '[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; exit 0' TERM
  sleep "$limit" >/dev/null 2>&1 &
  sleeper=$!
  wait "$sleeper" || exit 0
  echo "FAIL: still running after $limit s" >&2
  for ns in "${all_ns[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
  done
  kill -TERM $$
) &
watchdog=$!

# Namespaces left by an earlier run of this script that was killed outright (SIGKILL skips
# the trap): their PID no longer exists.
for stale in $(ip netns list 2>/dev/null | grep -oE '^xenon-netns-[0-9]+-[a-z0-9]+'); do
  stale_pid=${stale#xenon-netns-}
  stale_pid=${stale_pid%%-*}
  if [ ! -e "/proc/$stale_pid" ]; then
    for pid in $(ip netns pids "$stale" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    ip netns del "$stale" 2>/dev/null && echo "netns: removed $stale, left by an earlier run"
  fi
done

for tool in ip unshare mpiexec; do
  command -v "$tool" >/dev/null || { echo "FAIL: no '$tool' command"; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "FAIL: needs root (ip netns)"; exit 2; }
for program in mpi_scenarios latency_probe; do
  [ -x "$bin/$program" ] || { echo "FAIL: no $bin/$program (build it first: make)"; exit 2; }
done

# ---- the network: one bridge namespace, one namespace per host ----
setup() {
  local ns i
  for ns in "$bridge_ns" "${node_ns[@]}"; do
    ip netns add "$ns" || return 1
    ip -n "$ns" link set lo up || return 1
  done
  ip -n "$bridge_ns" link add br0 type bridge || return 1
  ip -n "$bridge_ns" link set br0 up || return 1
  for ((i = 1; i <= hosts; ++i)); do
    ns=${node_ns[i - 1]}
    # Created inside the namespaces: neither end ever exists in the root namespace.
    ip -n "$bridge_ns" link add "port$i" type veth peer name eth0 netns "$ns" || return 1
    ip -n "$bridge_ns" link set "port$i" master br0 || return 1
    ip -n "$bridge_ns" link set "port$i" up || return 1
    ip -n "$ns" addr add "$(address "$i")/24" dev eth0 || return 1
    ip -n "$ns" link set eth0 up || return 1
  done
}
if ! setup; then
  fail "could not create the namespaces, veth pairs and bridge"
  exit 1
fi
echo "netns: bridge namespace $bridge_ns; hosts ${node_ns[*]} on $subnet"

# The rsh agent: Open MPI runs "agent HOST COMMAND..." to start its daemon on HOST, as it
# would run ssh (which hands the words to a shell, so the agent does too).
cat >"$work/agent" <<EOF
#!/bin/sh
host=\$1
shift
case "\$host" in
$(for ((i = 1; i <= hosts; ++i)); do echo "  $(address "$i")|${node_ns[i - 1]}) ns=${node_ns[i - 1]} ;;"; done)
  *) echo "netns agent: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec "\$ns" unshare --uts sh -c 'hostname "\$0"; eval "\$*"' "\$ns" "\$@"
EOF
chmod +x "$work/agent"

# mpiexec runs in a namespace of its own on the bridge (address .254, not in the
# hostfile), so that every host's ranks are started by a daemon launched through the agent.
launcher_setup() {
  ip netns add "$launcher_ns" &&
    ip -n "$launcher_ns" link set lo up &&
    ip -n "$bridge_ns" link add portl type veth peer name eth0 netns "$launcher_ns" &&
    ip -n "$bridge_ns" link set portl master br0 &&
    ip -n "$bridge_ns" link set portl up &&
    ip -n "$launcher_ns" addr add "$(address 254)/24" dev eth0 &&
    ip -n "$launcher_ns" link set eth0 up
}
if ! launcher_setup; then
  fail "could not create the launcher namespace"
  exit 1
fi

# slots per host: the ranks of one run go round the hosts (--map-by node).
write_hostfile() {
  local slots=$1 i
  : >"$work/hostfile"
  for ((i = 1; i <= hosts; ++i)); do echo "$(address "$i") slots=$slots" >>"$work/hostfile"; done
}

mpi_extra=()  # more mpiexec options for the next run
# mpirun in the launcher namespace; ranks on the hosts; TCP between hosts only over the subnet.
mpi_run() {
  local processes=$1
  shift
  # shellcheck disable=SC2016  # $0 and $@ are the inner shell's
  ip netns exec "$launcher_ns" unshare --uts sh -c 'hostname "$0"; exec "$@"' "$launcher_ns" \
    env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_mpi_yield_when_idle=1 ASAN_OPTIONS=detect_leaks=0 \
    mpiexec --timeout "$mpi_timeout" -n "$processes" --hostfile "$work/hostfile" \
    --map-by node --bind-to none --oversubscribe \
    --mca plm_rsh_agent "$work/agent" --mca plm_rsh_no_tree_spawn 1 \
    --mca btl self,vader,tcp --mca btl_tcp_if_include "$subnet" \
    --mca oob_tcp_if_include "$subnet" "${mpi_extra[@]}" "$@"
}

# Bytes received on each host's eth0 (the only way out of its namespace).
rx_bytes() { ip netns exec "$1" cat /sys/class/net/eth0/statistics/rx_bytes; }

run_and_log() {  # NAME PROCESSES PROGRAM ARGS...: runs, keeps the output in $work/NAME.log
  local name=$1 processes=$2
  shift 2
  local started=$SECONDS
  mpi_run "$processes" "$@" >"$work/$name.log" 2>&1
  local status=$?
  echo "--- $name (exit $status, $((SECONDS - started)) s): mpiexec -n $processes $(basename "$1") ${*:2}"
  # The log, less the verbose BTL chatter (its "mca: bml: Using X btl" choices are kept).
  grep -vE '^\[[^]]*\] (mca: base:|btl: ?tcp|select:|mca: bml: Using .* btl for send to \[\[[0-9]+,[0-9]+\],[0-9]+\] on node [a-z])' \
    "$work/$name.log" | sed 's/^/    /'
  local chatter
  chatter=$(grep -cE '^\[[^]]*\] (mca: |btl: ?tcp|select:)' "$work/$name.log")
  [ "$chatter" -eq 0 ] || echo "    ($chatter lines of --mca btl_base_verbose output not shown)"
  return $status
}

check_exit() {  # NAME STATUS
  if [ "$2" -eq 0 ]; then pass "$1: exit 0"; else fail "$1: exit $2"; fi
}

expect_line() {  # NAME PATTERN DESCRIPTION
  if grep -qE "$2" "$work/$1.log"; then pass "$1: $3"; else fail "$1: $3 (no line matching '$2')"; fi
}

if [ -n "${XENON_NETNS_COMMAND:-}" ]; then
  read -r -a command_words <<<"$XENON_NETNS_COMMAND"
  write_hostfile 1
  mpi_run "$hosts" "${command_words[@]}"
  exit $?
fi

total_started=$SECONDS
write_hostfile 2
processes=$((2 * hosts))

# ---- 1. each rank's host: every host runs ranks, under its own hostname ----
run_and_log hostname "$processes" hostname
status=$?
distinct=$(sort -u "$work/hostname.log" | grep -c "^$tag-h[0-9]*$")
on_hosts=$(grep -c "^$tag-h[0-9]*$" "$work/hostname.log")
if [ $status -eq 0 ] && [ "$distinct" -eq "$hosts" ] && [ "$on_hosts" -eq "$processes" ]; then
  pass "hostname: $processes ranks ran on $distinct distinct hosts: $(sort -u "$work/hostname.log" | paste -sd ' ')"
else
  fail "hostname: exit $status, $on_hosts of $processes ranks on $distinct of $hosts hosts"
fi

# ---- 2. the scenarios and latency_probe, one rank per host: every message crosses TCP ----
write_hostfile 1
declare -A rx_before
for ((i = 1; i <= hosts; ++i)); do rx_before[$i]=$(rx_bytes "${node_ns[i - 1]}"); done

mpi_extra=(--mca btl_base_verbose 100)  # the TCP BTL then logs its connections
run_and_log ordering "$hosts" "$bin/mpi_scenarios" -scenario ordering -threads-per-node 2
status=$?
mpi_extra=()
check_exit ordering "$status"
expect_line ordering "^ordering: .* receivers each got" "every message delivered once and in order"
expect_line ordering "^node 0: $hosts nodes" "$hosts nodes"
! grep -q FAILED "$work/ordering.log" || fail "ordering: a FAILED line"
# Open MPI's BML names the BTL it picked for each peer: TCP, to an address on our subnet.
expect_line ordering "mca: bml: Using tcp btl for send to .* on node ${subnet_prefix//./\\.}\.[0-9]+" \
  "the ranks talk through the TCP BTL over $subnet"
if grep -qE "mca: bml: Using (vader|sm) btl" "$work/ordering.log"; then
  fail "ordering: shared memory was used between ranks on different hosts"
fi

run_and_log payloads "$hosts" "$bin/mpi_scenarios" -scenario payloads -threads-per-node 2
status=$?
check_exit payloads "$status"
expect_line payloads "^payloads: .* crossed nodes intact" "payloads up to 64 MiB crossed hosts intact"
expect_line payloads "^node 0: $hosts nodes" "$hosts nodes"
! grep -q FAILED "$work/payloads.log" || fail "payloads: a FAILED line"

# The payloads (0 B to 64 MiB, to the last host and back) went through the veth pairs:
# the last host's eth0 received at least 64 MiB, and so did host 1's.
min_bytes=$((64 * 1024 * 1024))
for i in 1 "$hosts"; do
  ns=${node_ns[i - 1]}
  received=$(($(rx_bytes "$ns") - rx_before[$i]))
  if [ "$received" -ge "$min_bytes" ]; then
    pass "traffic: $ns received $received bytes on eth0 (over the bridge, not shared memory)"
  else
    fail "traffic: $ns received only $received bytes on eth0, expected at least $min_bytes"
  fi
done

probe_args=(-threads-per-node 2 -actor-count-per-worker 10 -ping-message-count-per-actor 2000)
run_and_log latency_probe "$hosts" "$bin/latency_probe" "${probe_args[@]}"
status=$?
check_exit latency_probe "$status"
actors=$((hosts * 10))  # one worker per host (the other thread communicates)
expect_line latency_probe "^PERFORMANCE_COUNTER node-count = $hosts$" "node-count = $hosts"
expect_line latency_probe "^PERFORMANCE_COUNTER actor-count = $actors$" "actor-count = $actors"
expect_line latency_probe "^PERFORMANCE_COUNTER message-count = $((actors * 2000 * 2))$" \
  "message-count = $((actors * 2000 * 2)) (every ping got one reply)"
expect_line latency_probe "^PERFORMANCE_COUNTER dead-letter-count = 0$" "dead-letter-count = 0"

# ---- 3. two ranks per host: shared memory inside a host, TCP between hosts ----
write_hostfile 2
mpi_extra=(--mca btl_base_verbose 100)
run_and_log ordering_2_per_host "$processes" "$bin/mpi_scenarios" -scenario ordering \
  -threads-per-node 1
status=$?
mpi_extra=()
check_exit ordering_2_per_host "$status"
expect_line ordering_2_per_host "^ordering: .* receivers each got" \
  "every message delivered once and in order"
expect_line ordering_2_per_host "^node 0: $processes nodes" "$processes nodes on $hosts hosts"
expect_line ordering_2_per_host "mca: bml: Using vader btl for send to" \
  "shared memory between the ranks of one host"
expect_line ordering_2_per_host "mca: bml: Using tcp btl for send to .* on node ${subnet_prefix//./\\.}\.[0-9]+" \
  "TCP between hosts"
# Each choice, by the host that made it: vader only to a peer on the same host, TCP only to
# a peer on another host.
wrong=$(awk -v tag="$tag" -v prefix="$subnet_prefix" '
  match($0, /^\[[^]:]*:/) && /mca: bml: Using .* btl for send to/ {
    host = substr($0, 2, RLENGTH - 2); sub("^" tag "-h", "", host)
    btl = $0; sub(/.*Using /, "", btl); sub(/ btl.*/, "", btl)
    node = $NF; same = (node == prefix "." host)
    if ((btl == "vader" && !same) || (btl != "vader" && same)) { print; bad++ }
  }
  END { exit bad > 0 }' "$work/ordering_2_per_host.log")
if [ $? -eq 0 ]; then
  pass "ordering_2_per_host: every BTL choice matches where its peer lives"
else
  fail "ordering_2_per_host: BTL choices that cross hosts the wrong way: $wrong"
fi

echo "netns: checks took $((SECONDS - total_started)) s"
if [ "$failures" -eq 0 ]; then
  echo "PASS: netns_mpi_test ($hosts hosts, TCP over $subnet)"
else
  echo "FAIL: netns_mpi_test: $failures checks failed"
  exit 1
fi
