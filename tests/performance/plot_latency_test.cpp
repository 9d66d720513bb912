// SPDX-License-Identifier: BSD-3-Clause
// performance/plot_latency.sh: runs latency_probe, keeps medians in a CSV, draws a PNG.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_binary.hpp"

namespace {

namespace fs = std::filesystem;
using xenon::testing::run_command;

class PlotLatency : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_command("command -v gnuplot").exit_code, 0)
        << "gnuplot is not installed: run `make deps` (Debian package gnuplot-nox)";
    std::string pattern = (fs::temp_directory_path() / "xenon_plot_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    out_ = pattern;
  }
  void TearDown() override {
    if (!out_.empty()) fs::remove_all(out_);
  }
  std::string out_;
};

std::string first_bytes(const std::string& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(count, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(count));
  return bytes.substr(0, static_cast<std::size_t>(in.gcount()));
}

TEST_F(PlotLatency, WritesOneCsvRowPerThreadCountAndAPng) {
  const char* bin = std::getenv("XENON_BIN");
  const auto run = run_command(std::string("XENON_BIN=") + (bin != nullptr ? bin : "build/release/bin") +
                               " performance/plot_latency.sh -threads 1,3 -repetitions 2 -out " +
                               out_ + " -- -actor-count-per-worker 3 -ping-message-count-per-actor 200");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream csv(out_ + "/latency.csv");
  std::string header, one, three, extra;
  std::getline(csv, header);
  std::getline(csv, one);
  std::getline(csv, three);
  EXPECT_EQ(header,
            "threads_per_node,throughput_median,throughput_min,throughput_max,round_trip_p50_ns,"
            "round_trip_p99_ns");
  EXPECT_EQ(one.rfind("1,", 0), 0u) << one;
  EXPECT_EQ(three.rfind("3,", 0), 0u) << three;
  EXPECT_FALSE(std::getline(csv, extra)) << extra;
  EXPECT_EQ(first_bytes(out_ + "/latency.png", 8), "\x89PNG\r\n\x1a\n");
  // Replotting the CSV alone runs nothing and draws the same kind of file.
  fs::remove(out_ + "/latency.png");
  const auto replot = run_command("performance/plot_latency.sh -from " + out_ +
                                  "/latency.csv -out " + out_);
  ASSERT_EQ(replot.exit_code, 0) << replot.output;
  EXPECT_EQ(first_bytes(out_ + "/latency.png", 8), "\x89PNG\r\n\x1a\n");
}

TEST_F(PlotLatency, BadUseIsOneLineAndStatusTwo) {
  for (const char* arguments : {"-threads 0", "-threads 1,,2", "-repetitions x", "-from /nonexistent",
                                "-bogus"}) {
    const auto run = run_command(std::string("performance/plot_latency.sh ") + arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_EQ(run.output.rfind("plot_latency.sh: error: ", 0), 0u) << arguments << "\n" << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
  }
}

}  // namespace
