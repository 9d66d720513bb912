# SPDX-License-Identifier: BSD-3-Clause
# Xenon as a library others embed: make install / make uninstall.
#   make install PREFIX=DIR      (default /usr/local; DESTDIR=... stages it for packaging)
#       DIR/include/xenon/xenon.hpp and the headers it reaches, nothing internal
#       DIR/lib/libxenon.a, libxenon.so.MAJOR (+ libxenon.so), pkgconfig/xenon.pc,
#           xenon-static.pc, cmake/Xenon/ (find_package(Xenon): mk/cmake/)
#       DIR/bin/: the probes and genomics tools; DIR/libexec/xenon/: the example programs
#       DIR/share/man/man1/: a man page per program in bin/ (mk/man.mk)
#       DIR/share/doc/xenon/: README.md, the design notes beside the code, example sources
#   make uninstall PREFIX=DIR    removes exactly what install wrote (its manifest, in
#                                DIR/share/xenon/) and the directories it created
# Use: g++ -std=c++20 app.cpp $(pkg-config --cflags --libs xenon) (or xenon-static), or
# CMake's find_package(Xenon CONFIG REQUIRED) and Xenon::xenon (or Xenon::xenon_static).

PREFIX ?= /usr/local

# The version, from its one source, include/xenon/core/version.hpp: one "#define XENON_VERSION_X N" line
# each (matched as ".define": make must not read the '#' as a comment).
xenon_version_number = $(shell sed -n 's/^.define XENON_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' \
  include/xenon/core/version.hpp)
XENON_VERSION_MAJOR := $(call xenon_version_number,MAJOR)
XENON_VERSION_MINOR := $(call xenon_version_number,MINOR)
XENON_VERSION_PATCH := $(call xenon_version_number,PATCH)
ifneq ($(words $(XENON_VERSION_MAJOR) $(XENON_VERSION_MINOR) $(XENON_VERSION_PATCH)),3)
  $(error include/xenon/core/version.hpp: expected one '#define XENON_VERSION_MAJOR N' line, and _MINOR and _PATCH)
endif
XENON_VERSION := $(XENON_VERSION_MAJOR).$(XENON_VERSION_MINOR).$(XENON_VERSION_PATCH)
# The soname follows the major version: within one, an upgrade keeps programs linked.
XENON_SOVERSION := $(XENON_VERSION_MAJOR)

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

# ---- pkg-config: xenon links the shared library, xenon-static the archive. hwloc and Open
# MPI (unless CONFIG_MPI=n) are named by their own pkg-config packages where those exist:
# "Requires.private" for xenon, as libxenon.so already links them (pkg-config --static adds
# them), "Requires" for xenon-static, as every link of the archive needs them. What has no
# package of its own (-pthread, or the library flags of a dependency without one) is written
# out; a sanitizer build's -fsanitize flags are kept. @prefix@ becomes PREFIX when installed.
INSTALL_DIR := $(BUILD)/install
PC_SANITIZE = $(filter -fsanitize=%,$(LDFLAGS))
pc_exists = $(shell pkg-config --exists $(1) 2>/dev/null && echo y)
PC_HWLOC = $(if $(filter -lhwloc,$(LIBXENON_LDLIBS)),$(if $(call pc_exists,hwloc),hwloc))
PC_MPI = $(if $(MPI_LINK_FLAGS),$(if $(call pc_exists,ompi-c),ompi-c))
PC_REQUIRES = $(strip $(PC_HWLOC) $(PC_MPI))
PC_OTHER_LIBS = $(filter-out $(if $(PC_HWLOC),-lhwloc) $(if $(PC_MPI),$(MPI_LINK_FLAGS)), \
  $(LIBXENON_LDLIBS))
pc_requires_field_xenon := Requires.private
pc_requires_field_xenon-static := Requires
define pc_libs_xenon
Libs: $(strip -L$${libdir} -lxenon -pthread $(PC_SANITIZE))
$(if $(filter-out -pthread,$(PC_OTHER_LIBS)),Libs.private: $(filter-out -pthread,$(PC_OTHER_LIBS)))
endef
define pc_libs_xenon-static
Libs: $(strip -L$${libdir} $${libdir}/libxenon.a $(PC_OTHER_LIBS) $(PC_SANITIZE))
endef
define pkgconfig_text
prefix=@prefix@
exec_prefix=$${prefix}
libdir=$${exec_prefix}/lib
includedir=$${prefix}/include

