/* The tree view's order: each row under its parent, as htop and ps --forest show it.
 * Rows come in sort order; children keep that order among their siblings. A row whose
 * parent is not among the rows (filtered out, or pid 0) is a root. */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

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

struct walk {
	struct row **rows, **out;
	size_t nout;
	const long *first, *next;
	long *stack;
	bool *done;
};

/* Appends row r and everything below it, depth first, children in list order */
static void walk(struct walk *w, long r)
{
	struct row **rows = w->rows;
	size_t sp = 0;
	rows[r]->depth = 0;
	rows[r]->more = 0;
	rows[r]->last = true;
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
			struct row *k = rows[c];
			k->depth = (uint16_t)(rows[i]->depth + 1);
			k->more = rows[i]->more;
			if (rows[i]->depth && !rows[i]->last && rows[i]->depth <= 64)
				k->more |= 1ull << (rows[i]->depth - 1);
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

/* Room kept from one refresh to the next, grown as the rows grow */
static struct {
	size_t cap, table_cap;
	uint32_t *table;
	long *first, *next, *tail, *stack;
	bool *done;
	struct row **out;
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
	free(room.first);
	free(room.next);
	free(room.tail);
	free(room.stack);
	free(room.done);
	free(room.out);
	room.first = xmalloc(room.cap * sizeof(*room.first));
	room.next = xmalloc(room.cap * sizeof(*room.next));
	room.tail = xmalloc(room.cap * sizeof(*room.tail));
	room.stack = xmalloc(room.cap * sizeof(*room.stack));
	room.done = xmalloc(room.cap * sizeof(*room.done));
	room.out = xmalloc(room.cap * sizeof(*room.out));
}

void tree_order(struct row **rows, size_t n)
{
	if (n == 0)
		return;
	make_room(n);
	long *first = room.first, *next = room.next, *tail = room.tail;
	size_t mask = room.table_cap - 1;
	memset(room.table, 0, room.table_cap * sizeof(*room.table));
	for (size_t i = 0; i < n; i++) {
		first[i] = next[i] = tail[i] = -1;
		size_t k = slot_of(rows[i]->p->pid, mask);
		while (room.table[k])
			k = (k + 1) & mask;
		room.table[k] = (uint32_t)i + 1;
	}

	/* children lists in sort order; roots in a list of their own */
	long roots = -1, roots_tail = -1;
	for (size_t i = 0; i < n; i++) {
		long parent = find(rows, room.table, mask, rows[i]->p->ppid);
		bool root = parent < 0 || parent == (long)i;
		long *head = root ? &roots : &first[parent],
		     *end = root ? &roots_tail : &tail[parent];
		if (*end < 0)
			*head = (long)i;
		else
			next[*end] = (long)i;
		*end = (long)i;
	}

	memset(room.done, 0, n * sizeof(*room.done));
	struct walk w = {
		.rows = rows,
		.out = room.out,
		.first = first,
		.next = next,
		.stack = room.stack,
		.done = room.done,
	};
	for (long r = roots; r >= 0; r = next[r])
		walk(&w, r);
	/* a parent loop no root reaches (ppids read at slightly different times): walked
	 * from its first row in sort order, as if that were a root */
	for (size_t i = 0; i < n; i++)
		if (!w.done[i])
			walk(&w, (long)i);
	memcpy(rows, w.out, n * sizeof(*rows));
}
