/* Per-process source, after the walk: command lines and user names read once per
 * process, and VmSwap (status) and PSS/USS (smaps_rollup) read
 * only where they are asked for. */
#ifndef MEMTOP_PIDS_H
#define MEMTOP_PIDS_H

#include <stdbool.h>

#include "columns.h"
#include "snapshot.h"

struct pids_collector;

struct pids_request {
	/* columns wanted (COL_BIT): their costly collectors run; COL_CGROUP: each process's
	 * memory cgroup, once per process and again for row_pids; COL_ALL_CGROUPS: for every
	 * process at each refresh */
	unsigned cols;
	bool rows_all; /* read them for every process */
	/* the command line of a process seen the first time only for the rows asked for
	 * (rows_all, row_pids); the others' cmd stays NULL (COL_CMD not valid) for pids_fill
	 * or the next refresh to read */
	bool names_asked;
	const int32_t *row_pids; /* else only for these (for instance the rows on screen) */
	size_t nrow_pids;
	const int32_t *only_pids; /* when set, keep only these processes (-p) */
	size_t nonly_pids;
	/* memory cgroups (src/cgroup/cgroup.h): the columns wanted (CGCOL_BIT, cgcolumns.h), whose
	 * files are read for every cgroup; 0: the tree is not read */
	unsigned cg_cols;
	bool cg_self; /* memtop's own memory cgroup and its limit */
	/* the oom_score of this many of the largest processes (RSS + swap), read besides: the
	 * likely next OOM victim is among them */
	size_t victims;
	bool slab; /* /proc/slabinfo (the slab screen, --slab) */
	/* the memory account's tmpfs mounts, shm segments and vmalloc'd stacks (its screen,
	 * --account) */
	bool account;
};

#define PIDS_VICTIMS 8

struct pids_collector *pids_new(char *err, size_t errlen);
void pids_free(struct pids_collector *c);

/* Completes the processes a walk (src/proc/proc_walk.h, src/bpf/bpf_tasks.c) appended to s from
 * index from: keeps only req->only_pids when set, adds command lines and user names,
 * sorts them by pid and reads the costly columns req asks for. s->mem must be filled
 * first (swap in use decides whether VmSwap needs reading at all). */
void pids_finish(struct pids_collector *c, struct snapshot *s, size_t from,
		 const struct pids_request *req);

/* Reads the costly columns of req->cols for the processes req names into s, already collected (for
 * rows that come into view between refreshes). */
void pids_fill(struct pids_collector *c, struct snapshot *s, const struct pids_request *req);

/* Reads the raw command line of pid, arguments joined by spaces; "" for kernel threads
 * or a process that is gone. Exposed for tests. */
void read_cmdline(int32_t pid, char *buf, size_t size);

#endif
