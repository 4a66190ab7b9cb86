/* The history's insides, shared by history.c (the store: its tiers, a refresh recorded),
 * history_series.c (read back: series, a process's samples), history_trends.c (growth,
 * leak suspects, the forecast) and history_slab.c (the largest slab caches): not for other
 * files. */
#ifndef MEMTOP_HISTORY_IMPL_H
#define MEMTOP_HISTORY_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "history.h"
#include "snapshot.h"

#define NO_VALUE UINT32_MAX /* a process figure not read at that refresh */

struct tier_def {
	double step; /* seconds a slot's bucket spans; 0: one slot a refresh */
	size_t cap;
};

#define SYS_TIERS  2 /* every refresh, then 10 s steps */
#define PROC_TIERS 3 /* every refresh, 10 s steps, 1 min steps */

/* The times of one tier's slots: a ring, slot i of the n held at (head + i) % cap, the
 * newest last */
struct tier {
	double step;
	size_t cap, head, n, base; /* base: where its slots start in a record's array */
	double *mono, *wall;
	unsigned *count; /* refreshes averaged into each slot */
};

#define HISTORY_COLS_MAX 8 /* columns marked .history */

struct hproc { /* one a process: its fields ordered so no padding is between them */
	int32_t pid;
	char comm[MT_COMM_LEN + 1];
	uint64_t start_ticks;
	double first, last;		/* mono of its first and last sample */
	uint32_t first_rss, first_swap; /* at its first sample (NO_VALUE: not read) */
	/* by slot, then history column; NULL while every sample held is the same, same[]
	 * (most processes sleep for hours: they cost no slots) */
	uint32_t *v;
	uint32_t same[HISTORY_COLS_MAX]; /* its values at its last sample */
	double vchanged;		 /* mono of the last sample unlike the one before */
	/* the mono of the last sample whose RSS or swap was not the one before's, and that
	 * sample's: most processes stay the same size for minutes */
	double changed;
	uint32_t last_rss, last_swap;
	/* the last fit of history_growth_of over a minute and over ten that found the
	 * process flat over its whole window (at: its time; 0: none) */
	double flat_at[2];
};

/* A slab cache's sizes in the processes' tiers (history_slab.c) */
struct hslab {
	char name[64];
	double first, last; /* mono of its first and last sample */
	double out_for;	    /* seconds of slabinfo's refreshes it was not among the largest */
	bool top;	    /* among the largest at the last refresh that read slabinfo */
	uint32_t *v;	    /* by slot: KiB (NO_VALUE: not read) */
};

struct history {
	struct tier sys[SYS_TIERS], proc[PROC_TIERS];
	size_t nfig;
	bool *mean;  /* by figure: averaged over a slot's refreshes (rates), else the last */
	float *figs; /* by slot, then figure */
	int hcol[COL_COUNT];
	int nhcol;
	size_t proc_slots;
	struct hproc **procs; /* by pid */
	size_t nprocs, cap;
	struct hproc **next; /* room for the next refresh's list */
	size_t next_cap;
	struct hproc **cur; /* by index in the snapshot last recorded */
	size_t ncur, cur_cap;
	size_t slots_now[PROC_TIERS]; /* the processes' slots of the refresh last recorded */
	double now, before;	      /* its mono, and the one's before it (0: none) */
	double slab_at;		      /* mono of the last refresh that recorded slab caches */
	struct hslab *slabs;	      /* room for HISTORY_SLAB_MAX once one is kept */
	size_t nslabs;
};

/* The slot of the i-th oldest sample */
static inline size_t slot_of(const struct tier *t, size_t i)
{
	return t->base + (t->head + i) % t->cap;
}

/* The index (0 oldest) of the newest sample at or before time t; -1 if none */
static inline long tier_at_or_before(const struct tier *t, double time)
{
	long lo = 0, hi = (long)t->n - 1, found = -1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;
		if (t->mono[(t->head + (size_t)mid) % t->cap] <= time) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

static inline double tier_time(const struct tier *t, size_t i)
{
	return t->mono[(t->head + i) % t->cap];
}

/* The finest tier of n whose oldest sample is at or before time, else the coarsest */
static inline const struct tier *tier_for(const struct tier *tiers, size_t n, double time)
{
	for (size_t k = 0; k < n; k++)
		if (tiers[k].n && tier_time(&tiers[k], 0) <= time)
			return &tiers[k];
	return &tiers[n - 1];
}

/* The slot and time of the processes' sample at or before time, for a record seen from
 * first to last; false where it has none */
static inline bool proc_slot_at(const struct history *h, double first, double last, double time,
				size_t *slot, double *at)
{
	if (time > last)
		time = last;
	const struct tier *t = tier_for(h->proc, PROC_TIERS, time);
	long k = tier_at_or_before(t, time);
	if (k < 0 || tier_time(t, (size_t)k) < first)
		return false;
	*slot = slot_of(t, (size_t)k);
	*at = tier_time(t, (size_t)k);
	return true;
}

/* q's values (the history's columns) in the processes' slot slot, held at or after its
 * first sample */
static inline const uint32_t *hproc_row(const struct history *h, const struct hproc *q, size_t slot)
{
	return q->v ? q->v + slot * (size_t)h->nhcol : q->same;
}

/* A value in a processes' slot, for history_points; false where it has none */
typedef bool (*slot_value_fn)(const struct history *h, const void *arg, size_t slot, double *v);

/* The points of a record seen since first over [from, to], every sample held: the finest
 * tier's, then each coarser tier's older than those; times relative to to (<= 0), newest
 * first; returns how many, at most max */
size_t history_points(const struct history *h, double first, slot_value_fn value, const void *arg,
		      double from, double to, double *t, double *v, size_t max);

/* The least-squares slope of those points, KiB a minute: false unless GROWTH_MIN_SAMPLES
 * of them over GROWTH_MIN_SPAN seconds or more */
bool history_fit(const struct history *h, double first, slot_value_fn value, const void *arg,
		 double from, double to, double *kb_per_min);

/* The time of point i of n evenly spaced from t0 to t1 (the last at t1) */
static inline double series_time(double t0, double t1, size_t i, size_t n)
{
	return n > 1 ? t0 + (t1 - t0) * (double)i / (double)(n - 1) : t1;
}

/* The record of process pid started at start_ticks; NULL if none */
const struct hproc *history_find(const struct history *h, int32_t pid, uint64_t start);
/* Column i (of the history's) of q in the sample at or before time: its slot's value and
 * time; false where it has none */
bool history_proc_at(const struct history *h, const struct hproc *q, int i, double time,
		     uint32_t *v, double *at);

#endif
