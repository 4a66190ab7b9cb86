/* The verdict's ranking (src/model/verdict.h) on made-up signals: each rule alone, the
 * order between them, the limits by time, the thresholds, its words and what holds from
 * one refresh to the next */
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

/* The line names the cgroup's container, not its path; one without a name by its path,
 * cut in the middle so that its end shows */
static void cgroup_by_name(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	uxleak(&s, 95.5, 4 * 1024);
	s.cg[0].path = "/libpod_parent/libpod-"
		       "3f4e8a1c9b2d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f";
	s.cg[0].name = "leaky";
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_CGROUP_LIMIT);
	assert_string_equal(v.path, s.cg[0].path);
	assert_string_equal(v.text, "leaky 95% of 300M, +4.0M/s from 21505 python3; "
				    "reclaim stalls 120 ms/s in it");
	s.cg[0].name = NULL;
	v = rank(&s);
	assert_string_equal(
		v.text,
		"/libpod_parent/...6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f 95% of 300M, +4.0M/s from "
		"21505 python3; reclaim stalls 120 ms/s in it");
	assert_string_equal(v.path, s.cg[0].path);
}

/* The action that fits, by its key, said after the evidence where the hierarchy is known:
 * v2 throttles with memory.high, or changes the memory.high reached; v1 raises the limit */
static void cgroup_action(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	uxleak(&s, 86.5, 3.8 * 1024);
	static const char evidence[] = "/uxleak 86% of 300M, +3.8M/s from 21505 python3; "
				       "reclaim stalls 120 ms/s in it";
	char want[VERDICT_TEXT];
	s.cg[0].version = 2;
	snprintf(want, sizeof(want), "%s; throttle it with memory.high: key H on C", evidence);
	assert_string_equal(rank(&s).text, want);
	s.cg[0].high = true;
	snprintf(want, sizeof(want), "%s (memory.high)%s", "/uxleak 86% of 300M",
		 ", +3.8M/s from 21505 python3; reclaim stalls 120 ms/s in it; memory.high "
		 "throttles it: key H on C changes it");
	assert_string_equal(rank(&s).text, want);
	s.cg[0].high = false;
	s.cg[0].version = 1;
	snprintf(want, sizeof(want), "%s; v1 cannot throttle: raise its limit with key L on C",
		 evidence);
	assert_string_equal(rank(&s).text, want);
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
	assert_string_equal(v.text, "777 grow_child grows +64M/s; memory runs short, shrinks "
				    "64M/s, ~5 min at this rate; 20G of 24G available");
	/* memory low without a forecast: still short */
	s.exhaustion_s = -1;
	s.mem_available_kb = 2 * GIB;
	assert_int_equal(rank(&s).cause, VERDICT_SYSTEM_LEAK);
	/* short, and nothing grows: no subject */
	s.grower.value = 0;
	v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SYSTEM_LEAK);
	assert_int_equal(v.pid, 0);
	assert_string_equal(v.text, "memory runs short, no process known to grow; 2.0G of 24G "
				    "available");
}

/* Each limit by its time to run out: the soonest, whatever its share */
static void soonest_limit_first(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	/* a machine 11 minutes from exhaustion, /leak 25 % of 200M and 38 s from it */
	s.mem_total_kb = 2.8 * GIB;
	s.mem_available_kb = 2.6 * GIB;
	s.exhaustion_s = 660;
	s.shrink_kb_s = -4096;
	s.grower.value = 0;
	struct verdict_cgroup *c = &s.cg[s.ncg++];
	*c = (struct verdict_cgroup){.path = "/leak",
				     .usage_kb = 50 * 1024,
				     .limit_kb = 200 * 1024,
				     .file_kb = 0,
				     .grow_kb_s = 4096,
				     .stall_us_s = NAN,
				     .eta_s = 38,
				     .top = {.value = NAN}};
	proc(&c->victim, 171, "python3", NAN);
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_CGROUP_LIMIT);
	assert_int_equal(v.limit, VL_CGROUP);
	assert_string_equal(v.path, "/leak");
	assert_int_equal(v.pid, 171);
	assert_true(v.secs == 38);
	assert_string_equal(v.text, "/leak 25% of 200M, +4.0M/s; victim 171 python3; reaches it "
				    "in ~38 s");
	/* a cgroup at 90 % with 5 minutes left comes after one at 30 % with 20 s */
	uxleak(&s, 90, 1024);
	s.cg[1].eta_s = 300;
	s.cg[1].stall_us_s = 0;
	s.cg[0].eta_s = 20;
	assert_string_equal(rank(&s).path, "/leak");
	/* the machine when it runs out first, as a limit of its own */
	s.exhaustion_s = 15;
	v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SYSTEM_LEAK);
	assert_int_equal(v.limit, VL_MACHINE);
	/* a forecast beyond the hour is not ranked: /uxleak at 90 % of its limit, not
	 * growing, counts as near (10 minutes) */
	s.exhaustion_s = 2 * 3600;
	s.cg[0].eta_s = 3 * 3600;
	s.cg[1].eta_s = NAN;
	s.cg[1].grow_kb_s = 0;
	s.cg[1].top.value = 0;
	assert_string_equal(rank(&s).path, "/uxleak");
	/* and stalling in reclaim at it, as at it now: ahead of a cgroup 5 s from its own */
	s.cg[1].stall_us_s = 50000;
	s.cg[0].eta_s = 5;
	assert_string_equal(rank(&s).path, "/uxleak");
}

