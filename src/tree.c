/* The tree view's order: each row under its parent, as htop and ps --forest show it.
 * Rows come in sort order; children keep that order among their siblings. A row whose
 * parent is not among the rows (filtered out, or pid 0) is a root. */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static int cmp_by_pid(const void *a, const void *b, void *arg)
{
	const struct row *rows = arg;
	int32_t x = rows[*(const size_t *)a].p->pid, y = rows[*(const size_t *)b].p->pid;
	return (x > y) - (x < y);
}

/* The index of the row with this pid, or -1: a binary search of the pid-ordered index */
static long find(const struct row *rows, const size_t *bypid, size_t n, int32_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int32_t p = rows[bypid[mid]].p->pid;
		if (p == pid)
			return (long)bypid[mid];
		if (p < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

struct walk {
	struct row *rows, *out;
	size_t nout;
	const long *first, *next;
	long *stack;
	bool *done;
};

/* Appends row r and everything below it, depth first, children in list order */
static void walk(struct walk *w, long r)
{
	struct row *rows = w->rows;
	size_t sp = 0;
	rows[r].depth = 0;
	rows[r].more = 0;
	rows[r].last = true;
	w->stack[sp++] = r;
	while (sp) {
		long i = w->stack[--sp];
		if (w->done[i])
			continue;
		w->done[i] = true;
		w->out[w->nout++] = rows[i];
		/* push the children last first, so that the first is walked first */
		size_t from = sp;
		for (long c = w->first[i]; c >= 0; c = w->next[c]) {
			if (w->done[c])
				continue;
			struct row *k = &rows[c];
			k->depth = (uint16_t)(rows[i].depth + 1);
			k->more = rows[i].more;
			if (rows[i].depth && !rows[i].last && rows[i].depth <= 64)
				k->more |= 1ull << (rows[i].depth - 1);
			k->last = w->next[c] < 0;
			w->stack[sp++] = c;
		}
		for (size_t a = from, b = sp; a + 1 < b; a++, b--) {
			long t = w->stack[a];
			w->stack[a] = w->stack[b - 1];
			w->stack[b - 1] = t;
		}
	}
}

void tree_order(struct row *rows, size_t n)
{
	if (n == 0)
		return;
	size_t *bypid = xmalloc(n * sizeof(*bypid));
	long *first = xmalloc(n * sizeof(*first)), *next = xmalloc(n * sizeof(*next));
	long *tail = xmalloc(n * sizeof(*tail));
	for (size_t i = 0; i < n; i++) {
		bypid[i] = i;
		first[i] = next[i] = tail[i] = -1;
	}
	qsort_r(bypid, n, sizeof(*bypid), cmp_by_pid, rows);

	/* children lists in sort order; roots in a list of their own */
	long roots = -1, roots_tail = -1;
	for (size_t i = 0; i < n; i++) {
		long parent = find(rows, bypid, n, rows[i].p->ppid);
		bool root = parent < 0 || parent == (long)i;
		long *head = root ? &roots : &first[parent],
		     *end = root ? &roots_tail : &tail[parent];
		if (*end < 0)
			*head = (long)i;
		else
			next[*end] = (long)i;
		*end = (long)i;
	}

	struct walk w = {
		.rows = rows,
		.out = xmalloc(n * sizeof(*rows)),
		.first = first,
		.next = next,
		.stack = xmalloc(n * sizeof(long)),
		.done = xcalloc(n, sizeof(bool)),
	};
	for (long r = roots; r >= 0; r = next[r])
		walk(&w, r);
	/* a parent loop no root reaches (ppids read at slightly different times): walked
	 * from its first row in sort order, as if that were a root */
	for (size_t i = 0; i < n; i++)
		if (!w.done[i])
			walk(&w, (long)i);
	memcpy(rows, w.out, n * sizeof(*rows));
	free(w.done);
	free(w.stack);
	free(w.out);
	free(tail);
	free(next);
	free(first);
	free(bypid);
}
