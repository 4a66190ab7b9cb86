/* The forecasts (forecast.c): when the machine's MemAvailable + SwapFree runs out, when
 * each memory cgroup with a limit reaches it, the process an OOM kill would take in each,
 * and which of them runs out first, the one the header names. Part of the model: growth.c
 * runs it at each refresh, after the history is recorded.
 *
 * The rules (doc/forecasts.md): the room left (the machine's MemAvailable + SwapFree, a
 * cgroup's limit less its usage) is fitted by least squares over the last FC_WINDOW
 * seconds, at least FC_MIN_SAMPLES samples over FC_MIN_SPAN seconds, cut at the newest
 * step or change of slope in it (then FC_STEP_MIN_SAMPLES over FC_STEP_MIN_SPAN); where
 * the last FC_RECENT seconds' fit differs by more than a tenth, the trend changed and
 * that one is used. A forecast ends when the room rises at a step by more than its trend
 * would have taken (a kill, an exit), and a cgroup's when it has no process or an OOM
 * kill. A forecast is made while both fits shrink the room and it runs out within the
 * hour; while they do not, the last one is kept with its age for FC_HOLD_S seconds, then
 * the line says "steady" (or "shrinking" when slower than that) for FC_STEADY_S seconds
 * more, then goes. */
#ifndef MEMTOP_FORECAST_H
#define MEMTOP_FORECAST_H

#include <stdbool.h>
#include <stdint.h>

#include "procname.h"
#include "snapshot.h"

#define FC_WINDOW      60.0
#define FC_RECENT      20.0
#define FC_MIN_SPAN    12.0
#define FC_MIN_SAMPLES 5
/* a step in the room (a kill, an exit, freed cache, a new growth) cuts the window: from
 * it, the fit needs FC_STEP_MIN_SAMPLES over FC_STEP_MIN_SPAN seconds; a step is one the
 * window's single line misses by FC_STEP_NOISE_KB or more (root mean square) */
#define FC_STEP_MIN_SAMPLES 3
#define FC_STEP_MIN_SPAN    4.0
#define FC_STEP_NOISE_KB    1024.0
#define FC_HORIZON	    3600.0
#define FC_HOLD_S	    20.0
#define FC_STEADY_S	    60.0
/* the next victim changes when another passes it by this much: oom_score points (of
 * 1000), and within a cgroup a share of its limit */
#define FC_VICTIM_MARGIN 10
/* the limit the header names stays named until another runs out sooner by this share of
 * its time (the verdict's margin, VERDICT_MARGIN, is the same) */
#define FC_PICK_MARGIN	    0.25
#define FC_CG_VICTIM_MARGIN 0.01

enum fc_state {
	FC_NONE,
	FC_RUNS_OUT, /* a forecast made this refresh */
	FC_HELD,     /* the last one, kept while the trend is uncertain */
	FC_STEADY,   /* it was running out and no longer shrinks */
	FC_SHRINKING /* it was running out and shrinks, slower than FC_HORIZON */
};

/* A forecast kept from refresh to refresh */
struct fc_hold {
	double secs; /* to run out, as of at */
	double at;   /* CLOCK_MONOTONIC time of that forecast; 0: none */
	enum fc_state state;
};

/* What the header and JSON show: the one that runs out first */
struct forecast {
	enum fc_state state;
	double secs; /* as of age seconds ago */
	double age;
	bool cgroup;			  /* a cgroup's limit, not the machine */
	char path[256];			  /* that cgroup (raw, untrusted) */
	uint64_t limit_kb;		  /* its limit */
	uint64_t usage_kb;		  /* its usage now */
	int32_t victim;			  /* the process its OOM kill would take; 0: none known */
	char victim_name[PROC_NAME_SIZE]; /* its short name (procname.h), raw */
	bool group;			  /* the kill takes its whole group (memory.oom.group) */
	uint32_t ntasks;		  /* its processes */
};

/* A limited cgroup's usage over the last minutes, and its forecast */
#define CGT_SAMPLES 300
struct cg_trend {
	uint64_t id;
	char *path;
	double mono[CGT_SAMPLES];
	float usage_kb[CGT_SAMPLES];
	size_t head, n;
	uint64_t limit_kb, oom_kills;
	double seen;   /* mono of its last sample */
	double cut_at; /* mono of its last OOM kill's sample: the fit starts there */
	struct fc_hold hold;
	int32_t victim;
	double victim_points;
	int32_t *pids; /* its processes at the last refresh */
	size_t npids;
};

struct history;

/* The forecasts' figures and what they keep from refresh to refresh (the model's fc) */
struct forecasts {
	/* seconds until MemAvailable + SwapFree runs out at the rate they shrink (made or
	 * kept), -1 when none; and that rate, KiB/s */
	double exhaustion_s;
	double shrink_kb_s;
	/* the likely next OOM victim: the highest oom_score read, 0 when none was read */
	int32_t next_victim_pid;
	char next_victim_name[PROC_NAME_SIZE]; /* its short name (procname.h), raw */
	/* the machine's forecast kept, each limited cgroup's trend, and the one that runs out
	 * first */
	struct fc_hold sys_hold;
	struct cg_trend *cgt;
	size_t ncgt, cgt_cap;
	struct forecast forecast;
};

void forecast_init(struct forecasts *fc);
/* The forecasts of s, the newest snapshot, whose figures h has recorded: fc's
 * exhaustion_s, next victim, each limited cgroup's (written into s's cg_sample: growth,
 * limit_in, victim) and fc->forecast */
void forecast_step(struct forecasts *fc, struct snapshot *s, const struct history *h);
void forecast_free(struct forecasts *fc);

/* The trend kept of the limited cgroup where an OOM kill in memcg path happened (the
 * deepest whose path holds it), NULL if none */
const struct cg_trend *forecast_cg_trend(const struct forecasts *fc, const char *memcg);
/* Its usage at mono time t (the sample at or before it), NAN if none */
double cg_trend_usage_at(const struct cg_trend *t, double at);

#endif
