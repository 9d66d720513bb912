#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Lays the per-node statistics of genomics runs (kmer_counter/assembler --stats DIR) side by
side and prints, for each run, one SCALING line per node and phase, one SCALING_RUN line, and,
over the runs of a tool, the issue's targets marked met or MISSED.

    scaling_report.py STATS_DIR...

Each STATS_DIR holds the TOOL-node-N.json files of one run (one tool, one process count P).
Lines (key=value, machine-readable):
  SCALING tool=T P=P rank=R phase=NAME busy_s=... [busy_cpu_s= peak_rss_mib= msgs_sent= bytes_sent= ...]
      phase=all carries the node's totals (busy_cpu_s: the CPU time of the same rounds of
      receive(), without the time the OS ran other processes meanwhile; bytes_to_node0: what it sent node 0 of bytes_sent; on
      node 0's line bytes_to_nodes: what it sent each other node, scattered_bytes: how much of
      that was shares of data it alone held, a different share each node, and exchanges: how
      often its actors sent one message to every peer, as the stores do at every step of joining
      and cleaning; graph_copy_mib: the most the node held at once in copies of the whole graph,
      which do not fall with P: unitig ends indexed to thread reads, and on node 0 the graph the
      steps after the cleaning work on); the other phases come from node 0's log, mapped
      onto each node's busy timeline (50 ms buckets, split by overlap).
  SCALING_PHASE tool=T P=P phase=NAME busy_total_s= busy_max_s= max_over_mean= serial_s=
      [busy_cpu_total_s= serial_cpu_s=] [peak_rss_max_mib= peak_rss_rank=]
      (a phase's peak_rss_mib on each node, and the largest of them with its rank: the most the
      node held resident in the 50 ms buckets the phase overlaps, where the statistics carry
      the resident memory timeline; a phase run several times, every run)
  SCALING_RUN tool=T P=P busy_total_s= serial_s= serial_fraction= busy_max_over_mean= peak_rss_max_mib=
      bytes_sent_total= msgs_sent_total= input_share_max= wall_s= [graph_copy_max_mib=]
      [busy_cpu_total_s= busy_cpu_max_over_mean= serial_cpu_s= serial_cpu_fraction=]
  TARGET tool=T name=... value=... limit=... met|MISSED|not-measured
