#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

uint64_t order_key(double v, int sign)
{
	uint64_t bits;

	v = v != v ? 0 : v + 0.0;
	memcpy(&bits, &v, sizeof(bits));
	bits = bits >> 63 ? ~bits : bits | 1ull << 63;
	return sign > 0 ? bits : ~bits;
}

/* a before b: text (sign 1 or -1 for text, 0 for keys), then the lower tie */
static bool before(const struct sort_item *a, const struct sort_item *b, int text)
{
	if (text) {
		int c = strcmp(a->text, b->text);
		if (c)
			return c * text < 0;
	} else if (a->key != b->key) {
		return a->key < b->key;
	}
	return a->tie < b->tie;
}

/* runs of 8 by insertion, then merged */
struct sort_item *order_sort(struct sort_item *a, struct sort_item *tmp, size_t n, int text)
{
	for (size_t lo = 0; lo < n; lo += 8) {
		size_t hi = lo + 8 < n ? lo + 8 : n;
		for (size_t i = lo + 1; i < hi; i++) {
			struct sort_item x = a[i];
			size_t k = i;
			for (; k > lo && before(&x, &a[k - 1], text); k--)
				a[k] = a[k - 1];
			a[k] = x;
		}
	}
	for (size_t w = 8; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t x = lo, y = mid, o = lo;
			if (mid == hi || !before(&a[mid], &a[mid - 1], text)) { /* in order */
				memcpy(tmp + lo, a + lo, (hi - lo) * sizeof(*a));
				continue;
			}
			while (x < mid && y < hi)
				tmp[o++] = before(&a[y], &a[x], text) ? a[y++] : a[x++];
			memcpy(tmp + o, a + x, (mid - x) * sizeof(*a));
			o += mid - x;
			memcpy(tmp + o, a + y, (hi - y) * sizeof(*a));
		}
		struct sort_item *t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}

size_t order_indexes(struct sort_item *items, size_t n, int text, size_t *out)
{
	struct sort_item *tmp = n > 1 ? malloc(n * sizeof(*tmp)) : NULL;
	const struct sort_item *sorted = tmp ? order_sort(items, tmp, n, text) : items;

	for (size_t k = 0; k < n; k++)
		out[k] = sorted[k].i;
	free(tmp);
	return n;
}

/* Room kept from one refresh to the next, grown as the rows grow */
static struct {
	size_t cap;
	long *first, *next, *tail, *stack;
	bool *done;
} room;

static void make_room(size_t n)
{
	if (n <= room.cap)
		return;
	room.cap = n + n / 4;
	free(room.first);
	free(room.next);
	free(room.tail);
	free(room.stack);
	free(room.done);
	room.first = xmalloc(room.cap * sizeof(*room.first));
	room.next = xmalloc(room.cap * sizeof(*room.next));
	room.tail = xmalloc(room.cap * sizeof(*room.tail));
	room.stack = xmalloc(room.cap * sizeof(*room.stack));
	room.done = xmalloc(room.cap * sizeof(*room.done));
}

struct walk {
	size_t *out;
	size_t nout;
	struct tree_place *place;
};

/* Appends row r and everything below it, depth first, children in list order */
static void walk(struct walk *w, long r)
{
	struct tree_place *pl = w->place;
	long *stack = room.stack;
	size_t sp = 0;

	pl[r] = (struct tree_place){.depth = 0, .last = true, .more = 0};
	stack[sp++] = r;
	while (sp) {
		long i = stack[--sp];
		if (room.done[i])
			continue;
		room.done[i] = true;
		w->out[w->nout++] = (size_t)i;
		/* push the children last first, so that the first is walked first */
		size_t from = sp;
		for (long c = room.first[i]; c >= 0; c = room.next[c]) {
			if (room.done[c])
				continue;
			pl[c].depth = (uint16_t)(pl[i].depth + 1);
			pl[c].more = pl[i].more;
			if (pl[i].depth && !pl[i].last && pl[i].depth <= 64)
				pl[c].more |= 1ull << (pl[i].depth - 1);
			pl[c].last = room.next[c] < 0;
			stack[sp++] = c;
		}
		for (size_t a = from, b = sp; a + 1 < b; a++, b--) {
			long t = stack[a];
			stack[a] = stack[b - 1];
			stack[b - 1] = t;
		}
	}
}

void tree_walk(const long *parent, size_t n, size_t *out, struct tree_place *place)
{
	if (n == 0)
		return;
	make_room(n);
	long *first = room.first, *next = room.next, *tail = room.tail;
	for (size_t i = 0; i < n; i++)
		first[i] = next[i] = tail[i] = -1;

	/* children lists in sort order; roots in a list of their own */
	long roots = -1, roots_tail = -1;
	for (size_t i = 0; i < n; i++) {
		long p = parent[i];
		bool root = p < 0 || p == (long)i;
		long *head = root ? &roots : &first[p], *end = root ? &roots_tail : &tail[p];
		if (*end < 0)
			*head = (long)i;
		else
			next[*end] = (long)i;
		*end = (long)i;
	}

	memset(room.done, 0, n * sizeof(*room.done));
	struct walk w = {.out = out, .place = place};
	for (long r = roots; r >= 0; r = next[r])
		walk(&w, r);
	/* a parent loop no root reaches (ppids read at slightly different times): walked
	 * from its first row in sort order, as if that were a root */
	for (size_t i = 0; i < n; i++)
		if (!room.done[i])
			walk(&w, (long)i);
}
