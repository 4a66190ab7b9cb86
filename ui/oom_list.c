#include "oom_list.h"

#include <stdlib.h>
#include <string.h>

#include "oom_cgroup.h"
#include "util.h"

/* A kill kept in a replay: the event, what was seen before it, its cgroup's part (b.cg
 * points to cg) */
struct kept {
	struct mt_event e;
	struct oom_before b;
	struct oom_cgroup cg;
};

static struct kept *kept[OOM_LIST_MAX]; /* oldest first */
static size_t nkept;

long oom_list_find(const struct oom_item *out, size_t n, double ts, int32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].e->ts == ts && out[i].e->pid == pid)
			return (long)i;
	return -1;
}

/* Keeps the model's kill i unless it is kept: in time order, the oldest let go when full */
static void keep(const struct model *m, size_t i)
{
	const struct mt_event *e = &m->oom[i];
	size_t at = nkept;

	for (size_t k = 0; k < nkept; k++)
		if (kept[k]->e.ts == e->ts && kept[k]->e.pid == e->pid)
			return;
	while (at > 0 && kept[at - 1]->e.ts > e->ts)
		at--;
	if (nkept == OOM_LIST_MAX) {
		if (!at)
			return; /* older than every one kept */
		free(kept[0]);
		memmove(kept, kept + 1, --nkept * sizeof(*kept));
		at--;
	}
	struct kept *k = xmalloc(sizeof(*k));
	k->e = *e;
	k->b = m->before[i];
	if (k->b.cg) {
		k->cg = *k->b.cg;
		k->b.cg = &k->cg;
	}
	memmove(kept + at + 1, kept + at, (nkept - at) * sizeof(*kept));
	kept[at] = k;
	nkept++;
}

void oom_list_keep(struct ui *u)
{
	for (size_t i = 0; u->rv.on && i < u->m->noom; i++)
		keep(u->m, i);
}

static bool in_model(const struct model *m, const struct mt_event *e)
{
	for (size_t i = 0; i < m->noom; i++)
		if (m->oom[i].ts == e->ts && m->oom[i].pid == e->pid)
			return true;
	return false;
}

size_t oom_list(struct ui *u, struct oom_item out[OOM_LIST_MAX])
{
	const struct model *m = u->m;
	const struct snapshot *s = model_current(m);
	size_t n = 0;

	if (!u->rv.on || !s) {
		for (size_t i = 0; i < m->noom; i++)
			out[n++] = (struct oom_item){&m->oom[i], &m->before[i]};
		return n;
	}
	oom_list_keep(u);
	/* the sample shown: the kills in its model, and those kept from before it */
	for (size_t k = 0; k < nkept; k++)
		if (kept[k]->e.ts <= s->wall || in_model(m, &kept[k]->e))
			out[n++] = (struct oom_item){&kept[k]->e, &kept[k]->b};
	return n;
}

void oom_list_done(struct ui *u)
{
	(void)u;
	for (size_t k = 0; k < nkept; k++)
		free(kept[k]);
	nkept = 0;
}
