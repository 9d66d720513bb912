// SPDX-License-Identifier: BSD-3-Clause
// --stats DIR of the genomics tools, performance/scaling/scaling_report.py that lays the
// nodes side by side, and performance/scaling/model.py that extrapolates from them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_data.hpp"

namespace {

using xenon::testing::data_directory;
using xenon::testing::mpi_run;
using xenon::testing::run_binary;
using xenon::testing::run_command;
using xenon::testing::TemporaryDirectory;

std::string lambda_reads() {
  return data_directory() + "/lambda/reads_1.fq.gz " + data_directory() + "/lambda/reads_2.fq.gz";
}

// The key=value words of the first line of `text` that starts with `prefix`.
std::map<std::string, std::string> fields_of_line(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  std::map<std::string, std::string> fields;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      const auto equals = word.find('=');
      if (equals != std::string::npos) fields[word.substr(0, equals)] = word.substr(equals + 1);
    }
    break;
  }
  return fields;
}

double number(const std::map<std::string, std::string>& fields, const std::string& key) {
  const auto found = fields.find(key);
  return found == fields.end() ? -1.0 : std::stod(found->second);
}

std::string report(const std::string& directories) {
  return "python3 performance/scaling/scaling_report.py " + directories;
}

TEST(ScalingStatistics, TwoProcessesWriteOneFileEachWhoseSumsAgree) {
  SKIP_WITHOUT_MPI();
  ASSERT_TRUE(xenon::testing::test_data_present());
  TemporaryDirectory out("xenon-stats");
  const auto run = mpi_run(2, "kmer_counter", "--quiet -t 1 --stats " + out.path() + "/stats -o " + out.path() +
                                                  "/out " + lambda_reads());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(std::filesystem::exists(out.path() + "/stats/kmer_counter-node-0.json"));
  EXPECT_TRUE(std::filesystem::exists(out.path() + "/stats/kmer_counter-node-1.json"));
  // The report fails unless each node's timeline sums to its busy total and its workers'
  // busy times do too.
  const auto lines = run_command(report(out.path() + "/stats"));
  ASSERT_EQ(lines.exit_code, 0) << lines.output;
  for (const std::string rank : {"0", "1"}) {
    const auto node = fields_of_line(lines.output, "SCALING tool=kmer_counter P=2 rank=" + rank + " phase=all");
    EXPECT_GT(number(node, "busy_s"), 0.0) << lines.output;
    // --stats measures the CPU time of the same rounds; what the OS gave others is not in it.
    EXPECT_GT(number(node, "busy_cpu_s"), 0.0) << lines.output;
    EXPECT_LE(number(node, "busy_cpu_s"), number(node, "busy_s") + 0.05) << lines.output;
    EXPECT_GT(number(node, "bytes_sent"), 0.0) << lines.output;
    EXPECT_GT(number(node, "msgs_sent"), 0.0) << lines.output;
    EXPECT_GT(number(node, "peak_rss_mib"), 1.0) << lines.output;
    EXPECT_EQ(number(node, "graph_copy_mib"), 0.0) << "the counter holds no graph: " << lines.output;
  }
  // The nodes' shares of the input read add up to all of it.
  const auto node0 = fields_of_line(lines.output, "SCALING tool=kmer_counter P=2 rank=0 phase=all");
  const auto node1 = fields_of_line(lines.output, "SCALING tool=kmer_counter P=2 rank=1 phase=all");
  EXPECT_NEAR(number(node0, "input_share") + number(node1, "input_share"), 1.0, 0.002) << lines.output;
  EXPECT_GT(number(node0, "input_bytes") + number(node1, "input_bytes"), 1e6) << lines.output;
  const auto counting = fields_of_line(lines.output, "SCALING_PHASE tool=kmer_counter P=2 phase=counting");
  EXPECT_GT(number(counting, "busy_total_s"), 0.0) << lines.output;
  const auto whole = fields_of_line(lines.output, "SCALING_RUN tool=kmer_counter P=2");
  EXPECT_GE(number(whole, "serial_fraction"), 0.0) << lines.output;
  EXPECT_LE(number(whole, "serial_fraction"), 1.0) << lines.output;
  EXPECT_GE(number(whole, "busy_cpu_max_over_mean"), 1.0) << lines.output;
  EXPECT_GE(number(whole, "serial_cpu_fraction"), 0.0) << lines.output;
  EXPECT_LE(number(whole, "serial_cpu_fraction"), 1.0) << lines.output;
  EXPECT_LE(number(whole, "busy_cpu_total_s"), number(whole, "busy_total_s") + 0.1) << lines.output;
  EXPECT_NE(lines.output.find("TARGET tool=kmer_counter name=largest_input_share_P4 value=n/a"), std::string::npos)
      << lines.output;

  // A run that lost a node's file is refused, in one line.
  std::filesystem::remove(out.path() + "/stats/kmer_counter-node-1.json");
  const auto refused = run_command(report(out.path() + "/stats"));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.output, "scaling_report.py: error: " + out.path() + "/stats: expected nodes 0..1 once each, found [0]\n");
}

