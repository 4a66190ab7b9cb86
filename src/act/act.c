/* The actions a person confirms on the screen (act.h): checked, carried out and logged. */
#include "act.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup_parse.h"
#include "text.h"
#include "util.h"

/* v1 says "no limit" with the largest page count, in bytes (PAGE_COUNTER_MAX pages) */

void act_where_find(struct act_where *w)
{
	struct cg_reader *r = cg_open();

	*w = (struct act_where){.version = cg_version(r)};
	if (w->version) {
		snprintf(w->mount, sizeof(w->mount), "%s", cg_mount(r));
		snprintf(w->root, sizeof(w->root), "%s", cg_root(r));
	}
	cg_close(r);
}

const char *act_file(enum act_op op, int version)
{
	switch (op) {
	case AO_CG_HIGH:
		return "memory.high";
	case AO_CG_MAX:
		return version == 1 ? "memory.limit_in_bytes" : "memory.max";
	case AO_CG_RECLAIM:
		return "memory.reclaim";
	case AO_CG_KILL:
		return "cgroup.kill";
	default:
		return "oom_score_adj";
	}
}

void act_amount(uint64_t bytes, char *buf, size_t size)
{
	if (bytes == ACT_MAX)
		snprintf(buf, size, "max");
	else if (bytes && bytes < 1024)
		snprintf(buf, size, "%" PRIu64, bytes);
	else
		fmt_kb(bytes / 1024, buf, size);
}

static void say(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/* The cgroup's directory, opened and checked to be the one shown (its inode, the cgroup's
 * id); -1 with a line in why */
static int cg_dir(const struct act_where *w, const struct act_req *r, char *why, size_t size)
{
	char dir[ACT_PATH * 2 + 2];
	size_t rl = strlen(w->root);
	const char *rel = r->path;
	struct stat st;

	if (!w->version) {
		say(why, size, "no memory cgroup hierarchy to act on");
		return -1;
	}
	if (strcmp(w->root, "/")) {
		if (strncmp(r->path, w->root, rl) || (r->path[rl] && r->path[rl] != '/')) {
			say(why, size, "%s is outside the hierarchy memtop reads", r->shown);
			return -1;
		}
		rel = r->path + rl;
	}
	snprintf(dir, sizeof(dir), "%s%s", w->mount, rel);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fstat(dfd, &st) || !r->cgid || (uint64_t)st.st_ino != r->cgid) {
		if (dfd >= 0)
			close(dfd);
		say(why, size, "%s is gone (removed since it was shown); nothing changed",
		    r->shown);
		return -1;
	}
	return dfd;
}

/* A value of memory.high, memory.max or limit_in_bytes: bytes, ACT_MAX for none */
static int read_value(int dfd, const char *file, uint64_t *v)
{
	char buf[64], *end;
	int fd = openat(dfd, file, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!strncmp(buf, "max", 3)) {
		*v = ACT_MAX;
		return 0;
	}
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -1;
	*v = x >= CG_V1_UNLIMITED ? ACT_MAX : x;
	return 0;
}

/* Whether op's file is there; where not, why in one line */
static int has_file(const struct act_where *w, int dfd, const struct act_req *r, char *why,
		    size_t size)
{
	const char *file = act_file(r->op, w->version);

	bool root = !strcmp(r->path, "/") || !r->path[0];

	if (root && r->op != AO_CG_RECLAIM)
		say(why, size, "the root cgroup is not memtop's to %s",
		    r->op == AO_CG_KILL ? "kill" : "limit");
	else if (r->op == AO_CG_HIGH && w->version == 1)
		say(why, size, "cgroup v1 has no memory.high: L sets its limit (limit_in_bytes)");
	else if (r->op == AO_CG_RECLAIM && w->version == 1)
		say(why, size, "cgroup v1 has no memory.reclaim (cgroup v2, Linux 5.19 and later)");
	else if (r->op == AO_CG_KILL || !faccessat(dfd, file, F_OK, 0))
		return 0;
	else if (r->op == AO_CG_RECLAIM)
		say(why, size, "this kernel has no memory.reclaim (Linux 5.19 and later)");
	else
		say(why, size, "%s has no %s", r->shown, file);
	return -1;
}

