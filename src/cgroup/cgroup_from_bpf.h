/* The cgroup reader's figures from BPF (cgroup_from_bpf.c): the page counters of every memory
 * cgroup and the counters memory.stat prints, from the BPF cgroup iterator (bpf_cgroup_iter.h),
 * and the number of processes per cgroup from the task iterator's cgroup ids, in the
 * columns the files would fill, with the same units and limits. The reader (cgroup.c) then
 * reads from files only what these left unread: the top cgroup's memory.stat (read first,
 * see flush() in cgroup_from_bpf.c), the root cgroup's usage files, and every column whose BPF
 * figures disagreed with the files when first compared. */
#ifndef MEMTOP_CGROUP_FROM_BPF_H
#define MEMTOP_CGROUP_FROM_BPF_H

#include <stdbool.h>

#include "snapshot.h"

struct cg_bpf;
struct cg_iter;
struct cg_reader;

/* The reader's use of the iterator it; NULL without one */
struct cg_bpf *cg_bpf_new(struct cg_iter *it);
/* Frees b; the iterator, which the BPF source owns, is left alone */
void cg_bpf_free(struct cg_bpf *b);

/* Lists the cgroups of the hierarchy into s (which holds none yet) as cg_list does, from
 * one read of the iterator, which the figures of this refresh, of the columns cols, then
 * use (cg_bpf_fill):
 * the names and parents' ids of its records make the tree. The first time, the
 * directories are listed too and compared with it; it is used from then on only where
 * both give the same cgroups (paths and ids). Returns false where the reader must list
 * the directories itself (no iterator, it failed, or its tree differed). */
bool cg_bpf_list(struct cg_bpf *b, struct cg_reader *r, struct snapshot *s, unsigned cols);

/* Fills, for each cgroup listed in s, the columns of cols that the iterator gives for
 * it, marking them valid. The first time, the iterator's figures for a few cgroups are
 * compared with their files (read before and after it): a column on which they disagree
 * stays on files from then on, and all do when the iterator cannot be read. */
void cg_bpf_fill(struct cg_bpf *b, struct cg_reader *r, struct snapshot *s, unsigned cols);

/* The cgroups are not asked for: the iterator's link goes */
void cg_bpf_idle(struct cg_bpf *b);

/* With CGCOL_NPROCS in cols, the processes of each cgroup listed in s (not below it)
 * counted from the processes' cgroup ids, where the walk read every process's
 * (procs_cg_ids, and -p left none out); returns whether it did. */
bool cg_bpf_count_procs(struct snapshot *s, int version, unsigned cols);

#endif