Name: $(1)
Description: Xenon distributed actor runtime (C++20; #include <xenon/xenon.hpp>)
Version: $(XENON_VERSION)
$(pc_requires_field_$(1)): $(PC_REQUIRES)
Cflags: $(strip -I$${includedir} -pthread $(PC_SANITIZE))
$(pc_libs_$(1))
endef

# Rewritten only when the text changes (it follows the configuration), so that what
# depends on it is not rebuilt for nothing.
# (The folder is an order-only prerequisite: $(file) runs before any line of the recipe.)
$(INSTALL_DIR)/xenon.pc $(INSTALL_DIR)/xenon-static.pc: FORCE_INSTALL_TEXT | $(INSTALL_DIR)
	$(file >$@.new,$(call pkgconfig_text,$(basename $(notdir $@))))
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# ---- The CMake package: mk/cmake/*.cmake.in with the build's facts filled in. The files
# find everything from their own place, PREFIX/lib/cmake/Xenon, so need no @prefix@. ----
CMAKE_PACKAGE := $(addprefix $(INSTALL_DIR)/cmake/,XenonConfig.cmake XenonConfigVersion.cmake \
  XenonTargets.cmake)
cmake_switch = $(if $(1),ON,OFF)
empty :=
space := $(empty) $(empty)

$(INSTALL_DIR)/cmake/%.cmake: mk/cmake/%.cmake.in FORCE_INSTALL_TEXT
	@mkdir -p $(dir $@)
	sed -e 's|@XENON_VERSION@|$(XENON_VERSION)|g' \
	    -e 's|@XENON_VERSION_MAJOR@|$(XENON_VERSION_MAJOR)|g' \
	    -e 's|@XENON_SOVERSION@|$(XENON_SOVERSION)|g' \
	    -e 's|@XENON_WITH_MPI@|$(call cmake_switch,$(MPI_LINK_FLAGS))|g' \
	    -e 's|@XENON_WITH_HWLOC@|$(call cmake_switch,$(filter -lhwloc,$(LIBXENON_LDLIBS)))|g' \
	    -e 's|@XENON_SANITIZE_FLAGS@|$(subst $(space),;,$(strip $(PC_SANITIZE)))|g' \
	    -e "s|@XENON_SIZEOF_VOID_P@|$$(echo __SIZEOF_POINTER__ | $(CXX) -E -P -x c++ -)|g" \
	    $< > $@.new
	@if grep -n '@[A-Z_]*@' $@.new; then echo "$<: a placeholder is left unfilled" >&2; exit 1; fi
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# ---- What is installed: one "KIND SOURCE DEST" line per file (tools/install_tree.sh).
# Headers: include/xenon/, the public headers, as they lie in the tree: xenon.hpp and exactly
# what it includes, transitively (g++ -MM), which must all be there (internals stay in core/
# and engine/). ----
INSTALL_LIST := $(INSTALL_DIR)/files.list
INSTALL_PROGRAMS = $(COMMANDS:%=$(BUILD)/bin/%)
INSTALL_EXAMPLES = $(EXAMPLES:%=$(BUILD)/bin/%)
INSTALL_DOCS = README.md $(sort $(shell find core engine transport performance genomics \
  -name '*.md' 2>/dev/null))

$(INSTALL_DIR):
	mkdir -p $@

# (mk/man.mk adds the man pages, $(MAN_PAGES), to the prerequisites.)
$(INSTALL_LIST): $(LIBRARY) $(SHARED_LIBRARY) $(INSTALL_DIR)/xenon.pc \
    $(INSTALL_DIR)/xenon-static.pc $(CMAKE_PACKAGE) $(INSTALL_PROGRAMS) $(INSTALL_EXAMPLES) \
    FORCE_INSTALL_TEXT
	@{ for header in $$($(CXX) $(CXXFLAGS) -MM -MT headers include/xenon/xenon.hpp \
	       | sed 's/^headers://; s/\\//g'); do \
	     case $$header in \
	       include/xenon/*) echo "header $$header $$header" ;; \
	       *) echo "$@: xenon.hpp reaches $$header, an internal header outside include/xenon/" >&2; \
	          exit 1 ;; \
	     esac; \
	   done; \
	   echo "file $(LIBRARY) lib/libxenon.a"; \
	   echo "program $(SHARED_LIBRARY) lib/libxenon.so.$(XENON_SOVERSION)"; \
	   echo "symlink libxenon.so.$(XENON_SOVERSION) lib/libxenon.so"; \
	   echo "pkgconfig $(INSTALL_DIR)/xenon.pc lib/pkgconfig/xenon.pc"; \
	   echo "pkgconfig $(INSTALL_DIR)/xenon-static.pc lib/pkgconfig/xenon-static.pc"; \
	   for c in $(CMAKE_PACKAGE); do echo "file $$c lib/cmake/Xenon/$${c##*/}"; done; \
	   for p in $(INSTALL_PROGRAMS); do echo "program $$p bin/$${p##*/}"; done; \
	   for m in $(MAN_PAGES); do echo "file $$m share/man/man1/$${m##*/}"; done; \
	   for p in $(INSTALL_EXAMPLES); do echo "program $$p libexec/xenon/$${p##*/}"; done; \
	   for d in $(INSTALL_DOCS); do echo "file $$d share/doc/xenon/$$d"; done; \
	   for e in $(EXAMPLES); do \
	     echo "file examples/$$e.cpp share/doc/xenon/examples/$$e.cpp"; \
	   done; \
	   if [ -n "$(DOCS_HTML)" ] && [ -d "$(DOCS_HTML)" ]; then \
	     for f in $$(cd $(DOCS_HTML) && find . -type f | LC_ALL=C sort); do \
	       echo "file $(DOCS_HTML)/$${f#./} share/doc/xenon/html/$${f#./}"; \
	     done; \
	   fi; \
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
