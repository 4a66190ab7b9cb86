#include "bpf_concern.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

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
