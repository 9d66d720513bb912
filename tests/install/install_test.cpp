// SPDX-License-Identifier: BSD-3-Clause
// make install, seen from a user: the list `make test` prepares (build/.../install/
// files.list) is installed into a temporary prefix with the same script `make install`
// runs; an example is built outside the tree with pkg-config and with CMake, and run; each
// command has a man page; uninstall is checked to remove exactly what install wrote. Plain
// builds only (see mk/install.mk).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "xenon/core/version.hpp"

namespace {

namespace fs = std::filesystem;
using xenon::testing::run_command;

const std::string kSoname = "libxenon.so." + std::to_string(XENON_VERSION_MAJOR);

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
  // A folder of its own under the work folder, holding the installed copy of hello.cpp.
  fs::path app_with_hello(const std::string& name) const {
    const fs::path app = work_ / name;
    fs::create_directories(app);
    fs::copy_file(prefix_ + "/share/doc/xenon/examples/hello.cpp", app / "hello.cpp");
    return app;
  }

  std::string list_;
  fs::path work_;
  std::string prefix_;
};

TEST_F(Installed, HeadersAreThePublicOnesAndFindEachOtherUnderXenon) {
  ASSERT_EQ(install().exit_code, 0);
  EXPECT_TRUE(installed("include/xenon/xenon.hpp"));
  EXPECT_TRUE(installed("include/xenon/engine/actor.hpp"));
  EXPECT_TRUE(installed("include/xenon/core/command_line.hpp"));
  EXPECT_TRUE(installed("include/xenon/core/byte_order.hpp"));  // the programs' helpers too
  EXPECT_TRUE(installed("include/xenon/engine/mailbox.hpp"));   // Actor holds one
  // Internals that xenon.hpp does not reach stay in the tree.
  EXPECT_FALSE(installed("include/xenon/engine/worker.hpp"));
  EXPECT_FALSE(installed("include/xenon/engine/communicator.hpp"));
  EXPECT_FALSE(installed("include/xenon/engine/node_context.hpp"));
  EXPECT_FALSE(installed("include/xenon/engine/outbound_set.hpp"));
  EXPECT_FALSE(installed("include/xenon/core/spsc_ring.hpp"));  // Engine holds rings opaquely
  EXPECT_FALSE(installed("include/xenon/engine/xenon.hpp"));
  EXPECT_FALSE(installed("include/xenon/transport"));
  // Every quoted include names xenon/...: -I PREFIX/include is all a user needs.
  const auto stray = run_command("grep -rnE '#[[:space:]]*include[[:space:]]*\"(core|engine)/' " +
                                 prefix_ + "/include");
  EXPECT_EQ(stray.exit_code, 1) << stray.output;
}

TEST_F(Installed, LibrariesProgramsAndDocsLandWhereTheReadmeSays) {
  ASSERT_EQ(install().exit_code, 0);
  for (const std::string& path : std::vector<std::string>{
           "lib/libxenon.a", "lib/" + kSoname, "lib/pkgconfig/xenon.pc",
        "lib/pkgconfig/xenon-static.pc", "lib/cmake/Xenon/XenonConfig.cmake",
        "lib/cmake/Xenon/XenonConfigVersion.cmake", "lib/cmake/Xenon/XenonTargets.cmake",
        "bin/latency_probe", "bin/ring_probe", "bin/savina", "share/man/man1/latency_probe.1",
        "libexec/xenon/hello", "libexec/xenon/ring", "libexec/xenon/two_nodes",
        "share/doc/xenon/README.md", "share/doc/xenon/engine/README.md",
        "share/doc/xenon/core/spsc_ring.md", "share/doc/xenon/examples/hello.cpp"}) {
    EXPECT_TRUE(installed(path)) << path;
  }
  EXPECT_TRUE(fs::is_symlink(prefix_ + "/lib/libxenon.so"));
  EXPECT_EQ(fs::read_symlink(prefix_ + "/lib/libxenon.so"), kSoname);
  EXPECT_EQ(fs::status(prefix_ + "/bin/latency_probe").permissions() & fs::perms::owner_exec,
            fs::perms::owner_exec);
}

