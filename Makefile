# memtop: `make run` sets up, builds and starts; `make test` sets up, builds and tests.
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
BUILD    := build
VERSION  := 0.1.0
PREFIX   ?= /usr/local
PKGS     := libproc2 ncursesw libbpf libdw
# libmicrohttpd is opened by --serve (src/run/mhd_lib.h), not linked: its headers only, and
# the name of the library to open
MHD_LIB  := $(shell pkg-config --variable=libdir libmicrohttpd 2>/dev/null)/libmicrohttpd.so
MHD_SONAME := $(shell objdump -p $(MHD_LIB) 2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

# What memtop needs to build is in the MT_ variables, which always apply; CFLAGS (default
# -O2 -g), CPPFLAGS, LDFLAGS and LDLIBS given to make add to them: make CFLAGS=-O0.
# V=1 shows the commands in full.
CFLAGS   ?= -O2 -g
# src/ holds a folder per layer (doc/design.md, The layers); each is on the include path
SRC_DIRS := $(sort $(dir $(wildcard src/*/*.c src/*/*.h)))
SRC_DIRS := $(SRC_DIRS:/=)
MT_CPPFLAGS := -D_GNU_SOURCE -DMEMTOP_VERSION='"$(VERSION)"' \
	       -DMEMTOP_THEMES='"$(PREFIX)/share/memtop/themes"' \
	       $(patsubst %,-I%,$(SRC_DIRS)) -Iui -I. -I$(BUILD) \
	       $(shell pkg-config --cflags $(PKGS) libmicrohttpd 2>/dev/null) \
	       $(if $(MHD_SONAME),-DMHD_SONAME='"$(MHD_SONAME)"')
# Warnings are errors where the project's own compiler runs them: make test and CI
# (WERROR=1); a user's make with another compiler or flags builds and warns.
WERROR   ?= 0
MT_CFLAGS   := -std=gnu11 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
MT_LDLIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lelf -lz -lzstd -lcrypt -lm -ldl -pthread
COMPILE   = $(CC) $(MT_CPPFLAGS) $(CPPFLAGS) $(MT_CFLAGS) $(CFLAGS)
LINK      = $(CC) $(CFLAGS) $(LDFLAGS)

ifeq ($(V),1)
Q   :=
say :=
else
Q   := @
# $(call say,WHAT,FILE) prints "  WHAT    FILE" instead of the command
say  = @printf '  %-8s%s\n' '$(1)' '$(2)'
endif

# The always-on concerns' programs are linked into one object, memtop.bpf.o, so that
# loading parses the kernel's BTF once; the stacks and leaks programs load apart, on demand
# (each its own skeleton, made by the one %.skel.h rule).
BPF_LINKED := oomkill reclaim swapin tasks cgroups
BPF_SRC  := $(wildcard bpf/*.bpf.c)
BPF_OBJ  := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRC)) $(BUILD)/bpf/memtop.bpf.o
BPF_SKEL := $(BUILD)/bpf/memtop.skel.h $(BUILD)/bpf/stacks.skel.h $(BUILD)/bpf/leaks.skel.h

CORE_SRC := $(filter-out src/run/main.c,$(wildcard src/*/*.c)) $(wildcard ui/*.c)
CORE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC)) $(BUILD)/themes_builtin.o
TEST_SRC := $(wildcard tests/unit/*.c)
HELPERS  := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(filter-out %/scenario_world.c %/scenario_growth.c %/scenario_machine.c,$(wildcard tests/helpers/*.c))) \
	    $(BUILD)/tests/dd_grow_nofp $(BUILD)/tests/cxx_grow $(BUILD)/tests/leak_child_static \
	    $(BUILD)/tests/grow_child_static

.PHONY: all deps test-deps run test check test-kernels test-pkg unit clean format bench install fuzz fuzz-build sanitize man doc deb
all: $(BUILD)/memtop $(BUILD)/unit_tests $(HELPERS) $(BUILD)/memtop.1

# memtop and the unit tests again with ASan and UBSan, objects in build/asan (the normal
# build is untouched); make test runs the unit, cli and screen tests against them too
# (SANITIZE=0: not). Built by clang, as the fuzzer is: with gcc's runtimes UBSan's
# reports ignore log_path, which the tests read them from.
SAN      := $(BUILD)/asan
FUZZ     := $(BUILD)/fuzz
SAN_CC   ?= $(CLANG)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# its themes: those of the tree (it looks in build/asan/../themes first, as memtop looks
# beside build/; it is never installed)
SAN_COMPILE = $(SAN_CC) $(MT_CPPFLAGS) $(CPPFLAGS) $(MT_CFLAGS) $(CFLAGS) $(SANFLAGS) \
	      -UMEMTOP_THEMES -DMEMTOP_THEMES='"$(CURDIR)/themes"'
SAN_LINK  = $(SAN_CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS)
SAN_CORE := $(patsubst %.c,$(SAN)/%.o,$(CORE_SRC)) $(SAN)/themes_builtin.o
sanitize: $(SAN)/memtop $(SAN)/unit_tests

deps:
	@sh scripts/deps.sh

test-deps:
	@sh scripts/deps.sh test

run: deps
	@$(MAKE) --no-print-directory $(BUILD)/memtop
	$(BUILD)/memtop $(ARGS)

# T= picks tests (cli, screen, bpf, unit, asan, screen/tree.sh, 'bpf/oom*'; see
# tests/run.sh); TEST_TIMEOUT= is each test's limit in seconds (120); SANITIZE=0 builds and
# runs no sanitized pass. The sanitized build (make sanitize) is made by tests/run.sh
# beside the first tests, for the asan: tests that wait for it
SANITIZE ?= 1
NPROC := $(shell nproc 2>/dev/null || echo 1)
test: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) WERROR=1 all
	@T='$(T)' TEST_TIMEOUT='$(TEST_TIMEOUT)' SANITIZE='$(SANITIZE)' TEST_SAN_BUILD=1 sh tests/run.sh

# the inner loop: the unit and cli tests, no sanitized pass (T= narrows it as for test)
check: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) WERROR=1 all
	@T='$(if $(T),$(T),unit cli)' TEST_TIMEOUT='$(TEST_TIMEOUT)' SANITIZE=0 sh tests/run.sh

# the Debian package built from nothing (a copy of the tree), checked by lintian and
# installed into a directory (tests/pkg/deb.sh): CI runs it after make test
test-pkg: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) WERROR=1 all
	@T=pkg TEST_TIMEOUT='$(TEST_TIMEOUT)' SANITIZE=0 sh tests/run.sh

# memtop's tests inside Debian's own kernels, booted under qemu: KERNELS= picks them
# (5.10 6.1 6.12), T= the tests; tests/kernels/run.sh
test-kernels:
	@sh scripts/deps.sh kernels
	@$(MAKE) --no-print-directory -j$(NPROC) WERROR=1 all
	@KERNELS='$(KERNELS)' T='$(T)' TEST_TIMEOUT='$(TEST_TIMEOUT)' sh tests/kernels/run.sh

bench: test-deps
	@$(MAKE) --no-print-directory all
	@sh bench/run.sh

$(BUILD)/vmlinux.h:
	@mkdir -p $(@D)
	$(call say,BTF,$@)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(BUILD)/vmlinux.h
	@mkdir -p $(@D)
	$(call say,BPF,$<)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -I$(BUILD) -I. -Ibpf -c $< -o $@

$(BUILD)/bpf/memtop.bpf.o: $(patsubst %,$(BUILD)/bpf/%.bpf.o,$(BPF_LINKED))
	$(call say,BPFLINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call say,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# every theme of themes/ is compiled in, so memtop runs from anywhere (files of the same
# name in the themes directories are read instead): the default first, the base of the
# others, then the rest in the order V goes through them
THEME_FILES := themes/default.theme \
	       $(filter-out themes/default.theme,$(sort $(wildcard themes/*.theme)))
$(BUILD)/themes_builtin.c: $(THEME_FILES)
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q){ echo '#include "theme.h"'; i=0; for f in $(THEME_FILES); do \
	    echo "static const char text$$i[] ="; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
	    echo ';'; i=$$((i + 1)); done; \
	  echo 'const struct theme_builtin theme_builtins[] = {'; i=0; for f in $(THEME_FILES); do \
	    n=$${f##*/}; echo "	{\"$${n%.theme}\", text$$i},"; i=$$((i + 1)); done; \
	  echo '	{0, 0},'; echo '};'; } > $@.tmp && mv $@.tmp $@

