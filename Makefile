# cdlinear build. `make` builds ./cdtrain, ./cdpredict and ./cdscale from a static core
# library, and the shared library build/libcdlinear.so of the C interface;
# `make test` builds and runs the GoogleTest suite; `make asan` does
# the same under AddressSanitizer and UBSan, `make tsan` under
# ThreadSanitizer; `make bench` runs the benchmarks.
# `make install PREFIX=/usr/local` (and DESTDIR) installs the tools, the
# library's two headers, archive and shared library, its pkg-config files
# and the man pages; `make uninstall` removes them.

# Every core by default, unless the command line says how many (make -j1).
# A sub-make shares its parent's jobs (MAKELEVEL > 0: setting -j there would
# reset the job server, with a warning).
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

CXX      ?= g++
# No -DNDEBUG: release builds keep their assert()s. Each guards an internal
# invariant (a caller's contract, never user input, which gets an error
# message) at O(1) per call or per row, outside the solvers' per-nonzero
# loops, so they cost nothing measurable and catch a broken contract in the
# field instead of computing on it.
CXXFLAGS ?= -O3
WARNINGS := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
# Include paths per target: the library sees only src/; the tools add their
# own folder, the tests and fuzz targets the tools' and the tests' helpers.
INCLUDES := -Isrc
ALL_CXXFLAGS = -std=c++17 $(WARNINGS) $(CXXFLAGS) $(TEST_OPT) $(LIB_CODE) $(INCLUDES) -MMD -MP
LDLIBS   := -pthread

BUILD    ?= build
LIB_SRCS := $(wildcard src/*/*.cpp)
LIB_OBJS := $(LIB_SRCS:%.cpp=$(BUILD)/%.o)
LIB      := $(BUILD)/libcdlinear.a
CLI_OBJ  := $(BUILD)/tools/cli.o
TEST_SRCS := $(wildcard tests/*/*.cpp)
TEST_OBJS := $(TEST_SRCS:%.cpp=$(BUILD)/%.o)
TEST_BIN := $(BUILD)/cdlinear_tests
GTEST_LIBS := -lgtest -lgtest_main

TOOLS := cdtrain cdpredict cdscale
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := reader model cli train cache arrays
# The fuzz targets with a plain main() that replays their seeds and kept
# crash reproducers (fuzz/replay_main.cpp; a target may have no
# fuzz/regressions/ folder yet); part of make asan.
REPLAYS := $(FUZZ_TARGETS:%=$(BUILD)/replay_%)
EXTRA_TOOLS := $(BUILD)/gen_rcv1like $(BUILD)/bench_cd

# The library's public headers, C++ and C: the files of src/ that are installed.
PUBLIC_HEADER := src/cdlinear.h
C_HEADER := src/cdlinear_c.h

# The shared library's version is the tools' (tools/version.h, cdtrain
# --version): file libcdlinear.so.MAJOR.MINOR.PATCH, soname libcdlinear.so.MAJOR.
VERSION := $(shell sed -n 's/.*kVersion = "\([0-9.]*\)".*/\1/p' tools/version.h)
VERSION_MAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME := libcdlinear.so.$(VERSION_MAJOR)
SHARED := $(BUILD)/libcdlinear.so.$(VERSION)
SHARED_LINKS := $(BUILD)/$(SONAME) $(BUILD)/libcdlinear.so
PKG_CONFIG_FILES := $(BUILD)/cdlinear.pc $(BUILD)/cdlinear-cxx.pc
EXAMPLE := $(BUILD)/library-example
MAN_PAGES := $(TOOLS:%=man/%.1)

PREFIX ?= /usr/local
BINDIR  = $(DESTDIR)$(PREFIX)/bin
INCDIR  = $(DESTDIR)$(PREFIX)/include
LIBDIR  = $(DESTDIR)$(PREFIX)/lib
PKGCONFIGDIR = $(LIBDIR)/pkgconfig
MANDIR  = $(DESTDIR)$(PREFIX)/share/man/man1

