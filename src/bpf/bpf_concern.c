#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "util.h"

int bpf_links_attach(struct bpf_links *l, struct bpf_program *const *progs, size_t n, char *why,
		     size_t len)
{
	int first = l->n;

	for (size_t i = 0; i < n; i++) {
		struct bpf_program *prog = progs[i];
		const char *sec = bpf_program__section_name(prog);
		const char *tp = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;
		struct bpf_link *link = NULL;
		int err = -E2BIG;

		if (!bpf_program__autoattach(prog))
			continue;
		if (l->n < BPF_CONCERN_PROGS) {
			link = bpf_program__attach(prog);
			err = link ? 0 : -errno;
		}
		if (link) {
			l->link[l->n++] = link;
			continue;
		}
		if (err == -ENOENT)
			snprintf(why, len, "no tracepoint %s", tp);
		else
			snprintf(why, len, "attaching %s: %s", tp, strerror(-err));
		while (l->n > first)
			bpf_link__destroy(l->link[--l->n]);
		return err;
	}
	return 0;
}

void bpf_links_destroy(struct bpf_links *l)
{
	while (l->n > 0)
		bpf_link__destroy(l->link[--l->n]);
}

void bpf_concern_why(char *why, size_t len, const char *what, int err)
{
	if (!why[0])
		snprintf(why, len, "%s: %s", what, strerror(-err));
}

void *bpf_concern_new(const struct bpf_concern *c, size_t size, struct memtop_bpf *skel, char *why,
		      size_t len, int *err)
{
	struct bpf_concern_state *st = xcalloc(1, size);
	struct bpf_program *progs[BPF_CONCERN_PROGS];

	st->skel = skel;
	*err = bpf_links_attach(&st->links, progs, c->programs(skel, progs), why, len);
	if (*err) {
		free(st);
		return NULL;
	}
	return st;
}

int bpf_concern_links(const void *state)
{
	return ((const struct bpf_concern_state *)state)->links.n;
}

void bpf_concern_free(void *state)
{
	struct bpf_concern_state *st = state;

	if (!st)
		return;
	bpf_links_destroy(&st->links);
	free(st);
}
