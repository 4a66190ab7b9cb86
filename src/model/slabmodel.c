#include "slabmodel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "history.h"
#include "kbtrend.h"
#include "order.h"
#include "util.h"

struct slab_track {
	char name[64];
	bool seen; /* in the snapshot taken now */
	struct kb_trend size;
};

void slabmodel_free(struct slab_model *sm)
{
	free(sm->rows);
	free(sm->tracks);
	free(sm->sizes);
	memset(sm, 0, sizeof(*sm));
}

/* The cache's track, made where it is new (kept sorted by name) */
static struct slab_track *track_of(struct slab_model *sm, const char *name)
{
	size_t lo;

	if (sorted_name_find(sm->tracks, sm->ntracks, sizeof(*sm->tracks), name, &lo))
		return &sm->tracks[lo];
	if (sm->ntracks == sm->tracks_cap) {
		sm->tracks_cap = sm->tracks_cap ? sm->tracks_cap * 2 : 256;
		sm->tracks = xrealloc(sm->tracks, sm->tracks_cap * sizeof(*sm->tracks));
	}
	memmove(sm->tracks + lo + 1, sm->tracks + lo, (sm->ntracks - lo) * sizeof(*sm->tracks));
	sm->ntracks++;
	struct slab_track *t = &sm->tracks[lo];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	return t;
}

/* The tracks of caches not seen now go */
static void forget_gone(struct slab_model *sm)
{
	size_t k = 0;

	for (size_t i = 0; i < sm->ntracks; i++) {
		if (!sm->tracks[i].seen)
			continue;
		sm->tracks[i].seen = false;
		if (k != i)
			sm->tracks[k] = sm->tracks[i];
		k++;
	}
	sm->ntracks = k;
}

static void fill_row(struct slab_row *r, const struct slab_cache *c, uint64_t kb)
{
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->v[SLABCOL_ACTIVE] = c->active_objs;
	r->v[SLABCOL_OBJS] = c->num_objs;
	r->v[SLABCOL_OBJSIZE] = c->objsize;
	r->v[SLABCOL_SIZE] = kb;
	for (int k = SLABCOL_ACTIVE; k <= SLABCOL_SIZE; k++)
		r->num[k] = (double)r->v[k];
	r->valid = TABLE_BIT(SLABCOL_NAME) | TABLE_BIT(SLABCOL_ACTIVE) | TABLE_BIT(SLABCOL_OBJS) |
		   TABLE_BIT(SLABCOL_OBJSIZE) | TABLE_BIT(SLABCOL_SIZE) |
		   TABLE_BIT(SLABCOL_RECLAIM);
}

/* A cache's minute from the history's samples of it before now */
static void seed(struct kb_trend *tr, const struct history *h, const char *name, double now)
{
	double t[256], kb[256];
	size_t n = history_slab_points(h, name, now - KB_TREND_SPAN, now, t, kb, 256);

	while (n-- > 0) /* oldest first */
		if (t[n] < 0)
			kb_trend_add(tr, now + t[n], kb[n]);
}

/* The rows' sizes into the history, and their growth over ten minutes from it */
static void record(struct slab_model *sm, struct history *h)
{
	sm->sizes = xrealloc(sm->sizes, (sm->n ? sm->n : 1) * sizeof(*sm->sizes));
	for (size_t i = 0; i < sm->n; i++)
		sm->sizes[i] =
			(struct history_slab){sm->rows[i].c->name, sm->rows[i].v[SLABCOL_SIZE]};
	history_record_slabs(h, sm->sizes, sm->n);
	for (size_t i = 0; i < sm->n; i++) {
		struct slab_row *r = &sm->rows[i];
		if (history_slab_growth(h, r->c->name, slab_columns[SLABCOL_GROWTH10].span,
					&r->num[SLABCOL_GROWTH10]))
			r->valid |= TABLE_BIT(SLABCOL_GROWTH10);
	}
}

void slabmodel_update(struct slab_model *sm, const struct snapshot *s, struct history *h)
{
	const struct slab_info *si = &s->slab;

	sm->read = si->read;
	sm->err = si->err;
	sm->n = 0;
	if (sm->cap < si->n) {
		sm->cap = si->n;
		sm->rows = xrealloc(sm->rows, sm->cap * sizeof(*sm->rows));
	}
	for (size_t i = 0; si->read && i < si->n; i++) {
		const struct slab_cache *c = &si->caches[i];
		struct slab_row *r = &sm->rows[sm->n++];
		uint64_t kb = c->num_slabs * c->pagesperslab * (uint64_t)s->page_kb;
		struct slab_track *t = track_of(sm, c->name);

		fill_row(r, c, kb);
		if (!t->size.n && h)
			seed(&t->size, h, c->name, s->mono);
		if (kb_trend_per_min(&t->size, s->mono, (double)kb, &r->num[SLABCOL_GROWTH]))
			r->valid |= TABLE_BIT(SLABCOL_GROWTH);
		t->seen = true;
		kb_trend_add(&t->size, s->mono, (double)kb);
	}
	if (si->read && !si->err && h)
		record(sm, h);
	forget_gone(sm);
}

/* ---- the order ---- */

/* The rows passing the filter, as sort items in the column's order (text sign or 0 in
 * *text), tie the rank of the cache's name; NULL when out of memory */
static struct sort_item *sort_items(const struct slab_model *sm, const struct slab_order *o,
				    size_t *n, int *text)
{
	const struct column *col = &slab_columns[o->sort];
	int sign = col->ascending != o->invert ? 1 : -1;
	struct sort_item *it = malloc((sm->n ? sm->n : 1) * sizeof(*it));
	size_t *rank = malloc((sm->n ? sm->n : 1) * sizeof(*rank));

	if (!it || !rank) {
		free(it);
		free(rank);
		return NULL;
	}
	for (size_t i = 0; i < sm->n; i++) /* the names' ranks first */
		it[i] = (struct sort_item){.text = sm->rows[i].c->name, .tie = 0, .i = (uint32_t)i};
	order_indexes(it, sm->n, 1, rank);
	for (size_t r = 0; r < sm->n; r++)
		it[rank[r]].tie = (int32_t)r;
	*n = 0;
	for (size_t i = 0; i < sm->n; i++) {
		const struct slab_row *row = &sm->rows[i];
		if (o->filter && o->filter[0] && !strcasestr(row->c->name, o->filter))
			continue;
		struct sort_item x = {.tie = it[i].tie, .i = (uint32_t)i};
		if (col->text) /* rows without a value last, either way */
			x.text = col->text(row->c);
		else
			x.key = row->valid & TABLE_BIT(o->sort) ? order_key(row->num[o->sort], sign)
								: UINT64_MAX;
		it[(*n)++] = x;
	}
	free(rank);
	*text = col->text ? sign : 0;
	return it;
}

size_t slabmodel_order(const struct slab_model *sm, const struct slab_order *o, size_t *out)
{
	size_t n = 0;
	int text;
	struct sort_item *it = sort_items(sm, o, &n, &text);

	if (!it)
		return 0;
	order_indexes(it, n, text, out);
	free(it);
	return n;
}

const char *slabmodel_why(const struct slab_model *sm, char *buf, size_t size)
{
	if (!sm->read)
		return NULL;
	if (!sm->err)
		return NULL;
	snprintf(buf, size, "slab: /proc/slabinfo: %s%s", strerror(sm->err),
		 sm->err == EACCES || sm->err == EPERM ? " (needs root)" : "");
	return buf;
}
