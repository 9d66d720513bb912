// make install, seen from a user: the list `make test` prepares (build/.../install/
// files.list) is installed into a temporary prefix with the same script `make install`
// runs; an example is built outside the tree with pkg-config and run; uninstall is checked
// to remove exactly what install wrote. Plain builds only (see mk/install.mk).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

namespace fs = std::filesystem;
using xenon::testing::run_command;

std::string build_folder() {
  const char* bin = std::getenv("XENON_BIN");
  return fs::path(bin != nullptr ? bin : "build/release/bin").parent_path().string();
}

class Installed : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* sanitize = std::getenv("XENON_SANITIZE");
    if (sanitize != nullptr && *sanitize != '\0') {
      GTEST_SKIP() << "install is checked in plain builds: a program linked with a " << sanitize
                   << "-sanitized libxenon needs that sanitizer's runtime";
    }
    list_ = build_folder() + "/install/files.list";
    ASSERT_TRUE(fs::exists(list_)) << list_ << " missing: make test prepares it";
    std::string pattern = (fs::temp_directory_path() / "xenon_install_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    work_ = pattern;
    prefix_ = (work_ / "prefix").string();
  }
  void TearDown() override {
    if (!work_.empty()) fs::remove_all(work_);
  }

  xenon::testing::ProcessResult install() {
    return run_command("tools/install_tree.sh install " + prefix_ + " " + list_);
  }
  xenon::testing::ProcessResult uninstall() {
    return run_command("tools/install_tree.sh uninstall " + prefix_);
  }
  std::string pkg_config(const std::string& arguments) const {
    return run_command("PKG_CONFIG_PATH=" + prefix_ + "/lib/pkgconfig pkg-config " + arguments)
        .output;
  }
  bool installed(const std::string& path) const { return fs::exists(prefix_ + "/" + path); }

  std::string list_;
  fs::path work_;
  std::string prefix_;
};

TEST_F(Installed, HeadersAreThePublicOnesAndFindEachOtherUnderXenon) {
  ASSERT_EQ(install().exit_code, 0);
  EXPECT_TRUE(installed("include/xenon/xenon.hpp"));
  EXPECT_TRUE(installed("include/xenon/engine/actor.hpp"));
  EXPECT_TRUE(installed("include/xenon/core/command_line.hpp"));
  // Internals that xenon.hpp does not reach stay in the tree.
  EXPECT_FALSE(installed("include/xenon/engine/worker.hpp"));
  EXPECT_FALSE(installed("include/xenon/engine/communicator.hpp"));
  EXPECT_FALSE(installed("include/xenon/engine/xenon.hpp"));
  EXPECT_FALSE(installed("include/xenon/transport"));
  // Every quoted include names xenon/...: -I PREFIX/include is all a user needs.
  const auto stray = run_command("grep -rnE '#[[:space:]]*include[[:space:]]*\"(core|engine)/' " +
                                 prefix_ + "/include");
  EXPECT_EQ(stray.exit_code, 1) << stray.output;
}

TEST_F(Installed, LibrariesProgramsAndDocsLandWhereTheReadmeSays) {
  ASSERT_EQ(install().exit_code, 0);
  for (const char* path :
       {"lib/libxenon.a", "lib/libxenon.so.0", "lib/pkgconfig/xenon.pc",
        "lib/pkgconfig/xenon-static.pc", "bin/latency_probe", "bin/ring_probe", "bin/savina",
        "libexec/xenon/hello", "libexec/xenon/ring", "libexec/xenon/two_nodes",
        "share/doc/xenon/README.md", "share/doc/xenon/engine/README.md",
        "share/doc/xenon/core/spsc_ring.md", "share/doc/xenon/examples/hello.cpp"}) {
    EXPECT_TRUE(installed(path)) << path;
  }
  EXPECT_TRUE(fs::is_symlink(prefix_ + "/lib/libxenon.so"));
  EXPECT_EQ(fs::read_symlink(prefix_ + "/lib/libxenon.so"), "libxenon.so.0");
  EXPECT_EQ(fs::status(prefix_ + "/bin/latency_probe").permissions() & fs::perms::owner_exec,
            fs::perms::owner_exec);
}

