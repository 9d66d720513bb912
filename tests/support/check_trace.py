#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a --trace file: it parses as JSON, is in the Chrome trace event format, and
names every node's process, holds busy spans of the nodes listed (comma-separated), and
the phases named, in order. Prints one line saying what
is missing, and exits 1, or prints a summary and exits 0.

usage: check_trace.py FILE NODES BUSY_NODES PHASE...
"""
import json
import sys


def main():
    path, nodes, phases = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
    busy_nodes = [int(node) for node in sys.argv[3].split(",")]
    try:
        with open(path, encoding="utf-8") as file:
            events = json.load(file)["traceEvents"]
    except (OSError, ValueError, KeyError) as error:
        print(f"check_trace: {path} is not a trace event file: {error!r}")
        return 1
    busy = [e for e in events if e["ph"] == "X" and e.get("cat") == "worker"]
    for node in busy_nodes:
        if not any(e["pid"] == node for e in busy):
            print(f"check_trace: no busy span of node {node}")
            return 1
    for node in range(nodes):
        if not any(e["ph"] == "M" and e["pid"] == node for e in events):
            print(f"check_trace: node {node} has no process name")
            return 1
    for e in busy:
        if e["dur"] < 0 or e["args"]["messages"] < 1:
            print(f"check_trace: a busy span without time or messages: {e}")
            return 1
    marked = [e["name"] for e in events if e["ph"] == "X" and e.get("cat") == "phase"]
    if marked != phases:
        print(f"check_trace: phases {marked}, expected {phases}")
        return 1
    if not any(e["ph"] == "C" for e in events):
        print("check_trace: no counter event")
        return 1
    print(f"check_trace: {len(busy)} busy spans of {nodes} node(s), phases {marked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
