/* The walk over /proc. Each process's stat and statm stay open from one refresh to the
 * next and are read again with pread at offset 0, about half the cost of opening,
 * reading and closing them each time. Past a budget of descriptors, the remaining
 * processes' files are opened, read and closed each refresh.
 *
 * The kernel keeps a page of buffer for each file read this way (seq_file), about 9 KiB
 * per process for the two: memory charged to memtop, traded for the CPU it saves. */
#include "proc_walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfs.h"
#include "util.h"

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h */

/* Descriptors left to the rest of memtop: its BPF programs, maps and links and the ring
 * buffers' epoll (tens of them), the terminal, /dev/kmsg, the detail screen's files and
 * those the other collectors open and close each refresh (status, smaps_rollup,
 * cmdline, meminfo). Kept descriptors never take these. */
#define FD_HEADROOM 256
/* Each kept file holds a page of the kernel's read buffer, charged to memtop: about
 * 9 KiB a process for the pair. On a machine short of memory that is not free, so at
 * most this many processes keep theirs (about 9 MB of kernel memory); the rest are
 * opened and read each refresh. */
#define KEPT_MAX 1024

/* A process whose stat and statm are kept open */
struct kept {
	int32_t pid;
	int stat_fd; /* -1: none kept */
	int statm_fd;
	uint64_t start_ticks; /* of the process they were opened for */
};

/* Processes with kept descriptors, by ascending pid */
struct kept_list {
	struct kept *v;
	size_t n;
	size_t cap;
};

struct proc_walk {
	DIR *proc;
	struct kept_list kept; /* from the last refresh */
	struct kept_list next; /* being made by this one */
	size_t max_kept;       /* processes whose descriptors fit the budget */
	uint64_t page_kb;
	unsigned filled; /* the columns a process's stat and statm fill */
	int starved;	 /* this refresh: the errno of a process's files not opened for
			    want of descriptors (EMFILE, ENFILE); 0: none */
};

/* What one read of a process's stat and statm gave */
enum got { GOT, GONE, CORRUPT };

/* How many processes may keep their two descriptors: the soft limit on open files, raised
 * to the hard one first (no privilege needed; where that fails the soft limit stays),
 * less FD_HEADROOM. memtop starts no other program, so none inherits the raised limit
 * (one using select() could not handle descriptors past 1023). */
static size_t fd_budget(void)
{
	struct rlimit rl;
	char buf[32];

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	rlim_t want = rl.rlim_max;
	/* an unlimited hard limit still stops at fs.nr_open */
	if (read_file("/proc/sys/fs/nr_open", buf, sizeof(buf)) > 0) {
		rlim_t nr_open = (rlim_t)strtoull(buf, NULL, 10);
		if (nr_open && want > nr_open)
			want = nr_open;
	}
	if (rl.rlim_cur < want) {
		struct rlimit up = {want, rl.rlim_max};
		if (!setrlimit(RLIMIT_NOFILE, &up))
			rl.rlim_cur = want;
	}
	if (rl.rlim_cur <= FD_HEADROOM)
		return 0;
	rlim_t n = (rl.rlim_cur - FD_HEADROOM) / 2;
	return n < KEPT_MAX ? (size_t)n : KEPT_MAX;
}

struct proc_walk *proc_walk_new(char *err, size_t errlen)
{
	struct proc_walk *w = xcalloc(1, sizeof(*w));

	w->proc = opendir("/proc");
	if (!w->proc) {
		snprintf(err, errlen, "cannot list processes in /proc: %s", strerror(errno));
		free(w);
		return NULL;
	}
	w->page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	w->filled = columns_filled_by(NEED_STAT | NEED_STATM);
	w->max_kept = fd_budget();
	return w;
}

static void drop(struct kept *k)
{
	if (k->stat_fd < 0)
		return;
	close(k->stat_fd);
	close(k->statm_fd);
	k->stat_fd = k->statm_fd = -1;
}

