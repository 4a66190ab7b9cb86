/* Concern: the process table from a BPF task iterator (bpf/tasks.bpf.c). One read of the
 * iterator gives what /proc/PID/stat and statm give for every process, at a fraction of
 * the cost of opening two files per process. At start it is checked against
 * /proc/self/statm; when it disagrees it stays off and /proc is walked instead. */
#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "util.h"

_Static_assert(MTB_COMM_LEN == MT_COMM_LEN, "comm lengths differ");

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h */

struct tasks {
	struct bpf_link *link;
	uint64_t page_kb;
	uint64_t ns_per_tick; /* /proc's start time is in clock ticks */
	char *buf;	      /* the iterator's output */
	size_t cap;
};

static size_t tasks_programs(struct memtop_bpf *skel, struct bpf_program **p)
{
	p[0] = skel->progs.tasks;
	return 1;
}

static int tasks_configure(struct memtop_bpf *skel, char *why, size_t len)
{
	int n = libbpf_num_possible_cpus();

	if (n <= 0 || n > MTB_MAX_CPUS) {
		snprintf(why, len, "%d possible CPUs", n);
		return -ENOTSUP;
	}
	skel->rodata->nr_cpus = (uint32_t)n;
	return 0;
}

/* Runs the iterator of link once: its whole output in t->buf from offset len. Returns
 * the bytes in t->buf then, or -1. */
