/* The scripted machine of scenario_world.h, as snapshots appended by memtop's recorder,
 * and the truth of each refresh as a JSON line. */
#include "scenario_world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgcolumns.h"
#include "columns.h"
#include "recfmt.h"
#include "record.h"
#include "snapshot.h"

#define HZ    100
#define UP0   86400.0	   /* the machine's uptime at the recording's start */
#define MONO0 86400.25	   /* CLOCK_MONOTONIC then */
#define WALL0 1800000000.0 /* and CLOCK_REALTIME */
/* what a live walk reads of each process (stat, statm, cmdline, status, oom_score, its
 * cgroup) */
#define PROC_COLS                                                                                  \
	(columns_filled_by(NEED_STAT | NEED_STATM | NEED_CMDLINE) | COL_BIT(COL_SWAP) |            \
	 COL_BIT(COL_USED) | COL_BIT(COL_OOM) | COL_BIT(COL_CGROUP))
#define CG_READ                                                                                    \
	(CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_ANON) | CGCOL_BIT(CGCOL_FILE) |                  \
	 CGCOL_BIT(CGCOL_KERNEL) | CGCOL_BIT(CGCOL_SWAP) | CGCOL_BIT(CGCOL_NPROCS) |               \
	 CGCOL_BIT(CGCOL_OOM_KERNEL))
#define CG_LIMITS                                                                                  \
	(CGCOL_BIT(CGCOL_LIMIT) | CGCOL_BIT(CGCOL_HIGH) | CGCOL_BIT(CGCOL_LOW) |                   \
	 CGCOL_BIT(CGCOL_MIN) | CGCOL_BIT(CGCOL_SWAP_LIMIT))

bool w_alive(const struct wproc *p, double t)
{
	return t >= p->born && t < p->ends;
}

double w_rss(const struct wproc *p, double t)
{
	return p->rss0 + p->rate * fmax(0, fmin(t, p->grow_to) - p->grow_from);
}

double w_rate(const struct wproc *p, double t)
{
	return w_alive(p, t) && t >= p->grow_from && t < p->grow_to ? p->rate : 0;
}

int w_root(struct world *w)
{
	w->cgs[0] = (struct wcg){.path = "/", .id = 1, .parent = -1};
	w->ncgs = 1;
	return 0;
}

int w_cgroup(struct world *w, const char *path, uint64_t id, double limit_kb, double base_kb)
{
	w->cgs[w->ncgs] = (struct wcg){path, id, 0, limit_kb, base_kb};
	return w->ncgs++;
}

int w_proc(struct world *w, int32_t pid, const char *comm, const char *cmd, int cg, double born,
	   double rss0, double rate)
{
	w->procs[w->nprocs] = (struct wproc){.pid = pid,
					     .ppid = 1,
					     .comm = comm,
					     .cmd = cmd,
					     .cg = cg,
					     .born = born,
					     .rss0 = rss0,
					     .rate = rate,
					     .grow_from = born,
					     .ends = W_NEVER,
					     .grow_to = W_NEVER};
	return w->nprocs++;
}

static uint64_t kb(double v)
{
	return v > 0 ? (uint64_t)llround(v) : 0;
}

/* Process p is in cgroup c or below it */
static bool within(const struct world *w, const struct wproc *p, int c)
{
	for (int i = p->cg; i >= 0; i = w->cgs[i].parent)
		if (i == c)
			return true;
	return false;
}

/* What the machine and each cgroup hold at t (integers, as recorded) */
struct state {
	uint64_t avail, usage[W_MAX_CGS], nprocs[W_MAX_CGS], kills[W_MAX_CGS];
	double room_rate, cg_rate[W_MAX_CGS];
};

static void state_at(const struct world *w, double t, struct state *st)
{
	double held = 0;

	memset(st, 0, sizeof(*st));
	for (int c = 0; c < w->ncgs; c++) {
		double u = w->cgs[c].base_kb;
		for (int c2 = c + 1; c2 < w->ncgs; c2++)
			if (w->cgs[c2].parent == c)
				u += w->cgs[c2].base_kb;
		for (int i = 0; i < w->nprocs; i++) {
			const struct wproc *p = &w->procs[i];
			if (!within(w, p, c))
				continue;
			if (p->oom_killed && p->ends <= t)
				st->kills[c]++;
			if (!w_alive(p, t))
				continue;
			u += kb(w_rss(p, t));
			st->cg_rate[c] += w_rate(p, t);
			st->nprocs[c]++;
		}
		st->usage[c] = kb(u);
	}
	for (int i = 0; i < w->nprocs; i++)
		if (w_alive(&w->procs[i], t)) {
			held += kb(w_rss(&w->procs[i], t));
			st->room_rate -= w_rate(&w->procs[i], t);
		}
	st->avail = kb(w->avail_base_kb - held);
}