TEST(ScalingStatistics, TheAssemblerNamesItsPhasesAndATamperedTimelineIsCaught) {
  ASSERT_TRUE(xenon::testing::test_data_present());
  TemporaryDirectory out("xenon-stats");
  const auto run =
      run_binary("assembler", "--quiet -t 1 --stats " + out.path() + "/stats -o " + out.path() + "/out " + lambda_reads());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string json = out.read("stats/assembler-node-0.json");
  for (const char* phase : {"\"counting\"", "\"walks\"", "\"unitigs\"", "\"contigs\""}) {
    EXPECT_NE(json.find(std::string("{\"name\": ") + phase), std::string::npos) << json;
  }
  const auto lines = run_command(report(out.path() + "/stats"));
  ASSERT_EQ(lines.exit_code, 0) << lines.output;
  const auto whole = fields_of_line(lines.output, "SCALING_RUN tool=assembler P=1");
  EXPECT_GT(number(whole, "busy_total_s"), 0.0) << lines.output;
  EXPECT_EQ(whole.at("serial_fraction"), "n/a");  // one process: no one to share with
  EXPECT_EQ(number(whole, "input_share_max"), 1.0);
  EXPECT_GT(number(whole, "busy_cpu_total_s"), 0.0) << "--stats measures busy CPU time: " << lines.output;
  // Each phase's peak resident memory, from the node's timeline: some of the run's peak,
  // never above it (a sample may read a few pages more than getrusage, no more).
  EXPECT_NE(json.find("\"rss_timeline_peak_bytes\": ["), std::string::npos) << json;
  for (const char* phase : {"counting", "walks", "contigs"}) {
    const auto fields = fields_of_line(lines.output, std::string("SCALING_PHASE tool=assembler P=1 phase=") + phase);
    EXPECT_GT(number(fields, "peak_rss_max_mib"), 1.0) << phase << ": " << lines.output;
    EXPECT_LE(number(fields, "peak_rss_max_mib"), number(whole, "peak_rss_max_mib") + 0.5) << phase << ": " << lines.output;
    EXPECT_EQ(number(fields, "peak_rss_rank"), 0.0) << phase << ": " << lines.output;
  }

  // One more nanosecond in a total, or in the first bucket of a timeline, than in what must
  // sum to it: refused, naming which.
  const auto one_more_at = [&json](const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    EXPECT_NE(at, std::string::npos) << key;
    auto begin = at + key.size() + 4;
    if (json[begin] == '[') ++begin;
    const auto end = json.find_first_of(",]", begin);
    return json.substr(0, begin) + std::to_string(std::stoull(json.substr(begin, end - begin)) + 1) + json.substr(end);
  };
  for (const auto& [key, error] : {std::pair<std::string, std::string>{"busy_nanoseconds", "busy timeline sums to"},
                                   {"busy_cpu_timeline_nanoseconds", "busy CPU timeline does not sum"},
                                   {"busy_cpu_nanoseconds", "worker busy CPU times do not sum"}}) {
    out.write("stats/assembler-node-0.json", one_more_at(key));
    const auto refused = run_command(report(out.path() + "/stats"));
    EXPECT_EQ(refused.exit_code, 1) << refused.output;
    EXPECT_NE(refused.output.find(error), std::string::npos) << key << ": " << refused.output;
  }
}

