#include "proc_walk.h"

#include <errno.h>
#include <libproc2/pids.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* What identifies a process, read from stat for every process */
enum { I_PID, I_PPID, I_EUID, I_BEGAN, I_CMD, I_FLAGS, I_FIGURES };

/* The figures of stat and statm, read for every process, by the column they fill */
static const struct {
	enum col_id col;
	enum pids_item item; /* an ul_int item */
} stat_figures[] = {
	{COL_RSS, PIDS_MEM_RES},    {COL_VSZ, PIDS_MEM_VIRT},  {COL_SHR, PIDS_MEM_SHR},
	{COL_TXT, PIDS_MEM_CODE},   {COL_DATA, PIDS_MEM_DATA}, {COL_MINFLT, PIDS_FLT_MIN},
	{COL_MAJFLT, PIDS_FLT_MAJ},
};

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h */

struct proc_walk {
	struct pids_info *info;
};

struct proc_walk *proc_walk_new(char *err, size_t errlen)
{
	struct proc_walk *w = xcalloc(1, sizeof(*w));
	static enum pids_item items[I_FIGURES + ARRAY_SIZE(stat_figures)] = {
		[I_PID] = PIDS_ID_PID,	     [I_PPID] = PIDS_ID_PPID, [I_EUID] = PIDS_ID_EUID,
		[I_BEGAN] = PIDS_TICS_BEGAN, [I_CMD] = PIDS_CMD,      [I_FLAGS] = PIDS_FLAGS,
	};

	for (size_t i = 0; i < ARRAY_SIZE(stat_figures); i++)
		items[I_FIGURES + i] = stat_figures[i].item;
	int rc = procps_pids_new(&w->info, items, (int)ARRAY_SIZE(items));
	if (rc < 0) {
		snprintf(err, errlen, "cannot read processes with libproc2: %s", strerror(-rc));
		proc_walk_free(w);
		return NULL;
	}
	return w;
}

void proc_walk_free(struct proc_walk *w)
{
	if (!w)
		return;
	if (w->info)
		procps_pids_unref(&w->info);
	free(w);
}

static void append(struct proc_walk *w, struct snapshot *s, struct pids_fetch *f)
{
	(void)w; /* PIDS_VAL names it and does not use it */
	unsigned figures = columns_filled_by(NEED_STAT | NEED_STATM);
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *st = f->stacks[i];
		struct proc_sample *p = snapshot_add_proc(s);

		p->pid = PIDS_VAL(I_PID, s_int, st, w->info);
		p->ppid = PIDS_VAL(I_PPID, s_int, st, w->info);
		p->uid = PIDS_VAL(I_EUID, u_int, st, w->info);
		p->start_ticks = PIDS_VAL(I_BEGAN, ull_int, st, w->info);
		for (size_t k = 0; k < ARRAY_SIZE(stat_figures); k++)
			p->v[stat_figures[k].col] = st->head[I_FIGURES + k].result.ul_int;
		p->valid = figures;
		p->kthread = (PIDS_VAL(I_FLAGS, ul_int, st, w->info) & PF_KTHREAD) != 0;
		snprintf(p->comm, sizeof(p->comm), "%s", PIDS_VAL(I_CMD, str, st, w->info));
	}
}

int proc_walk_collect(struct proc_walk *w, struct snapshot *s, char *err, size_t errlen)
{
	struct pids_fetch *f = procps_pids_reap(w->info, PIDS_FETCH_TASKS_ONLY);
	if (!f) {
		snprintf(err, errlen, "cannot list processes in /proc: %s", strerror(errno));
		return -1;
	}
	s->ntasks = (size_t)f->counts->total;
	append(w, s, f);
	return 0;
}

int proc_walk_pid(struct proc_walk *w, struct snapshot *s, int32_t pid)
{
	unsigned id = (unsigned)pid;
	struct pids_fetch *f = procps_pids_select(w->info, &id, 1, PIDS_SELECT_PID);

	if (!f || f->counts->total != 1)
		return -1;
	s->ntasks++;
	append(w, s, f);
	return 0;
}
