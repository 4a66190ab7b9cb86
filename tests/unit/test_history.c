#include <math.h>
#include <stdio.h>
#include <string.h>

#include "growth.h"
#include "history.h"
#include "model.h"
#include "oom_cgroup.h"
#include "sysfig.h"
#include "unit.h"
#include "util.h"

/* While on, the refreshes push makes hold a memory cgroup /box limited to 1 GiB with
 * process 1 in it, its usage and OOM kill count these; a kill's memcg is its /box/job */
static struct {
	bool on;
	uint64_t usage_kb, oom_kills;
} box;

static void add_box(struct snapshot *s)
{
	struct cg_sample *c = snapshot_add_cgroup(s, "/box");
	c->id = 42;
	c->v[CGCOL_USAGE] = box.usage_kb;
	c->v[CGCOL_LIMIT] = 1 << 20;
	c->v[CGCOL_OOM_KERNEL] = box.oom_kills;
	c->valid = CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT) | CGCOL_BIT(CGCOL_OOM_KERNEL);
	s->cg_cols = c->valid;
	s->mono_cgroups = s->mono;
	s->cg_tasks = xgrow(s->cg_tasks, 0, &s->cg_tasks_cap, sizeof(*s->cg_tasks), 4);
	s->cg_tasks[0] = (struct cg_task){.pid = 1};
	s->ncg_tasks = 1;
	c->ntasks = 1;
}

/* A refresh of n processes at mono (1 s steps from 0): pid i+1 with rss[i] KiB, and
 * MemAvailable avail_kb; an OOM kill event of pid kill at kill_ts when kill > 0 */
static void push(struct model *m, double mono, const uint64_t *rss, size_t n, uint64_t avail_kb,
		 int32_t kill, double kill_ts)
{
	struct snapshot *s = model_begin(m);
	s->mono = s->mono_procs = mono;
	s->wall = 1.7e9 + mono;
	s->uptime = 1000 + mono;
	s->hertz = 100;
	s->mem[MI_MEM_TOTAL] = 32 << 20;
	s->mem[MI_MEM_AVAILABLE] = avail_kb;
	for (size_t i = 0; i < n; i++) {
		struct proc_sample *p = snapshot_add_proc(s);
		p->pid = (int32_t)i + 1;
		p->start_ticks = 100;
		p->fig[PV_RSS] = rss[i];
		p->fig[PV_SWAP] = 0;
		p->valid = columns_filled_by(NEED_STAT | NEED_STATM) | COL_BIT(COL_SWAP);
		snprintf(p->comm, sizeof(p->comm), "proc%zu", i + 1);
	}
	if (kill > 0) {
		struct mt_event *e = snapshot_add_event(s);
		e->type = MT_EV_OOM_KILL;
		e->pid = kill;
		e->ts = kill_ts;
		snprintf(e->comm, sizeof(e->comm), "proc%d", kill);
		if (box.on)
			snprintf(e->memcg, sizeof(e->memcg), "/box/job");
	}
	if (box.on)
		add_box(s);
	model_step(m);
}

/* The bound doc/forecasts.md states: 2000 processes for an hour at 1 s, and as many more coming and
 * going (5 a second, each kept 2 minutes after it went) */
