/* The main screen's header: meters, system figures, the status and BPF lines, and the
 * OOM-kill banner. */
#ifndef MEMTOP_DRAW_HEADER_H
#define MEMTOP_DRAW_HEADER_H

#include "screen.h"

/* The lines the header takes on this canvas */
int header_rows(const struct ui *u);
void draw_header(struct ui *u);

#endif
