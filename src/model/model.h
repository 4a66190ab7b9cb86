/* The model: two snapshots make rates; filtering and sorting live here. Views read
 * only the model. */
#ifndef MEMTOP_MODEL_H
#define MEMTOP_MODEL_H

#include <stdbool.h>
#include <sys/types.h>

#include "account.h"
#include "columns.h"
#include "exited.h"
#include "forecast.h"
#include "prefs.h"
#include "slabmodel.h"
#include "snapshot.h"
#include "verdict.h"

struct row {
	const struct proc_sample *p;
	/* the numbers it computes (rates, shares, growths), column c's in num[col_slot[c]]
	 * (columns.h); a sampled column's is p's (row_number) */
	double num[COL_NUMS];
	/* seconds its /proc rates span where that is not the interval: a process seen the
	 * first time (on the first refresh, its life so far); 0 otherwise */
	double rate_since;
	/* tree view: depth below the row's root; whether it is its parent's last child
	 * shown; bit d of more: its ancestor at depth d + 1 has later siblings */
	uint16_t depth;
	bool last;
	bool folded; /* tree view: it has children, hidden (prefs' folds) */
	bool leak;   /* its RSS + swap grew steadily over the last ten minutes */
	uint64_t more;
};

struct sys_rates {
	double dt; /* seconds the system and BPF rates span; since boot on the first refresh */
	double dt_procs;     /* seconds the processes' /proc rates span (their own read times) */
	double vm[VS_COUNT]; /* each /proc/vmstat counter's (snapshot.vm), per second */
	struct reclaim_stats reclaim; /* BPF reclaim figures for this interval */
};

#define MODEL_OOM_HISTORY 64
#define OOM_BEFORE_TOP	  10
#define OOM_BEFORE_CURVE  61 /* the victim's RSS each second of the minute before */

/* What memtop saw at its last refresh before an OOM kill, from the history */
struct oom_before {
	/* the victim's short name (procname.h), from its command line where a refresh saw
	 * it; "": its comm's */
	char victim_name[PROC_NAME_SIZE];
	bool valid;   /* the history had a refresh before it */
	double mono;  /* that refresh's CLOCK_MONOTONIC time */
	double wall;  /* and its wall-clock time */
	double since; /* seconds from it to the kill */
	uint64_t mem_available_kb, swap_free_kb, swap_total_kb; /* total 0: no swap */
	struct oom_top {
		int32_t pid;
		char comm[MT_COMM_LEN + 1]; /* raw, untrusted */
		uint64_t rss_kb;
		double growth_kb_per_min; /* over the minute before (NAN: seen once only) */
	} top[OOM_BEFORE_TOP], grow[OOM_BEFORE_TOP]; /* by RSS, by growth */
	size_t ntop, ngrow;
	/* the victim's RSS at 1 s steps up to that refresh, NAN where not seen */
	float victim_rss_kb[OOM_BEFORE_CURVE];
	/* the limited memory cgroup the kill was in (oom_cgroup.h), NULL when it was not in
	 * one memtop followed (the root's, or a recording without cgroups); owned */
	struct oom_cgroup *cg;
};

struct sort_item;
struct history;

struct model {
	struct snapshot snap[2];
	int cur;	   /* index of the newest snapshot */
	int nsnaps;	   /* 0, 1 or 2 filled */
	struct row **rows; /* filtered, sorted: pointers into all */
	size_t nrows;
	size_t rows_cap;
	struct row *all; /* every process, with rates */
	size_t nall;
	size_t all_cap;
	struct sort_item *order, *order_tmp; /* sorting's room, kept between refreshes */
	size_t order_cap;
	struct sys_rates rates;
	const struct prefs *prefs;		/* columns, sort, order, tree, filter: the user's */
	struct mt_event oom[MODEL_OOM_HISTORY]; /* newest last */
	struct oom_before before[MODEL_OOM_HISTORY]; /* of each of oom */
	size_t noom;
	uint64_t oom_seen;    /* total kills ever added */
	uint64_t oom_live;    /* of those, seen live (not read from the kernel log) */
	struct history *hist; /* the last hour (history.h), made and filled by model_step */
	/* the processes that exited over the last minute (exited.h), oldest first */
	struct exited_list exited;
	/* the forecasts (forecast.h): when memory runs out, the next OOM victim, each limited
	 * cgroup's trend */
	struct forecasts fc;
	struct slab_model slab; /* the slab caches, while slabinfo is read */
	/* why memory is short (verdict.h): of the newest refresh and its cgroups, made by
	 * verdict_update once the cgroups are read (monitor_refresh) */
	struct verdict verdict;
	struct account acct; /* the memory account (account.h) */
};

