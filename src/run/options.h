/* Command-line options. */
#ifndef MEMTOP_OPTIONS_H
#define MEMTOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>
#include <sys/socket.h>

#include "columns.h"
#include "guard.h"
#include "prefs.h"
#include "prefs_table.h"
#include "parse.h" /* DELAY_MIN, DELAY_MAX */
#include "record.h"

/* --columns given: a replay shows them, not its recording's (replay_run.c) */
#define GIVEN_COLUMNS PREF_BIT(PREF_COLUMNS)

#define LEAKS_DEFAULT_SECS 10 /* --leaks PID without :SECS */

/* OUT_OPENMETRICS: one exposition to stdout; OUT_SERVE: no screen, served over HTTP */
enum out_mode { OUT_TUI, OUT_BATCH, OUT_JSON, OUT_OPENMETRICS, OUT_SERVE };

struct options {
	enum out_mode mode;
	long iterations;    /* 0: forever */
	struct prefs prefs; /* columns, sort, tree, -K, -d, -p, -u, --cgroup, --theme, --no-mouse */
	bool no_bpf;
	/* --no-wait: -b and --json print their first refresh without waiting for the BPF
	 * programs to load (main.c's bpf_when) */
	bool no_wait;
	bool pin;	/* --pin: a service pins its BPF programs for other memtops */
	bool bpf_stats; /* --bpf-stats: the kernel's BPF statistics on while it runs */
	/* --cgroups: batch text and JSON add the memory cgroups; the screen opens on them */
	bool cgroups;
	/* --users: batch text and JSON add the totals per user (smem -u) */
	bool users;
	/* --slab: batch text and JSON add the slab caches (/proc/slabinfo); the screen opens
	 * on them */
	bool slab;
	/* --account: batch text and JSON add the memory account (MemTotal in parts); the
	 * screen opens on it */
	bool account;
	bool verbose;
	/* --read-only: the screen changes nothing (no signal, no oom_score_adj, no cgroup
	 * limit, reclaim or kill), for a terminal others watch */
	bool read_only;
	int oom_score_adj;  /* memtop's own, as root (--oom-score-adj) */
	bool given_adj;	    /* --verbose: libbpf's messages to stderr while loading */
	uint64_t lock_max;  /* --lock-max SIZE: memtop's working set locked at most; 0 none */
	int32_t stacks_pid; /* --stacks PID[:SECS]: sample its stacks; 0: off */
	double stacks_secs; /* for so long: SECS, else -d, else 1 */
	/* --stacks -- CMD ARGS...: the command memtop starts and samples (argv, NULL-ended);
	 * stacks_secs then 0 (until it exits) unless -d is given first */
	char **stacks_cmd;
	bool folded;	   /* --folded: --stacks prints the folded format of flame graphs */
	int32_t leaks_pid; /* --leaks PID[:SECS]: its outstanding allocations; 0: off */
	double leaks_secs; /* traced for so long: SECS, else LEAKS_DEFAULT_SECS */
	/* --serve [ADDR:]PORT: where it listens (127.0.0.1 unless ADDR is given) */
	struct sockaddr_storage listen;
	/* --web-config FILE: TLS and basic auth for --serve (webconfig.h); NULL: none */
	const char *web_config;
	/* --groups FILE: process groups in place of the processes in OpenMetrics
	 * (grouprules.h); NULL: none */
	const char *groups;
	size_t top; /* --top K: OpenMetrics exports the top K by RSS, faults, swap-ins, stall */
	struct record_opts rec;	 /* --record, --record-dir, --record-max, --keep */
	const char *replay;	 /* --replay FILE|DIR */
	const char *begin, *end; /* --begin, --end: the replay's range */
	bool unwind_fp;		 /* --unwind fp: frame pointers walked in the kernel */
	unsigned stack_bytes;	 /* --stack-bytes N: user stack copied per event */
	bool help;
	bool version;
	/* the preferences the flags set, a set of PREF_BIT()s: saved settings do not
	 * override them */
	unsigned given;
};

/* Parses argv. Returns 0, or -1 with a one-line reason in err (exit status 2). */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);
void options_usage(FILE *f);

#endif
