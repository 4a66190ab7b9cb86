#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "model.h"
#include "unit.h"

/* Fills the model's next snapshot with processes (pid, rss, minflt) at time mono. */
static void push(struct model *m, double mono, const int32_t *pids, const uint64_t *rss,
		 const uint64_t *minflt, size_t n, uint64_t pgfault)
{
	struct snapshot *s = model_begin(m);
	s->mono = s->mono_procs = mono;
	s->uptime = 1000 + mono;
	s->hertz = 100;
	s->mem[MI_MEM_TOTAL] = 1000;
	s->vm[VS_PGFAULT] = pgfault;
	static const char *names[] = {"alpha", "beta", "gamma", "delta"};
	for (size_t i = 0; i < n; i++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = pids[i];
		p->start_ticks = 50000; /* started at uptime 500 s */
		p->fig[PV_RSS] = rss[i];
		p->fig[PV_MINFLT] = minflt[i];
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM | NEED_CMDLINE);
		p->uid = (uint32_t)i;
		snprintf(p->comm, sizeof(p->comm), "%s", names[i % 4]);
		p->cmd = names[i % 4];
		p->user = names[i % 4];
	}
	model_update(m);
}

static void rates_from_two_snapshots(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	int32_t pids[] = {1, 2, 3};
	uint64_t rss[] = {100, 300, 200}, f1[] = {1000, 0, 50}, f2[] = {1500, 0, 50};
	push(&m, 10.0, pids, rss, f1, 3, 100000);
	/* first refresh: since boot for the system, since start for processes */
	assert_float_equal(m.rates.vm[VS_PGFAULT], 100000.0 / 1010.0, 1e-6);
	assert_float_equal(row_number(&m.all[0], COL_MINFLT), 1000.0 / 510.0, 1e-6);
	push(&m, 12.0, pids, rss, f2, 3, 104000);
	assert_float_equal(m.rates.dt, 2.0, 1e-9);
	assert_float_equal(m.rates.vm[VS_PGFAULT], 2000.0, 1e-9);
	assert_float_equal(row_number(&m.all[0], COL_MINFLT), 250.0, 1e-9);
	assert_float_equal(row_number(&m.all[1], COL_MINFLT), 0.0, 1e-9);
	assert_float_equal(row_number(&m.all[1], COL_MEM_PCT), 30.0, 1e-9);
	model_free(&m);
}

static void reused_pid_is_a_new_process(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	int32_t pids[] = {7};
	uint64_t rss[] = {1}, f1[] = {5000}, f2[] = {10};
	push(&m, 0.0, pids, rss, f1, 1, 0);
	struct snapshot *s = model_begin(&m);
	s->mono = s->mono_procs = 1.0;
	s->uptime = 1001.0;
	s->hertz = 100;
	struct proc_sample *p = snapshot_add_proc(s);
	p->pid = 7;
	p->start_ticks = 100050; /* started 0.5 s ago: another process */
	p->fig[PV_MINFLT] = f2[0];
	p->valid = columns_filled_by(NEED_STAT | NEED_STATM | NEED_CMDLINE);
	model_update(&m);
	/* not 10 - 5000 (negative) nor a delta: its own 10 faults over its 0.5 s of life */
	assert_float_equal(row_number(&m.all[0], COL_MINFLT), 20.0, 1e-6);
	model_free(&m);
}

static void counter_going_backwards(void **state)
{
	(void)state;
	assert_float_equal(counter_rate(5, 10, 1.0), 0.0, 0);
	assert_float_equal(counter_rate(10, 5, 0.0), 0.0, 0);
	assert_float_equal(counter_rate(15, 5, 2.0), 5.0, 0);
}

static void sorting(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	int32_t pids[] = {1, 2, 3, 4};
	uint64_t rss[] = {100, 300, 200, 300}, f[] = {0, 0, 0, 0};
	push(&m, 1.0, pids, rss, f, 4, 0);
	/* default: RSS descending, ties by pid */
	assert_int_equal(m.rows[0]->p->pid, 2);
	assert_int_equal(m.rows[1]->p->pid, 4);
	assert_int_equal(m.rows[2]->p->pid, 3);
	assert_int_equal(m.rows[3]->p->pid, 1);
	pr.invert = true;
	model_refilter(&m);
	assert_int_equal(m.rows[0]->p->pid, 1);
	pr.invert = false;
	pr.sort = COL_PID;
	model_refilter(&m);
	assert_int_equal(m.rows[0]->p->pid, 1);
	assert_int_equal(m.rows[3]->p->pid, 4);
	pr.sort = COL_COMM; /* text, ascending: alpha beta delta gamma */
	model_refilter(&m);
	assert_string_equal(m.rows[0]->p->comm, "alpha");
	assert_string_equal(m.rows[2]->p->comm, "delta");
	model_free(&m);
}

