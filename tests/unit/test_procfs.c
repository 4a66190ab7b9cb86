#include <string.h>
#include <unistd.h>

#include "pids.h"
#include "procfs.h"
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
	struct sys_mem m;
	assert_int_equal(parse_meminfo(meminfo, &m), 0);
	assert_int_equal(m.mem_total_kb, 24598212);
	assert_int_equal(m.mem_free_kb, 23870012);
	assert_int_equal(m.mem_available_kb, 24102100);
	assert_int_equal(m.buffers_kb, 3688);
	assert_int_equal(m.cached_kb, 345120); /* not SwapCached */
	assert_int_equal(m.sreclaimable_kb, 42000);
	assert_int_equal(m.swap_total_kb, 1048572);
	assert_int_equal(m.swap_free_kb, 1000000);
}

static void meminfo_corrupt(void **state)
{
	(void)state;
	struct sys_mem m;
	assert_int_equal(parse_meminfo("", &m), -1);
	assert_int_equal(parse_meminfo("MemTotal: x kB\nMemFree: 1 kB\n", &m), -1);
	assert_int_equal(parse_meminfo("MemTotal: 10 kB\n", &m), -1);
	assert_int_equal(parse_meminfo("MemTotal: 10 kB\nMemFree: 20 kB\n", &m), -1);
	/* without MemAvailable (old kernels) it is estimated */
	assert_int_equal(
		parse_meminfo("MemTotal: 100 kB\nMemFree: 10 kB\nBuffers: 5 kB\nCached: 7 kB\n",
			      &m),
		0);
	assert_int_equal(m.mem_available_kb, 22);
}

static void meminfo_live(void **state)
{
	(void)state;
	char buf[16384];
	struct sys_mem m;
	assert_true(read_file("/proc/meminfo", buf, sizeof(buf)) > 0);
	assert_int_equal(parse_meminfo(buf, &m), 0);
	assert_true(m.mem_total_kb >= m.mem_available_kb);
}

static void vmstat_fields(void **state)
{
	(void)state;
	struct sys_vm v;
	const char *t = "nr_free_pages 1\npgpgin 2\npswpin 17\npswpout 23\npgfault 1000\n"
			"pgmajfault 40\noom_kill 3\n";
	assert_int_equal(parse_vmstat(t, &v), 0);
	assert_int_equal(v.pgfault, 1000);
	assert_int_equal(v.pgmajfault, 40);
	assert_int_equal(v.pswpin, 17);
	assert_int_equal(v.pswpout, 23);
	assert_int_equal(v.oom_kill, 3);
	assert_int_equal(parse_vmstat("pgfault 1\n", &v), -1);
	assert_int_equal(parse_vmstat("pgfaultx 1\npgmajfault 2\n", &v), -1);
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

static void cmdline_of_self_and_gone(void **state)
{
	(void)state;
	char buf[4096];
	read_cmdline(getpid(), buf, sizeof(buf));
	assert_non_null(strstr(buf, "unit_tests"));
	read_cmdline(0x7ffffff0, buf, sizeof(buf)); /* no such process */
	assert_string_equal(buf, "");
}

int run_procfs_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(meminfo_fields),
		cmocka_unit_test(meminfo_corrupt),
		cmocka_unit_test(meminfo_live),
		cmocka_unit_test(vmstat_fields),
		cmocka_unit_test(psi_fields),
		cmocka_unit_test(uptime_field),
		cmocka_unit_test(cmdline_of_self_and_gone),
	};
	return cmocka_run_group_tests_name("procfs", tests, NULL, NULL);
}
