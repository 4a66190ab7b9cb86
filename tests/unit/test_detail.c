#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "detail.h"
#include "kallsyms.h"
#include "stacks.h"
#include "symbolize.h"
#include "unit.h"
#include "util.h"

static const char rollup[] =
	"55d1c0a1e000-7ffd4e5f5000 ---p 00000000 00:00 0                          [rollup]\n"
	"Rss:              104008 kB\n"
	"Pss:              102665 kB\n"
	"Pss_Dirty:        102508 kB\n"
	"Pss_Anon:         102508 kB\n"
	"Pss_File:            157 kB\n"
	"Pss_Shmem:             0 kB\n"
	"Shared_Clean:       1488 kB\n"
	"Shared_Dirty:          4 kB\n"
	"Private_Clean:        12 kB\n"
	"Private_Dirty:    102504 kB\n"
	"Referenced:       104008 kB\n"
	"Anonymous:        102508 kB\n"
	"KSM:                   0 kB\n"
	"LazyFree:              0 kB\n"
	"AnonHugePages:      2048 kB\n"
	"ShmemPmdMapped:        0 kB\n"
	"FilePmdMapped:         0 kB\n"
	"Shared_Hugetlb:        0 kB\n"
	"Private_Hugetlb:       0 kB\n"
	"Swap:                 64 kB\n"
	"SwapPss:              32 kB\n"
	"Locked:                8 kB\n";

static void rollup_fields(void **state)
{
	(void)state;
	struct dd_breakdown b = {0};

	assert_int_equal(parse_smaps_rollup(rollup, &b), 0);
	assert_true(b.have_rollup);
	assert_int_equal(b.rss, 104008);
	assert_int_equal(b.pss, 102665); /* not Pss_Dirty */
	assert_int_equal(b.pss_anon, 102508);
	assert_int_equal(b.pss_file, 157);
	assert_int_equal(b.shared_clean, 1488);
	assert_int_equal(b.shared_dirty, 4);
	assert_int_equal(b.private_clean, 12);
	assert_int_equal(b.private_dirty, 102504);
	assert_int_equal(b.uss, 12 + 102504);
	assert_int_equal(b.anonymous, 102508);
	assert_int_equal(b.anon_huge, 2048);
	assert_int_equal(b.swap, 64); /* not SwapPss */
	assert_int_equal(b.swap_pss, 32);
	assert_int_equal(b.locked, 8);

	struct dd_breakdown e = {0};

	assert_int_equal(parse_smaps_rollup("", &e), -1);
	assert_false(e.have_rollup);
	assert_int_equal(parse_smaps_rollup("Rssx: 5 kB\nRss: x kB\n", &e), -1);
}

static void status_fields(void **state)
{
	(void)state;
	struct dd_breakdown b = {0};
	const char *t = "Name:\tweb server\nUmask:\t0022\nState:\tS (sleeping)\n"
			"VmSize:\t  107880 kB\nVmLck:\t       0 kB\nRssAnon:\t  102504 kB\n"
			"RssFile:\t    1500 kB\nRssShmem:\t      16 kB\nVmPTE:\t     248 kB\n"
			"VmSwap:\t      64 kB\nHugetlbPages:\t    2048 kB\n";

	assert_int_equal(parse_status_detail(t, &b), 0);
	assert_string_equal(b.comm, "web server");
	assert_int_equal(b.vm_size, 107880);
	assert_int_equal(b.rss_anon, 102504);
	assert_int_equal(b.rss_file, 1500);
	assert_int_equal(b.rss_shmem, 16);
	assert_int_equal(b.pgtables, 248);
	assert_int_equal(b.vm_swap, 64);
	assert_int_equal(b.hugetlb, 2048);

	struct dd_breakdown n = {0};

	assert_int_equal(parse_status_detail("Umask:\t0022\nName:\tx\n", &n), 0);
	assert_string_equal(n.comm, "x");
	assert_int_equal(parse_status_detail("nothing here\n", &n), -1);
	/* the kernel escapes a name's backslash and newline in status: the name as it is */
	assert_int_equal(parse_status_detail("Name:\t7_back\\\\slash\n", &n), 0);
	assert_string_equal(n.comm, "7_back\\slash");
	assert_int_equal(parse_status_detail("Name:\tline\\none\\\\\n", &n), 0);
	assert_string_equal(n.comm, "line\none\\");
}