static int prepare_proc(struct act_req *r, char *why, size_t size)
{
	if (pid_hold_open(&r->hold, r->pid, r->start, true) || act_proc_adj_read(r, &r->adj_now)) {
		pid_hold_close(&r->hold);
		say(why, size, "%d (%s) has exited; nothing changed", (int)r->pid, r->comm);
		return -1;
	}
	return 0;
}

int act_prepare(const struct act_where *w, struct act_req *r, char *why, size_t size)
{
	r->hold = (struct pid_hold){.fd = -1};
	r->file = act_file(r->op, w->version);
	if (geteuid() != 0) {
		say(why, size, "%s is root's to change: run memtop as root",
		    act_file(r->op, w->version));
		return -1;
	}
	if (r->op == AO_OOM_ADJ)
		return prepare_proc(r, why, size);
	int dfd = cg_dir(w, r, why, size);
	if (dfd < 0)
		return -1;
	int rc = has_file(w, dfd, r, why, size);
	if (!rc && (r->op == AO_CG_HIGH || r->op == AO_CG_MAX) &&
	    read_value(dfd, act_file(r->op, w->version), &r->now)) {
		say(why, size, "%s of %s cannot be read: %s", act_file(r->op, w->version), r->shown,
		    strerror(errno));
		rc = -1;
	}
	if (!rc && r->op == AO_CG_KILL) {
		char buf[4096];
		r->nprocs = (int)cg_count_lines(openat(dfd, "cgroup.procs", O_RDONLY | O_CLOEXEC),
						buf, sizeof(buf));
		r->whole = !faccessat(dfd, "cgroup.kill", F_OK, 0);
	}
	close(dfd);
	return rc;
}

static void log_line(struct act_log *log, double wall, const char *line)
{
	size_t i = log->n++ % ACT_LOG_MAX;

	log->e[i].wall = wall;
	snprintf(log->e[i].text, sizeof(log->e[i].text), "%s", line);
}

static void do_proc(struct act_req *r, struct act_log *log, double wall, char *line, size_t size)
{
	if (act_proc_adj_write(r, r->adj)) {
		if (errno == ESRCH)
			say(line, size, "%d (%s) has exited; nothing changed", (int)r->pid,
			    r->comm);
		else if (errno == EACCES || errno == EPERM)
			say(line, size,
			    "oom_score_adj of %d (%s) not lowered to %d: that needs "
			    "CAP_SYS_RESOURCE, which memtop lacks here",
			    (int)r->pid, r->comm, r->adj);
		else
			say(line, size, "oom_score_adj of %d (%s): %s", (int)r->pid, r->comm,
			    strerror(errno));
		return;
	}
	say(line, size, "oom_score_adj of %d (%s) set %d -> %d by you", (int)r->pid, r->comm,
	    r->adj_now, r->adj);
	log_line(log, wall, line);
}

