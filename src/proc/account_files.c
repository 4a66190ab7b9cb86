#include "account_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "util.h"

/* A mountinfo field (space separated) copied, its \ooo escapes undone */
static void unescape_field(const char *p, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (p[i] == '\\' && i + 3 < n && p[i + 1] >= '0' && p[i + 1] <= '3' &&
		    p[i + 2] >= '0' && p[i + 2] <= '7' && p[i + 3] >= '0' && p[i + 3] <= '7') {
			out[o++] = (char)((p[i + 1] - '0') * 64 + (p[i + 2] - '0') * 8 +
					  (p[i + 3] - '0'));
			i += 3;
			continue;
		}
		out[o++] = p[i];
	}
	out[o] = '\0';
}

/* "id parent major:minor root mountpoint options [optional...] - fstype source super" */
bool parse_tmpfs_mount(const char *line, char *path, size_t len, unsigned long *dev)
{
	unsigned maj, min;
	int at = 0;
	const char *sep = strstr(line, " - ");

	if (!sep || strncmp(sep + 3, "tmpfs ", 6))
		return false;
	if (sscanf(line, "%*d %*d %u:%u %*s %n", &maj, &min, &at) < 2 || !at)
		return false;
	const char *mp = line + at;
	size_t n = strcspn(mp, " \n");
	if (!n || mp + n > sep)
		return false;
	unescape_field(mp, n, path, len);
	*dev = (unsigned long)makedev(maj, min);
	return true;
}

int parse_sysvipc_shm(const char *text, struct account_files *a)
{
	const char *p = text;

	if (!strstr(text, "shmid") || !strstr(text, "nattch"))
		return -1;
	while ((p = strchr(p, '\n'))) {
		struct shm_segment g = {0};
		unsigned long long size, rss = 0;
		int key, id;
		unsigned long long natt;
		p++;
		/* key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime ctime rss */
		int got = sscanf(p, "%d %d %*o %llu %*d %*d %llu %*u %*u %*u %*u %*d %*d %*d %llu",
				 &key, &id, &size, &natt, &rss);
		if (got < 4)
			continue;
		g.key = key;
		g.shmid = id;
		g.size_kb = (size + 1023) / 1024;
		g.rss_kb = got == 5 ? rss / 1024 : 0;
		g.nattch = natt;
		a->segs = xgrow(a->segs, a->nsegs + 1, &a->segs_cap, sizeof(*a->segs), 16);
		a->segs[a->nsegs++] = g;
	}
	return 0;
}

/* The functions of the fork path that vmalloc a new task's stack: the caller vmallocinfo
 * names is the one alloc_thread_stack_node was inlined into, which depends on the kernel
 * (dup_task_struct, copy_process, kernel_clone on 6.x, _do_fork before 5.10, fork_idle for
 * the idle tasks, create_io_thread and vhost_task_create where copy_process is inlined) */
static const char *const fork_path[] = {
	"alloc_thread_stack_node",
	"dup_task_struct",
	"copy_process",
	"kernel_clone",
	"_do_fork",
	"do_fork",
	"fork_idle",
	"create_io_thread",
	"vhost_task_create",
	"kernel_thread",
	"user_mode_thread",
	"__do_sys_clone",
	"__do_sys_clone3",
	"__do_sys_fork",
	"__do_sys_vfork",
};

/* Whether the caller field c (up to a space) is a function of the fork path, its offset
 * (+0x..) and a compiler's suffix (.isra.0, .constprop.0, .part.0) left out */
static bool in_fork_path(const char *c)
{
	size_t n = strcspn(c, "+. \t\n");

	for (size_t i = 0; i < sizeof(fork_path) / sizeof(fork_path[0]); i++)
		if (strlen(fork_path[i]) == n && !strncmp(c, fork_path[i], n))
			return true;
	return false;
}

/* "start-end size caller+off/len pages=N [phys=..] vmalloc [vpages] N0=..": a stack is
 * an area vmalloc'd by the fork path of THREAD_SIZE, a power of two pages */
uint64_t parse_vmalloc_stack(const char *line, long page_kb)
{
	unsigned long long size;
	int at = 0;
	const char *pages = strstr(line, " pages="), *type = strstr(line, " vmalloc");

	if (sscanf(line, "%*s %llu %n", &size, &at) < 1 || !at || !pages || !type)
		return 0;
	if (type[8] != ' ' && type[8] != '\n' && type[8] != '\0')
		return 0;
	if (!in_fork_path(line + at))
		return 0;
	uint64_t n = strtoull(pages + 7, NULL, 10);
	if (!n || (n & (n - 1)))
		return 0;
	return n * (uint64_t)page_kb;
}

/* Whether the filesystem of dev is listed already */
static bool listed(const struct account_files *a, const unsigned long *devs, unsigned long dev)
{
	for (size_t i = 0; i < a->nmounts; i++)
		if (devs[i] == dev)
			return true;
	return false;
}

static void read_mounts(struct account_files *a)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, path[256];
	size_t cap = 0, devs_cap = 0;
	unsigned long dev, *devs = NULL;
	struct stat st;
	struct statfs sf;

	while (f && getline(&line, &cap, f) > 0) {
		if (!parse_tmpfs_mount(line, path, sizeof(path), &dev) || listed(a, devs, dev))
			continue;
		/* a filesystem mounted over hides this one: statfs would read the other */
		if (stat(path, &st) || st.st_dev != dev || statfs(path, &sf))
			continue;
		a->mounts =
			xgrow(a->mounts, a->nmounts + 1, &a->mounts_cap, sizeof(*a->mounts), 16);
		devs = xgrow(devs, a->nmounts + 1, &devs_cap, sizeof(*devs), 16);
		struct tmpfs_mount *m = &a->mounts[a->nmounts];
		uint64_t bkb = (uint64_t)sf.f_bsize / 1024;
		snprintf(m->path, sizeof(m->path), "%s", path);
		m->size_kb = (uint64_t)sf.f_blocks * bkb;
		m->used_kb = (uint64_t)(sf.f_blocks - sf.f_bfree) * bkb;
		devs[a->nmounts++] = dev;
	}
	free(devs);
	free(line);
	if (f)
		fclose(f);
}

static void read_shm(struct account_files *a)
{
	static char buf[1 << 20];
	long n = read_file("/proc/sysvipc/shm", buf, sizeof(buf));

	a->shm_err = n < 0 ? errno : 0;
	if (n >= 0 && parse_sysvipc_shm(buf, a))
		a->shm_err = EINVAL;
}

static void read_stacks(struct account_files *a, long page_kb)
{
	FILE *f = fopen("/proc/vmallocinfo", "re");
	char *line = NULL;
	size_t cap = 0;

	a->stacks_read = f != NULL;
	while (f && getline(&line, &cap, f) > 0)
		a->vmalloc_stacks_kb += parse_vmalloc_stack(line, page_kb);
	free(line);
	if (f)
		fclose(f);
}

void account_collect(struct snapshot *s)
{
	struct account_files *a = &s->acct;

	a->read = true;
	a->nmounts = a->nsegs = 0;
	a->vmalloc_stacks_kb = 0;
	read_mounts(a);
	read_shm(a);
	read_stacks(a, s->page_kb);
}
