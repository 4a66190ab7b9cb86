/* The verdict's ranking (src/model/verdict.h) on made-up signals: each rule alone, the
 * order between them, and the thresholds */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "verdict.h"

#define GIB (1024.0 * 1024)

/* An idle machine: 24G, 20G available, no swap, nothing grows, swapped in or stalls */
static struct verdict_signals idle(void)
{
	struct verdict_signals s = {
		.mem_total_kb = 24 * GIB,
		.mem_available_kb = 20 * GIB,
		.swap_total_kb = 0,
		.swap_free_kb = 0,
		.exhaustion_s = -1,
		.shrink_kb_s = 0,
		.pswpin_s = 0,
		.stall_us_s = 0,
		.allocstall_s = 0,
		.slab_kb = 200 * 1024,
		.slab_grow_kb_s = 0,
		.shmem_kb = 8 * 1024,
		.shmem_grow_kb_s = 0,
		.grower = {.pid = 1, .comm = "init", .value = 0},
		.swapped = {.pid = 1, .comm = "init", .value = 0},
		.staller = {.pid = 1, .comm = "init", .value = 0},
	};
	return s;
}

static void proc(struct verdict_proc *p, int32_t pid, const char *comm, double value)
{
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->value = value;
}

/* A cgroup /uxleak limited to 300M, using pct of it, anon only, its grower 21505 */
static void uxleak(struct verdict_signals *s, double pct, double grow_kb_s)
{
	struct verdict_cgroup *c = &s->cg[s->ncg++];
	*c = (struct verdict_cgroup){.path = "/uxleak",
				     .usage_kb = 300 * 1024 * pct / 100,
				     .limit_kb = 300 * 1024,
				     .file_kb = 0,
				     .grow_kb_s = grow_kb_s,
				     .stall_us_s = 120000,
				     .eta_s = NAN};
	proc(&c->top, 21505, "python3", grow_kb_s);
}

static struct verdict rank(const struct verdict_signals *s)
{
	struct verdict v;
	verdict_rank(s, &v);
	return v;
}

static void nothing_wrong(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_NONE);
	assert_string_equal(verdict_cause_name(v.cause), "none");
	assert_string_equal(v.text, "nothing wrong: 20G of 24G available");
	assert_int_equal(v.pid, 0);
	/* growth alone, with memory plentiful and not running out within the hour, is not
	 * a cause */
	proc(&s.grower, 42, "slow", 64);
	s.exhaustion_s = 5 * 3600;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
	/* nor a little swapping in, or stalls below 100 ms/s */
	s.pswpin_s = 255;
	s.stall_us_s = 99999;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
}

static void cgroup_near_its_limit(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	uxleak(&s, 86.5, 3.8 * 1024);
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_CGROUP_LIMIT);
	assert_string_equal(verdict_cause_name(v.cause), "cgroup_limit");
	assert_string_equal(v.path, "/uxleak");
	assert_int_equal(v.pid, 21505);
	assert_string_equal(v.text, "/uxleak 86% of 300M, +3.8M/s from 21505 python3; "
				    "reclaim stalls 120 ms/s in it");
	/* below 80 % it is not near */
	s.cg[0].usage_kb = 300 * 1024 * 0.79;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
	/* at 85 % of page cache that does not grow or stall it is not short either */
	s.cg[0].usage_kb = 300 * 1024 * 0.85;
	s.cg[0].file_kb = 200 * 1024;
	s.cg[0].grow_kb_s = 0;
	s.cg[0].top.value = 0;
	s.cg[0].stall_us_s = 0;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
	/* but it is once it grows */
	s.cg[0].grow_kb_s = 100;
	assert_int_equal(rank(&s).cause, VERDICT_CGROUP_LIMIT);
}

static void nearest_cgroup_first(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	uxleak(&s, 85, 0);
	uxleak(&s, 97, 0);
	s.cg[1].path = "/nearer";
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_CGROUP_LIMIT);
	assert_string_equal(v.path, "/nearer");
	assert_int_equal(v.pid, 0); /* nothing grows in it */
}

