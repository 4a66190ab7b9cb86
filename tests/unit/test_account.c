/* The memory account: the split of a made-up meminfo (its parts, that they sum to
 * MemTotal, the other kernel negative where values overlap, a value missing), the kernel
 * stacks vmalloc maps, the change per minute, the largest details first; and the parsers
 * of its files (mountinfo's tmpfs lines, /proc/sysvipc/shm, vmallocinfo's stacks). */
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "account_files.h"
#include "procfs.h"
#include "unit.h"

static const char meminfo[] = "MemTotal:       1000000 kB\n"
			      "MemFree:         400000 kB\n"
			      "Buffers:          10000 kB\n"
			      "Cached:          250000 kB\n"
			      "SwapCached:        1000 kB\n"
			      "AnonPages:       150000 kB\n"
			      "Mapped:           30000 kB\n"
			      "Shmem:            50000 kB\n"
			      "Dirty:             2000 kB\n"
			      "SReclaimable:     60000 kB\n"
			      "SUnreclaim:       20000 kB\n"
			      "KernelStack:       4000 kB\n"
			      "PageTables:        5000 kB\n"
			      "VmallocUsed:      12000 kB\n"
			      "Percpu:            1000 kB\n"
			      "Zswap:             3000 kB\n"
			      "HugePages_Total:      10\n"
			      "Hugepagesize:       2048 kB\n"
			      "Hugetlb:          20480 kB\n";

static void snap_of(struct snapshot *s, const char *text, double mono)
{
	memset(s, 0, sizeof(*s));
	s->mono = mono;
	s->page_kb = 4;
	uint64_t present;
	if (parse_meminfo(text, s->mem, &present))
		present = 0; /* no MemTotal */
	s->mem_presence = present ^ MI_PRESENT_DEFAULT;
}

static void split(void **state)
{
	(void)state;
	struct snapshot s;
	struct account a = {0};
	snap_of(&s, meminfo, 1);
	account_update(&a, &s);
	assert_true(a.valid);
	assert_int_equal(a.kb[AP_ANON], 150000);
	assert_int_equal(a.kb[AP_PAGE_CACHE], 250000 - 50000 + 10000); /* Cached holds Shmem */
	assert_int_equal(a.kb[AP_SWAP_CACHE], 1000);
	assert_int_equal(a.kb[AP_SHMEM], 50000);
	assert_int_equal(a.kb[AP_SLAB_RECLAIMABLE], 60000);
	assert_int_equal(a.kb[AP_SLAB_UNRECLAIMABLE], 20000);
	assert_int_equal(a.kb[AP_PAGE_TABLES], 5000);
	assert_int_equal(a.kb[AP_KERNEL_STACKS], 4000);
	assert_int_equal(a.kb[AP_VMALLOC], 12000); /* no stacks seen in vmallocinfo */
	assert_int_equal(a.kb[AP_PERCPU], 1000);
	assert_int_equal(a.kb[AP_HUGE_PAGES], 20480);
	assert_int_equal(a.kb[AP_ZSWAP], 3000);
	assert_int_equal(a.kb[AP_FREE], 400000);
	assert_int_equal(a.kb[AP_OTHER_KERNEL], 1000000 - 400000 - 210000 - 1000 - 150000 - 50000 -
							60000 - 20000 - 5000 - 4000 - 12000 - 1000 -
							20480 - 3000);
	assert_int_equal(a.sum_kb, 1000000);
	assert_int_equal(a.known, (1u << AP_COUNT) - 1);
	assert_true(a.dirty_known && a.dirty_kb == 2000 && a.mapped_kb == 30000);
	assert_int_equal(a.trend, 0); /* one sample */
	assert_true(account_share(&a, AP_FREE) > 39.99 && account_share(&a, AP_FREE) < 40.01);
}

/* Values that overlap more than MemTotal leaves: the other kernel is negative, the sum
 * still MemTotal */
