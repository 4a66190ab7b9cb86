#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pids.h"
#include "procfs.h"
#include "slabinfo.h"
#include "hidepid.h"
#include "unit.h"
#include "util.h"

static const char meminfo[] = "MemTotal:       24598212 kB\n"
			      "MemFree:        23870012 kB\n"
			      "MemAvailable:   24102100 kB\n"
			      "Buffers:            3688 kB\n"
			      "Cached:           345120 kB\n"
			      "SwapCached:            0 kB\n"
			      "Shmem:              1020 kB\n"
			      "SReclaimable:      42000 kB\n"
			      "SwapTotal:       1048572 kB\n"
			      "SwapFree:         1000000 kB\n";

static void meminfo_fields(void **state)
{
	(void)state;
	uint64_t m[MI_COUNT];
	assert_int_equal(parse_meminfo(meminfo, m, NULL), 0);
	assert_int_equal(m[MI_MEM_TOTAL], 24598212);
	assert_int_equal(m[MI_MEM_FREE], 23870012);
	assert_int_equal(m[MI_MEM_AVAILABLE], 24102100);
	assert_int_equal(m[MI_BUFFERS], 3688);
	assert_int_equal(m[MI_CACHED], 345120); /* not SwapCached */
	assert_int_equal(m[MI_SRECLAIMABLE], 42000);
	assert_int_equal(m[MI_SWAP_TOTAL], 1048572);
	assert_int_equal(m[MI_SWAP_FREE], 1000000);
}

static void meminfo_corrupt(void **state)
{
	(void)state;
	uint64_t m[MI_COUNT];
	assert_int_equal(parse_meminfo("", m, NULL), -1);
	assert_int_equal(parse_meminfo("MemTotal: x kB\nMemFree: 1 kB\n", m, NULL), -1);
	assert_int_equal(parse_meminfo("MemTotal: 10 kB\n", m, NULL), -1);
	assert_int_equal(parse_meminfo("MemTotal: 10 kB\nMemFree: 20 kB\n", m, NULL), -1);
	/* without MemAvailable (old kernels) it is estimated */
	assert_int_equal(
		parse_meminfo("MemTotal: 100 kB\nMemFree: 10 kB\nBuffers: 5 kB\nCached: 7 kB\n", m,
			      NULL),
		0);
	assert_int_equal(m[MI_MEM_AVAILABLE], 22);
}

static void meminfo_live(void **state)
{
	(void)state;
	char buf[16384];
	uint64_t m[MI_COUNT];
	assert_true(read_file("/proc/meminfo", buf, sizeof(buf)) > 0);
	assert_int_equal(parse_meminfo(buf, m, NULL), 0);
	assert_true(m[MI_MEM_TOTAL] >= m[MI_MEM_AVAILABLE]);
}

static void vmstat_fields(void **state)
{
	(void)state;
	uint64_t v[VS_COUNT];
	const char *t = "nr_free_pages 1\npgpgin 2\npswpin 17\npswpout 23\npgfault 1000\n"
			"pgmajfault 40\noom_kill 3\n";
	assert_int_equal(parse_vmstat(t, v, NULL), 0);
	assert_int_equal(v[VS_PGFAULT], 1000);
	assert_int_equal(v[VS_PGMAJFAULT], 40);
	assert_int_equal(v[VS_PSWPIN], 17);
	assert_int_equal(v[VS_PSWPOUT], 23);
	assert_int_equal(v[VS_OOM_KILL], 3);
	assert_int_equal(parse_vmstat("pgfault 1\n", v, NULL), -1);
	assert_int_equal(parse_vmstat("pgfaultx 1\npgmajfault 2\n", v, NULL), -1);
}

/* One pass: every key declared is read wherever its line is, a key the text lacks is
 * absent (its bit clear, its value 0), a count has no unit, the first of two lines with the
 * same key counts, and a sum row adds its key_SUFFIX lines */