static void system_leak(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	proc(&s.grower, 777, "grow_child", 64 * 1024);
	s.exhaustion_s = 300;
	s.shrink_kb_s = -64 * 1024;
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SYSTEM_LEAK);
	assert_string_equal(verdict_cause_name(v.cause), "system_leak");
	assert_int_equal(v.pid, 777);
	assert_string_equal(v.text, "777 grow_child grows +64M/s; memory lasts ~5 min; 20G of "
				    "24G available");
	/* memory low without a forecast: still short */
	s.exhaustion_s = -1;
	s.mem_available_kb = 2 * GIB;
	assert_int_equal(rank(&s).cause, VERDICT_SYSTEM_LEAK);
	/* short, and nothing grows: no subject */
	s.grower.value = 0;
	v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SYSTEM_LEAK);
	assert_int_equal(v.pid, 0);
}

static void slab_or_shmem_grows_most(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	proc(&s.grower, 777, "grow_child", 100);
	s.exhaustion_s = 600;
	s.slab_grow_kb_s = 2048;
	assert_int_equal(rank(&s).cause, VERDICT_SLAB_GROWTH);
	assert_string_equal(verdict_cause_name(VERDICT_SLAB_GROWTH), "slab_growth");
	s.shmem_grow_kb_s = 4096;
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SHMEM_GROWTH);
	assert_int_equal(v.pid, 0);
	assert_true(!strncmp(v.text, "Shmem grows +4.0M/s", 19));
}

static void swap_storm_first(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	/* a cgroup at its limit, a leak and stalls too: the storm comes first */
	uxleak(&s, 100, 0);
	proc(&s.grower, 777, "grow_child", 64 * 1024);
	s.exhaustion_s = 300;
	s.stall_us_s = 500000;
	s.pswpin_s = 5000;
	s.swap_total_kb = 512 * 1024;
	s.swap_free_kb = 400 * 1024;
	proc(&s.swapped, 4242, "bpf_hog", 4900);
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SWAP_STORM);
	assert_string_equal(verdict_cause_name(v.cause), "swap_storm");
	assert_int_equal(v.pid, 4242);
	assert_string_equal(v.text, "swap-in storm: 5000 pages/s swapped in, 4900/s of them by "
				    "4242 bpf_hog; swap 112M of 512M used");
	/* without it, the cgroup; without that, the leak; then the stalls */
	s.pswpin_s = 0;
	assert_int_equal(rank(&s).cause, VERDICT_CGROUP_LIMIT);
	s.ncg = 0;
	assert_int_equal(rank(&s).cause, VERDICT_SYSTEM_LEAK);
	s.exhaustion_s = -1;
	proc(&s.staller, 99, "stalled", 300000);
	v = rank(&s);
	assert_int_equal(v.cause, VERDICT_RECLAIM_STALL);
	assert_int_equal(v.pid, 99);
	assert_string_equal(v.text, "reclaim stalls 500 ms/s, 300 ms/s in 99 stalled");
}

static void stalls_without_bpf(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	s.stall_us_s = NAN;
	s.allocstall_s = 150;
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_RECLAIM_STALL);
	assert_string_equal(v.text, "150 allocations/s stall in direct reclaim");
	s.allocstall_s = 99;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
}

static void evidence(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	uxleak(&s, 86.5, 3.8 * 1024);
	struct verdict v = rank(&s);
	double want[] = {300 * 1024 * 0.865, 300 * 1024, 86.5, 3.8 * 1024, 3.8 * 1024, 120000};
	const char *keys[] = {"usage_kb",
			      "limit_kb",
			      "usage_pct",
			      "growth_kb_per_s",
			      "process_growth_kb_per_s",
			      "reclaim_stall_us_per_s"};
	assert_int_equal(v.nfacts, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(v.facts[i].key, keys[i]);
		assert_true(fabs(v.facts[i].value - want[i]) < 1e-6);
	}
	/* a figure not known is left out */
	s.cg[0].grow_kb_s = NAN;
	v = rank(&s);
	assert_int_equal(v.nfacts, 5);
}

int run_verdict_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_wrong),
		cmocka_unit_test(cgroup_near_its_limit),
		cmocka_unit_test(nearest_cgroup_first),
		cmocka_unit_test(system_leak),
		cmocka_unit_test(slab_or_shmem_grows_most),
		cmocka_unit_test(swap_storm_first),
		cmocka_unit_test(stalls_without_bpf),
		cmocka_unit_test(evidence),
	};
	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