/* A cgroup near its limit before its forecast is known: its headroom at its growth, against
 * the machine's forecast (a 128M cgroup filled at 12M/s on a 2.9G machine that shrinks by
 * the same 12M/s) */
static void headroom_before_a_forecast(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	s.mem_total_kb = 2.9 * GIB;
	s.mem_available_kb = 2.6 * GIB;
	s.exhaustion_s = 220;
	s.shrink_kb_s = -12 * 1024;
	s.grower.value = 0;
	struct verdict_cgroup *c = &s.cg[s.ncg++];
	*c = (struct verdict_cgroup){.path = "/cgbefore",
				     .usage_kb = 122 * 1024,
				     .limit_kb = 128 * 1024,
				     .file_kb = 0,
				     .grow_kb_s = 12 * 1024,
				     .stall_us_s = NAN,
				     .eta_s = NAN,
				     .top = {.value = NAN}};
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_CGROUP_LIMIT);
	assert_string_equal(v.path, "/cgbefore");
	/* its fastest grower's growth where its own is not known */
	c->grow_kb_s = NAN;
	proc(&c->top, 1424, "grow_child", 12 * 1024);
	assert_string_equal(rank(&s).path, "/cgbefore");
	/* one that grows too slowly to run out before the machine does comes after it */
	c->top.value = 20;
	c->grow_kb_s = 20;
	assert_int_equal(rank(&s).cause, VERDICT_SYSTEM_LEAK);
	/* nor is a forecast that is known overruled */
	c->top.value = 12 * 1024;
	c->eta_s = 900;
	assert_int_equal(rank(&s).cause, VERDICT_SYSTEM_LEAK);
}

/* The words match the state: a slow trend is a trend, short only when near or low */
static void words_of_a_trend(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	s.mem_total_kb = 8 * GIB;
	s.mem_available_kb = 0.93 * 8 * GIB;
	s.exhaustion_s = 1860;
	s.shrink_kb_s = -4096;
	proc(&s.grower, 2345, "leaky", 4096);
	struct verdict v = rank(&s);
	assert_int_equal(v.cause, VERDICT_SYSTEM_LEAK);
	assert_string_equal(v.text, "2345 leaky grows +4.0M/s; memory shrinks 4.0M/s, ~31 min "
				    "at this rate; 7.4G of 8.0G available");
	/* within 10 minutes it runs short */
	s.exhaustion_s = 540;
	assert_non_null(strstr(rank(&s).text, "; memory runs short, shrinks 4.0M/s, ~9 min"));
	/* a leak suspect is said so */
	s.grower.leak = true;
	assert_non_null(strstr(rank(&s).text, "2345 leaky grows +4.0M/s, a leak suspect; "));
	/* MemAvailable under its floor: short, whatever the time */
	s.grower.leak = false;
	s.exhaustion_s = 1860;
	s.mem_available_kb = 0.05 * 8 * GIB;
	assert_non_null(strstr(rank(&s).text, "memory runs short, shrinks 4.0M/s, ~31 min"));
}

