#include "pids.h"

#include <errno.h>
#include <libproc2/pids.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pid_files.h"
#include "pidcache.h"
#include "procfs.h"
#include "util.h"

/* The figures of status, read for the rows asked for, by the column they fill; one that
 * is 0 while no swap is in use needs no read then */
static const struct {
	enum col_id col;
	enum pids_item item; /* an ul_int item */
	bool zero_without_swap;
} status_figures[] = {
	{COL_SWAP, PIDS_VM_SWAP, true},
	{COL_LOCKED, PIDS_VM_RSS_LOCKED, false},
};

struct pids_collector {
	struct pids_info *status;
	struct pidcache cache;
	unsigned *sel; /* scratch pid list for procps_pids_select */
	size_t sel_cap;
};

struct pids_collector *pids_new(char *err, size_t errlen)
{
	struct pids_collector *c = xcalloc(1, sizeof(*c));
	static enum pids_item status_items[1 + ARRAY_SIZE(status_figures)] = {PIDS_ID_PID};

	for (size_t i = 0; i < ARRAY_SIZE(status_figures); i++)
		status_items[1 + i] = status_figures[i].item;
	int rc = procps_pids_new(&c->status, status_items, (int)ARRAY_SIZE(status_items));
	if (rc < 0) {
		snprintf(err, errlen, "cannot read processes with libproc2: %s", strerror(-rc));
		pids_free(c);
		return NULL;
	}
	pidcache_init(&c->cache);
	return c;
}

void pids_free(struct pids_collector *c)
{
	if (!c)
		return;
	if (c->status)
		procps_pids_unref(&c->status);
	if (c->cache.buckets)
		pidcache_free(&c->cache);
	free(c->sel);
	free(c);
}

void read_cmdline(int32_t pid, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	long n = read_file(path, buf, size);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (long i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
}

static void read_comm(int32_t pid, char *comm, const char *fallback)
{
	char path[64], buf[MT_COMM_LEN + 1];
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	long n = read_file(path, buf, sizeof(buf));
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	snprintf(comm, MT_COMM_LEN + 1, "%.16s", n > 0 ? buf : fallback);
}

/* The sample's command line, the cache entry's (read into it the first time) */
static void fill_cmd(struct pid_entry *e, struct proc_sample *p)
{
	char buf[4096];

	if (!e->cmd) {
		read_cmdline(p->pid, buf, sizeof(buf));
		if (!buf[0]) /* kernel thread or zombie: show [comm] as ps does */
			snprintf(buf, sizeof(buf), "[%s]", e->comm);
		e->cmd = xstrdup(buf);
	}
	p->cmd = e->cmd;
	p->valid |= columns_filled_by(NEED_CMDLINE);
}

/* Fills comm and cmd from the cache, reading them for a process seen the first time or
 * one that renamed itself (an exec: its cgroup is then read again too); without cmd_now
 * a command line not read yet stays unread (NULL), for pids_fill. Returns its entry. */
static struct pid_entry *fill_names(struct pids_collector *c, struct proc_sample *p, bool cmd_now)
{
	char lp_comm[MT_COMM_LEN + 1];

	memcpy(lp_comm, p->comm, sizeof(lp_comm));
	struct pid_entry *e = pidcache_find(&c->cache, p->pid, p->start_ticks);
	if (e && strcmp(e->seen_comm, lp_comm) != 0) {
		free(e->cmd);
		e->cmd = NULL;
		e->named = false;
		e->cgroup_read = false;
	} else if (!e) {
		e = pidcache_add(&c->cache, p->pid, p->start_ticks);
	}
	if (!e->named) {
		snprintf(e->seen_comm, sizeof(e->seen_comm), "%s", lp_comm);
		/* the walk's name is the kernel's comm; /proc's adds a kernel worker's current
		 * work ("kworker/0:1-events"), so it is read for kernel threads */
		if (p->kthread)
			read_comm(p->pid, e->comm, lp_comm);
		else
			snprintf(e->comm, sizeof(e->comm), "%s", lp_comm);
		e->named = true;
	}
	memcpy(p->comm, e->comm, sizeof(p->comm));
	p->cmd = NULL;
	if (e->cmd || cmd_now)
		fill_cmd(e, p);
	return e;
}

/* The memory cgroup of a process, for the CGROUP column and the cgroup filter: the
 * memory controller's line of /proc/PID/cgroup (v1), else its 0:: line (v2). That read
 * costs about 8 us a process, 16 ms a refresh at 2,000, so it is not made for every
 * process at each refresh: a process's cgroup is read when it is first seen (and again
 * when it execs, as its command line is), kept with its command line, and read again at
 * each refresh for the rows asked for by pid (the rows on screen), where a move shows.
 * Batch and JSON thus give a process's cgroup as of its first sight or last exec, the
 * moment a runtime places it. A cgroup filter needs every process where it is now: with
 * COL_ALL_CGROUPS, every process's is read at each refresh. */
static void fill_cgroup(struct pid_entry *e, struct proc_sample *p, bool again)
{
	if (!e->cgroup_read || again) {
		char cg[4096];
		bool ok = !read_proc_memcg(p->pid, cg, sizeof(cg));
		pidcache_set_cgroup(e, ok ? cg : NULL); /* gone: what was read before */
	}
	p->cgroup = e->cgroup;
	if (p->cgroup)
		p->valid |= COL_BIT(COL_CGROUP);
}

static bool pid_in(int32_t pid, const int32_t *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == pid)
			return true;
	return false;
}

