// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/counter_report.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

namespace fs = std::filesystem;
using xenon::CounterReport;

CounterReport sample() {
  CounterReport report("probe");
  report.add_text("type", "ping-pong");
  report.add_integer("message-count", 80);
  report.add_real("elapsed-time", 0.5, "s");
  report.add_integer("worker-latency", 25, "ns");
  return report;
}

std::string printed(const CounterReport& report) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  report.print(out);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "xenon_counters_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TemporaryFolder() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(CounterReport, PrintsThePredecessorsLinesInOrder) {
  EXPECT_EQ(printed(sample()),
            "PERFORMANCE_COUNTER type = ping-pong\n"
            "PERFORMANCE_COUNTER message-count = 80\n"
            "PERFORMANCE_COUNTER elapsed-time = 0.500000 s\n"
            "PERFORMANCE_COUNTER worker-latency = 25 ns\n");
}

TEST(CounterReport, JsonHoldsTheSameValuesAsPrintedAndTheUnitsApart) {
  EXPECT_EQ(sample().json(),
            "{\n"
            "  \"program\": \"probe\",\n"
            "  \"counters\": {\n"
            "    \"type\": \"ping-pong\",\n"
            "    \"message-count\": 80,\n"
            "    \"elapsed-time\": 0.500000,\n"
            "    \"worker-latency\": 25\n"
            "  },\n"
            "  \"units\": {\n"
            "    \"elapsed-time\": \"s\",\n"
            "    \"worker-latency\": \"ns\"\n"
            "  }\n"
            "}\n");
}

TEST(CounterReport, JsonEscapesTextAndWritesNullForARealThatIsNotFinite) {
  CounterReport report("p\"q");
  report.add_text("label", "a\\b\n\"c\"");
  report.add_real("rate", std::nan(""), "messages / s");
  const std::string json = report.json();
  EXPECT_NE(json.find("\"program\": \"p\\\"q\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"label\": \"a\\\\b\\u000a\\\"c\\\"\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"rate\": null"), std::string::npos) << json;
}

TEST(CounterReport, CsvHasAHeaderAndQuotesFieldsThatNeedIt) {
  CounterReport report("probe");
  report.add_text("label", "a,b \"c\"");
  report.add_real("elapsed-time", 1.25, "s");
  EXPECT_EQ(report.csv(),
            "name,value,unit\n"
            "label,\"a,b \"\"c\"\"\",\n"
            "elapsed-time,1.250000,s\n");
}

TEST(CounterReport, ANameAddedTwiceIsAnError) {
  CounterReport report("probe");
  report.add_integer("count", 1);
  EXPECT_THROW(report.add_integer("count", 2), std::logic_error);
}

TEST(CounterReport, WritesTheWholeFileAndLeavesNoTemporaryBehind) {
  TemporaryFolder folder;
  const fs::path json = folder.path() / "run.json";
  const fs::path csv = folder.path() / "run.csv";
  std::ofstream(json) << "an older, longer file that must be replaced whole\n";
  sample().write_json(json.string());
  sample().write_csv(csv.string());
  EXPECT_EQ(read_file(json), sample().json());
  EXPECT_EQ(read_file(csv), sample().csv());
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(folder.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 2u);
}

TEST(CounterReport, AnUnwritablePathThrowsNamingItAndWritesNothing) {
  TemporaryFolder folder;
  const std::string path = (folder.path() / "missing" / "run.json").string();
  try {
    sample().write_json(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("cannot write counters to '" + path + "'"),
              std::string::npos)
        << error.what();
  }
  EXPECT_TRUE(fs::is_empty(folder.path()));
}

TEST(CounterReport, DestinationProblemNamesAMissingFolderOrADirectory) {
  TemporaryFolder folder;
  EXPECT_EQ(CounterReport::destination_problem((folder.path() / "run.json").string()), "");
  EXPECT_NE(CounterReport::destination_problem((folder.path() / "no" / "run.json").string())
                .find("cannot write in"),
            std::string::npos);
  EXPECT_NE(CounterReport::destination_problem(folder.path().string()).find("is a directory"),
            std::string::npos);
  EXPECT_EQ(CounterReport::destination_problem(""), "empty file name");
}

}  // namespace
