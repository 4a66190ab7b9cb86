/* OOM kills per memory cgroup, counted by the cgroup source from kill events: in a listed
 * cgroup and its ancestors, matched by id (or by path until the listing gives the id),
 * kept for a removed cgroup, listed as removed for an hour after its last kill and then
 * kept in its nearest ancestor's count. On snapshots made here, as the sources fill them:
 * the cgroups listed, then the kill events of the refresh. */
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "cgroup_names.h"
#include "cgroup_reader.h"
#include "unit.h"

#define T0 1763900000.0 /* wall clock of the first refresh */

/* A refresh: the cgroups listed (path and id; "" ends the list; parents from the paths'
 * order, as the reader lists them: each after its parent), and the kills in it */
struct kill {
	const char *memcg;
	uint64_t id;
	bool earlier;
};

static void refresh(struct cg_reader *r, struct snapshot *s, double wall, const char *const *paths,
		    const uint64_t *ids, const struct kill *kills, size_t nkills)
{
	snapshot_reuse(s);
	s->wall = wall;
	s->bpf.have_oom = true;
	s->cg_cols = CGCOL_BIT(CGCOL_OOM_KILLS);
	for (size_t i = 0; paths[i][0]; i++) {
		struct cg_sample *c = snapshot_add_cgroup(s, paths[i]);
		c->id = ids[i];
		/* the nearest earlier path that is a prefix up to a slash */
		for (size_t j = i; j-- > 0;) {
			size_t n = strlen(paths[j]);
			if (!strcmp(paths[j], "/") ||
			    (!strncmp(paths[i], paths[j], n) && paths[i][n] == '/')) {
				c->parent = (int32_t)j;
				c->depth = s->cgroups[j].depth + 1;
				break;
			}
		}
	}
	if (r->names) /* as cg_collect names them, before the BPF maps are read */
		cg_names_fill(r->names, s);
	for (size_t k = 0; k < nkills; k++) {
		struct mt_event *e = snapshot_add_event(s);
		e->type = MT_EV_OOM_KILL;
		e->ts = wall - 0.5;
		e->earlier = kills[k].earlier;
		e->memcg_id = kills[k].id;
		snprintf(e->memcg, sizeof(e->memcg), "%s", kills[k].memcg);
	}
	cg_count_kills(r, s, 0);
	cg_fill_kills(r, s);
}

static const struct cg_sample *row(const struct snapshot *s, const char *path, bool removed)
{
	for (size_t i = 0; i < s->ncgroups; i++)
		if (!strcmp(s->cgroups[i].path, path) && s->cgroups[i].removed == removed)
			return &s->cgroups[i];
	return NULL;
}

/* The OOM count of a row; -1 for a row missing or without one */
static long kills_of(const struct snapshot *s, const char *path, bool removed)
{
	const struct cg_sample *c = row(s, path, removed);
	return c && (c->valid & CGCOL_BIT(CGCOL_OOM_KILLS)) ? (long)c->v[CGCOL_OOM_KILLS] : -1;
}

static const char *const tree[] = {"/", "/a", "/a/b", "/a/b/c", "/d", ""};
static const uint64_t tree_ids[] = {1, 10, 11, 12, 20};