static void meminfo_presence(void **state)
{
	(void)state;
	uint64_t m[MI_COUNT], present;
	const char *t = "HugePages_Total:      12\n"
			"Slab:             149816 kB\n"
			"MemTotal:       1000 kB\n"
			"Active(anon):       2764 kB\n"
			"MemFree:        100 kB\n"
			"Slab:                  1 kB\n"
			"SUnreclaim:        x kB\n"
			"Hugepagesize:       2048 kB\n";

	assert_int_equal(parse_meminfo(t, m, &present), 0);
	assert_int_equal(m[MI_SLAB], 149816);
	assert_int_equal(m[MI_ACTIVE_ANON], 2764);
	assert_int_equal(m[MI_HUGEPAGES_TOTAL], 12);
	assert_int_equal(m[MI_HUGEPAGESIZE], 2048);
	assert_true(present & 1ull << MI_SLAB && present & 1ull << MI_HUGEPAGES_TOTAL);
	assert_true(present & 1ull << MI_MEM_AVAILABLE); /* estimated */
	assert_false(present & 1ull << MI_ZSWAP);	 /* no zswap in this kernel */
	assert_false(present & 1ull << MI_SUNRECLAIM);	 /* unreadable */
	assert_false(present & 1ull << MI_SWAP_TOTAL);
	assert_int_equal(m[MI_ZSWAP], 0);
	assert_int_equal(m[MI_SUNRECLAIM], 0);
}

static void vmstat_presence(void **state)
{
	(void)state;
	uint64_t v[VS_COUNT], present;
	const char *t = "pgfault 1000\npgmajfault 40\nallocstall_dma 1\nallocstall_dma32 20\n"
			"allocstall_normal 300\nallocstall_movable 4000\npgscan_direct 7\n"
			"pgscan_direct_throttle 99\nworkingset_activate_anon 5\n"
			"workingset_activate_file 6\nworkingset_refault_file 8\nnuma_hit 9\n";

	assert_int_equal(parse_vmstat(t, v, &present), 0);
	assert_int_equal(v[VS_ALLOCSTALL], 4321);
	assert_int_equal(v[VS_PGSCAN_DIRECT], 7); /* not pgscan_direct_throttle */
	assert_int_equal(v[VS_WORKINGSET_ACTIVATE], 11);
	assert_int_equal(v[VS_WORKINGSET_REFAULT_FILE], 8);
	assert_int_equal(v[VS_NUMA_HIT], 9);
	assert_true(present & 1ull << VS_ALLOCSTALL && present & 1ull << VS_WORKINGSET_ACTIVATE);
	assert_false(present & 1ull << VS_WORKINGSET_REFAULT_ANON);
	assert_false(present & 1ull << VS_PGSCAN_KHUGEPAGED);
	assert_false(present & 1ull << VS_OOM_KILL);
	assert_false(present & 1ull << VS_COMPACT_STALL);
	/* before Linux 4.8, one allocstall line; before 5.9, one workingset_activate */
	assert_int_equal(parse_vmstat("pgfault 1\npgmajfault 2\nallocstall 5\n"
				      "workingset_activate 6\n",
				      v, &present),
			 0);
	assert_int_equal(v[VS_ALLOCSTALL], 5);
	assert_int_equal(v[VS_WORKINGSET_ACTIVATE], 6);
	assert_true(present & 1ull << VS_ALLOCSTALL);
}

/* Every value /proc/meminfo and /proc/vmstat of this kernel has is read as the file says */
static void presence_live(void **state)
{
	(void)state;
	static const char *const files[] = {"/proc/meminfo", "/proc/vmstat"};
	char buf[16384];

	for (int f = 0; f < 2; f++) {
		uint64_t vals[64], present;
		assert_true(read_file(files[f], buf, sizeof(buf)) > 0);
		assert_int_equal(f ? parse_vmstat(buf, vals, &present)
				   : parse_meminfo(buf, vals, &present),
				 0);
		assert_true(present & 1);
		assert_true(vals[0] > 0);
	}
}

static void psi_fields(void **state)
{
	(void)state;
	struct sys_psi p;
	const char *t = "some avg10=1.25 avg60=0.50 avg300=0.10 total=12345\n"
			"full avg10=0.75 avg60=0.20 avg300=0.05 total=6789\n";
	assert_int_equal(parse_psi(t, &p), 0);
	assert_true(p.present);
	assert_float_equal(p.some_avg10, 1.25, 1e-9);
	assert_float_equal(p.full_avg10, 0.75, 1e-9);
	assert_true(p.totals);
	assert_int_equal(p.some_total_us, 12345);
	assert_int_equal(p.full_total_us, 6789);
	assert_int_equal(parse_psi("some avg10=1.25 avg60=0.50 avg300=0.10\n", &p), 0);
	assert_false(p.totals);
	assert_int_equal(parse_psi("garbage", &p), -1);
	assert_false(p.present);
}

