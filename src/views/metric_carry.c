#include <stdlib.h>
#include <string.h>

#include "metric.h"
#include "util.h"

static bool is_counter(int c)
{
	return metric_of_column(&cg_columns[c]).type == METRIC_COUNTER;
}

/* The entry of path, or where it goes (*found false) */
static size_t find(const struct metric_carry *k, const char *path, bool *found)
{
	size_t lo = 0, hi = k->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(k->e[mid].path, path);
		if (!d) {
			*found = true;
			return mid;
		}
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct metric_carry_entry *entry(struct metric_carry *k, const char *path)
{
	bool found;
	size_t i = find(k, path, &found);

	if (found)
		return &k->e[i];
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->e = xrealloc(k->e, k->cap * sizeof(*k->e));
	}
	memmove(&k->e[i + 1], &k->e[i], (k->n - i) * sizeof(*k->e));
	memset(&k->e[i], 0, sizeof(k->e[i]));
	k->e[i].path = xstrdup(path);
	k->n++;
	return &k->e[i];
}

void metric_carry_update(struct metric_carry *k, const struct cg_model *cgm, double now)
{
	for (size_t i = 0; i < cgm->nall; i++) {
		const struct cg_sample *c = cgm->all[i].c;
		struct metric_carry_entry *e = entry(k, c->path ? c->path : "");
		e->seen = now;
		for (int col = 0; col < CGCOL_COUNT; col++) {
			if (!is_counter(col) || !(c->valid & CGCOL_BIT(col)))
				continue;
			uint64_t v = c->v[col] + e->add[col];
			if (v < e->last[col]) {
				e->add[col] += e->last[col] - v;
				v = e->last[col];
			}
			e->last[col] = v;
		}
	}
	size_t n = 0;
	for (size_t i = 0; i < k->n; i++) {
		if (now - k->e[i].seen > METRIC_CARRY_KEEP_S)
			free(k->e[i].path);
		else
			k->e[n++] = k->e[i];
	}
	k->n = n;
}

void metric_carry_values(const struct metric_carry *k, const struct cg_sample *c,
			 uint64_t out[CGCOL_COUNT])
{
	bool found = false;
	size_t i = k && k->n ? find(k, c->path ? c->path : "", &found) : 0;

	memcpy(out, c->v, sizeof(c->v));
	for (int col = 0; found && col < CGCOL_COUNT; col++)
		if (is_counter(col))
			out[col] += k->e[i].add[col];
}

void metric_carry_free(struct metric_carry *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->e[i].path);
	free(k->e);
	memset(k, 0, sizeof(*k));
}
