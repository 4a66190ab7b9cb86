/* The largest slab caches kept in the history (history_slab.c): which enter and leave,
 * the bound on what they take, their series and growth, and the slab model's minute
 * started from them when the slab view opens again. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "history.h"
#include "slabmodel.h"
#include "unit.h"
#include "util.h"

#define NCACHE 24

struct run {
	struct history *h;
	struct snapshot s;
	double figs[1];
	char names[NCACHE][16];
	struct history_slab c[NCACHE];
};

static void run_init(struct run *r)
{
	bool mean[1] = {false};

	memset(r, 0, sizeof(*r));
	r->h = history_new(1, mean);
	snapshot_init(&r->s);
	for (int i = 0; i < NCACHE; i++) {
		snprintf(r->names[i], sizeof(r->names[i]), "cache%02d", i);
		r->c[i] = (struct history_slab){r->names[i], (uint64_t)(1000 - i) * 100};
	}
}

static void run_free(struct run *r)
{
	history_free(r->h);
	snapshot_free(&r->s);
}

/* A refresh at mono t, slabinfo read (the caches' sizes as they are) or not */
static void step(struct run *r, double t, bool read)
{
	snapshot_reuse(&r->s);
	r->s.mono = t;
	r->s.wall = 1.7e9 + t;
	history_record(r->h, &r->s, r->figs);
	if (read)
		history_record_slabs(r->h, r->c, NCACHE);
}

static bool kept(const struct history *h, const char *name)
{
	for (size_t i = 0; i < history_slab_count(h); i++)
		if (!strcmp(history_slab_name(h, i), name))
			return true;
	return false;
}

/* The 16 largest enter; four overtaken stay while out for less than ten minutes of
 * refreshes that read slabinfo (time with the view closed does not count), then go */
static void slab_enter_leave(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	int t = 0;
	for (; t < 100; t++)
		step(&r, t, true);
	assert_int_equal(history_slab_count(r.h), HISTORY_SLAB_TOP);
	assert_true(kept(r.h, "cache15"));
	assert_false(kept(r.h, "cache16"));
	for (int i = 20; i < NCACHE; i++) /* the last four the largest now */
		r.c[i].kb = 1000000;
	for (; t < 400; t++)
		step(&r, t, true);
	assert_int_equal(history_slab_count(r.h), HISTORY_SLAB_TOP + 4);
	assert_true(kept(r.h, "cache12") && kept(r.h, "cache23"));
	for (; t < 1400; t++) /* the view closed */
		step(&r, t, false);
	assert_int_equal(history_slab_count(r.h), HISTORY_SLAB_TOP + 4);
	for (; t < 1650; t++) /* 300 + 250 s out */
		step(&r, t, true);
	assert_true(kept(r.h, "cache12"));
	for (; t < 1720; t++)
		step(&r, t, true);
	assert_int_equal(history_slab_count(r.h), HISTORY_SLAB_TOP);
	assert_false(kept(r.h, "cache12") || kept(r.h, "cache15"));
	assert_true(kept(r.h, "cache11") && kept(r.h, "cache20"));
	/* not read for over an hour: nothing left to keep them for */
	for (; t < 5400; t++)
		step(&r, t, false);
	step(&r, t++, true);
	assert_int_equal(history_slab_count(r.h), HISTORY_SLAB_TOP);
	run_free(&r);
}

/* New largest caches at every refresh: never more than HISTORY_SLAB_MAX kept, and the
 * bytes they take bounded by as many series */
static void slab_bound(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 0, true);
	size_t empty = history_bytes(r.h) - history_slab_count(r.h) * 184 * sizeof(uint32_t);
	for (int t = 1; t < 3000; t++) {
		for (int i = 0; i < NCACHE; i++) {
			snprintf(r.names[i], sizeof(r.names[i]), "n%d_%d", t, i);
			r.c[i].kb = (uint64_t)(t * 100 + i);
		}
		step(&r, t, true);
		assert_true(history_slab_count(r.h) <= HISTORY_SLAB_MAX);
	}
	size_t per = 184 * sizeof(uint32_t), bytes = history_bytes(r.h);
	printf("slab history: %zu B a cache, %zu B more with %zu kept\n", per, bytes - empty,
	       history_slab_count(r.h));
	assert_int_equal(history_slab_count(r.h), HISTORY_SLAB_MAX);
	assert_true(bytes - empty <= HISTORY_SLAB_MAX * per);
	assert_true(kept(r.h, "n2999_23") && !kept(r.h, "n2999_0"));
	run_free(&r);
}

/* A cache growing 100 KiB a second: 6000 KiB a minute once 5 samples span 30 s; its
 * series has its sizes where read, none where not */
static void slab_growth_series(void **state)
{
	(void)state;
	struct run r;
	double g;
	run_init(&r);
	for (int t = 0; t <= 30; t++) {
		r.c[0].kb = 100000 + 100 * (uint64_t)t;
		step(&r, t, true);
		if (t == 29)
			assert_false(history_slab_growth(r.h, "cache00", 600, &g));
	}
	assert_true(history_slab_growth(r.h, "cache00", 600, &g));
	assert_float_equal(g, 6000, 1e-6);
	assert_true(history_slab_growth(r.h, "cache01", 600, &g));
	assert_float_equal(g, 0, 1e-9);
	assert_false(history_slab_growth(r.h, "cache20", 600, &g));
	for (int t = 31; t < 60; t++)
		step(&r, t, false);
	double v[4];
	assert_int_equal(history_slab_series(r.h, "cache00", 10, 40, v, 4), 3);
	assert_float_equal(v[0], 101000, 1e-9);
	assert_float_equal(v[2], 103000, 1e-9);
	assert_true(isnan(v[3]));
	assert_int_equal(history_slab_series(r.h, "cache20", 10, 40, v, 4), 0);
	run_free(&r);
}

/* The slab model's GROW/min, its view closed and opened again within the minute: from the
 * samples kept, at once */
static void slab_reopen(void **state)
{
	(void)state;
	struct run r;
	struct slab_model sm = {0};
	run_init(&r);
	r.s.page_kb = 4;
	for (int t = 0; t < 40; t++) {
		snapshot_reuse(&r.s);
		bool read = t < 20 || t >= 30;
		r.s.mono = t;
		r.s.page_kb = 4;
		r.s.slab.read = read;
		if (read) {
			struct slab_cache c = {.name = "dentry",
					       .num_slabs = 100 + (uint64_t)t,
					       .pagesperslab = 1};
			r.s.slab.caches = xrealloc(r.s.slab.caches, sizeof(c));
			r.s.slab.caches[0] = c;
			r.s.slab.n = 1;
		}
		history_record(r.h, &r.s, r.figs);
		slabmodel_update(&sm, &r.s, r.h);
		if (t == 30) { /* open again: 4 KiB a second since t = 0 */
			assert_int_equal(sm.n, 1);
			assert_true(sm.rows[0].valid & TABLE_BIT(SLABCOL_GROWTH));
			assert_float_equal(sm.rows[0].num[SLABCOL_GROWTH], 240, 1e-6);
		}
	}
	assert_true(sm.rows[0].valid & TABLE_BIT(SLABCOL_GROWTH10));
	assert_float_equal(sm.rows[0].num[SLABCOL_GROWTH10], 240, 1e-6);
	slabmodel_free(&sm);
	run_free(&r);
}

UNIT_GROUP(slab_history)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slab_enter_leave),
		cmocka_unit_test(slab_bound),
		cmocka_unit_test(slab_growth_series),
		cmocka_unit_test(slab_reopen),
	};
	return cmocka_run_group_tests_name("slab history", tests, NULL, NULL);
}