void proc_walk_free(struct proc_walk *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->kept.n; i++)
		drop(&w->kept.v[i]);
	closedir(w->proc);
	free(w->kept.v);
	free(w->next.v);
	free(w);
}

/* Reads stat and statm from their start. The fields up to starttime take at most about
 * 540 bytes of stat; a process gone answers ESRCH. */
static enum got read_pair(int stat_fd, int statm_fd, struct pid_stat *st, struct pid_statm *sm)
{
	char buf[1024];
	ssize_t n = pread(stat_fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		return GONE;
	buf[n] = '\0';
	if (parse_stat(buf, st))
		return CORRUPT;
	n = pread(statm_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return GONE;
	buf[n] = '\0';
	return parse_statm(buf, sm) ? CORRUPT : GOT;
}

/* Opens the stat and statm of process name (its pid) into k. Returns 0, or -1 with errno
 * set (ENOENT: gone). */
static int open_pair(struct proc_walk *w, const char *name, struct kept *k)
{
	char path[32];
	int dir = dirfd(w->proc);

	snprintf(path, sizeof(path), "%s/stat", name);
	k->stat_fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (k->stat_fd < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/statm", name);
	k->statm_fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (k->statm_fd < 0) {
		int e = errno;
		close(k->stat_fd);
		k->stat_fd = -1;
		errno = e;
		return -1;
	}
	return 0;
}

/* Appends process k->pid (name: its entry in /proc) to s, read through the descriptors k
 * keeps or, where it keeps none, through new ones. Returns whether k keeps them for the
 * next refresh: only while nkept, the processes kept so far this refresh, is within the
 * budget. A process that is gone, or whose stat is corrupt, is left out. */
static bool sample(struct proc_walk *w, struct kept *k, const char *name, size_t nkept,
		   struct snapshot *s)
{
	bool keep = nkept < w->max_kept;
	struct pid_stat st;
	struct pid_statm sm;
	struct stat sb;
	enum got got = GONE;

	if (k->stat_fd >= 0) {
		got = read_pair(k->stat_fd, k->statm_fd, &st, &sm);
		/* another start time: the descriptors are another process's */
		if (got == GOT && (st.pid != k->pid || st.start_ticks != k->start_ticks))
			got = GONE;
		if (got != GOT)
			drop(k);
		if (got == CORRUPT)
			return false;
	}
	/* not kept yet, or the process kept has gone: the pid listed is a new process (or
	 * one gone since the listing, which the open tells) */
	if (got == GONE) {
		if (open_pair(w, name, k)) {
			/* out of descriptors after all: free some of the kept ones */
			if (errno == EMFILE || errno == ENFILE) {
				w->max_kept = nkept > FD_HEADROOM / 2 ? nkept - FD_HEADROOM / 2 : 0;
				w->starved = errno;
			}
			return false;
		}
		got = read_pair(k->stat_fd, k->statm_fd, &st, &sm);
		k->start_ticks = st.start_ticks;
	}
	if (!keep || got != GOT)
		drop(k);
	if (got != GOT)
		return false;
	/* The effective uid: st_uid of /proc/PID, which the kernel works out at each stat
	 * (for the directory it is the euid, even for a process that is not dumpable, whose
	 * files there show root), about 1.9 us a process. fstat of the kept stat
	 * descriptor (0.8 us) would give the owner fixed when its inode was made: stale
	 * after a setuid, and root for a process that is not dumpable. A kept descriptor
	 * of /proc/PID would answer right for 1.3 us, but as a third descriptor per process
	 * it would leave a third fewer processes within the budget. */
	if (fstatat(dirfd(w->proc), name, &sb, 0)) {
		drop(k);
		return false;
	}

	struct proc_sample *p = snapshot_add_proc(s);
	p->pid = k->pid;
	p->ppid = st.ppid;
	p->uid = sb.st_uid;
	p->start_ticks = st.start_ticks;
	p->kthread = (st.flags & PF_KTHREAD) != 0;
	memcpy(p->comm, st.comm, sizeof(p->comm));
	p->fig[PV_RSS] = sm.resident * w->page_kb;
	p->fig[PV_VSZ] = sm.size * w->page_kb;
	p->fig[PV_SHR] = sm.shared * w->page_kb;
	p->fig[PV_TXT] = sm.text * w->page_kb;
	p->fig[PV_DATA] = sm.data * w->page_kb;
	p->fig[PV_MINFLT] = st.minflt;
	p->fig[PV_MAJFLT] = st.majflt;
	p->valid = w->filled;
	return k->stat_fd >= 0;
}

/* The pid a /proc entry names, or -1 for an entry that is no process */
static int64_t entry_pid(const char *name)
{
	int64_t pid = 0;
	const char *c = name;

	for (; *c >= '0' && *c <= '9' && pid <= INT32_MAX; c++)
		pid = pid * 10 + (*c - '0');
	return *c || c == name || pid > INT32_MAX ? -1 : pid;
}

size_t proc_walk_count(struct proc_walk *w, size_t max)
{
	struct dirent *e;
	size_t n = 0;

	rewinddir(w->proc);
	while (n < max && (e = readdir(w->proc)))
		n += entry_pid(e->d_name) >= 0;
	return n;
}

int proc_walk_collect(struct proc_walk *w, struct snapshot *s, char *err, size_t errlen)
{
	struct kept_list *old = &w->kept, *next = &w->next;
	size_t o = 0, from = s->nprocs;
	int64_t last = -1;
	struct dirent *e;
	int failed = 0;

	/* Each process is read as the listing reaches it, so one that starts during the
	 * walk is seen if its pid comes later. /proc lists pids ascending, as the kept list
	 * is: one pass pairs each with what is kept for it and closes what is kept for
	 * pids no longer listed. */
	next->n = 0;
	w->starved = 0;
	rewinddir(w->proc);
	for (;;) {
		errno = 0;
		if (!(e = readdir(w->proc))) {
			failed = errno;
			break;
		}
		int64_t pid = entry_pid(e->d_name);
		struct kept k = {(int32_t)pid, -1, -1, 0};

		if (pid < 0 || pid == last)
			continue;
		if (pid < last) { /* out of order: read it, keep nothing */
			sample(w, &k, e->d_name, w->max_kept, s);
			continue;
		}
		last = pid;
		while (o < old->n && old->v[o].pid < pid)
			drop(&old->v[o++]);
		if (o < old->n && old->v[o].pid == pid)
			k = old->v[o++];
		if (!sample(w, &k, e->d_name, next->n, s))
			continue;
		if (next->n == next->cap) {
			next->cap = next->cap ? next->cap * 2 : 1024;
			next->v = xrealloc(next->v, next->cap * sizeof(*next->v));
		}
		next->v[next->n++] = k;
	}
	while (o < old->n)
		drop(&old->v[o++]);
	struct kept_list t = *old;
	*old = *next;
	*next = t;
	s->ntasks = s->nprocs - from;
	if (failed) {
		snprintf(err, errlen, "cannot list processes in /proc: %s", strerror(failed));
		return -1;
	}
	/* not one process read for want of descriptors: /proc cannot be read */
	if (w->starved && s->nprocs == from) {
		snprintf(err, errlen, "cannot read /proc/PID/stat: %s", strerror(w->starved));
		return -1;
	}
	return 0;
}

int proc_walk_pid(struct proc_walk *w, struct snapshot *s, int32_t pid)
{
	struct kept k = {pid, -1, -1, 0};
	size_t n = s->nprocs;
	char name[16];

	snprintf(name, sizeof(name), "%d", pid);
	sample(w, &k, name, w->max_kept, s); /* through descriptors of its own, not kept */
	if (s->nprocs == n)
		return -1;
	s->ntasks++;
	return 0;
}
