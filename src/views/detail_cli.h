/* The drill-down as text or JSON, as `memtop --stacks PID` prints it, and the formatting
 * of frames shared with the detail screen. */
#ifndef MEMTOP_DETAIL_CLI_H
#define MEMTOP_DETAIL_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "detail.h"

void detail_print_text(FILE *f, const struct detail *d, bool utf8);
void detail_print_json(FILE *f, const struct detail *d);
/* Every stack in the folded format of flame graphs (detail_folded.c): a line each,
 * "[KIND];outermost;...;innermost COUNT", [truncated] after the kind where the walk was
 * cut, kernel frames last with the suffix _[k]. */
void detail_print_folded(FILE *f, const struct detail *d);

/* The process's memory per NUMA node as numastat -p shows it, in MB with two decimals:
 * line 0 the header (Node N ... Total), then a line per kind (Huge, Heap, Stack,
 * Private), then Total; DD_NUMA_LINES lines, of the first nodes that fit in width */
#define DD_NUMA_LINES (NK_COUNT + 2)
void dd_numa_line(const struct numa_use *u, int line, int width, char *buf, size_t size);

/* The stacks of each kind left out of a list that shows the first per_kind of each kind
 * and the first all of all (d->stacks in order): how many, their counts, samples and
 * share (percent) of their kind; into left[STACK_KINDS]. */
struct dd_left_out {
	size_t stacks;
	uint64_t count, samples;
	double share;
};
void dd_left_out(const struct detail *d, size_t per_kind, size_t all, struct dd_left_out *left);

/* "symbol+0x1f", or "0x7f12..." when the symbol is unknown; escaped. */
void dd_frame_text(const struct dd_frame *fr, char *buf, size_t size, bool utf8);
/* A function's name whatever the offset in it: its symbol, else where it is in its module
 * (dd_frame_place), else its address; escaped. */
void dd_frame_name(const struct dd_frame *fr, char *buf, size_t size, bool utf8);
/* The last component of a frame's module path, escaped. */
void dd_frame_module(const struct dd_frame *fr, char *buf, size_t size, bool utf8);
/* Where a frame is in its module: "sort+0x77b8" (the module's file name and the address
 * in it), the module alone when the address in it is unknown, "" for kernel frames;
 * escaped. */
void dd_frame_place(const struct dd_frame *fr, char *buf, size_t size, bool utf8);

#endif