static void cgroup_paths(void **state)
{
	(void)state;
	char out[128];

	assert_int_equal(
		parse_proc_memcg("9:name=systemd:/\n4:memory:/box/a\n0::/\n", out, sizeof(out)), 0);
	assert_string_equal(out, "/box/a");
	assert_int_equal(parse_proc_memcg("5:cpu,memory,blkio:/both\n0::/uni\n", out, sizeof(out)),
			 0);
	assert_string_equal(out, "/both");
	assert_int_equal(parse_proc_memcg("0::/user.slice/u.scope\n", out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/u.scope");
	/* "memoryx" is not the memory controller */
	assert_int_equal(parse_proc_memcg("3:memoryx:/no\n", out, sizeof(out)), -1);
	assert_int_equal(parse_proc_memcg("", out, sizeof(out)), -1);
}

static const char smaps[] =
	"5581d2a00000-5581d2a01000 r--p 00000000 fe:00 247498                     /usr/bin/my "
	"prog\n"
	"Size:                  4 kB\n"
	"Rss:                   4 kB\n"
	"Pss:                   2 kB\n"
	"Shared_Dirty:          0 kB\n"
	"Private_Dirty:         0 kB\n"
	"Swap:                  0 kB\n"
	"VmFlags: rd mr mw me \n"
	"5581d3000000-5581d3021000 rw-p 00000000 00:00 0                          [heap]\n"
	"Size:                132 kB\n"
	"Rss:                  12 kB\n"
	"Pss:                  12 kB\n"
	"Shared_Dirty:          4 kB\n"
	"Private_Dirty:         8 kB\n"
	"Anonymous:            12 kB\n"
	"Swap:                  8 kB\n"
	"Locked:                4 kB\n"
	"7f0000000000-7f0006400000 rw-p 00000000 00:00 0 \n"
	"Size:             102400 kB\n"
	"Rss:              102400 kB\n"
	"Private_Dirty:    102400 kB\n"
	"Anonymous:        102400 kB\n"
	"7f0006400000-7f0006401000 r-xp 00001000 fe:00 247498                     /usr/bin/my "
	"prog\n"
	"Size:                  4 kB\n"
	"Rss:                   4 kB\n"
	"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]\n"
	"Size:                132 kB\n"
	"Rss:                  16 kB\n";

static void smaps_mappings(void **state)
{
	(void)state;
	struct detail d;

	detail_init(&d);
	assert_int_equal(parse_smaps(smaps, &d.maps, &d.nmaps), 0);
	assert_int_equal(d.nmaps, 5);
	assert_string_equal(d.maps[0].path, "/usr/bin/my prog");
	assert_int_equal(d.maps[0].kind, DD_MAP_FILE);
	assert_string_equal(d.maps[0].perms, "r--p");
	assert_int_equal(d.maps[0].inode, 247498);
	assert_int_equal(d.maps[0].pss, 2);
	assert_int_equal(d.maps[1].kind, DD_MAP_HEAP);
	assert_int_equal(d.maps[1].size, 132);
	assert_int_equal(d.maps[1].rss, 12);
	assert_int_equal(d.maps[1].dirty, 12); /* shared + private */
	assert_int_equal(d.maps[1].swap, 8);
	assert_int_equal(d.maps[1].locked, 4);
	assert_int_equal(d.maps[2].kind, DD_MAP_ANON);
	assert_string_equal(dd_map_label(&d.maps[2]), "[anon]");
	assert_int_equal(d.maps[2].start, 0x7f0000000000ULL);
	assert_int_equal(d.maps[2].end, 0x7f0006400000ULL);
	assert_int_equal(d.maps[2].size, 102400);
	assert_int_equal(d.maps[3].offset, 0x1000);
	assert_int_equal(d.maps[4].kind, DD_MAP_STACK);

	/* addresses to mappings, before grouping re-sorts them */
	assert_ptr_equal(detail_find_map(&d, 0x7f0000000000ULL), &d.maps[2]);
	assert_ptr_equal(detail_find_map(&d, 0x7f00063fffffULL), &d.maps[2]);
	assert_ptr_equal(detail_find_map(&d, 0x7f0006400000ULL), &d.maps[3]);
	assert_ptr_equal(detail_find_map(&d, 0x5581d2a00fffULL), &d.maps[0]);
	assert_null(detail_find_map(&d, 0x5581d2a01000ULL));
	assert_null(detail_find_map(&d, 0x1000));
	assert_null(detail_find_map(&d, 0xffffffffffffffffULL));

	d.maps[2].faults = 25600;
	d.maps[0].faults = 3;
	d.maps[3].faults = 4;
	detail_group(&d);
	/* mappings by RSS, largest first */
	assert_int_equal(d.maps[0].rss, 102400);
	assert_int_equal(d.maps[1].rss, 16);
	assert_int_equal(d.maps[2].rss, 12);
	/* files: one per label, by RSS */
	assert_int_equal(d.nfiles, 4);
	assert_string_equal(d.files[0].path, "[anon]");
	assert_int_equal(d.files[0].faults, 25600);
	assert_string_equal(d.files[1].path, "[stack]");
	assert_string_equal(d.files[2].path, "[heap]");
	assert_string_equal(d.files[3].path, "/usr/bin/my prog");
	assert_int_equal(d.files[3].nmaps, 2);
	assert_int_equal(d.files[3].size, 8);
	assert_int_equal(d.files[3].rss, 8);
	assert_int_equal(d.files[3].faults, 7);
	detail_clear(&d);
	assert_int_equal(d.nmaps, 0);

	assert_int_equal(parse_smaps("Rss: 4 kB\n", &d.maps, &d.nmaps), -1);
	assert_int_equal(parse_smaps("zz-10 r--p 0 0:0 0\n", &d.maps, &d.nmaps), -1);
	detail_clear(&d);

	/* no mappings at all (a kernel thread): nothing to group or find */
	detail_group(&d);
	assert_int_equal(d.nfiles, 0);
	assert_null(detail_find_map(&d, 0x1000));
	detail_clear(&d);
}

/* Where a user frame can lie: the executable mappings, adjacent ones joined. A walk's
 * frames are kept up to the first outside them. */
static void exec_ranges(void **state)
{
	(void)state;
	static const char maps[] =
		"5581d2a00000-5581d2a01000 r--p 00000000 fe:00 247498 /usr/bin/prog\n"
		"5581d2a01000-5581d2a05000 r-xp 00001000 fe:00 247498 /usr/bin/prog\n"
		"5581d2a05000-5581d2a06000 r-xp 00005000 fe:00 247498 /usr/bin/prog\n"
		"5581d3000000-5581d3021000 rw-p 00000000 00:00 0 [heap]\n"
		"7f0006400000-7f0006401000 r-xp 00001000 fe:00 4711 /lib/libc.so.6\n"
		"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]\n"
		"7ffc00100000-7ffc00102000 r-xp 00000000 00:00 0 [vdso]\n";
	struct dd_range *r = NULL;
	size_t cap = 0, n;
	struct detail d;

	detail_init(&d);
	assert_int_equal(parse_smaps(maps, &d.maps, &d.nmaps), 0);
	n = detail_exec_ranges(&d, &r, &cap);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].start, 0x5581d2a01000ULL);
	assert_int_equal(r[0].end, 0x5581d2a06000ULL);
	assert_int_equal(r[1].start, 0x7f0006400000ULL);
	assert_int_equal(r[2].end, 0x7ffc00102000ULL);

	uint64_t good[] = {0x5581d2a01000ULL, 0x7f0006400fffULL, 0x7ffc00100010ULL,
			   0x5581d2a05fffULL};
	uint64_t junk[] = {0x5581d2a04000ULL, 0x7f0006400100ULL, 0x3d, 0x7f0006400200ULL};
	uint64_t text[] = {0x3676496173783957ULL, 0x5581d2a04000ULL};
	uint64_t edges[] = {0x5581d2a04000ULL, 0x5581d2a06000ULL};
	uint64_t data[] = {0x5581d2a04000ULL, 0x5581d3000010ULL, 0x7ffc00000100ULL};

	assert_int_equal(dd_exec_prefix(r, n, good, 4), 4);
	assert_int_equal(dd_exec_prefix(r, n, junk, 4), 2);
	assert_int_equal(dd_exec_prefix(r, n, text, 2), 0);
	assert_int_equal(dd_exec_prefix(r, n, edges, 2), 1); /* end is outside */
	assert_int_equal(dd_exec_prefix(r, n, data, 3), 1);  /* heap, stack: no code */
	assert_int_equal(dd_exec_prefix(r, n, good, 0), 0);
	assert_int_equal(dd_exec_prefix(r, 0, good, 4), 0);
	/* read again into the same array */
	assert_int_equal(detail_exec_ranges(&d, &r, &cap), 3);
	detail_clear(&d);
	assert_int_equal(detail_exec_ranges(&d, &r, &cap), 0);
	free(r);
}