static void history_bound(void **state)
{
	(void)state;
	size_t nfig = n_sys_figures;
	bool mean[nfig];
	double figs[nfig];
	for (size_t f = 0; f < nfig; f++) {
		mean[f] = f % 2;
		figs[f] = (double)f;
	}
	struct history *h = history_new(nfig, mean);
	struct snapshot snap, *s = &snap;
	snapshot_init(s);
	size_t after10 = 0;
	int32_t next = 1000000;
	for (int t = 0; t < 3600; t++) {
		snapshot_reuse(s);
		s->mono = t;
		s->wall = 1.7e9 + t;
		for (int i = 0; i < 2000; i++) {
			struct proc_sample *p = snapshot_add_proc(s);
			p->pid = i + 1;
			p->start_ticks = 1;
			p->fig[PV_RSS] = (uint64_t)(1000 + t);
			p->fig[PV_MINFLT] = (uint64_t)t * 7;
			p->valid = columns_filled_by(NEED_STAT | NEED_STATM);
		}
		for (int i = 0; i < 5; i++) { /* each lives a second */
			struct proc_sample *p = snapshot_add_proc(s);
			p->pid = next++;
			p->start_ticks = 1;
			p->valid = columns_filled_by(NEED_STAT | NEED_STATM);
		}
		history_record(h, s, figs);
		if (t == 600)
			after10 = history_bytes(h);
	}
	size_t bytes = history_bytes(h), per = history_bytes_per_proc_sample();
	printf("history: %zu B per process-sample, %zu B at 2000 processes + churn after an hour "
	       "(%zu after 10 min)\n",
	       per, bytes, after10);
	assert_int_equal(per, 16);
	/* 2000 + 600 gone ones kept, 184 slots each and 128 bytes of their own, and the system
	 * figures: 900 + 360 slots of a float each and two times and a count, and 64 KiB */
	assert_true(bytes <
		    2600 * (184 * per + 128) + 1260 * (nfig * sizeof(float) + 20) + 64 * 1024);
	assert_true(bytes <= after10 + after10 / 50);
	/* the oldest sample is an hour old: thinned, not dropped */
	double rss[1], fig[1];
	history_proc_series(h, 1, 1, COL_RSS, 100, 100, rss, 1);
	assert_true(!isnan(rss[0]) && rss[0] >= 1000 && rss[0] <= 1100);
	history_sys_series(h, 3, 100, 100, fig, 1);
	assert_float_equal(fig[0], 3, 1e-9);
	history_free(h);
	snapshot_free(s);
}

static void growth_and_leak(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	/* proc1 grows 5 MiB a second; proc2 is flat; proc3 grows and shrinks by turns */
	for (int t = 0; t <= 720; t++) {
		uint64_t rss[3] = {
			100000 + 5120 * (uint64_t)t, 50000,
			(uint64_t)(200000 + (t % 120 < 60 ? t % 120 : 120 - t % 120) * 1000)};
		push(&m, t, rss, 3, 20 << 20, 0, 0);
		if (t == 30) { /* 30 s: over the 30 s seen */
			assert_true(m.all[0].p->valid & COL_BIT(COL_GROW));
			assert_float_equal(row_number(&m.all[0], COL_GROW), 5120 * 60, 1e-6);
			assert_float_equal(row_number(&m.all[1], COL_GROW), 0, 1e-9);
		}
	}
	assert_float_equal(row_number(&m.all[0], COL_GROW), 5120 * 60, 1e-6);
	assert_float_equal(row_number(&m.all[0], COL_GROW10), 5120 * 60, 1e-6);
	assert_true(m.all[0].leak);
	assert_false(m.all[1].leak);
	assert_false(m.all[2].leak);
	/* proc1 stops: its GROW falls to 0 within 70 s (the minute, and a 10 s slot); four
	 * flat minutes of the ten, and it is no longer a suspect */
	uint64_t top = 100000 + 5120 * 720;
	for (int t = 721; t <= 960; t++) {
		uint64_t rss[3] = {top, 50000, 200000};
		push(&m, t, rss, 3, 20 << 20, 0, 0);
		if (t == 792)
			assert_float_equal(row_number(&m.all[0], COL_GROW), 0, 1e-9);
	}
	assert_true(row_number(&m.all[0], COL_GROW10) > 0);
	assert_false(m.all[0].leak);
	model_free(&m);
}

