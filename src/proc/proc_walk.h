/* The base walk over /proc: every process's identity and the figures of stat and statm.
 * One of the two walks (the other is the BPF task iterator, src/bpf/bpf_tasks.c); pids.c
 * adds names and the costly columns after either. */
#ifndef MEMTOP_PROC_WALK_H
#define MEMTOP_PROC_WALK_H

#include <stddef.h>

#include "snapshot.h"

struct proc_walk;

/* Opens /proc, and raises the soft limit on open files to the hard one: the walk keeps
 * each process's stat and statm open between refreshes, as many as that limit allows
 * less 256 descriptors for the rest of memtop. NULL with a one-line err if /proc cannot
 * be opened. */
struct proc_walk *proc_walk_new(char *err, size_t errlen);
void proc_walk_free(struct proc_walk *w);

/* Appends one proc_sample per live process to s, in no particular order, with pid,
 * ppid, uid (effective), start_ticks, kthread, comm (the kernel's, raw) and the columns
 * that columns_filled_by(NEED_STAT | NEED_STATM) names, their valid bits set; sets
 * s->ntasks to the number of processes seen. A process that exits while it is read, or
 * whose stat is corrupt, is left out. Returns 0, or -1 with a one-line err where /proc
 * cannot be listed. */
int proc_walk_collect(struct proc_walk *w, struct snapshot *s, char *err, size_t errlen);

/* The processes /proc lists, counted up to max (a listing of the directory, nothing
 * read) */
size_t proc_walk_count(struct proc_walk *w, size_t max);

/* Appends pid alone, as proc_walk_collect would (s->ntasks counts it); for a process
 * another walk cannot see. Returns 0, or -1 when it is gone or unreadable. */
int proc_walk_pid(struct proc_walk *w, struct snapshot *s, int32_t pid);

#endif