/* a stack of kind with nkernel kernel frames, then user frames: ips[0..n) */
static void add_stack(struct detail *d, enum stack_kind kind, uint64_t count, uint64_t bytes,
		      bool truncated, int nkernel, const uint64_t *ips, int n)
{
	struct dd_stack *s;

	d->stacks = xrealloc(d->stacks, (d->nstacks + 1) * sizeof(*d->stacks));
	s = &d->stacks[d->nstacks++];
	*s = (struct dd_stack){.kind = kind,
			       .count = count,
			       .samples = count / 64,
			       .bytes = bytes,
			       .nframes = n,
			       .nkernel = nkernel,
			       .truncated = truncated};
	s->frames = xcalloc((size_t)(n ? n : 1), sizeof(*s->frames));
	for (int i = 0; i < n; i++)
		s->frames[i] = (struct dd_frame){.ip = ips[i],
						 .kernel = i < nkernel,
						 .symbol = xstrdup("f"),
						 .module = xstrdup("m")};
}

/* Stacks that became the same once cut are one: counts, samples and bytes added, and
 * truncated; other kinds, other frames, other kernel frames stay apart. */
static void merge_stacks(void **state)
{
	(void)state;
	const uint64_t a[] = {0xffffffff81000c82ULL, 0x401000, 0x402000};
	const uint64_t b[] = {0xffffffff81000c82ULL, 0x401000};
	const uint64_t c[] = {0xffffffff81000d00ULL, 0x401000, 0x402000};
	struct detail d;

	detail_init(&d);
	add_stack(&d, STACK_FAULT, 64, 4096, true, 1, a, 3);
	add_stack(&d, STACK_MMAP, 1, 8192, true, 1, a, 3);
	add_stack(&d, STACK_FAULT, 640, 40960, false, 1, b, 2);
	add_stack(&d, STACK_FAULT, 128, 8192, false, 1, a, 3);
	add_stack(&d, STACK_FAULT, 64, 4096, true, 1, c, 3);
	add_stack(&d, STACK_FAULT, 128, 8192, true, 1, a, 3);
	add_stack(&d, STACK_MMAP, 2, 4096, false, 1, a, 3);
	add_stack(&d, STACK_FAULT, 0, 0, false, 0, NULL, 0);
	detail_merge_stacks(&d);
	assert_int_equal(d.nstacks, 5);
	/* by count */
	assert_int_equal(d.stacks[0].count, 640);
	assert_int_equal(d.stacks[0].nframes, 2);
	assert_false(d.stacks[0].truncated);
	assert_int_equal(d.stacks[1].kind, STACK_FAULT);
	assert_int_equal(d.stacks[1].count, 320);
	assert_int_equal(d.stacks[1].samples, 5);
	assert_int_equal(d.stacks[1].bytes, 20480);
	assert_true(d.stacks[1].truncated);
	assert_int_equal(d.stacks[1].frames[2].ip, 0x402000);
	assert_int_equal(d.stacks[2].count, 64); /* another kernel frame */
	assert_int_equal(d.stacks[2].frames[0].ip, 0xffffffff81000d00ULL);
	assert_int_equal(d.stacks[3].kind, STACK_MMAP);
	assert_int_equal(d.stacks[3].count, 3);
	assert_int_equal(d.stacks[3].bytes, 12288);
	assert_true(d.stacks[3].truncated);
	assert_int_equal(d.stacks[4].nframes, 0);
	detail_clear(&d);
	detail_merge_stacks(&d);
	assert_int_equal(d.nstacks, 0);
}