// Node 0 sends each store its share of the sequences carried to the next round: over two
// nodes, half of them goes to node 1, reported apart from the rest of what node 0 sent.
TEST(ScalingStatistics, NodeZeroReportsTheSharesOfTheCarriedSequencesItScatters) {
  SKIP_WITHOUT_MPI();
  ASSERT_TRUE(xenon::testing::test_data_present());
  TemporaryDirectory out("xenon-stats");
  const auto run = mpi_run(2, "assembler", "--quiet -t 1 --graph-image no --stats " + out.path() + "/stats -o " +
                                               out.path() + "/out " + lambda_reads());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto lines = run_command(report(out.path() + "/stats"));
  ASSERT_EQ(lines.exit_code, 0) << lines.output;
  const auto node0 = fields_of_line(lines.output, "SCALING tool=assembler P=2 rank=0 phase=all");
  const std::string log = out.read("out/assembler.log");
  ASSERT_NE(log.find("round 2 of"), std::string::npos) << "lambda's reads give more than one k: " << log;
  EXPECT_GT(number(node0, "scattered_bytes"), 1000.0) << lines.output;
  EXPECT_LT(number(node0, "scattered_bytes"), number(node0, "bytes_sent")) << lines.output;
  const auto node1 = fields_of_line(lines.output, "SCALING tool=assembler P=2 rank=1 phase=all");
  EXPECT_EQ(node1.count("scattered_bytes"), 0u) << "only node 0 has sequences to scatter: " << lines.output;
  // Each store indexed the same unitig ends to thread its reads; node 0 also held the graph.
  EXPECT_GT(number(node1, "graph_copy_mib"), 0.0) << lines.output;
  EXPECT_GE(number(node0, "graph_copy_mib"), number(node1, "graph_copy_mib")) << lines.output;
  EXPECT_EQ(number(fields_of_line(lines.output, "SCALING_RUN tool=assembler P=2"), "graph_copy_max_mib"),
            number(node0, "graph_copy_mib"))
      << lines.output;
  // Node 0's store sent every store a message at each step of cleaning (the records, then the
  // verdicts) and of each joining (the ends, then the links: the walks' pieces, then after every
  // step that removed any); in each round after the first, its store sent every store how many
  // batches of carried k-mers went to it, and its keeper every keeper the words it adds. Its
  // coordinator told every store to find the edges, walk, gather each joining's chains, send
  // the unvisited vertices and begin the cleaning (the stores take its steps and joinings,
  // and send the cleaned unitigs, by themselves). When the stores pair mates, its store sends
  // every store how many batches of mates it sent it, then how many of pair counts to sum.
  std::uint64_t expected = 0;
  std::uint64_t later_rounds = 0;
  std::istringstream log_lines(log);
  for (std::string line; std::getline(log_lines, line);) {
    unsigned long long rounds = 0, steps = 0, joinings = 0;
    const std::size_t cleaned = line.find("the stores cleaned the unitigs in ");
    if (cleaned != std::string::npos &&
        std::sscanf(line.c_str() + cleaned, "the stores cleaned the unitigs in %llu round(s): %llu steps at the junctions, %llu joinings",
                    &rounds, &steps, &joinings) == 3) {
      expected += 2 * steps + 2 * (joinings + 1);       // the stores'
      expected += 2 + (joinings + 1) + 1 + 1;  // the coordinator's
    }
    if (line.find("  round ") != std::string::npos && line.find("  round 1 of") == std::string::npos) ++later_rounds;
    // Pairing mates: its store sent every store how many batches of mates, then of pair counts.
    if (line.find("mates paired by ") != std::string::npos) expected += 2;
  }
  ASSERT_GT(later_rounds, 0u) << log;
  expected += 2 * later_rounds;
  EXPECT_EQ(number(node0, "exchanges"), static_cast<double>(expected)) << lines.output << log;
}

TEST(ScalingStatistics, AStatisticsDirectoryThatCannotBeMadeFailsBeforeTheRun) {
  ASSERT_TRUE(xenon::testing::test_data_present());
  TemporaryDirectory out("xenon-stats");
  const std::string file = out.write("a-file", "");
  const auto run = run_binary("kmer_counter", "--quiet -t 1 --stats " + file + " -o " + out.path() + "/out " +
                                                  lambda_reads());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output, "kmer_counter: error: " + file + ": cannot create the statistics directory: Not a directory\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() + "/out"));  // nothing ran
}

