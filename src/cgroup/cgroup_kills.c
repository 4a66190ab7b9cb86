/* The OOM kills per memory cgroup since memtop started, kept in the reader: counted from
 * the kill events by the cgroup's id or path, and filled into the listed cgroups' OOM
 * column, with rows for the cgroups removed since. */
#include "cgroup_kills.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_reader.h"
#include "cgroup_ids.h"
#include "cgroup_names.h"
#include "util.h"

/* OOM kills counted in one memory cgroup since memtop started */
struct cg_kill {
	char *path;	/* as the kill event named it, then as listed */
	char *name;	/* its name as last listed (cgroup_names.h); NULL: none */
	int runtime;	/* what named it (enum cg_runtime) */
	uint64_t id;	/* 0: not known yet */
	uint64_t own;	/* kills in it */
	uint64_t below; /* kills in its descendants whose entries expired (removed long ago) */
	double last;	/* wall clock of the last kill in own or below */
};

#define KILLS_MAX     1024   /* cgroups with kills kept; beyond, the oldest go to the root */
#define REMOVED_SHOWN 3600.0 /* seconds a removed cgroup stays listed after its last kill */

/* Whether path is anc or lies below it */
static bool path_under(const char *path, const char *anc)
{
	size_t n = strlen(anc);

	if (n == 1 && anc[0] == '/')
		return path[0] == '/';
	return !strncmp(path, anc, n) && (path[n] == '\0' || path[n] == '/');
}

/* Components of path below the hierarchy's path mounted (root) */
static uint32_t path_depth(const struct cg_reader *r, const char *path)
{
	uint32_t d = 0;

	for (const char *p = path + (strcmp(r->root, "/") ? strlen(r->root) : 0); *p; p++)
		d += *p == '/' && p[1] && p[1] != '/';
	return d;
}

/* The entry of a kill in cgroup id (0: not known) at path; NULL if none yet */
static struct cg_kill *kill_find(struct cg_reader *r, uint64_t id, const char *path)
{
	for (size_t i = r->nkills; i-- > 0;)
		if (id ? r->kills[i].id == id : !strcmp(r->kills[i].path, path))
			return &r->kills[i];
	return NULL;
}

static struct cg_kill *kill_add(struct cg_reader *r, uint64_t id, const char *path)
{
	r->kills = xgrow(r->kills, r->nkills, &r->kills_cap, sizeof(*r->kills), 16);
	struct cg_kill *e = &r->kills[r->nkills++];
	*e = (struct cg_kill){.path = xstrdup(path), .id = id};
	return e;
}

static void kill_name(struct cg_kill *e, const char *name, int runtime)
{
	if (!name || (e->name && !strcmp(e->name, name)))
		return;
	free(e->name);
	e->name = xstrdup(name);
	e->runtime = runtime;
}

static void kill_drop(struct cg_reader *r, size_t i)
{
	free(r->kills[i].path);
	free(r->kills[i].name);
	memmove(&r->kills[i], &r->kills[i + 1], (r->nkills - i - 1) * sizeof(*r->kills));
	r->nkills--;
}

/* With KILLS_MAX entries, the one whose last kill is oldest goes into the root's, which
 * keeps the count of the whole tree right */
static void kills_make_room(struct cg_reader *r)
{
	if (r->nkills < KILLS_MAX)
		return;
	size_t old = SIZE_MAX;
	for (size_t i = 0; i < r->nkills; i++)
		if (strcmp(r->kills[i].path, r->root) &&
		    (old == SIZE_MAX || r->kills[i].last < r->kills[old].last))
			old = i;
	if (old == SIZE_MAX)
		return;
	struct cg_kill e = r->kills[old];
	r->kills[old].path = NULL;
	kill_drop(r, old);
	struct cg_kill *root = kill_find(r, 0, r->root);
	if (!root)
		root = kill_add(r, 0, r->root);
	root->below += e.own + e.below;
	root->last = root->last > e.last ? root->last : e.last;
	free(e.path);
	free(e.name);
}

