#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Predicts the wall time and parallel efficiency of kmer_counter and assembler on 16 to 1,024
nodes of a cluster from what they cost on a few processes here (the SCALING lines of
performance/scaling/genomics_scaling.sh, or of scaling_report.py) and the cluster's network.

    model.py REPORT [--network ib-pcie|tcp-netns] [--latency-us L] [--bandwidth-mbs B]
                    [--nodes 16,32,...] [--tool T]

Busy time is CPU time where every run of the tool carries it (busy_cpu_s, busy_cpu_total_s,
serial_cpu_s: --stats measures it; MODEL_FIT says time=cpu), else wall-clock time (time=wall).
CPU time leaves out the time the OS ran other ranks, which on fewer cores than processes
inflates wall-clock busy time at P = 4 and 8 by 1.5x and more; it still holds what sharing
cores costs the caches. Where they differ, the figures below say how.

Figures it uses, per tool, from the report:
  T1  total busy time of the P = 1 run (the work, all of it on one node);
  S   per phase, busy time in which one node alone had work, at the largest P measured (Pr):
      the serial steps, which more nodes do not shorten;
  W   the parallel work of the distributed tool: total busy time less S at Pw. In CPU time Pw
      is Pr: the CPU work grows with P (on 40x E. coli, 85 s at P = 2 to 105 s at P = 8 for
      the assembler), as more of the data crosses between nodes and as ranks sharing a core
      evict each other's caches; taking Pr's keeps the first and overstates the second
      (pessimistic). In wall-clock time Pw is the largest P that had a core per process
      (--cores, else the report's "N cores"; Pw = 1 if none), as processes sharing a core
      inflate it. W includes what distributing costs (packing, unpacking, routing messages),
      which P = 1 does not pay;
  I   the parallel work's imbalance at Pr: (busiest node's busy - S) over the mean parallel
      busy time ((total busy - S) / Pr), at least 1;
  bytes, messages and frames each node sent to others at Pr: node 0's excess over the mean of
      the others is what node 0 alone sends, the rest is an all-to-all exchange (k-mers hashed
      over the nodes). Where the report says what each node sent node 0 (bytes_to_node0) and
      Pr >= 3, node 0's excess in bytes is taken as broadcasts: B, what node 0 sends each
      other node beyond what the others send each other, sent again to every node added; and,
      where node 0's line also says what it sent each node (bytes_to_nodes) and some node is
      not its child in the binary tree of the nodes (1, 2, 4, ...: merge_tree.hpp with one
      store a node), R, what it sent each child beyond the others: a broadcast relayed down
      that tree (the threading requests' unitig ends), which node 0 sends ceil(log2 N) times
      and the others pass on. Else as C, a volume that does not grow with N. Before either,
      what node 0's line says it scattered (scattered_bytes: shares of data it alone held, a
      different share each node, such as the carried sequences) is taken out: the whole of
      it, D, is split over the nodes.

Prediction at N nodes, of node 0 (the node that does the serial steps and sends the most):
  T(N) = S + I * W / N + frames(N) * latency + bytes(N) / bandwidth + exchanges(N)
  bytes(N)  = B * (N - 1) + R * ceil(log2 N) + D * x(N) + A * x(N) / N, or
              C * x(N) / x(Pr) + D * x(N) + A * x(N) / N without B and R, with
              x(n) = (n - 1) / n the share of hashed data that leaves a node, A the all-to-all
              volume;
  frames(N) = max((bytes(N) - broadcasts) / mean frame bytes at Pr, (N - 1) * phases): at
              least one frame to every peer in every phase (a broadcast's megabytes go in large
              messages, within that floor);
  exchanges(N) = max(phases, E) * (2 * latency + 2 * (N - 1) * message overhead): each time
              node 0 sends every node a message and hears from every node before it goes on:
              its coordinator at the end of every phase and at every step it leads, and its
              store at every step of joining and cleaning, where each store sends every store
              one message however few bytes it carries. E is node 0's count (exchanges=, with
              one store a node, as the scaling runs have); it does not change with N.
  efficiency = T1 / (N * T(N)) in CPU time: the measured one-process work over N times
  T(N). In wall-clock time (S + W) / (N * T(N)), the fitted one-node work: the measured T1
  is printed beside it, but not divided by, as wall-clock busy time on a shared machine
  swings by 2x between runs, and against a fit it would make efficiencies over 1.
  speedup = T1 / T(N) (CPU) or (S + W) / T(N) (wall-clock). The limiting step is T(N)'s
  largest term.

