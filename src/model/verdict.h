/* The verdict: one line that names what runs out first and why, with its evidence, ranked
 * from the signals the model already has (the system's figures and their trend, the
 * forecasts of forecast.h, the processes' growth, swap-ins and reclaim stalls, the memory
 * cgroups against their limits). verdict_signals.c gathers those signals from the model
 * into struct verdict_signals; verdict_rank (verdict.c) ranks them by the rules below, a
 * pure function the unit tests feed made-up signals. The rules, in order; the first that
 * holds is the verdict:
 *
 * 1. swap_storm: pages are swapped in at VERDICT_SWAPIN_PAGES_S a second or more; the
 *    subject is the process swapped in most (BPF), else none is named.
 * 2. The limits, ranked by time: every limit that can run out has a time to run out from
 *    its own growth, the forecasts' (forecast.h): each memory cgroup limited below
 *    MemTotal (the lower of memory.max and memory.high, v1 limit_in_bytes) its eta_s, the
 *    machine (MemAvailable + SwapFree) its exhaustion_s, each within VERDICT_HORIZON_S.
 *    What does not grow has a share threshold instead: a cgroup whose usage less its page
 *    cache is VERDICT_CG_PCT % of its limit or more, or whose usage is at that share and
 *    grows (VERDICT_GROW_KB_S or more) without a forecast yet, counts as VERDICT_NEAR_S
 *    away, and at that share stalling in reclaim (VERDICT_CG_STALL_US_S or more) as 0 s
 *    away; a machine with MemAvailable under VERDICT_AVAIL_PCT % of MemTotal counts as
 *    VERDICT_NEAR_S away at most. The soonest is the verdict, whatever its share (of equal
 *    times, the machine, then the cgroup nearest its limit), as the header's forecast
 *    names it:
 *    - cgroup_limit: a cgroup; the evidence names its growth (its usage's), its fastest
 *      grower (GROW, "a leak suspect" where GROW marks one), else its largest process
 *      too young for GROW (under GROWTH_MIN_SPAN s old, with its age), else the process
 *      its OOM kill would take, and its time to the limit; then the action that fits and
 *      the cgroup screen's key for it (ui/cgroups.c), which it does not take: on v2
 *      throttling with memory.high (H), or changing it where memory.high is the limit
 *      reached; on v1, which cannot throttle, raising the limit (L).
 *    - system_leak, slab_growth, shmem_growth: the machine, and what grows fastest over
 *      the last minute: a process (system_leak, that process), Slab (slab_growth) or
 *      Shmem (shmem_growth), from VERDICT_GROW_KB_S; where nothing is known to grow that
 *      fast, its largest process too young for GROW that could have grown that fast (its
 *      size over its age), else system_leak without a subject. "Runs short" is said only
 *      when the machine runs out within VERDICT_NEAR_S or MemAvailable is under its floor;
 *      a slower trend is said as a trend ("memory shrinks 4.0M/s, ~31 min at this rate").
 * 3. reclaim_stall: tasks stall in direct or memcg reclaim VERDICT_STALL_US_S a second or
 *    more (BPF), or, without BPF's figure, VERDICT_ALLOCSTALL_S allocations a second stall
 *    in direct reclaim; the subject is the process that stalls most.
 * 4. none: nothing is wrong; the evidence is what is available.
 *
 * It does not flicker: the previous verdict (signals' prev, the model's from the refresh
 * before) holds its cause while it still holds with its threshold lowered by
 * VERDICT_MARGIN (a share of it; a cgroup's share by VERDICT_CG_PCT_MARGIN points), the
 * limit it named stays named until another's time is shorter by VERDICT_MARGIN of its
 * own, and the grower it named until another grows faster by VERDICT_MARGIN. */
#ifndef MEMTOP_VERDICT_H
#define MEMTOP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "forecast.h"
#include "procname.h"
#include "snapshot.h"

#define VERDICT_SWAPIN_PAGES_S 256.0	      /* swap-ins a second: a storm (1 MiB/s of 4K pages) */
#define VERDICT_CG_PCT	       80.0	      /* a cgroup's share of its limit that is near it */
#define VERDICT_CG_STALL_US_S  10000.0	      /* a cgroup's reclaim stalls, us/s, that count */
#define VERDICT_GROW_KB_S      16.0	      /* growth that counts (~1 MiB a minute) */
#define VERDICT_NEAR_S	       600.0	      /* a limit runs out within this: short */
#define VERDICT_HORIZON_S      3600.0	      /* a limit that runs out later is not ranked */
#define VERDICT_AVAIL_PCT      10.0	      /* MemAvailable under this share of MemTotal: short */
#define VERDICT_STALL_US_S     100000.0	      /* reclaim stalls a second: 100 ms/s */
#define VERDICT_ALLOCSTALL_S   100.0	      /* direct reclaim stalls a second, without BPF's */
#define VERDICT_MARGIN	       FC_PICK_MARGIN /* what holds, holds until overtaken by a quarter */
#define VERDICT_CG_PCT_MARGIN  5.0	      /* a cgroup named holds down to 75 % of its limit */

