# SPDX-License-Identifier: BSD-3-Clause
# API reference: `make docs` runs Doxygen (docs/Doxyfile, opening on docs/mainpage.md) over
# exactly the public headers, those `make install` installs (include/xenon/xenon.hpp and
# what it includes, g++ -MM), into build/docs/html. An undocumented public type or function, or a
# malformed doc comment, is a warning, and any warning fails the target; the pages are only
# put in place when there was none. `make install` then installs them under
# share/doc/xenon/html (mk/install.mk).

DOCS_DIR := build/docs
DOCS_HTML := $(DOCS_DIR)/html
# The public headers, as mk/install.mk lists them; expanded only when docs runs.
DOCS_HEADERS = $(filter-out headers: \,$(shell $(CXX) $(CXXFLAGS) -MM -MT headers include/xenon/xenon.hpp))

.PHONY: docs
docs:
	@command -v doxygen >/dev/null || { echo "docs: error: doxygen not found (run make deps-dev)" >&2; exit 1; }
	rm -rf $(DOCS_DIR)/staging
	@mkdir -p $(DOCS_DIR)/staging
	XENON_VERSION=$(XENON_VERSION) XENON_DOCS_OUTPUT=$(DOCS_DIR)/staging \
	  XENON_DOCS_INPUT="$(DOCS_HEADERS)" doxygen docs/Doxyfile
	rm -rf $(DOCS_HTML)
	mv $(DOCS_DIR)/staging/html $(DOCS_HTML)
	rmdir $(DOCS_DIR)/staging
	@echo "docs: $(DOCS_HTML)/index.html"