static long run_iter(struct tasks *t, struct bpf_link *link, size_t len)
{
	int fd = bpf_iter_create(bpf_link__fd(link));

	if (fd < 0)
		return -1;
	for (;;) {
		if (t->cap - len < 65536) {
			t->cap = t->cap ? t->cap * 2 : 262144;
			t->buf = xrealloc(t->buf, t->cap);
		}
		ssize_t n = read(fd, t->buf + len, t->cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return (long)len;
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
	p->v[COL_RSS] = r->resident * t->page_kb;
	p->v[COL_VSZ] = r->size * t->page_kb;
	p->v[COL_SHR] = r->shared * t->page_kb;
	p->v[COL_TXT] = r->text * t->page_kb;
	p->v[COL_DATA] = r->data * t->page_kb;
	p->v[COL_MINFLT] = r->minflt;
	p->v[COL_MAJFLT] = r->majflt;
	p->v[COL_SWAP] = r->swap * t->page_kb; /* VmSwap, summed over CPUs as status does */
	p->valid = figures | COL_BIT(COL_SWAP);
}

/* Adds a thread's faults to its process's, as /proc/PID/stat does */
static void add_thread(struct snapshot *s, size_t from, const struct mtb_thread_rec *th)
{
	struct proc_sample *p = snapshot_find(s, from, th->tgid);

	if (p) {
		p->v[COL_MINFLT] += th->minflt;
		p->v[COL_MAJFLT] += th->majflt;
	}
}

static int tasks_walk(void *state, struct snapshot *s)
{
	struct tasks *t = state;
	long len = run_iter(t, t->link, 0);
	unsigned figures = columns_filled_by(NEED_STAT | NEED_STATM);
	size_t from = s->nprocs, threads = 0;
	bool sorted = true;

	if (len < 0)
		return -1;
	/* processes first, in pid order as the iterator visits them; then their threads */
	for (long off = 0; off + (long)sizeof(uint32_t) <= len;) {
		uint32_t kind;

		memcpy(&kind, t->buf + off, sizeof(kind));
		if (kind == MTB_TASK_THREAD && off + (long)sizeof(struct mtb_thread_rec) <= len) {
			off += sizeof(struct mtb_thread_rec);
			threads++;
			continue;
		}
		if (kind != MTB_TASK_PROC || off + (long)sizeof(struct mtb_task_rec) > len)
			break; /* cannot happen: the records are the program's */
		struct mtb_task_rec r;
		memcpy(&r, t->buf + off, sizeof(r));
		off += sizeof(r);
		struct proc_sample *p = snapshot_add_proc(s);
		fill(t, p, &r, figures);
		sorted &= s->nprocs - 1 == from || p[-1].pid < p->pid;
	}
	s->ntasks = s->nprocs - from;
	if (!sorted)
		qsort(s->procs + from, s->nprocs - from, sizeof(*s->procs), snapshot_cmp_pid);
	for (long off = 0; threads && off + (long)sizeof(uint32_t) <= len;) {
		uint32_t kind;

		memcpy(&kind, t->buf + off, sizeof(kind));
		if (kind == MTB_TASK_PROC) {
			off += sizeof(struct mtb_task_rec);
			continue;
		}
		if (kind != MTB_TASK_THREAD || off + (long)sizeof(struct mtb_thread_rec) > len)
			break;
		struct mtb_thread_rec th;
		memcpy(&th, t->buf + off, sizeof(th));
		off += sizeof(th);
		add_thread(s, from, &th);
	}
	return 0;
}

static int read_statm(uint64_t f[5])
{
	char buf[256];
	long n = read_file("/proc/self/statm", buf, sizeof(buf));
	unsigned long long v[5];

	if (n <= 0 ||
	    sscanf(buf, "%llu %llu %llu %llu %*u %llu", &v[0], &v[1], &v[2], &v[3], &v[4]) != 5)
		return -1;
	for (int i = 0; i < 5; i++)
		f[i] = v[i];
	return 0;
}

/* The iterator's figures for memtop itself against /proc/self/statm, read before and
 * after it (memtop's own memory may move in between: then try again). */
static int self_check(struct tasks *t, char *why, size_t len)
{
	for (int tries = 0; tries < 5; tries++) {
		struct snapshot s;
		uint64_t before[5], after[5];
		bool same;

		snapshot_init(&s);
		if (read_statm(before) || tasks_walk(t, &s) || read_statm(after)) {
			snapshot_free(&s);
			snprintf(why, len, "task iterator: cannot read");
			return -EIO;
		}
		same = !memcmp(before, after, sizeof(before));
		struct proc_sample *me = snapshot_find(&s, 0, getpid());
		uint64_t got[5] = {0};
		if (me) {
			got[0] = me->v[COL_VSZ] / t->page_kb;
			got[1] = me->v[COL_RSS] / t->page_kb;
			got[2] = me->v[COL_SHR] / t->page_kb;
			got[3] = me->v[COL_TXT] / t->page_kb;
			got[4] = me->v[COL_DATA] / t->page_kb;
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
	}
	snprintf(why, len, "task iterator: /proc/self/statm kept moving");
	return -EAGAIN;
}

static void tasks_close(void *state)
{
	struct tasks *t = state;

	if (!t)
		return;
	bpf_link__destroy(t->link);
	free(t->buf);
	free(t);
}

static int tasks_start(void **state, struct memtop_bpf *skel, char *why, size_t len)
{
	struct tasks *t = xcalloc(1, sizeof(*t));
	long hz = sysconf(_SC_CLK_TCK);
	int err;

	t->page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	t->ns_per_tick = hz > 0 ? 1000000000ULL / (uint64_t)hz : 10000000ULL;
	t->link = bpf_program__attach_iter(skel->progs.tasks, NULL);
	if (!t->link) {
		err = -errno;
		bpf_concern_why(why, len, "attaching the task iterator", err);
		goto fail;
	}
	err = self_check(t, why, len);
	if (err)
		goto fail;
	*state = t;
	return 0;
fail:
	tasks_close(t);
	return err;
}

static int tasks_links(const void *state)
{
	(void)state;
	return 1;
}

const struct bpf_concern bpf_tasks = {
	.name = "process table from BPF",
	.needs = "the process table from BPF",
	.programs = tasks_programs,
	.configure = tasks_configure,
	.start = tasks_start,
	.walk = tasks_walk,
	.links = tasks_links,
	.close = tasks_close,
};
