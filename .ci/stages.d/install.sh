# Install round trip (mk/install.mk): `make install` into a fresh prefix, an out-of-tree build of the
# installed hello example with pkg-config, then `make uninstall`, which must leave nothing.
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
    make uninstall PREFIX="$prefix" &&
    [ ! -e "$prefix" ]
  status=$?
  rm -rf "$work"
  if [ $status -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
  return $status
}
run_stage install-uninstall install_round_trip
