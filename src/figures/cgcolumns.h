/* The table of memory cgroup columns: every per-cgroup figure memtop shows, prints or sorts
 * by is a row of cg_columns[], as every per-process figure is a row of columns[]
 * (columns.h). The cgroup screen, batch text, JSON, sorting and the picker iterate it;
 * where each figure is read, per cgroup version, is the reader's table (cgroup_parse.c). */
#ifndef MEMTOP_CGCOLUMNS_H
#define MEMTOP_CGCOLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "table.h"

/* The display order is the order of this enum. */
enum cgcol_id {
	CGCOL_PATH,
	CGCOL_NAME,
	CGCOL_RUNTIME,
	CGCOL_USAGE,
	CGCOL_LIMIT,
	CGCOL_HIGH,
	CGCOL_LOW,
	CGCOL_MIN,
	CGCOL_USAGE_PCT,
	CGCOL_GROWTH,
	CGCOL_LIMIT_IN,
	CGCOL_VICTIM,
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

#define CGCOL_BIT(c) TABLE_BIT(c)
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

/* One column type for both tables (table.h); the older name of it */
#define cg_column column

/* .text reads a struct cg_sample; a share (KIND_SHARE) is of column .per, not of RAM */
extern const struct column cg_columns[CGCOL_COUNT];

/* The columns shown unless asked otherwise (table.h) */
static inline unsigned cg_columns_default(void)
{
	return table_default(cg_columns, CGCOL_COUNT);
}

/* The columns read without the costly files (CGNEED_COSTLY): the tree at its cheapest. */
static inline unsigned cg_columns_cheap(void)
{
	return ~table_with_need(cg_columns, CGCOL_COUNT, CGNEED_COSTLY, false) &
	       (CGCOL_BIT(CGCOL_COUNT) - 1);
}

/* The columns the forecasts read at every refresh, the cgroup view shown or not: a
 * cgroup's usage and limits (forecast.h), and the kernel's count of its OOM kills (an OOM
 * kill's post-mortem, oom_cgroup.h) */
static inline unsigned cg_columns_forecast(void)
{
	return CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT) | CGCOL_BIT(CGCOL_HIGH) |
	       CGCOL_BIT(CGCOL_OOM_KERNEL);
}

/* What named a cgroup, as JSON and OpenMetrics say it ("docker", "podman", "kubernetes",
 * "systemd"); NULL for CG_RT_NONE */
const char *cg_runtime_name(int runtime);

/* The cgroup c as one name shows it where a line names it (the verdict, an OOM kill's
 * banner and post-mortem): its name, or where nothing names it its path, shortened from
 * the middle to max bytes so that its end shows ("/kubepods.slice/...containerd-
 * 3f2a.scope"); raw, untrusted: escape it for a terminal. Returns strlen(buf). */
size_t cg_display_name(const char *name, const char *path, char *buf, size_t size, size_t max);

/* The columns that must be read for the columns of set to have values: set, and what a
 * share is made of. */
unsigned cg_columns_reads(unsigned set);

#endif