/* Pages swapped in by t */
static uint64_t swapins(const struct world *w, double t)
{
	t = t > w->swapin_from ? t - w->swapin_from : 0;
	return (uint64_t)llround(w->swapin_rate * t + w->swapin_accel * t * t);
}

static void fill_mem(const struct world *w, struct snapshot *s, const struct state *st, double t)
{
	uint64_t anon = kb(w->mem_total_kb - w->cached_kb - w->buffers_kb - w->slab_kb -
			   (double)st->avail + w->cached_kb);

	s->mem[MI_MEM_TOTAL] = kb(w->mem_total_kb);
	s->mem[MI_MEM_AVAILABLE] = st->avail;
	s->mem[MI_MEM_FREE] = st->avail > kb(w->cached_kb) ? st->avail - kb(w->cached_kb) : 0;
	s->mem[MI_BUFFERS] = kb(w->buffers_kb);
	s->mem[MI_CACHED] = kb(w->cached_kb);
	s->mem[MI_SHMEM] = kb(w->shmem_kb);
	s->mem[MI_SLAB] = kb(w->slab_kb);
	s->mem[MI_SRECLAIMABLE] = kb(w->slab_kb / 2);
	s->mem[MI_SUNRECLAIM] = kb(w->slab_kb) - kb(w->slab_kb / 2);
	s->mem[MI_SWAP_TOTAL] = kb(w->swap_total_kb);
	s->mem[MI_SWAP_FREE] = kb(w->swap_free_kb);
	s->mem[MI_ANON_PAGES] = anon;
	s->mem[MI_ACTIVE_ANON] = anon / 2;
	s->mem[MI_INACTIVE_ANON] = anon - anon / 2;
	s->mem[MI_ACTIVE_FILE] = kb(w->cached_kb / 2);
	s->mem[MI_INACTIVE_FILE] = kb(w->cached_kb) - kb(w->cached_kb / 2);
	s->mem[MI_PAGE_TABLES] = 8192;
	s->mem[MI_KERNEL_STACK] = 4096;
	s->mem[MI_COMMITTED_AS] = anon + 65536;
	s->mem[MI_COMMIT_LIMIT] = kb(w->mem_total_kb / 2 + w->swap_total_kb);
	s->mem[MI_HUGEPAGESIZE] = 2048;
	s->mem_presence = ((1ull << MI_COUNT) - 1) ^ MI_PRESENT_DEFAULT;
	/* the kernel's counters: a steady pace of faults, the OOM kills so far */
	s->vm[VS_PGFAULT] = 5000000 + (uint64_t)(t * 1000 + 1000000);
	s->vm[VS_OOM_KILL] = st->kills[0];
	s->bpf.enabled = w->bpf;
	if (w->swapin_rate > 0) {
		s->vm[VS_PSWPIN] = swapins(w, t);
		s->bpf.have_swapin = true;
		s->bpf.swapins = swapins(w, t + w->swapin_lag);
	}
	s->vm_presence = ((1ull << VS_COUNT) - 1) ^ VS_PRESENT_DEFAULT;
}

static void fill_procs(const struct world *w, struct snapshot *s, double t)
{
	for (int i = 0; i < w->nprocs; i++) {
		const struct wproc *wp = &w->procs[i];
		if (!w_alive(wp, t))
			continue;
		struct proc_sample *p = snapshot_add_proc(s);
		uint64_t rss = kb(w_rss(wp, t));
		p->pid = wp->pid;
		p->ppid = wp->ppid;
		p->valid = PROC_COLS;
		snprintf(p->comm, sizeof(p->comm), "%s", wp->comm);
		p->start_ticks = (uint64_t)llround((UP0 + wp->born) * HZ);
		p->cmd = wp->cmd;
		p->user = "root";
		p->cgroup = w->cgs[wp->cg].path;
		p->cgroup2_id = w->cgs[wp->cg].id;
		PROC_FIG(p, COL_RSS) = rss;
		PROC_FIG(p, COL_VSZ) = rss + 12288;
		PROC_FIG(p, COL_SHR) = rss < 2048 ? rss : 2048;
		PROC_FIG(p, COL_TXT) = 128;
		PROC_FIG(p, COL_DATA) = rss + 4096;
		PROC_FIG(p, COL_OOM) = rss * 1000 / kb(w->mem_total_kb);
		PROC_FIG(p, COL_MINFLT) = rss / 4 + 100;
		if (w->swapin_rate > 0) {
			p->valid |= COL_BIT(COL_SWAPIN);
			PROC_FIG(p, COL_SWAPIN) = wp->swaps_in ? swapins(w, t + w->swapin_lag) : 0;
		}
	}
	qsort(s->procs, s->nprocs, sizeof(*s->procs), snapshot_cmp_pid);
	s->ntasks = s->nprocs;
	s->procs_cg_ids = true;
}

