/* Concern: the process table from a BPF task iterator (bpf/tasks.bpf.c). One read of the
 * iterator gives what /proc/PID/stat and statm give for every process, at a fraction of
 * the cost of opening two files per process. At start it is checked against
 * /proc/self/statm (by the memtop that loads it: a service's pins were checked by the
 * service); when it disagrees it stays off and /proc is walked instead. */
#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "pid_files.h"
#include "kbtf.h"
#include "util.h"

_Static_assert(MTB_COMM_LEN == MT_COMM_LEN, "comm lengths differ");

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h */

struct tasks {
	struct bpf_concern_state c; /* first: bpf_concern_start's; its one link the iterator */
	uint64_t page_kb;
	uint64_t ns_per_tick;	     /* /proc's start time is in clock ticks */
	char buf[65536];	     /* the iterator's output, a part at a time */
	struct mtb_thread_rec *late; /* threads read before their process */
	size_t nlate, late_cap;
	int32_t only; /* a walk of this process alone (the check at start); 0: of all */
};

static int tasks_configure(struct memtop_bpf *skel, const struct btf *kernel, char *why, size_t len)
{
	int n = libbpf_num_possible_cpus();

	bool old;

	if (kernel && !kbtf_has_iter(kernel, "task")) {
		snprintf(why, len, "needs Linux 5.8 (task iterator); processes from /proc");
		return -ENOTSUP;
	}
	/* the rss counters in struct mm_rss_stat (before 6.2), or per CPU */
	old = kbtf_has_struct(kernel, "mm_rss_stat");
	if (kernel && !old && !kbtf_has_func(kernel, "bpf_rdonly_cast")) {
		snprintf(why, len, "needs the kfunc bpf_rdonly_cast (6.2); processes from /proc");
		return -ENOTSUP;
	}
	bpf_program__set_autoload(skel->progs.tasks, !old);
	bpf_program__set_autoload(skel->progs.tasks_old, old);
	if (n <= 0 || n > MTB_MAX_CPUS) {
		snprintf(why, len, "%d possible CPUs", n);
		return -ENOTSUP;
	}
	skel->rodata->nr_cpus = (uint32_t)n;
	return 0;
}

static void fill(const struct tasks *t, struct proc_sample *p, const struct mtb_task_rec *r,
		 unsigned figures)
{
	p->pid = r->tgid;
	p->ppid = r->ppid;
	p->uid = r->euid;
	p->start_ticks = r->start_ns / t->ns_per_tick;
	p->kthread = (r->flags & PF_KTHREAD) != 0;
	memcpy(p->comm, r->comm, MT_COMM_LEN);
	p->comm[MT_COMM_LEN] = '\0';
	p->fig[PV_RSS] = r->resident * t->page_kb;
	p->fig[PV_VSZ] = r->size * t->page_kb;
	p->fig[PV_SHR] = r->shared * t->page_kb;
	p->fig[PV_TXT] = r->text * t->page_kb;
	p->fig[PV_DATA] = r->data * t->page_kb;
	p->fig[PV_MINFLT] = r->minflt;
	p->fig[PV_MAJFLT] = r->majflt;
	p->fig[PV_SWAP] = r->swap * t->page_kb; /* VmSwap, summed over CPUs as status does */
	p->valid = figures | COL_BIT(COL_SWAP);
	p->memcg_id = r->memcg_id;
	p->cgroup2_id = r->cgroup2_id;
}

/* Takes one record from p (at most len bytes) into s; returns its length, or 0 when len
 * holds no whole record */
