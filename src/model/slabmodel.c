#include "slabmodel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "history.h"
#include "kbtrend.h"
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

struct order_ctx {
	const struct slab_model *sm;
	int sort;
	int dir; /* 1: ascending */
};

static struct order_ctx ctx; /* qsort's comparator has no argument */

static int cmp_rows(const void *a, const void *b)
{
	const struct slab_row *x = &ctx.sm->rows[*(const size_t *)a];
	const struct slab_row *y = &ctx.sm->rows[*(const size_t *)b];
	const struct column *col = &slab_columns[ctx.sort];
	int c = 0;

	if (col->text) {
		c = strcmp(col->text(x->c), col->text(y->c));
	} else {
		bool vx = x->valid & TABLE_BIT(ctx.sort), vy = y->valid & TABLE_BIT(ctx.sort);
		if (vx != vy) /* rows without a value last, either way */
			return vx ? -1 : 1;
		c = (x->num[ctx.sort] > y->num[ctx.sort]) - (x->num[ctx.sort] < y->num[ctx.sort]);
	}
	if (c)
		return c * ctx.dir;
	return strcmp(x->c->name, y->c->name);
}

size_t slabmodel_order(const struct slab_model *sm, const struct slab_order *o, size_t *out)
{
	size_t n = 0;
	bool asc = slab_columns[o->sort].ascending;

	for (size_t i = 0; i < sm->n; i++)
		if (!o->filter || !o->filter[0] || strcasestr(sm->rows[i].c->name, o->filter))
			out[n++] = i;
	ctx = (struct order_ctx){sm, o->sort, asc != o->invert ? 1 : -1};
	if (n > 1)
		qsort(out, n, sizeof(*out), cmp_rows);
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
