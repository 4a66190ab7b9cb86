/* The call tree of the drill-down's stacks: a trie of the stacks' frames, root first,
 * merged by function, then laid out depth first with each node's children by count. */
#include "dd_tree.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *str(const char *s)
{
	return s ? s : "";
}

static bool named(const struct dd_frame *f)
{
	return f->found && f->symbol && f->symbol[0];
}

bool dd_frame_same(const struct dd_frame *a, const struct dd_frame *b)
{
	if (a->kernel != b->kernel || a->inlined != b->inlined || named(a) != named(b))
		return false;
	if (named(a))
		return !strcmp(a->symbol, b->symbol) && !strcmp(str(a->module), str(b->module));
	if (a->in_module != b->in_module)
		return false;
	if (a->in_module)
		return a->mod_offset == b->mod_offset && !strcmp(str(a->module), str(b->module));
	return a->ip == b->ip;
}

/* FNV-1a over bytes, from h */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* A node's key: its parent's, mixed with what dd_frame_same compares */
static uint64_t node_key(uint64_t parent, enum dd_node_type type, enum stack_kind kind,
			 const struct dd_frame *f)
{
	int head[2] = {(int)type, (int)kind};
	uint64_t h = mix(parent ^ 0xcbf29ce484222325ULL, head, sizeof(head));

	if (!f)
		return h;
	bool flags[3] = {f->kernel, f->inlined, named(f)};

	h = mix(h, flags, sizeof(flags));
	if (named(f) || f->in_module)
		h = mix(h, str(f->module), strlen(str(f->module)) + 1);
	if (named(f))
		return mix(h, f->symbol, strlen(f->symbol));
	return f->in_module ? mix(h, &f->mod_offset, sizeof(f->mod_offset))
			    : mix(h, &f->ip, sizeof(f->ip));
}

/* The trie while it is built: children in lists, by index (the array moves as it grows) */
struct tnode {
	struct dd_node n;
	size_t first, next; /* first child, next sibling; 0: none (0 is never a child) */
};

struct trie {
	struct tnode *t;
	size_t n, cap;
};

static size_t child(struct trie *tr, size_t parent, enum dd_node_type type, enum stack_kind kind,
		    const struct dd_frame *f)
{
	size_t last = 0;

	for (size_t c = parent == DD_NO_STACK ? 0 : tr->t[parent].first; c; c = tr->t[c].next) {
		const struct dd_node *x = &tr->t[c].n;

		if (x->type == type && x->kind == kind && (!f || dd_frame_same(x->frame, f)))
			return c;
		last = c;
	}
	tr->t = xgrow(tr->t, tr->n, &tr->cap, sizeof(*tr->t), 64);
	size_t i = tr->n++;
	const struct dd_node *p = parent == DD_NO_STACK ? NULL : &tr->t[parent].n;

	tr->t[i] = (struct tnode){.n = {.type = type,
					.kind = kind,
					.depth = p ? p->depth + 1 : 0,
					.parent = parent,
					.frame = f,
					.stack = DD_NO_STACK,
					.key = node_key(p ? p->key : 0, type, kind, f)}};
	if (parent == DD_NO_STACK)
		return i;
	if (last)
		tr->t[last].next = i;
	else
		tr->t[parent].first = i;
	return i;
}

static void add(struct trie *tr, size_t i, const struct dd_stack *s)
{
	tr->t[i].n.count += s->count;
	tr->t[i].n.estimated |= s->estimated;
}

static const struct tnode *sort_base;

/* Largest count first; ties in the order first seen */
static int cmp_count(const void *a, const void *b)
{
	const struct dd_node *x = &sort_base[*(const size_t *)a].n,
			     *y = &sort_base[*(const size_t *)b].n;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Node i and its subtree at out->nodes[out->n...], children sorted (scratch: room for
 * every node) */
static void lay_out(const struct trie *tr, size_t i, size_t parent, struct dd_tree *out,
		    size_t *scratch)
{
	size_t at = out->n++, nc = 0, *kids = scratch;

	out->nodes[at] = tr->t[i].n;
	out->nodes[at].parent = parent;
	for (size_t c = tr->t[i].first; c; c = tr->t[c].next)
		kids[nc++] = c;
	sort_base = tr->t;
	qsort(kids, nc, sizeof(*kids), cmp_count);
	out->nodes[at].nchildren = nc;
	for (size_t k = 0; k < nc; k++)
		lay_out(tr, kids[k], at, out, scratch + nc);
	out->nodes[at].end = out->n;
}

void dd_tree_build(const struct dd_stack *stacks, size_t n, struct dd_tree *t)
{
	struct trie tr = {0};
	size_t roots[STACK_KINDS];

	dd_tree_free(t);
	for (int k = 0; k < STACK_KINDS; k++)
		roots[k] = DD_NO_STACK;
	for (size_t i = 0; i < n; i++) /* the roots first, in the order of the kinds */
		roots[stacks[i].kind] = 0;
	for (int k = 0; k < STACK_KINDS; k++)
		if (roots[k] != DD_NO_STACK)
			roots[k] = child(&tr, DD_NO_STACK, DD_NODE_KIND, (enum stack_kind)k, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct dd_stack *s = &stacks[i];
		size_t at = roots[s->kind];

		add(&tr, at, s);
		if (s->truncated) {
			at = child(&tr, at, DD_NODE_TRUNC, s->kind, NULL);
			add(&tr, at, s);
		}
		for (int j = 0; j < s->nframes; j++) {
			at = child(&tr, at, DD_NODE_FRAME, s->kind, dd_root_frame(s, j));
			add(&tr, at, s);
		}
		struct dd_node *end = &tr.t[at].n;

		end->self += s->count;
		if (end->stack == DD_NO_STACK || stacks[end->stack].count < s->count)
			end->stack = i;
	}
	t->nodes = xcalloc(tr.n ? tr.n : 1, sizeof(*t->nodes));
	size_t *scratch = xcalloc(tr.n ? tr.n : 1, sizeof(*scratch));

	for (int k = 0; k < STACK_KINDS; k++)
		if (roots[k] != DD_NO_STACK)
			lay_out(&tr, roots[k], DD_NO_STACK, t, scratch);
	for (size_t i = 0; i < t->n; i++) {
		struct dd_node *x = &t->nodes[i];
		uint64_t all = tr.t[roots[x->kind]].n.count;

		x->share = all ? 100.0 * (double)x->count / (double)all : 0;
	}
	free(scratch);
	free(tr.t);
}

void dd_tree_free(struct dd_tree *t)
{
	free(t->nodes);
	t->nodes = NULL;
	t->n = 0;
}
