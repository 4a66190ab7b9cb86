#include "exited.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add(struct exited_list *x, const struct proc_sample *q, const struct snapshot *s)
{
	if (x->n == EXITED_MAX) {
		memmove(x->p, x->p + 1, (x->n - 1) * sizeof(*x->p));
		x->n--;
	}
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 64;
		x->p = xrealloc(x->p, x->cap * sizeof(*x->p));
	}
	struct exited_proc *e = &x->p[x->n++];
	memset(e, 0, sizeof(*e));
	e->pid = q->pid;
	e->uid = q->uid;
	snprintf(e->comm, sizeof(e->comm), "%s", q->comm);
	snprintf(e->user, sizeof(e->user), "%s", q->user ? q->user : "");
	e->last_rss_kb = q->valid & COL_BIT(COL_RSS) ? q->fig[PV_RSS] : 0;
	e->ts = s->wall;
	e->mono = s->mono;
}

void exited_update(struct exited_list *x, const struct snapshot *s, const struct snapshot *prev)
{
	size_t keep = 0;

	for (size_t i = 0; i < x->n; i++) /* a replay that went back: its clock did too */
		if (s->mono - x->p[i].mono <= EXITED_KEEP_S && x->p[i].mono <= s->mono)
			x->p[keep++] = x->p[i];
	x->n = keep;
	if (!prev)
		return;
	size_t j = 0;
	for (size_t i = 0; i < prev->nprocs; i++) {
		const struct proc_sample *q = &prev->procs[i];
		while (j < s->nprocs && s->procs[j].pid < q->pid)
			j++;
		if (j < s->nprocs && s->procs[j].pid == q->pid &&
		    s->procs[j].start_ticks == q->start_ticks)
			continue;
		add(x, q, s);
	}
}

void exited_free(struct exited_list *x)
{
	free(x->p);
	memset(x, 0, sizeof(*x));
}
