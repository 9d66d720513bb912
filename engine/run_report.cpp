// SPDX-License-Identifier: BSD-3-Clause
#include "engine/run_report.hpp"

#include <cerrno>
#include <cstdio>
#include <stdexcept>

#include "xenon/core/error_text.hpp"

namespace xenon {
namespace {

constexpr const char* kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Xenon run report</title>
<style>
body { font: 14px sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: right; }
th { background: #eee; } .note { color: #666; font-size: 12px; }
svg text { font: 11px sans-serif; }
.side-by-side { display: inline-block; vertical-align: top; }
</style></head>
<body data-rendered="no">
<h1>Xenon run report</h1>
<div id="summary"></div>
<h2>Workers over time</h2><p class="note">Each row is a worker; darker is busier (time inside
receive() per 50 ms; any busy time shows). Phases marked by the program run along the top.</p><div id="timelines"></div>
<h2>Where each worker's time went</h2><div id="time-split"></div>
<h2>Messages between workers</h2><p class="note">Row: sender; column: receiver (per node).</p><div id="worker-matrix"></div>
<h2>Traffic between nodes</h2><div id="node-matrix"></div>
<h2>Time inside receive(), and from send to receive</h2><p class="note">Left: the first message of each worker round (up to 256 messages). Right: queue time, from send() (for messages from other nodes, their arrival on this node) to the start of receive(), about one message per round or in 64 through a ring. Both sampled; log2 buckets.</p><div id="receive-histogram" class="side-by-side"></div><div id="queue-histogram" class="side-by-side"></div>
<h2>Mailbox high-water mark by actor type</h2><div id="mailboxes"></div>
<h2>Phases</h2><div id="phases"></div>
<script id="observations" type="application/json">
)HTML";

constexpr const char* kTail = R"HTML(
</script>
<script>
"use strict";
const SVG = "http://www.w3.org/2000/svg";
function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const key in attributes) node.setAttribute(key, attributes[key]);
  if (parent) parent.appendChild(node);
  return node;
}
function svg(container, width, height) {
  const root = el("svg", {width: width, height: height, viewBox: "0 0 " + width + " " + height});
  document.getElementById(container).appendChild(root);
  return root;
}
function label(parent, x, y, text, anchor) {
  const t = el("text", {x: x, y: y, "text-anchor": anchor || "start"}, parent);
  t.textContent = text;
  return t;
}
function ms(ns) { return (ns / 1e6).toFixed(1) + " ms"; }
function heat(value, most) {
  const f = most > 0 ? value / most : 0;
  return "rgb(" + Math.round(255 - 200 * f) + "," + Math.round(255 - 120 * f) + ",255)";
}
function matrix(container, names, cell, title) {
  const n = names.length, size = 44, left = 110, top = 30;
  let most = 0;
  for (let i = 0; i < n; ++i) for (let j = 0; j < n; ++j) most = Math.max(most, cell(i, j).value);
  const root = svg(container, Math.max(360, left + n * size + 20), top + n * size + 20);
  label(root, left, 14, title);
  for (let i = 0; i < n; ++i) {
    label(root, left - 6, top + i * size + size / 2 + 4, names[i], "end");
    for (let j = 0; j < n; ++j) {
      const c = cell(i, j);
      el("rect", {x: left + j * size, y: top + i * size, width: size - 2, height: size - 2,
                  fill: heat(c.value, most), stroke: "#ccc"}, root);
      label(root, left + j * size + size / 2 - 1, top + i * size + size / 2 + 4, c.text, "middle");
    }
  }
}
function draw(nodes) {
  const start = Math.min.apply(null, nodes.map(n => n.timeline_start_unix_ns));
  const end = Math.max.apply(null, nodes.map(n => n.end_unix_ns));
  const bucket = nodes[0].bucket_ns || 50e6;
  let workers = 0, received = 0;
  nodes.forEach(n => { workers += n.workers.length; n.workers.forEach(w => received += w.received); });
  document.getElementById("summary").textContent = nodes.length + " node(s), " + workers +
      " worker(s), " + received + " messages received, " + ms(end - start) + " from the first bucket to the end.";

  // Timelines: one row per worker, one cell per bucket; the phases above them.
  const width = 900, left = 110, rowHeight = 16;
  const span = Math.max(end - start, bucket);
  const x = t => left + (t - start) / span * width;
  let rows = workers + 1;
  const timelines = svg("timelines", left + width + 20, 30 + rows * rowHeight);
  let row = 1;
  nodes.forEach(n => {
    n.phases.forEach((p, i) => {
      const phaseEnd = p.end_unix_ns;
      el("rect", {x: x(p.start_unix_ns), y: 4, width: Math.max(1, x(phaseEnd) - x(p.start_unix_ns)),
                  height: rowHeight - 2, fill: i % 2 ? "#f4c27a" : "#f9dcae", stroke: "#b80"}, timelines);
      label(timelines, x(p.start_unix_ns) + 2, 15, p.name);
    });
    n.workers.forEach((w, wi) => {
      const y = 8 + row * rowHeight;
      label(timelines, left - 6, y + 11, "node " + n.node + " w" + wi, "end");
      el("rect", {x: left, y: y, width: width, height: rowHeight - 2, fill: "#f6f6f6"}, timelines);
      w.busy_buckets_ns.forEach((busy, b) => {
        if (busy === 0) return;
        const t = n.timeline_start_unix_ns + b * bucket;
        el("rect", {x: x(t), y: y, width: Math.max(1, x(t + bucket) - x(t)), height: rowHeight - 2,
                    fill: "#1f5fbf", "fill-opacity": Math.min(1, 0.15 + busy / bucket).toFixed(3)}, timelines);
      });
      ++row;
    });
  });

  // Busy, idle and parked time per worker, as stacked bars.
  const split = svg("time-split", left + width + 20, 20 + workers * rowHeight + 20);
  const colours = {busy_ns: "#1f5fbf", idle_ns: "#9bb9e8", parked_ns: "#ddd"};
  row = 0;
  nodes.forEach(n => n.workers.forEach((w, wi) => {
    const total = w.busy_ns + w.idle_ns + w.parked_ns;
    let at = left;
    const y = 10 + row * rowHeight;
    label(split, left - 6, y + 11, "node " + n.node + " w" + wi, "end");
    ["busy_ns", "idle_ns", "parked_ns"].forEach(part => {
      const w_ = total > 0 ? w[part] / total * width : 0;
      const r = el("rect", {x: at, y: y, width: w_, height: rowHeight - 2, fill: colours[part]}, split);
      el("title", {}, r).textContent = part.replace("_ns", "") + ": " + ms(w[part]);
      at += w_;
    });
    ++row;
  }));
  label(split, left, 18 + workers * rowHeight, "busy (dark), idle (light), parked (grey)");

  // Messages between the workers of each node.
  nodes.forEach(n => {
    const names = n.workers.map((w, i) => "node " + n.node + " w" + i);
    const box = document.createElement("div");
    box.id = "worker-matrix-" + n.node;
    document.getElementById("worker-matrix").appendChild(box);
    matrix(box.id, names, (i, j) => {
      const v = (n.workers[i].sent_to_worker || [])[j] || 0;
      return {value: v, text: String(v)};
    }, "node " + n.node + ": messages");
  });

  // Traffic between nodes: messages, with bytes and aggregation in the table.
  const nodeNames = nodes.map(n => "node " + n.node);
  matrix("node-matrix", nodeNames, (i, j) => {
    const t = nodes[i].to_nodes[j] || {messages: 0};
    return {value: t.messages, text: String(t.messages)};
  }, "messages sent, row to column");
  const table = document.createElement("table");
  table.innerHTML = "<tr><th>from</th><th>to</th><th>frames</th><th>messages</th><th>bytes</th><th>messages per frame</th></tr>";
  nodes.forEach(n => n.to_nodes.forEach((t, j) => {
    if (t.frames === 0 && t.messages === 0) return;
    const tr = table.insertRow();
    [n.node, j, t.frames, t.messages, t.bytes, t.frames ? (t.messages / t.frames).toFixed(1) : "-"]
        .forEach(v => { tr.insertCell().textContent = v; });
  }));
  document.getElementById("node-matrix").appendChild(table);

  // The receive-time and queue-time histograms, all nodes together.
  const drawHistogram = (id, field, colour) => {
    const buckets = [];
    let count = 0, p50 = 0, p99 = 0, max = 0;
    nodes.forEach(n => {
      const h = n[field];
      h.log2_buckets.forEach((c, b) => { buckets[b] = (buckets[b] || 0) + c; });
      count += h.count; p50 = Math.max(p50, h.p50_ns); p99 = Math.max(p99, h.p99_ns); max = Math.max(max, h.max_ns);
    });
    const hist = svg(id, left + width / 2, 190);
    const most = Math.max.apply(null, buckets.map(c => c || 0).concat([1]));
    const barWidth = Math.max(6, Math.min(24, (width / 2 - left) / Math.max(1, buckets.length)));
    for (let b = 0; b < buckets.length; ++b) {
      const c = buckets[b] || 0, h = c / most * 130;
      el("rect", {x: left + b * barWidth, y: 150 - h, width: barWidth - 2, height: h, fill: colour}, hist);
      if (b % 4 === 0) label(hist, left + b * barWidth, 166, b < 10 ? (1 << b) + " ns" : b < 20 ? Math.round(2 ** b / 1e3) + " us" : Math.round(2 ** b / 1e6) + " ms");
    }
    label(hist, left, 184, count + " samples; p50 " + p50 + " ns, p99 " + p99 + " ns, max " + max + " ns (bucket bounds)");
  };
  drawHistogram("receive-histogram", "receive_time", "#1f5fbf");
  drawHistogram("queue-histogram", "queue_time", "#2f8f4f");

  // Mailbox high-water marks by actor type.
  const types = [];
  nodes.forEach(n => n.actor_types.forEach(t => types.push({name: "node " + n.node + ": " + t.type, t: t})));
  types.sort((a, b) => b.t.mailbox_high_water - a.t.mailbox_high_water);
  const boxes = svg("mailboxes", 1100, 20 + Math.max(1, types.length) * rowHeight);
  const highest = Math.max.apply(null, types.map(t => t.t.mailbox_high_water).concat([1]));
  types.forEach((entry, i) => {
    const y = 6 + i * rowHeight;
    label(boxes, 340, y + 11, entry.name.length > 56 ? entry.name.slice(0, 55) + "..." : entry.name, "end");
    el("rect", {x: 346, y: y, width: Math.max(1, entry.t.mailbox_high_water / highest * 420), height: rowHeight - 2, fill: "#d0703b"}, boxes);
    label(boxes, 350 + entry.t.mailbox_high_water / highest * 420, y + 11,
          entry.t.mailbox_high_water + " (" + entry.t.actors + " actors, " + entry.t.handled + " messages)");
  });

  // Phases with their times.
  const phases = [];
  nodes.forEach(n => n.phases.forEach((p, i) => {
    const phaseEnd = p.end_unix_ns;
    phases.push({node: n.node, name: p.name, ns: Math.max(0, phaseEnd - p.start_unix_ns)});
  }));
  if (phases.length === 0) {
    document.getElementById("phases").textContent = "The program marked no phase.";
  } else {
    const longest = Math.max.apply(null, phases.map(p => p.ns).concat([1]));
    const bars = svg("phases", 900 + 20, 10 + phases.length * rowHeight);
    phases.forEach((p, i) => {
      const y = 4 + i * rowHeight;
      label(bars, 200, y + 11, "node " + p.node + ": " + p.name, "end");
      el("rect", {x: 206, y: y, width: Math.max(1, p.ns / longest * 500), height: rowHeight - 2, fill: "#f4a340"}, bars);
      label(bars, 210 + p.ns / longest * 500, y + 11, ms(p.ns));
    });
  }
}
try {
  draw(JSON.parse(document.getElementById("observations").textContent));
  document.body.setAttribute("data-rendered", "yes");
} catch (error) {
  document.body.setAttribute("data-rendered", "error: " + error);
  throw error;
}
</script>
</body></html>
)HTML";

}  // namespace

void write_run_report(const std::string& path, const std::vector<std::string>& node_observations) {
  std::string data = "[";
  for (std::size_t node = 0; node < node_observations.size(); ++node) {
    if (node > 0) data += ",\n";
    // '<' occurs only inside JSON strings (type names): escaped, no "</script>" can end
    // the data early.
    for (const char c : node_observations[node]) {
      if (c == '<') {
        data += "\\u003c";
      } else {
        data += c;
      }
    }
  }
  data += "]";
  const std::string page = std::string(kHead) + data + kTail;
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    throw std::runtime_error("cannot write the report " + path + ": " + error_text(errno));
  }
  const bool written = std::fwrite(page.data(), 1, page.size(), file) == page.size();
  if (std::fclose(file) != 0 || !written) {
    throw std::runtime_error("cannot write the report " + path + ": " + error_text(errno));
  }
}

}  // namespace xenon