static size_t take(struct tasks *t, struct snapshot *s, size_t from, const char *p, size_t len,
		   unsigned figures, bool *sorted)
{
	uint32_t kind;

	if (len < sizeof(kind))
		return 0;
	memcpy(&kind, p, sizeof(kind));
	if (kind == MTB_TASK_THREAD) {
		struct mtb_thread_rec th;

		if (len < sizeof(th))
			return 0;
		memcpy(&th, p, sizeof(th));
		if (t->only && th.tgid != t->only)
			return sizeof(th);
		/* its process comes first, as the iterator visits by id; unless ids wrapped */
		struct proc_sample *q = *sorted ? snapshot_find(s, from, th.tgid) : NULL;
		if (q) {
			q->fig[PV_MINFLT] += th.minflt;
			q->fig[PV_MAJFLT] += th.majflt;
		} else {
			if (t->nlate == t->late_cap) {
				t->late_cap = t->late_cap ? 2 * t->late_cap : 64;
				t->late = xrealloc(t->late, t->late_cap * sizeof(*t->late));
			}
			t->late[t->nlate++] = th;
		}
		return sizeof(th);
	}
	struct mtb_task_rec r;

	if (kind != MTB_TASK_PROC || len < sizeof(r))
		return 0; /* or not a record: cannot happen, the records are the program's */
	memcpy(&r, p, sizeof(r));
	if (t->only && r.tgid != t->only)
		return sizeof(r);
	struct proc_sample *q = snapshot_add_proc(s);
	fill(t, q, &r, figures);
	*sorted = *sorted && (s->nprocs - 1 == from || q[-1].pid < q->pid);
	return sizeof(r);
}

