/* The names of memory cgroups cached by id and path (cgroup_names.h): resolved once, when
 * a cgroup is first listed; those of the cgroups gone at the last fill kept until the
 * next, for the kill events that name them after their removal. */
#include <stdlib.h>
#include <string.h>

#include "cgroup_names.h"
#include "util.h"

/* A name resolved, by the cgroup's id and path */
struct cg_known {
	uint64_t id;
	char *path, *name; /* name NULL: none */
	int runtime;
};

struct cg_names {
	char *root;
	struct cg_known *k; /* by id, then path */
	size_t n;
	struct cg_known *gone; /* listed at the fill before the last, not at the last */
	size_t ngone;
};

struct cg_names *cg_names_new(const char *root)
{
	struct cg_names *n = xcalloc(1, sizeof(*n));

	n->root = xstrdup(root ? root : "");
	return n;
}

static void forget(struct cg_known *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].path);
		free(k[i].name);
	}
}

void cg_names_free(struct cg_names *n)
{
	if (!n)
		return;
	forget(n->k, n->n);
	free(n->k);
	forget(n->gone, n->ngone);
	free(n->gone);
	free(n->root);
	free(n);
}

static int cmp_known(const void *a, const void *b)
{
	const struct cg_known *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->path, y->path);
}

void cg_names_fill(struct cg_names *n, struct snapshot *s)
{
	struct cg_known *next = xcalloc(s->ncgroups ? s->ncgroups : 1, sizeof(*next));
	bool *kept = xcalloc(n->n ? n->n : 1, sizeof(*kept));
	char name[CG_NAME_MAX];
	size_t m = 0;

	for (size_t i = 0; i < s->ncgroups; i++) {
		struct cg_sample *c = &s->cgroups[i];
		struct cg_known key = {.id = c->id, .path = c->path}, *k;
		k = n->n ? bsearch(&key, n->k, n->n, sizeof(*n->k), cmp_known) : NULL;
		if (k && !kept[k - n->k]) { /* its strings move to the new list */
			kept[k - n->k] = true;
			next[m] = *k;
		} else if (k) { /* listed twice (a recording's damage): a copy */
			next[m] = *k;
			next[m].path = xstrdup(k->path);
			next[m].name = k->name ? xstrdup(k->name) : NULL;
		} else {
			next[m] = key;
			next[m].path = xstrdup(c->path);
			next[m].runtime = cg_name_resolve(n->root, c->path, name, sizeof(name));
			next[m].name = name[0] ? xstrdup(name) : NULL;
		}
		free(c->name);
		c->name = next[m].name ? xstrdup(next[m].name) : NULL;
		c->runtime = (uint8_t)next[m].runtime;
		m++;
	}
	/* those no longer listed are kept as gone until the next fill */
	forget(n->gone, n->ngone);
	n->ngone = 0;
	for (size_t i = 0; i < n->n; i++)
		if (!kept[i]) /* (a kept one's strings moved) */
			n->k[n->ngone++] = n->k[i];
	free(n->gone);
	n->gone = n->k;
	free(kept);
	qsort(next, m, sizeof(*next), cmp_known);
	/* a cgroup listed twice (a recording's damage) is kept once */
	size_t u = 0;
	for (size_t i = 0; i < m; i++) {
		if (u && !cmp_known(&next[u - 1], &next[i])) {
			forget(&next[i], 1);
			continue;
		}
		next[u++] = next[i];
	}
	n->k = next;
	n->n = u;
}

static const struct cg_known *known_id(const struct cg_known *k, size_t n, uint64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].id == id)
			return &k[i];
	return NULL;
}

bool cg_names_by_id(const struct cg_names *n, uint64_t id, const char **path, const char **name,
		    int *runtime)
{
	const struct cg_known *k = NULL;

	if (n && id)
		k = known_id(n->k, n->n, id);
	if (n && id && !k)
		k = known_id(n->gone, n->ngone, id);
	if (!k)
		return false;
	*path = k->path;
	*name = k->name;
	*runtime = k->runtime;
	return true;
}
