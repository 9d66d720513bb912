#!/usr/bin/env bash
# Installs the Debian packages Xenon builds and tests with, if any is missing.
set -euo pipefail
packages=(g++ make libhwloc-dev hwloc libboost-dev libgtest-dev zlib1g-dev openmpi-bin libopenmpi-dev gnuplot-nox)
# Correctness checks (mk/correctness.mk): Relacy, clang-tidy and cppcheck, libFuzzer, and the
# cross compilers, GoogleTest sources and qemu-user of make test-cross.
packages+=(relacy-dev cppcheck clang-tidy-14 clang-14 libclang-rt-14-dev googletest
  g++-powerpc64-linux-gnu g++-powerpc64le-linux-gnu g++-aarch64-linux-gnu qemu-user)
# Simulated hosts for the MPI tests (tests/netns/netns_mpi_test.sh): ip netns, veth, bridge.
packages+=(iproute2)
# Genomics: Jellyfish is the k-mer counter's reference in make test; KMC, ART (read simulator)
# and the E. coli genome of ragout-examples serve performance/kmer_bench/kmer_bench.sh.
packages+=(jellyfish kmc art-nextgen-simulation-tools ragout-examples time)
# Assembly quality (genomics/evaluate_assembly.sh): minimap2 aligns contigs to the reference,
# MUMmer's dnadiff cross-checks.
packages+=(minimap2 mummer python3)
# The assembler's peers in performance/assembly_bench/assembly_bench.sh.
packages+=(minia velvet ray)
# The API reference (make docs, mk/docs.mk): Doxygen over the public headers.
packages+=(doxygen)
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