/* A walk of the iterator link (its tasks: all, or one process's) into s */
static int walk_link(struct tasks *t, struct snapshot *s, int link)
{
	unsigned figures = columns_filled_by(NEED_STAT | NEED_STATM);
	size_t from = s->nprocs, have = 0;
	bool sorted = true;
	int fd = bpf_iter_create(link);

	if (fd < 0)
		return -1;
	t->nlate = 0;
	/* read a part, take its whole records, keep the rest for the next part (the kernel
	 * does not cut records, but a part may end inside one all the same) */
	for (;;) {
		ssize_t n = read(fd, t->buf + have, sizeof(t->buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			s->nprocs = from;
			return -1;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		size_t off = 0, k;
		while ((k = take(t, s, from, t->buf + off, have - off, figures, &sorted)))
			off += k;
		memmove(t->buf, t->buf + off, have - off);
		have -= off;
	}
	close(fd);
	s->ntasks = s->nprocs - from;
	s->procs_cg_ids = true;
	if (!sorted)
		qsort(s->procs + from, s->nprocs - from, sizeof(*s->procs), snapshot_cmp_pid);
	for (size_t i = 0; i < t->nlate; i++) {
		struct proc_sample *q = snapshot_find(s, from, t->late[i].tgid);
		if (q) {
			q->fig[PV_MINFLT] += t->late[i].minflt;
			q->fig[PV_MAJFLT] += t->late[i].majflt;
		}
	}
	return 0;
}

static int tasks_walk(void *state, struct snapshot *s)
{
	struct tasks *t = state;

	return walk_link(t, s, bpf_link__fd(t->c.link[0]));
}

/* The figures the iterator gives of /proc/self/statm: size, resident, shared, text, data */
static int self_statm(uint64_t f[5])
{
	struct pid_statm sm;

	if (read_statm("/proc/self/statm", &sm))
		return -1;
	f[0] = sm.size;
	f[1] = sm.resident;
	f[2] = sm.shared;
	f[3] = sm.text;
	f[4] = sm.data;
	return 0;
}

/* The iterator's figures for memtop itself against /proc/self/statm, read before and
 * after it (memtop's own memory may move in between: then try again; after a few tries,
 * each figure between its two readings passes). */
static int self_check_walks(struct tasks *t, int link, char *why, size_t len)
{
	for (int tries = 0; tries < 10; tries++) {
		struct snapshot s;
		uint64_t before[5], after[5];
		bool same;

		snapshot_init(&s);
		if (self_statm(before) || walk_link(t, &s, link) || self_statm(after)) {
			snapshot_free(&s);
			snprintf(why, len, "task iterator: cannot read");
			return -EIO;
		}
		same = !memcmp(before, after, sizeof(before));
		struct proc_sample *me = snapshot_find(&s, 0, getpid());
		uint64_t got[5] = {0};
		if (me) {
			got[0] = me->fig[PV_VSZ] / t->page_kb;
			got[1] = me->fig[PV_RSS] / t->page_kb;
			got[2] = me->fig[PV_SHR] / t->page_kb;
			got[3] = me->fig[PV_TXT] / t->page_kb;
			got[4] = me->fig[PV_DATA] / t->page_kb;
		}
		snapshot_free(&s);
		if (!me) {
			snprintf(why, len, "task iterator does not list memtop");
			return -ESRCH;
		}
		if (same && !memcmp(got, before, sizeof(got)))
			return 0;
		if (same) {
			snprintf(why, len, "task iterator disagrees with /proc/self/statm");
			return -EPROTO;
		}
		/* memtop's other thread (the refreshes, while this loads on its own) moved its
		 * memory: after a few tries, each figure between the two readings will do */
		bool between = tries >= 2;
		for (int i = 0; i < 5 && between; i++)
			between = got[i] >= (before[i] < after[i] ? before[i] : after[i]) &&
				  got[i] <= (before[i] > after[i] ? before[i] : after[i]);
		if (between)
			return 0;
		usleep(2000);
	}
	snprintf(why, len, "task iterator: /proc/self/statm kept moving");
	return -EAGAIN;
}

/* A link of the iterator's program that walks memtop's own threads alone (Linux 6.1 on:
 * a task iterator given a pid), so that the check does not walk every task (20 ms at
 * 10,000 processes); -1 where the kernel has none (or no descriptor is left) */
static int own_link(const struct tasks *t)
{
	union bpf_iter_link_info info = {.task = {.pid = (__u32)getpid()}};
	LIBBPF_OPTS(bpf_link_create_opts, o, .iter_info = &info, .iter_info_len = sizeof(info));
	int prog = bpf_concern_prog_fd(&t->c, t->c.link_at[0]);

	return prog < 0 ? -1 : bpf_link_create(prog, 0, BPF_TRACE_ITER, &o);
}

/* The iterator's figures for memtop itself against /proc/self/statm, read before and
 * after it (memtop's own memory may move in between: then try again; after a few tries,
 * each figure between its two readings passes). The walk keeps memtop's record alone:
 * a snapshot of every process (2 MB at 10,000) would move the memory it checks. */
static int self_check(struct tasks *t, char *why, size_t len)
{
	int own = own_link(t);

	t->only = (int32_t)getpid();
	int err = self_check_walks(t, own >= 0 ? own : bpf_link__fd(t->c.link[0]), why, len);
	t->only = 0;
	if (own >= 0)
		close(own);
	return err;
}

static int tasks_start(void *state, char *why, size_t len)
{
	struct tasks *t = state;
	long hz = sysconf(_SC_CLK_TCK);

	t->page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	t->ns_per_tick = hz > 0 ? 1000000000ULL / (uint64_t)hz : 10000000ULL;
	/* a service's pinned iterator (bpf_pins.h) passed the same check when it started:
	 * the same program of this build, on this kernel */
	return t->c.pins ? 0 : self_check(t, why, len);
}

static void tasks_stop(void *state)
{
	struct tasks *t = state;

	free(t->late);
}

const struct bpf_concern bpf_tasks = {
	.name = "process table from BPF",
	.needs = "the process table from BPF",
	.progs = {SKEL_PROG(tasks), SKEL_PROG(tasks_old)},
	.one_of = true,
	.fds = 1, /* the iterator read by a walk */
	.state_size = sizeof(struct tasks),
	.configure = tasks_configure,
	.start = tasks_start,
	.walk = tasks_walk,
	.stop = tasks_stop,
};
