// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Xenon's version: the one place it is written. mk/install.mk reads the three numbers below
// for the shared library's soname, xenon.pc and the CMake package; every program prints them
// for --version (core/command_line). It lives in core/ because core/ is what every layer may
// include; installed users reach it through <xenon/xenon.hpp>.
// Keep each number on its own "#define XENON_VERSION_X N" line: the build reads them so.
#define XENON_VERSION_MAJOR 0
#define XENON_VERSION_MINOR 1
#define XENON_VERSION_PATCH 0

// MAJOR * 10000 + MINOR * 100 + PATCH, for `#if XENON_VERSION >= 100` (0.1.0 and later).
#define XENON_VERSION \
  (XENON_VERSION_MAJOR * 10000 + XENON_VERSION_MINOR * 100 + XENON_VERSION_PATCH)

// "MAJOR.MINOR.PATCH", spelled from the numbers above so the two cannot disagree.
#define XENON_VERSION_STRING                                     \
  XENON_VERSION_TEXT_(XENON_VERSION_MAJOR) "."                   \
  XENON_VERSION_TEXT_(XENON_VERSION_MINOR) "."                   \
  XENON_VERSION_TEXT_(XENON_VERSION_PATCH)
#define XENON_VERSION_TEXT_(number) XENON_VERSION_QUOTE_(number)
#define XENON_VERSION_QUOTE_(number) #number
