/* The tree of cgroups from the cgroup iterator's records (cgroup_tree.c): records in the
 * kernel's pre-order, siblings in the order they were made, become the listing's order
 * (each after its parent, siblings by name as strcmp orders bytes), with paths under
 * the hierarchy's path mounted, depths, and names kept raw; records that make no tree are
 * refused and leave the snapshot alone. */
#include <string.h>

#include "cgroup_tree.h"
#include "unit.h"

struct rec {
	uint64_t id, parent;
	const char *name;
};

static const char *name_of(const void *ctx, size_t i)
{
	return ((const struct rec *)ctx)[i].name;
}

/* cg_tree_build on n records; returns its result, s filled */
static int build(const struct rec *in, size_t n, const char *root, struct snapshot *s)
{
	struct mtb_cgroup_rec recs[16];
	struct cg_tree *t = cg_tree_new();

	assert_true(n <= 16);
	for (size_t i = 0; i < n; i++)
		recs[i] = (struct mtb_cgroup_rec){.id = in[i].id,
						  .parent_id = in[i].parent,
						  .seq = i,
						  .have = MTB_CG_NAMED,
						  .name_len = (uint16_t)strlen(in[i].name)};
	int rc = cg_tree_build(t, recs, n, name_of, in, root, s);
	cg_tree_free(t);
	return rc;
}

static void listing_order(void **state)
{
	(void)state;
	/* made in the order z, "a b\xc3\xa9", a, then their children; \xff after ASCII */
	const struct rec in[] = {
		{1, 0, ""},	  {10, 1, "z"},	 {11, 10, "y"}, {20, 1, "a b\xc3\xa9"},
		{21, 20, "\xff"}, {22, 20, "k"}, {30, 1, "a"},	{31, 30, "b"},
		{32, 31, "c d"},  {33, 30, "B"},
	};
	const struct {
		const char *path;
		uint64_t id;
		uint32_t depth;
	} want[] = {
		{"/", 1, 0},
		{"/a", 30, 1},
		{"/a/B", 33, 2},
		{"/a/b", 31, 2},
		{"/a/b/c d", 32, 3},
		{"/a b\xc3\xa9", 20, 1},
		{"/a b\xc3\xa9/k", 22, 2},
		{"/a b\xc3\xa9/\xff", 21, 2},
		{"/z", 10, 1},
		{"/z/y", 11, 2},
	};
	struct snapshot s;

	snapshot_init(&s);
	assert_int_equal(build(in, 10, "/", &s), 0);
	assert_int_equal(s.ncgroups, 10);
	for (size_t i = 0; i < 10; i++) {
		assert_string_equal(s.cgroups[i].path, want[i].path);
		assert_int_equal(s.cgroups[i].id, want[i].id);
		assert_int_equal(s.cgroups[i].depth, want[i].depth);
	}
	snapshot_free(&s);
}

static void under_a_container_root(void **state)
{
	(void)state;
	const struct rec in[] = {{5, 2, "ID"}, {6, 5, "x"}, {7, 6, "y"}};
	struct snapshot s;

	snapshot_init(&s);
	assert_int_equal(build(in, 3, "/docker/ID", &s), 0);
	assert_int_equal(s.ncgroups, 3);
	assert_string_equal(s.cgroups[0].path, "/docker/ID");
	assert_string_equal(s.cgroups[1].path, "/docker/ID/x");
	assert_string_equal(s.cgroups[2].path, "/docker/ID/x/y");
	assert_int_equal(s.cgroups[2].depth, 2);
	snapshot_free(&s);
}

static void no_tree_refused(void **state)
{
	(void)state;
	const struct rec orphan[] = {{1, 0, ""}, {2, 1, "a"}, {3, 9, "b"}};
	const struct rec slash[] = {{1, 0, ""}, {2, 1, "a/b"}};
	const struct rec empty[] = {{1, 0, ""}, {2, 1, ""}};
	const struct rec twice[] = {{1, 0, ""}, {2, 1, "a"}, {2, 1, "b"}};
	const struct rec child_first[] = {{1, 0, ""}, {3, 2, "c"}, {2, 1, "a"}};
	struct snapshot s;

	snapshot_init(&s);
	snapshot_add_cgroup(&s, "/kept");
	assert_int_equal(build(orphan, 3, "/", &s), -1);
	assert_int_equal(build(slash, 2, "/", &s), -1);
	assert_int_equal(build(empty, 2, "/", &s), -1);
	assert_int_equal(build(twice, 3, "/", &s), -1);
	assert_int_equal(build(child_first, 3, "/", &s), -1);
	assert_int_equal(build(orphan, 0, "/", &s), -1);
	assert_int_equal(s.ncgroups, 1);
	assert_string_equal(s.cgroups[0].path, "/kept");
	snapshot_free(&s);
}

UNIT_GROUP(cgtree)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(listing_order),
		cmocka_unit_test(under_a_container_root),
		cmocka_unit_test(no_tree_refused),
	};
	return cmocka_run_group_tests_name("cgtree", tests, NULL, NULL);
}
