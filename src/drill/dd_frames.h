/* The drill-down's frames (struct dd_frame, detail.h) made from what the symbolizer
 * answered or what was resolved as a stack was unwound, with the functions inlined at a
 * frame's address as frames of their own before it. */
#ifndef MEMTOP_DD_FRAMES_H
#define MEMTOP_DD_FRAMES_H

#include <stdint.h>

#include "detail.h"
#include "symbolize.h"

/* One frame, its strings copied (a kernel frame, or a user frame without inlines). */
void dd_frame_set(struct dd_frame *f, const struct sym_frame *s);
/* A user frame from the symbolizer: f[0..n), n returned (1 + the inlined functions). */
int dd_frame_set_sym(struct dd_frame *f, const struct sym_frame *s);
/* A user frame resolved as its stack was unwound, the same way. */
int dd_frame_set_ref(struct dd_frame *f, uint64_t ip, const struct sym_ref *s);

#endif
