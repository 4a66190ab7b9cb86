/* The one table of process columns: every per-process figure memtop shows, prints or
 * sorts by is a row of columns[] (struct column, table.h). The screen, batch text, JSON
 * and sorting iterate it; adding a column touches this table and the one collector that
 * reads its value. .id and .text read a struct proc_sample. */
#ifndef MEMTOP_COLUMNS_H
#define MEMTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table.h"

/* The columns in their display order, each once: F(x) a column whose figure a process's
 * sample keeps (proc_sample.fig[PV_x]: a sample read as it is, or a rate's counter), N(x) one
 * whose value is made otherwise (.id, .text, a share, a growth). */
/* clang-format off */
#define MT_PROC_COLUMNS(F, N)                                                             \
	N(PID) N(PPID) N(USER)                                                            \
	F(RSS) F(VSZ) F(SHR) F(TXT) F(DATA) F(SWAP) N(USED) F(LOCKED)                    \
	F(PSS) F(USS) F(AHP) F(HUGETLB) F(OOM) N(MEM_PCT) N(GROW) N(GROW10)               \
	F(MINFLT) F(MAJFLT) F(SWAPIN) F(RECLAIM) N(COMM) N(CGROUP) N(CMD)

/* The display order is the order of this enum. */
enum col_id {
#define COL_ID_(x) COL_##x,
	MT_PROC_COLUMNS(COL_ID_, COL_ID_)
#undef COL_ID_
	COL_COUNT
};

/* A process's figures (proc_sample.fig[]): those of the columns kept in a sample, in the
 * columns' order; pv_of[c] is column c's (-1: none, its value is made otherwise) */
enum pv_id {
#define PV_ID_(x) PV_##x,
#define PV_NONE_(x)
	MT_PROC_COLUMNS(PV_ID_, PV_NONE_)
#undef PV_ID_
#undef PV_NONE_
	PV_COUNT
};
/* clang-format on */
extern const int8_t pv_of[COL_COUNT];

/* Which collector a column needs. */
enum col_need {
	NEED_STAT = 1 << 0,    /* /proc/PID/stat (always read) */
	NEED_STATM = 1 << 1,   /* /proc/PID/statm (always read) */
	NEED_STATUS = 1 << 2,  /* /proc/PID/status: only for rows shown */
	NEED_CMDLINE = 1 << 3, /* /proc/PID/cmdline: once per process */
	NEED_BPF_SWAPIN = 1 << 4,
	NEED_BPF_RECLAIM = 1 << 5,
	NEED_SMAPS = 1 << 6, /* /proc/PID/smaps_rollup: only for rows shown */
	NEED_OOM = 1 << 7,   /* /proc/PID/oom_score: only for rows shown */
	/* /proc/PID/cgroup: once per process, and again for the rows shown (src/proc/pids.c) */
	NEED_CGROUP = 1 << 8,
	/* the collectors read per row asked for, not for every process */
	NEED_COSTLY = NEED_STATUS | NEED_SMAPS | NEED_OOM,
	NEED_BPF = NEED_BPF_SWAPIN | NEED_BPF_RECLAIM,
};

extern const struct column columns[COL_COUNT];

/* A process's row (model.h) keeps only the numbers it computes: those of the numeric
 * columns that are not a sample (rates, shares, growths), column c's in its num[col_slot[c]]
 * (-1: a sampled or a text column); a sampled column's number is its sample's */
#define COL_NUMS 7
extern int8_t col_slot[COL_COUNT]; /* set before main */

/* The table layer's lookups (table.h) over columns[] */
static inline int column_by_name(const char *name)
{
	return table_col_by_name(columns, COL_COUNT, name);
}

/* A set of columns is a bit mask, 1u << col_id; they show in the table's order. */
#define COL_BIT(c) TABLE_BIT(c)
_Static_assert(COL_COUNT < 32, "column sets are 32-bit masks, the top bit COL_ALL_CGROUPS");

/* Not a column: in the columns wanted from a collector (model_wanted, pids_request), every
 * process's cgroup is read at each refresh, not only a new one's and the rows asked for:
 * a cgroup filter is set, which must see each process where it is now. */
#define COL_ALL_CGROUPS (1u << 31)

/* The CGROUP cell: the path with each container id (64 hex digits) cut to its first 12,
 * escaped, and where it is longer than width (> 0) its end, after "..". */
size_t cgroup_cell(const char *path, char *buf, size_t size, bool utf8, int width);

static inline unsigned columns_default(void)
{
	return table_default(columns, COL_COUNT);
}
static inline int columns_parse(const char *list, unsigned *set, char *err, size_t errlen)
{
	return table_parse(columns, COL_COUNT, list, set, err, errlen);
}

/* The columns in the order of their ranks (the lowest first, equal ranks in the table's
 * order), COMMAND last, into by */
void columns_ordered(const int8_t order[COL_COUNT], enum col_id by[COL_COUNT]);

/* The collectors (enum col_need) that the columns of set need. */
unsigned columns_needs(unsigned set);

/* The columns that the collectors in needs fill: those whose needs it covers. */
static inline unsigned columns_filled_by(unsigned needs)
{
	return table_with_need(columns, COL_COUNT, needs, true);
}

/* The columns that need any of the collectors in needs. */
static inline unsigned columns_with_need(unsigned needs)
{
	return table_with_need(columns, COL_COUNT, needs, false);
}

/* set with the columns read along with those of set: USED (RSS + swap) is known wherever
 * SWAP is, and needs it read */
unsigned columns_read_with(unsigned set);

/* A process's figures made of others, after its columns were read: USED where RSS and
 * SWAP are known (tried where SWAP was) */
struct proc_sample;
void columns_derive(struct proc_sample *p);

/* Whether JSON carries column c when set is shown: every column read for every process,
 * CGROUP (null where not read), and a costly one (read per row) when it is in set (USED:
 * or SWAP). */
bool column_in_json(int c, unsigned set);

#endif
