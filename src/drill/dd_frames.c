#include "dd_frames.h"

#include <stdlib.h>

#include "util.h"

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

void dd_frame_set(struct dd_frame *f, const struct sym_frame *s)
{
	f->ip = s->ip;
	f->offset = s->offset;
	f->kernel = s->kernel;
	f->found = s->found;
	f->symbol = dup_or_empty(s->symbol);
	f->module = dup_or_empty(s->module);
	f->in_module = s->in_module;
	f->mod_offset = s->mod_offset;
	f->build_id = dup_or_empty(s->build_id);
	f->src = dup_or_empty(NULL);
}

/* The frames of a function with others inlined into it at ip: f[0] filled (dd_frame_set)
 * becomes f[ninl], and the inlined ones, innermost first, each at its line, take
 * f[0..ninl). Returns ninl. */
static int add_inlined(struct dd_frame *f, int ninl, const char *const *name,
		       const char *const *src, const char *own_src)
{
	struct dd_frame outer = *f;

	for (int i = 0; i < ninl; i++) {
		f[i] = (struct dd_frame){.ip = outer.ip,
					 .found = true,
					 .inlined = true,
					 .symbol = xstrdup(name[i]),
					 .module = xstrdup(outer.module),
					 .in_module = outer.in_module,
					 .mod_offset = outer.mod_offset,
					 .build_id = xstrdup(outer.build_id),
					 .src = xstrdup(src[i])};
	}
	free(outer.src);
	outer.src = xstrdup(own_src);
	f[ninl] = outer;
	return ninl;
}

/* A user frame named when its stack was unwound, with the functions inlined at it
 * before it; returns the frames written. */
int dd_frame_set_ref(struct dd_frame *f, uint64_t ip, const struct sym_ref *s)
{
	*f = (struct dd_frame){.ip = ip,
			       .offset = s->offset,
			       .found = s->found,
			       .symbol = dup_or_empty(s->symbol),
			       .module = dup_or_empty(s->module),
			       .in_module = s->in_module,
			       .mod_offset = s->mod_offset,
			       .build_id = dup_or_empty(s->build_id),
			       .src = dup_or_empty(NULL)};
	return 1 + add_inlined(f, s->ninl, s->inl_name, s->inl_src, s->src);
}

/* The same from the symbolizer's answer */
int dd_frame_set_sym(struct dd_frame *f, const struct sym_frame *s)
{
	const char *name[SRC_INLINE], *src[SRC_INLINE];
	int n = s->srcl ? s->srcl->ninl : 0;

	dd_frame_set(f, s);
	for (int i = 0; i < n; i++) {
		name[i] = s->srcl->inl_name[i];
		src[i] = s->srcl->inl_src[i];
	}
	return 1 + add_inlined(f, n, name, src, s->srcl ? s->srcl->src : "");
}