Assumptions (each makes the prediction optimistic or pessimistic as said):
  - the cluster's cores run a unit of work as fast as the cores of the measured machine;
  - serial steps stay on one node and keep their measured length (as the tools are today);
  - the parallel work divides over N nodes with the imbalance measured at Pr (more nodes
    usually worsen it: optimistic);
  - communication does not overlap computation, and every frame pays a full latency (no
    pipelining: pessimistic); only node 0's sending is counted, as it sends the most (a
    relayed broadcast reaches the last node after ceil(log2 N) transfers of R, about when node
    0 has sent its copies, so node 0's sending stands for it);
  - in wall-clock time, busy time at Pr on fewer cores than processes (2 cores here) is
    inflated by time the OS gave to other ranks; the model takes W from Pw and only S, I and
    the bytes from Pr, so I may be inflated (pessimistic). In CPU time, W, S and I all come
    from Pr, with what sharing cores costs the caches (pessimistic).
Network figures (--network): ib-pcie: 4.5 us MPI latency, 1,120 MB/s (Mellanox InfiniHost III
Ex on PCI Express, Pallas sendrecv: the Beowulf thread "EM64T Clusters", Don Holmgren, 2004, in
/work/shared/seeds); tcp-netns: 7.8 us, 2,200 MB/s (TCP between network namespaces on this
machine, /work/shared/MPI_NOTES.md). Message overhead: 1 us per control message at node 0.

