/* The tree of memory cgroups from the cgroup iterator's records: parents found by id,
 * siblings sorted by name, paths made in one depth-first walk. The working arrays are
 * kept, grown to the largest tree seen. */
#include "cgroup_tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct id_i {
	uint64_t id;
	size_t i;
};

struct frame {
	size_t next, end; /* its children still to walk: kids[next..end) */
	size_t len;	  /* its path's length */
};

struct cg_tree {
	size_t cap;
	struct id_i *by_id;
	size_t *parent;
	size_t *kids;  /* every record but the first, by parent and name */
	size_t *first; /* each one's children in kids: first[i].. */
	size_t *nkids;
	const char **names;
	struct frame *stack;
	char path[PATH_MAX];
};

struct cg_tree *cg_tree_new(void)
{
	return xcalloc(1, sizeof(struct cg_tree));
}

void cg_tree_free(struct cg_tree *t)
{
	if (!t)
		return;
	free(t->by_id);
	free(t->parent);
	free(t->kids);
	free(t->first);
	free(t->nkids);
	free(t->names);
	free(t->stack);
	free(t);
}

static void grow(struct cg_tree *t, size_t n)
{
	if (n <= t->cap)
		return;
	t->cap = n + n / 2;
	t->by_id = xrealloc(t->by_id, t->cap * sizeof(*t->by_id));
	t->parent = xrealloc(t->parent, t->cap * sizeof(*t->parent));
	t->kids = xrealloc(t->kids, t->cap * sizeof(*t->kids));
	t->first = xrealloc(t->first, t->cap * sizeof(*t->first));
	t->nkids = xrealloc(t->nkids, t->cap * sizeof(*t->nkids));
	t->names = xrealloc(t->names, t->cap * sizeof(*t->names));
	t->stack = xrealloc(t->stack, (t->cap + 1) * sizeof(*t->stack));
}

static int cmp_id_i(const void *a, const void *b)
{
	uint64_t x = ((const struct id_i *)a)->id, y = ((const struct id_i *)b)->id;
	return (x > y) - (x < y);
}

/* siblings together, by name, as the listing sorts a directory's entries */
static int cmp_kids(const void *a, const void *b, void *arg)
{
	const struct cg_tree *t = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (t->parent[x] != t->parent[y])
		return t->parent[x] < t->parent[y] ? -1 : 1;
	return strcmp(t->names[x], t->names[y]);
}

/* Each record's parent among those before it; -1 if one has none, or a bad name */
static int link_parents(struct cg_tree *t, const struct mtb_cgroup_rec *recs, size_t n,
			const char *(*name)(const void *ctx, size_t i), const void *ctx)
{
	for (size_t i = 0; i < n; i++)
		t->by_id[i] = (struct id_i){.id = recs[i].id, .i = i};
	qsort(t->by_id, n, sizeof(*t->by_id), cmp_id_i);
	for (size_t i = 1; i < n; i++)
		if (t->by_id[i].id == t->by_id[i - 1].id)
			return -1;
	for (size_t i = 1; i < n; i++) {
		const char *nm = name(ctx, i);
		struct id_i key = {.id = recs[i].parent_id};
		const struct id_i *at = bsearch(&key, t->by_id, n, sizeof(key), cmp_id_i);
		if (!(recs[i].have & MTB_CG_NAMED) || !nm[0] || strchr(nm, '/') ||
		    !strcmp(nm, ".") || !strcmp(nm, "..") || !at || at->i >= i)
			return -1;
		t->parent[i] = at->i;
		t->names[i] = nm;
	}
	return 0;
}

int cg_tree_build(struct cg_tree *t, const struct mtb_cgroup_rec *recs, size_t n,
		  const char *(*name)(const void *ctx, size_t i), const void *ctx, const char *root,
		  struct snapshot *s)
{
	size_t rl = strlen(root);

	if (!n || rl >= sizeof(t->path))
		return -1;
	grow(t, n);
	if (link_parents(t, recs, n, name, ctx))
		return -1;
	for (size_t i = 0; i + 1 < n; i++)
		t->kids[i] = i + 1;
	qsort_r(t->kids, n - 1, sizeof(*t->kids), cmp_kids, t);
	memset(t->nkids, 0, n * sizeof(*t->nkids));
	memset(t->first, 0, n * sizeof(*t->first));
	for (size_t k = n - 1; k-- > 0;) {
		size_t p = t->parent[t->kids[k]];
		t->first[p] = k;
		t->nkids[p]++;
	}

	memcpy(t->path, root, rl + 1);
	struct cg_sample *cg = snapshot_add_cgroup(s, t->path);
	cg->id = recs[0].id;
	size_t sp = 0;
	t->stack[sp++] =
		(struct frame){.next = t->first[0], .end = t->first[0] + t->nkids[0], .len = rl};
	while (sp) {
		struct frame *f = &t->stack[sp - 1];
		if (f->next == f->end) {
			sp--;
			continue;
		}
		size_t k = t->kids[f->next++], len = f->len;
		size_t sep = len && t->path[len - 1] == '/' ? 0 : 1, nl = strlen(t->names[k]);
		if (len + sep + nl >= sizeof(t->path))
			continue; /* too long for the listing too: left out with its subtree */
		t->path[len] = '/';
		memcpy(t->path + len + sep, t->names[k], nl + 1);
		cg = snapshot_add_cgroup(s, t->path);
		cg->id = recs[k].id;
		cg->depth = (uint32_t)sp;
		t->stack[sp++] = (struct frame){.next = t->first[k],
						.end = t->first[k] + t->nkids[k],
						.len = len + sep + nl};
	}
	return 0;
}