/* The OOM kills in (t - interval, t], as the kernel logs them */
static void fill_events(const struct world *w, struct snapshot *s, double t)
{
	for (int i = 0; i < w->nprocs; i++) {
		const struct wproc *p = &w->procs[i];
		if (!p->oom_killed || !(p->ends <= t && p->ends > t - w->interval))
			continue;
		struct mt_event *e = snapshot_add_event(s);
		e->type = MT_EV_OOM_KILL;
		e->ts = WALL0 + p->ends;
		e->pid = p->pid;
		snprintf(e->comm, sizeof(e->comm), "%s", p->comm);
		e->anon_rss_kb = kb(w_rss(p, p->ends));
		e->total_vm_kb = e->anon_rss_kb + 12288;
		snprintf(e->memcg, sizeof(e->memcg), "%s", w->cgs[p->cg].path);
		e->memcg_id = w->cgs[p->cg].id;
		e->trigger_pid = p->pid;
		snprintf(e->trigger_comm, sizeof(e->trigger_comm), "%s", p->comm);
	}
}

static void fill_cgroups(const struct world *w, struct snapshot *s, const struct state *st,
			 double t)
{
	s->cg_version = 2;
	s->cg_cols = CG_READ | CG_LIMITS;
	for (int c = 0; c < w->ncgs; c++) {
		const struct wcg *wc = &w->cgs[c];
		struct cg_sample *g = snapshot_add_cgroup(s, wc->path);
		g->id = wc->id;
		g->parent = wc->parent;
		g->depth = wc->parent < 0 ? 0 : 1;
		g->valid = CG_READ | (wc->parent < 0 ? 0 : CG_LIMITS);
		g->unlimited = wc->parent < 0
				       ? 0
				       : CGCOL_BIT(CGCOL_HIGH) | CGCOL_BIT(CGCOL_SWAP_LIMIT) |
						 (wc->limit_kb > 0 ? 0 : CGCOL_BIT(CGCOL_LIMIT));
		g->v[CGCOL_USAGE] = st->usage[c];
		g->v[CGCOL_LIMIT] = wc->limit_kb > 0 ? kb(wc->limit_kb) : UINT64_MAX / 1024;
		g->v[CGCOL_HIGH] = g->v[CGCOL_SWAP_LIMIT] = UINT64_MAX / 1024;
		g->v[CGCOL_FILE] = kb(wc->base_kb / 2);
		g->v[CGCOL_KERNEL] = kb(wc->base_kb) - kb(wc->base_kb / 2);
		g->v[CGCOL_ANON] = st->usage[c] - kb(wc->base_kb);
		g->v[CGCOL_NPROCS] = st->nprocs[c];
		g->v[CGCOL_OOM_KERNEL] = st->kills[c];
		if (wc->limit_kb <= 0)
			continue;
		/* a limited cgroup's processes, for its OOM victim */
		g->task0 = (uint32_t)s->ncg_tasks;
		for (int i = 0; i < w->nprocs; i++) {
			if (w->procs[i].cg != c || !w_alive(&w->procs[i], t))
				continue;
			if (s->ncg_tasks == s->cg_tasks_cap) {
				s->cg_tasks_cap = s->cg_tasks_cap * 2 + 8;
				s->cg_tasks = realloc(s->cg_tasks,
						      s->cg_tasks_cap * sizeof(*s->cg_tasks));
			}
			s->cg_tasks[s->ncg_tasks++] = (struct cg_task){w->procs[i].pid, 0};
			g->ntasks++;
		}
	}
}

static void num_or_null(double v, bool have)
{
	if (have)
		printf("%.3f", v);
	else
		printf("null");
}