/* The short name of the victim of kill k of m->oom: its command line's (oom_before), else
 * the kernel's comm; raw */
static inline const char *oom_victim_name(const struct model *m, size_t k)
{
	return m->before[k].victim_name[0] ? m->before[k].victim_name : m->oom[k].comm;
}

/* prefs stays the caller's, read at each update and refilter */
void model_init(struct model *m, const struct prefs *prefs);
void model_free(struct model *m);
/* Frees what b owns (its cgroup part) and clears it */
void oom_before_clear(struct oom_before *b);
/* The snapshot to fill next (cleared). Call model_update after filling it. */
struct snapshot *model_begin(struct model *m);
void model_update(struct model *m);
/* model_update without the rows' order: the newest snapshot's rates and events (its kills
 * in oom, before[] of each cleared). model_step runs it, then the figures over time, then
 * model_refilter. */
void model_rates(struct model *m);
/* After filling the snapshot model_begin gave: model_update with the figures over time
 * (growth.h: the history, the growth columns, the forecast, the kills' post-mortems).
 * What every refresh runs. */
void model_step(struct model *m);
/* Recomputes rows after a change of sort or filter, without new data. */
void model_refilter(struct model *m);
const struct snapshot *model_current(const struct model *m);
/* The same, for a source to add what it read late: the costly columns of rows that came
 * into view after the refresh. Call model_late_values after it. */
struct snapshot *model_current_mut(struct model *m);
/* The rows' sampled values again, after a source added some late; the order stays. */
void model_late_values(struct model *m);
const struct snapshot *model_previous(const struct model *m);

/* The shown columns and the sort column: those whose collectors must run */
unsigned model_wanted(const struct model *m);

/* The row as the table layer (table.h) reads it */
static inline struct table_row proc_row_view(const struct row *r)
{
	return (struct table_row){.sample = r->p,
				  .v = r->p->fig,
				  .vslot = pv_of,
				  .num = r->num,
				  .slot = col_slot,
				  .valid = r->p->valid,
				  .read = r->p->valid};
}

/* Value of a numeric column for a row; text columns give 0. */
static inline double row_number(const struct row *r, enum col_id c)
{
	const struct column *col = &columns[c];

	if (col->kind == KIND_SAMPLE)
		return (double)(col->id ? col->id(r->p) : r->p->fig[pv_of[c]]);
	return col_slot[c] >= 0 ? r->num[col_slot[c]] : 0;
}

/* Sets the number of a computed column (not a sample's) of a row */
static inline void row_set(struct row *r, enum col_id c, double x)
{
	r->num[col_slot[c]] = x;
}
/* Value of a text column for a row (raw, unescaped); NULL for numeric columns. */
static inline const char *row_text(const struct row *r, enum col_id c)
{
	return columns[c].text ? columns[c].text(r->p) : NULL;
}

/* RAM split as free(1) does: used = total - free - buffers - cache, where cache is
 * Cached + SReclaimable. */
struct mem_split {
	uint64_t used_kb;
	uint64_t buffers_kb;
	uint64_t cache_kb;
	uint64_t free_kb;
	uint64_t swap_used_kb;
};
void mem_split(const uint64_t mem[MI_COUNT], struct mem_split *out);

/* Counter rate helper: (now - then) / dt, 0 if the counter went backwards or dt <= 0. */
double counter_rate(uint64_t now, uint64_t then, double dt);

#endif
