/* The cgroup reader's kept files on the real kernel's hierarchy, as root: a cgroup's files,
 * kept open between reads and read again from their start, give what the kernel says now
 * (a limit written between two reads); a cgroup removed between the listing and a read of
 * its kept files is dropped, and its files closed; the view closed (no columns asked for),
 * every kept file is closed. Skipped without root or a memory hierarchy to make a cgroup
 * in; the cgroup is removed whatever happens. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "procfs.h"
#include "unit.h"
#include "util.h"

static char kept_dir[PATH_MAX + 128]; /* "" when not made */

static void kept_clean(void)
{
	if (kept_dir[0])
		rmdir(kept_dir);
	kept_dir[0] = '\0';
}

static void kept_on_signal(int sig)
{
	kept_clean();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Descriptors memtop holds open */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the listing's own */
}

static const struct cg_sample *find(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->ncgroups; i++)
		if (!strcmp(s->cgroups[i].path, path))
			return &s->cgroups[i];
	return NULL;
}

static int write_low(const char *file, uint64_t bytes)
{
	char path[sizeof(kept_dir) + 64], text[32];
	snprintf(path, sizeof(path), "%s/%s", kept_dir, file);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int n = snprintf(text, sizeof(text), "%llu\n", (unsigned long long)bytes);
	int rc = write(fd, text, (size_t)n) == n ? 0 : -1;
	close(fd);
	return rc;
}

static void kept_files(void **state)
{
	(void)state;
	char text[65536], mount[PATH_MAX], root[PATH_MAX], path[128];
	if (geteuid() != 0 || read_file("/proc/self/mountinfo", text, sizeof(text)) <= 0)
		skip();
	int version = cg_find(text, mount, sizeof(mount), root, sizeof(root));
	if (!version || strcmp(root, "/"))
		skip();
	snprintf(path, sizeof(path), "/memtop-cgkept-%d", (int)getpid());
	snprintf(kept_dir, sizeof(kept_dir), "%s%s", mount, path);
	if (version == 2) { /* memory must be delegated to the root's children */
		char ctl[512], file[PATH_MAX + 32];
		snprintf(file, sizeof(file), "%s/cgroup.subtree_control", mount);
		if (read_file(file, ctl, sizeof(ctl)) <= 0 || !strstr(ctl, "memory"))
			skip();
	}
	atexit(kept_clean);
	signal(SIGTERM, kept_on_signal);
	signal(SIGINT, kept_on_signal);
	assert_int_equal(mkdir(kept_dir, 0755), 0);
	const char *low = version == 1 ? "memory.soft_limit_in_bytes" : "memory.low";
	unsigned all = (1u << CGCOL_COUNT) - 1;
	/* a reader of this cgroup alone, so that cgroups others make meanwhile do not count */
	struct cg_reader *r = cg_open_at(version, kept_dir, path);
	struct snapshot s;
	snapshot_init(&s);
	int before = open_fds();

	/* read twice through the kept files: the second read sees the limit written between */
	assert_int_equal(write_low(low, 8 << 20), 0);
	cg_collect(r, &s, all, false);
	const struct cg_sample *c = find(&s, path);
	assert_non_null(c);
	assert_true(c->valid & CGCOL_BIT(CGCOL_LOW));
	assert_int_equal(c->v[CGCOL_LOW], 8 << 10);
	int kept = open_fds();
	assert_true(kept > before);
	assert_int_equal(write_low(low, 24 << 20), 0);
	snapshot_reuse(&s);
	cg_collect(r, &s, all, false);
	c = find(&s, path);
	assert_non_null(c);
	assert_int_equal(c->v[CGCOL_LOW], 24 << 10);
	assert_int_equal(open_fds(), kept); /* none opened again, but cgroup.procs (closed) */

	/* removed after the listing, before the read: dropped, its files closed */
	snapshot_reuse(&s);
	cg_list(r, &s);
	assert_non_null(find(&s, path));
	assert_int_equal(rmdir(kept_dir), 0);
	kept_dir[0] = '\0';
	cg_read(r, &s, all);
	assert_null(find(&s, path));
	int after = open_fds();
	assert_true(after < kept);

	/* the view closed: every kept file closed */
	snapshot_reuse(&s);
	cg_collect(r, &s, 0, false);
	assert_int_equal(open_fds(), before);
	snapshot_free(&s);
	cg_close(r);
}

UNIT_GROUP(cgkept_live)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_files),
	};
	return cmocka_run_group_tests_name("cgkept_live", tests, NULL, NULL);
}