static void counted_in_it_and_above(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	refresh(r, &s, T0, tree, tree_ids, NULL, 0);
	for (size_t i = 0; tree[i][0]; i++)
		assert_int_equal(kills_of(&s, tree[i], false), 0);
	/* by id; a kill from before memtop started is not counted */
	const struct kill k1[] = {{"/a/b", 11, false}, {"/a/b", 11, false}, {"/d", 20, true}};
	refresh(r, &s, T0 + 1, tree, tree_ids, k1, 3);
	assert_int_equal(kills_of(&s, "/a/b", false), 2);
	assert_int_equal(kills_of(&s, "/a", false), 2);
	assert_int_equal(kills_of(&s, "/", false), 2);
	assert_int_equal(kills_of(&s, "/a/b/c", false), 0);
	assert_int_equal(kills_of(&s, "/d", false), 0);
	assert_int_equal(s.ncgroups, 5);
	/* since start: the next refresh, without kills, keeps them */
	refresh(r, &s, T0 + 2, tree, tree_ids, NULL, 0);
	assert_int_equal(kills_of(&s, "/a/b", false), 2);
	assert_int_equal(kills_of(&s, "/", false), 2);
	/* the event's path cut short (deeper than BPF reads) is matched by id */
	const struct kill k2[] = {{"/.../b/c", 12, false}};
	refresh(r, &s, T0 + 3, tree, tree_ids, k2, 1);
	assert_int_equal(kills_of(&s, "/a/b/c", false), 1);
	assert_int_equal(kills_of(&s, "/a/b", false), 3);
	assert_int_equal(s.ncgroups, 5);
	snapshot_free(&s);
	cg_close(r);
}

/* a kill whose event has no id (the kernel log's) is matched by path, and then by the id
 * the listing gives */
