/* The help screen: every screen's keys, from their binding tables, then the columns. */
#ifndef MEMTOP_HELP_H
#define MEMTOP_HELP_H

#include "screen.h"

/* Shows the help from its first line; any key but the scrolling ones returns to the screen
 * shown now */
void help_open(struct ui *u);
/* The screen the help returns to (while it is shown) */
enum screen_id help_back(const struct ui *u);
/* Whether screen id is shown, or the help from it: what it reads is wanted (the slab
 * caches, the users' PSS, the memory account's files) */
bool screen_wanted(const struct ui *u, enum screen_id id);

#endif