// libxenon.so names hwloc and Open MPI itself: xenon.pc lists them as private requirements,
// which only a static link (--static) adds. xenon-static.pc requires them outright.
TEST_F(Installed, PkgConfigCarriesWhatLibxenonNeedsAndMpiOnlyWhenBuiltWithIt) {
  ASSERT_EQ(install().exit_code, 0);
  const bool mpi = xenon::testing::built_with_mpi();
  const std::string flags = pkg_config("--cflags --libs xenon");
  EXPECT_NE(flags.find("-I" + prefix_ + "/include"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-L" + prefix_ + "/lib"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-lxenon"), std::string::npos) << flags;
  EXPECT_NE(flags.find("-pthread"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("-lhwloc"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("-lmpi"), std::string::npos) << flags;
  const std::string private_requires = pkg_config("--print-requires-private xenon");
  EXPECT_NE(private_requires.find("hwloc"), std::string::npos) << private_requires;
  EXPECT_EQ(private_requires.find("ompi-c") != std::string::npos, mpi) << private_requires;
  const std::string static_link = pkg_config("--static --libs xenon");
  EXPECT_NE(static_link.find("-lhwloc"), std::string::npos) << static_link;
  EXPECT_EQ(static_link.find("-lmpi") != std::string::npos, mpi) << static_link;

  for (const char* options : {"--libs xenon-static", "--static --libs xenon-static"}) {
    const std::string archive = pkg_config(options);
    EXPECT_NE(archive.find(prefix_ + "/lib/libxenon.a"), std::string::npos) << archive;
    EXPECT_EQ(archive.find("-lxenon"), std::string::npos) << archive;
    EXPECT_NE(archive.find("-lhwloc"), std::string::npos) << archive;
    EXPECT_EQ(archive.find("-lmpi") != std::string::npos, mpi) << archive;
  }
  EXPECT_EQ(pkg_config("--modversion xenon"), XENON_VERSION_STRING "\n");
  EXPECT_EQ(pkg_config("--modversion xenon-static"), XENON_VERSION_STRING "\n");
}

// The installed copy of examples/hello.cpp, compiled in a folder of its own with nothing
// but the pkg-config flags, against the shared and then the static library (with and
// without --static, which adds the private libraries of hwloc and Open MPI).
TEST_F(Installed, HelloBuildsOutsideTheTreeAgainstSharedAndStaticLibxenonAndRuns) {
  ASSERT_EQ(install().exit_code, 0);
  const fs::path app = app_with_hello("app");
  const std::string in_app = "cd " + app.string() + " && export PKG_CONFIG_PATH=" + prefix_ +
                             "/lib/pkgconfig && ";
  struct Link {
    std::string program, pkg_config;
    bool shared;
  };
  for (const Link& link : {Link{"hello_shared", "--cflags --libs xenon", true},
                           Link{"hello_static", "--cflags --libs xenon-static", false},
                           Link{"hello_all_static", "--static --cflags --libs xenon-static", false}}) {
    SCOPED_TRACE(link.program);
    const auto build = run_command(in_app + "g++ -std=c++20 hello.cpp -o " + link.program +
                                   " $(pkg-config " + link.pkg_config + ")");
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const auto needed = run_command("readelf -d " + (app / link.program).string());
    EXPECT_EQ(needed.output.find("[" + kSoname + "]") != std::string::npos, link.shared)
        << needed.output;
    const auto run = run_command(
        (link.shared ? "LD_LIBRARY_PATH=" + prefix_ + "/lib " : std::string()) +
        (app / link.program).string() + " --name=installed");
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output, "hello, installed, from actor 0 on worker 0 of node 0\n");
  }
}

// find_package(Xenon) from a CMake project outside the tree, against an installed tree that
// was moved after install: the package finds everything from its own place.
TEST_F(Installed, HelloBuildsWithCMakeAgainstAMovedInstallAndRuns) {
  ASSERT_EQ(install().exit_code, 0);
  const std::string moved = (work_ / "moved").string();
  fs::rename(prefix_, moved);
  prefix_ = moved;
  const fs::path app = app_with_hello("cmake_app");
  std::ofstream(app / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.13)\n"
         "project(uses_xenon LANGUAGES CXX)\n"
         "find_package(Xenon " << XENON_VERSION_MAJOR << "." << XENON_VERSION_MINOR
      << " CONFIG REQUIRED)\n"
         "find_package(Xenon CONFIG REQUIRED)  # a second time is harmless\n"
         "message(STATUS \"Xenon ${Xenon_VERSION} from ${Xenon_DIR}\")\n"
         "add_executable(hello_shared hello.cpp)\n"
         "target_link_libraries(hello_shared PRIVATE Xenon::xenon)\n"
         "add_executable(hello_static hello.cpp)\n"
         "target_link_libraries(hello_static PRIVATE Xenon::xenon_static)\n";
  const fs::path build = app / "build";
  const auto configure = run_command("cmake -S " + app.string() + " -B " + build.string() +
                                     " -DCMAKE_PREFIX_PATH=" + prefix_);
  ASSERT_EQ(configure.exit_code, 0) << configure.output;
  EXPECT_NE(configure.output.find("Xenon " XENON_VERSION_STRING " from " + prefix_ +
                                  "/lib/cmake/Xenon"),
            std::string::npos)
      << configure.output;
  const auto made = run_command("cmake --build " + build.string() + " -j 2 --verbose");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  EXPECT_NE(made.output.find("-std=gnu++20"), std::string::npos) << "cxx_std_20 not carried";
  for (const std::string program : {"hello_shared", "hello_static"}) {
    SCOPED_TRACE(program);
    const bool shared = program == "hello_shared";
    const auto needed = run_command("readelf -d " + (build / program).string());
    EXPECT_EQ(needed.output.find("[" + kSoname + "]") != std::string::npos, shared)
        << needed.output;
    // No LD_LIBRARY_PATH: CMake gives a program in its build tree the imported library's
    // folder as its run path.
    const auto run = run_command((build / program).string() + " --name=cmake");
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output, "hello, cmake, from actor 0 on worker 0 of node 0\n");
  }
}

