// SPDX-License-Identifier: BSD-3-Clause
// --trace and --report: the files node 0 writes at the end of run(). The trace must parse
// as a Chrome trace event file with the spans and phases of the run; the report must
// render its charts in a real browser (headless Chromium), without a script error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions, with_threads(), run_command()

// Marks two phases and sends itself `count` messages in between, then stops.
class Phased final : public Actor {
 public:
  explicit Phased(int count) : count_(count) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      begin_phase("warm-up");
      send(self(), ACTION_WORK);
    } else if (message.action() == ACTION_WORK) {
      if (++seen_ == 1) begin_phase("steady <state>");  // '<' must not break the page
      if (seen_ < count_) {
        send(self(), ACTION_WORK);
      } else {
        stop();
      }
    }
  }

 private:
  int count_;
  int seen_ = 0;
};

void run_phased(const std::string& trace, const std::string& report) {
  EngineOptions options = with_threads(3);
  options.trace_path = trace;
  options.report_path = report;
  Engine engine(options);
  engine.send(engine.spawn_on<Phased>(1, 5000), ACTION_START);
  engine.run();
}

TEST(Trace, IsAChromeTraceWithEveryWorkersBusySpansAndThePhases) {
  TemporaryDirectory directory;
  const std::string trace = directory.path() + "/run.json";
  run_phased(trace, "");
  const ProcessResult check =
      run_command("python3 tests/support/check_trace.py " + trace + " 1 0 warm-up 'steady <state>'");
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_FALSE(std::filesystem::exists(directory.path() + "/report.html"));
}

TEST(Trace, AFolderThatDoesNotExistIsRefusedBeforeTheRun) {
  EngineOptions options;
  options.report_path = "/nonexistent-folder/report.html";
  try {
    Engine engine(options);
    FAIL() << "an engine was built with a report in a missing folder";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "--report /nonexistent-folder/report.html: the folder /nonexistent-folder does not exist");
  }
}

// One Chromium for the DOM (the script's marker), one for the screenshot: about 5 s.
TEST(Report, RendersItsChartsInHeadlessChromium) {
  // The report's content is checked in every build by the tests above; this is the page's
  // drawing in a browser, which no build option changes.
  if (xenon::testing::in_a_variant_build()) GTEST_SKIP() << "the page in a browser: the plain build runs it";
  if (run_command("command -v chromium").exit_code != 0) {
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium; tools/install_deps.sh)";
  }
  TemporaryDirectory directory;
  const std::string report = directory.path() + "/report.html";
  run_phased("", report);
  const std::string chromium = "timeout 60 chromium --headless --no-sandbox --disable-gpu "
                               "--user-data-dir=" + directory.path() + "/profile ";
  const ProcessResult dom = run_command(chromium + "--dump-dom file://" + report);
  // Set by the page's script once every chart is drawn; "error: ..." when drawing threw.
  EXPECT_NE(dom.output.find("<body data-rendered=\"yes\">"), std::string::npos) << dom.output;
  EXPECT_NE(dom.output.find("<svg"), std::string::npos);
  EXPECT_NE(dom.output.find("steady &lt;state&gt;"), std::string::npos);
  // The receive-time and queue-time histograms side by side, each with its samples line.
  const std::size_t queue_chart = dom.output.find("id=\"queue-histogram\"");
  ASSERT_NE(queue_chart, std::string::npos);
  EXPECT_EQ(dom.output.find("<svg", queue_chart), dom.output.find('>', queue_chart) + 1);
  const std::size_t queue_chart_end = dom.output.find("</div>", queue_chart);
  EXPECT_LT(dom.output.find(" samples; p50 ", queue_chart), queue_chart_end);
  EXPECT_LT(dom.output.find(" samples; p50 "), queue_chart);  // the receive() chart's
  const std::string png = directory.path() + "/report.png";
  const ProcessResult shot =
      run_command(chromium + "--screenshot=" + png + " --window-size=1200,1600 file://" + report);
  ASSERT_TRUE(std::filesystem::exists(png)) << shot.output;
  // A blank page has one pixel value; text alone a few dozen; the charts add hundreds.
  const ProcessResult pixels = run_command("python3 tests/support/check_screenshot.py " + png + " 100");
  EXPECT_EQ(pixels.exit_code, 0) << pixels.output;
}

}  // namespace
}  // namespace xenon
