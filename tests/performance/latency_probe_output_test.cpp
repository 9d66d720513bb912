// SPDX-License-Identifier: BSD-3-Clause
// latency_probe's counters as files (--counters-json, --counters-csv) and its progress line.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/test_support.hpp"
#include "tests/support/usage_errors.hpp"

namespace {

using xenon::testing::binary;

namespace fs = std::filesystem;
using xenon::testing::run_binary;
using xenon::testing::run_command;

// Compares every PERFORMANCE_COUNTER line of a run's standard output with the JSON and CSV
// files of the same run: same names in the same order, same values, same units.
constexpr const char* kCompareScript = R"(import csv, json, sys
out, json_path, csv_path = sys.argv[1:]
printed = []
for line in open(out):
    if not line.startswith('PERFORMANCE_COUNTER '):
        continue
    name, rest = line.rstrip('\n')[len('PERFORMANCE_COUNTER '):].split(' = ', 1)
    value, _, unit = rest.partition(' ')
    printed.append((name, value, unit))
document = json.load(open(json_path))
if list(document['counters']) != [name for name, _, _ in printed]:
    sys.exit('json: names differ from the printed ones')
for name, value, unit in printed:
    stored = document['counters'][name]
    same = stored == value if isinstance(stored, str) else float(value) == stored
    if not same or document['units'].get(name, '') != unit:
        sys.exit('json: %s is %r %r, printed %s %s' % (name, stored, document['units'].get(name), value, unit))
rows = list(csv.reader(open(csv_path)))
if rows[0] != ['name', 'value', 'unit'] or [tuple(row) for row in rows[1:]] != printed:
    sys.exit('csv: differs from the printed counters')
print('%d counters match' % len(printed))
)";

class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "xenon_probe_XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TemporaryFolder() {
    if (!path_.empty()) fs::remove_all(path_);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

TEST(LatencyProbeOutput, JsonAndCsvFilesHoldExactlyThePrintedCounters) {
  TemporaryFolder folder;
  const auto run = run_command(binary("latency_probe") +
                               " -threads-per-node 3 -actor-count-per-worker 4"
                               " -ping-message-count-per-actor 500 --quiet"
                               " --counters-json=" + (folder / "run.json") +
                               " -counters-csv " + (folder / "run.csv") + " > " +
                               (folder / "out.txt"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ofstream(folder / "compare.py") << kCompareScript;
  const auto compared = run_command("python3 " + (folder / "compare.py") + " " +
                                    (folder / "out.txt") + " " + (folder / "run.json") + " " +
                                    (folder / "run.csv"));
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_EQ(compared.output, "43 counters match\n");  // with the four queue-time ones
}

TEST(LatencyProbeOutput, AnUnwritableCountersFileIsRefusedBeforeTheRun) {
  xenon::testing::expect_usage_errors(
      "latency_probe",
      {{"--counters-json=/nonexistent/run.json", "option -counters-json: cannot write in "
                                                 "'/nonexistent'"},
       {"-counters-csv /", "option -counters-csv: '/' is a directory"}});
}

// Progress lines (plain: standard error is not a terminal here) every 20 ms of a run that
// takes longer than that; none with --quiet, and the same counters either way.
TEST(LatencyProbeOutput, LongRunsShowProgressOnStandardErrorUnlessQuiet) {
  const std::string pings = std::to_string(xenon::testing::stress_items(100000));
  const std::string workload = " -threads-per-node 1 -progress-interval-ms 20"
                               " -ping-message-count-per-actor " + pings;
  TemporaryFolder folder;
  // (In braces: run_command sends the whole command's standard error to its output.)
  const auto shown = run_command("{ " + binary("latency_probe") + workload + " 2> " +
                                 (folder / "progress.txt") + " > /dev/null; }");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  std::ifstream progress(folder / "progress.txt");
  std::string line;
  int lines = 0;
  while (std::getline(progress, line)) {
    EXPECT_EQ(line.rfind("latency_probe: ", 0), 0u) << line;
    EXPECT_NE(line.find(" of " + std::to_string(100 * std::stoull(pings)) +
                        " pings answered on node 0 ("),
              std::string::npos)
        << line;
    ++lines;
  }
  EXPECT_GE(lines, 1) << "a run of over 20 ms showed no progress";
  const auto quiet = run_command(binary("latency_probe") + workload + " --quiet > /dev/null");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output, "");
}

}  // namespace