Checks: for every P measured besides 1 and Pr, MODEL_CHECK lines compare the predicted and
measured bytes node 0 and the other nodes sent (with a broadcast B, the others' predicted bytes
leave out what they send node 0 beyond what they send each other: the results it gathers) and the busiest node's busy time (wall-clock busy time is
only comparable at P <= the number of cores, CPU time at every P: busy_comparable=yes), and the predicted wall time
T(P) with the runs' network against the measured one (process start included): meaningful
for runs over the network given, such as NETNS=1 runs with --network tcp-netns.
"""
import argparse
import math
import re
import sys

NETWORKS = {
    "ib-pcie": (4.5, 1120.0, "InfiniBand SDR 4x, PCI Express (Beowulf 'EM64T Clusters', 2004)"),
    "tcp-netns": (7.8, 2200.0, "TCP between network namespaces on this machine (MPI_NOTES.md)"),
}
MESSAGE_OVERHEAD_S = 1e-6
TERM_KEYS = {"serial steps on node 0": "serial", "parallel work": "parallel", "node 0's bandwidth": "bandwidth",
             "frame latency": "latency", "exchanges with every node": "exchanges"}
LINE = re.compile(r"^(SCALING|SCALING_PHASE|SCALING_RUN) (.*)$")
CORES = re.compile(r"^genomics_scaling: (\d+) cores")


class ModelError(Exception):
    pass


def parse_fields(text, number):
    fields = {}
    for word in text.split():
        key, equals, value = word.partition("=")
        if not equals or not key:
            raise ModelError(f"line {number}: '{word}' is not key=value")
        fields[key] = value
    return fields


def number(fields, key, line):
    try:
        value = float(fields[key])
    except KeyError:
        raise ModelError(f"line {line}: no {key}=") from None
    except ValueError:
        raise ModelError(f"line {line}: {key}={fields[key]} is not a number") from None
    if math.isnan(value) or value < 0:
        raise ModelError(f"line {line}: {key}={fields[key]} must be a number >= 0")
    return value


def read_report(path):
    """(tool -> P -> {'ranks': {rank: figures}, 'phases': {name: serial_s}}, cores or None)"""
    tools = {}
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.readlines()
    except OSError as error:
        raise ModelError(f"{path}: cannot read: {error.strerror}") from None
    cores = None
    for index, text in enumerate(lines, 1):
        said = CORES.match(text)
        if said and cores is None:
            cores = int(said.group(1))
        match = LINE.match(text.strip())
        if not match:
            continue
        kind, rest = match.groups()
        fields = parse_fields(rest, index)
        if "tool" not in fields or "P" not in fields:
            raise ModelError(f"line {index}: {kind} without tool= and P=")
        processes = number(fields, "P", index)
        if processes < 1 or processes != int(processes):
            raise ModelError(f"line {index}: P={fields['P']} is not a process count")
        run = tools.setdefault(fields["tool"], {}).setdefault(
            int(processes), {"ranks": {}, "phases": {}, "cpu_phases": {}, "run": None})
        if kind == "SCALING" and fields.get("phase") == "all":
            rank = int(number(fields, "rank", index))
            run["ranks"][rank] = {key: number(fields, key, index)
                                  for key in ("busy_s", "bytes_sent", "msgs_sent", "frames_sent")}
            if "busy_cpu_s" in fields:
                run["ranks"][rank]["busy_cpu_s"] = number(fields, "busy_cpu_s", index)
            if "bytes_to_node0" in fields:
                run["ranks"][rank]["bytes_to_node0"] = number(fields, "bytes_to_node0", index)
            if "scattered_bytes" in fields:
                run["ranks"][rank]["scattered_bytes"] = number(fields, "scattered_bytes", index)
            if "exchanges" in fields:
                run["ranks"][rank]["exchanges"] = number(fields, "exchanges", index)
            if "bytes_to_nodes" in fields:
                values = fields["bytes_to_nodes"].split(",")
                run["ranks"][rank]["bytes_to_nodes"] = [
                    number({"bytes_to_nodes": value}, "bytes_to_nodes", index) for value in values]
        elif kind == "SCALING_PHASE":
            serial = fields.get("serial_s", "n/a")
            run["phases"][fields.get("phase", "?")] = 0.0 if serial == "n/a" else number(fields, "serial_s", index)
            if "serial_cpu_s" in fields:
                serial_cpu = fields["serial_cpu_s"]
                run["cpu_phases"][fields.get("phase", "?")] = (0.0 if serial_cpu == "n/a"
                                                               else number(fields, "serial_cpu_s", index))
        elif kind == "SCALING_RUN":
            run["run"] = {"busy_total_s": number(fields, "busy_total_s", index),
                          "wall_s": number(fields, "wall_s", index) if "wall_s" in fields else None,
                          "busy_cpu_total_s": (number(fields, "busy_cpu_total_s", index)
                                               if "busy_cpu_total_s" in fields else None)}
    if not tools:
        raise ModelError(f"{path}: no SCALING lines (the output of genomics_scaling.sh or scaling_report.py)")
    for tool, runs in tools.items():
        for processes, run in runs.items():
            if sorted(run["ranks"]) != list(range(processes)):
                raise ModelError(f"{path}: {tool} at P={processes}: expected ranks 0..{processes - 1}, "
                                 f"found {sorted(run['ranks'])}")
            if run["run"] is None:
                raise ModelError(f"{path}: {tool} at P={processes}: no SCALING_RUN line")
    return tools, cores


class ToolModel:
    """The figures of one tool, fitted from its P = 1 run and its largest-P run."""

    def __init__(self, tool, runs, cores):
        if 1 not in runs:
            raise ModelError(f"{tool}: no P=1 run (the work T1 comes from it)")
        larger = [p for p in runs if p > 1]
        if not larger:
            raise ModelError(f"{tool}: no run on more than one process (serial time and bytes come from it)")
        self.tool = tool
        self.reference = max(larger)
        reference = runs[self.reference]
        ranks = reference["ranks"]
        p = self.reference
        # CPU time where every run carries it: then no figure is inflated by the time the OS
        # gave other ranks, and the parallel work comes from Pr itself.
        self.cpu = all(cpu_measured(run, processes) for processes, run in runs.items())
        busy, total_key, phases = ("busy_cpu_s", "busy_cpu_total_s", "cpu_phases") if self.cpu else \
            ("busy_s", "busy_total_s", "phases")
        self.busy_key = busy
        self.work = runs[1]["run"][total_key]
        self.serial_by_phase = {name: serial for name, serial in reference[phases].items() if serial > 0}
        self.serial = min(sum(self.serial_by_phase.values()), self.work)
        self.work_reference = p if self.cpu else max(q for q in runs if q <= max(1, cores))
        self.parallel = max(0.0, runs[self.work_reference]["run"][total_key] - self.serial)
        total = reference["run"][total_key]
        busiest = max(rank[busy] for rank in ranks.values())
        parallel_mean = (total - self.serial) / p
        self.imbalance = max(1.0, (busiest - self.serial) / parallel_mean) if parallel_mean > 0 else 1.0
        self.phases = max(1, len(reference["phases"]))
        # Exchanges in which node 0 sent every peer one message (exchanges=, as the stores do
        # at every step of joining and cleaning); their count does not change with N.
        self.exchanges = ranks[0].get("exchanges", 0.0)
        self.own = {}
        self.all_to_all = {}
        for key in ("bytes_sent", "msgs_sent", "frames_sent"):
            others = [ranks[r][key] for r in range(1, p)]
            mean_other = sum(others) / len(others)
            self.own[key] = max(0.0, ranks[0][key] - mean_other)
            # The volume every node exchanges, self-sends included, over all nodes.
            self.all_to_all[key] = mean_other * p / crossing(p)
        # Node 0's excess as broadcasts: what it sends each peer beyond what the others send
        # each other (their bytes less what went to node 0, over their p - 2 other peers). A
        # relayed one (R) goes down the binary tree of the nodes, so node 0 sends it only to
        # its children there (nodes 1, 2, 4, ...) and the others pass it on: where node 0's
        # bytes to each node are known and some node is not its child, R is what it sent each
        # child beyond each other node, and a direct one (B) what it sent every node beyond
        # the exchange.
        self.broadcast = 0.0
        self.relayed = 0.0
        # Shares of data node 0 alone held, a different one each node (scattered_bytes, to the
        # other p - 1 nodes of p shares): the whole, T, is split over the nodes, so node 0
        # sends T (N - 1) / N at N nodes, and each node's T / p is no part of a broadcast.
        scattered = ranks[0].get("scattered_bytes", 0.0)
        self.scattered = scattered * p / (p - 1)
        share = self.scattered / p
        self.own["bytes_sent"] = max(0.0, self.own["bytes_sent"] - scattered)
        if p >= 3 and all("bytes_to_node0" in ranks[r] for r in range(1, p)):
            between_others = sum((ranks[r]["bytes_sent"] - ranks[r]["bytes_to_node0"]) / (p - 2)
                                 for r in range(1, p)) / (p - 1)
            to_nodes = ranks[0].get("bytes_to_nodes")
            children = tree_children(p)
            if to_nodes is not None and len(to_nodes) == p - 1 and len(children) < p - 1:
                to_child = sum(to_nodes[c - 1] for c in children) / len(children)
                others = [n for n in range(1, p) if n not in children]
                to_other = sum(to_nodes[n - 1] for n in others) / len(others)
                self.relayed = max(0.0, to_child - to_other)
                # The others pass on p - 1 - L of its copies between themselves.
                between_others -= self.relayed * (p - 1 - len(children)) / ((p - 1) * (p - 2))
                self.broadcast = max(0.0, to_other - share - between_others)
            else:
                self.broadcast = max(0.0, ranks[0]["bytes_sent"] / (p - 1) - share - between_others)
            self.own["bytes_sent"] = 0.0
            self.all_to_all["bytes_sent"] = between_others * (p - 1) * p / crossing(p)
        frames = sum(rank["frames_sent"] for rank in ranks.values())
        # The mean frame of the exchange: a broadcast's megabytes went in a few large messages.
        framed_bytes = (sum(rank["bytes_sent"] for rank in ranks.values()) -
                        (self.broadcast + self.relayed) * (p - 1) - scattered)
        self.frame_bytes = framed_bytes / frames if frames and framed_bytes > 0 else 65536.0

    def sent(self, key, nodes):
        """What node 0 and what another node send at `nodes` nodes."""
        if nodes == 1:
            return 0.0, 0.0
        shared = self.all_to_all[key] * crossing(nodes) / nodes
        if key != "bytes_sent":
            return self.own[key] * crossing(nodes) / crossing(self.reference) + shared, shared
        children = len(tree_children(nodes))
        passed_on = self.relayed * (nodes - 1 - children) / (nodes - 1)  # by the mean other node
        return self.broadcasts(nodes) + self.own[key] * crossing(nodes) / crossing(self.reference) + shared, \
            shared + passed_on

    def broadcasts(self, nodes):
        """What node 0 sends in large one-off messages at `nodes` nodes: every node a direct
        broadcast and its share of the scattered data, its children in the tree a relayed one."""
        return (self.broadcast * (nodes - 1) + self.relayed * len(tree_children(nodes)) +
                self.scattered * crossing(nodes))

    def predict(self, nodes, latency, bandwidth):
        node0_bytes, _ = self.sent("bytes_sent", nodes)
        # A broadcast travels in large messages (megabytes): its latency is one a node and
        # phase, the floor below, not one a mean frame.
        framed = node0_bytes - self.broadcasts(nodes)
        frames = max(framed / self.frame_bytes, (nodes - 1) * self.phases) if nodes > 1 else 0.0
        terms = {
            "serial steps on node 0": self.serial,
            "parallel work": self.imbalance * self.parallel / nodes,
            "node 0's bandwidth": node0_bytes / bandwidth,
            "frame latency": frames * latency,
            "exchanges with every node": max(self.phases, self.exchanges) *
                                         (2 * latency + 2 * (nodes - 1) * MESSAGE_OVERHEAD_S) if nodes > 1 else 0.0,
        }
        time = sum(terms.values())
        limit = max(terms, key=terms.get)
        if limit == "node 0's bandwidth" and self.broadcast * (nodes - 1) > node0_bytes / 2:
            limit += f" (mostly what it sends every node: {self.broadcast / 1e6:.1f} MB each)"
        elif limit == "node 0's bandwidth" and self.scattered * crossing(nodes) > node0_bytes / 2:
            limit += f" (mostly the shares of {self.scattered / 1e6:.1f} MB it scatters)"
        elif limit == "node 0's bandwidth" and self.broadcasts(nodes) > node0_bytes / 2:
            limit += (f" (mostly broadcasts: {self.relayed / 1e6:.1f} MB relayed to each of "
                      f"{len(tree_children(nodes))} nodes, {self.broadcast / 1e6:.1f} MB sent to every node)")
        if limit == "serial steps on node 0" and self.serial_by_phase:
            worst = max(self.serial_by_phase, key=self.serial_by_phase.get)
            limit += f" (mostly {worst}: {self.serial_by_phase[worst]:.2f} s)"
        return time, self.fitted_work() / (nodes * time) if time > 0 else 0.0, terms, limit

    def fitted_work(self):
        """What speedups and efficiencies are against: in CPU time the measured one-process work
        T1; in wall-clock time S + W, the one-node time the fit implies."""
        return self.work if self.cpu else self.serial + self.parallel


def cpu_measured(run, processes):
    """Whether a run carries busy CPU time: every rank's, the run's total and (on more than one
    process) every phase's serial CPU time."""
    return (run["run"]["busy_cpu_total_s"] is not None and
            all("busy_cpu_s" in rank for rank in run["ranks"].values()) and
            (processes == 1 or set(run["cpu_phases"]) == set(run["phases"])))