static bool wanted(const struct pids_request *req, int32_t pid)
{
	return req->rows_all || pid_in(pid, req->row_pids, req->nrow_pids);
}

/* The status figures that cols asks for and that need a read now: those that are 0
 * while no swap is in use are set without one. */
static unsigned status_wanted(struct snapshot *s, size_t from, unsigned cols)
{
	bool swap_used = s->mem[MI_SWAP_TOTAL] != s->mem[MI_SWAP_FREE];
	unsigned read = 0;

	for (size_t k = 0; k < ARRAY_SIZE(status_figures); k++) {
		enum col_id col = status_figures[k].col;

		if (!(cols & COL_BIT(col)))
			continue;
		if (swap_used || !status_figures[k].zero_without_swap) {
			read |= COL_BIT(col);
			continue;
		}
		for (size_t i = from; i < s->nprocs; i++) {
			PROC_FIG(&s->procs[i], col) = 0;
			s->procs[i].valid |= COL_BIT(col);
		}
	}
	return read;
}

/* /proc/PID/status costs a read per process: only for the processes asked for, and
 * not at all where the figures asked for are known without it. */
static void collect_status(struct pids_collector *c, struct snapshot *s, size_t from,
			   const struct pids_request *req)
{
	size_t n = s->nprocs - from;
	unsigned asked = req->cols & columns_filled_by(NEED_STATUS);
	unsigned read = status_wanted(s, from, req->cols);
	if (!read) {
		for (size_t i = from; i < s->nprocs; i++)
			s->procs[i].tried |= asked;
		return;
	}
	if (c->sel_cap < n) {
		c->sel_cap = n;
		c->sel = xrealloc(c->sel, n * sizeof(*c->sel));
	}
	size_t k = 0;
	for (size_t i = from; i < s->nprocs; i++) {
		if (!wanted(req, s->procs[i].pid))
			continue;
		s->procs[i].tried |= asked;
		/* the walk may have given them (the task iterator gives swap) */
		if ((s->procs[i].valid & read) != read)
			c->sel[k++] = (unsigned)s->procs[i].pid;
	}
	if (k == 0)
		return;
	struct pids_fetch *f = procps_pids_select(c->status, c->sel, (int)k, PIDS_SELECT_PID);
	if (!f)
		return;
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *st = f->stacks[i];
		struct proc_sample *p = snapshot_find(s, from, st->head[0].result.s_int);
		if (!p)
			continue;
		for (size_t j = 0; j < ARRAY_SIZE(status_figures); j++) {
			PROC_FIG(p, status_figures[j].col) = st->head[1 + j].result.ul_int;
			p->valid |= COL_BIT(status_figures[j].col);
		}
	}
}

/* PSS, USS and the huge pages: smaps_rollup walks every mapping of the process, so it is read only
 * for the processes asked for. Needs the right to read the process's memory map (ptrace read
 * access): for other users' processes, without root, they stay unknown. */
static void collect_rollup(struct snapshot *s, size_t from, const struct pids_request *req)
{
	const unsigned cols = columns_with_need(NEED_SMAPS);

	for (size_t i = from; i < s->nprocs; i++) {
		struct proc_sample *p = &s->procs[i];
		char path[64], buf[4096];
		struct dd_breakdown b = {0};

		if (!wanted(req, p->pid))
			continue;
		p->tried |= cols;
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", p->pid);
		long n = read_file(path, buf, sizeof(buf));
		if (n <= 0 && p->fig[PV_RSS] == 0 && (n == 0 || errno == ESRCH)) {
			/* a kernel thread or a zombie: no memory */
			p->valid |= cols;
			continue;
		}
		if (n < 0 || parse_smaps_rollup(buf, &b))
			continue; /* gone or not allowed */
		p->fig[PV_PSS] = b.pss;
		p->fig[PV_USS] = b.uss;
		p->fig[PV_AHP] = b.anon_huge;
		p->fig[PV_HUGETLB] = b.shared_hugetlb + b.private_hugetlb;
		p->valid |= cols;
	}
}

