/* The table layer: a table is an array of column descriptors (struct column) and rows
 * read through one view (struct table_row). The process table (columns.h) and the cgroup
 * table (cgcolumns.h) are two such arrays; the cells, sorting, JSON, batch text and
 * OpenMetrics iterate either the same way. */
#ifndef MEMTOP_TABLE_H
#define MEMTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum col_unit {
	UNIT_ID, /* an integer shown as is */
	UNIT_TEXT,
	UNIT_KB, /* KiB, shown in human units */
	UNIT_PCT,
	UNIT_RATE,    /* per second */
	UNIT_US_RATE, /* microseconds per second */
	UNIT_KB_MIN,  /* KiB per minute, signed */
	UNIT_SECS,    /* a duration, seconds */
};

/* How a row's value is made from the samples. */
enum col_kind {
	KIND_SAMPLE, /* the sampled value (table_figure, or .id() where set), times .scale */
	KIND_TEXT,   /* text from .text() */
	KIND_RATE,   /* per second of the cumulative counter, its figure, times .scale */
	KIND_SHARE,  /* percentage that column .of is of column .per (processes: of RAM) */
	KIND_GROWTH, /* RSS + swap growth over the last .span seconds, from the history */
};

/* A column of a table. The sample that .id and .text read is the table's: a process's
 * struct proc_sample, a cgroup's struct cg_sample (snapshot.h). */
struct column {
	const char *name;  /* for -o, --columns and the settings file */
	const char *title; /* on screen and in batch text */
	const char *json;  /* JSON key: the name and the unit, the rule of doc/json.md */
	const char *desc;  /* for the help, the column picker and the sort menu */
	int width;	   /* 0: takes the rest of the line */
	enum col_unit unit;
	enum col_kind kind;
	unsigned needs; /* the table's collectors: enum col_need, enum cg_need */
	bool ascending; /* natural sort direction */
	bool on;	/* shown by default */
	/* its priority on a narrow screen: the higher, the sooner it is hidden; 0 never */
	int drop;
	int min;	   /* the narrowest it may be drawn, before it is hidden (0: width) */
	int idle_drop;	   /* its priority while it reads zero on every row (0: .drop) */
	double scale;	   /* the sample (or the rate) to shown units (0: 1) */
	bool since_start;  /* KIND_RATE: the counter starts at memtop's start, not the row's */
	const char *total; /* KIND_RATE: JSON key of the counter itself (rates need two reads) */
	int of, per;	   /* KIND_SHARE: the column that is a share (of column per, or RAM) */
	double span;	   /* KIND_GROWTH: seconds it looks back */
	bool history;	   /* kept in the history of the last hour (src/model/history.h) */
	uint64_t (*id)(const void *sample);	 /* KIND_SAMPLE kept out of the figures */
	const char *(*text)(const void *sample); /* KIND_TEXT, raw and untrusted */
	/* KIND_TEXT: the text as a cell of width (screen, batch) shows it, escaped, into buf;
	 * returns its length. NULL: the whole text, escaped. */
	size_t (*cell)(const char *text, char *buf, size_t size, bool utf8, int width);
	/* OpenMetrics (openmetrics.c): the metric's name after "memtop_process_" or
	 * "memtop_cgroup_", without its unit and _total, which come from .unit, .kind and
	 * .scale (metric.h); a KIND_RATE column exports its counter (.total), not the rate.
	 * NULL: not exported */
	const char *metric;
	bool counter;	  /* KIND_SAMPLE: a count that only grows */
	bool label;	  /* a label of each row's metrics, named .name */
	const char *help; /* its # HELP text where .desc does not say it (a rate's counter) */
};

/* A row's three names: for -o and the settings file, on screen, the JSON key */
#define COLUMN(n, t, j) .name = (n), .title = (t), .json = (j)
/* The fields of a column of sizes in KiB, read as they are: its width and collector */
#define KB_SAMPLE(w, need) .width = (w), .unit = UNIT_KB, .kind = KIND_SAMPLE, .needs = (need)

/* A set of a table's columns is a bit mask, 1u << column */
#define TABLE_BIT(c) (1u << (c))

/* One row of a table as the table layer reads it */
struct table_row {
	const void *sample; /* what .text and .id read */
	/* the sample's figures (a rate's counter): column c's in v[c], or where vslot is set
	 * (a sample that keeps only some columns' figures) in v[vslot[c]] (table_figure) */
	const uint64_t *v;
	const int8_t *vslot;
	/* each numeric column's value in shown units: num[c], or where slot is set (a row that
	 * keeps only the numbers it computes) num[slot[c]], a sampled column's being its
	 * sample's (table_number) */
	const double *num;
	const int8_t *slot;
	unsigned valid;	    /* the columns with a value */
	unsigned read;	    /* the columns read into v */
	unsigned unlimited; /* of the sampled columns, those whose value is "max" (no limit) */
};

/* The raw text of a text column; NULL for the others or where there is none */
static inline const char *table_text(const struct column *col, const struct table_row *r)
{
	return col->text ? col->text(r->sample) : NULL;
}

/* The figure a row's sample keeps for column c (a sample or a rate's counter) */
static inline uint64_t table_figure(const struct table_row *r, int c)
{
	return r->v[r->vslot ? r->vslot[c] : c];
}

/* A sampled column's exact integer: .id() or its figure */
static inline uint64_t table_sample(const struct column *cols, int c, const struct table_row *r)
{
	return cols[c].id ? cols[c].id(r->sample) : table_figure(r, c);
}

/* A numeric column's value in shown units */
static inline double table_number(const struct column *cols, int c, const struct table_row *r)
{
	if (!r->slot)
		return r->num[c];
	if (cols[c].kind == KIND_SAMPLE)
		return (double)table_sample(cols, c, r);
	return r->slot[c] >= 0 ? r->num[r->slot[c]] : 0;
}

/* A limit of "max": no value for JSON and OpenMetrics, "max" in a cell */
static inline bool table_unlimited(const struct column *cols, int c, const struct table_row *r)
{
	return cols[c].kind == KIND_SAMPLE && (r->unlimited & TABLE_BIT(c));
}

/* Looks a column up by name ("rss") or title ("RSS"), case-insensitively; -1 if none. */
int table_col_by_name(const struct column *cols, int n, const char *name);

/* The columns shown unless asked otherwise (.on). */
unsigned table_default(const struct column *cols, int n);

/* The columns whose needs have any of the bits of needs (all: every bit of theirs is in
 * needs) */
unsigned table_with_need(const struct column *cols, int n, unsigned needs, bool all);

/* Parses a comma-separated list of column names: "pid,rss,pss,cmd" is that set, "+pss,uss"
 * adds to the default set, "-txt" removes from it. Returns 0, or -1 with a one-line
 * reason in err. */
int table_parse(const struct column *cols, int n, const char *list, unsigned *set, char *err,
		size_t errlen);

#endif
