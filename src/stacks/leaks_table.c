#include "leaks_table.h"

#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "bpf/leaks.h"
#include "util.h"

const char *const leak_kind_names[LEAK_KINDS] = {[LEAK_MALLOC] = "malloc", [LEAK_MMAP] = "mmap"};

static int by_stack(const void *a, const void *b)
{
	const struct leak_entry *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->ustack != y->ustack)
		return x->ustack < y->ustack ? -1 : 1;
	return x->caller < y->caller ? -1 : x->caller > y->caller;
}

static int by_bytes(const void *a, const void *b)
{
	const struct leak_stack *x = a, *y = b;

	return x->bytes > y->bytes ? -1 : x->bytes < y->bytes;
}

/* The frames of a group: the walked stack, with an mmap's caller (the return address
 * the walk misses in a wrapper without a frame) put after the innermost frame */
static void frames(struct leak_stack *s, const struct leak_entry *e, int stack_fd)
{
	uint64_t ips[MTB_LK_DEPTH] = {0};
	int n = 0;

	s->nuser = 0;
	if (e->ustack < 0 || stack_fd < 0 || bpf_map_lookup_elem(stack_fd, &e->ustack, ips))
		return;
	while (n < MTB_LK_DEPTH && ips[n])
		n++;
	for (int i = 0; i < n; i++) {
		s->user[s->nuser++] = ips[i];
		if (i == 0 && e->caller && (n < 2 || ips[1] != e->caller))
			s->user[s->nuser++] = e->caller;
	}
}

size_t leaks_group(struct leak_entry *e, size_t n, uint64_t sample, int stack_fd,
		   struct leak_window w, struct leak_stack **out)
{
	struct leak_stack *g = NULL;
	size_t ng = 0, cap = 0, in = 0;

	for (size_t i = 0; i < n; i++)
		if (e[i].ns >= w.from_ns && e[i].ns < w.to_ns)
			e[in++] = e[i];
	n = in;
	if (n)
		qsort(e, n, sizeof(*e), by_stack);
	for (size_t i = 0; i < n; i++) {
		struct leak_stack *s;

		if (!ng || by_stack(&e[i - 1], &e[i])) {
			g = xgrow(g, ng, &cap, sizeof(*g), 16);
			s = &g[ng++];
			memset(s, 0, sizeof(*s));
			s->kind = e[i].kind < LEAK_KINDS ? (enum leak_kind)e[i].kind : LEAK_MALLOC;
			s->first_is_call = s->kind == LEAK_MALLOC;
			frames(s, &e[i], stack_fd);
		}
		s = &g[ng - 1];
		s->samples++;
		if (s->kind == LEAK_MALLOC && e[i].size < sample) {
			s->bytes += (double)sample;
			s->count += (double)sample / (double)e[i].size;
			s->estimated = true;
		} else {
			s->bytes += (double)e[i].size;
			s->count += 1;
		}
		double age = (double)(w.to_ns - e[i].ns) / 1e9;
		if (age > s->oldest)
			s->oldest = age;
	}
	if (ng)
		qsort(g, ng, sizeof(*g), by_bytes);
	*out = g;
	return ng;
}

size_t leaks_table_read(int alloc_fd, int stack_fd, uint64_t sample, struct leak_window w,
			struct leak_stack **out)
{
	struct leak_entry *e = NULL;
	size_t n = 0, cap = 0;
	uint64_t key, next, *prev = NULL;
	struct mtb_lk_alloc a;

	while (!bpf_map_get_next_key(alloc_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(alloc_fd, &key, &a))
			continue;
		e = xgrow(e, n, &cap, sizeof(*e), 1024);
		e[n++] = (struct leak_entry){.kind = a.kind,
					     .ustack = a.ustack,
					     .caller = a.caller,
					     .size = a.size,
					     .ns = a.ns};
	}
	size_t ng = leaks_group(e, n, sample, stack_fd, w, out);
	free(e);
	return ng;
}
