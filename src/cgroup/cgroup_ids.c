#include "cgroup_ids.h"

#include <stdlib.h>

#include "util.h"

struct cg_id_at {
	uint64_t id;
	size_t i;
};

static int cmp_id_at(const void *a, const void *b)
{
	uint64_t x = ((const struct cg_id_at *)a)->id, y = ((const struct cg_id_at *)b)->id;
	return (x > y) - (x < y);
}

void cg_ids_make(struct cg_ids *x, const struct snapshot *s)
{
	x->n = s->ncgroups;
	x->by_id = xmalloc((x->n + 1) * sizeof(*x->by_id));
	for (size_t i = 0; i < x->n; i++)
		x->by_id[i] = (struct cg_id_at){.id = s->cgroups[i].id, .i = i};
	qsort(x->by_id, x->n, sizeof(*x->by_id), cmp_id_at);
}

long cg_ids_find(const struct cg_ids *x, uint64_t id)
{
	struct cg_id_at key = {.id = id};
	const struct cg_id_at *at = bsearch(&key, x->by_id, x->n, sizeof(key), cmp_id_at);

	return at ? (long)at->i : -1;
}

void cg_ids_free(struct cg_ids *x)
{
	free(x->by_id);
	x->by_id = NULL;
	x->n = 0;
}
