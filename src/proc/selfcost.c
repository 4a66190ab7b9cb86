#include "selfcost.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "pid_files.h"
#include "util.h"

#define STATS_PATH "/proc/sys/kernel/bpf_stats_enabled"
#define MAX_PROGS  64 /* memtop loads about 20: the always-on ones and the stacks' */

struct prog_seen {
	uint32_t id;
	uint64_t run_ns;
};

static struct {
	bool want;			   /* --bpf-stats */
	bool tried;			   /* it has tried to turn the statistics on */
	bool turned_on;			   /* it did: they go off again when it exits */
	char why[128];			   /* why it could not */
	struct prog_seen progs[MAX_PROGS]; /* its programs at the last collect */
	size_t nprogs;
	uint64_t run_ns; /* their run time since it started, while the statistics were on */
} st;

void selfcost_want_bpf_stats(bool want)
{
	st.want = want;
}

/* 1 on, 0 off, -1 unknown */
static int stats_read(void)
{
	char buf[16];

	if (read_file(STATS_PATH, buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf) != 0;
}

static int stats_write(const char *v)
{
	int fd = open(STATS_PATH, O_WRONLY | O_CLOEXEC);
	int rc = fd >= 0 && write(fd, v, strlen(v)) == (ssize_t)strlen(v) ? 0 : -1;
	int e = errno;

	if (fd >= 0)
		close(fd);
	errno = e;
	return rc;
}

static void stats_restore(void)
{
	if (st.turned_on)
		stats_write("0\n");
	st.turned_on = false;
}

static void stats_on(void)
{
	st.tried = true;
	if (stats_read() == 1)
		return; /* on already, by someone else: theirs to turn off */
	if (atexit(stats_restore)) {
		snprintf(st.why, sizeof(st.why), "--bpf-stats: cannot restore it at exit");
		return;
	}
	if (stats_write("1\n")) {
		snprintf(st.why, sizeof(st.why),
			 "--bpf-stats: cannot turn kernel.bpf_stats_enabled on: %s",
			 strerror(errno));
		return;
	}
	st.turned_on = true;
}

/* Adds the run time of memtop's BPF programs since the last look: each program it holds a
 * descriptor of (the always-on ones, and the stacks' while loaded), found in its
 * descriptor table (about 140 us for 50 descriptors). A program unloaded since counted
 * until then; a new one counts from its load. */
static void prog_runs(void)
{
	static const char prog[] = "anon_inode:bpf-prog";
	struct prog_seen now[MAX_PROGS];
	size_t n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && n < MAX_PROGS) {
		char link[sizeof(prog)];
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = atoi(e->d_name);
		ssize_t k;
		bool dup = false;

		if (e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		k = readlinkat(dirfd(d), e->d_name, link, sizeof(link));
		if (k != sizeof(prog) - 1 || memcmp(link, prog, (size_t)k))
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		for (size_t i = 0; i < n; i++)
			dup |= now[i].id == info.id;
		if (!dup)
			now[n++] = (struct prog_seen){info.id, info.run_time_ns};
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		const struct prog_seen *was = NULL;

		for (size_t j = 0; j < st.nprogs && !was; j++)
			if (st.progs[j].id == now[i].id)
				was = &st.progs[j];
		st.run_ns += now[i].run_ns - (was ? was->run_ns : 0);
	}
	memcpy(st.progs, now, n * sizeof(*now));
	st.nprogs = n;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rss_kb(void)
{
	struct pid_statm sm;

	if (read_statm("/proc/self/statm", &sm))
		return 0;
	return sm.resident * (uint64_t)(sysconf(_SC_PAGESIZE) / 1024);
}

/* Why the run time is not measured where --bpf-stats asked for it; NULL: it is */
static const char *why_not(const struct bpf_state *bpf)
{
	if (geteuid())
		return "--bpf-stats needs root";
	if (!bpf->enabled)
		return "--bpf-stats: no BPF programs to time";
	return st.why[0] ? st.why : NULL;
}

void selfcost_collect(struct self_cost *c, struct bpf_state *bpf)
{
	memset(c, 0, sizeof(*c));
	c->cpu_s = cpu_seconds();
	c->rss_kb = rss_kb();
	if (st.want && !st.tried && bpf->enabled && !geteuid())
		stats_on();
	/* the programs are looked for only while the statistics count their run time */
	if (bpf->enabled && stats_read() == 1) {
		prog_runs();
		c->bpf_stats = true;
		c->bpf_run_ns = st.run_ns;
	}
	const char *why = st.want ? why_not(bpf) : NULL;
	if (why) {
		size_t n = strlen(bpf->reason);
		snprintf(bpf->reason + n, sizeof(bpf->reason) - n, "%s%s", n ? "; " : "", why);
	}
}
