/* The table of memory cgroup columns: every per-cgroup figure memtop shows, prints or sorts
 * by is a row of cg_columns[], as every per-process figure is a row of columns[]
 * (columns.h). The cgroup screen, batch text, JSON, sorting and the picker iterate it;
 * where each figure is read, per cgroup version, is the reader's table (cgroup_parse.c). */
#ifndef MEMTOP_CGCOLUMNS_H
#define MEMTOP_CGCOLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"

/* The display order is the order of this enum. */
enum cgcol_id {
	CGCOL_PATH,
	CGCOL_USAGE,
	CGCOL_LIMIT,
	CGCOL_HIGH,
	CGCOL_LOW,
	CGCOL_MIN,
	CGCOL_USAGE_PCT,
	CGCOL_ANON,
	CGCOL_FILE,
	CGCOL_KERNEL,
	CGCOL_SWAP,
	CGCOL_SWAP_LIMIT,
	CGCOL_NPROCS,
	CGCOL_OOM_KILLS,
	CGCOL_OOM_KERNEL,
	CGCOL_STALL,
	CGCOL_REFAULTS,
	CGCOL_PSI_SOME,
	CGCOL_PSI_FULL,
	CGCOL_COUNT
};

#define CGCOL_BIT(c) (1u << (c))
_Static_assert(CGCOL_COUNT <= 32, "cgroup column sets are 32-bit masks");

/* What a column's figure is read from. */
enum cg_need {
	CGNEED_LIST = 1 << 0, /* the listing of the tree itself */
	CGNEED_FILE = 1 << 1, /* a small file per cgroup: one value, or a few lines */
	CGNEED_STAT = 1 << 2, /* memory.stat */
	/* cgroup.procs: the kernel lists every task to give them (20 ms for 12,000 tasks on
	 * v1, of which memory.stat took 0.2 ms) */
	CGNEED_PROCS = 1 << 3,
	CGNEED_BPF_OOM = 1 << 4,     /* BPF oom/mark_victim, counted by cgroup */
	CGNEED_BPF_RECLAIM = 1 << 5, /* BPF reclaim stalls, by cgroup */
	/* read only while asked for */
	CGNEED_COSTLY = CGNEED_STAT | CGNEED_PROCS,
};

struct cg_column {
	const char *name;  /* for -o, --columns and the settings file of the cgroup view */
	const char *title; /* on screen and in batch text */
	const char *json;  /* JSON key: the name and the unit, as the process columns' */
	const char *desc;  /* for the help, the column picker and the sort menu */
	int width;	   /* 0: takes the rest of the line */
	enum col_unit unit;
	enum col_kind kind; /* KIND_SHARE: of column .per, not of RAM */
	unsigned needs;	    /* enum cg_need */
	bool ascending;	    /* natural sort direction */
	bool on;	    /* shown by default */
	int drop;	    /* on a narrow screen, higher numbers are hidden first; 0 never */
	double scale;	    /* the sample (or the rate) to shown units (0: 1) */
	bool since_start;   /* KIND_RATE: the counter starts at memtop's start (BPF) */
	const char *total;  /* KIND_RATE: JSON key of the counter itself */
	int of, per;	    /* KIND_SHARE: column of as a percentage of column per */
	/* OpenMetrics: the metric's name after "memtop_cgroup_", as the process columns'
	 * .metric (columns.h); NULL: not exported */
	const char *metric;
	bool counter;	  /* KIND_SAMPLE: a count that only grows */
	bool label;	  /* a label of each cgroup's metrics, named .name */
	const char *help; /* its # HELP text where .desc does not say it (a rate's counter) */
};

extern const struct cg_column cg_columns[CGCOL_COUNT];

/* Looks a column up by name ("usage") or title ("USAGE"), case-insensitively; -1 if none. */
int cg_column_by_name(const char *name);

/* The columns shown unless asked otherwise (.on). */
unsigned cg_columns_default(void);

/* The columns read without the costly files (CGNEED_COSTLY): the tree at its cheapest. */
unsigned cg_columns_cheap(void);

/* The columns that must be read for the columns of set to have values: set, and what a
 * share is made of. */
unsigned cg_columns_reads(unsigned set);

#endif