static void negative_other(void **state)
{
	(void)state;
	struct snapshot s;
	struct account a = {0};
	snap_of(&s, "MemTotal: 1000 kB\nMemFree: 600 kB\nAnonPages: 500 kB\n", 1);
	account_update(&a, &s);
	assert_int_equal(a.kb[AP_OTHER_KERNEL], -100);
	assert_int_equal(a.sum_kb, 1000);
	/* the values the kernel lacks: their parts unknown, 0 */
	assert_false(a.known & (1u << AP_ZSWAP));
	assert_false(a.known & (1u << AP_PAGE_CACHE));
	assert_true(a.known & (1u << AP_ANON));
	/* no MemTotal: no account */
	snap_of(&s, "MemTotal: 0 kB\nMemFree: 600 kB\n", 2);
	account_update(&a, &s);
	assert_false(a.valid);
}

/* The kernel stacks vmallocinfo shows leave the vmalloc part; remembered when it is not
 * read, as KernelStack */
static void vmapped_stacks(void **state)
{
	(void)state;
	struct snapshot s;
	struct account a = {0};
	snap_of(&s, meminfo, 1);
	s.acct.read = s.acct.stacks_read = true;
	s.acct.vmalloc_stacks_kb = 3500;
	account_update(&a, &s);
	assert_int_equal(a.kb[AP_VMALLOC], 12000 - 3500);
	assert_int_equal(a.sum_kb, 1000000);
	snap_of(&s, meminfo, 2);
	account_update(&a, &s);
	assert_int_equal(a.kb[AP_VMALLOC], 12000 - 4000);
}

static void per_minute(void **state)
{
	(void)state;
	struct snapshot s;
	struct account a = {0};
	char text[sizeof(meminfo) + 64];
	snap_of(&s, meminfo, 10);
	account_update(&a, &s);
	/* 30 s later Shmem and Cached are 30 MB more, MemFree 30 MB less */
	strcpy(text, meminfo);
	memcpy(strstr(text, "Shmem:            50000"), "Shmem:            80000", 23);
	memcpy(strstr(text, "Cached:          250000"), "Cached:          280000", 23);
	memcpy(strstr(text, "MemFree:         400000"), "MemFree:         370000", 23);
	snap_of(&s, text, 40);
	account_update(&a, &s);
	assert_true(a.trend & (1u << AP_SHMEM));
	assert_true(a.per_min[AP_SHMEM] > 59999 && a.per_min[AP_SHMEM] < 60001);
	assert_true(a.per_min[AP_FREE] < -59999 && a.per_min[AP_FREE] > -60001);
	assert_true(a.per_min[AP_PAGE_CACHE] > -1 && a.per_min[AP_PAGE_CACHE] < 1);
}

static void largest_first(void **state)
{
	(void)state;
	struct snapshot s;
	struct account a = {0};
	struct tmpfs_mount m[7];
	struct shm_segment g[3] = {{.shmid = 1, .size_kb = 10},
				   {.shmid = 2, .size_kb = 30},
				   {.shmid = 3, .size_kb = 20, .rss_kb = 8}};
	for (int i = 0; i < 7; i++)
		m[i] = (struct tmpfs_mount){.used_kb = (uint64_t)(i * 37 % 7), .size_kb = 100};
	snap_of(&s, meminfo, 1);
	s.acct = (struct account_files){
		.read = true, .mounts = m, .nmounts = 7, .segs = g, .nsegs = 3};
	account_update(&a, &s);
	assert_true(a.details);
	assert_int_equal(a.ntmpfs, ACCOUNT_TOP_TMPFS);
	assert_int_equal(a.tmpfs_all, 7);
	assert_int_equal(a.tmpfs[0].used_kb, 6);
	assert_int_equal(a.tmpfs[4].used_kb, 2);
	assert_int_equal(a.tmpfs_used_kb, 21);
	assert_int_equal(a.nshm, 3);
	assert_int_equal(a.shm[0].shmid, 2);
	assert_int_equal(a.shm[2].shmid, 1);
	assert_int_equal(a.shm_size_kb, 60);
	assert_int_equal(a.shm_rss_kb, 8);
}

