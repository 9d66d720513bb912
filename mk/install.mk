# Xenon as a library others embed: make install / make uninstall.
#   make install PREFIX=DIR      (default /usr/local; DESTDIR=... stages it for packaging)
#       DIR/include/xenon/xenon.hpp and the headers it reaches, nothing internal
#       DIR/lib/libxenon.a, libxenon.so.0 (+ libxenon.so), pkgconfig/xenon.pc, xenon-static.pc
#       DIR/bin/: the probes and genomics tools; DIR/libexec/xenon/: the example programs
#       DIR/share/doc/xenon/: README.md, the design notes beside the code, example sources
#   make uninstall PREFIX=DIR    removes exactly what install wrote (its manifest, in
#                                DIR/share/xenon/) and the directories it created
# Use: g++ -std=c++20 app.cpp $(pkg-config --cflags --libs xenon) (or xenon-static).

PREFIX ?= /usr/local
XENON_VERSION := 0.1.0
XENON_SOVERSION := 0

# What libxenon itself links with: the build's libraries but zlib and isa-l, which genomics/
# alone uses.
LIBXENON_LDLIBS = $(filter-out -lz -lisal,$(LDLIBS))

# ---- The shared library: the same sources as $(LIBRARY), compiled position-independent
# into a tree of their own (the objects of libxenon.a are not). ----
SHARED_LIBRARY := $(BUILD)/libxenon.so.$(XENON_SOVERSION)
PIC_OBJECTS := $(patsubst %.cpp,$(BUILD)/pic/%.o,$(LIB_SOURCES))

$(BUILD)/pic/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -fPIC -c $< -o $@
ifeq ($(CONFIG_MPI),y)
$(BUILD)/pic/transport/%.o: override CXXFLAGS += $(MPI_CXXFLAGS)
endif

# -z defs: a dependency missing from LDLIBS fails here, not in the user's link. Sanitizer
# builds leave their runtime's symbols to the program, so they go without.
$(SHARED_LIBRARY): $(PIC_OBJECTS)
	@mkdir -p $(dir $@)
	$(CXX) -shared $(LDFLAGS) $(if $(SANITIZE),,-Wl,-z,defs) \
	  -Wl,-soname,libxenon.so.$(XENON_SOVERSION) $^ $(LIBXENON_LDLIBS) -o $@

# ---- pkg-config: xenon links the shared library, xenon-static the archive. Both carry
# what libxenon needs (hwloc, Open MPI unless CONFIG_MPI=n, -pthread), and a sanitizer
# build's -fsanitize flags. @prefix@ becomes PREFIX when installed. ----
INSTALL_DIR := $(BUILD)/install
PC_SANITIZE = $(filter -fsanitize=%,$(LDFLAGS))
define pkgconfig_text
prefix=@prefix@
exec_prefix=$${prefix}
libdir=$${exec_prefix}/lib
includedir=$${prefix}/include

Name: $(1)
Description: Xenon distributed actor runtime (C++20; #include <xenon/xenon.hpp>)
Version: $(XENON_VERSION)
Cflags: $(strip -I$${includedir} -pthread $(PC_SANITIZE))
Libs: $(strip -L$${libdir} $(if $(filter xenon-static,$(1)),$${libdir}/libxenon.a,-lxenon) $(LIBXENON_LDLIBS) $(PC_SANITIZE))
endef

# Rewritten only when the text changes (it follows the configuration), so that what
# depends on it is not rebuilt for nothing.
# (The folder is an order-only prerequisite: $(file) runs before any line of the recipe.)
$(INSTALL_DIR)/xenon.pc $(INSTALL_DIR)/xenon-static.pc: FORCE_INSTALL_TEXT | $(INSTALL_DIR)
	$(file >$@.new,$(call pkgconfig_text,$(basename $(notdir $@))))
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# ---- What is installed: one "KIND SOURCE DEST" line per file (tools/install_tree.sh).
# Headers: engine/xenon.hpp and exactly what it includes, transitively (g++ -MM). ----
INSTALL_LIST := $(INSTALL_DIR)/files.list
INSTALL_PROGRAMS = $(PROBES:%=$(BUILD)/bin/%) $(BENCH_PROBES:%=$(BUILD)/bin/%) $(MPI_PROGRAMS) \
  $(GENOMICS_BINARIES)
INSTALL_EXAMPLES = $(EXAMPLES:%=$(BUILD)/bin/%)
INSTALL_DOCS = README.md $(sort $(shell find core engine transport performance genomics \
  -name '*.md' 2>/dev/null))

$(INSTALL_DIR):
	mkdir -p $@

$(INSTALL_LIST): $(LIBRARY) $(SHARED_LIBRARY) $(INSTALL_DIR)/xenon.pc \
    $(INSTALL_DIR)/xenon-static.pc $(INSTALL_PROGRAMS) $(INSTALL_EXAMPLES) FORCE_INSTALL_TEXT
	@{ for header in $$($(CXX) $(CXXFLAGS) -MM -MT headers engine/xenon.hpp \
	       | sed 's/^headers://; s/\\//g'); do \
	     case $$header in \
	       engine/xenon.hpp) echo "header $$header include/xenon/xenon.hpp" ;; \
	       *) echo "header $$header include/xenon/$$header" ;; \
	     esac; \
	   done; \
	   echo "file $(LIBRARY) lib/libxenon.a"; \
	   echo "program $(SHARED_LIBRARY) lib/libxenon.so.$(XENON_SOVERSION)"; \
	   echo "symlink libxenon.so.$(XENON_SOVERSION) lib/libxenon.so"; \
	   echo "pkgconfig $(INSTALL_DIR)/xenon.pc lib/pkgconfig/xenon.pc"; \
	   echo "pkgconfig $(INSTALL_DIR)/xenon-static.pc lib/pkgconfig/xenon-static.pc"; \
	   for p in $(INSTALL_PROGRAMS); do echo "program $$p bin/$${p##*/}"; done; \
	   for p in $(INSTALL_EXAMPLES); do echo "program $$p libexec/xenon/$${p##*/}"; done; \
	   for d in $(INSTALL_DOCS); do echo "file $$d share/doc/xenon/$$d"; done; \
	   for e in $(EXAMPLES); do \
	     echo "file examples/$$e.cpp share/doc/xenon/examples/$$e.cpp"; \
	   done; \
	 } > $@.new && mv $@.new $@

.PHONY: install uninstall FORCE_INSTALL_TEXT
install: $(INSTALL_LIST)
	tools/install_tree.sh install $(abspath $(PREFIX)) $(INSTALL_LIST)

uninstall:
	tools/install_tree.sh uninstall $(abspath $(PREFIX))

# tests/install/ installs into a temporary prefix with the list, builds an example against
# it outside the tree and uninstalls. Sanitizer builds skip it: every program linked with
# their library would need their runtime, and the PIC tree would double their build.
ifeq ($(SANITIZE),)
test: $(INSTALL_LIST)
endif
