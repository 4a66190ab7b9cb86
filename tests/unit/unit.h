/* cmocka unit tests: each file registers its group where it defines it, UNIT_GROUP(name)
 * followed by the body of the function that runs the group, and main.c runs every group
 * registered (the pointers the linker gathers in the section unit_groups). */
#ifndef MEMTOP_UNIT_H
#define MEMTOP_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

struct unit_group {
	const char *name;
	int (*run)(void); /* the failures; cmocka_run_group_tests_name's return */
};

/* UNIT_GROUP(name) { ... return cmocka_run_group_tests_name(...); } */
#define UNIT_GROUP(name)                                                                           \
	static int run_##name##_tests(void);                                                       \
	static const struct unit_group unit_group_##name = {#name, run_##name##_tests};            \
	static const struct unit_group *const unit_group_ptr_##name                                \
		__attribute__((section("unit_groups"), used)) = &unit_group_##name;                \
	static int run_##name##_tests(void)

/* the groups registered, from the linker */
extern const struct unit_group *const __start_unit_groups[];
extern const struct unit_group *const __stop_unit_groups[];

#endif
