/* The slab screen (key B): every cache of /proc/slabinfo with its objects, size and
 * growth per minute, sorted by a column and filtered by name, on the table screen. */
#ifndef MEMTOP_SLAB_H
#define MEMTOP_SLAB_H

#include <stdbool.h>
#include <stddef.h>

#include "table_screen.h"

extern const struct table_kind slab_table;
/* The caches the screen shows (its filter's) */
size_t slab_shown(void);

#endif
