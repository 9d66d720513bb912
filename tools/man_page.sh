#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# man_page.sh PROGRAM PAGE: writes PROGRAM's man page, section 1, to PAGE (make man,
# mk/man.mk). help2man builds it from PROGRAM --help (usage, summary, options) and
# PROGRAM --version ("NAME (Xenon) VERSION"); the NAME line's description is the summary's
# first sentence, the line under "Usage:" up to its first '.', ';' or ':'.
set -euo pipefail

program=man_page.sh

fail() {  # fail MESSAGE [STATUS]: one-line error
  echo "$program: error: $1" >&2
  exit "${2:-1}"
}

[ $# -eq 2 ] || fail "usage: $program PROGRAM PAGE" 2
binary=$1
page=$2
command -v help2man > /dev/null || fail "help2man not found: run make deps"
[ -x "$binary" ] || fail "$binary is not an executable program"
help=$("$binary" --help) || fail "$binary --help failed"
# The summary runs from the second line to the first empty one.
summary=$(printf '%s\n' "$help" | sed -n '2,/^$/p' | tr '\n' ' ')
description=$(printf '%s' "$summary" | sed -E 's/[.;:]([[:space:]].*)?$//; s/[[:space:]]+$//')
[ -n "$description" ] || fail "$binary --help has no summary under its Usage line"
help2man --no-info --section=1 --name="$description" --output="$page.tmp" "$binary"
mv "$page.tmp" "$page"
