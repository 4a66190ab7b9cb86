/* The verdict: one line that names why memory is short right now, with its evidence,
 * ranked from the signals the model already has (the system's figures and their trend,
 * the processes' growth, swap-ins and reclaim stalls, the memory cgroups against their
 * limits). verdict_signals.c gathers those signals from the model into struct
 * verdict_signals; verdict_rank (verdict.c) ranks them by the rules below, a pure function
 * the unit tests feed made-up signals. The rules, in order; the first that holds is the
 * verdict:
 *
 * 1. swap_storm: pages are swapped in at VERDICT_SWAPIN_PAGES_S a second or more; the
 *    subject is the process swapped in most (BPF), else none is named.
 * 2. cgroup_limit: a memory cgroup limited below MemTotal whose usage less its page cache
 *    is VERDICT_CG_PCT % of its limit or more, or whose usage is at that share and grows
 *    (VERDICT_GROW_KB_S or more) or stalls in reclaim (VERDICT_CG_STALL_US_S or more);
 *    of several, the one nearest its limit (the highest share). Its fastest grower is
 *    named in the evidence, else (none known to grow) the process its OOM kill would
 *    take, the forecast's victim.
 * 3. system_leak, slab_growth, shmem_growth: the machine runs short (MemAvailable +
 *    SwapFree run out within VERDICT_HORIZON_S at the rate they shrink, or MemAvailable is
 *    under VERDICT_AVAIL_PCT % of MemTotal) and what grows fastest over the last minute is
 *    a process (system_leak, that process), Slab (slab_growth) or Shmem (shmem_growth); a
 *    process counts from VERDICT_GROW_KB_S, and where nothing grows that fast, the verdict
 *    is system_leak without a subject.
 * 4. reclaim_stall: tasks stall in direct or memcg reclaim VERDICT_STALL_US_S a second or
 *    more (BPF), or, without BPF's figure, VERDICT_ALLOCSTALL_S allocations a second stall
 *    in direct reclaim; the subject is the process that stalls most.
 * 5. none: nothing is wrong; the evidence is what is available. */
#ifndef MEMTOP_VERDICT_H
#define MEMTOP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define VERDICT_SWAPIN_PAGES_S 256.0	/* swap-ins a second: a storm (1 MiB/s of 4K pages) */
#define VERDICT_CG_PCT	       80.0	/* a cgroup's share of its limit that is near it */
#define VERDICT_CG_STALL_US_S  10000.0	/* a cgroup's reclaim stalls, us/s, that count */
#define VERDICT_GROW_KB_S      16.0	/* growth that counts (~1 MiB a minute) */
#define VERDICT_HORIZON_S      3600.0	/* the machine runs out within this: short */
#define VERDICT_AVAIL_PCT      10.0	/* MemAvailable under this share of MemTotal: short */
#define VERDICT_STALL_US_S     100000.0 /* reclaim stalls a second: 100 ms/s */
#define VERDICT_ALLOCSTALL_S   100.0	/* direct reclaim stalls a second, without BPF's */

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
	double value;		    /* what it is named for: KiB/s, pages/s or us/s */
};

/* A memory cgroup limited below MemTotal */
struct verdict_cgroup {
	const char *path; /* raw, untrusted; the model's, valid until its next refresh */
	double usage_kb, limit_kb;
	double file_kb;		 /* its page cache; NAN: not read */
	double grow_kb_s;	 /* its usage's growth; NAN: not known */
	double stall_us_s;	 /* its tasks' reclaim stalls; NAN: not read */
	double eta_s;		 /* seconds until it reaches its limit; NAN: no forecast */
	struct verdict_proc top; /* its fastest grower (value: KiB/s) */
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
	struct verdict_proc grower;  /* the fastest grower over the last minute, KiB/s */
	struct verdict_proc swapped; /* the process swapped in most, pages/s */
	struct verdict_proc staller; /* the process that stalls most in reclaim, us/s */
	/* the limited cgroups nearest their limits, nearest first */
	struct verdict_cgroup cg[VERDICT_MAX_CGROUPS];
	size_t ncg;
};

/* One figure of the evidence: its JSON key (with its unit) and value */
struct verdict_fact {
	const char *key;
	double value;
};

#define VERDICT_MAX_FACTS 8
#define VERDICT_TEXT	  320

struct verdict {
	enum verdict_cause cause;
	char text[VERDICT_TEXT]; /* the line; raw (names untrusted): views escape it */
	int32_t pid;		 /* the subject, a process; 0: none */
	char comm[MT_COMM_LEN + 1];
	char path[256]; /* or a cgroup ("": none); raw, untrusted */
	struct verdict_fact facts[VERDICT_MAX_FACTS];
	size_t nfacts;
};

/* The cause's name in JSON: "none", "swap_storm", "cgroup_limit", ... */
const char *verdict_cause_name(enum verdict_cause c);
/* The signals ranked by the rules above into v */
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
