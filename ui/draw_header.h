/* The main screen's header: meters, system figures, the status and BPF lines, and the
 * OOM-kill banner. */
#ifndef MEMTOP_DRAW_HEADER_H
#define MEMTOP_DRAW_HEADER_H

#include "screen.h"

/* A part of a meter */
struct segment {
	uint64_t value;
	enum role role;
	const char *glyph_utf8; /* full cell */
	char glyph_ascii;
};

/* A meter like htop's at line y: label[bar   text], segments stacked left to right, in
 * shares of total */
void meter(struct ui *u, int y, const char *label, const struct segment *seg, int nseg,
	   uint64_t total, const char *text);

/* The lines the header takes on this canvas */
int header_rows(const struct ui *u);
void draw_header(struct ui *u);
/* The status line at y (ui/draw_status.c) */
void status_line(struct ui *u, const struct snapshot *s, int y);
/* The newest live OOM kill at y, in the words there is room for, and the keys y and o
 * (ui/oom_banner.c) */
void oom_banner(struct ui *u, int y);

#endif
