/* memtop --stacks --folded: the drill-down's stacks in the folded format that
 * flamegraph.pl, inferno and speedscope read: one line a stack, its frames root first
 * joined by ';', a space and its count. */
#include "detail_cli.h"

#include <inttypes.h>
#include <string.h>

#include "text.h"

/* A frame's name in a folded line: its symbol, else where it is (sort+0x77b8), else its
 * address; escaped, with ';' (the separator) made ':' */
static void folded_name(const struct dd_frame *fr, char *buf, size_t size)
{
	char raw[SYM_NAME_LEN * 4 + 32];

	dd_frame_name(fr, raw, sizeof(raw), true);
	for (char *p = raw; *p; p++)
		if (*p == ';')
			*p = ':';
	snprintf(buf, size, "%s%s", raw, fr->kernel ? "_[k]" : "");
}

void detail_print_folded(FILE *f, const struct detail *d)
{
	char name[SYM_NAME_LEN * 4 + 40];

	for (size_t i = 0; i < d->nstacks; i++) {
		const struct dd_stack *s = &d->stacks[i];

		/* the root: the kind, then where the walk was cut, if it was */
		fprintf(f, "[%s]%s", stack_kind_names[s->kind], s->truncated ? ";[truncated]" : "");
		for (int j = 0; j < s->nframes; j++) {
			folded_name(dd_root_frame(s, j), name, sizeof(name));
			fprintf(f, ";%s", name);
		}
		fprintf(f, " %" PRIu64 "\n", s->count);
	}
}