/* The kernel's own two views of this process agree with what detail_read makes of
 * them: per-mapping RSS (smaps) adds up to the rollup's. */
static void read_self(void **state)
{
	(void)state;
	struct detail d;
	uint64_t sum = 0;

	detail_init(&d);
	assert_int_equal(detail_read(getpid(), &d), 0);
	assert_string_equal(d.err, "");
	assert_true(d.b.have_rollup);
	assert_true(d.b.have_status);
	assert_true(d.b.have_oom);
	assert_string_equal(d.b.comm, "unit_tests");
	assert_true(d.nmaps > 5);
	for (size_t i = 0; i < d.nmaps; i++)
		sum += d.maps[i].rss;
	/* the two files are read one after the other; allocations in between may move
	 * the figures a little */
	assert_true(sum + 1024 > d.b.rss && d.b.rss + 1024 > sum);
	assert_true(d.b.rss >= d.b.uss && d.b.rss >= d.b.pss);
	detail_clear(&d);

	assert_int_equal(detail_read(0x7ffffff0, &d), -1);
	assert_int_equal(errno, ESRCH);
	assert_true(d.gone);
	detail_clear(&d);
}

static void drill_without_bpf(void **state)
{
	(void)state;
	struct detail d;
	struct drill *dr = drill_open(getpid(), true, 64);

	assert_non_null(dr);
	assert_non_null(drill_stacks_off(dr));
	detail_init(&d);
	assert_int_equal(drill_collect(dr, &d), 0);
	assert_false(d.st.on);
	assert_non_null(strstr(d.st.why, "--no-bpf"));
	assert_true(d.nmaps > 5 && d.nfiles > 2);
	for (size_t i = 1; i < d.nmaps; i++)
		assert_true(d.maps[i - 1].rss >= d.maps[i].rss);
	detail_clear(&d);
	drill_close(dr);
	errno = 0;
	assert_null(drill_open(0x7ffffff0, true, 64));
	assert_int_equal(errno, ESRCH);
}

