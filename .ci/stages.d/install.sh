# SPDX-License-Identifier: BSD-3-Clause
# Install round trip (mk/install.mk): `make install` into a fresh prefix, out-of-tree builds of
# the installed hello example with pkg-config and with CMake (find_package(Xenon)), a look at a
# man page, then `make uninstall`, which must leave nothing.
# (make test checks the same through tools/install_tree.sh; this runs the make targets.)
# shellcheck disable=SC2046  # pkg-config's flags are meant to split into words
install_round_trip() {
  local work prefix status
  work=$(mktemp -d)
  prefix=$work/prefix
  make -j2 install PREFIX="$prefix" &&
    cp "$prefix/share/doc/xenon/examples/hello.cpp" "$work/" &&
    (cd "$work" && export PKG_CONFIG_PATH=$prefix/lib/pkgconfig &&
      g++ -std=c++20 hello.cpp -o hello $(pkg-config --cflags --libs xenon)) &&
    LD_LIBRARY_PATH=$prefix/lib "$work/hello" | grep -qx 'hello, world, from actor 0 on worker 0 of node 0' &&
    mkdir "$work/cmake_app" && cp "$work/hello.cpp" "$work/cmake_app/" &&
    printf '%s\n' 'cmake_minimum_required(VERSION 3.13)' 'project(uses_xenon LANGUAGES CXX)' \
      'find_package(Xenon CONFIG REQUIRED)' 'add_executable(hello hello.cpp)' \
      'target_link_libraries(hello PRIVATE Xenon::xenon)' > "$work/cmake_app/CMakeLists.txt" &&
    cmake -S "$work/cmake_app" -B "$work/cmake_app/build" -DCMAKE_PREFIX_PATH="$prefix" &&
    cmake --build "$work/cmake_app/build" &&
    "$work/cmake_app/build/hello" | grep -qx 'hello, world, from actor 0 on worker 0 of node 0' &&
    MANPATH=$prefix/share/man man -w latency_probe | grep -qx "$prefix/share/man/man1/latency_probe.1" &&
    make uninstall PREFIX="$prefix" &&
    [ ! -e "$prefix" ]
  status=$?
  rm -rf "$work"
  if [ $status -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
  return $status
}
run_stage install-uninstall install_round_trip