.PHONY: FORCE check-clang-format-version mpi mpi-available test-mpi all test asan test-asan tsan test-tsan tsan-parallel test-tsan-parallel test-install install uninstall fuzz fuzz-build fuzz-run bench tools clean format format-check
all: $(TOOLS) $(SHARED_LINKS)

$(BUILD)/tests/%.o: private INCLUDES += -Itests -Itools
# The tests' own code at -O1 (after CXXFLAGS, so it wins): it compiles in
# about 70% of -O3's time, and the code under test, the library and the
# tools, keeps the build's level.
$(BUILD)/tests/%.o: private TEST_OPT := -O1
$(REPLAYS) $(BUILD)/fuzz_%: private INCLUDES += -Itools

# The library's objects are compiled once, position-independent, and serve
# both the archive and the shared library: a second object set would double
# the library's compile time in every build folder (CI's plain, ASan and
# TSan builds). Hidden visibility keeps their functions from being
# interposable, so that -fPIC changes no inlining and costs nothing
# measurable (the models are the same bytes; checked on data/ files at -s 0
# to 7 and 11 to 13); the C interface's functions alone are marked visible
# (CDL_API).
LIB_PIC := -fPIC -fvisibility=hidden
$(BUILD)/src/%.o: private LIB_CODE := $(LIB_PIC)
# The library's objects depend on those flags, so that a build folder made
# without them is compiled again rather than refused by the shared link.
$(BUILD)/src/.code-flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(LIB_PIC)' | cmp -s - $@ || echo '$(LIB_PIC)' >$@
$(LIB_OBJS): $(BUILD)/src/.code-flags
FORCE:

$(BUILD)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_CXXFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The shared library exports the C interface's cdl_* functions and nothing
# else: hidden visibility hides the library's own functions, and the version
# script the standard library's template code compiled into it.
$(BUILD)/cdlinear.map:
	@mkdir -p $(dir $@)
	printf '{\n  global: cdl_*;\n  local: *;\n};\n' >$@

