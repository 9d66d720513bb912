# SPDX-License-Identifier: BSD-3-Clause
# The genomics test data, made from Debian packages (tools/make_test_data.sh) into build/test-data
# and checked against tools/test_data.sha256; a no-op once made. The tests read it unless
# XENON_DATA or ../shared/data says otherwise (tools/test_data.sh, tests/support/test_data.hpp).
#   make test-data
.PHONY: test-data
test-data:
	tools/make_test_data.sh

ifeq ($(CONFIG_GENOMICS),y)
test: test-data
endif
