#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util.h"

/* read_config reads a regular file and refuses anything else at once: a FIFO without a
 * writer (which open would wait on), a directory, a device. */
static void config_regular_only(void **state)
{
	(void)state;
	char dir[] = "/tmp/memtop-unit-config.XXXXXX", path[64], buf[64];
	const char *why = NULL;
	assert_non_null(mkdtemp(dir));

	snprintf(path, sizeof(path), "%s/file", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("tree=1\n", f);
	fclose(f);
	assert_int_equal(read_config(path, buf, sizeof(buf), &why), 7);
	assert_string_equal(buf, "tree=1\n");
	unlink(path);

	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	errno = 0;
	assert_int_equal(read_config(path, buf, sizeof(buf), &why), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(why, "not a regular file");
	unlink(path);

	assert_int_equal(read_config("/dev/null", buf, sizeof(buf), &why), -1);
	assert_string_equal(why, "not a regular file");

	assert_int_equal(read_config(dir, buf, sizeof(buf), &why), -1);
	assert_int_equal(errno, EISDIR);
	assert_string_equal(why, strerror(EISDIR));

	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(read_config(path, buf, sizeof(buf), &why), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, strerror(ENOENT));
	rmdir(dir);
}

/* xgrow: room for one more, the first room as asked, then doubled, the elements kept */
static void grow_doubles(void **state)
{
	int *a = NULL;
	size_t n = 0, cap = 0;

	(void)state;
	for (int i = 0; i < 100; i++) {
		a = xgrow(a, n, &cap, sizeof(*a), 4);
		assert_true(n < cap);
		a[n++] = i;
		if (n == 1)
			assert_int_equal(cap, 4);
	}
	assert_int_equal(cap, 128);
	for (int i = 0; i < 100; i++)
		assert_int_equal(a[i], i);
	free(a);
}

UNIT_GROUP(util)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(config_regular_only),
		cmocka_unit_test(grow_doubles),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
