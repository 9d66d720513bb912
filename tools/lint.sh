#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Static analysis of the given folders: clang-tidy with the bugprone-, concurrency- and
# clang-analyzer- groups (listed here, so the whole lint is this one file), then cppcheck.
# Ends with "N passed, N failed": one per tool, failed when it reported anything.
# A finding that is not a bug is suppressed at its line with NOLINT(check) or
# cppcheck-suppress, and a comment saying why.
set -uo pipefail
cd "$(dirname "$0")/.."
dirs=("$@")
mapfile -t sources < <(find "${dirs[@]}" -name '*.cpp' | sort)
# bugprone-easily-swappable-parameters flags every function taking two integers; it is a
# style rule here, not a bug finder.
checks='-*,bugprone-*,concurrency-*,clang-analyzer-*,-bugprone-easily-swappable-parameters'
# clang-tidy names headers by absolute path (with "./" from -I.).
header_filter="^$PWD/(\\./)?($(IFS='|'; echo "${dirs[*]}"))/"
# transport/mpi/ is compiled the way the Makefile compiles it when Open MPI is there.
mpi_flags=()
if mpi_compile=$(mpicc --showme:compile 2>/dev/null); then
  read -r -a mpi_flags <<<"$mpi_compile -DXENON_WITH_MPI=1 -DOMPI_SKIP_MPICXX=1"
fi
passed=0
failed=0

echo "--- clang-tidy over ${#sources[@]} files"
tidy_log=$(mktemp)
# The compiler flags go in as --extra-arg (no compilation database), so that xargs can
# append the file names at the end of the command.
extra_args=()
for flag in -std=c++20 -I. -Iinclude -pthread "${mpi_flags[@]}"; do extra_args+=("--extra-arg=$flag"); done
printf '%s\n' "${sources[@]}" | xargs -P 2 -n 4 clang-tidy-14 --quiet --checks="$checks" \
  --header-filter="$header_filter" "${extra_args[@]}" >"$tidy_log" 2>/dev/null
grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error):' "$tidy_log" | sed "s|^$PWD/\(\./\)\?||" |
  sort -u | tee "$tidy_log.findings"
tidy_findings=$(wc -l <"$tidy_log.findings")
rm -f "$tidy_log" "$tidy_log.findings"
if [ "$tidy_findings" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "clang-tidy: $tidy_findings finding(s)"

# xenon::Action (include/xenon/engine/action.hpp) is a 24-byte trivially copyable value (a string_view and
# its 32-bit code) passed by value on purpose, like std::string_view itself; cppcheck asks
# for a const reference at every such parameter.
# SpscRing::padding_ only keeps the next object off the consumer's line and is never read;
# zeroing it would add stores to the ring's constructor for nothing.
cppcheck_suppressions=(--suppress='passedByValue:engine/*' --suppress='passedByValue:include/xenon/engine/*' --suppress='uninitMemberVar:core/spsc_ring.hpp')
echo "--- cppcheck"
cppcheck_log=$(mktemp)
cppcheck --quiet --std=c++20 --language=c++ --enable=warning,performance,portability \
  --inline-suppr -I. -Iinclude --suppress=missingIncludeSystem "${cppcheck_suppressions[@]}" \
  --template='{file}:{line}: {severity}: {message} [{id}]' "${dirs[@]}" 2>"$cppcheck_log"
sort -u "$cppcheck_log"
cppcheck_findings=$(grep -c . "$cppcheck_log")
rm -f "$cppcheck_log"
if [ "$cppcheck_findings" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "cppcheck: $cppcheck_findings finding(s)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
