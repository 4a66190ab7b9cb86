/* The memory cgroup reader's files (cgroup_files.c): the hierarchy found and opened, v1 or
 * v2, and the figures of a cgroup read from its files, through cgroup_parse.c's table of
 * file names and units per version. Part of cgroup.h, which includes it. */
#ifndef MEMTOP_CGROUP_FILES_H
#define MEMTOP_CGROUP_FILES_H

#include <stddef.h>

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
int cg_version(const struct cg_reader *r);
/* Where the hierarchy read is mounted */
const char *cg_mount(const struct cg_reader *r);
/* The hierarchy's path mounted there: "/", or "/docker/ID" */
const char *cg_root(const struct cg_reader *r);

/* Reads the figures of columns cols of cg (its path set) from its files alone, each as
 * the file gives it (v1 memsw with the memory in it); -1 if it no longer exists */
int cg_read_files(struct cg_reader *r, struct cg_sample *cg, unsigned cols);

#endif
