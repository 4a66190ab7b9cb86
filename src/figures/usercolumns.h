/* The table of totals per user (the users screen): each user a row, as smem -u sums its
 * processes, read through the table layer (table.h) as the processes and the slab caches
 * are. */
#ifndef MEMTOP_USERCOLUMNS_H
#define MEMTOP_USERCOLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "table.h"

/* The display order is the order of this enum. */
enum usercol_id {
	USERCOL_USER,
	USERCOL_NPROCS, /* COUNT */
	USERCOL_SWAP,
	USERCOL_USS,
	USERCOL_PSS,
	USERCOL_RSS,
	USERCOL_COUNT
};

/* A user's totals: the number columns' figures in v[] (sizes in KiB), num[] the same as
 * the table layer shows them */
struct user_total {
	uint32_t uid;
	const char *name; /* the snapshot's; raw, untrusted */
	uint64_t v[USERCOL_COUNT];
	double num[USERCOL_COUNT];
	size_t unread; /* of its processes, those whose PSS and USS could not be read */
};

extern const struct column user_columns[USERCOL_COUNT];

/* The row as the table layer reads it: every number column has a value */
static inline struct table_row user_row_view(const struct user_total *t)
{
	return (struct table_row){.sample = t,
				  .v = t->v,
				  .num = t->num,
				  .valid = TABLE_BIT(USERCOL_COUNT) - 1 - TABLE_BIT(USERCOL_USER),
				  .read = TABLE_BIT(USERCOL_COUNT) - 1 - TABLE_BIT(USERCOL_USER)};
}

#endif