static void matched_by_path(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(2, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	const struct kill k[] = {{"/d", 0, false}};
	refresh(r, &s, T0, tree, tree_ids, k, 1);
	assert_int_equal(kills_of(&s, "/d", false), 1);
	const struct kill k2[] = {{"/d", 20, false}};
	refresh(r, &s, T0 + 1, tree, tree_ids, k2, 1);
	assert_int_equal(kills_of(&s, "/d", false), 2);
	assert_int_equal(s.ncgroups, 5);
	snapshot_free(&s);
	cg_close(r);
}

/* a cgroup removed after its kill stays listed as removed, under its nearest ancestor,
 * for an hour after its last kill; then its kills stay in its ancestors' counts */
static void removed_for_an_hour(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	const struct kill k[] = {{"/a/b/c", 12, false}, {"/a/b", 11, false}};
	refresh(r, &s, T0, tree, tree_ids, k, 2);
	static const char *const gone[] = {"/", "/a", "/d", ""};
	static const uint64_t gone_ids[] = {1, 10, 20};
	refresh(r, &s, T0 + 1, gone, gone_ids, NULL, 0);
	assert_int_equal(s.ncgroups, 5);
	const struct cg_sample *b = row(&s, "/a/b", true), *c = row(&s, "/a/b/c", true);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(b->valid, CGCOL_BIT(CGCOL_OOM_KILLS));
	assert_int_equal(b->id, 11);
	assert_int_equal(b->depth, 2);
	assert_int_equal(c->depth, 3);
	assert_string_equal(s.cgroups[b->parent].path, "/a");
	assert_ptr_equal(&s.cgroups[c->parent], b);
	assert_true(b - s.cgroups < c - s.cgroups);
	assert_int_equal(kills_of(&s, "/a/b/c", true), 1);
	assert_int_equal(kills_of(&s, "/a/b", true), 2);
	assert_int_equal(kills_of(&s, "/a", false), 2);
	assert_int_equal(kills_of(&s, "/", false), 2);
	assert_int_equal(kills_of(&s, "/d", false), 0);
	/* an hour on, still there; a second more, gone, the counts above it kept */
	refresh(r, &s, T0 + 3599, gone, gone_ids, NULL, 0);
	assert_int_equal(s.ncgroups, 5);
	refresh(r, &s, T0 + 3601, gone, gone_ids, NULL, 0);
	assert_int_equal(s.ncgroups, 3);
	assert_int_equal(kills_of(&s, "/a", false), 2);
	assert_int_equal(kills_of(&s, "/", false), 2);
	/* when /a goes too, its entry (kills from below it, over an hour ago) goes at once
	 * into the root's */
	static const char *const root_only[] = {"/", "/d", ""};
	static const uint64_t root_ids[] = {1, 20};
	refresh(r, &s, T0 + 3602, root_only, root_ids, NULL, 0);
	assert_int_equal(s.ncgroups, 2);
	assert_int_equal(kills_of(&s, "/", false), 2);
	snapshot_free(&s);
	cg_close(r);
}

/* the same path made again (a service restarted) is a new cgroup: the old one is listed
 * as removed beside it */
static void path_made_again(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	const struct kill k[] = {{"/d", 20, false}};
	refresh(r, &s, T0, tree, tree_ids, k, 1);
	static const uint64_t new_ids[] = {1, 10, 11, 12, 21};
	refresh(r, &s, T0 + 1, tree, new_ids, NULL, 0);
	assert_int_equal(s.ncgroups, 6);
	assert_int_equal(kills_of(&s, "/d", false), 0);
	assert_int_equal(kills_of(&s, "/d", true), 1);
	assert_int_equal(row(&s, "/d", true)->id, 20);
	assert_int_equal(kills_of(&s, "/", false), 1);
	snapshot_free(&s);
	cg_close(r);
}

/* without BPF OOM tracing the column has no value, and nothing is counted */
static void without_bpf(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	const struct kill k[] = {{"/d", 20, false}};
	refresh(r, &s, T0, tree, tree_ids, k, 1);
	snapshot_reuse(&s);
	s.wall = T0 + 1;
	struct cg_sample *c = snapshot_add_cgroup(&s, "/");
	c->id = 1;
	s.cg_cols = CGCOL_BIT(CGCOL_OOM_KILLS);
	struct mt_event *e = snapshot_add_event(&s);
	*e = (struct mt_event){.type = MT_EV_OOM_KILL, .ts = T0, .memcg_id = 1};
	cg_count_kills(r, &s, 0);
	cg_fill_kills(r, &s);
	assert_int_equal(s.ncgroups, 1);
	assert_false(s.cgroups[0].valid & CGCOL_BIT(CGCOL_OOM_KILLS));
	/* the kill in / above was not counted; /d's, with BPF, was */
	refresh(r, &s, T0 + 2, tree, tree_ids, NULL, 0);
	assert_int_equal(kills_of(&s, "/", false), 1);
	snapshot_free(&s);
	cg_close(r);
}

/* beyond the entries kept, the oldest go into the root's: the tree's count stays */
static void many_cgroups(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/");
	struct snapshot s;
	snapshot_init(&s);
	enum { N = 1500 };
	static struct kill k[N];
	static char names[N][16];
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "/gone%d", i);
		k[i] = (struct kill){names[i], 1000 + (uint64_t)i, false};
	}
	refresh(r, &s, T0, tree, tree_ids, k, N);
	assert_int_equal(kills_of(&s, "/", false), N);
	size_t removed = 0;
	for (size_t i = 0; i < s.ncgroups; i++)
		removed += s.cgroups[i].removed;
	assert_true(removed > 0 && removed < N);
	refresh(r, &s, T0 + 7200, tree, tree_ids, NULL, 0);
	assert_int_equal(s.ncgroups, 5);
	assert_int_equal(kills_of(&s, "/", false), N);
	snapshot_free(&s);
	cg_close(r);
}

/* a kill outside the hierarchy read (memtop in a container whose cgroup is mounted) is
 * counted but never listed */
static void outside_the_root(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/a");
	struct snapshot s;
	snapshot_init(&s);
	static const char *const sub[] = {"/a", "/a/b", ""};
	static const uint64_t sub_ids[] = {10, 11};
	const struct kill k[] = {{"/d", 20, false}, {"/a/x", 13, false}};
	refresh(r, &s, T0, sub, sub_ids, k, 2);
	assert_int_equal(s.ncgroups, 3);
	assert_int_equal(kills_of(&s, "/a/x", true), 1);
	assert_int_equal(row(&s, "/a/x", true)->depth, 1);
	assert_int_equal(kills_of(&s, "/a", false), 1);
	snapshot_free(&s);
	cg_close(r);
}

