# memtop: `make run` sets up, builds and starts; `make test` sets up, builds and tests.
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
BUILD    := build
VERSION  := 0.1.0
PREFIX   ?= /usr/local
PKGS     := libproc2 ncursesw libbpf libdw
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -DMEMTOP_VERSION='"$(VERSION)"' \
            -DMEMTOP_THEMES='"$(PREFIX)/share/memtop/themes"' \
            -Isrc -Iui -I$(BUILD) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lelf -lz -lm -pthread

BPF_SRC  := $(wildcard bpf/*.bpf.c)
BPF_OBJ  := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRC))
BPF_SKEL := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.skel.h,$(BPF_SRC))

CORE_SRC := $(filter-out src/main.c,$(wildcard src/*.c)) $(wildcard ui/*.c)
CORE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC)) $(BUILD)/theme_default.o
TEST_SRC := $(wildcard tests/unit/*.c)
HELPERS  := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(wildcard tests/helpers/*.c)) \
	    $(BUILD)/tests/dd_grow_nofp $(BUILD)/tests/cxx_grow

.PHONY: all deps run test unit clean format bench install fuzz
all: $(BUILD)/memtop $(BUILD)/unit_tests $(HELPERS)

deps:
	@sh scripts/deps.sh

run: deps
	@$(MAKE) --no-print-directory $(BUILD)/memtop
	$(BUILD)/memtop $(ARGS)

test: deps
	@$(MAKE) --no-print-directory all
	@sh tests/run.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@sh bench/run.sh

$(BUILD)/vmlinux.h:
	@mkdir -p $(@D)
	@echo "  BTF     $@"
	@$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(BUILD)/vmlinux.h
	@mkdir -p $(@D)
	@echo "  BPF     $<"
	@$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -I$(BUILD) -Ibpf -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@echo "  SKEL    $@"
	@$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# the default theme is compiled in, so memtop runs from anywhere
$(BUILD)/theme_default.c: themes/default.theme
	@mkdir -p $(@D)
	{ echo 'const char theme_default_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/%.o: %.c $(BPF_SKEL)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/memtop: $(BUILD)/src/main.o $(CORE_OBJ)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/unit_tests: $(patsubst %.c,$(BUILD)/%.o,$(TEST_SRC)) $(CORE_OBJ)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS) $^ $(LDLIBS) -lcmocka -o $@

# test helpers keep frame pointers so their stacks can be walked
$(BUILD)/tests/%: tests/helpers/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@

$(BUILD)/tests/cxx_grow: tests/helpers/cxx_grow.cc
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	@$(CXX) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror $< -o $@

# dd_grow again, without frame pointers: its stacks come back one frame deep
$(BUILD)/tests/dd_grow_nofp: tests/helpers/dd_grow.c
	@mkdir -p $(@D)
	@echo "  CC      $< (no frame pointers)"
	@$(CC) -O2 -fomit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@

# libFuzzer on the readers of untrusted text (tests/fuzz/parsers.c), with ASan and UBSan;
# FUZZ_SECS (60) of fuzzing, corpus in build/fuzz/corpus
FUZZ_SECS ?= 60
fuzz: deps $(BPF_SKEL) $(BUILD)/theme_default.c
	@mkdir -p $(BUILD)/fuzz/corpus
	@echo "  FUZZ    tests/fuzz/parsers.c"
	@$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(filter-out -O2,$(CFLAGS)) tests/fuzz/parsers.c $(CORE_SRC) $(BUILD)/theme_default.c \
		$(LDLIBS) -o $(BUILD)/fuzz/parsers
	$(BUILD)/fuzz/parsers -max_total_time=$(FUZZ_SECS) -max_len=4096 $(BUILD)/fuzz/corpus

install: $(BUILD)/memtop
	install -D -m 755 $(BUILD)/memtop $(DESTDIR)$(PREFIX)/bin/memtop
	install -d $(DESTDIR)$(PREFIX)/share/memtop/themes
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/memtop/themes/

format:
	clang-format -i $(wildcard src/*.[ch] ui/*.[ch] tests/unit/*.c tests/helpers/*.c bench/*.c)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