static void kallsyms_lines(void **state)
{
	(void)state;
	uint64_t a;
	char type, name[64], mod[64];

	assert_int_equal(parse_kallsyms_line("ffffffff81000000 T _stext\n", &a, &type, name,
					     sizeof(name), mod, sizeof(mod)),
			 0);
	assert_int_equal(a, 0xffffffff81000000ULL);
	assert_int_equal(type, 'T');
	assert_string_equal(name, "_stext");
	assert_string_equal(mod, "");
	assert_int_equal(parse_kallsyms_line("ffffffffc0a01010 t ext4_fill_super\t[ext4]\n", &a,
					     &type, name, sizeof(name), mod, sizeof(mod)),
			 0);
	assert_string_equal(name, "ext4_fill_super");
	assert_string_equal(mod, "ext4");
	assert_int_equal(parse_kallsyms_line("nothex T x\n", &a, &type, name, sizeof(name), mod,
					     sizeof(mod)),
			 -1);
	assert_int_equal(
		parse_kallsyms_line("ffff T\n", &a, &type, name, sizeof(name), mod, sizeof(mod)),
		-1);
}

__attribute__((noinline)) int dd_unit_marker(int x);
__attribute__((noinline)) int dd_unit_marker(int x)
{
	return x * 3 + 1;
}

/* libdwfl on this very process: a function's address comes back as its name, the
 * offset and this executable as the module. */