/* A path as BPF gives it: its components cut short, and those above the deepest few */
static void path_cut(void **state)
{
	(void)state;
	assert_true(cg_path_cut_of("/", "/"));
	assert_true(cg_path_cut_of("/a/b", "/a/b"));
	assert_true(cg_path_cut_of("/a/b", "/a/bcd"));
	assert_true(cg_path_cut_of("/ab/b", "/abc/bcd"));
	assert_true(cg_path_cut_of("/.../c/d", "/a/b/c/d"));
	assert_true(cg_path_cut_of("/.../c/d", "/c/d"));
	assert_false(cg_path_cut_of("/a/b", "/a/b/c"));
	assert_false(cg_path_cut_of("/b/c", "/a/b/c"));
	assert_false(cg_path_cut_of("/a/bcd", "/a/bc"));
	assert_false(cg_path_cut_of("/a/x", "/a/b"));
	assert_false(cg_path_cut_of("/.../x/d", "/a/b/c/d"));
	assert_false(cg_path_cut_of("/a", "/"));
}

#define PODID "3f4e8a1c9b2d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f"

/* A container's cgroup, removed between the refresh before its kill and the one that reads
 * the kill, whose event's path BPF cut short (a component of 63 bytes): the event gets the
 * path whole, and the removed cgroup's row keeps the name it was listed with */
static void removed_container_named(void **state)
{
	(void)state;
	struct cg_reader *r = cg_open_at(1, "/nonexistent", "/");
	struct snapshot s;
	const char *full = "/libpod_parent/libpod-" PODID;
	const char *const listed[] = {"/", "/libpod_parent", full, ""};
	const char *const after[] = {"/", "/libpod_parent", ""};
	const uint64_t ids[] = {1, 30, 31};
	char cut[80];

	r->names = cg_names_new("/nonexistent"); /* no store: named by the id's 12 digits */
	snapshot_init(&s);
	refresh(r, &s, T0, listed, ids, NULL, 0);
	assert_string_equal(row(&s, full, false)->name, "3f4e8a1c9b2d");
	snprintf(cut, sizeof(cut), "/libpod_parent/%.63s", full + 15);
	const struct kill k[] = {{cut, 31, false}};
	refresh(r, &s, T0 + 1, after, ids, k, 1);
	assert_string_equal(s.events[0].memcg, full);
	const struct cg_sample *c = row(&s, full, true);
	assert_non_null(c);
	assert_string_equal(c->name, "3f4e8a1c9b2d");
	assert_int_equal(c->runtime, CG_RT_PODMAN);
	assert_int_equal(kills_of(&s, full, true), 1);
	/* later refreshes keep the name of the removed row */
	refresh(r, &s, T0 + 2, after, ids, NULL, 0);
	assert_string_equal(row(&s, full, true)->name, "3f4e8a1c9b2d");
	/* gone two refreshes ago, or a path not of that cgroup: the event keeps its own */
	const struct kill k2[] = {{cut, 31, false}, {"/other/x", 30, false}};
	refresh(r, &s, T0 + 3, after, ids, k2, 2);
	assert_string_equal(s.events[0].memcg, cut);
	assert_string_equal(s.events[1].memcg, "/other/x");
	snapshot_free(&s);
	cg_close(r);
}

UNIT_GROUP(cgkills)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counted_in_it_and_above),
		cmocka_unit_test(matched_by_path),
		cmocka_unit_test(removed_for_an_hour),
		cmocka_unit_test(path_made_again),
		cmocka_unit_test(without_bpf),
		cmocka_unit_test(many_cgroups),
		cmocka_unit_test(outside_the_root),
		cmocka_unit_test(path_cut),
		cmocka_unit_test(removed_container_named),
	};
	return cmocka_run_group_tests_name("cgkills", tests, NULL, NULL);
}