def tree_children(nodes):
    """Node 0's children in the binary tree a relayed broadcast goes down
    (genomics/assembler/merge_tree.hpp, one store a node): 1, 2, 4, ... below `nodes`."""
    children = []
    step = 1
    while step < nodes:
        children.append(step)
        step *= 2
    return children


def crossing(nodes):
    """The share of data hashed over `nodes` nodes that leaves its sender."""
    return (nodes - 1) / nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("report", help="a file with SCALING lines (genomics_scaling.sh's report.txt)")
    parser.add_argument("--network", choices=sorted(NETWORKS), default="ib-pcie")
    parser.add_argument("--latency-us", type=float, help="one-way MPI latency, microseconds (overrides --network)")
    parser.add_argument("--bandwidth-mbs", type=float, help="MPI bandwidth, MB/s (overrides --network)")
    parser.add_argument("--nodes", default="16,32,64,128,256,512,1024", help="node counts, comma-separated")
    parser.add_argument("--tool", help="only this tool")
    parser.add_argument("--cores", type=int, help="cores of the measuring machine (default: the report's 'N cores')")
    arguments = parser.parse_args()
    try:
        latency_us, bandwidth_mbs, source = NETWORKS[arguments.network]
        if arguments.latency_us is not None:
            latency_us, source = arguments.latency_us, "given on the command line"
        if arguments.bandwidth_mbs is not None:
            bandwidth_mbs, source = arguments.bandwidth_mbs, "given on the command line"
        if not latency_us > 0 or not bandwidth_mbs > 0:
            raise ModelError("--latency-us and --bandwidth-mbs must be > 0")
        try:
            node_counts = [int(text) for text in arguments.nodes.split(",")]
        except ValueError:
            raise ModelError(f"--nodes: '{arguments.nodes}' is not a comma-separated list of whole numbers") from None
        if any(count < 1 for count in node_counts):
            raise ModelError("--nodes: node counts must be at least 1")
        tools, cores = read_report(arguments.report)
        if arguments.cores is not None:
            cores = arguments.cores
        if cores is None:
            cores = 1
        if cores < 1:
            raise ModelError(f"--cores must be at least 1, got {cores}")
        if arguments.tool is not None and arguments.tool not in tools:
            raise ModelError(f"{arguments.report}: no runs of {arguments.tool}")
        models = [ToolModel(tool, runs, cores) for tool, runs in sorted(tools.items())
                  if arguments.tool in (None, tool)]
    except ModelError as error:
        print(f"model.py: error: {error}", file=sys.stderr)
        return 1
    latency = latency_us * 1e-6
    bandwidth = bandwidth_mbs * 1e6
    print(f"MODEL_NETWORK latency_us={latency_us} bandwidth_mbs={bandwidth_mbs} source=\"{source}\"")
    for model in models:
        print(f"MODEL_FIT tool={model.tool} time={'cpu' if model.cpu else 'wall'} reference_P={model.reference} "
              f"parallel_work_P={model.work_reference} "
              f"work_s={model.work:.3f} "
              f"serial_s={model.serial:.3f} parallel_s={model.parallel:.3f} imbalance={model.imbalance:.2f} "
              f"node0_own_bytes={model.own['bytes_sent']:.0f} node0_broadcast_bytes_per_node={model.broadcast:.0f} "
              f"relayed_broadcast_bytes={model.relayed:.0f} scattered_bytes={model.scattered:.0f} "
              f"all_to_all_bytes={model.all_to_all['bytes_sent']:.0f} "
              f"frame_bytes={model.frame_bytes:.0f} phases={model.phases} exchanges={model.exchanges:.0f}")
        for processes, run in sorted(tools[model.tool].items()):
            if processes in (1, model.reference):
                continue
            ranks = run["ranks"]
            node0, other = model.sent("bytes_sent", processes)
            measured_other = sum(ranks[r]["bytes_sent"] for r in range(1, processes)) / (processes - 1)
            busiest = model.serial + model.imbalance * model.parallel / processes
            predicted_wall, _, _, _ = model.predict(processes, latency, bandwidth)
            wall = run["run"]["wall_s"]
            print(f"MODEL_CHECK tool={model.tool} P={processes} node0_bytes_predicted={node0:.0f} "
                  f"node0_bytes_measured={ranks[0]['bytes_sent']:.0f} other_bytes_predicted={other:.0f} "
                  f"other_bytes_measured={measured_other:.0f} busiest_busy_predicted_s={busiest:.3f} "
                  f"busiest_busy_measured_s={max(rank[model.busy_key] for rank in ranks.values()):.3f} "
                  f"busy_comparable={'yes' if model.cpu or processes <= cores else 'no'} "
                  f"wall_predicted_s={predicted_wall:.3f} "
                  f"wall_measured_s={'n/a' if wall is None else f'{wall:.3f}'}")
        for nodes in node_counts:
            time, efficiency, terms, limit = model.predict(nodes, latency, bandwidth)
            parts = " ".join(f"{TERM_KEYS[name]}_s={value:.4f}" for name, value in terms.items())
            print(f"MODEL tool={model.tool} N={nodes} predicted_s={time:.3f} speedup={model.fitted_work() / time:.1f} "
                  f"efficiency={efficiency:.4f} {parts} limit=\"{limit}\"")
    return 0


if __name__ == "__main__":
    sys.exit(main())
