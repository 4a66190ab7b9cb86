/* The table of process groups (--groups): each group a row, the sums over its member
 * processes, read through the table layer (table.h) as the processes and the users are.
 * OpenMetrics exports each number column as memtop_group_<metric>{groupname="..."}. */
#ifndef MEMTOP_GROUPCOLUMNS_H
#define MEMTOP_GROUPCOLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "table.h"

enum groupcol_id {
	GROUPCOL_NAME,
	GROUPCOL_PROCS,
	GROUPCOL_RSS,
	GROUPCOL_SWAP,
	GROUPCOL_PSS,
	GROUPCOL_MINFLT, /* counters from here on: kept across members' exits */
	GROUPCOL_MAJFLT,
	GROUPCOL_SWAPIN,
	GROUPCOL_RECLAIM,
	GROUPCOL_OOMS,
	GROUPCOL_COUNT
};

/* The first column that is a counter summed over the members (OOMS is counted apart) */
#define GROUPCOL_FIRST_COUNTER GROUPCOL_MINFLT
#define GROUPCOL_COUNTERS      (GROUPCOL_OOMS - GROUPCOL_FIRST_COUNTER)

/* A group's figures: v[] by column (sizes in KiB, counters as the process columns count
 * them: faults, pages swapped in, nanoseconds stalled), read: the columns read into v;
 * num[] the rates of the counters per second over the last interval as the table layer
 * shows them, valid: the columns with a value (a rate from the second refresh on) */
struct group_total {
	char *name; /* raw, untrusted: made of processes' names */
	uint64_t v[GROUPCOL_COUNT];
	uint64_t prev[GROUPCOL_COUNT]; /* v at the refresh before */
	double num[GROUPCOL_COUNT];
	unsigned read, valid;
	unsigned prev_read; /* read at the refresh before */
};

extern const struct column group_columns[GROUPCOL_COUNT];

static inline struct table_row group_row_view(const struct group_total *g)
{
	return (struct table_row){
		.sample = g, .v = g->v, .num = g->num, .valid = g->valid, .read = g->read};
}

#endif