/* Writes text to file under dfd: 0, -1 with errno */
static int write_at(int dfd, const char *file, const char *text)
{
	int fd = openat(dfd, file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void do_limit(const struct act_where *w, int dfd, struct act_req *r, struct act_log *log,
		     double wall, char *line, size_t size)
{
	const char *file = act_file(r->op, w->version);
	char text[32], was[16], to[16];
	uint64_t now = r->now;

	if (r->bytes == ACT_MAX)
		snprintf(text, sizeof(text), "%s", w->version == 1 ? "-1" : "max");
	else
		snprintf(text, sizeof(text), "%" PRIu64, r->bytes);
	read_value(dfd, file, &now); /* as it is now, where it moved since the prompt */
	act_amount(now, was, sizeof(was));
	if (r->undo && now != r->now) { /* someone set it since: theirs stands */
		act_amount(r->now, to, sizeof(to));
		say(line, size, "%s of %s is %s now, not the %s you set: changed since; not undone",
		    file, r->shown, was, to);
		log->undo_seq = 0;
		return;
	}
	if (write_at(dfd, file, text)) {
		say(line, size, "%s of %s not set to %s: %s", file, r->shown, text,
		    strerror(errno));
		return;
	}
	uint64_t set = r->bytes;
	read_value(dfd, file, &set); /* the kernel's: rounded to pages */
	act_amount(set, to, sizeof(to));
	say(line, size, "%s of %s set %s -> %s by you%s", file, r->shown, was, to,
	    r->undo ? " (undone)" : "");
	log_line(log, wall, line);
	if (r->undo) {
		log->undo_seq = 0;
		return;
	}
	log->last = *r;
	log->last.bytes = now;
	log->last.now = set;
	log->last.hold = (struct pid_hold){.fd = -1};
	log->undo_seq = log->n;
}

static void do_reclaim(int dfd, struct act_req *r, struct act_log *log, double wall, char *line,
		       size_t size)
{
	char text[32], amount[16];

	snprintf(text, sizeof(text), "%" PRIu64, r->bytes);
	act_amount(r->bytes, amount, sizeof(amount));
	if (write_at(dfd, "memory.reclaim", text)) {
		if (errno == EAGAIN)
			say(line, size, "memory.reclaim of %s: less than %s could be reclaimed",
			    r->shown, amount);
		else
			say(line, size, "memory.reclaim of %s: %s", r->shown, strerror(errno));
		if (errno != EAGAIN)
			return;
	} else {
		say(line, size, "memory.reclaim of %s: %s reclaimed by you", r->shown, amount);
	}
	log_line(log, wall, line);
}

/* Whether cgroup v2's path is memtop's own or an ancestor of it (/proc/self/cgroup's 0::
 * line): cgroup.kill there would kill memtop and the session it runs in */
static bool holds_self(const char *path)
{
	char text[4096];
	const char *self = text;

	if (read_file("/proc/self/cgroup", text, sizeof(text)) <= 0)
		return true; /* not known: not killed */
	while (strncmp(self, "0::", 3) && (self = strchr(self, '\n')))
		self++;
	if (!self)
		return false;
	self += 3;
	size_t n = strlen(path), len = strcspn(self, "\n");
	return !strcmp(path, "/") ||
	       (len >= n && !strncmp(self, path, n) && (len == n || self[n] == '/'));
}

static void do_kill(const struct act_where *w, int dfd, struct act_req *r, struct act_log *log,
		    double wall, char *line, size_t size)
{
	char procs[ACT_PATH * 2 + 32];

	if (!faccessat(dfd, "cgroup.kill", F_OK, 0)) {
		if (holds_self(r->path)) {
			say(line, size, "%s holds memtop itself; nothing killed", r->shown);
			return;
		}
		if (write_at(dfd, "cgroup.kill", "1")) {
			say(line, size, "cgroup.kill of %s: %s", r->shown, strerror(errno));
			return;
		}
		say(line, size, "%s killed (cgroup.kill) by you", r->shown);
		log_line(log, wall, line);
		return;
	}
	/* /proc/self/fd/N: the directory checked, whatever its path does since */
	snprintf(procs, sizeof(procs), "/proc/self/fd/%d/cgroup.procs", dfd);
	int n = act_proc_kill_each(procs, w->version, r->path);
	if (n < 0) {
		say(line, size, "%s: its processes cannot be read: %s", r->shown, strerror(errno));
		return;
	}
	say(line, size, "%s: SIGKILL sent to %d processes (each by pidfd) by you", r->shown, n);
	if (n)
		log_line(log, wall, line);
}

void act_do(const struct act_where *w, struct act_req *r, struct act_log *log, double wall,
	    char *line, size_t size)
{
	if (r->op == AO_OOM_ADJ) {
		do_proc(r, log, wall, line, size);
		pid_hold_close(&r->hold);
		return;
	}
	if (geteuid() != 0) {
		say(line, size, "%s is root's to change", act_file(r->op, w->version));
		return;
	}
	int dfd = cg_dir(w, r, line, size);
	if (dfd < 0)
		return;
	if (r->op == AO_CG_HIGH || r->op == AO_CG_MAX)
		do_limit(w, dfd, r, log, wall, line, size);
	else if (r->op == AO_CG_RECLAIM)
		do_reclaim(dfd, r, log, wall, line, size);
	else if (r->op == AO_CG_KILL)
		do_kill(w, dfd, r, log, wall, line, size);
	close(dfd);
}