Serial time: buckets in which exactly one node was busy for at least --busy-threshold of the
bucket; the serial fraction is that node's busy time there over all nodes' busy time. Where
the statistics carry CPU time (--stats measures it), serial_cpu_s judges the same on the CPU
timelines: free of the time the OS gave other ranks, which on fewer cores than ranks inflates
both the parallel busy time and a rank left alone to finish.
"""
import argparse
import glob
import json
import os
import re
import sys

NANO = 1e-9
MIB = 1024.0 * 1024.0
REQUIRED = ("tool", "node", "nodes", "peak_rss_bytes", "input_bytes_read", "messages_to_other_nodes",
            "bytes_to_other_nodes", "busy_nanoseconds", "worker_busy_nanoseconds",
            "busy_timeline_start_unix_nanoseconds", "busy_timeline_bucket_nanoseconds",
            "busy_timeline_nanoseconds", "phases", "started_unix_nanoseconds", "ended_unix_nanoseconds")

# Each node's resident memory per 50 ms (the most in each), where --stats measured it.
RSS_TIMELINE = ("rss_timeline_start_unix_nanoseconds", "rss_timeline_bucket_nanoseconds", "rss_timeline_peak_bytes")


class ReportError(Exception):
    pass


def load_run(directory):
    """The nodes of one run, checked: every node 0..P-1 once, one tool, sums that agree."""
    paths = sorted(glob.glob(os.path.join(directory, "*-node-*.json")))
    if not paths:
        raise ReportError(f"{directory}: no TOOL-node-N.json files (run the tool with --stats {directory})")
    nodes = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as file:
                node = json.load(file)
        except (OSError, ValueError) as error:
            raise ReportError(f"{path}: not a statistics file: {error}") from None
        missing = [key for key in REQUIRED if key not in node]
        if missing:
            raise ReportError(f"{path}: missing field(s) {', '.join(missing)}")
        if sum(node["busy_timeline_nanoseconds"]) != node["busy_nanoseconds"]:
            raise ReportError(f"{path}: busy timeline sums to {sum(node['busy_timeline_nanoseconds'])} ns, "
                              f"not busy_nanoseconds {node['busy_nanoseconds']}")
        if sum(node["worker_busy_nanoseconds"]) != node["busy_nanoseconds"]:
            raise ReportError(f"{path}: worker busy times do not sum to busy_nanoseconds")
        if "busy_cpu_nanoseconds" in node:
            if sum(node.get("worker_busy_cpu_nanoseconds", [])) != node["busy_cpu_nanoseconds"]:
                raise ReportError(f"{path}: worker busy CPU times do not sum to busy_cpu_nanoseconds")
            if sum(node.get("busy_cpu_timeline_nanoseconds", [])) != node["busy_cpu_nanoseconds"]:
                raise ReportError(f"{path}: busy CPU timeline does not sum to busy_cpu_nanoseconds")
        rss_keys = [key for key in RSS_TIMELINE if key in node]
        if rss_keys and len(rss_keys) != len(RSS_TIMELINE):
            raise ReportError(f"{path}: only some of the resident memory timeline's fields ({', '.join(rss_keys)})")
        if rss_keys and (node["rss_timeline_bucket_nanoseconds"] <= 0 or not node["rss_timeline_peak_bytes"]):
            raise ReportError(f"{path}: an empty resident memory timeline")
        node["path"] = path
        nodes.append(node)
    tools = {node["tool"] for node in nodes}
    if len(tools) != 1:
        raise ReportError(f"{directory}: statistics of several tools ({', '.join(sorted(tools))}): one run per directory")
    count = nodes[0]["nodes"]
    ranks = sorted(node["node"] for node in nodes)
    if ranks != list(range(count)) or any(node["nodes"] != count for node in nodes):
        raise ReportError(f"{directory}: expected nodes 0..{count - 1} once each, found {ranks}")
    widths = {node["busy_timeline_bucket_nanoseconds"] for node in nodes}
    if len(widths) != 1 or 0 in widths:
        raise ReportError(f"{directory}: nodes disagree on the busy timeline's bucket width")
    nodes.sort(key=lambda node: node["node"])
    return nodes


def aligned_timelines(nodes, key="busy_timeline_nanoseconds"):
    """Each node's busy ns per bucket (wall-clock, or CPU with key busy_cpu_timeline_nanoseconds)
    on one common axis (bucket 0 = the earliest start)."""
    width = nodes[0]["busy_timeline_bucket_nanoseconds"]
    first = min(node["busy_timeline_start_unix_nanoseconds"] for node in nodes)
    shifted = []
    for node in nodes:
        offset = (node["busy_timeline_start_unix_nanoseconds"] - first) // width
        shifted.append([0] * offset + node[key])
    length = max(len(line) for line in shifted)
    return first, width, [line + [0] * (length - len(line)) for line in shifted]


def phase_intervals(nodes):
    """Node 0's phases as (name, began, ended) in Unix ns."""
    return [(phase["name"], phase["began_unix_nanoseconds"], phase["ended_unix_nanoseconds"])
            for phase in nodes[0]["phases"]]


def analyse(nodes, threshold, key="busy_timeline_nanoseconds"):
    first, width, timelines = aligned_timelines(nodes, key)
    phases = phase_intervals(nodes)
    names = []
    for name, _, _ in phases:
        if name not in names:
            names.append(name)
    names.append("(outside phases)")
    busy = {name: [0.0] * len(nodes) for name in names}
    serial = {name: 0.0 for name in names}
    serial_total = 0.0
    for bucket in range(len(timelines[0])):
        begin = first + bucket * width
        end = begin + width
        values = [line[bucket] for line in timelines]
        working = [rank for rank, value in enumerate(values) if value >= threshold * width]
        lone = working[0] if len(working) == 1 and len(nodes) > 1 else None
        # The share of this bucket each phase covers; the rest is outside every phase.
        shares = {}
        for name, began, ended in phases:
            overlap = min(end, ended) - max(begin, began)
            if overlap > 0:
                shares[name] = shares.get(name, 0.0) + overlap / width
        covered = sum(shares.values())
        if covered < 1.0:
            shares["(outside phases)"] = 1.0 - covered
        for name, share in shares.items():
            for rank, value in enumerate(values):
                busy[name][rank] += value * share
            if lone is not None:
                serial[name] += values[lone] * share
        if lone is not None:
            serial_total += values[lone]
    return names, busy, serial, serial_total