static void uptime_field(void **state)
{
	(void)state;
	double u;
	assert_int_equal(parse_uptime("350735.47 234388.90\n", &u), 0);
	assert_float_equal(u, 350735.47, 1e-6);
	assert_int_equal(parse_uptime("x", &u), -1);
}

/* Real lines of this kernel (6.18): init, with a negative nice; kthreadd; a zombie; a
 * process that named itself "x) S 1 (\n) R 9" (prctl PR_SET_NAME) */
static const char stat_init[] = "1 (process_api) S 0 0 0 0 -1 4194560 115482 238429450 0 5781909 "
				"1231 6987 246833 139373 10 -10 13 0 25 45481984 3641 "
				"18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 0 0 0 0 0 0 "
				"0 0 0 0 0 0 0\n";
static const char stat_kthreadd[] = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 1 0 0 0 20 0 1 0 25 "
				    "0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 0 "
				    "1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
static const char stat_zombie[] =
	"22858 (sleep) Z 22856 22850 694 0 -1 4227084 99 0 0 0 0 0 0 0 20 "
	"0 1 0 1236798 0 0 18446744073709551615 0 0 0 0 0 0 0 6 0 1 0 "
	"0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
static const char stat_evil[] =
	"23332 (x) S 1 (\n) R 9) R 23330 23330 694 0 -1 4194304 99 0 0 0 0 0 0 0 20 0 1 0 "
	"1237245 2535424 310 18446744073709551615 94581048582144 94581048582701 "
	"140731608254352 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 94581048593872 94581048594496 "
	"94581671292928 140731608259034 140731608259041 140731608259041 140731608260593 0\n";

static void stat_fields(void **state)
{
	(void)state;
	struct pid_stat st;

	assert_int_equal(parse_stat(stat_init, &st), 0);
	assert_int_equal(st.pid, 1);
	assert_string_equal(st.comm, "process_api");
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 0);
	assert_int_equal(st.flags, 4194560);
	assert_int_equal(st.minflt, 115482); /* field 10, not cminflt (11) */
	assert_int_equal(st.majflt, 0);	     /* field 12, not cmajflt (13) */
	assert_int_equal(st.start_ticks, 25);
	assert_false(st.flags & 0x00200000);

	assert_int_equal(parse_stat(stat_kthreadd, &st), 0);
	assert_int_equal(st.pid, 2);
	assert_string_equal(st.comm, "kthreadd");
	assert_true(st.flags & 0x00200000); /* PF_KTHREAD */
	assert_int_equal(st.start_ticks, 25);

	assert_int_equal(parse_stat(stat_zombie, &st), 0);
	assert_int_equal(st.pid, 22858);
	assert_int_equal(st.state, 'Z');
	assert_int_equal(st.ppid, 22856);
	assert_int_equal(st.minflt, 99);
	assert_int_equal(st.start_ticks, 1236798);
}

static void stat_untrusted_comm(void **state)
{
	(void)state;
	struct pid_stat st;

	/* the comm runs to the LAST ')': the ") R 9" inside it is no field */
	assert_int_equal(parse_stat(stat_evil, &st), 0);
	assert_int_equal(st.pid, 23332);
	assert_string_equal(st.comm, "x) S 1 (\n) R 9");
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.ppid, 23330);
	assert_int_equal(st.flags, 4194304);
	assert_int_equal(st.minflt, 99);
	assert_int_equal(st.start_ticks, 1237245);

	/* a name longer than the kernel's comm (a kernel worker's) is cut, never overrun */
	assert_int_equal(parse_stat("7 (kworker/u8:3-events_unbound) I 2 0 0 0 -1 69238880 0 0 0 0 "
				    "0 9 0 0 20 0 1 0 31 0 0 18446744073709551615\n",
				    &st),
			 0);
	assert_string_equal(st.comm, "kworker/u8:3-eve");
	assert_int_equal(st.start_ticks, 31);
	/* an empty name */
	assert_int_equal(parse_stat("9 () S 1 9 9 0 -1 0 5 0 6 0 0 0 0 0 20 0 1 0 77 0 0\n", &st),
			 0);
	assert_string_equal(st.comm, "");
	assert_int_equal(st.minflt, 5);
	assert_int_equal(st.majflt, 6);
	assert_int_equal(st.start_ticks, 77);
}

