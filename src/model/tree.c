/* The process tree's order: each row under its parent, as htop and ps --forest show it.
 * Rows come in sort order; children keep that order among their siblings. A row whose
 * parent is not among the rows (filtered out, or pid 0) is a root. The walk is the table
 * layer's (order.h); here each row's parent is found by its ppid. */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "util.h"

/* The rows' pids in an open-addressing table: each slot holds a row's index + 1, 0 when
 * empty; a power of two at least twice the rows, so probes stay short */
static uint32_t slot_of(int32_t pid, size_t mask)
{
	return (uint32_t)((uint32_t)pid * 2654435761u) & (uint32_t)mask;
}

/* The index of the row with this pid, or -1 */
static long find(struct row *const *rows, const uint32_t *table, size_t mask, int32_t pid)
{
	for (size_t k = slot_of(pid, mask); table[k]; k = (k + 1) & mask)
		if (rows[table[k] - 1]->p->pid == pid)
			return (long)table[k] - 1;
	return -1;
}

/* Room kept from one refresh to the next, grown as the rows grow */
static struct {
	size_t cap, table_cap;
	uint32_t *table;
	long *parent;
	size_t *out;
	struct tree_place *place;
	struct row **rows;
} room;

static void make_room(size_t n)
{
	size_t t = 16;
	while (t < 2 * n)
		t *= 2;
	if (t > room.table_cap) {
		room.table_cap = t;
		free(room.table);
		room.table = xmalloc(t * sizeof(*room.table));
	}
	if (n <= room.cap)
		return;
	room.cap = n + n / 4;
	room.parent = xrealloc(room.parent, room.cap * sizeof(*room.parent));
	room.out = xrealloc(room.out, room.cap * sizeof(*room.out));
	room.place = xrealloc(room.place, room.cap * sizeof(*room.place));
	room.rows = xrealloc(room.rows, room.cap * sizeof(*room.rows));
}

static bool is_folded(const struct proc_sample *p, const struct proc_fold *folds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (folds[i].pid == p->pid && folds[i].start_ticks == p->start_ticks)
			return true;
	return false;
}

/* rows in tree order less those below a folded row, which is marked; the rows kept */
static size_t fold(struct row **rows, size_t n, const struct proc_fold *folds, size_t nfolds)
{
	size_t kept = 0;

	for (size_t k = 0; k < n;) {
		struct row *r = rows[k++];
		rows[kept++] = r;
		if (k < n && rows[k]->depth > r->depth && is_folded(r->p, folds, nfolds)) {
			r->folded = true;
			while (k < n && rows[k]->depth > r->depth)
				k++;
		}
	}
	return kept;
}

size_t tree_order(struct row **rows, size_t n, const struct proc_fold *folds, size_t nfolds)
{
	if (n == 0)
		return 0;
	make_room(n);
	size_t mask = room.table_cap - 1;
	memset(room.table, 0, room.table_cap * sizeof(*room.table));
	for (size_t i = 0; i < n; i++) {
		size_t k = slot_of(rows[i]->p->pid, mask);
		while (room.table[k])
			k = (k + 1) & mask;
		room.table[k] = (uint32_t)i + 1;
	}
	for (size_t i = 0; i < n; i++)
		room.parent[i] = find(rows, room.table, mask, rows[i]->p->ppid);
	tree_walk(room.parent, n, room.out, room.place);
	for (size_t k = 0; k < n; k++) {
		struct row *r = rows[room.out[k]];
		const struct tree_place *pl = &room.place[room.out[k]];
		r->depth = pl->depth;
		r->last = pl->last;
		r->more = pl->more;
		room.rows[k] = r;
	}
	memcpy(rows, room.rows, n * sizeof(*rows));
	return nfolds ? fold(rows, n, folds, nfolds) : n;
}
