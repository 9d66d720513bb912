// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace xenon {

/// The named counters of one run, in order. Printed as the predecessor's lines
/// ("PERFORMANCE_COUNTER name = value [unit]"), and written on request as JSON or CSV, so
/// that results feed plots and dashboards without parsing text.
///
///     CounterReport report("latency_probe");
///     report.add_integer("message-count", messages);
///     report.add_real("elapsed-time", seconds, "s");   // printed with %f, as the predecessor
///     report.print(stdout);
///     report.write_json("run.json");
///
/// \threads One thread at a time (a plain value, no locking); nothing blocks but file output.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class CounterReport {
 public:
  /// `program` is the "program" field of the JSON.
  explicit CounterReport(std::string program);

  /// \name Adding counters
  //!@{

  /// Appends a counter; `unit` (such as "s") is printed after the value. Names are unique
  /// within a report (std::logic_error otherwise).
  void add_text(std::string name, std::string value);
  void add_integer(std::string name, std::uint64_t value, std::string unit = {});
  void add_real(std::string name, double value, std::string unit = {});
  //!@}

  /// Writes one "PERFORMANCE_COUNTER name = value [unit]" line per counter to `out`.
  void print(std::FILE* out) const;
  /// {"program": ..., "counters": {name: value, ...}, "units": {name: unit, ...}}; numbers
  /// are the printed text (a real that is not finite becomes null).
  std::string json() const;
  /// "name,value,unit" then one row per counter (RFC 4180 quoting where needed).
  std::string csv() const;

  /// \name Writing files
  //!@{

  /// Writes json() / csv() under a temporary name in the same folder and renames it into
  /// place, so a reader sees the whole file or none. Throws std::runtime_error naming the path.
  void write_json(const std::string& path) const;
  void write_csv(const std::string& path) const;
  //!@}

  /// Why `path` could not be written (its folder is missing or not writable), or "" if it can:
  /// lets a program refuse a bad path before a long run rather than after it.
  /// \threads Any thread.
  static std::string destination_problem(const std::string& path);

 private:
  enum class Kind { kText, kInteger, kReal };
  struct Counter {
    std::string name;
    Kind kind;
    std::string value;  // as printed
    std::string unit;
    bool finite = true;
  };
  void add(Counter counter);

  std::string program_;
  std::vector<Counter> counters_;
};

}  // namespace xenon