// XenonConfigVersion.cmake: another major version is refused, an older minor one accepted.
TEST_F(Installed, CMakePackageAnswersTheVersionsOfItsMajorVersionOnly) {
  ASSERT_EQ(install().exit_code, 0);
  const fs::path app = work_ / "versions";
  fs::create_directories(app);
  std::ofstream(app / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.19)\n"
         "project(versions LANGUAGES CXX)\n"
         "foreach(wanted " << XENON_VERSION_MAJOR + 1 << " " << XENON_VERSION_MAJOR << ".0 "
      << XENON_VERSION_STRING << " " << XENON_VERSION_MAJOR << ".0..." << XENON_VERSION_STRING
      << " " << XENON_VERSION_MAJOR << ".0...<" << XENON_VERSION_STRING << ")\n"
         "  find_package(Xenon ${wanted} CONFIG QUIET)\n"
         "  message(STATUS \"wanted ${wanted}: found ${Xenon_FOUND}\")\n"
         "  unset(Xenon_DIR CACHE)\n"
         "endforeach()\n";
  const auto configure = run_command("cmake -S " + app.string() + " -B " +
                                     (app / "build").string() + " -DCMAKE_PREFIX_PATH=" + prefix_);
  ASSERT_EQ(configure.exit_code, 0) << configure.output;
  const std::string major = std::to_string(XENON_VERSION_MAJOR);
  for (const std::string& expected : std::vector<std::string>{
           "wanted " + std::to_string(XENON_VERSION_MAJOR + 1) + ": found 0",
        "wanted " + major + ".0: found 1", "wanted " XENON_VERSION_STRING ": found 1",
        "wanted " + major + ".0..." XENON_VERSION_STRING ": found 1",
        "wanted " + major + ".0...<" XENON_VERSION_STRING ": found 0"}) {
    EXPECT_NE(configure.output.find(expected), std::string::npos) << expected << "\n"
                                                                  << configure.output;
  }
}

// Each command in bin/ has its man page, which man renders without a warning.
TEST_F(Installed, EveryCommandHasAManPageThatRendersCleanly) {
  ASSERT_EQ(install().exit_code, 0);
  int commands = 0;
  for (const auto& entry : fs::directory_iterator(prefix_ + "/bin")) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    ++commands;
    const std::string page = prefix_ + "/share/man/man1/" + name + ".1";
    ASSERT_TRUE(fs::exists(page));
    // Only the warnings (stderr) are kept: the braces take the 2>&1 run_command appends.
    const auto warnings = run_command("{ man --warnings -l " + page + " 2>&1 >/dev/null; }");
    EXPECT_EQ(warnings.exit_code, 0) << warnings.output;
    EXPECT_EQ(warnings.output, "") << warnings.output;
    const auto rendered = run_command("MANWIDTH=100 man --no-justification -l " + page);
    EXPECT_NE(rendered.output.find("NAME\n       " + name + " - "), std::string::npos)
        << rendered.output;
    EXPECT_NE(rendered.output.find("--version"), std::string::npos) << rendered.output;
    EXPECT_NE(rendered.output.find("Xenon " XENON_VERSION_STRING), std::string::npos)
        << rendered.output;
    // whatis and apropos read the NAME line through lexgrog.
    const auto whatis = run_command("lexgrog " + page);
    EXPECT_EQ(whatis.exit_code, 0) << whatis.output;
    EXPECT_NE(whatis.output.find(": \"" + name + " - "), std::string::npos) << whatis.output;
  }
  EXPECT_GE(commands, 1);
  // The examples in libexec/xenon/ are not commands: they get none.
  EXPECT_FALSE(installed("share/man/man1/hello.1"));
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
  for (const char* gone :
       {"include", "libexec", "share", "lib/pkgconfig", "lib/cmake", "lib/libxenon.so"}) {
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
