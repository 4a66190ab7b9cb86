/* The memory cgroup source: the tree of memory cgroups and memtop's own, read from the
 * cgroup filesystem, v1 or v2, by one reader with a table of file names and units per
 * version (cgroup.c). It fills the snapshot's cgroups with the columns of cgcolumns.h. */
#ifndef MEMTOP_CGROUP_H
#define MEMTOP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

struct cg_reader;

/* The memory hierarchy in /proc/PID/mountinfo text (parse_cgroup_mounts, procfs.h): a
 * cgroup (v1) mount with the memory option, else a cgroup2 mount whose
 * cgroup.controllers lists memory. Returns its version, 1 or 2, with its mount point in
 * mount and the hierarchy's path mounted there in root ("/", or "/docker/ID" where a
 * container's cgroup is mounted); 0 if none. */
int cg_find(const char *mountinfo, char *mount, size_t mount_len, char *root, size_t root_len);

/* A reader of the hierarchy /proc/self/mountinfo names; without one, a reader that reads
 * nothing (version 0). */
struct cg_reader *cg_open(void);
/* A reader of the tree of that version mounted at mount, the hierarchy's path root there
 * (for tests: a directory tree that reproduces the kernel's files) */
struct cg_reader *cg_open_at(int version, const char *mount, const char *root);
void cg_close(struct cg_reader *r);
int cg_version(const struct cg_reader *r);
/* Where the hierarchy read is mounted */
const char *cg_mount(const struct cg_reader *r);
/* The hierarchy's path mounted there: "/", or "/docker/ID" */
const char *cg_root(const struct cg_reader *r);

struct cg_iter;
/* Takes the figures BPF gives from the cgroup iterator it (bpf_cgroups.h; NULL: none),
 * which must outlive the reads (cgroup_bpf.h) */
void cg_use_bpf(struct cg_reader *r, struct cg_iter *it);

/* Lists the cgroups of the hierarchy into s, which holds none yet: path, id, depth and
 * parent, no figures. */
void cg_list(struct cg_reader *r, struct snapshot *s);
/* Reads the figures of the columns cols (CGCOL_BIT; with what they are made of) for the
 * cgroups listed in s. A cgroup removed since it was listed is dropped from s; a file
 * that is missing or cannot be parsed leaves its figures unread (not valid). Figures
 * that the kernel gives for each cgroup alone (cgroup.procs; v1 OOM kills) are summed
 * over each cgroup's subtree. */
void cg_read(struct cg_reader *r, struct snapshot *s, unsigned cols);

/* Reads the figures of columns cols of cg (its path set) from its files alone, each as
 * the file gives it (v1 memsw with the memory in it); -1 if it no longer exists */
int cg_read_files(struct cg_reader *r, struct cg_sample *cg, unsigned cols);

/* memtop's own cgroup, from /proc/self/cgroup text: the lowest limit of that cgroup and
 * its ancestors in the hierarchy read, with that cgroup's usage. */
void cg_read_self(struct cg_reader *r, const char *proc_cgroup, uint64_t mem_total_kb,
		  struct cg_self *out);

/* What sources read in a refresh: with cols (CGCOL_BIT), the tree and those figures; with
 * self, memtop's own cgroup. s->mem must be filled first (MemTotal). Sets s->cg_cols to
 * cols where there is a hierarchy to read. */
void cg_collect(struct cg_reader *r, struct snapshot *s, unsigned cols, bool self);

/* OOM kills per memory cgroup since memtop started, counted by the reader from the kill
 * events of s from index from on (with BPF OOM tracing; not the kills from before start):
 * by the cgroup's id, or by its path until the listing gives the id. */
void cg_count_kills(struct cg_reader *r, const struct snapshot *s, size_t from);

/* With BPF OOM tracing, fills the OOM column of the cgroups listed in s: the kills in each and in
 * the cgroups below it, also those removed since. Appends, after the listed ones, a row for each
 * removed cgroup with kills (removed set, the OOM column its only figure, its parent its nearest
 * ancestor among the rows) until an hour after its last kill; then its kills are kept in its
 * nearest ancestor's count. */
void cg_fill_kills(struct cg_reader *r, struct snapshot *s);

#endif
