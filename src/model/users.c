#include "users.h"

#include <stdlib.h>
#include <string.h>

#include "order.h"
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
	return p->valid & COL_BIT(c) ? PROC_FIG(p, c) : 0;
}

static int cmp_uid(const struct user_total *x, const struct user_total *y)
{
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static int by_pss(const void *a, const void *b)
{
	const struct user_total *x = a, *y = b;

	if (x->v[USERCOL_PSS] != y->v[USERCOL_PSS])
		return x->v[USERCOL_PSS] > y->v[USERCOL_PSS] ? -1 : 1;
	return cmp_uid(x, y);
}

void user_totals_make(struct user_totals *t, const struct snapshot *s)
{
	const unsigned smaps = COL_BIT(COL_PSS) | COL_BIT(COL_USS);

	t->n = 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		/* as smem, only processes with memory mapped: no kernel threads, no zombies */
		if (p->kthread || ((p->valid & COL_BIT(COL_VSZ)) && !p->fig[PV_VSZ]))
			continue;
		struct user_total *u = of_uid(t, p);
		u->v[USERCOL_NPROCS]++;
		u->v[USERCOL_SWAP] += figure(p, COL_SWAP);
		u->v[USERCOL_USS] += figure(p, COL_USS);
		u->v[USERCOL_PSS] += figure(p, COL_PSS);
		u->v[USERCOL_RSS] += figure(p, COL_RSS);
		u->unread += (p->valid & smaps) != smaps;
	}
	for (size_t i = 0; i < t->n; i++)
		for (int c = 0; c < USERCOL_COUNT; c++)
			t->u[i].num[c] = (double)t->u[i].v[c];
	if (t->n > 1)
		qsort(t->u, t->n, sizeof(*t->u), by_pss);
}

void user_totals_free(struct user_totals *t)
{
	free(t->u);
	memset(t, 0, sizeof(*t));
}

size_t user_totals_unread(const struct user_totals *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->u[i].unread;
	return n;
}

/* ---- the order ---- */

size_t user_totals_order(const struct user_totals *t, const struct user_order *o, size_t *out)
{
	const struct column *col = &user_columns[o->sort];
	int sign = col->ascending != o->invert ? 1 : -1;
	struct sort_item *it = malloc((t->n ? t->n : 1) * sizeof(*it));
	size_t n = 0;

	if (!it)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct user_total *u = &t->u[i];
		if (o->filter && o->filter[0] &&
		    !strcasestr(user_columns[USERCOL_USER].text(u), o->filter))
			continue;
		struct sort_item x = {.tie = (int32_t)u->uid, .i = (uint32_t)i};
		if (col->text)
			x.text = col->text(u);
		else
			x.key = order_key((double)u->v[o->sort], sign);
		it[n++] = x;
	}
	order_indexes(it, n, col->text ? sign : 0, out);
	free(it);
	return n;
}