/* The truth of refresh t, one JSON line (names are the scenario's own, plain ASCII) */
static void truth(const struct world *w, const struct snapshot *s, const struct state *st, double t)
{
	double room = (double)st->avail + w->swap_free_kb;

	printf("{\"t\":%.3f,\"ts\":%.3f,\"mem_total_kb\":%.0f,\"mem_available_kb\":%llu,"
	       "\"swap_free_kb\":%.0f,\"room_kb\":%.0f,\"room_rate_kb_s\":%.3f,\"exhaustion_s\":",
	       t, s->wall, w->mem_total_kb, (unsigned long long)st->avail, w->swap_free_kb, room,
	       st->room_rate);
	num_or_null(room / -st->room_rate, st->room_rate < 0);
	printf(",\"cgroups\":[");
	for (int c = 0; c < w->ncgs; c++) {
		const struct wcg *g = &w->cgs[c];
		printf("%s{\"path\":\"%s\",\"usage_kb\":%llu,\"limit_kb\":", c ? "," : "", g->path,
		       (unsigned long long)st->usage[c]);
		num_or_null(g->limit_kb, g->limit_kb > 0);
		printf(",\"nprocs\":%llu,\"oom_kills\":%llu,\"rate_kb_s\":%.3f,\"limit_in_s\":",
		       (unsigned long long)st->nprocs[c], (unsigned long long)st->kills[c],
		       st->cg_rate[c]);
		num_or_null((g->limit_kb - (double)st->usage[c]) / st->cg_rate[c],
			    g->limit_kb > 0 && st->cg_rate[c] > 0);
		printf("}");
	}
	printf("],\"processes\":[");
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		const struct wproc *wp = NULL;
		for (int k = 0; k < w->nprocs && !wp; k++)
			if (w->procs[k].pid == p->pid)
				wp = &w->procs[k];
		printf("%s{\"pid\":%d,\"comm\":\"%s\",\"rss_kb\":%llu,\"rate_kb_s\":%.3f,"
		       "\"age_s\":%.3f,\"cgroup\":\"%s\"}",
		       i ? "," : "", p->pid, p->comm, (unsigned long long)PROC_FIG(p, COL_RSS),
		       w_rate(wp, t), t - wp->born, p->cgroup);
	}
	printf("],\"kills\":[");
	for (size_t i = 0; i < s->nevents; i++)
		printf("%s{\"pid\":%d,\"comm\":\"%s\",\"memcg\":\"%s\",\"ts\":%.3f}", i ? "," : "",
		       s->events[i].pid, s->events[i].comm, s->events[i].memcg, s->events[i].ts);
	printf("]}\n");
}

int w_record(const struct world *w, const char *path)
{
	struct record_opts o = {.file = path, .cols = columns_default() | rec_columns_recorded()};
	struct snapshot s;
	struct state st;
	char err[512];

	if (unlink(path) && errno != ENOENT) {
		perror(path);
		return 1;
	}
	struct recorder *r = recorder_open(&o, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "scenario_rec: %s\n", err);
		return 1;
	}
	snapshot_init(&s);
	int rc = 0;
	for (long k = 0; !rc && k * w->interval <= w->until + 1e-9; k++) {
		double t = (double)k * w->interval;
		snapshot_reuse(&s);
		s.mono = s.mono_procs = s.mono_cgroups = MONO0 + t;
		s.wall = WALL0 + t;
		s.uptime = UP0 + t;
		s.hertz = HZ;
		s.page_kb = 4;
		state_at(w, t, &st);
		fill_mem(w, &s, &st, t);
		fill_procs(w, &s, t);
		fill_events(w, &s, t);
		fill_cgroups(w, &s, &st, t);
		if (recorder_append(r, &s, err, sizeof(err))) {
			fprintf(stderr, "scenario_rec: %s\n", err);
			rc = 1;
		}
		truth(w, &s, &st, t);
	}
	recorder_close(r);
	snapshot_free(&s);
	return rc || fflush(stdout) ? 1 : 0;
}

void w_background(struct world *w)
{
	w_root(w);
	w_proc(w, 1, "systemd", "/sbin/init", 0, -86000, 12288, 0);
	w_proc(w, 412, "sshd", "sshd: /usr/sbin/sshd -D", 0, -85000, 7168, 0);
	w_proc(w, 880, "bash", "-bash", 0, -3000, 4608, 0);
}

void w_machine(struct world *w, double total, double avail0, double swap_total, double swap_free)
{
	w->mem_total_kb = total;
	w->swap_total_kb = swap_total;
	w->swap_free_kb = swap_free;
	w->cached_kb = total / 8;
	w->buffers_kb = 20 * 1024.0;
	w->slab_kb = 120 * 1024.0;
	w->shmem_kb = 16 * 1024.0;
	w->avail_base_kb = avail0;
	for (int i = 0; i < w->nprocs; i++)
		if (w_alive(&w->procs[i], 0))
			w->avail_base_kb += (double)(long long)(w_rss(&w->procs[i], 0) + 0.5);
}
