/* The table of slab cache columns (the slab screen, --slab's batch table and JSON
 * slabs[]): each cache of /proc/slabinfo a row, read through the table layer (table.h) as
 * the processes and the cgroups are. */
#ifndef MEMTOP_SLABCOLUMNS_H
#define MEMTOP_SLABCOLUMNS_H

#include "table.h"

/* The display order is the order of this enum. */
enum slabcol_id {
	SLABCOL_NAME,
	SLABCOL_ACTIVE,
	SLABCOL_OBJS,
	SLABCOL_OBJSIZE,
	SLABCOL_SIZE,
	SLABCOL_GROWTH,
	SLABCOL_GROWTH10,
	SLABCOL_RECLAIM,
	SLABCOL_COUNT
};

extern const struct column slab_columns[SLABCOL_COUNT];

/* A cache's RECLAIM text: "yes", "no", or "?" where sysfs does not say */
const char *slab_reclaim_text(int reclaim);

#endif
