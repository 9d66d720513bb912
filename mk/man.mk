# SPDX-License-Identifier: BSD-3-Clause
# Man pages of the commands installed in bin/ (COMMANDS in the Makefile):
#   make man     build/<config>/man/man1/NAME.1 for each, written by help2man from the
#                program's --help and --version (tools/man_page.sh)
# make install puts them in PREFIX/share/man/man1/. The examples in libexec/xenon/ get none:
# they are not commands on the PATH, and pages named hello.1 or ring.1 would shadow others'.
MAN_PAGES = $(COMMANDS:%=$(BUILD)/man/man1/%.1)

.PHONY: man
man: $(MAN_PAGES)

$(BUILD)/man/man1/%.1: $(BUILD)/bin/% tools/man_page.sh
	@mkdir -p $(dir $@)
	tools/man_page.sh $< $@

# The install list names the pages (mk/install.mk).
$(INSTALL_LIST): $(MAN_PAGES)