static void stat_corrupt(void **state)
{
	(void)state;
	struct pid_stat st;
	char cut[sizeof(stat_init)];

	assert_int_equal(parse_stat("", &st), -1);
	assert_int_equal(parse_stat("\n", &st), -1);
	/* no ')', no '(' or the ')' before the '(' */
	assert_int_equal(
		parse_stat("1 (init S 0 0 0 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
		-1);
	assert_int_equal(
		parse_stat("1 init) S 0 0 0 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
		-1);
	assert_int_equal(
		parse_stat("1 )init( S 0 0 0 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
		-1);
	/* no pid, a negative one, or one past 32 bits */
	assert_int_equal(
		parse_stat("(init) S 0 0 0 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st), -1);
	assert_int_equal(
		parse_stat("-1 (init) S 0 0 0 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
		-1);
	assert_int_equal(
		parse_stat("4294967297 (a) S 0 0 0 0 -1 0 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
		-1);
	/* letters where numbers belong, a negative fault count, no state */
	assert_int_equal(parse_stat("1 (a) S 0 0 0 0 -1 x 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
			 -1);
	assert_int_equal(parse_stat("1 (a) S 0 0 0 0 -1 0 -1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
			 -1);
	assert_int_equal(parse_stat("1 (a)  0 0 0 0 -1 0 1 0 0 0 0 0 0 0 20 0 1 0 25 0\n", &st),
			 -1);
	/* a number too large for 64 bits */
	assert_int_equal(
		parse_stat("1 (a) S 0 0 0 0 -1 0 18446744073709551616 0 0 0 0 0 0 0 20 0 1 0 "
			   "25 0\n",
			   &st),
		-1);
	/* cut anywhere before the field after starttime: every cut fails */
	for (size_t n = 0; n < sizeof(stat_init); n++) {
		memcpy(cut, stat_init, n);
		cut[n] = '\0';
		if (n < strlen("1 (process_api) S 0 0 0 0 -1 4194560 115482 238429450 0 5781909 "
			       "1231 6987 246833 139373 10 -10 13 0 25 "))
			assert_int_equal(parse_stat(cut, &st), -1);
		else
			assert_int_equal(parse_stat(cut, &st), 0);
	}
}

static void statm_fields(void **state)
{
	(void)state;
	struct pid_statm sm;

	assert_int_equal(parse_statm("11104 3662 1577 1330 0 9258 0\n", &sm), 0);
	assert_int_equal(sm.size, 11104);
	assert_int_equal(sm.resident, 3662);
	assert_int_equal(sm.shared, 1577);
	assert_int_equal(sm.text, 1330);
	assert_int_equal(sm.lib, 0);
	assert_int_equal(sm.data, 9258);
	assert_int_equal(sm.dt, 0);
	/* a kernel thread, a zombie */
	assert_int_equal(parse_statm("0 0 0 0 0 0 0\n", &sm), 0);
	assert_int_equal(sm.size + sm.resident + sm.shared + sm.text + sm.data, 0);

	assert_int_equal(parse_statm("", &sm), -1);
	assert_int_equal(parse_statm("11104 3662 1577 1330 0 9258\n", &sm), -1);
	assert_int_equal(parse_statm("11104 3662 1577 1330 0 9258 0", &sm), -1); /* cut */
	assert_int_equal(parse_statm("11104 3662 1577 1330 0 92", &sm), -1);
	assert_int_equal(parse_statm("11104 -3662 1577 1330 0 9258 0\n", &sm), -1);
	assert_int_equal(parse_statm("11104  3662 1577 1330 0 9258 0\n", &sm), -1);
	assert_int_equal(parse_statm("a b c d e f g\n", &sm), -1);
}

/* stat and statm of this process, read from /proc, against what it knows of itself */
static void stat_live(void **state)
{
	(void)state;
	char buf[1024];
	struct pid_stat st;
	struct pid_statm sm;

	assert_true(read_file("/proc/self/stat", buf, sizeof(buf)) > 0);
	assert_int_equal(parse_stat(buf, &st), 0);
	assert_int_equal(st.pid, getpid());
	assert_int_equal(st.ppid, getppid());
	assert_int_equal(st.state, 'R');
	assert_true(st.minflt > 0);
	assert_true(read_file("/proc/self/statm", buf, sizeof(buf)) > 0);
	assert_int_equal(parse_statm(buf, &sm), 0);
	assert_true(sm.resident > 0 && sm.resident <= sm.size);
}

static void cmdline_of_self_and_gone(void **state)
{
	(void)state;
	char buf[4096];
	read_cmdline(getpid(), buf, sizeof(buf));
	assert_non_null(strstr(buf, "unit_tests"));
	read_cmdline(0x7ffffff0, buf, sizeof(buf)); /* no such process */
	assert_string_equal(buf, "");
}

static void slabinfo_fields(void **state)
{
	(void)state;
	struct slab_info si = {0};
	const char *text =
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> "
		": tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> "
		"<num_slabs> <sharedavail>\n"
		"dentry            135437 136185    192   21    1 : tunables    0    0    0 : "
		"slabdata   6485   6485      0\n"
		"cut-short 1 2 3\n"
		"x 1 2 3 4 5 : tunables 0 0 0 : slabdata 7\n"
		"kmalloc-1k           804    832   1024   16    4 : tunables    0    0    0 : "
		"slabdata     52     52      0";
	assert_int_equal(parse_slabinfo(text, &si), 0);
	assert_int_equal(si.n, 2);
	assert_string_equal(si.caches[0].name, "dentry");
	assert_int_equal(si.caches[0].active_objs, 135437);
	assert_int_equal(si.caches[0].num_objs, 136185);
	assert_int_equal(si.caches[0].objsize, 192);
	assert_int_equal(si.caches[0].num_slabs * si.caches[0].pagesperslab * 4, 25940);
	assert_int_equal(si.caches[0].reclaim, -1);
	assert_string_equal(si.caches[1].name, "kmalloc-1k");
	assert_int_equal(si.caches[1].pagesperslab, 4);
	assert_int_equal(si.caches[1].num_slabs, 52);
	si.n = 0;
	assert_int_equal(parse_slabinfo("", &si), -1);
	assert_int_equal(parse_slabinfo("slabinfo - version: 1.1\nx 1 2 3 4 5\n", &si), -1);
	free(si.caches);
}

/* The /proc mounted last is the one seen: its hidepid and gid options */
static void hidepid_option(void **state)
{
	(void)state;
	char val[32];
	long gid;
	const char *plain = "22 1 0:5 / / rw - ext4 /dev/vda rw\n"
			    "46 22 0:21 / /proc rw,relatime - proc proc rw\n";
	const char *stacked = "46 22 0:21 / /proc rw,relatime - proc proc rw\n"
			      "65 46 0:39 / /proc rw,relatime - proc proc rw,hidepid=invisible\n"
			      "70 22 0:40 / /sys rw - sysfs sysfs rw\n";

	assert_false(parse_hidepid(plain, val, sizeof(val), &gid));
	assert_true(parse_hidepid(stacked, val, sizeof(val), &gid));
	assert_string_equal(val, "invisible");
	assert_int_equal(gid, -1);
	assert_true(parse_hidepid("3 1 0:4 / /proc rw - proc none rw,gid=27,hidepid=2\n", val,
				  sizeof(val), &gid));
	assert_string_equal(val, "2");
	assert_int_equal(gid, 27);
	assert_false(parse_hidepid("3 1 0:4 / /proc rw - proc proc rw,hidepid=off\n", val,
				   sizeof(val), &gid));
	assert_false(parse_hidepid("3 1 0:4 / /proc2 rw - proc proc rw,hidepid=2\n", val,
				   sizeof(val), &gid));
	assert_false(parse_hidepid("", val, sizeof(val), &gid));
}

UNIT_GROUP(procfs)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(meminfo_fields),
		cmocka_unit_test(meminfo_corrupt),
		cmocka_unit_test(meminfo_live),
		cmocka_unit_test(vmstat_fields),
		cmocka_unit_test(meminfo_presence),
		cmocka_unit_test(vmstat_presence),
		cmocka_unit_test(presence_live),
		cmocka_unit_test(psi_fields),
		cmocka_unit_test(uptime_field),
		cmocka_unit_test(stat_fields),
		cmocka_unit_test(stat_untrusted_comm),
		cmocka_unit_test(stat_corrupt),
		cmocka_unit_test(statm_fields),
		cmocka_unit_test(stat_live),
		cmocka_unit_test(cmdline_of_self_and_gone),
		cmocka_unit_test(slabinfo_fields),
		cmocka_unit_test(hidepid_option),
	};
	return cmocka_run_group_tests_name("procfs", tests, NULL, NULL);
}
