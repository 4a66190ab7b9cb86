#include "users.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static struct user_total *of_uid(struct user_totals *t, const struct proc_sample *p)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->u[i].uid == p->uid)
			return &t->u[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->u = xrealloc(t->u, t->cap * sizeof(*t->u));
	}
	struct user_total *u = &t->u[t->n++];
	memset(u, 0, sizeof(*u));
	u->uid = p->uid;
	u->name = p->user;
	return u;
}

static uint64_t figure(const struct proc_sample *p, int c)
{
	return p->valid & COL_BIT(c) ? p->v[c] : 0;
}

static int by_pss(const void *a, const void *b)
{
	const struct user_total *x = a, *y = b;

	if (x->pss_kb != y->pss_kb)
		return x->pss_kb > y->pss_kb ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

void user_totals_make(struct user_totals *t, const struct snapshot *s)
{
	const unsigned smaps = COL_BIT(COL_PSS) | COL_BIT(COL_USS);

	t->n = 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		/* as smem, only processes with memory mapped: no kernel threads, no zombies */
		if (p->kthread || ((p->valid & COL_BIT(COL_VSZ)) && !p->v[COL_VSZ]))
			continue;
		struct user_total *u = of_uid(t, p);
		u->count++;
		u->swap_kb += figure(p, COL_SWAP);
		u->uss_kb += figure(p, COL_USS);
		u->pss_kb += figure(p, COL_PSS);
		u->rss_kb += figure(p, COL_RSS);
		u->unread += (p->valid & smaps) != smaps;
	}
	if (t->n > 1)
		qsort(t->u, t->n, sizeof(*t->u), by_pss);
}

void user_totals_free(struct user_totals *t)
{
	free(t->u);
	memset(t, 0, sizeof(*t));
}
