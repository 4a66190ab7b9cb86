/* What OpenMetrics needs from the model: each table row's metric (its type, base unit and
 * the factor to it, from the row's unit: KiB are _bytes times 1024, a count that only
 * grows is a counter, _total), the bounded set of processes exported, OOM kills counted by
 * victim since memtop started, and label values escaped. The view, src/views/openmetrics.c,
 * writes them; it never names a metric by hand where a table row has one. */
#ifndef MEMTOP_METRIC_H
#define MEMTOP_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cgcolumns.h"
#include "columns.h"
#include "metric_carry.h"
#include "model.h"
#include "sysfig.h"

#define METRIC_PREFIX	      "memtop_"
#define METRIC_PROCESS_PREFIX "memtop_process_"
#define METRIC_CGROUP_PREFIX  "memtop_cgroup_"
#define METRIC_GROUP_PREFIX   "memtop_group_"
#define METRIC_TOP_DEFAULT    20
#define METRIC_TOP_MAX	      100000

enum metric_type { METRIC_NONE, METRIC_GAUGE, METRIC_COUNTER };

struct metric {
	enum metric_type type;
	const char *unit; /* "bytes", "seconds", "ratio"; NULL: none */
	double factor;	  /* the table's value (or counter) times this is in the unit */
};

/* A column's metric (a process's or a cgroup's): KIND_SAMPLE numbers are gauges (or
 * counters, .counter), KIND_RATE columns their counter (.total); none for text, shares,
 * growth, or without .metric */
struct metric metric_of_column(const struct column *c);
/* A system figure's: its .total where it has one (a counter), else its value; none for a
 * rate without .total, or without .metric */
struct metric metric_of_figure(const struct sys_figure *f);

/* The full name: prefix, name, "_" unit, and "_total" for a counter unless family (the
 * OpenMetrics family of a counter has no _total). Returns its length. */
size_t metric_name(char *buf, size_t size, const char *prefix, const char *name,
		   const struct metric *mt, bool family);

/* A label value as the text format quotes it (without the quotes): backslash, double
 * quote and newline escaped as it says, and the other control characters (C0, DEL, C1)
 * and bytes that are not UTF-8 as the text \xNN, and the characters that draw nothing yet
 * change how the text around them reads as the text \u202e (char_invisible; the
 * backslash of both escaped), so that any name a process gives itself is one valid label
 * value that shows what it holds, as the other outputs do. out holds metric_label_max(s) bytes;
 * returns the length (no NUL). */
size_t metric_label(const char *s, char *out);
static inline size_t metric_label_max(const char *s)
{
	return 5 * strlen(s ? s : "");
}

/* A number as the text format writes it: integers exactly, +Inf, -Inf, NaN, others in the
 * fewest digits that read back as the same double */
size_t metric_number(double v, char *buf, size_t size);
/* v in a metric's unit: times factor, or where factor is 1/N for a whole N (0.01, 1e-3,
 * 1e-6, 1e-9) divided by N, which is exact where the product with the inexact factor is
 * not (645551 microseconds are 0.645551 s, not 0.64555100000000007) */
double metric_scale(double v, double factor);

/* The processes exported: the union of the top `top` rows by each of RSS, fault rate
 * (minor and major), swap-in rate and reclaim stall in the last interval (of a rate,
 * those above 0), in order of RSS: at most 4 x top. out holds m->nrows pointers; returns
 * how many. */
size_t metric_select(const struct model *m, size_t top, const struct row **out);

/* The exporter's own figures (--serve), as of the refresh that the exposition is of */
enum export_code { EXPORT_200, EXPORT_401, EXPORT_404, EXPORT_405, EXPORT_503, EXPORT_CODES };
struct export_stats {
	double refresh_s;		 /* the last refresh's: the sources read, the model */
	uint64_t requests[EXPORT_CODES]; /* answered, by status */
	uint64_t errors;		 /* requests ended before their answer was sent */
	uint64_t gzip;			 /* answers sent gzipped */
};
extern const unsigned export_code_status[EXPORT_CODES];

/* OOM kills since memtop started (those seen live), counted by victim comm and memory
 * cgroup; at most METRIC_OOM_KEYS pairs, the kills of any later pair counted under
 * comm and cgroup "other" */
#define METRIC_OOM_KEYS 256
struct metric_oom {
	char comm[MT_COMM_LEN + 1];
	char memcg[128];
	uint64_t kills;
};
struct metric_ooms {
	struct metric_oom *e;
	size_t n, cap;
	uint64_t seen; /* m->oom_seen when last counted */
};
/* Counts the model's kills added since the last call */
void metric_ooms_update(struct metric_ooms *o, const struct model *m);
void metric_ooms_free(struct metric_ooms *o);

#endif
