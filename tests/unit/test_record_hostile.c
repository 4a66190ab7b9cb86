/* Hostile recordings (rec_hostile.h) read by the replay: a process without a command line
 * or user gets them as a live sample has them; a sample claiming a million processes,
 * cgroups or OOM kills, or a cgroup two million processes, is refused before anything is
 * made for them; damage made of keyframe look-alikes costs a walk a few times the file's
 * bytes, not their square. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rec_hostile.h"
#include "recblock.h"
#include "replay.h"
#include "unit.h"

/* Hostile recording h in a memory file; its path in path */
static int hostile_file(enum rec_hostile h, char *path, size_t size, size_t *len)
{
	struct rbuf b = {0};
	int fd = memfd_create(rec_hostile_names[h], 0);

	assert_true(fd >= 0);
	rec_hostile(h, &b);
	assert_int_equal(write(fd, b.p, b.n), (ssize_t)b.n);
	*len = b.n;
	free(b.p);
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
}

static void test_no_cmd(void **state)
{
	(void)state;
	char path[64], err[512];
	size_t len;
	int fd = hostile_file(RH_NO_CMD, path, sizeof(path), &len);
	struct replay *rp = replay_open(path, err, sizeof(err));
	struct snapshot s;

	assert_non_null(rp);
	assert_int_equal(replay_count(rp), 2);
	snapshot_init(&s);
	assert_int_equal(replay_read(rp, 0, &s, err, sizeof(err)), 0);
	assert_int_equal(s.nprocs, 1);
	assert_string_equal(s.procs[0].cmd, "[nocmd]"); /* as ps shows it */
	assert_string_equal(s.procs[0].user, "4321");	/* its uid */
	assert_int_equal(replay_read(rp, 1, &s, err, sizeof(err)), 0);
	assert_int_equal(s.nprocs, 1);
	assert_string_equal(s.procs[0].cmd, "[flags37]");
	assert_string_equal(s.procs[0].user, "0");
	snapshot_free(&s);
	replay_close(rp);
	close(fd);
}

/* Each of the four is refused with its reason, the sample not read (of the cgroups'
 * processes, the cgroup before them is) */
static void test_too_many(void **state)
{
	(void)state;
	static const struct {
		enum rec_hostile h;
		const char *why;
	} cases[] = {
		{RH_PROCS, "more processes than a sample holds"},
		{RH_CGROUPS, "more cgroups than a sample holds"},
		{RH_EVENTS, "more events than a sample holds"},
		{RH_TASKS, "more cgroups' processes than a sample holds"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[64], err[512];
		size_t len;
		int fd = hostile_file(cases[i].h, path, sizeof(path), &len);
		struct replay *rp = replay_open(path, err, sizeof(err));
		struct snapshot s;

		assert_non_null(rp);
		snapshot_init(&s);
		assert_int_equal(replay_read(rp, 0, &s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, cases[i].why));
		assert_int_equal(s.nprocs + s.nevents + s.ncg_tasks, 0);
		assert_true(s.ncgroups <= (cases[i].h == RH_TASKS));
		snapshot_free(&s);
		replay_close(rp);
		close(fd);
	}
}

/* The walk over 1 MiB of look-alikes reads it a few times, not once a look-alike */
static void test_lookalikes(void **state)
{
	(void)state;
	char path[64], err[512];
	size_t len;
	int fd = hostile_file(RH_LOOKALIKES, path, sizeof(path), &len);
	uint64_t before = rec_walk_read();
	struct replay *rp = replay_open(path, err, sizeof(err));
	uint64_t read = rec_walk_read() - before;

	assert_non_null(rp);
	assert_int_equal(replay_count(rp), 1); /* the keyframe before the damage */
	assert_true(replay_damaged(rp));
	if (read > 6 * len)
		fail_msg("the walk read %llu bytes of a %zu-byte file", (unsigned long long)read,
			 len);
	replay_close(rp);
	close(fd);
}

UNIT_GROUP(record_hostile)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_cmd),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_lookalikes),
	};
	return cmocka_run_group_tests_name("record_hostile", tests, NULL, NULL);
}