static void filtering(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	int32_t pids[] = {1, 2, 3, 4};
	uint64_t rss[] = {1, 2, 3, 4}, f[] = {0, 0, 0, 0};
	push(&m, 1.0, pids, rss, f, 4, 0);
	snprintf(pr.filter.text, sizeof(pr.filter.text), "ELT"); /* case-insensitive */
	model_refilter(&m);
	assert_int_equal(m.nrows, 1);
	assert_int_equal(m.rows[0]->p->pid, 4);
	pr.filter.text[0] = '\0';
	pr.filter.by_user = true;
	pr.filter.uid = 1;
	model_refilter(&m);
	assert_int_equal(m.nrows, 1);
	assert_int_equal(m.rows[0]->p->pid, 2);
	pr.filter.by_user = false;
	int32_t only[] = {3, 1};
	memcpy(pr.filter.pids, only, sizeof(only));
	pr.filter.npids = 2;
	model_refilter(&m);
	assert_int_equal(m.nrows, 2);
	assert_int_equal(m.rows[0]->p->pid, 3);
	assert_int_equal(m.rows[1]->p->pid, 1);
	model_free(&m);
}

static void memory_split(void **state)
{
	(void)state;
	uint64_t mem[MI_COUNT] = {
		[MI_MEM_TOTAL] = 1000, [MI_MEM_FREE] = 300,    [MI_BUFFERS] = 50,
		[MI_CACHED] = 200,     [MI_SRECLAIMABLE] = 50, [MI_SWAP_TOTAL] = 400,
		[MI_SWAP_FREE] = 100};
	struct mem_split s;
	mem_split(mem, &s);
	assert_int_equal(s.used_kb, 400);
	assert_int_equal(s.cache_kb, 250);
	assert_int_equal(s.swap_used_kb, 300);
}

static void oom_history_keeps_newest(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	for (int i = 0; i < MODEL_OOM_HISTORY + 5; i++) {
		struct snapshot *s = model_begin(&m);
		s->mono = s->mono_procs = i;
		struct mt_event *e = snapshot_add_event(s);
		e->type = MT_EV_OOM_KILL;
		e->pid = 1000 + i;
		model_update(&m);
	}
	assert_int_equal(m.noom, MODEL_OOM_HISTORY);
	assert_int_equal(m.oom_seen, MODEL_OOM_HISTORY + 5);
	assert_int_equal(m.oom[MODEL_OOM_HISTORY - 1].pid, 1000 + MODEL_OOM_HISTORY + 4);
	assert_int_equal(m.oom[0].pid, 1005);
	model_free(&m);
}

/* A kill whose report lost its memcg line (the kernel rate-limits the report's header and
 * summary): the memcg of the victim as the refresh before saw it, when that was the same
 * process (its name); unknown (empty) otherwise, and for kills from before memtop */
static void oom_memcg_from_last_sighting(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	struct snapshot *s = model_begin(&m);
	s->mono = s->mono_procs = 1;
	struct proc_sample *p = snapshot_add_proc(s);
	p->pid = 42;
	snprintf(p->comm, sizeof(p->comm), "hog");
	p->cgroup = "/box/hog";
	p = snapshot_add_proc(s);
	p->pid = 43;
	snprintf(p->comm, sizeof(p->comm), "other");
	p->cgroup = "/box/other";
	model_update(&m);

	s = model_begin(&m);
	s->mono = s->mono_procs = 2;
	const int32_t pids[] = {42, 43, 44, 42};
	const char *comms[] = {"hog", "renamed", "unseen", "hog"};
	for (int i = 0; i < 4; i++) {
		struct mt_event *e = snapshot_add_event(s);
		e->type = MT_EV_OOM_KILL;
		e->pid = pids[i];
		snprintf(e->comm, sizeof(e->comm), "%s", comms[i]);
		e->earlier = i == 3;
	}
	model_update(&m);
	const struct snapshot *now = model_current(&m);
	assert_string_equal(now->events[0].memcg, "/box/hog");
	assert_string_equal(now->events[1].memcg, "");
	assert_string_equal(now->events[2].memcg, "");
	assert_string_equal(now->events[3].memcg, "");
	assert_string_equal(m.oom[0].memcg, "/box/hog");
	model_free(&m);
}

/* Tree view: children under parents in sort order (RSS descending), a row whose parent
 * is not shown is a root, a parent loop still shows every row once; the lines drawn
 * before each command; K hides kernel threads. */
