/* The cgroup model: rates over two reads, shares of the limit, sorting, the tree order and
 * the path filter, on snapshots made here. */
#include <math.h>
#include <string.h>

#include "cgmodel.h"
#include "unit.h"

/* Adds a cgroup; parent is the index of its parent or -1 */
static struct cg_sample *add(struct snapshot *s, const char *path, uint64_t id, int parent)
{
	struct cg_sample *c = snapshot_add_cgroup(s, path);
	c->id = id;
	c->parent = parent;
	c->depth = parent < 0 ? 0 : s->cgroups[parent].depth + 1;
	return c;
}

static void set(struct cg_sample *c, int col, uint64_t v)
{
	c->v[col] = v;
	c->valid |= CGCOL_BIT(col);
}

static void set_max(struct cg_sample *c, int col)
{
	set(c, col, 0);
	c->unlimited |= CGCOL_BIT(col);
}

/* A tree: / (unlimited), /a (limit 1000, usage 900), /a/x (usage 100), /b (usage 500,
 * limit 0), refaults as given */
static void fill(struct snapshot *s, double mono, const uint64_t refaults[4])
{
	snapshot_init(s);
	s->mono_cgroups = mono;
	struct cg_sample *root = add(s, "/", 1, -1), *a = add(s, "/a", 10, 0);
	struct cg_sample *x = add(s, "/a/x", 11, 1), *b = add(s, "/b", 20, 0);
	set(root, CGCOL_USAGE, 2000);
	set_max(root, CGCOL_LIMIT);
	set(a, CGCOL_USAGE, 900);
	set(a, CGCOL_LIMIT, 1000);
	set(x, CGCOL_USAGE, 100);
	set_max(x, CGCOL_LIMIT);
	set(b, CGCOL_USAGE, 500);
	set(b, CGCOL_LIMIT, 0);
	struct cg_sample *all[] = {root, a, x, b};
	for (int i = 0; i < 4; i++) {
		if (refaults[i] != UINT64_MAX)
			set(all[i], CGCOL_REFAULTS, refaults[i]);
		set(all[i], CGCOL_PSI_SOME, 1250);
	}
}

static const char *path(const struct cg_model *m, size_t i)
{
	return m->rows[i].c->path;
}

static void values_and_rates(void **state)
{
	(void)state;
	struct snapshot s1, s2;
	struct cg_model m;
	struct cg_order o = {.sort = CGCOL_USAGE};
	const uint64_t r1[] = {5000, 1000, 0, UINT64_MAX}, r2[] = {5600, 1600, 10, 40};
	fill(&s1, 100.0, r1);
	fill(&s2, 102.0, r2);
	/* /b is new in the second read: its id changed */
	s2.cgroups[3].id = 21;
	cgmodel_init(&m);
	cgmodel_update(&m, &s1, NULL, &o);
	assert_int_equal(m.nall, 4);
	assert_false(cg_row_valid(&m.all[0], CGCOL_REFAULTS)); /* one read: no rate */
	assert_true(cg_row_valid(&m.all[0], CGCOL_PATH));
	assert_string_equal(cg_row_text(&m.all[0], CGCOL_PATH), "/");
	assert_null(cg_row_text(&m.all[0], CGCOL_USAGE));

	cgmodel_update(&m, &s2, &s1, &o);
	assert_float_equal(m.dt, 2.0, 1e-9);
	assert_float_equal(cg_row_number(&m.all[0], CGCOL_REFAULTS), 300.0, 1e-9);
	assert_float_equal(cg_row_number(&m.all[1], CGCOL_REFAULTS), 300.0, 1e-9);
	assert_float_equal(cg_row_number(&m.all[2], CGCOL_REFAULTS), 5.0, 1e-9);
	assert_false(cg_row_valid(&m.all[3], CGCOL_REFAULTS)); /* not seen before */
	/* the share of the limit, where there is one */
	assert_float_equal(cg_row_number(&m.all[1], CGCOL_USAGE_PCT), 90.0, 1e-9);
	assert_false(cg_row_valid(&m.all[0], CGCOL_USAGE_PCT)); /* max */
	assert_false(cg_row_valid(&m.all[3], CGCOL_USAGE_PCT)); /* a limit of 0 */
	/* limits of max: +inf to sort by, and no value for JSON */
	assert_true(cg_row_unlimited(&m.all[0], CGCOL_LIMIT));
	assert_false(cg_row_unlimited(&m.all[1], CGCOL_LIMIT));
	assert_true(isinf(cg_row_number(&m.all[0], CGCOL_LIMIT)));
	assert_float_equal(cg_row_number(&m.all[0], CGCOL_PSI_SOME), 12.5, 1e-9);
	/* BPF's columns: no value until a source fills them */
	assert_false(cg_row_valid(&m.all[0], CGCOL_STALL));
	cgmodel_free(&m);
	snapshot_free(&s1);
	snapshot_free(&s2);
}