/* Growth from what is known: a process too young for GROW, named with its age */
static void young_processes(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	s.exhaustion_s = 1000;
	s.shrink_kb_s = -4096;
	s.grower.value = NAN;
	s.grower.pid = 0;
	struct verdict_cgroup *c = &s.cg[s.ncg++];
	*c = (struct verdict_cgroup){.path = "/young",
				     .usage_kb = 96 * 1024,
				     .limit_kb = 1024 * 1024,
				     .file_kb = 0,
				     .grow_kb_s = 4096,
				     .stall_us_s = NAN,
				     .eta_s = 232,
				     .top = {.value = NAN}};
	proc(&c->young, 5120, "python3", 94 * 1024);
	c->young.age_s = 22.6;
	proc(&c->victim, 5120, "python3", NAN);
	struct verdict v = rank(&s);
	assert_string_equal(v.text, "/young 9% of 1.0G, +4.0M/s, young 5120 python3 (22 s old); "
				    "reaches it in ~4 min");
	assert_int_equal(v.pid, 5120);
	/* the machine's: its largest young process, by its size over its age */
	s.ncg = 0;
	proc(&s.young, 2345, "leaky", 4096);
	s.young.age_s = 13;
	s.young.size_kb = 58 * 1024;
	v = rank(&s);
	assert_int_equal(v.pid, 2345);
	assert_true(!strncmp(v.text, "young 2345 leaky holds 58M at 13 s old; memory shrinks", 54));
}

/* It does not flicker: what was named holds until overtaken by the margin */
static void holds_until_overtaken(void **state)
{
	(void)state;
	struct verdict_signals s = idle();
	uxleak(&s, 40, 1024);
	uxleak(&s, 40, 1024);
	s.cg[1].path = "/other";
	s.cg[0].stall_us_s = s.cg[1].stall_us_s = 0;
	s.cg[0].eta_s = 40;
	s.cg[1].eta_s = 35;
	struct verdict prev = rank(&s);
	assert_string_equal(prev.path, "/other");
	/* /uxleak now sooner, but by less than a quarter: /other holds */
	s.cg[0].eta_s = 30;
	s.cg[1].eta_s = 32;
	s.prev = &prev;
	assert_string_equal(rank(&s).path, "/other");
	/* by more: /uxleak */
	s.cg[0].eta_s = 20;
	struct verdict v = rank(&s);
	assert_string_equal(v.path, "/uxleak");
	/* the machine's grower: Slab named holds until a process grows a quarter faster */
	s = idle();
	s.exhaustion_s = 300;
	s.shrink_kb_s = -1024;
	s.slab_grow_kb_s = 200;
	prev = rank(&s);
	assert_int_equal(prev.cause, VERDICT_SLAB_GROWTH);
	s.prev = &prev;
	proc(&s.grower, 777, "grow_child", 240);
	assert_int_equal(rank(&s).cause, VERDICT_SLAB_GROWTH);
	s.grower.value = 260;
	assert_int_equal(rank(&s).cause, VERDICT_SYSTEM_LEAK);
	/* the process named holds the same way, by its growth now */
	prev = rank(&s);
	s.kept = s.grower;
	s.grower.value = 300;
	s.grower.pid = 778;
	v = rank(&s);
	assert_int_equal(v.pid, 777);
	/* a swap storm holds down to three quarters of its threshold */
	s = idle();
	s.pswpin_s = 300;
	prev = rank(&s);
	assert_int_equal(prev.cause, VERDICT_SWAP_STORM);
	s.pswpin_s = 200;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
	s.prev = &prev;
	assert_int_equal(rank(&s).cause, VERDICT_SWAP_STORM);
	s.pswpin_s = 150;
	assert_int_equal(rank(&s).cause, VERDICT_NONE);
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

UNIT_GROUP(verdict)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_wrong),
		cmocka_unit_test(cgroup_near_its_limit),
		cmocka_unit_test(cgroup_by_name),
		cmocka_unit_test(cgroup_action),
		cmocka_unit_test(nearest_cgroup_first),
		cmocka_unit_test(system_leak),
		cmocka_unit_test(soonest_limit_first),
		cmocka_unit_test(headroom_before_a_forecast),
		cmocka_unit_test(words_of_a_trend),
		cmocka_unit_test(young_processes),
		cmocka_unit_test(holds_until_overtaken),
		cmocka_unit_test(slab_or_shmem_grows_most),
		cmocka_unit_test(swap_storm_first),
		cmocka_unit_test(stalls_without_bpf),
		cmocka_unit_test(evidence),
	};
	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