def phase_memory(nodes):
    """Each phase's peak resident memory on each node (the most of the node's timeline buckets
    that overlap any of the phase's intervals; None where none does), by phase name; {} where a
    node lacks a timeline."""
    if not all(RSS_TIMELINE[0] in node for node in nodes):
        return {}
    peaks = {}
    for name, began, ended in phase_intervals(nodes):
        line = peaks.setdefault(name, [None] * len(nodes))
        for rank, node in enumerate(nodes):
            start = node["rss_timeline_start_unix_nanoseconds"]
            width = node["rss_timeline_bucket_nanoseconds"]
            values = node["rss_timeline_peak_bytes"]
            first = max(0, (began - start) // width)
            last = min(len(values) - 1, (max(ended, began + 1) - 1 - start) // width)
            if first <= last:
                line[rank] = max(line[rank] or 0, max(values[first:last + 1]))
    return peaks


def label(name):
    """A phase name as one word: "repeats, round 1" -> "repeats_round_1"."""
    return re.sub(r"[^A-Za-z0-9()_-]+", "_", name)


def fmt(value):
    return f"{value:.3f}"


def to_node0(node):
    """'bytes_to_node0=N ' where the node's statistics say where its bytes went, else ''; for
    node 0, 'bytes_to_nodes=B1,B2,...' instead: what it sent each other node, in node order."""
    per_node = node.get("to_nodes_bytes")
    if not isinstance(per_node, list) or not per_node:
        return ""
    if node["node"] == 0:
        to_nodes = f"bytes_to_nodes={','.join(str(value) for value in per_node[1:])} " if len(per_node) > 1 else ""
        scattered = node.get("bytes_scattered_to_other_nodes")
        if isinstance(scattered, int) and len(per_node) > 1:
            to_nodes += f"scattered_bytes={scattered} "
        exchanges = node.get("exchanges_with_every_peer")
        if isinstance(exchanges, int) and len(per_node) > 1:
            to_nodes += f"exchanges={exchanges} "
        return "bytes_to_node0=0 " + to_nodes
    return f"bytes_to_node0={per_node[0]} "


def busy_cpu(node):
    """The node's busy CPU time, where its statistics measured it."""
    if "busy_cpu_nanoseconds" not in node:
        return ""
    return f"busy_cpu_s={fmt(node['busy_cpu_nanoseconds'] * NANO)} "


def graph_copy(node):
    """'graph_copy_mib=M ' where the node's statistics say the most it held in copies of the whole
    graph (unitig ends indexed to thread reads; on node 0 also the graph after cleaning), else ''."""
    held = node.get("graph_copy_peak_bytes")
    return f"graph_copy_mib={held / MIB:.1f} " if isinstance(held, int) else ""


def report_run(nodes, threshold):
    tool = nodes[0]["tool"]
    count = len(nodes)
    names, busy, serial, serial_total = analyse(nodes, threshold)
    memory = phase_memory(nodes)
    # The same on the CPU timelines, where every node carries them (--stats measures them).
    measured = all("busy_cpu_nanoseconds" in node for node in nodes)
    _, cpu_busy, cpu_serial, cpu_serial_total = (
        analyse(nodes, threshold, "busy_cpu_timeline_nanoseconds") if measured else ([], {}, {}, 0.0))
    input_total = sum(node["input_bytes_read"] for node in nodes)
    busy_total = sum(node["busy_nanoseconds"] for node in nodes)
    for node in nodes:
        rank = node["node"]
        share = node["input_bytes_read"] / input_total if input_total else 0.0
        print(f"SCALING tool={tool} P={count} rank={rank} phase=all busy_s={fmt(node['busy_nanoseconds'] * NANO)} "
              f"{busy_cpu(node)}peak_rss_mib={node['peak_rss_bytes'] / MIB:.1f} msgs_sent={node['messages_to_other_nodes']} "
              f"bytes_sent={node['bytes_to_other_nodes']} frames_sent={node.get('frames_sent', 0)} "
              f"{to_node0(node)}{graph_copy(node)}input_bytes={node['input_bytes_read']} input_share={share:.3f}")
        for name in names:
            if sum(busy[name]) == 0:
                continue
            rss = ""
            if name in memory:
                held = memory[name][rank]
                rss = f" peak_rss_mib={'n/a' if held is None else f'{held / MIB:.1f}'}"
            print(f"SCALING tool={tool} P={count} rank={rank} phase={label(name)} "
                  f"busy_s={fmt(busy[name][rank] * NANO)}{rss}")
    for name in names:
        total = sum(busy[name])
        if total == 0:
            continue
        mean = total / count
        cpu = ""
        if name in cpu_busy:
            cpu = (f" busy_cpu_total_s={fmt(sum(cpu_busy[name]) * NANO)} "
                   f"serial_cpu_s={fmt(cpu_serial[name] * NANO) if count > 1 else 'n/a'}")
        rss = ""
        measured_ranks = [rank for rank in range(count) if memory.get(name, [None] * count)[rank] is not None]
        if measured_ranks:
            largest = max(measured_ranks, key=lambda rank: memory[name][rank])
            rss = f" peak_rss_max_mib={memory[name][largest] / MIB:.1f} peak_rss_rank={largest}"
        print(f"SCALING_PHASE tool={tool} P={count} phase={label(name)} busy_total_s={fmt(total * NANO)} "
              f"busy_max_s={fmt(max(busy[name]) * NANO)} max_over_mean={max(busy[name]) / mean:.2f} "
              f"serial_s={fmt(serial[name] * NANO) if count > 1 else 'n/a'}{cpu}{rss}")
    busy_by_rank = [node["busy_nanoseconds"] for node in nodes]
    mean = busy_total / count if count else 0
    figures = {
        "tool": tool,
        "P": count,
        "busy_total_s": busy_total * NANO,
        "serial_s": serial_total * NANO if count > 1 else None,
        "serial_fraction": serial_total / busy_total if count > 1 and busy_total else None,
        "busy_max_over_mean": max(busy_by_rank) / mean if mean else 0.0,
        "peak_rss_max_mib": max(node["peak_rss_bytes"] for node in nodes) / MIB,
        "bytes_sent_total": sum(node["bytes_to_other_nodes"] for node in nodes),
        "msgs_sent_total": sum(node["messages_to_other_nodes"] for node in nodes),
        "input_share_max": max(node["input_bytes_read"] for node in nodes) / input_total if input_total else 0.0,
        "wall_s": (max(n["ended_unix_nanoseconds"] for n in nodes) - min(n["started_unix_nanoseconds"] for n in nodes))
        * NANO,
    }
    # Busy CPU time (kmer_counter/assembler --stats measure it): the load balance of the work
    # itself. Wall-clock busy time also counts the time the OS ran other ranks while a rank was
    # inside receive(), which on fewer cores than ranks depends on who was scheduled when.
    cpu_by_rank = [node["busy_cpu_nanoseconds"] for node in nodes] if measured else []
    cpu_mean = sum(cpu_by_rank) / count if measured and count else 0
    figures["busy_cpu_max_over_mean"] = max(cpu_by_rank) / cpu_mean if cpu_mean else None
    figures["busy_cpu_total_s"] = sum(cpu_by_rank) * NANO if cpu_mean else None
    # Serial CPU time: the same lone-node buckets judged on CPU time, and the lone node's CPU
    # time there. A rank the OS left waiting for a core while the others had finished shows
    # as alone in wall-clock time; in CPU time only what it computed counts.
    figures["serial_cpu_s"] = None
    if cpu_mean and count > 1:
        figures["serial_cpu_s"] = cpu_serial_total * NANO
    held = [node["graph_copy_peak_bytes"] for node in nodes if isinstance(node.get("graph_copy_peak_bytes"), int)]
    copies = max(held) / MIB if held else None
    serial_text = "n/a" if figures["serial_fraction"] is None else f"{figures['serial_fraction']:.4f}"
    serial_s = "n/a" if figures["serial_s"] is None else fmt(figures["serial_s"])
    print(f"SCALING_RUN tool={tool} P={count} busy_total_s={fmt(figures['busy_total_s'])} serial_s={serial_s} "
          f"serial_fraction={serial_text} "
          f"busy_max_over_mean={figures['busy_max_over_mean']:.2f} peak_rss_max_mib={figures['peak_rss_max_mib']:.1f} "
          f"bytes_sent_total={figures['bytes_sent_total']} msgs_sent_total={figures['msgs_sent_total']} "
          f"input_share_max={figures['input_share_max']:.3f} wall_s={figures['wall_s']:.2f}"
          + ("" if copies is None else f" graph_copy_max_mib={copies:.1f}")
          + ("" if figures["busy_cpu_max_over_mean"] is None
             else f" busy_cpu_total_s={fmt(figures['busy_cpu_total_s'])}"
             f" busy_cpu_max_over_mean={figures['busy_cpu_max_over_mean']:.2f}")
          + ("" if figures["serial_cpu_s"] is None
             else f" serial_cpu_s={fmt(figures['serial_cpu_s'])}"
             f" serial_cpu_fraction={figures['serial_cpu_s'] / figures['busy_cpu_total_s']:.4f}"))
    return figures


def target(tool, name, value, limit, met, unit=""):
    if value is None:
        print(f"TARGET tool={tool} name={name} value=n/a limit={limit} not-measured")
    else:
        print(f"TARGET tool={tool} name={name} value={value}{unit} limit={limit} {'met' if met else 'MISSED'}")


def report_targets(runs):
    """The issue's targets, for each tool, from the runs given."""
    for tool in sorted({run["tool"] for run in runs}):
        by_p = {run["P"]: run for run in runs if run["tool"] == tool}
        largest = max(by_p)
        serial = [(p, by_p[p]["serial_fraction"]) for p in sorted(by_p) if p > 1]
        if serial:
            worst_p, worst = max(serial, key=lambda item: item[1])
            target(tool, f"serial_fraction_worst_P{worst_p}", f"{100 * worst:.1f}", "3%", worst <= 0.03, "%")
            if 1 in by_p and by_p[1]["busy_total_s"] > 0:
                # On fewer cores than processes, parallel busy time is inflated by time the OS
                # gave to other ranks, which shrinks the fraction above; the serial time over
                # the one-process work is free of that.
                share = by_p[largest]["serial_s"] / by_p[1]["busy_total_s"]
                target(tool, f"serial_time_P{largest}_over_P1_work", f"{100 * share:.1f}", "3%", share <= 0.03, "%")
            if 1 in by_p and by_p[1]["busy_cpu_total_s"] and by_p[largest]["serial_cpu_s"] is not None:
                share = by_p[largest]["serial_cpu_s"] / by_p[1]["busy_cpu_total_s"]
                target(tool, f"serial_cpu_time_P{largest}_over_P1_work", f"{100 * share:.1f}", "3%", share <= 0.03, "%")
            else:
                target(tool, f"serial_cpu_time_P{largest}_over_P1_work", None, "3%", False)
        else:
            target(tool, "serial_fraction", None, "3%", False)
        if 1 in by_p and 8 in by_p:
            ratio = by_p[8]["peak_rss_max_mib"] / by_p[1]["peak_rss_max_mib"]
            target(tool, "largest_rss_P8_over_P1", f"{ratio:.3f}", "0.2x", ratio <= 0.2, "x")
        else:
            target(tool, "largest_rss_P8_over_P1", None, "0.2x", False)
        if 8 in by_p:
            balance = by_p[8]["busy_max_over_mean"]
            target(tool, "busiest_over_mean_P8", f"{balance:.2f}", "1.15x", balance <= 1.15, "x")
            cpu_balance = by_p[8]["busy_cpu_max_over_mean"]
            target(tool, "busiest_cpu_over_mean_P8", None if cpu_balance is None else f"{cpu_balance:.2f}", "1.15x",
                   cpu_balance is not None and cpu_balance <= 1.15, "x")
        else:
            target(tool, "busiest_over_mean_P8", None, "1.15x", False)
            target(tool, "busiest_cpu_over_mean_P8", None, "1.15x", False)
        if 4 in by_p:
            share = by_p[4]["input_share_max"]
            target(tool, "largest_input_share_P4", f"{100 * share:.1f}", "30%", share <= 0.30, "%")
        else:
            target(tool, "largest_input_share_P4", None, "30%", False)
        if largest > 1 and largest not in (4, 8):
            print(f"# {tool}: the targets are stated for P = 4 and 8; largest P measured is {largest}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("directories", nargs="+", metavar="STATS_DIR")
    parser.add_argument("--busy-threshold", type=float, default=0.05,
                        help="a node has work in a bucket when busy for at least this share of it (0.05)")
    parser.add_argument("--no-targets", action="store_true", help="leave out the TARGET lines")
    arguments = parser.parse_args()
    if not 0 < arguments.busy_threshold <= 1:
        print("scaling_report.py: error: --busy-threshold must lie in (0, 1]", file=sys.stderr)
        return 2
    try:
        runs = [report_run(load_run(directory), arguments.busy_threshold) for directory in arguments.directories]
    except ReportError as error:
        print(f"scaling_report.py: error: {error}", file=sys.stderr)
        return 1
    if not arguments.no_targets:
        report_targets(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
