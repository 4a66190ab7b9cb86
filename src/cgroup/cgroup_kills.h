/* The OOM kills per memory cgroup, counted by the cgroup reader (cgroup_kills.c). Part of
 * cgroup.h, which includes it. */
#ifndef MEMTOP_CGROUP_KILLS_H
#define MEMTOP_CGROUP_KILLS_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct cg_reader;

/* OOM kills per memory cgroup since memtop started, counted by the reader from the kill
 * events of s from index from on (with BPF OOM tracing; not the kills from before start):
 * by the cgroup's id, or by its path until the listing gives the id. An event whose
 * cgroup the names read (cgroup_names.h) listed by its id, at this refresh or the one
 * before, gets that cgroup's whole path (where it fits), and the kills' rows its name. */
void cg_count_kills(struct cg_reader *r, struct snapshot *s, size_t from);

/* Whether path cut is path full as a kill's event from BPF may give it: the same, or
 * with components cut short at their end, and those above the deepest few as "/..." */
bool cg_path_cut_of(const char *cut, const char *full);

/* With BPF OOM tracing, fills the OOM column of the cgroups listed in s: the kills in each and in
 * the cgroups below it, also those removed since. Appends, after the listed ones, a row for each
 * removed cgroup with kills (removed set, the OOM column its only figure, its parent its nearest
 * ancestor among the rows) until an hour after its last kill; then its kills are kept in its
 * nearest ancestor's count. */
void cg_fill_kills(struct cg_reader *r, struct snapshot *s);

#endif