static void symbolize_self(void **state)
{
	(void)state;
	struct symbolizer *s = symbolizer_new(getpid());
	struct sym_frame f;
	uint64_t addr = (uint64_t)(uintptr_t)&dd_unit_marker;

	assert_non_null(s);
	symbolize_user(s, addr + 2, false, &f);
	assert_true(f.found);
	assert_string_equal(f.symbol, "dd_unit_marker");
	assert_int_equal(f.offset, 2);
	assert_non_null(strstr(f.module, "unit_tests"));
	/* a return address just past the function's end still names it */
	symbolize_user(s, addr + 1, true, &f);
	assert_string_equal(f.symbol, "dd_unit_marker");
	assert_int_equal(f.offset, 1);
	assert_true(symbolizer_in_function(s, addr));
	assert_false(symbolizer_in_function(s, 0x10));
	symbolize_user(s, 0x10, false, &f);
	assert_false(f.found);
	/* libc's mmap is a leaf that sets up no frame */
	assert_int_equal(symbolizer_frame_set_up(s, (uint64_t)(uintptr_t)&mmap + 4), 0);
	assert_int_equal(symbolizer_refresh(s), 0);
	symbolize_user(s, addr, false, &f);
	assert_string_equal(f.symbol, "dd_unit_marker");
	symbolizer_free(s);
	assert_null(symbolizer_new(0x7ffffff0));
}

/* A kernel address from /proc/kallsyms (readable as root) comes back as that symbol. */
static void symbolize_kernel_text(void **state)
{
	(void)state;
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], type, name[SYM_NAME_LEN], mod[64], want[SYM_NAME_LEN] = "";
	uint64_t a, addr = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (parse_kallsyms_line(line, &a, &type, name, sizeof(name), mod, sizeof(mod)) ||
		    (type != 'T' && type != 't') || mod[0] || !a)
			continue;
		if (!strcmp(name, "do_exit")) {
			addr = a;
			snprintf(want, sizeof(want), "%s", name);
			break;
		}
	}
	fclose(f);
	if (!addr)
		skip(); /* kernel addresses hidden (kptr_restrict, not root) */
	struct symbolizer *s = symbolizer_new(getpid());
	struct sym_frame out[2];
	uint64_t ips[2] = {addr + 5, 0x10};

	symbolize_kernel(s, ips, 2, out);
	assert_true(out[0].kernel);
	assert_string_equal(out[0].symbol, want);
	assert_int_equal(out[0].offset, 5);
	assert_string_equal(out[0].module, "[kernel]");
	assert_false(out[1].found);
	symbolizer_free(s);
}

/* Each reason a stack ends early: its JSON name, one of its own, and its text */
static void trunc_kinds(void **state)
{
	(void)state;
	char depth[64];
	for (int k = TRUNC_NONE + 1; k < TRUNC_KINDS; k++) {
		assert_non_null(stack_truncs[k].name);
		assert_non_null(stack_truncs[k].reason);
		assert_true(stack_truncs[k].name[0] && stack_truncs[k].reason[0]);
		for (int j = 1; j < k; j++)
			assert_string_not_equal(stack_truncs[j].name, stack_truncs[k].name);
	}
	snprintf(depth, sizeof(depth), "deeper than %d frames", STACKS_DEPTH);
	assert_string_equal(stack_truncs[TRUNC_DEPTH].reason, depth);
}

UNIT_GROUP(detail)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rollup_fields),     cmocka_unit_test(trunc_kinds),
		cmocka_unit_test(status_fields),     cmocka_unit_test(cgroup_paths),
		cmocka_unit_test(smaps_mappings),    cmocka_unit_test(exec_ranges),
		cmocka_unit_test(merge_stacks),	     cmocka_unit_test(read_self),
		cmocka_unit_test(drill_without_bpf), cmocka_unit_test(kallsyms_lines),
		cmocka_unit_test(symbolize_self),    cmocka_unit_test(symbolize_kernel_text),
	};
	return cmocka_run_group_tests_name("detail", tests, NULL, NULL);
}