// A made-up report: 10 s of work, of which node 0 did 1 s alone at P = 2.
constexpr const char* kMadeUpReport =
    "SCALING tool=demo P=1 rank=0 phase=all busy_s=10.0 bytes_sent=0 msgs_sent=0 frames_sent=0\n"
    "SCALING_PHASE tool=demo P=1 phase=work busy_total_s=10.0 serial_s=n/a\n"
    "SCALING_RUN tool=demo P=1 busy_total_s=10.0\n"
    "SCALING tool=demo P=2 rank=0 phase=all busy_s=6.0 bytes_sent=2000000 msgs_sent=100 frames_sent=40\n"
    "SCALING tool=demo P=2 rank=1 phase=all busy_s=5.0 bytes_sent=1000000 msgs_sent=50 frames_sent=20\n"
    "SCALING_PHASE tool=demo P=2 phase=work busy_total_s=10.0 serial_s=0.0\n"
    "SCALING_PHASE tool=demo P=2 phase=gather busy_total_s=1.0 serial_s=1.0\n"
    "SCALING_RUN tool=demo P=2 busy_total_s=11.0\n";

TEST(ScalingModel, PredictsFallingEfficiencyLimitedByTheSerialStep) {
  TemporaryDirectory out("xenon-model");
  const std::string input = out.write("report.txt", kMadeUpReport);
  const auto run = run_command("python3 performance/scaling/model.py --nodes 16,256,1024 " + input);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto fit = fields_of_line(run.output, "MODEL_FIT tool=demo");
  EXPECT_DOUBLE_EQ(number(fit, "serial_s"), 1.0);
  EXPECT_DOUBLE_EQ(number(fit, "parallel_s"), 9.0);
  EXPECT_DOUBLE_EQ(number(fit, "imbalance"), 1.0);  // (6 - 1) over (11 - 1) / 2
  const auto at16 = fields_of_line(run.output, "MODEL tool=demo N=16 ");
  const auto at256 = fields_of_line(run.output, "MODEL tool=demo N=256 ");
  const auto at1024 = fields_of_line(run.output, "MODEL tool=demo N=1024 ");
  // T(16) = 1 + 9/16 + communication: the efficiency at most 10 / (16 * 1.5625).
  EXPECT_GT(number(at16, "predicted_s"), 1.5625);
  EXPECT_LT(number(at16, "efficiency"), 10.0 / (16 * 1.5625));
  EXPECT_GT(number(at16, "efficiency"), number(at256, "efficiency"));
  EXPECT_GT(number(at256, "efficiency"), number(at1024, "efficiency"));
  EXPECT_NE(run.output.find("limit=\"serial steps on node 0 (mostly gather: 1.00 s)\""), std::string::npos)
      << run.output;
}

// A made-up report with CPU time: 10 s of CPU work at P = 1; at P = 4 on two cores each rank
// was 9 s inside receive() by the clock but computed 2.5 to 3.5 s, 11 s in all, of which node
// 0 computed 1 s alone (2 s by the clock, waiting for a core meanwhile). `rank3_cpu`: rank 3's
// busy_cpu_s field, or none.
std::string cpu_report(const std::string& rank3_cpu) {
  std::string report =
      "SCALING tool=demo P=1 rank=0 phase=all busy_s=10.5 busy_cpu_s=10.0 bytes_sent=0 msgs_sent=0 frames_sent=0\n"
      "SCALING_PHASE tool=demo P=1 phase=work busy_total_s=10.5 serial_s=n/a busy_cpu_total_s=10.0 serial_cpu_s=n/a\n"
      "SCALING_RUN tool=demo P=1 busy_total_s=10.5 busy_cpu_total_s=10.0\n";
  for (const int rank : {0, 1, 2, 3}) {
    const std::string cpu = rank == 0 ? "busy_cpu_s=3.5 " : rank == 3 ? rank3_cpu : "busy_cpu_s=2.5 ";
    report += "SCALING tool=demo P=4 rank=" + std::to_string(rank) + " phase=all busy_s=9.0 " + cpu +
              "bytes_sent=1000000 msgs_sent=30 frames_sent=30\n";
  }
  return report +
         "SCALING_PHASE tool=demo P=4 phase=work busy_total_s=34.0 serial_s=0.0 busy_cpu_total_s=10.0 serial_cpu_s=0.0\n"
         "SCALING_PHASE tool=demo P=4 phase=gather busy_total_s=2.0 serial_s=2.0 busy_cpu_total_s=1.0 serial_cpu_s=1.0\n"
         "SCALING_RUN tool=demo P=4 busy_total_s=36.0 busy_cpu_total_s=11.0\n";
}