bool cg_path_cut_of(const char *cut, const char *full)
{
	const char *c[64], *f[64];
	size_t cl[64], fl[64], nc = cg_path_parts(cut, c, cl, 64),
			       nf = cg_path_parts(full, f, fl, 64);
	bool top = nc && !strncmp(cut, "/...", 4) && (cut[4] == '/' || !cut[4]);

	if (top) /* its components above those BPF read */
		nc--;
	if (nc > nf || (!top && nc != nf))
		return false;
	for (size_t i = 1; i <= nc; i++) {
		const char *a = c[nc + top - i], *b = f[nf - i];
		size_t la = cl[nc + top - i], lb = fl[nf - i];
		if (la > lb || memcmp(a, b, la))
			return false;
	}
	return true;
}

/* The kill event's cgroup as memtop listed it, by its id: its path whole, where BPF cut
 * it short (its components at MTB_CG_NAME bytes: a container's id of 64 digits and a
 * prefix), and its name; the cgroup may be gone already, removed since the last refresh */
static void event_named(const struct cg_reader *r, struct mt_event *ev, const char **name,
			int *runtime)
{
	const char *path;

	*name = NULL;
	if (!ev->memcg_id || !cg_names_by_id(r->names, ev->memcg_id, &path, name, runtime) ||
	    !cg_path_cut_of(ev->memcg, path)) {
		*name = NULL;
		return;
	}
	if (strlen(path) < sizeof(ev->memcg))
		memcpy(ev->memcg, path, strlen(path) + 1);
}

void cg_count_kills(struct cg_reader *r, struct snapshot *s, size_t from)
{
	if (!s->bpf.have_oom)
		return;
	for (size_t i = from; i < s->nevents; i++) {
		struct mt_event *ev = &s->events[i];
		const char *name;
		int runtime = 0;
		if (ev->type != MT_EV_OOM_KILL || ev->earlier || (!ev->memcg_id && !ev->memcg[0]))
			continue;
		event_named(r, ev, &name, &runtime);
		struct cg_kill *e = kill_find(r, ev->memcg_id, ev->memcg);
		if (!e) {
			kills_make_room(r);
			e = kill_add(r, ev->memcg_id, ev->memcg);
		}
		kill_name(e, name, runtime);
		e->own++;
		e->last = e->last > ev->ts ? e->last : ev->ts;
	}
}

/* The listed cgroup of kill entry e: by id, else by path (then it takes the id); -1 if
 * none, the cgroup removed */
static long kill_listed(const struct snapshot *s, const struct cg_ids *by_id, struct cg_kill *e)
{
	if (e->id)
		return cg_ids_find(by_id, e->id);
	for (size_t i = 0; i < s->ncgroups; i++) {
		if (!strcmp(s->cgroups[i].path, e->path)) {
			e->id = s->cgroups[i].id;
			return (long)i;
		}
	}
	return -1;
}

/* The cgroup among s->cgroups[0..n) that is path's nearest ancestor; -1 if none */
static long nearest_ancestor(const struct snapshot *s, size_t n, const char *path)
{
	long best = -1;
	size_t best_len = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = s->cgroups[i].path;
		size_t len = strlen(p);
		if (strcmp(p, path) && path_under(path, p) && (best < 0 || len > best_len)) {
			best = (long)i;
			best_len = len;
		}
	}
	return best;
}

/* An entry of a removed cgroup an hour after its last kill: its kills go to its nearest
 * listed ancestor's entry (made if need be, its at[] set), so that the ancestors' counts
 * stay; without one (outside the hierarchy read) they go. */
static void kill_fold(struct cg_reader *r, struct snapshot *s, size_t k, long *at)
{
	long a = nearest_ancestor(s, s->ncgroups, r->kills[k].path);
	if (a < 0)
		return;
	size_t j = 0;
	while (j < r->nkills && at[j] != a)
		j++;
	if (j == r->nkills) {
		kill_add(r, s->cgroups[a].id, s->cgroups[a].path);
		at[j] = a;
	}
	struct cg_kill *e = &r->kills[k], *to = &r->kills[j];
	to->below += e->own + e->below;
	to->last = to->last > e->last ? to->last : e->last;
}

