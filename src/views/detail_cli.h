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

/* "symbol+0x1f", or "0x7f12..." when the symbol is unknown; escaped. */
void dd_frame_text(const struct dd_frame *fr, char *buf, size_t size, bool utf8);
/* The last component of a frame's module path, escaped. */
void dd_frame_module(const struct dd_frame *fr, char *buf, size_t size, bool utf8);

#endif
