/* The call tree of stacks (src/drill/dd_tree.c) from a hand-made list whose shares are
 * known: prefixes merged by function whatever the offsets, children by count, shares of
 * the kind's total that add up, the stack shown for a node, keys stable across builds. */
#include "unit.h"

#include <string.h>

#include "dd_tree.h"

#define FN(sym, off)                                                                               \
	{                                                                                          \
		.ip = 0x401000 + (off), .offset = (off), .found = true, .symbol = sym,             \
		.module = "/bin/p", .src = ""                                                      \
	}
#define KFN(sym)                                                                                   \
	{                                                                                          \
		.ip = 0xffffffff81000c82ULL, .kernel = true, .found = true, .symbol = sym,         \
		.module = "[kernel]", .src = ""                                                    \
	}

/* innermost first, kernel frames first */
static struct dd_frame f1[] = {KFN("exc_page_fault"), FN("touch", 0x10), FN("big", 0x5),
			       FN("main", 0x20), FN("_start", 0x1)};
static struct dd_frame f2[] = {KFN("exc_page_fault"), FN("touch", 0x10), FN("small", 0x8),
			       FN("main", 0x30), FN("_start", 0x1)};
static struct dd_frame f3[] = {FN("big", 0x9), FN("main", 0x20), FN("_start", 0x1)};
static struct dd_frame f4[] = {FN("touch", 0x12), FN("big", 0x5)};
static struct dd_frame f5[] = {FN("mmap64", 0x4), FN("small", 0xc), FN("main", 0x30),
			       FN("_start", 0x1)};
static struct dd_frame f6[] = {{.ip = 0x7f0000001234,
				.in_module = true,
				.mod_offset = 0x1234,
				.module = "/lib/q.so",
				.src = ""},
			       FN("main", 0x40),
			       FN("_start", 0x1)};

#define STACK(k, c, fr, nk, tr)                                                                    \
	{                                                                                          \
		.kind = k, .count = c, .samples = c, .nframes = (int)(sizeof(fr) / sizeof(fr[0])), \
		.nkernel = nk, .frames = fr, .truncated = tr                                       \
	}

static const char *name(const struct dd_node *n)
{
	return n->type == DD_NODE_KIND	  ? stack_kind_names[n->kind]
	       : n->type == DD_NODE_TRUNC ? "[truncated]"
	       : n->frame->symbol	  ? n->frame->symbol
					  : "?";
}

