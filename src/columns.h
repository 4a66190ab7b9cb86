/* The one table of process columns. A column names the collector it needs, so that
 * costly reads happen only for what is shown; adding a column touches this table
 * and one collector. */
#ifndef MEMTOP_COLUMNS_H
#define MEMTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

enum col_id {
	COL_PID,
	COL_PPID,
	COL_USER,
	COL_RSS,
	COL_VSZ,
	COL_SHR,
	COL_TXT,
	COL_DATA,
	COL_SWAP,
	COL_PSS,
	COL_USS,
	COL_OOM,
	COL_MEM_PCT,
	COL_MINFLT,
	COL_MAJFLT,
	COL_SWAPIN,
	COL_RECLAIM,
	COL_COMM,
	COL_CMD,
	COL_COUNT
};

enum col_unit {
	UNIT_ID, /* an integer shown as is */
	UNIT_TEXT,
	UNIT_KB, /* KiB, shown in human units */
	UNIT_PCT,
	UNIT_RATE,    /* per second */
	UNIT_US_RATE, /* microseconds per second */
};

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
	/* the collectors read per row asked for, not for every process */
	NEED_COSTLY = NEED_STATUS | NEED_SMAPS | NEED_OOM,
};

struct column {
	const char *name; /* for -o and JSON-style keys */
	const char *title;
	int width; /* 0: takes the rest of the line */
	enum col_unit unit;
	unsigned needs;
	bool ascending; /* natural sort direction */
	int drop;	/* on a narrow screen, higher numbers are hidden first; 0 never */
	const char *desc;
};

extern const struct column columns[COL_COUNT];

/* Looks a column up by name ("rss") or title ("RSS"), case-insensitively; -1 if none. */
int column_by_name(const char *name);

/* A set of columns is a bit mask, 1u << col_id; they show in the table's order. */
#define COL_BIT(c) (1u << (c))
_Static_assert(COL_COUNT <= 32, "column sets are 32-bit masks");

/* The columns shown unless asked otherwise. */
unsigned columns_default(void);

/* Parses a comma-separated list of column names: "pid,rss,pss,cmd" is that set, "+pss,uss"
 * adds to the default set, "-txt" removes from it. Returns 0, or -1 with a one-line
 * reason in err. */
int columns_parse(const char *list, unsigned *set, char *err, size_t errlen);

/* The collectors (enum col_need) that the columns of set need. */
unsigned columns_needs(unsigned set);

#endif