// Where every run carries CPU time, the model fits on it: the serial step as node 0 computed
// it, the parallel work and its imbalance at P = 4 (with two cores, wall-clock busy time
// would only be taken from P = 1), and efficiency against the measured P = 1 CPU work.
// Without CPU time on every rank it falls back to wall-clock time, and says which it used.
TEST(ScalingModel, FitsOnCpuTimeWhereEveryRunCarriesIt) {
  TemporaryDirectory out("xenon-model");
  const auto model = [&out](const std::string& name, const std::string& report) {
    return run_command("python3 performance/scaling/model.py --cores 2 --nodes 16 " + out.write(name, report));
  };
  const auto run = model("report.txt", cpu_report("busy_cpu_s=2.5 "));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("MODEL_FIT tool=demo time=cpu "), std::string::npos) << run.output;
  const auto fit = fields_of_line(run.output, "MODEL_FIT tool=demo");
  EXPECT_DOUBLE_EQ(number(fit, "work_s"), 10.0);
  EXPECT_DOUBLE_EQ(number(fit, "serial_s"), 1.0);
  EXPECT_DOUBLE_EQ(number(fit, "parallel_s"), 10.0);  // 11 less the serial second, at P = 4
  EXPECT_DOUBLE_EQ(number(fit, "parallel_work_P"), 4.0);
  EXPECT_DOUBLE_EQ(number(fit, "imbalance"), 1.0);  // (3.5 - 1) over (11 - 1) / 4
  const auto at16 = fields_of_line(run.output, "MODEL tool=demo N=16 ");
  const double predicted = number(at16, "predicted_s");
  EXPECT_GE(predicted, 1.0 + 10.0 / 16);  // and communication, microseconds here
  EXPECT_NEAR(number(at16, "efficiency"), 10.0 / (16 * predicted), 1e-3) << "against the P = 1 work";
  EXPECT_NE(run.output.find("limit=\"serial steps on node 0 (mostly gather: 1.00 s)\""), std::string::npos)
      << run.output;

  const auto wall = model("partial.txt", cpu_report(""));
  ASSERT_EQ(wall.exit_code, 0) << wall.output;
  EXPECT_NE(wall.output.find("MODEL_FIT tool=demo time=wall "), std::string::npos) << wall.output;
  const auto wall_fit = fields_of_line(wall.output, "MODEL_FIT tool=demo");
  EXPECT_DOUBLE_EQ(number(wall_fit, "serial_s"), 2.0);
  EXPECT_DOUBLE_EQ(number(wall_fit, "parallel_work_P"), 1.0);
}

// A made-up run: P = 1 busy for 12 s, and P = 4 in which every node sends every other 10 MB
// of the exchange (5 MB of it to node 0), node 2 `node2_extra` more; node 0's line says
// `node0` after its busy time.
std::string four_node_report(const std::string& node0, std::uint64_t node2_extra = 0) {
  std::string report =
      "SCALING tool=demo P=1 rank=0 phase=all busy_s=12.0 bytes_sent=0 msgs_sent=0 frames_sent=0\n"
      "SCALING_RUN tool=demo P=1 busy_total_s=12.0\n"
      "SCALING tool=demo P=4 rank=0 phase=all busy_s=3.0 " + node0 + "\n";
  for (const int rank : {1, 2, 3}) {
    report += "SCALING tool=demo P=4 rank=" + std::to_string(rank) + " phase=all busy_s=3.0 bytes_sent=" +
              std::to_string(25000000 + (rank == 2 ? node2_extra : 0)) +
              " msgs_sent=30 frames_sent=30 bytes_to_node0=5000000\n";
  }
  return report + "SCALING_PHASE tool=demo P=4 phase=work busy_total_s=12.0 serial_s=0.0\n"
                  "SCALING_RUN tool=demo P=4 busy_total_s=12.0\n";
}