static void tree_of_stacks(void **state)
{
	(void)state;
	struct dd_stack st[] = {
		STACK(STACK_FAULT, 60, f1, 1, false), STACK(STACK_FAULT, 30, f2, 1, false),
		STACK(STACK_FAULT, 10, f3, 0, false), STACK(STACK_FAULT, 20, f4, 0, true),
		STACK(STACK_MMAP, 3, f5, 0, false),   STACK(STACK_FAULT, 5, f6, 0, false),
	};
	st[5].estimated = true;
	/* depth first, children by count: name, depth, count, self, share, stack */
	static const struct {
		const char *name;
		int depth;
		uint64_t count, self;
		double share;
		size_t stack;
	} want[] = {
		{"fault", 0, 125, 0, 100, DD_NO_STACK},
		{"_start", 1, 105, 0, 84, DD_NO_STACK},
		{"main", 2, 105, 0, 84, DD_NO_STACK},
		{"big", 3, 70, 10, 56, 2},
		{"touch", 4, 60, 0, 48, DD_NO_STACK},
		{"exc_page_fault", 5, 60, 60, 48, 0},
		{"small", 3, 30, 0, 24, DD_NO_STACK},
		{"touch", 4, 30, 0, 24, DD_NO_STACK},
		{"exc_page_fault", 5, 30, 30, 24, 1},
		{"?", 3, 5, 5, 4, 5},
		{"[truncated]", 1, 20, 0, 16, DD_NO_STACK},
		{"big", 2, 20, 0, 16, DD_NO_STACK},
		{"touch", 3, 20, 20, 16, 3},
		{"mmap", 0, 3, 0, 100, DD_NO_STACK},
		{"_start", 1, 3, 0, 100, DD_NO_STACK},
		{"main", 2, 3, 0, 100, DD_NO_STACK},
		{"small", 3, 3, 0, 100, DD_NO_STACK},
		{"mmap64", 4, 3, 3, 100, 4},
	};
	struct dd_tree t = {0}, u = {0};

	dd_tree_build(st, 6, &t);
	assert_int_equal(t.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < t.n; i++) {
		const struct dd_node *n = &t.nodes[i];

		assert_string_equal(name(n), want[i].name);
		assert_int_equal(n->depth, want[i].depth);
		assert_int_equal(n->count, want[i].count);
		assert_int_equal(n->self, want[i].self);
		assert_true(n->share > want[i].share - 1e-9 && n->share < want[i].share + 1e-9);
		assert_int_equal(n->stack, want[i].stack);
		/* a node's count: its own stacks and its children's; its subtree follows it */
		uint64_t sum = n->self, last = UINT64_MAX;
		for (size_t c = i + 1; c < n->end; c = t.nodes[c].end) {
			assert_int_equal(t.nodes[c].parent, i);
			assert_int_equal(t.nodes[c].depth, n->depth + 1);
			assert_true(t.nodes[c].count <= last); /* the largest first */
			last = t.nodes[c].count;
			sum += t.nodes[c].count;
		}
		assert_int_equal(sum, n->count);
	}
	assert_int_equal(t.nodes[0].nchildren, 2);
	assert_int_equal(t.nodes[2].nchildren, 3);
	assert_int_equal(t.nodes[0].end, 13);
	assert_true(t.nodes[9].estimated && t.nodes[0].estimated && !t.nodes[3].estimated);
	/* the same function at two places is two nodes with two keys */
	assert_true(t.nodes[3].key != t.nodes[11].key && t.nodes[4].key != t.nodes[7].key);

	/* the list in another order: the same tree, the same keys */
	struct dd_stack rev[6];
	for (int i = 0; i < 6; i++)
		rev[i] = st[5 - i];
	dd_tree_build(rev, 6, &u);
	assert_int_equal(u.n, t.n);
	for (size_t i = 0; i < t.n; i++) {
		assert_int_equal(u.nodes[i].key, t.nodes[i].key);
		assert_int_equal(u.nodes[i].count, t.nodes[i].count);
		assert_string_equal(name(&u.nodes[i]), name(&t.nodes[i]));
	}
	assert_int_equal(u.nodes[3].stack, 3); /* rev[3] is st[2] */
	dd_tree_build(st, 0, &u);
	assert_int_equal(u.n, 0);
	dd_tree_free(&u);
	dd_tree_free(&t);
}

/* Functions are the same by symbol and module whatever the offset; inlined or not, kernel
 * or not, they differ; without a symbol, by module offset, else by address */
static void same_function(void **state)
{
	(void)state;
	struct dd_frame a = FN("f", 1), b = FN("f", 9), c = FN("g", 1), d = FN("f", 1),
			k = KFN("f"), x = f6[0], y = f6[0];

	d.inlined = true;
	assert_true(dd_frame_same(&a, &b));
	assert_false(dd_frame_same(&a, &c));
	assert_false(dd_frame_same(&a, &d));
	assert_false(dd_frame_same(&a, &k));
	y.ip += 0x1000; /* another run-time address, the same place in the file */
	assert_true(dd_frame_same(&x, &y));
	y.mod_offset += 4;
	assert_false(dd_frame_same(&x, &y));
	x.in_module = y.in_module = false;
	assert_false(dd_frame_same(&x, &y));
	y.ip = x.ip;
	assert_true(dd_frame_same(&x, &y));
}

UNIT_GROUP(dd_tree)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tree_of_stacks),
		cmocka_unit_test(same_function),
	};
	return cmocka_run_group_tests_name("dd_tree", tests, NULL, NULL);
}