static void slope_arithmetic(void **state)
{
	(void)state;
	bool ok;
	double t[5] = {-4, -3, -2, -1, 0}, v[5] = {100, 90, 80, 70, 60};
	assert_float_equal(history_slope(t, v, 5, 2, &ok), -10, 1e-9);
	assert_true(ok);
	history_slope(t, v, 2, 0, &ok);
	assert_false(ok); /* too few */
	history_slope(t, v, 5, 10, &ok);
	assert_false(ok); /* too short */
	double w[5] = {100, NAN, 80, NAN, 60};
	assert_float_equal(history_slope(t, w, 5, 2, &ok), -10, 1e-9);
	assert_true(ok);
}

/* MemAvailable + SwapFree (KiB) as memtop --json -d 1 recorded them on the project's VM
 * (24 GiB, no swap) while tests/helpers/grow_child 64 40 ran: it started after the
 * first line, grew by 64 MiB/s to line 42 and held its memory after (something else freed
 * 250 MiB at line 60). */
static const double recorded[] = {
	23926964, 23892992, 23892488, 23822480, 23752744, 23681828, 23624928, 23559284, 23517380,
	23450396, 23338752, 23325860, 23261900, 23200880, 23121292, 23064640, 22909576, 22889284,
	22873524, 22793504, 22723044, 22650452, 22593000, 22452328, 22437256, 22351264, 22323040,
	22259920, 22113740, 22047476, 21984784, 21916384, 21868572, 21860056, 21800156, 21728348,
	21664748, 21605572, 21539652, 21464812, 21396936, 21333156, 21298828, 21298164, 21297948,
	21297240, 21297768, 21296480, 21295584, 21295504, 21295748, 21294952, 21294696, 21295148,
	21295372, 21301464, 21312300, 21316916, 21321424, 21325380, 21571304, 21639420, 21640464,
	21643276, 21643276, 21643368, 21645580, 21645580, 21645800, 21640320, 21640348, 21640380,
	21640380, 21640088, 21640144, 21640176, 21640268, 21640388, 21640128, 21640128, 21640188,
	21640220, 21640252, 21646148, 21646104, 21646256, 21646276, 21648080, 21603764, 21617752,
	21617784, 21617828, 21626440, 21573092, 21607428, 21616960, 21623220, 21610452, 21550232,
	21563016,
};

static void forecast_on_recorded(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	size_t n = sizeof(recorded) / sizeof(recorded[0]), last_said = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t rss[1] = {1000};
		push(&m, (double)i, rss, 1, (uint64_t)recorded[i], 0, 0);
		if (i < 12) /* under 12 s of samples (FC_MIN_SPAN): none */
			assert_true(m.fc.exhaustion_s < 0);
		if (i >= 25 && i <= 40) { /* growing: avail / 64 MiB/s, within 10 % */
			double want = recorded[i] / 65536.0;
			assert_true(m.fc.exhaustion_s > want * 0.9 &&
				    m.fc.exhaustion_s < want * 1.1);
		}
		if (m.fc.exhaustion_s >= 0)
			last_said = i;
	}
	/* the growth stopped at line 42: gone within a minute, and not back */
	assert_true(last_said > 42 && last_said < 42 + 60);
	model_free(&m);
}

