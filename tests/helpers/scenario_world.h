/* A scripted machine for scenario_rec: its memory, processes, memory cgroups and OOM
 * kills over simulated time, each figure a closed form of the time, written as memtop's
 * own recorder writes a live refresh (scenario_world.c), and printed as the truth each
 * refresh held (one JSON line a refresh) for the tests to judge a replay against.
 *
 * A process holds rss0 KiB from its birth, and grows rate KiB/s from grow_from on, until
 * it ends (an exit, or an OOM kill, which is logged as the kernel's event). A cgroup's
 * usage is its base (what no process holds: its kernel memory, a little cache) plus the
 * RSS of its processes alive; the machine's MemAvailable is avail_base less the RSS of
 * every process alive. */
#ifndef SCENARIO_WORLD_H
#define SCENARIO_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#define W_MAX_PROCS 64
#define W_MAX_CGS   4
#define W_NEVER	    1e9

struct wproc {
	int32_t pid, ppid;
	const char *comm, *cmd;
	int cg;		  /* index of its cgroup in world.cgs */
	double born;	  /* seconds from the recording's start (negative: before it) */
	double rss0;	  /* KiB from its birth */
	double rate;	  /* KiB/s, from grow_from on */
	double grow_from; /* seconds */
	double ends;	  /* seconds (W_NEVER: runs on) */
	bool oom_killed;  /* it ends by the cgroup's OOM kill, logged */
	bool swaps_in;	  /* the machine's swap-ins are all its own (BPF's count of them) */
	double grow_to;	  /* seconds: it holds its size from then on (W_NEVER: grows on) */
};

struct wcg {
	const char *path;
	uint64_t id;
	int parent;	 /* index in world.cgs; -1: the root */
	double limit_kb; /* memory.max; 0: max */
	double base_kb;	 /* what no process holds */
};

struct world {
	double interval; /* seconds between refreshes */
	double until;	 /* the last refresh's time */
	double mem_total_kb, avail_base_kb, swap_total_kb, swap_free_kb;
	double slab_kb, shmem_kb, cached_kb, buffers_kb;
	/* pages swapped in by t (vmstat pswpin): swapin_rate t + swapin_accel t^2, t counted
	 * from swapin_from (0 before); BPF's counts (its total, a swaps_in process's) are read
	 * swapin_lag s after vmstat, as a live refresh reads them */
	double swapin_rate, swapin_accel, swapin_lag, swapin_from;
	bool bpf; /* BPF is on: its columns are shown (SWIN/s, STALL) */
	struct wproc procs[W_MAX_PROCS];
	int nprocs;
	struct wcg cgs[W_MAX_CGS]; /* the root first, each after its parent */
	int ncgs;
};

/* A process alive at time t, and its RSS then (KiB) */
bool w_alive(const struct wproc *p, double t);
double w_rss(const struct wproc *p, double t);
/* The growth it has at t, KiB/s */
double w_rate(const struct wproc *p, double t);

/* Adds to w: the root cgroup, one below it, a process; each returns its index */
int w_root(struct world *w);
int w_cgroup(struct world *w, const char *path, uint64_t id, double limit_kb, double base_kb);
int w_proc(struct world *w, int32_t pid, const char *comm, const char *cmd, int cg, double born,
	   double rss0, double rate);

/* A machine's usual processes, steady, in the root cgroup (which it adds) */
void w_background(struct world *w);
/* The machine: MemTotal total KiB, swap_free of swap_total free, and MemAvailable avail0
 * at the start, with what the processes alive then hold on top (call it after them) */
void w_machine(struct world *w, double total, double avail0, double swap_total, double swap_free);

/* Writes w's refreshes, from 0 to w->until every w->interval, into the recording at path,
 * and its truth to stdout, a JSON line a refresh. Returns 0, or 1 with a line on stderr. */
int w_record(const struct world *w, const char *path);

#endif
