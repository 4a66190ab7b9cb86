#include "cgmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "order.h"
#include "util.h"

void cgmodel_init(struct cg_model *m)
{
	memset(m, 0, sizeof(*m));
}

void cgmodel_free(struct cg_model *m)
{
	free(m->all);
	free(m->rows);
	free(m->scratch);
	free(m->marks);
	memset(m, 0, sizeof(*m));
}

static int cmp_prev_id(const void *a, const void *b, void *arg)
{
	const struct cg_sample *prev = arg;
	uint64_t x = prev[*(const size_t *)a].id, y = prev[*(const size_t *)b].id;
	return (x > y) - (x < y);
}

/* The previous read of cgroup id, by a binary search of the index by id */
static const struct cg_sample *find_prev(const struct cg_model *m, const struct snapshot *prev,
					 uint64_t id)
{
	size_t lo = 0, hi = prev ? prev->ncgroups : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cg_sample *q = &prev->cgroups[m->scratch[mid]];
		if (q->id == id)
			return q;
		if (q->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void row_values(struct cg_row *r, const struct cg_sample *q, bool have_prev, double dt)
{
	const struct cg_sample *p = r->c;

	for (int c = 0; c < CGCOL_COUNT; c++) {
		const struct column *col = &cg_columns[c];
		double scale = col->scale ? col->scale : 1;
		unsigned b = CGCOL_BIT(c), of = CGCOL_BIT(col->of), per = CGCOL_BIT(col->per);
		switch (col->kind) {
		case KIND_TEXT:
			r->valid |= b;
			break;
		case KIND_SAMPLE:
			if (!(p->valid & b))
				break;
			r->num[c] = p->unlimited & b ? INFINITY : (double)p->v[c] * scale;
			r->valid |= b;
			break;
		case KIND_SHARE:
			if ((p->valid & of) && (p->valid & per) && !(p->unlimited & per) &&
			    p->v[col->per]) {
				r->num[c] = 100.0 * (double)p->v[col->of] / (double)p->v[col->per];
				r->valid |= b;
			}
			break;
		case KIND_RATE:
			if (!(p->valid & b) || dt <= 0)
				break;
			if (q && (q->valid & b))
				r->num[c] = counter_rate(p->v[c], q->v[c], dt) * scale;
			else if (col->since_start && have_prev)
				r->num[c] = (double)p->v[c] * scale / dt;
			else
				break;
			r->valid |= b;
			break;
		case KIND_GROWTH: /* the model's forecast (forecast.h) */
			if (!(p->trend & b))
				break;
			r->num[c] = c == CGCOL_GROWTH	  ? p->growth_kb_min
				    : c == CGCOL_LIMIT_IN ? p->limit_in_s
							  : (double)p->victim;
			r->valid |= b;
			break;
		}
	}
}

static bool rose(const struct cg_sample *p, const struct cg_sample *q, enum cgcol_id c)
{
	unsigned b = CGCOL_BIT(c);
	return (p->valid & b) && (q->valid & b) && p->v[c] > q->v[c];
}

/* Keeps the marks of the last CG_OOM_RECENT_S seconds, with a new one for row r where
 * its kill count rose since q; then r->oom_recent from them */
static void mark_ooms(struct cg_model *m, struct cg_row *r, const struct cg_sample *q, double now)
{
	size_t i = 0;

	while (i < m->nmarks && m->marks[i].id != r->c->id)
		i++;
	if (q && (rose(r->c, q, CGCOL_OOM_KILLS) || rose(r->c, q, CGCOL_OOM_KERNEL))) {
		if (i == m->nmarks) {
			m->marks = xgrow(m->marks, m->nmarks, &m->marks_cap, sizeof(*m->marks), 8);
			m->marks[m->nmarks++].id = r->c->id;
		}
		m->marks[i].mono = now;
	}
	r->oom_recent = i < m->nmarks && now - m->marks[i].mono < CG_OOM_RECENT_S;
}

static void prune_marks(struct cg_model *m, double now)
{
	size_t k = 0;

	for (size_t i = 0; i < m->nmarks; i++)
		if (now - m->marks[i].mono < CG_OOM_RECENT_S)
			m->marks[k++] = m->marks[i];
	m->nmarks = k;
}

void cgmodel_update(struct cg_model *m, const struct snapshot *cur, const struct snapshot *prev,
		    const struct cg_order *o)
{
	if (m->cap < cur->ncgroups) {
		m->cap = cur->ncgroups;
		m->all = xrealloc(m->all, m->cap * sizeof(*m->all));
		m->rows = xrealloc(m->rows, m->cap * sizeof(*m->rows));
	}
	if (prev && m->scratch_cap < prev->ncgroups) {
		m->scratch_cap = prev->ncgroups;
		m->scratch = xrealloc(m->scratch, m->scratch_cap * sizeof(*m->scratch));
	}
	bool indexed = false;
	m->dt = prev && prev->ncgroups ? cur->mono_cgroups - prev->mono_cgroups : 0;
	m->nall = cur->ncgroups;
	for (size_t i = 0; i < cur->ncgroups; i++) {
		struct cg_row *r = &m->all[i];
		memset(r, 0, sizeof(*r));
		r->c = &cur->cgroups[i];
		/* the same place in the tree as before, mostly; else the index by id, made once */
		const struct cg_sample *q = NULL;
		if (prev && i < prev->ncgroups && prev->cgroups[i].id == r->c->id) {
			q = &prev->cgroups[i];
		} else if (prev && prev->ncgroups) {
			if (!indexed) {
				for (size_t k = 0; k < prev->ncgroups; k++)
					m->scratch[k] = k;
				qsort_r(m->scratch, prev->ncgroups, sizeof(*m->scratch),
					cmp_prev_id, (void *)prev->cgroups);
				indexed = true;
			}
			q = find_prev(m, prev, r->c->id);
		}
		row_values(r, q, prev != NULL, m->dt);
		mark_ooms(m, r, q, cur->mono_cgroups);
	}
	if (cur->ncgroups)
		prune_marks(m, cur->mono_cgroups);
	cgmodel_order(m, o);
}

void cg_order_of(const struct cg_prefs *p, struct cg_order *o)
{
	*o = (struct cg_order){
		.sort = p->sort, .invert = p->invert, .tree = p->tree, .filter = p->filter};
}

bool cg_path_within(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return path[0] == '/';
	while (n > 1 && root[n - 1] == '/')
		n--;
	return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

void cgmodel_recent_ooms(struct cg_model *m, const struct mt_event *ev, size_t n, double wall)
{
	struct cg_row *sets[] = {m->all, m->rows};
	size_t counts[] = {m->nall, m->nrows};

	for (size_t e = 0; e < n; e++) {
		if (ev[e].type != MT_EV_OOM_KILL || !ev[e].memcg[0] ||
		    wall - ev[e].ts >= CG_OOM_RECENT_S)
			continue;
		bool seen = false; /* a cgroup with more kills: its rows are marked once */
		for (size_t d = 0; d < e && !seen; d++)
			seen = ev[d].type == MT_EV_OOM_KILL && wall - ev[d].ts < CG_OOM_RECENT_S &&
			       !strcmp(ev[d].memcg, ev[e].memcg);
		if (seen)
			continue;
		for (int k = 0; k < 2; k++)
			for (size_t i = 0; i < counts[k]; i++)
				if (cg_path_within(ev[e].memcg, sets[k][i].c->path))
					sets[k][i].oom_recent = true;
	}
}

bool cg_row_alert(const struct cg_row *r)
{
	return r->oom_recent ||
	       (cg_row_valid(r, CGCOL_USAGE_PCT) && r->num[CGCOL_USAGE_PCT] >= CG_ALERT_PCT) ||
	       (cg_row_valid(r, CGCOL_LIMIT_IN) && r->num[CGCOL_LIMIT_IN] < CG_ALERT_LIMIT_IN_S);
}

bool cg_row_valid(const struct cg_row *r, enum cgcol_id c)
{
	return (r->valid & CGCOL_BIT(c)) != 0;
}

bool cg_row_unlimited(const struct cg_row *r, enum cgcol_id c)
{
	return cg_columns[c].kind == KIND_SAMPLE && (r->c->unlimited & CGCOL_BIT(c));
}

double cg_row_number(const struct cg_row *r, enum cgcol_id c)
{
	return r->num[c];
}

const char *cg_row_text(const struct cg_row *r, enum cgcol_id c)
{
	const char *t;

	if (!cg_columns[c].text)
		return NULL;
	t = cg_columns[c].text(r->c);
	return t ? t : "";
}

static int cmp_path(const void *a, const void *b, void *arg)
{
	const struct cg_row *rows = arg;
	return strcmp(rows[*(const size_t *)a].c->path, rows[*(const size_t *)b].c->path);
}

/* The rows in the sort order o asks for: rows without a value of the column last either
 * way; ties by path */
static void sort_rows(struct cg_model *m, const struct cg_order *o, struct cg_row *out)
{
	size_t n = m->nrows, *idx = xmalloc(n * sizeof(*idx));
	struct sort_item *items = xmalloc(n * sizeof(*items)), *tmp = xmalloc(n * sizeof(*tmp));
	bool text = cg_columns[o->sort].kind == KIND_TEXT;
	int sign = cg_columns[o->sort].ascending != o->invert ? 1 : -1;

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_path, m->rows);
	for (size_t k = 0; k < n; k++)
		items[idx[k]].tie = (int32_t)k;
	for (size_t i = 0; i < n; i++) {
		const struct cg_row *r = &m->rows[i];
		items[i].i = (uint32_t)i;
		if (text)
			items[i].text = cg_row_text(r, o->sort);
		else
			items[i].key = cg_row_valid(r, o->sort) ? order_key(r->num[o->sort], sign)
								: UINT64_MAX;
	}
	const struct sort_item *sorted = order_sort(items, tmp, n, text ? sign : 0);
	for (size_t k = 0; k < n; k++)
		out[k] = m->rows[sorted[k].i];
	memcpy(m->rows, out, n * sizeof(*out));
	free(idx);
	free(items);
	free(tmp);
}

/* Each row under its parent, children in the rows' order; a row whose parent is not
 * among the rows is a root */
static void tree_rows(struct cg_model *m, struct cg_row *out)
{
	size_t n = m->nrows, *order = xmalloc(n * sizeof(*order));
	long *pos = xmalloc(m->nall * sizeof(*pos)), *parent = xmalloc(n * sizeof(*parent));
	struct tree_place *place = xmalloc(n * sizeof(*place));
	const struct cg_sample *base = m->all[0].c;

	for (size_t i = 0; i < m->nall; i++)
		pos[i] = -1;
	for (size_t i = 0; i < n; i++)
		pos[m->rows[i].c - base] = (long)i;
	for (size_t i = 0; i < n; i++)
		parent[i] = m->rows[i].c->parent >= 0 ? pos[m->rows[i].c->parent] : -1;
	tree_walk(parent, n, order, place);
	for (size_t k = 0; k < n; k++) {
		out[k] = m->rows[order[k]];
		out[k].depth = place[order[k]].depth;
		out[k].last = place[order[k]].last;
		out[k].more = place[order[k]].more;
	}
	memcpy(m->rows, out, n * sizeof(*out));
	free(order);
	free(pos);
	free(parent);
	free(place);
}

void cgmodel_order(struct cg_model *m, const struct cg_order *o)
{
	bool *keep = xcalloc(m->nall, sizeof(*keep));

	for (size_t i = 0; i < m->nall; i++) {
		const struct cg_sample *c = m->all[i].c;
		if (o->filter && *o->filter && !strcasestr(c->path, o->filter) &&
		    !(c->name && strcasestr(c->name, o->filter)))
			continue;
		/* in the tree, a cgroup shown keeps its ancestors */
		for (long k = (long)i; k >= 0 && !keep[k]; k = o->tree ? m->all[k].c->parent : -1)
			keep[k] = true;
	}
	m->nrows = 0;
	for (size_t i = 0; i < m->nall; i++) {
		if (!keep[i])
			continue;
		m->rows[m->nrows] = m->all[i];
		m->rows[m->nrows].depth = 0;
		m->rows[m->nrows].last = false;
		m->rows[m->nrows++].more = 0;
	}
	free(keep);
	if (!m->nrows)
		return;
	struct cg_row *out = xmalloc(m->nrows * sizeof(*out));
	sort_rows(m, o, out);
	if (o->tree)
		tree_rows(m, out);
	free(out);
}