static void oom_post_mortem(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	for (int t = 0; t <= 40; t++) {
		uint64_t rss[3] = {1000 + 10240 * (uint64_t)t, 100000, 2000};
		push(&m, t, rss, 3, 1 << 20, 0, 0);
	}
	/* proc1 is killed 0.5 s after the refresh at 40 s; the refresh at 41 s reports it (its
	 * growth needs 30 s seen: GROWTH_MIN_SPAN) */
	uint64_t rss[2] = {100000, 2000};
	push(&m, 41, rss, 2, 1 << 20, 1, 1.7e9 + 40.5);
	assert_int_equal(m.noom, 1);
	const struct oom_before *b = &m.before[0];
	assert_true(b->valid);
	assert_float_equal(b->mono, 40, 1e-9);
	assert_float_equal(b->since, 0.5, 1e-6);
	assert_int_equal(b->mem_available_kb, 1 << 20);
	assert_int_equal(b->ntop, 3);
	assert_int_equal(b->top[0].pid, 1); /* 410 MB, the largest */
	assert_int_equal(b->top[1].pid, 2);
	assert_float_equal(b->top[0].growth_kb_per_min, 10240 * 60, 1e-6);
	assert_int_equal(b->grow[0].pid, 1);
	/* its curve: the minute before, 1 s steps, the last at that refresh */
	assert_float_equal(b->victim_rss_kb[OOM_BEFORE_CURVE - 1], 1000 + 10240 * 40, 1e-3);
	assert_float_equal(b->victim_rss_kb[OOM_BEFORE_CURVE - 11], 1000 + 10240 * 30, 1e-3);
	assert_true(isnan(b->victim_rss_kb[0])); /* before it was seen */
	assert_null(b->cg);			 /* not in a limited cgroup */
	model_free(&m);
}

/* A kill in a limited cgroup: the cgroup's part of its post-mortem, and the victim's curve
 * at every 1 s sample of the minute before */
static void oom_post_mortem_cgroup(void **state)
{
	(void)state;
	struct model m;
	struct prefs pr;
	prefs_init(&pr);
	model_init(&m, &pr);
	box.on = true;
	box.oom_kills = 0;
	for (int t = 0; t <= 90; t++) {
		uint64_t rss[2] = {1000 + 10240 * (uint64_t)t, 2000};
		box.usage_kb = 5000 + 10240 * (uint64_t)t;
		push(&m, t, rss, 2, 1 << 20, 0, 0);
	}
	snprintf(m.verdict.text, sizeof(m.verdict.text), "/box 90%% of 1.0G");
	uint64_t rss[1] = {2000};
	box.oom_kills = 1;
	push(&m, 91, rss, 1, 1 << 20, 1, 1.7e9 + 90.5);
	box.on = false;
	const struct oom_before *b = &m.before[0];
	assert_true(b->valid);
	for (int k = 0; k < OOM_BEFORE_CURVE; k++) /* each second's own sample */
		assert_float_equal(b->victim_rss_kb[k], 1000 + 10240 * (30 + k), 1e-3);
	const struct oom_cgroup *cg = b->cg;
	assert_non_null(cg);
	assert_string_equal(cg->path, "/box");
	assert_int_equal(cg->limit_kb, 1 << 20);
	assert_int_equal(cg->usage_kb, 5000 + 10240 * 90);
	assert_int_equal(cg->n, 91); /* every refresh, at its time before the kill */
	assert_float_equal(cg->t[0], -90.5, 1e-4);
	assert_float_equal(cg->t[90], -0.5, 1e-4);
	assert_float_equal(cg->usage_kb_at[0], 5000, 1e-3);
	assert_float_equal(cg->usage_kb_at[60], 5000 + 10240 * 60, 1e-3);
	assert_int_equal(cg->ntasks, 1);
	assert_int_equal(cg->nprocs, 1);
	assert_int_equal(cg->procs[0].pid, 1);
	assert_int_equal(cg->procs[0].rss_kb, 1000 + 10240 * 90);
	assert_float_equal(cg->procs[0].growth_kb_per_min, 10240 * 60, 1e-3);
	assert_int_equal(cg->oom_kills_before, 0);
	assert_int_equal(cg->oom_kills_after, 1);
	assert_string_equal(cg->verdict, "/box 90% of 1.0G");
	model_free(&m);
}

UNIT_GROUP(history)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(history_bound),    cmocka_unit_test(growth_and_leak),
		cmocka_unit_test(slope_arithmetic), cmocka_unit_test(forecast_on_recorded),
		cmocka_unit_test(oom_post_mortem),  cmocka_unit_test(oom_post_mortem_cgroup),
	};
	return cmocka_run_group_tests_name("history", tests, NULL, NULL);
}