# the BPF skeletons are made before the objects whose sources include them, and only those
# (a .bpf.c edit rebuilds them alone); after the first build their .d files say the same
SKEL_USERS := $(patsubst %.c,%.o,$(shell grep -l 'skel\.h"' $(CORE_SRC) src/run/main.c \
		tests/unit/*.c 2>/dev/null))
$(addprefix $(BUILD)/,$(SKEL_USERS)) $(addprefix $(SAN)/,$(SKEL_USERS)) \
	$(addprefix $(FUZZ)/,$(SKEL_USERS)): $(BPF_SKEL)
$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(COMPILE) -MMD -MP -c $< -o $@

# the git description of the tree built (memtop --version, memtop_build_info), where it is
# a git checkout: given to src/base/version.c alone, which $(BUILD)/revision rebuilds
# whenever it changes
GIT_REV  := $(shell git describe --always --dirty 2>/dev/null | tr -cd 'A-Za-z0-9._+~-')
.PHONY: FORCE
$(BUILD)/revision: FORCE
	@mkdir -p $(@D)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
VERSION_OBJ := $(BUILD)/src/base/version.o $(SAN)/src/base/version.o $(FUZZ)/src/base/version.o
$(VERSION_OBJ): $(BUILD)/revision
$(VERSION_OBJ): MT_CPPFLAGS += -DMEMTOP_GIT='"$(GIT_REV)"'

$(BUILD)/themes_builtin.o: $(BUILD)/themes_builtin.c
	$(call say,CC,$<)
	$(Q)$(COMPILE) -c $< -o $@

# the manual: man/memtop.1.in's prose, and the flags, keys, columns and figures from
# memtop's own tables (man/mkman.c), so that it lists what this memtop has
man: $(BUILD)/memtop.1

# where make install puts the documentation, for the manual's FILES
$(BUILD)/man/mkman.o: MT_CPPFLAGS += -DMEMTOP_DOC='"$(PREFIX)/share/doc/memtop"'
$(BUILD)/mkman: $(BUILD)/man/mkman.o $(BUILD)/man/mkdoc.o $(BUILD)/man/mktables.o $(CORE_OBJ)
	$(call say,LINK,$@)
	$(Q)$(LINK) $^ $(MT_LDLIBS) $(LDLIBS) -o $@

$(BUILD)/memtop.1: $(BUILD)/mkman man/memtop.1.in
	$(call say,GEN,$@)
	$(Q)$(BUILD)/mkman man/memtop.1.in > $@.tmp && mv $@.tmp $@

# the doc/ pages' generated blocks (<!-- generated: NAME -->), made again from the same
# tables by mkman --doc; tests/cli/docs_current.sh checks that they are current
DOC_PAGES := $(wildcard doc/*.md)
doc: $(BUILD)/mkman
	$(Q)for f in $(DOC_PAGES); do \
	  $(BUILD)/mkman --doc $$f > $$f.tmp && \
	  { cmp -s $$f $$f.tmp && rm -f $$f.tmp || { mv $$f.tmp $$f && echo "  DOC     $$f"; }; } \
	  || { rm -f $$f.tmp; exit 1; }; \
	done

# the BPF objects stay: make would delete them as intermediates, and rebuild them after
.SECONDARY: $(BPF_OBJ)
.DELETE_ON_ERROR:

$(BUILD)/memtop: $(BUILD)/src/run/main.o $(CORE_OBJ)
	$(call say,LINK,$@)
	$(Q)$(LINK) $^ $(MT_LDLIBS) $(LDLIBS) -o $@

$(BUILD)/unit_tests: $(patsubst %.c,$(BUILD)/%.o,$(TEST_SRC)) $(CORE_OBJ)
	$(call say,LINK,$@)
	$(Q)$(LINK) $^ $(MT_LDLIBS) $(LDLIBS) -lcmocka -o $@

# the sanitized build: the same sources and flags, and SANFLAGS (the longer stem of
# $(BUILD)/%.o makes make pick these rules for build/asan)
$(SAN)/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC-SAN,$<)
	$(Q)$(SAN_COMPILE) -MMD -MP -c $< -o $@

$(SAN)/themes_builtin.o: $(BUILD)/themes_builtin.c
	@mkdir -p $(@D)
	$(call say,CC-SAN,$<)
	$(Q)$(SAN_COMPILE) -c $< -o $@

$(SAN)/memtop: $(SAN)/src/run/main.o $(SAN_CORE)
	$(call say,LINK,$@)
	$(Q)$(SAN_LINK) $^ $(MT_LDLIBS) $(LDLIBS) -o $@

$(SAN)/unit_tests: $(patsubst %.c,$(SAN)/%.o,$(TEST_SRC)) $(SAN_CORE)
	$(call say,LINK,$@)
	$(Q)$(SAN_LINK) $^ $(MT_LDLIBS) $(LDLIBS) -lcmocka -o $@

# test helpers keep frame pointers so their stacks can be walked
$(BUILD)/tests/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@ -pthread

$(BUILD)/tests/cxx_grow: tests/helpers/cxx_grow.cc
	@mkdir -p $(@D)
	$(call say,CXX,$<)
	$(Q)$(CXX) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror $< -o $@

# fmt_kb as memtop formats sizes, from its own src/base/text.c, for tests that compare the screen
# with /proc
$(BUILD)/tests/fmt_kb: tests/helpers/fmt_kb.c $(BUILD)/src/base/text.o
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(COMPILE) $(LDFLAGS) $^ -o $@

# the hostile recordings (tests/unit/rec_hostile.c) as files, built with memtop's encoder
$(BUILD)/tests/hostile_rec: tests/helpers/hostile_rec.c $(BUILD)/tests/unit/rec_hostile.o \
		$(CORE_OBJ)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(COMPILE) -Itests/unit $(LDFLAGS) $^ $(MT_LDLIBS) $(LDLIBS) -o $@

# scripted recordings (issue 38's scenarios), built with memtop's encoder
$(BUILD)/tests/scenario_rec: tests/helpers/scenario_rec.c tests/helpers/scenario_world.c \
		tests/helpers/scenario_world.h $(CORE_OBJ) \
		tests/helpers/scenario_machine.c tests/helpers/scenario_machine.h
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(COMPILE) $(LDFLAGS) $(filter %.c %.o,$^) $(MT_LDLIBS) $(LDLIBS) -o $@
# its scenarios of growth (scenario_growth.h)
$(BUILD)/tests/scenario_rec: tests/helpers/scenario_growth.c tests/helpers/scenario_growth.h

# the shared object dl_host loads with dlopen
$(BUILD)/tests/libdl_plug.so: tests/helpers/plugin/dl_plug.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) -O1 -g -fno-omit-frame-pointer -fPIC -shared -Wall -Wextra -Werror $< -o $@

$(BUILD)/tests/dl_host: $(BUILD)/tests/libdl_plug.so

# dd_grow again, without frame pointers: walking frame pointers gives one frame deep
$(BUILD)/tests/dd_grow_nofp: tests/helpers/dd_grow.c
	@mkdir -p $(@D)
	$(call say,CC,$< (no frame pointers))
	$(Q)$(CC) -O2 -fomit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@

# linked statically: no libc mapped for --leaks's uprobes, the mmap part alone
$(BUILD)/tests/leak_child_static: tests/helpers/leak_child.c
	@mkdir -p $(@D)
	$(call say,CC,$< (static))
	$(Q)$(CC) -O1 -g -fno-omit-frame-pointer -static -Wall -Wextra -Werror $< -o $@

# linked statically: the allocating program of the container image tests/bpf/podman.sh
# makes (a static busybox beside it, no libc in the image)
$(BUILD)/tests/grow_child_static: tests/helpers/grow_child.c
	@mkdir -p $(@D)
	$(call say,CC,$< (static))
	$(Q)$(CC) -O1 -g -fno-omit-frame-pointer -static -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@

# without frame pointers either, and with data in %rbp: walks from it read junk; and
# without unwind tables, so that CFI does not unwind its functions either
$(BUILD)/tests/junk_grow: tests/helpers/junk_grow.c
	@mkdir -p $(@D)
	$(call say,CC,$< (no frame pointers, no unwind tables))
	$(Q)$(CC) -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables \
		-Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@

# six nested functions without frame pointers, with unwind tables: only CFI unwinds them
$(BUILD)/tests/cfi_grow: tests/helpers/cfi_grow.c
	@mkdir -p $(@D)
	$(call say,CC,$< (no frame pointers, unwind tables))
	$(Q)$(CC) -O2 -fomit-frame-pointer -fasynchronous-unwind-tables -Wall -Wextra -Werror \
		-D_GNU_SOURCE $< -o $@

# libFuzzer with ASan and UBSan, FUZZ_SECS (60) each: on the readers of untrusted text
# (tests/fuzz/parsers.c, corpus in build/fuzz/corpus), then on recordings
# (tests/fuzz/recordings.c, corpus in build/fuzz/rec-corpus), seeded with the golden
# recording, the hostile ones (tests/unit/rec_hostile.c) and a few seconds recorded here
# (with the memory cgroups), then on --web-config's parser (tests/fuzz/webconfig.c, corpus
# in build/fuzz/web-corpus), then on --groups rules (tests/fuzz/groups.c, corpus in
# build/fuzz/groups-corpus); the objects built a job per CPU
FUZZ_SECS ?= 60
FUZZ_COMPILE = $(CLANG) -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined $(MT_CPPFLAGS) $(CPPFLAGS) $(MT_CFLAGS) \
	$(filter-out -O2,$(CFLAGS))
FUZZ_CORE := $(patsubst %.c,$(FUZZ)/%.o,$(CORE_SRC)) $(FUZZ)/themes_builtin.o
REC_SEEDS := $(FUZZ)/rec-seeds
fuzz: deps
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz-build
	$(FUZZ)/parsers -max_total_time=$(FUZZ_SECS) -max_len=4096 $(FUZZ)/corpus
	$(FUZZ)/recordings -max_total_time=$(FUZZ_SECS) -max_len=65536 -rss_limit_mb=2048 \
		$(FUZZ)/rec-corpus $(REC_SEEDS)
	$(FUZZ)/webconfig -max_total_time=$(FUZZ_SECS) -max_len=4096 $(FUZZ)/web-corpus
	$(FUZZ)/groups -max_total_time=$(FUZZ_SECS) -max_len=4096 $(FUZZ)/groups-corpus

fuzz-build: $(FUZZ)/parsers $(FUZZ)/recordings $(FUZZ)/webconfig $(FUZZ)/groups \
	    $(REC_SEEDS)/oom.rec
	@mkdir -p $(FUZZ)/corpus $(FUZZ)/rec-corpus $(FUZZ)/web-corpus $(FUZZ)/groups-corpus

$(REC_SEEDS)/oom.rec: tests/cli/golden/oom.rec $(BUILD)/memtop $(BUILD)/tests/hostile_rec
	@mkdir -p $(@D)
	$(call say,SEEDS,$(@D))
	$(Q)$(BUILD)/tests/hostile_rec $(@D)
	$(Q)$(BUILD)/memtop --record $(@D)/live.rec --cgroups -n 3 -d 0.2 -b >/dev/null || true
	$(Q)cp tests/cli/golden/oom.rec $@

$(FUZZ)/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC-FUZZ,$<)
	$(Q)$(FUZZ_COMPILE) -MMD -MP -c $< -o $@

$(FUZZ)/themes_builtin.o: $(BUILD)/themes_builtin.c
	@mkdir -p $(@D)
	$(call say,CC-FUZZ,$<)
	$(Q)$(FUZZ_COMPILE) -c $< -o $@

$(FUZZ)/parsers $(FUZZ)/recordings $(FUZZ)/webconfig $(FUZZ)/groups: $(FUZZ)/%: \
		$(FUZZ)/tests/fuzz/%.o $(FUZZ_CORE)
	$(call say,FUZZ,$@)
	$(Q)$(CLANG) -fsanitize=fuzzer,address,undefined $(LDFLAGS) $^ $(MT_LDLIBS) $(LDLIBS) -o $@

install: $(BUILD)/memtop $(BUILD)/memtop.1
	install -D -m 755 $(BUILD)/memtop $(DESTDIR)$(PREFIX)/bin/memtop
	install -d $(DESTDIR)$(PREFIX)/share/memtop/themes
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/memtop/themes/
	install -D -m 644 $(BUILD)/memtop.1 $(DESTDIR)$(PREFIX)/share/man/man1/memtop.1
	install -d $(DESTDIR)$(PREFIX)/share/doc/memtop
	install -m 644 README.md doc/*.md $(DESTDIR)$(PREFIX)/share/doc/memtop/

# a Debian package in build/deb/ (memtop_VERSION_ARCH.deb), built by dpkg-buildpackage from
# debian/ and checked by lintian: scripts/deb.sh, doc/services.md
deb:
	@sh scripts/deps.sh deb
	@sh scripts/deb.sh

format:
	clang-format -i $(wildcard src/*/*.[ch] ui/*.[ch] man/*.c tests/unit/*.c tests/helpers/*.c bench/*.c)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
