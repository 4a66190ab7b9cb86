/* The memory cgroup source: the tree of memory cgroups and memtop's own, read from the
 * cgroup filesystem, v1 or v2, by one reader with a table of file names and units per
 * version (cgroup_files.c, cgroup_parse.c), or from BPF's cgroup iterator where it gives
 * the same (cgroup_from_bpf.c). It fills the snapshot's cgroups with the columns of
 * cgcolumns.h. The reader's files, listing and OOM kills have headers of their own,
 * included here. */
#ifndef MEMTOP_CGROUP_H
#define MEMTOP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup_files.h"
#include "cgroup_kills.h"
#include "cgroup_list.h"
#include "snapshot.h"

struct cg_reader;

/* Frees r: its files, the figures from BPF and the kills counted */
void cg_close(struct cg_reader *r);

struct cg_iter;
/* Takes the figures BPF gives from the cgroup iterator it (bpf_cgroup_iter.h; NULL: none),
 * which must outlive the reads (cgroup_from_bpf.h) */
void cg_use_bpf(struct cg_reader *r, struct cg_iter *it);

/* Reads the figures of the columns cols (CGCOL_BIT; with what they are made of) for the
 * cgroups listed in s. A cgroup removed since it was listed is dropped from s; a file
 * that is missing or cannot be parsed leaves its figures unread (not valid). Figures
 * that the kernel gives for each cgroup alone (cgroup.procs; v1 OOM kills) are summed
 * over each cgroup's subtree. */
void cg_read(struct cg_reader *r, struct snapshot *s, unsigned cols);

/* The processes of each cgroup of s with a limit below RAM (its limits read), into
 * s->cg_tasks, with their oom_score_adj, and memory.oom.group (cgroup_tasks.c) */
void cg_read_tasks(struct cg_reader *r, struct snapshot *s);

/* memtop's own cgroup, from /proc/self/cgroup text: the lowest limit of that cgroup and
 * its ancestors in the hierarchy read, with that cgroup's usage. */
void cg_read_self(struct cg_reader *r, const char *proc_cgroup, uint64_t mem_total_kb,
		  struct cg_self *out);

/* What sources read in a refresh: with cols (CGCOL_BIT), the tree and those figures; with
 * self, memtop's own cgroup. s->mem must be filled first (MemTotal). Sets s->cg_cols to
 * cols where there is a hierarchy to read. */
void cg_collect(struct cg_reader *r, struct snapshot *s, unsigned cols, bool self);

#endif
