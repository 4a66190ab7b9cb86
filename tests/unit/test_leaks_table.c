/* leaks_group: outstanding allocations grouped by (kind, stack, caller), sampled ones
 * scaled back, largest first, ages from the oldest. */
#include "unit.h"

#include <stdlib.h>

#include "leaks_table.h"

static void grouped_and_scaled(void **state)
{
	(void)state;
	const uint64_t s = 1000000000ull;
	struct leak_entry e[] = {
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 4096, .ns = 2 * s},
		{.kind = LEAK_MALLOC, .ustack = 7, .size = 1024, .ns = 3 * s},
		{.kind = LEAK_MMAP, .ustack = 5, .caller = 0x1234, .size = 65536, .ns = 3 * s},
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 8192, .ns = 1 * s},
		{.kind = LEAK_MALLOC, .ustack = 7, .size = 512, .ns = 4 * s},
		{.kind = LEAK_MMAP, .ustack = 5, .caller = 0x5678, .size = 4096, .ns = 4 * s},
	};
	struct leak_stack *g;
	size_t n = leaks_group(e, sizeof(e) / sizeof(e[0]), 4096, -1, 5 * s, &g);

	assert_int_equal(n, 4);
	/* the mmap, exact */
	assert_int_equal(g[0].kind, LEAK_MMAP);
	assert_float_equal(g[0].bytes, 65536, 0);
	assert_float_equal(g[0].count, 1, 0);
	assert_false(g[0].estimated);
	assert_false(g[0].first_is_call);
	assert_float_equal(g[0].oldest, 2, 1e-9);
	/* malloc at stack 5: 4096 and 8192, both recorded whole */
	assert_int_equal(g[1].kind, LEAK_MALLOC);
	assert_float_equal(g[1].bytes, 12288, 0);
	assert_float_equal(g[1].count, 2, 0);
	assert_int_equal(g[1].samples, 2);
	assert_false(g[1].estimated);
	assert_true(g[1].first_is_call);
	assert_float_equal(g[1].oldest, 4, 1e-9);
	/* malloc at stack 7: 1024 stands for 4 allocations, 512 for 8; 4096 bytes each */
	assert_float_equal(g[2].bytes, 8192, 0);
	assert_float_equal(g[2].count, 12, 0);
	assert_int_equal(g[2].samples, 2);
	assert_true(g[2].estimated);
	assert_float_equal(g[2].oldest, 2, 1e-9);
	/* the other mmap caller is a stack of its own; no stack map: no frames */
	assert_float_equal(g[3].bytes, 4096, 0);
	assert_int_equal(g[3].kind, LEAK_MMAP);
	assert_int_equal(g[3].nuser, 0);
	free(g);

	assert_int_equal(leaks_group(NULL, 0, 4096, -1, s, &g), 0);
	free(g);
}

int run_leaks_table_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grouped_and_scaled),
	};
	return cmocka_run_group_tests_name("leaks_table", tests, NULL, NULL);
}