enum verdict_cause {
	VERDICT_NONE,
	VERDICT_SWAP_STORM,
	VERDICT_CGROUP_LIMIT,
	VERDICT_SYSTEM_LEAK,
	VERDICT_SLAB_GROWTH,
	VERDICT_SHMEM_GROWTH,
	VERDICT_RECLAIM_STALL,
	VERDICT_NCAUSES
};

/* A process as a signal names it; pid 0: none. Rates NAN where not known. */
struct verdict_proc {
	int32_t pid;
	char comm[MT_COMM_LEN + 1]; /* raw, untrusted */
	char name[PROC_NAME_SIZE];  /* its short name (procname.h); "": comm's */
	double value;		    /* what it is named for: KiB/s, pages/s or us/s */
	double age_s;		    /* a young one's age, seconds; NAN: not said */
	double size_kb;		    /* a young one's RSS + swap */
	bool leak;		    /* GROW marks it a leak suspect */
};

/* A memory cgroup limited below MemTotal */
struct verdict_cgroup {
	const char *path; /* raw, untrusted; the model's, valid until its next refresh */
	const char *name; /* its container's, pod's or unit's (NULL: none); the same */
	double usage_kb, limit_kb;
	bool high;		 /* the limit is memory.high, lower than memory.max */
	int version;		 /* its hierarchy's, 1 or 2; 0: not known (no action said) */
	double file_kb;		 /* its page cache; NAN: not read */
	double grow_kb_s;	 /* its usage's growth; NAN: not known */
	double stall_us_s;	 /* its tasks' reclaim stalls; NAN: not read */
	double eta_s;		 /* seconds until it reaches its limit; NAN: no forecast */
	struct verdict_proc top; /* its fastest grower (value: KiB/s) */
	/* its largest process too young for GROW (age_s, size_kb; pid 0: none) */
	struct verdict_proc young;
	/* the process its OOM kill would take (the forecast's; value unused), named where no
	 * process in it is known to grow (pid 0: none known) */
	struct verdict_proc victim;
};

#define VERDICT_MAX_CGROUPS 8

/* What the ranking reads; NAN: not known (then the rule that needs it does not hold) */
struct verdict_signals {
	double mem_total_kb, mem_available_kb, swap_total_kb, swap_free_kb;
	double exhaustion_s; /* MemAvailable + SwapFree run out; < 0: they do not shrink */
	double shrink_kb_s;  /* their rate over the forecast's window (negative: shrinking) */
	double pswpin_s;     /* pages swapped in a second */
	double stall_us_s;   /* direct and memcg reclaim stalls, us a second (BPF) */
	double allocstall_s; /* allocations stalled in direct reclaim a second */
	double slab_kb, slab_grow_kb_s, shmem_kb, shmem_grow_kb_s; /* over the last minute */
	struct verdict_proc grower; /* the fastest grower over the last minute, KiB/s */
	/* the largest process too young for GROW that could have grown VERDICT_GROW_KB_S
	 * (its size over its age, value), with age_s and size_kb; pid 0: none */
	struct verdict_proc young;
	/* the process the previous verdict named, its growth now (KiB/s; NAN: none) */
	struct verdict_proc kept;
	struct verdict_proc swapped; /* the process swapped in most, pages/s */
	struct verdict_proc staller; /* the process that stalls most in reclaim, us/s */
	/* the limited cgroups nearest their limits, nearest first */
	struct verdict_cgroup cg[VERDICT_MAX_CGROUPS];
	size_t ncg;
	const struct verdict *prev; /* the verdict of the refresh before; NULL: none */
};

/* One figure of the evidence: its JSON key (with its unit) and value */
struct verdict_fact {
	const char *key;
	double value;
};

#define VERDICT_MAX_FACTS 8
#define VERDICT_TEXT	  320
#define VERDICT_CG_NAME	  48 /* a cgroup's path in the line at most, cut in the middle */

struct verdict {
	enum verdict_cause cause;
	char text[VERDICT_TEXT]; /* the line; raw (names untrusted): views escape it */
	int32_t pid;		 /* the subject, a process; 0: none */
	char comm[MT_COMM_LEN + 1];
	char name[PROC_NAME_SIZE]; /* its short name, as the text names it */
	char path[256];		   /* or a cgroup ("": none); raw, untrusted */
	enum verdict_limit { VL_NONE, VL_MACHINE, VL_CGROUP } limit; /* the limit it names */
	double secs; /* the seconds until that limit runs out (its forecast); NAN: none */
	struct verdict_fact facts[VERDICT_MAX_FACTS];
	size_t nfacts;
};

/* The cause's name in JSON: "none", "swap_storm", "cgroup_limit", ... */
const char *verdict_cause_name(enum verdict_cause c);
/* The signals ranked by the rules above into v (s->prev may be v's old contents: it is
 * read before v is written) */
void verdict_rank(const struct verdict_signals *s, struct verdict *v);

struct model;
struct cg_model;
/* The signals of the model's newest refresh and of the cgroups (cgm may be NULL or hold
 * none: no cgroup is a candidate) */
void verdict_signals_of(const struct model *m, const struct cg_model *cgm,
			struct verdict_signals *s);
/* Both: m->verdict from the model and the cgroups, each refresh (monitor_refresh) */
void verdict_update(struct model *m, const struct cg_model *cgm);

#endif