$(SHARED): $(LIB_OBJS) $(BUILD)/cdlinear.map
	$(CXX) $(ALL_CXXFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=$(BUILD)/cdlinear.map \
	  -Wl,--no-undefined $(LIB_OBJS) -o $@ $(LDLIBS)

$(BUILD)/$(SONAME): $(SHARED)
	ln -sf $(notdir $<) $@
$(BUILD)/libcdlinear.so: $(BUILD)/$(SONAME)
	ln -sf $(notdir $<) $@

# The pkg-config files for PREFIX: cdlinear.pc for the C interface (the
# shared library; --static adds what the archive needs), cdlinear-cxx.pc for
# the C++ one, which the shared library does not export (the archive).
$(BUILD)/%.pc: %.pc.in FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< | cmp -s - $@ || \
	  sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< >$@

cdtrain cdpredict: %: $(BUILD)/tools/%.o $(CLI_OBJ) $(LIB)
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@ $(LDLIBS)

# cdscale has its own few options and no need of cli.o.
cdscale $(BUILD)/cdscale: $(BUILD)/tools/cdscale.o $(LIB)
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/gen_rcv1like: $(BUILD)/gen/gen_rcv1like.o
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@

$(BUILD)/bench_cd: $(BUILD)/bench/bench_cd.o $(LIB)
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@ $(LDLIBS)

tools: $(TOOLS) $(EXTRA_TOOLS)

$(TEST_BIN): $(TEST_OBJS) $(CLI_OBJ) $(LIB)
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@ $(GTEST_LIBS) $(LDLIBS)

# The public header alone in a folder, so that the example compiles against
# it and nothing else of src/.
$(BUILD)/public/cdlinear.h: $(PUBLIC_HEADER)
	@mkdir -p $(dir $@)
	cp $< $@

# docs/library-example.cpp, built as a program outside the repository would
# build it: the public header and the library, no -Isrc.
$(EXAMPLE): docs/library-example.cpp $(BUILD)/public/cdlinear.h $(LIB)
	$(CXX) -std=c++17 $(WARNINGS) $(CXXFLAGS) -I$(BUILD)/public $< $(LIB) -o $@ $(LDLIBS)

# The end-to-end tests run ./cdtrain and ./cdpredict of the same build, and
# the library example; then the install is checked in a scratch prefix, and
# the Python package is built and tested.
test: $(TOOLS) $(TEST_BIN) $(EXAMPLE)
	CDL_BIN_DIR=$(CURDIR) CDL_DATA_DIR=$(CURDIR)/data CDL_LIBRARY_EXAMPLE=$(CURDIR)/$(EXAMPLE) \
	  $(TEST_BIN)
	$(MAKE) --no-print-directory test-install
	$(MAKE) --no-print-directory test-python

test-install: $(TOOLS) $(LIB) $(SHARED)
	MAKE="$(MAKE)" bash checks/check_install.sh

install: $(TOOLS) $(LIB) $(SHARED) $(PKG_CONFIG_FILES)
	install -d $(BINDIR) $(INCDIR) $(LIBDIR) $(PKGCONFIGDIR) $(MANDIR)
	install -m 755 $(TOOLS) $(BINDIR)
	install -m 644 $(PUBLIC_HEADER) $(C_HEADER) $(INCDIR)
	install -m 644 $(LIB) $(LIBDIR)/libcdlinear.a
	install -m 755 $(SHARED) $(LIBDIR)
	ln -sf $(notdir $(SHARED)) $(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(LIBDIR)/libcdlinear.so
	install -m 644 $(PKG_CONFIG_FILES) $(PKGCONFIGDIR)
	install -m 644 $(MAN_PAGES) $(MANDIR)

uninstall:
	rm -f $(TOOLS:%=$(BINDIR)/%) $(INCDIR)/$(notdir $(PUBLIC_HEADER)) \
	  $(INCDIR)/$(notdir $(C_HEADER)) $(LIBDIR)/libcdlinear.a $(LIBDIR)/$(notdir $(SHARED)) \
	  $(LIBDIR)/$(SONAME) $(LIBDIR)/libcdlinear.so $(PKG_CONFIG_FILES:$(BUILD)/%=$(PKGCONFIGDIR)/%) \
	  $(TOOLS:%=$(MANDIR)/%.1)

# GCC 12 reports false -Wmaybe-uninitialized inside <regex> when sanitizing.
asan:
	$(MAKE) BUILD=build-asan CXXFLAGS="-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Wno-maybe-uninitialized" \
	  test-asan

# The sanitizer builds' tests find their tools in $(BUILD) (a recursive
# variable: each sub-make sets BUILD) and the data sets in data/.
SANITIZER_TEST_ENV = CDL_BIN_DIR=$(CURDIR)/$(BUILD) CDL_DATA_DIR=$(CURDIR)/data
# Their tests run as one shard per core at once (SHARDS=N for another number);
# the whole suite runs the same way under both sanitizers.
RUN_SHARDS := bash checks/run_shards.sh
SANITIZED_SUITE = $(SANITIZER_TEST_ENV) CDL_LIBRARY_EXAMPLE=$(CURDIR)/$(EXAMPLE) $(RUN_SHARDS) $(TEST_BIN)

# ThreadSanitizer on the suite (GTEST_FILTER=... to run part of it).
TSAN_FLAGS := -O1 -g1 -fsanitize=thread -fno-omit-frame-pointer -Wno-maybe-uninitialized
tsan:
	$(MAKE) BUILD=build-tsan CXXFLAGS="$(TSAN_FLAGS)" test-tsan

# ThreadSanitizer on the tests of the parallel paths alone (CI's step): the
# tests whose names PARALLEL_FILTER picks (those that name threads, or bits
# the same for any thread count, run_tasks, and the ranks of a distributed
# run as threads, RowShare), in a binary of the test files that hold them,
# found by the same words, so that the other test files are not built.
PARALLEL_FILTER := *Thread*:*SameBits*:RunTasks.*:RowShare.*
PARALLEL_TEST_PATTERN := TEST(_F|_P)?\([^,]*(Thread|SameBits|RunTasks|RowShare)|TEST(_F|_P)?\([^,]*, *[A-Za-z0-9_]*(Thread|SameBits)
PARALLEL_TEST_SRCS := $(shell grep -lE '$(PARALLEL_TEST_PATTERN)' $(TEST_SRCS))
PARALLEL_TEST_BIN := $(BUILD)/cdlinear_parallel_tests
$(PARALLEL_TEST_BIN): $(PARALLEL_TEST_SRCS:%.cpp=$(BUILD)/%.o) $(CLI_OBJ) $(LIB)
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@ $(GTEST_LIBS) $(LDLIBS)
tsan-parallel:
	$(MAKE) BUILD=build-tsan CXXFLAGS="$(TSAN_FLAGS)" test-tsan-parallel
test-tsan-parallel: $(BUILD)/cdtrain $(BUILD)/cdpredict $(BUILD)/cdscale $(PARALLEL_TEST_BIN)
	$(SANITIZER_TEST_ENV) GTEST_FILTER='$(PARALLEL_FILTER)' $(RUN_SHARDS) $(PARALLEL_TEST_BIN)

test-tsan: $(BUILD)/cdtrain $(BUILD)/cdpredict $(BUILD)/cdscale $(TEST_BIN) $(EXAMPLE)
	$(SANITIZED_SUITE)

test-asan: $(BUILD)/cdtrain $(BUILD)/cdpredict $(BUILD)/cdscale $(TEST_BIN) $(REPLAYS) $(EXAMPLE)
	$(SANITIZED_SUITE)
	for t in $(FUZZ_TARGETS); do \
	  regressions=fuzz/regressions/$$t; [ -d $$regressions ] || regressions=; \
	  $(BUILD)/replay_$$t fuzz/seeds/$$t $$regressions || exit 1; \
	done

$(BUILD)/replay_%: fuzz/fuzz_%.cpp fuzz/replay_main.cpp $(CLI_OBJ) $(LIB)
	$(CXX) $(ALL_CXXFLAGS) fuzz/replay_main.cpp $< $(CLI_OBJ) $(LIB) -o $@ $(LDLIBS)

$(BUILD)/cdtrain $(BUILD)/cdpredict: $(BUILD)/%: $(BUILD)/tools/%.o $(CLI_OBJ) $(LIB)
	$(CXX) $(ALL_CXXFLAGS) $^ -o $@ $(LDLIBS)

# libFuzzer targets (fuzz/), built with clang into build-fuzz; each runs for
# FUZZ_SECONDS seconds. See fuzz/fuzz.sh for the corpora and crash files.
FUZZ_CXXFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
fuzz:
	$(MAKE) BUILD=build-fuzz CXX=clang++ CXXFLAGS="$(FUZZ_CXXFLAGS)" fuzz-run

fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)

fuzz-run: fuzz-build
	bash fuzz/fuzz.sh $(BUILD) $(FUZZ_SECONDS)

$(BUILD)/fuzz_%: fuzz/fuzz_%.cpp $(CLI_OBJ) $(LIB)
	$(CXX) $(ALL_CXXFLAGS) -fsanitize=fuzzer $< $(CLI_OBJ) $(LIB) -o $@ $(LDLIBS)

# docs/benchmarks.md (bench/bench.sh's header says what it measures); its
# python section runs the package that `make python` installs in build/venv.
bench: tools python
	bash bench/bench.sh

# The optional MPI build: ./cdtrain-mpi (mpi/), compiled by Open MPI's
# mpicxx against the same library; `make` and `make test` never need it.
# `make test-mpi` runs tests/mpi/test_mpi.sh with mpirun on this machine.
MPICXX ?= mpicxx
MPI_OBJS := $(patsubst %.cpp,$(BUILD)/%.o,$(wildcard mpi/*.cpp))

mpi: mpi-available cdtrain-mpi

mpi-available:
	@command -v $(MPICXX) >/dev/null && command -v mpirun >/dev/null || { \
	  echo "make mpi needs Open MPI's mpicxx and mpirun: apt-get install openmpi-bin libopenmpi-dev" >&2; \
	  exit 1; }

$(BUILD)/mpi/%.o: mpi/%.cpp
	@mkdir -p $(dir $@)
	$(MPICXX) $(ALL_CXXFLAGS) -Itools -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -c $< -o $@

cdtrain-mpi: $(MPI_OBJS) $(CLI_OBJ) $(LIB)
	$(MPICXX) $(ALL_CXXFLAGS) $^ -o $@ $(LDLIBS)

test-mpi: mpi cdtrain
	MAKE="$(MAKE)" bash tests/mpi/test_mpi.sh

FORMAT_FILES = $(wildcard src/*.h src/*/*.h src/*/*.cpp tools/*.h tools/*.cpp mpi/*.h mpi/*.cpp bench/*.cpp gen/*.cpp experiments/*.cpp tests/*.h tests/*/*.cpp fuzz/*.h fuzz/*.cpp docs/*.cpp docs/*.c python/src/*.cpp)

# The formatting is clang-format 14's (Debian 12's clang-format package):
# another major version formats some lines differently, so both targets
# refuse to run with one.
CLANG_FORMAT ?= clang-format
CLANG_FORMAT_MAJOR := 14
check-clang-format-version:
	@$(CLANG_FORMAT) --version | grep -q 'version $(CLANG_FORMAT_MAJOR)\.' || { \
	  echo "make format needs clang-format $(CLANG_FORMAT_MAJOR) (apt-get install clang-format-$(CLANG_FORMAT_MAJOR)), found: $$($(CLANG_FORMAT) --version)" >&2; \
	  exit 1; }

format: check-clang-format-version
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check: check-clang-format-version
	@$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES)
	@echo "format-check: $(words $(FORMAT_FILES)) files as clang-format $(CLANG_FORMAT_MAJOR) formats them"

# The Python package (python/, docs/python.md), installed into a virtual
# environment in $(BUILD)/venv that sees Debian's numpy, scipy, scikit-learn,
# pybind11 and pytest (apt-get install python3-numpy python3-scipy
# python3-sklearn python3-pandas python3-pybind11 pybind11-dev python3-pytest
# python3-venv python3-dev; pandas for scikit-learn's DataFrame checks): no network. The extension links $(LIB) when the library's
# objects are position-independent (LIB_PIC has -fPIC), and otherwise
# compiles the library's sources itself, with the compiler of CXX.
PYTHON ?= /usr/bin/python3
PYTHON_VENV = $(BUILD)/venv
PYTHON_LIBRARY = $(if $(findstring -fPIC,$(LIB_PIC)),$(LIB))
.PHONY: python test-python
python: $(PYTHON_LIBRARY)
	@test -x $(PYTHON_VENV)/bin/python || $(PYTHON) -m venv --system-site-packages $(PYTHON_VENV)
	CC="$(CXX)" CDLINEAR_LIBRARY="$(if $(PYTHON_LIBRARY),$(CURDIR)/$(PYTHON_LIBRARY))" \
	  $(PYTHON_VENV)/bin/python -m pip install -q --no-build-isolation --no-index ./python

# pytest on python/tests (from the repository root, so that the installed
# package is imported, not python/cdlinear): the README's Python lines among
# them; the comparisons with the tools run ./cdtrain and ./cdpredict of this
# build.
test-python: python cdtrain cdpredict
	CDL_BIN_DIR=$(CURDIR) CDL_DATA_DIR=$(CURDIR)/data \
	  $(PYTHON_VENV)/bin/python -m pytest -q -p no:cacheprovider python/tests

clean:
	rm -rf build build-asan build-tsan build-fuzz $(TOOLS) cdtrain-mpi

-include $(wildcard $(BUILD)/src/*/*.d $(BUILD)/tools/*.d $(BUILD)/bench/*.d $(BUILD)/gen/*.d $(BUILD)/tests/*/*.d $(BUILD)/mpi/*.d $(BUILD)/*.d)