/* The OOM killer's badness score: a small read per process, only for those asked for.
 * World-readable. */
static void collect_oom(struct snapshot *s, size_t from, const struct pids_request *req)
{
	for (size_t i = from; i < s->nprocs; i++) {
		struct proc_sample *p = &s->procs[i];
		int v;

		if (!wanted(req, p->pid))
			continue;
		p->tried |= COL_BIT(COL_OOM);
		if (!read_proc_int(p->pid, "oom_score", &v)) {
			p->fig[PV_OOM] = (uint64_t)v;
			p->valid |= COL_BIT(COL_OOM);
		}
	}
}

static uint64_t size_of(const struct proc_sample *p)
{
	return p->fig[PV_RSS] + (p->valid & COL_BIT(COL_SWAP) ? p->fig[PV_SWAP] : 0);
}

/* The kernel's badness is mostly RSS + swap (+ page tables, + oom_score_adj's share of
 * RAM): the oom_score of the n largest names the likely next victim, but for a process
 * whose oom_score_adj puts a smaller one first */
static void collect_victims(struct snapshot *s, size_t from, size_t n)
{
	struct proc_sample *top[PIDS_VICTIMS];
	size_t k = 0;

	if (n > PIDS_VICTIMS)
		n = PIDS_VICTIMS;
	for (size_t i = from; i < s->nprocs && n; i++) {
		struct proc_sample *p = &s->procs[i];
		size_t j = k;
		while (j > 0 && size_of(top[j - 1]) < size_of(p))
			j--;
		if (j >= n)
			continue;
		size_t last = k < n ? k : n - 1;
		memmove(top + j + 1, top + j, (last - j) * sizeof(*top));
		top[j] = p;
		k += k < n;
	}
	for (size_t j = 0; j < k; j++) {
		int v;
		if (!(top[j]->valid & COL_BIT(COL_OOM)) &&
		    !read_proc_int(top[j]->pid, "oom_score", &v)) {
			top[j]->fig[PV_OOM] = (uint64_t)v;
			top[j]->valid |= COL_BIT(COL_OOM);
		}
	}
}

static void collect_costly(struct pids_collector *c, struct snapshot *s, size_t from,
			   const struct pids_request *req)
{
	unsigned needs = columns_needs(req->cols);

	if (needs & NEED_STATUS)
		collect_status(c, s, from, req);
	if (needs & NEED_SMAPS)
		collect_rollup(s, from, req);
	if (needs & NEED_OOM)
		collect_oom(s, from, req);
}

/* The command lines left unread (pids_request names_asked) of the rows req asks for */
static void collect_names(struct pids_collector *c, struct snapshot *s,
			  const struct pids_request *req)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		struct proc_sample *p = &s->procs[i];
		struct pid_entry *e;

		if (!p->cmd && wanted(req, p->pid) &&
		    (e = pidcache_find(&c->cache, p->pid, p->start_ticks)))
			fill_cmd(e, p);
	}
}

void pids_fill(struct pids_collector *c, struct snapshot *s, const struct pids_request *req)
{
	collect_names(c, s, req);
	collect_costly(c, s, 0, req);
}

void pids_finish(struct pids_collector *c, struct snapshot *s, size_t from,
		 const struct pids_request *req)
{
	bool cgroups = req->cols & (COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS);
	bool cgroups_all = req->cols & COL_ALL_CGROUPS;
	bool sorted = true; /* as the task iterator gives them: no sort then */
	size_t n = from;

	for (size_t i = from; i < s->nprocs; i++) {
		struct proc_sample *p = &s->procs[i];

		if (req->nonly_pids && !pid_in(p->pid, req->only_pids, req->nonly_pids))
			continue;
		if (n != i)
			s->procs[n] = *p;
		p = &s->procs[n++];
		sorted = sorted && (n - 1 == from || p[-1].pid < p->pid);
		p->user = user_name(p->uid);
		struct pid_entry *e = fill_names(c, p, !req->names_asked || wanted(req, p->pid));
		if (cgroups)
			fill_cgroup(e, p,
				    cgroups_all || pid_in(p->pid, req->row_pids, req->nrow_pids));
	}
	s->nprocs = n;
	if (s->nprocs > from && !sorted) /* procs is NULL while no process was added */
		qsort(s->procs + from, s->nprocs - from, sizeof(*s->procs), snapshot_cmp_pid);
	collect_costly(c, s, from, req);
	if (req->victims)
		collect_victims(s, from, req->victims);
	pidcache_sweep(&c->cache);
}