TEST_F(Installed, PkgConfigCarriesWhatLibxenonNeedsAndMpiOnlyWhenBuiltWithIt) {
  ASSERT_EQ(install().exit_code, 0);
  const std::string flags = pkg_config("--cflags --libs xenon");
  EXPECT_NE(flags.find("-I" + prefix_ + "/include"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-L" + prefix_ + "/lib"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-lxenon"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-lhwloc"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-pthread"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("-lmpi") != std::string::npos, xenon::testing::built_with_mpi()) << flags;
  const std::string static_flags = pkg_config("--libs xenon-static");
  EXPECT_NE(static_flags.find(prefix_ + "/lib/libxenon.a"), std::string::npos) << static_flags;
  EXPECT_EQ(static_flags.find("-lxenon"), std::string::npos) << static_flags;
  EXPECT_EQ(pkg_config("--modversion xenon"), "0.1.0\n");
}

// The installed copy of examples/hello.cpp, compiled in a folder of its own with nothing
// but the pkg-config flags, against the shared and then the static library.
TEST_F(Installed, HelloBuildsOutsideTheTreeAgainstSharedAndStaticLibxenonAndRuns) {
  ASSERT_EQ(install().exit_code, 0);
  const fs::path app = work_ / "app";
  fs::create_directories(app);
  fs::copy_file(prefix_ + "/share/doc/xenon/examples/hello.cpp", app / "hello.cpp");
  const std::string in_app = "cd " + app.string() + " && export PKG_CONFIG_PATH=" + prefix_ +
                             "/lib/pkgconfig && ";
  for (const std::string package : {"xenon", "xenon-static"}) {
    SCOPED_TRACE(package);
    const std::string program = "hello_" + package;
    const auto build = run_command(in_app + "g++ -std=c++20 hello.cpp -o " + program +
                                   " $(pkg-config --cflags --libs " + package + ")");
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const bool shared = package == "xenon";
    const auto needed = run_command("readelf -d " + (app / program).string());
    EXPECT_EQ(needed.output.find("[libxenon.so.0]") != std::string::npos, shared)
        << needed.output;
    const auto run = run_command(
        (shared ? "LD_LIBRARY_PATH=" + prefix_ + "/lib " : std::string()) +
        (app / program).string() + " --name=installed");
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output, "hello, installed, from actor 0 on worker 0 of node 0\n");
  }
}

TEST_F(Installed, UninstallRemovesExactlyWhatInstallWroteAndTheFoldersItMade) {
  // A prefix that already holds a folder and a file of someone else's.
  fs::create_directories(prefix_ + "/lib");
  fs::create_directories(prefix_ + "/bin");
  std::ofstream(prefix_ + "/lib/theirs.txt") << "not ours\n";
  ASSERT_EQ(install().exit_code, 0);
  ASSERT_EQ(install().exit_code, 0);  // again: replaces the first, leaves nothing twice
  const auto removed = uninstall();
  ASSERT_EQ(removed.exit_code, 0) << removed.output;
  EXPECT_TRUE(installed("lib/theirs.txt"));
  EXPECT_TRUE(fs::is_directory(prefix_ + "/bin"));  // was there before, stays though empty
  EXPECT_TRUE(fs::is_empty(prefix_ + "/bin"));
  for (const char* gone : {"include", "libexec", "share", "lib/pkgconfig", "lib/libxenon.so"}) {
    EXPECT_FALSE(installed(gone)) << gone;
  }
  std::size_t left = 0;
  for (const auto& entry : fs::recursive_directory_iterator(prefix_)) {
    (void)entry;
    ++left;
  }
  EXPECT_EQ(left, 3u) << "bin, lib, lib/theirs.txt";
  // Nothing left to uninstall: one line, non-zero.
  const auto again = uninstall();
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.output.find("install_tree.sh: error: nothing installed under"),
            std::string::npos)
      << again.output;
}

TEST_F(Installed, AFreshPrefixIsRemovedWholeByUninstall) {
  ASSERT_EQ(install().exit_code, 0);
  ASSERT_EQ(uninstall().exit_code, 0);
  EXPECT_FALSE(fs::exists(prefix_));
}

}  // namespace
