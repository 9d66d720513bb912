// SPDX-License-Identifier: BSD-3-Clause
// Every source file of the project names its licence (LICENSE, BSD-3-Clause) in an SPDX line
// among its first three lines (after a shebang), so that a file copied out of the tree still
// says under which terms.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool is_source(const fs::path& path) {
  static const std::vector<std::string> extensions = {".cpp", ".hpp", ".h", ".sh", ".py", ".mk", ".in"};
  const std::string name = path.filename().string();
  if (name == "Makefile" || name == "run" || name == "Doxyfile") return true;
  for (const std::string& extension : extensions) {
    if (path.extension() == extension) return true;
  }
  return false;
}

bool names_the_licence(const fs::path& path) {
  std::ifstream file(path);
  std::string line;
  for (int number = 0; number < 3 && std::getline(file, line); ++number) {
    if (line.find("SPDX-License-Identifier: BSD-3-Clause") != std::string::npos) return true;
  }
  return false;
}

TEST(Licence, TheLicenceFileIsThere) {
  std::ifstream licence("LICENSE");
  ASSERT_TRUE(licence.good()) << "run the tests from the project root: LICENSE is missing";
  std::string first;
  std::getline(licence, first);
  EXPECT_EQ(first, "BSD 3-Clause License");
}

TEST(Licence, EverySourceFileCarriesAnSpdxLine) {
  // The folders we write; build/ and results/ hold what the build made.
  const std::vector<std::string> roots = {"core", "engine", "transport", "genomics", "performance", "examples",
                                          "include", "tests", "tools", "mk", "fuzz", "docs", ".ci"};
  std::vector<std::string> missing;
  int checked = 0;
  if (names_the_licence("Makefile")) ++checked; else missing.push_back("Makefile");
  for (const std::string& root : roots) {
    ASSERT_TRUE(fs::is_directory(root)) << root << " is missing: run the tests from the project root";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file() || !is_source(entry.path())) continue;
      if (entry.path().string().find("/corpus/") != std::string::npos) continue;  // fuzz inputs
      ++checked;
      if (!names_the_licence(entry.path())) missing.push_back(entry.path().string());
    }
  }
  EXPECT_GT(checked, 150);
  EXPECT_TRUE(missing.empty()) << missing.size() << " files lack '// SPDX-License-Identifier: BSD-3-Clause' "
                               << "(or '# ...') in their first three lines, e.g. " << missing.front();
}

}  // namespace
