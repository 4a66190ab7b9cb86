/* Runs every group of unit tests, in the order of their names: each test file registers
 * its own (UNIT_GROUP, unit.h), so a new file needs nothing here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct unit_group *const *)a)->name,
		      (*(const struct unit_group *const *)b)->name);
}

int main(void)
{
	size_t n = (size_t)(__stop_unit_groups - __start_unit_groups);
	const struct unit_group **groups = malloc(n * sizeof(*groups));
	int failed = 0;

	if (!n || !groups) {
		fprintf(stderr, "unit_tests: no groups of tests registered\n");
		return 1;
	}
	memcpy(groups, __start_unit_groups, n * sizeof(*groups));
	qsort(groups, n, sizeof(*groups), by_name);
	for (size_t i = 0; i < n; i++)
		failed += groups[i]->run();
	free(groups);
	return failed ? 1 : 0;
}
