/* leaks_group: outstanding allocations grouped by (kind, stack, caller), sampled ones
 * scaled back, largest first, ages from the oldest, only what the window made.
 * leaks_probe_skip: where a probe on free sees its argument at an instruction the kernel
 * emulates. */
#include "unit.h"

#include <stdlib.h>

#include "leaks_probe.h"
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
	size_t n = leaks_group(e, sizeof(e) / sizeof(e[0]), 4096, -1,
			       (struct leak_window){0, 5 * s}, &g);

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

	assert_int_equal(leaks_group(NULL, 0, 4096, -1, (struct leak_window){0, s}, &g), 0);
	free(g);
}

/* only what was made in the window counts: not what the probes saw while the others
 * attached, nor what came between the window's end and the read; ages at the end */
static void window_only(void **state)
{
	(void)state;
	const uint64_t s = 1000000000ull;
	struct leak_entry e[] = {
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 4096, .ns = 1 * s},
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 4096, .ns = 2 * s},
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 4096, .ns = 3 * s},
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 4096, .ns = 6 * s - 1},
		{.kind = LEAK_MALLOC, .ustack = 5, .size = 4096, .ns = 6 * s},
		{.kind = LEAK_MMAP, .ustack = 5, .size = 65536, .ns = 7 * s},
	};
	struct leak_stack *g;
	size_t n = leaks_group(e, sizeof(e) / sizeof(e[0]), 4096, -1,
			       (struct leak_window){2 * s, 6 * s}, &g);

	assert_int_equal(n, 1);
	assert_int_equal(g[0].kind, LEAK_MALLOC);
	assert_float_equal(g[0].bytes, 3 * 4096, 0);
	assert_int_equal(g[0].samples, 3);
	assert_float_equal(g[0].oldest, 4, 1e-9);
	free(g);
}

static void probe_skip(void **state)
{
	(void)state;
	/* glibc 2.36's free: test %rdi,%rdi; je rel32 */
	static const unsigned char free_236[] = {0x48, 0x85, 0xff, 0x0f, 0x84, 0xbf, 0, 0, 0, 0x55};
	/* the same after endbr64, and with je rel8 */
	static const unsigned char free_cet[] = {0xf3, 0x0f, 0x1e, 0xfa, 0x48,
						 0x85, 0xff, 0x74, 0x10, 0x55};
	/* glibc 2.36's malloc: push %r12 (emulated as it is) */
	static const unsigned char malloc_236[] = {0x41, 0x54, 0x55, 0x53, 0x48, 0x89, 0xfb};
	/* test %rdi,%rdi; mov: no jump to probe */
	static const unsigned char no_jump[] = {0x48, 0x85, 0xff, 0x48, 0x89, 0xfb, 0x90};
	/* test %rsi,%rsi; je: another register */
	static const unsigned char rsi[] = {0x48, 0x85, 0xf6, 0x74, 0x10, 0x90};

#if defined(__x86_64__)
	assert_int_equal(leaks_probe_skip(free_236, sizeof(free_236)), 3);
	assert_int_equal(leaks_probe_skip(free_cet, sizeof(free_cet)), 7);
#endif
	assert_int_equal(leaks_probe_skip(malloc_236, sizeof(malloc_236)), 0);
	assert_int_equal(leaks_probe_skip(no_jump, sizeof(no_jump)), 0);
	assert_int_equal(leaks_probe_skip(rsi, sizeof(rsi)), 0);
	assert_int_equal(leaks_probe_skip(free_236, 4), 0); /* cut short */
}

UNIT_GROUP(leaks_table)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grouped_and_scaled),
		cmocka_unit_test(window_only),
		cmocka_unit_test(probe_skip),
	};
	return cmocka_run_group_tests_name("leaks_table", tests, NULL, NULL);
}