/* A counter since memtop's start (BPF stalls) on a cgroup first seen: over the interval */
static void since_start_rate(void **state)
{
	(void)state;
	struct snapshot s1, s2;
	struct cg_model m;
	struct cg_order o = {.sort = CGCOL_STALL};
	const uint64_t r[] = {0, 0, 0, 0};
	fill(&s1, 10.0, r);
	fill(&s2, 14.0, r);
	set(&s1.cgroups[1], CGCOL_STALL, 1000000);
	set(&s2.cgroups[1], CGCOL_STALL, 5000000);
	set(&s2.cgroups[3], CGCOL_STALL, 2000000);
	s2.cgroups[3].id = 99;
	cgmodel_init(&m);
	cgmodel_update(&m, &s2, &s1, &o);
	assert_float_equal(cg_row_number(&m.all[1], CGCOL_STALL), 1000.0, 1e-9); /* us/s */
	assert_float_equal(cg_row_number(&m.all[3], CGCOL_STALL), 500.0, 1e-9);
	/* sorted by it: the rows without a value last */
	assert_string_equal(path(&m, 0), "/a");
	assert_string_equal(path(&m, 1), "/b");
	assert_string_equal(path(&m, 2), "/");
	assert_string_equal(path(&m, 3), "/a/x");
	cgmodel_free(&m);
	snapshot_free(&s1);
	snapshot_free(&s2);
}

static void sorting(void **state)
{
	(void)state;
	struct snapshot s;
	struct cg_model m;
	const uint64_t r[] = {0, 0, 0, UINT64_MAX};
	fill(&s, 1.0, r);
	cgmodel_init(&m);
	struct cg_order o = {.sort = CGCOL_USAGE};
	cgmodel_update(&m, &s, NULL, &o);
	assert_string_equal(path(&m, 0), "/");
	assert_string_equal(path(&m, 1), "/a");
	assert_string_equal(path(&m, 2), "/b");
	assert_string_equal(path(&m, 3), "/a/x");
	o.invert = true;
	cgmodel_order(&m, &o);
	assert_string_equal(path(&m, 0), "/a/x");
	assert_string_equal(path(&m, 3), "/");
	/* limits: the tightest first, max last */
	o = (struct cg_order){.sort = CGCOL_LIMIT};
	cgmodel_order(&m, &o);
	assert_string_equal(path(&m, 0), "/b");
	assert_string_equal(path(&m, 1), "/a");
	assert_string_equal(path(&m, 2), "/");
	assert_string_equal(path(&m, 3), "/a/x");
	/* by the share: without one, last, also inverted */
	o = (struct cg_order){.sort = CGCOL_USAGE_PCT, .invert = true};
	cgmodel_order(&m, &o);
	assert_string_equal(path(&m, 0), "/a");
	assert_false(cg_row_valid(&m.rows[1], CGCOL_USAGE_PCT));
	/* by path */
	o = (struct cg_order){.sort = CGCOL_PATH};
	cgmodel_order(&m, &o);
	assert_string_equal(path(&m, 0), "/");
	assert_string_equal(path(&m, 1), "/a");
	assert_string_equal(path(&m, 2), "/a/x");
	assert_string_equal(path(&m, 3), "/b");
	cgmodel_free(&m);
	snapshot_free(&s);
}

