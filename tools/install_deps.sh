#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages Xenon needs, if any is missing.
#   tools/install_deps.sh         (make deps)      build, run, and pass `make test`
#   tools/install_deps.sh --dev   (make deps-dev)  also the correctness checks (make test-cross,
#                                                  fuzz, lint), the API docs and the peer benchmarks
#   tools/install_deps.sh --peers (make deps-peers) also the assemblers that only the by-hand
#                                                  run of the assembly benchmark compares with
set -euo pipefail

# ---- make deps: what building, running and `make test` need ----
# The library, its probes and tests: hwloc (pinning), Open MPI (the transport), GoogleTest,
# zlib (compressed reads), Boost.Lockfree (ring_probe's baseline), Relacy (the model checks
# make test runs), gnuplot (the probes' plots, checked by make test).
packages=(g++ make pkg-config libhwloc-dev hwloc libboost-dev libgtest-dev zlib1g-dev openmpi-bin
  libopenmpi-dev relacy-dev gnuplot-nox)
# Simulated hosts for the MPI tests (tests/netns/netns_mpi_test.sh): ip netns, veth, bridge.
packages+=(iproute2)
# Genomics checks in make test: Jellyfish is the k-mer counter's reference; minimap2 and
# MUMmer's dnadiff judge assemblies (genomics/evaluate_assembly.sh).
packages+=(jellyfish minimap2 mummer python3)
# The assembler draws graph.png from its graph.gfa with Bandage (run headless), and make test
# checks the picture (tests/genomics/assembler_graph_test.cpp).
packages+=(bandage)
# Genomics input: isa-l inflates gzip and BGZF (2.5-3x zlib's speed, measured by `make
# decompression-bench`); tabix brings bgzip, which makes the BGZF files the tests split.
packages+=(libisal-dev tabix)
# Genomics test data: `make test-data` (tools/make_test_data.sh) builds build/test-data from
# these packages' genomes and reads, and ART simulates the lambda reads with a fixed seed.
packages+=(bowtie2-examples gasic-examples unicycler-data art-nextgen-simulation-tools)
# Packaging (mk/install.mk, mk/man.mk): the install test builds against the installed tree
# with pkg-config and with CMake; pkg-config --static follows hwloc.pc to -ludev (libudev-dev);
# help2man writes the man pages, which man (man-db) checks.
packages+=(cmake libudev-dev help2man man-db)
# The run report (--report) is checked in a real browser by make test: headless Chromium
# renders it, and the test reads the page's DOM and a screenshot (tests/engine/
# trace_and_report_test.cpp); python3 (above) checks the trace and the screenshot.
packages+=(chromium)

# ---- make deps-dev: the checks and benchmarks beyond make test ----
dev_packages=()
# Correctness checks (mk/correctness.mk): clang-tidy and cppcheck, libFuzzer, and the cross
# compilers, GoogleTest sources and qemu-user of make test-cross.
dev_packages+=(cppcheck clang-tidy-14 clang-14 libclang-rt-14-dev googletest
  g++-powerpc64-linux-gnu g++-powerpc64le-linux-gnu g++-aarch64-linux-gnu qemu-user)
# Peer benchmarks: KMC and the E. coli genome of ragout-examples
# (performance/kmer_bench/kmer_bench.sh); Minia, Velvet and Ray, and the genomes of the mock
# community (ragout-examples: H. pylori, S. aureus, V. cholerae, E. coli;
# performance/assembly_bench/assembly_bench.sh).
dev_packages+=(kmc ragout-examples time minia velvet ray)
# The API reference (make docs, mk/docs.mk): Doxygen over the public headers.
dev_packages+=(doxygen)
# libdeflate: measured against zlib and isa-l by `make decompression-bench`, not linked.
dev_packages+=(libdeflate-dev)
# The actor runtimes Xenon is compared with: CAF and Erlang (performance/peers, make peers).
dev_packages+=(libcaf-dev erlang-base)

# ---- make deps-peers: beyond deps-dev, not in CI ----
# SPAdes and MEGAHIT, the assemblers users compare with (performance/assembly_bench/
# assembly_bench.sh, by hand: minutes to hours each on E. coli; CI runs the bench's Xenon part).
peer_packages=(spades megahit)

case "${1:-}" in
  "") ;;
  --dev) packages+=("${dev_packages[@]}") ;;
  --peers) packages+=("${dev_packages[@]}" "${peer_packages[@]}") ;;
  *) echo "install_deps.sh: error: unknown option '$1' (use --dev, --peers or nothing)" >&2; exit 2 ;;
esac

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all present (${packages[*]})"
  exit 0
fi
echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
