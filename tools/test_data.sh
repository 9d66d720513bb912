# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Where the genomics test data is, for shell scripts (sourced; tests/support/test_data.hpp is
# the same rule for the C++ tests). The data set is the files listed in tools/test_data.sha256,
# laid out as in ../shared/data:
#   1. XENON_DATA, if set;
#   2. else ../shared/data beside the repository root, where present (a ready copy);
#   3. else build/test-data, which `make test-data` (tools/make_test_data.sh) makes from
#      Debian packages.

XENON_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
XENON_TEST_DATA_SUMS=$XENON_ROOT/tools/test_data.sha256
XENON_TEST_DATA_MADE=$XENON_ROOT/build/test-data
XENON_TEST_DATA_HOWTO="run \`make deps\` (installs bowtie2-examples, gasic-examples, unicycler-data and art-nextgen-simulation-tools) then \`make test-data\`"

# Prints the data folder the tests read.
test_data_directory() {
  if [ -n "${XENON_DATA:-}" ]; then
    echo "$XENON_DATA"
  elif [ -d "$XENON_ROOT/../shared/data" ]; then
    (cd "$XENON_ROOT/../shared/data" && pwd)
  else
    echo "$XENON_TEST_DATA_MADE"
  fi
}

# test_data_file RELATIVE: prints the path of one file of the data set, or says what is
# missing and what to do on stderr and returns 1.
test_data_file() {
  local directory
  directory=$(test_data_directory)
  if [ -f "$directory/$1" ]; then
    echo "$directory/$1"
    return 0
  fi
  if [ -n "${XENON_DATA:-}" ]; then
    echo "test data missing: XENON_DATA=$XENON_DATA has no $1: unset XENON_DATA to use the made data, or $XENON_TEST_DATA_HOWTO" >&2
  else
    echo "test data missing: $directory/$1: $XENON_TEST_DATA_HOWTO" >&2
  fi
  return 1
}

# test_data_verify DIRECTORY: checks every file of tools/test_data.sha256 in DIRECTORY (the
# checksums are of the decompressed contents: gzip headers differ between copies); says what
# is wrong on stderr and returns 1 at the first difference.
test_data_verify() {
  local directory=$1 sum path actual
  while read -r sum path; do
    case $sum in '' | '#'*) continue ;; esac
    if [ ! -f "$directory/$path" ]; then
      echo "$directory/$path: missing" >&2
      return 1
    fi
    if ! actual=$(set -o pipefail; gzip -dc "$directory/$path" | sha256sum); then
      echo "$directory/$path: not a readable gzip file" >&2
      return 1
    fi
    if [ "${actual%% *}" != "$sum" ]; then
      echo "$directory/$path: contents differ from tools/test_data.sha256" >&2
      return 1
    fi
  done < "$XENON_TEST_DATA_SUMS"
}