static void tree_view(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	static const struct {
		int32_t pid, ppid;
		uint64_t rss;
		bool kthread;
	} procs[] = {{1, 0, 10, false}, {2, 1, 50, false}, {3, 1, 100, false},	 {4, 3, 5, false},
		     {5, 4, 1, false},	{6, 2, 7, false},  {7, 99, 1000, false}, {8, 9, 3, false},
		     {9, 8, 4, false},	{10, 0, 0, true}};
	struct snapshot *s = model_begin(&m);
	s->mono = 1;
	s->mem[MI_MEM_TOTAL] = 1000;
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = procs[i].pid;
		p->ppid = procs[i].ppid;
		p->fig[PV_RSS] = procs[i].rss;
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM);
		p->kthread = procs[i].kthread;
		p->cmd = p->user = "x";
	}
	pr.tree = true;
	model_update(&m);
	static const int32_t order[] = {7, 1, 3, 4, 5, 2, 6, 10, 9, 8};
	static const char *const lines[] = {"",	   "",	     "├─ ", "│  └─ ", "│     └─ ",
					    "└─ ", "   └─ ", "",    "",	      "└─ "};
	assert_int_equal(m.nrows, 10);
	for (size_t i = 0; i < m.nrows; i++) {
		char buf[64];
		assert_int_equal(m.rows[i]->p->pid, order[i]);
		assert_int_equal(tree_prefix(m.rows[i], buf, sizeof(buf), true, -1),
				 3 * m.rows[i]->depth);
		assert_string_equal(buf, lines[i]);
	}
	/* narrow: pid 5 (depth 3) keeps its last levels, whole ones */
	char narrow[64];
	assert_int_equal(tree_prefix(m.rows[4], narrow, sizeof(narrow), true, 7), 6);
	assert_string_equal(narrow, "   └─ ");
	assert_int_equal(tree_prefix(m.rows[4], narrow, sizeof(narrow), true, 2), 0);
	assert_string_equal(narrow, "");
	char ascii[64];
	tree_prefix(m.rows[4], ascii, sizeof(ascii), false, -1);
	assert_string_equal(ascii, "|     `- ");

	/* a filter that leaves out 3 makes 4 a root; K leaves out the kernel thread */
	pr.filter.hide_kthreads = true;
	int32_t only[] = {1, 2, 4, 5};
	memcpy(pr.filter.pids, only, sizeof(only));
	pr.filter.npids = 4;
	model_refilter(&m);
	static const int32_t order2[] = {1, 2, 4, 5};
	assert_int_equal(m.nrows, 4);
	for (size_t i = 0; i < m.nrows; i++)
		assert_int_equal(m.rows[i]->p->pid, order2[i]);
	assert_int_equal(m.rows[2]->depth, 0);
	assert_int_equal(m.rows[3]->depth, 1);
	pr.filter.npids = 0;
	model_refilter(&m);
	assert_int_equal(m.nrows, 9);

	/* off again: plain sort order, no lines */
	pr.tree = false;
	model_refilter(&m);
	assert_int_equal(m.rows[1]->p->pid, 3);
	assert_int_equal(m.rows[1]->depth, 0);
	model_free(&m);
}

/* A process gone from a refresh is listed with its RSS of the refresh before, for a
 * minute of the snapshots' clock, then no more; one still there is not */
static void exited_kept_a_minute(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	int32_t both[] = {10, 20}, one[] = {10};
	uint64_t rss[] = {100, 4321}, flt[] = {0, 0};
	push(&m, 10, both, rss, flt, 2, 0);
	rss[1] = 5555;
	push(&m, 11, both, rss, flt, 2, 0);
	assert_int_equal(m.exited.n, 0);
	push(&m, 12, one, rss, flt, 1, 0);
	assert_int_equal(m.exited.n, 1);
	const struct exited_proc *e = &m.exited.p[0];
	assert_int_equal(e->pid, 20);
	assert_int_equal(e->last_rss_kb, 5555);
	assert_string_equal(e->comm, "beta");
	assert_string_equal(e->user, "beta");
	assert_true(e->mono == 12);
	push(&m, 12 + EXITED_KEEP_S, one, rss, flt, 1, 0);
	assert_int_equal(m.exited.n, 1);
	push(&m, 12.5 + EXITED_KEEP_S, one, rss, flt, 1, 0);
	assert_int_equal(m.exited.n, 0);
	model_free(&m);
}

UNIT_GROUP(model)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rates_from_two_snapshots),
		cmocka_unit_test(reused_pid_is_a_new_process),
		cmocka_unit_test(counter_going_backwards),
		cmocka_unit_test(sorting),
		cmocka_unit_test(filtering),
		cmocka_unit_test(memory_split),
		cmocka_unit_test(oom_history_keeps_newest),
		cmocka_unit_test(oom_memcg_from_last_sighting),
		cmocka_unit_test(tree_view),
		cmocka_unit_test(exited_kept_a_minute),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