// At P = 4 node 0 sends every other node 100 MB more than the others send each other (10 MB
// to each peer, 5 MB to node 0): a broadcast, which grows with the node count.
std::string broadcast_report() {
  return four_node_report("bytes_sent=330000000 msgs_sent=30 frames_sent=30 bytes_to_node0=0");
}

// The model's output for a made-up report, to 256 nodes over a network of 1 us and 1,000 MB/s.
std::string model_to_256_nodes(const std::string& report) {
  TemporaryDirectory out("xenon-model");
  const std::string input = out.write("report.txt", report);
  const auto run = run_command("python3 performance/scaling/model.py --nodes 256 --bandwidth-mbs 1000 "
                               "--latency-us 1 --cores 4 " + input);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return run.output;
}

TEST(ScalingModel, SendsABroadcastToEveryNodeAdded) {
  const std::string output = model_to_256_nodes(broadcast_report());
  const auto fit = fields_of_line(output, "MODEL_FIT tool=demo");
  EXPECT_DOUBLE_EQ(number(fit, "node0_broadcast_bytes_per_node"), 100e6);
  EXPECT_DOUBLE_EQ(number(fit, "node0_own_bytes"), 0.0);
  // 100 MB to each of 255 nodes at 1,000 MB/s, and node 0's share of the exchange (10 MB to
  // each of 3 peers at P = 4: 160 MB hashed over 256 nodes).
  const auto at256 = fields_of_line(output, "MODEL tool=demo N=256 ");
  EXPECT_NEAR(number(at256, "bandwidth_s"), 25.5 + 0.160 * 255 / 256 / 256, 1e-4);
  EXPECT_NE(output.find("limit=\"node 0's bandwidth (mostly what it sends every node: 100.0 MB each)\""),
            std::string::npos)
      << output;
}

// At P = 4 node 0 sends nodes 1 and 2, its children in the tree (1, 2, 4, ...), 100 MB more
// than node 3, and node 2 passes it on to node 3; every node sends every other 10 MB of the
// exchange (5 MB to node 0): a relayed broadcast, which node 0 sends ceil(log2 N) times, not
// a direct one.
std::string relayed_report() {
  return four_node_report(
      "bytes_sent=230000000 msgs_sent=30 frames_sent=30 bytes_to_node0=0 bytes_to_nodes=110000000,110000000,10000000",
      100000000);
}

TEST(ScalingModel, RelaysABroadcastDownATreeOfTheNodes) {
  const std::string output = model_to_256_nodes(relayed_report());
  const auto fit = fields_of_line(output, "MODEL_FIT tool=demo");
  EXPECT_NEAR(number(fit, "relayed_broadcast_bytes"), 100e6, 1);
  EXPECT_NEAR(number(fit, "node0_broadcast_bytes_per_node"), 0.0, 1);
  EXPECT_NEAR(number(fit, "all_to_all_bytes"), 160e6, 1) << "node 2's passing on is not exchange";
  // 100 MB to each of node 0's 8 children at 256 nodes (not 255 nodes), and its share of the
  // exchange.
  const auto at256 = fields_of_line(output, "MODEL tool=demo N=256 ");
  EXPECT_NEAR(number(at256, "bandwidth_s"), 0.8 + 0.160 * 255 / 256 / 256, 1e-4);
  EXPECT_NE(output.find("limit=\"node 0's bandwidth (mostly broadcasts: 100.0 MB relayed to each of 8 nodes, "
                        "0.0 MB sent to every node)\""),
            std::string::npos)
      << output;
}

// At P = 4 node 0 sends every other node 30 MB more than the others send each other, all of
// it shares of data it alone held (scattered_bytes: 90 MB to the 3 others, 120 MB in all with
// its own share): split over the nodes, not sent to every node added.
std::string scattered_report() {
  return four_node_report(
      "bytes_sent=120000000 msgs_sent=30 frames_sent=30 bytes_to_node0=0 bytes_to_nodes=40000000,40000000,40000000 "
      "scattered_bytes=90000000");
}