static int cmp_kill_path(const void *a, const void *b, void *arg)
{
	const struct cg_kill *kills = arg;
	return strcmp(kills[*(const size_t *)a].path, kills[*(const size_t *)b].path);
}

/* The removed cgroups with kills, as rows after the listed ones: ancestors first, each
 * under its nearest ancestor among the rows */
static void append_removed(struct cg_reader *r, struct snapshot *s, const long *at)
{
	size_t n = 0, *order = xmalloc((r->nkills + 1) * sizeof(*order));

	for (size_t k = 0; k < r->nkills; k++)
		if (at[k] < 0 && path_under(r->kills[k].path, r->root))
			order[n++] = k;
	qsort_r(order, n, sizeof(*order), cmp_kill_path, r->kills);
	for (size_t j = 0; j < n; j++) {
		const struct cg_kill *e = &r->kills[order[j]];
		long parent = nearest_ancestor(s, s->ncgroups, e->path);
		struct cg_sample *cg = snapshot_add_cgroup(s, e->path);
		cg->id = e->id;
		cg->depth = path_depth(r, e->path);
		cg->parent = (int32_t)parent;
		cg->removed = true;
		cg->name = e->name ? xstrdup(e->name) : NULL; /* as it was last listed */
		cg->runtime = (uint8_t)e->runtime;
		cg->v[CGCOL_OOM_KILLS] = e->own + e->below;
		cg->valid = CGCOL_BIT(CGCOL_OOM_KILLS);
	}
	free(order);
}

void cg_fill_kills(struct cg_reader *r, struct snapshot *s)
{
	if (!s->bpf.have_oom || !s->ncgroups)
		return;
	size_t listed = s->ncgroups, nk = r->nkills;
	struct cg_ids by_id;
	long *at = xmalloc((2 * nk + 1) * sizeof(*at)); /* room for the entries folds make */

	cg_ids_make(&by_id, s);
	for (size_t i = 0; i < listed; i++) {
		s->cgroups[i].v[CGCOL_OOM_KILLS] = 0;
		s->cgroups[i].valid |= CGCOL_BIT(CGCOL_OOM_KILLS);
	}
	for (size_t k = 0; k < nk; k++) {
		struct cg_kill *e = &r->kills[k];
		at[k] = kill_listed(s, &by_id, e);
		if (at[k] >= 0 && strcmp(e->path, s->cgroups[at[k]].path)) {
			free(e->path); /* renamed (v1), or the event's path was cut short */
			e->path = xstrdup(s->cgroups[at[k]].path);
		}
		if (at[k] >= 0)
			kill_name(e, s->cgroups[at[k]].name, s->cgroups[at[k]].runtime);
	}
	/* removed an hour ago and more: folded into an ancestor, then dropped */
	for (size_t k = 0; k < nk; k++) {
		if (at[k] < 0 && s->wall - r->kills[k].last > REMOVED_SHOWN) {
			kill_fold(r, s, k, at);
			at[k] = -2;
		}
	}
	for (size_t k = r->nkills; k-- > 0;) {
		if (at[k] != -2)
			continue;
		kill_drop(r, k);
		memmove(&at[k], &at[k + 1], (r->nkills - k) * sizeof(*at));
	}
	for (size_t k = 0; k < r->nkills; k++)
		if (at[k] >= 0)
			s->cgroups[at[k]].v[CGCOL_OOM_KILLS] += r->kills[k].own + r->kills[k].below;
	append_removed(r, s, at);
	/* in it and below: each row comes after its parent */
	for (size_t i = s->ncgroups; i-- > 0;)
		if (s->cgroups[i].parent >= 0)
			s->cgroups[s->cgroups[i].parent].v[CGCOL_OOM_KILLS] +=
				s->cgroups[i].v[CGCOL_OOM_KILLS];
	cg_ids_free(&by_id);
	free(at);
}

void cg_kills_free(struct cg_reader *r)
{
	for (size_t i = 0; i < r->nkills; i++) {
		free(r->kills[i].path);
		free(r->kills[i].name);
	}
	free(r->kills);
}
