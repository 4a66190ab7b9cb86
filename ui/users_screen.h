/* The users screen (key U): a row per user with its processes' count, swap, USS, PSS and
 * RSS summed as smem -u sums them, sorted by a column and filtered by name, on the table
 * screen; Enter shows the user's processes. */
#ifndef MEMTOP_USERS_SCREEN_H
#define MEMTOP_USERS_SCREEN_H

#include <stdbool.h>

#include "table_screen.h"

extern const struct table_kind users_table;

#endif
