/* The mouse on the main screen's process table (struct screen's mouse). */
#ifndef MEMTOP_MAIN_MOUSE_H
#define MEMTOP_MAIN_MOUSE_H

#include "screen.h"

/* A column title sorts by it (again: inverts), a row is selected, the wheel scrolls the
 * table; enum react bits */
unsigned main_mouse(struct ui *u, const struct mouse_hit *h);

#endif
