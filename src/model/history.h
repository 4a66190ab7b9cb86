/* The last hour in memory: the system figures of the sys_figures table and, for each
 * process, the columns of the column table marked .history (RSS, swap and fault
 * counters), at the refresh interval for the newest samples and thinned for older ones
 * (history.c says how, and what it costs). Part of the model: model_update records each
 * refresh and fills the growth columns from it; views ask it for series to draw. */
#ifndef MEMTOP_HISTORY_H
#define MEMTOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct history;
struct snapshot;

/* A history of nfig system figures, mean[f] saying whether figure f is averaged over the
 * refreshes of a thinned sample (a rate) or the last one kept */
struct history *history_new(size_t nfig, const bool *mean);
void history_free(struct history *h);

/* Records a refresh: the values of its system figures (NAN: not valid), and the history
 * columns of every process of s (by pid). A process gone for longer than
 * HISTORY_KEEP_GONE seconds is forgotten. */
void history_record(struct history *h, const struct snapshot *s, const double *figs);

#define HISTORY_KEEP_GONE 120.0

/* Bytes it holds, and what one process-sample costs */
size_t history_bytes(const struct history *h);
size_t history_bytes_per_proc_sample(void);

/* CLOCK_MONOTONIC seconds of its oldest and newest samples (0 and 0 when empty) */
double history_oldest(const struct history *h);
double history_newest(const struct history *h);
/* Wall-clock seconds of the newest sample at or before mono time t, for labels */
double history_wall_at(const struct history *h, double t);

/* A series to draw: n points from time t0 to t1 (CLOCK_MONOTONIC, evenly spaced, the
 * last at t1); each the value of the newest sample at or before that time, NAN where
 * there is none. Returns how many points have a value. */
/* System figure f (an index into sys_figures) */
size_t history_sys_series(const struct history *h, size_t f, double t0, double t1, double *out,
			  size_t n);
/* Column c (one with .history) of process pid started at start_ticks: for a sampled
 * column its value, for a counter (KIND_RATE) its rate per second between samples (the
 * column's .scale applied) */
size_t history_proc_series(const struct history *h, int32_t pid, uint64_t start_ticks, int c,
			   double t0, double t1, double *out, size_t n);

/* RSS + swap growth of a process in KiB per minute: the least-squares slope of every
 * sample held over span seconds up to its last sample at or before at_most (INFINITY: its
 * newest); false unless there are GROWTH_MIN_SAMPLES of them over GROWTH_MIN_SPAN seconds
 * or more (a process seen for less has no growth). *leak (when not NULL): it grew steadily
 * over the ten minutes up to then (history_trends.c says how). */
#define GROWTH_MIN_SAMPLES 5
#define GROWTH_MIN_SPAN	   30.0
bool history_growth(const struct history *h, int32_t pid, uint64_t start_ticks, double at_most,
		    double span, double *kb_per_min, bool *leak);

/* The same for the process at index i of the snapshot last recorded, faster: the model's
 * rows */
bool history_growth_of(struct history *h, size_t i, double span, double *kb_per_min, bool *leak);

/* The largest slab caches' sizes over the hour, in the processes' tiers, while slabinfo
 * is read (history_slab.c): a cache is kept from when it is among the HISTORY_SLAB_TOP
 * largest until it has not been for HISTORY_SLAB_OUT seconds of refreshes that read
 * slabinfo (or it has no sample in the hour); HISTORY_SLAB_MAX at most, the one out the
 * longest making room. */
#define HISTORY_SLAB_TOP 16
#define HISTORY_SLAB_MAX 32
#define HISTORY_SLAB_OUT 600.0

struct history_slab {
	const char *name;
	uint64_t kb;
};
/* The caches read at the refresh last recorded (after history_record), their sizes */
void history_record_slabs(struct history *h, const struct history_slab *c, size_t n);
/* The caches kept: how many, and the name of the i-th */
size_t history_slab_count(const struct history *h);
const char *history_slab_name(const struct history *h, size_t i);
/* The cache's size (KiB) as history_sys_series gives a figure; 0 where it is not kept */
size_t history_slab_series(const struct history *h, const char *name, double t0, double t1,
			   double *out, size_t n);
/* Its samples (KiB) over [from, to], times relative to to, newest first; at most max */
size_t history_slab_points(const struct history *h, const char *name, double from, double to,
			   double *t, double *kb, size_t max);
/* Its growth in KiB per minute as history_growth's, up to its last sample */
bool history_slab_growth(const struct history *h, const char *name, double span,
			 double *kb_per_min);

/* The processes of the newest sample at or before mono time t (their pid, start, comm,
 * RSS and swap), for the OOM post-mortem; calls fn for each, returns the sample's mono
 * time, or 0 if none. */
struct history_proc {
	int32_t pid;
	uint64_t start_ticks;
	const char *comm;
	uint64_t rss_kb;
	uint64_t swap_kb;
};
double history_procs_at(const struct history *h, double t,
			void (*fn)(void *arg, const struct history_proc *p), void *arg);

/* The forecast's arithmetic: the least-squares slope of v (KiB) over times t (seconds), of
 * the n points; *ok false when they span under min_span seconds or are fewer than 3. */
double history_slope(const double *t, const double *v, size_t n, double min_span, bool *ok);

/* The points the machine's forecast fits (forecast.h): the values of figure fa plus
 * figure fs (MemAvailable + SwapFree, KiB; fs out of range: none) at every refresh of the
 * last window seconds, newest first, their times in t relative to the newest (<= 0);
 * returns how many, at most max */
size_t history_room_points(const struct history *h, double window, size_t fa, size_t fs, double *t,
			   double *v, size_t max);

#endif