static void tree_and_filter(void **state)
{
	(void)state;
	struct snapshot s;
	struct cg_model m;
	const uint64_t r[] = {0, 0, 0, 0};
	fill(&s, 1.0, r);
	/* /b gets a child larger than /a's */
	struct cg_sample *y = add(&s, "/b/y", 21, 3);
	set(y, CGCOL_USAGE, 400);
	cgmodel_init(&m);
	struct cg_order o = {.sort = CGCOL_USAGE, .invert = true, .tree = true};
	cgmodel_update(&m, &s, NULL, &o);
	/* siblings in sort order (ascending usage here), each under its parent */
	static const char *order[] = {"/", "/b", "/b/y", "/a", "/a/x"};
	static const int depth[] = {0, 1, 2, 1, 2};
	static const bool last[] = {true, false, true, true, true};
	assert_int_equal(m.nrows, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(path(&m, i), order[i]);
		assert_int_equal(m.rows[i].depth, depth[i]);
		assert_int_equal(m.rows[i].last, last[i]);
	}
	assert_int_equal(m.rows[2].more, 1); /* /b has a later sibling */
	assert_int_equal(m.rows[4].more, 0);
	/* the filter keeps a match's ancestors in the tree */
	o.filter = "X";
	cgmodel_order(&m, &o);
	assert_int_equal(m.nrows, 3);
	assert_string_equal(path(&m, 0), "/");
	assert_string_equal(path(&m, 1), "/a");
	assert_string_equal(path(&m, 2), "/a/x");
	/* and only the matches when flat */
	o.tree = false;
	cgmodel_order(&m, &o);
	assert_int_equal(m.nrows, 1);
	assert_string_equal(path(&m, 0), "/a/x");
	o.filter = "nothing";
	cgmodel_order(&m, &o);
	assert_int_equal(m.nrows, 0);
	o.tree = true;
	cgmodel_order(&m, &o);
	assert_int_equal(m.nrows, 0);
	cgmodel_free(&m);
	snapshot_free(&s);
}

static void empty(void **state)
{
	(void)state;
	struct snapshot s1, s2;
	struct cg_model m;
	struct cg_order o = {.sort = CGCOL_USAGE, .tree = true};
	snapshot_init(&s1);
	snapshot_init(&s2);
	cgmodel_init(&m);
	cgmodel_update(&m, &s2, &s1, &o);
	assert_int_equal(m.nrows, 0);
	assert_float_equal(m.dt, 0, 0);
	cgmodel_free(&m);
}

/* A snapshot reused for the next refresh keeps its arrays and frees the paths */
static void snapshot_reused(void **state)
{
	(void)state;
	struct snapshot s;
	const uint64_t r[] = {0, 0, 0, 0};
	fill(&s, 1.0, r);
	s.cg_self.path = strdup("/a");
	struct cg_sample *arr = s.cgroups;
	snapshot_reuse(&s);
	assert_int_equal(s.ncgroups, 0);
	assert_ptr_equal(s.cgroups, arr);
	assert_null(s.cg_self.path);
	add(&s, "/z", 5, -1);
	snapshot_drop_cgroup(&s, 0);
	assert_int_equal(s.ncgroups, 0);
	snapshot_free(&s);
}

UNIT_GROUP(cgmodel)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_and_rates),
		cmocka_unit_test(since_start_rate),
		cmocka_unit_test(sorting),
		cmocka_unit_test(tree_and_filter),
		cmocka_unit_test(empty),
		cmocka_unit_test(snapshot_reused),
	};
	return cmocka_run_group_tests_name("cgmodel", tests, NULL, NULL);
}
