/* The cgroup reader on the real kernel's hierarchy (v1 on the project's machines), as
 * root: two cgroups with 64 MiB and 128 MiB limits holding a child of 30 MiB and one of
 * 50 MiB. Skipped without root or a memory hierarchy memtop may make cgroups in. The
 * cgroups are removed whatever happens: after the tests, at exit, and on TERM or INT. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "procfs.h"
#include "unit.h"
#include "util.h"

#define NBOX 2
static const uint64_t limit_mib[NBOX] = {64, 128}, child_mib[NBOX] = {30, 50};

static struct {
	struct cg_reader *r;
	int version;
	char mount[PATH_MAX];
	char dir[NBOX][PATH_MAX]; /* "" when not made */
	char path[NBOX][128];	  /* as the hierarchy names them */
	pid_t kid[NBOX];
} live;

/* Async-signal-safe: kills the children, waits for them, removes the cgroups */
static void clean(void)
{
	for (int i = 0; i < NBOX; i++) {
		if (live.kid[i] > 0) {
			kill(live.kid[i], SIGKILL);
			waitpid(live.kid[i], NULL, 0);
			live.kid[i] = 0;
		}
	}
	for (int i = 0; i < NBOX; i++) {
		if (!live.dir[i][0])
			continue;
		/* the kernel may take a moment to let a cgroup go whose last task just died */
		for (int t = 0; t < 100 && rmdir(live.dir[i]) && errno == EBUSY; t++) {
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		live.dir[i][0] = '\0';
	}
}

static void on_signal(int sig)
{
	clean();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int write_text(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static uint64_t read_u64(const char *dir, const char *file)
{
	char path[PATH_MAX + 64], buf[64];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return UINT64_MAX;
	return strtoull(buf, NULL, 10);
}

/* A child in cgroup dir touching mib MiB, which says when it holds them; its pid or -1 */
static pid_t child_in(const char *dir, uint64_t mib)
{
	int ready[2];
	char c;
	if (pipe(ready))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char me[32];
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		snprintf(me, sizeof(me), "%d\n", (int)getpid());
		if (write_text(dir, "cgroup.procs", me))
			_exit(1);
		size_t len = (size_t)mib << 20;
		char *p =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (size_t off = 0; off < len; off += 4096)
			p[off] = 1;
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	ssize_t n = pid > 0 ? read(ready[0], &c, 1) : -1;
	close(ready[0]);
	return n == 1 ? pid : -1;
}

static int setup(void **state)
{
	(void)state;
	char text[65536], root[PATH_MAX];
	memset(&live, 0, sizeof(live));
	if (geteuid() != 0 || read_file("/proc/self/mountinfo", text, sizeof(text)) <= 0)
		return 0;
	live.version = cg_find(text, live.mount, sizeof(live.mount), root, sizeof(root));
	if (live.version == 2) { /* memory must be delegated to the root's children */
		char path[PATH_MAX + 32], ctl[512];
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", live.mount);
		if (read_file(path, ctl, sizeof(ctl)) <= 0 || !strstr(ctl, "memory"))
			live.version = 0;
	}
	if (!live.version || strcmp(root, "/"))
		return live.version = 0;
	live.r = cg_open();
	atexit(clean);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (int i = 0; i < NBOX; i++) {
		char lim[32];
		snprintf(live.path[i], sizeof(live.path[i]), "/memtop-cgtest-%d-%c", (int)getpid(),
			 'a' + i);
		snprintf(live.dir[i], sizeof(live.dir[i]), "%s%s", live.mount, live.path[i]);
		if (mkdir(live.dir[i], 0755)) {
			live.dir[i][0] = '\0';
			return -1;
		}
		snprintf(lim, sizeof(lim), "%llu\n", (unsigned long long)(limit_mib[i] << 20));
		if (write_text(live.dir[i],
			       live.version == 1 ? "memory.limit_in_bytes" : "memory.max", lim))
			return -1;
		if ((live.kid[i] = child_in(live.dir[i], child_mib[i])) < 0)
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	clean();
	cg_close(live.r);
	live.r = NULL;
	return 0;
}

static const struct cg_sample *find(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->ncgroups; i++)
		if (!strcmp(s->cgroups[i].path, path))
			return &s->cgroups[i];
	return NULL;
}

/* The kernel's cgroup id of dir, from a file handle (kernfs gives its node id) */
static uint64_t kernfs_id(const char *dir)
{
	struct {
		struct file_handle h;
		unsigned char id[16];
	} fh = {.h.handle_bytes = 16};
	int mount_id;
	uint64_t id;
	if (name_to_handle_at(AT_FDCWD, dir, &fh.h, &mount_id, 0) || fh.h.handle_bytes != 8)
		return 0;
	memcpy(&id, fh.h.f_handle, sizeof(id));
	return id;
}

static void two_limited_cgroups(void **state)
{
	(void)state;
	if (!live.version)
		skip();
	struct snapshot s;
	char err[256];
	snapshot_init(&s);
	assert_int_equal(procfs_meminfo(&s, err, sizeof(err)), 0);
	time_t t0 = time(NULL);
	cg_collect(live.r, &s, (1u << CGCOL_COUNT) - 1, true);
	const char *usage_file = live.version == 1 ? "memory.usage_in_bytes" : "memory.current";
	uint64_t usage[NBOX];
	for (int i = 0; i < NBOX; i++)
		usage[i] = read_u64(live.dir[i], usage_file);
	assert_true(time(NULL) - t0 <= 1);
	assert_int_equal(s.cg_version, live.version);
	assert_string_equal(s.cgroups[0].path, "/");
	assert_true(s.cgroups[0].unlimited & CGCOL_BIT(CGCOL_LIMIT));
	for (int i = 0; i < NBOX; i++) {
		const struct cg_sample *c = find(&s, live.path[i]);
		assert_non_null(c);
		double kb = (double)usage[i] / 1024;
		printf("# %s: usage %llu KiB (file %.0f KiB), limit %llu KiB, anon %llu KiB, "
		       "procs %llu, id %llu\n",
		       c->path, (unsigned long long)c->v[CGCOL_USAGE], kb,
		       (unsigned long long)c->v[CGCOL_LIMIT], (unsigned long long)c->v[CGCOL_ANON],
		       (unsigned long long)c->v[CGCOL_NPROCS], (unsigned long long)c->id);
		assert_true(c->valid & CGCOL_BIT(CGCOL_USAGE));
		assert_true(fabs((double)c->v[CGCOL_USAGE] - kb) <= 0.02 * kb);
		assert_true(c->v[CGCOL_USAGE] >= child_mib[i] << 10);
		assert_true(c->v[CGCOL_LIMIT] == limit_mib[i] << 10);
		assert_false(c->unlimited & CGCOL_BIT(CGCOL_LIMIT));
		assert_int_equal(c->v[CGCOL_NPROCS], 1);
		assert_true(c->v[CGCOL_ANON] >= (child_mib[i] << 10) * 98 / 100);
		assert_true(c->v[CGCOL_ANON] <= c->v[CGCOL_USAGE]);
		assert_true(c->valid & CGCOL_BIT(CGCOL_KERNEL));
		assert_true(c->valid & CGCOL_BIT(CGCOL_REFAULTS));
		assert_int_equal(c->v[CGCOL_OOM_KERNEL], 0);
		assert_int_equal(c->depth, 1);
		assert_int_equal(c->parent, 0);
		uint64_t id = kernfs_id(live.dir[i]);
		if (id)
			assert_int_equal(c->id, id);
	}
	/* the unit tests' own cgroup */
	char text[4096], path[PATH_MAX];
	assert_true(read_file("/proc/self/cgroup", text, sizeof(text)) > 0);
	assert_int_equal(parse_proc_cgroup(text, live.version, path, sizeof(path)), 0);
	assert_true(s.cg_self.present);
	if (!s.cg_self.limited)
		assert_string_equal(s.cg_self.path, path);
	snapshot_free(&s);
}

/* A process in the 64 MiB cgroup sees that limit as its own */
static void self_in_limited_cgroup(void **state)
{
	(void)state;
	if (!live.version)
		skip();
	int out[2];
	assert_int_equal(pipe(out), 0);
	pid_t pid = fork();
	if (pid == 0) {
		char me[32], text[4096];
		signal(SIGTERM, SIG_DFL);
		struct cg_self self = {0};
		snprintf(me, sizeof(me), "%d\n", (int)getpid());
		if (write_text(live.dir[0], "cgroup.procs", me) ||
		    read_file("/proc/self/cgroup", text, sizeof(text)) <= 0)
			_exit(1);
		cg_read_self(live.r, text, 24ull << 20, &self);
		dprintf(out[1], "%d %d %llu %llu %s\n", self.present, self.limited,
			(unsigned long long)self.limit_kb, (unsigned long long)self.usage_kb,
			self.path ? self.path : "-");
		_exit(0);
	}
	close(out[1]);
	char buf[512] = "";
	ssize_t n = read(out[0], buf, sizeof(buf) - 1);
	close(out[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(n > 0);
	int present, limited;
	unsigned long long limit, usage;
	char path[256];
	assert_int_equal(
		sscanf(buf, "%d %d %llu %llu %255s", &present, &limited, &limit, &usage, path), 5);
	assert_true(present && limited);
	assert_int_equal(limit, limit_mib[0] << 10);
	assert_string_equal(path, live.path[0]);
	assert_true(usage >= child_mib[0] << 10 && usage < limit);
}

UNIT_GROUP(cgroup_live)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_limited_cgroups),
		cmocka_unit_test(self_in_limited_cgroup),
	};
	return cmocka_run_group_tests_name("cgroup_live", tests, setup, teardown);
}
