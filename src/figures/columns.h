/* The one table of process columns: every per-process figure memtop shows, prints or
 * sorts by is a row of columns[]. The screen, batch text, JSON and sorting iterate it;
 * adding a column touches this table and the one collector that reads its value. */
#ifndef MEMTOP_COLUMNS_H
#define MEMTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The display order is the order of this enum. */
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
	COL_LOCKED,
	COL_PSS,
	COL_USS,
	COL_OOM,
	COL_MEM_PCT,
	COL_GROW,
	COL_GROW10,
	COL_MINFLT,
	COL_MAJFLT,
	COL_SWAPIN,
	COL_RECLAIM,
	COL_COMM,
	COL_CGROUP,
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
	UNIT_KB_MIN,  /* KiB per minute, signed */
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
	/* /proc/PID/cgroup: once per process, and again for the rows shown (src/pids.c) */
	NEED_CGROUP = 1 << 8,
	/* the collectors read per row asked for, not for every process */
	NEED_COSTLY = NEED_STATUS | NEED_SMAPS | NEED_OOM,
	NEED_BPF = NEED_BPF_SWAPIN | NEED_BPF_RECLAIM,
};

/* How a row's value is made from the samples. */
enum col_kind {
	KIND_SAMPLE, /* the sampled value, proc_sample.v[col] (or .id() where set) */
	KIND_TEXT,   /* text from .text() */
	KIND_RATE,   /* per second of the cumulative counter proc_sample.v[col], times .scale */
	KIND_SHARE,  /* percentage of RAM that column .of takes */
	KIND_GROWTH, /* RSS + swap growth over the last .span seconds, from the history */
};

struct proc_sample;

struct column {
	const char *name;  /* for -o, --columns and the settings file */
	const char *title; /* on screen and in batch text */
	const char *json;  /* JSON key: the name and the unit, see json_key rule in README */
	const char *desc;  /* for the help, the column picker and the sort menu */
	int width;	   /* 0: takes the rest of the line */
	enum col_unit unit;
	enum col_kind kind;
	unsigned needs;	   /* enum col_need */
	bool ascending;	   /* natural sort direction */
	bool on;	   /* shown by default */
	int drop;	   /* on a narrow screen, higher numbers are hidden first; 0 never */
	double scale;	   /* KIND_RATE: counter units to shown units (0: 1) */
	bool since_start;  /* KIND_RATE: the counter starts at memtop's start, not the process's */
	const char *total; /* KIND_RATE: JSON key of the counter itself (rates need two reads) */
	int of;		   /* KIND_SHARE: the column whose share of RAM this is */
	double span;	   /* KIND_GROWTH: seconds it looks back */
	bool history;	   /* kept in the history of the last hour (src/history.h) */
	uint64_t (*id)(const struct proc_sample *p);	  /* KIND_SAMPLE kept out of v[] */
	const char *(*text)(const struct proc_sample *p); /* KIND_TEXT, raw and untrusted */
	/* KIND_TEXT: the text as a cell of width (screen, batch) shows it, escaped, into buf;
	 * returns its length. NULL: the whole text, escaped. */
	size_t (*cell)(const char *text, char *buf, size_t size, bool utf8, int width);
	/* OpenMetrics (ui/openmetrics.c): the metric's name after "memtop_process_", without
	 * its unit and _total, which come from .unit, .kind and .scale (src/metric.h); a
	 * KIND_RATE column exports its counter (.total), not the rate. NULL: not exported */
	const char *metric;
	bool counter;	  /* KIND_SAMPLE: a count that only grows */
	bool label;	  /* a label of each process's metrics, named .name */
	const char *help; /* its # HELP text where .desc does not say it (a rate's counter) */
};

extern const struct column columns[COL_COUNT];

/* Looks a column up by name ("rss") or title ("RSS"), case-insensitively; -1 if none. */
int column_by_name(const char *name);

/* A set of columns is a bit mask, 1u << col_id; they show in the table's order. */
#define COL_BIT(c) (1u << (c))
_Static_assert(COL_COUNT < 32, "column sets are 32-bit masks, the top bit COL_ALL_CGROUPS");

/* Not a column: in the columns wanted from a collector (model_wanted, pids_request), every
 * process's cgroup is read at each refresh, not only a new one's and the rows asked for:
 * a cgroup filter is set, which must see each process where it is now. */
#define COL_ALL_CGROUPS (1u << 31)

/* The CGROUP cell: the path with each container id (64 hex digits) cut to its first 12,
 * escaped, and where it is longer than width (> 0) its end, after "..". */
size_t cgroup_cell(const char *path, char *buf, size_t size, bool utf8, int width);

/* The columns shown unless asked otherwise (.on). */
unsigned columns_default(void);

/* Parses a comma-separated list of column names: "pid,rss,pss,cmd" is that set, "+pss,uss"
 * adds to the default set, "-txt" removes from it. Returns 0, or -1 with a one-line
 * reason in err. */
int columns_parse(const char *list, unsigned *set, char *err, size_t errlen);

/* The collectors (enum col_need) that the columns of set need. */
unsigned columns_needs(unsigned set);

/* The columns that the collectors in needs fill: those whose needs it covers. */
unsigned columns_filled_by(unsigned needs);

/* The columns that need any of the collectors in needs. */
unsigned columns_with_need(unsigned needs);

/* Whether JSON carries column c when set is shown: every column read for every process,
 * and a costly one (read per row) or CGROUP when it is in set. */
bool column_in_json(int c, unsigned set);

#endif