static void files(void **state)
{
	(void)state;
	char path[64];
	unsigned long dev;
	struct account_files f = {0};

	assert_true(parse_tmpfs_mount("25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw\n", path,
				      sizeof(path), &dev));
	assert_string_equal(path, "/dev/shm");
	assert_true(parse_tmpfs_mount("40 24 0:41 / /mnt/a\\040b rw shared:5 - tmpfs x rw\n", path,
				      sizeof(path), &dev));
	assert_string_equal(path, "/mnt/a b");
	assert_false(parse_tmpfs_mount("24 27 0:6 / /dev rw - devtmpfs devtmpfs rw\n", path,
				       sizeof(path), &dev));
	assert_false(parse_tmpfs_mount("22 27 0:21 / /proc rw - proc proc rw\n", path, sizeof(path),
				       &dev));
	assert_false(parse_tmpfs_mount("junk - tmpfs \n", path, sizeof(path), &dev));

	assert_int_equal(parse_sysvipc_shm("nonsense\n", &f), -1);
	assert_int_equal(
		parse_sysvipc_shm(
			"       key      shmid perms                  size  cpid  lpid nattch   "
			"uid   "
			"gid  cuid  cgid      atime      dtime      ctime                   rss    "
			"              swap\n"
			"         0          3  1600              4194304  1200  1300      2     0 "
			"    "
			"0     0     0 1700000000 0 1700000000 1048576 0\n"
			"broken line\n",
			&f),
		0);
	assert_int_equal(f.nsegs, 1);
	assert_int_equal(f.segs[0].shmid, 3);
	assert_int_equal(f.segs[0].size_kb, 4096);
	assert_int_equal(f.segs[0].rss_kb, 1024);
	assert_int_equal(f.segs[0].nattch, 2);
	free(f.segs);

	assert_int_equal(parse_vmalloc_stack("0xffffc90000000000-0xffffc90000005000   20480 "
					     "alloc_thread_stack_node+0x4f/0x170 pages=4 vmalloc "
					     "N0=4\n",
					     4),
			 16);
	assert_int_equal(parse_vmalloc_stack("0xffffc9-0xffffca 8192 bpf_map_area_alloc+0x1 "
					     "pages=1 vmalloc\n",
					     4),
			 0);
	/* 6.18 names the function alloc_thread_stack_node was inlined into */
	assert_int_equal(parse_vmalloc_stack("0x000000004a71b577-0x00000000d0de853d   20480 "
					     "kernel_clone+0xb8/0x400 pages=4 vmalloc N0=4\n",
					     4),
			 16);
	assert_int_equal(parse_vmalloc_stack("0x00000000bda3496d-0x000000005420af65   20480 "
					     "fork_idle+0x9e/0x160 pages=4 vmalloc N0=4\n",
					     4),
			 16);
	assert_int_equal(parse_vmalloc_stack("0xffffc9-0xffffcb 36864 copy_process.part.0+0x1/0x2 "
					     "pages=8 vmalloc N0=8\n",
					     4),
			 32);
	assert_int_equal(parse_vmalloc_stack("0xffffc9-0xffffcb 20480 _do_fork+0x8a/0x390 "
					     "pages=4 vmalloc vpages N0=4\n",
					     4),
			 16);
	/* the IRQ stacks (vmap, not vmalloc), a function whose name begins like one of the
	 * fork path's, an area that is not a stack's size, a freed area */
	assert_int_equal(parse_vmalloc_stack("0x8877-0x3e67   20480 "
					     "irq_init_percpu_irqstack+0xed/0x120 vmap\n",
					     4),
			 0);
	assert_int_equal(parse_vmalloc_stack("0x1-0x2 20480 kernel_clone_extra+0x1/0x2 pages=4 "
					     "vmalloc N0=4\n",
					     4),
			 0);
	assert_int_equal(parse_vmalloc_stack("0x1-0x2 28672 kernel_clone+0x1/0x2 pages=6 "
					     "vmalloc N0=6\n",
					     4),
			 0);
	assert_int_equal(parse_vmalloc_stack("0x1-0x2 8192 unpurged vm_area\n", 4), 0);
}

UNIT_GROUP(account)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split),	  cmocka_unit_test(negative_other),
		cmocka_unit_test(vmapped_stacks), cmocka_unit_test(per_minute),
		cmocka_unit_test(largest_first),  cmocka_unit_test(files),
	};
	return cmocka_run_group_tests_name("account", tests, NULL, NULL);
}