TEST(ScalingModel, SplitsScatteredSharesOverTheNodes) {
  const std::string output = model_to_256_nodes(scattered_report());
  const auto fit = fields_of_line(output, "MODEL_FIT tool=demo");
  EXPECT_NEAR(number(fit, "scattered_bytes"), 120e6, 1);
  EXPECT_NEAR(number(fit, "node0_broadcast_bytes_per_node"), 0.0, 1);
  EXPECT_NEAR(number(fit, "relayed_broadcast_bytes"), 0.0, 1);
  EXPECT_NEAR(number(fit, "all_to_all_bytes"), 160e6, 1);
  // 255/256 of the 120 MB at 256 nodes (a broadcast of 30 MB would be 7.65 GB), and node 0's
  // share of the exchange.
  const auto at256 = fields_of_line(output, "MODEL tool=demo N=256 ");
  EXPECT_NEAR(number(at256, "bandwidth_s"), 0.120 * 255 / 256 + 0.160 * 255 / 256 / 256, 1e-4);
  EXPECT_NE(output.find("limit=\"node 0's bandwidth (mostly the shares of 120.0 MB it scatters)\""), std::string::npos)
      << output;
}

// Node 0 sent every peer a message in each of 500 exchanges (as the stores do at every step of
// joining and cleaning) and heard from every peer: at 256 nodes each costs a message to each of
// 255 peers and one from each, however few bytes it carries, where the report's one phase
// alone would be one such exchange.
TEST(ScalingModel, ChargesEachExchangeAMessageToEveryNodeAndBack) {
  const std::string output = model_to_256_nodes(four_node_report(
      "bytes_sent=15000000 msgs_sent=30 frames_sent=30 bytes_to_node0=0 bytes_to_nodes=5000000,5000000,5000000 "
      "exchanges=500"));
  const auto fit = fields_of_line(output, "MODEL_FIT tool=demo");
  EXPECT_DOUBLE_EQ(number(fit, "exchanges"), 500.0);
  EXPECT_DOUBLE_EQ(number(fit, "phases"), 1.0);
  // Each a message to each of 255 nodes and one back (1 us each) and two latencies of 1 us.
  EXPECT_NEAR(number(fields_of_line(output, "MODEL tool=demo N=256 "), "exchanges_s"), 500 * 512e-6, 1e-6);
  const std::string without = model_to_256_nodes(four_node_report(
      "bytes_sent=15000000 msgs_sent=30 frames_sent=30 bytes_to_node0=0 bytes_to_nodes=5000000,5000000,5000000"));
  // Without them, the report's one phase.
  EXPECT_NEAR(number(fields_of_line(without, "MODEL tool=demo N=256 "), "exchanges_s"), 512e-6, 1e-4);  // printed to 0.1 ms
}

TEST(ScalingModel, RefusesBadInputInOneLine) {
  TemporaryDirectory out("xenon-model");
  const std::map<std::string, std::string> cases = {
      {"SCALING_RUN tool=demo P=2 busy_total_s=1\n"
       "SCALING tool=demo P=2 rank=0 phase=all busy_s=1 bytes_sent=1 msgs_sent=1 frames_sent=1\n"
       "SCALING tool=demo P=2 rank=1 phase=all busy_s=1 bytes_sent=1 msgs_sent=1 frames_sent=1\n",
       "model.py: error: demo: no P=1 run (the work T1 comes from it)\n"},
      {"SCALING tool=demo P=1 rank=0 phase=all busy_s=ten bytes_sent=0 msgs_sent=0 frames_sent=0\n",
       "model.py: error: line 1: busy_s=ten is not a number\n"},
      {"nothing here\n", "model.py: error: " + out.path() + "/report.txt: no SCALING lines (the output of "
                         "genomics_scaling.sh or scaling_report.py)\n"},
  };
  for (const auto& [text, message] : cases) {
    const std::string input = out.write("report.txt", text);
    const auto run = run_command("python3 performance/scaling/model.py " + input);
    EXPECT_EQ(run.exit_code, 1) << text;
    EXPECT_EQ(run.output, message) << text;
  }
  const auto missing = run_command("python3 performance/scaling/model.py " + out.path() + "/absent.txt");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.output, "model.py: error: " + out.path() + "/absent.txt: cannot read: No such file or directory\n");
}

}  // namespace
