/* The memory cgroup reader's insides, shared by the files it is made of, and by no other
 * part of memtop (cgroup.h is its face). From the bottom up: the files read
 * (cgroup_files.c, with cgroup_parse.c's tables, and the listing, cgroup_list.c); the
 * figures from BPF (cgroup_from_bpf.c), on top of the files; the OOM kills counted
 * (cgroup_kills.c), kept in the reader; what sources call (cgroup.c), on top of all. */
#ifndef MEMTOP_CGROUP_READER_H
#define MEMTOP_CGROUP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

struct cg_bpf;
struct cg_kept;
struct cg_kill;
struct cg_names;
struct cg_src;

struct cg_reader {
	int version;
	char *mount;	/* where the hierarchy is mounted */
	char *root;	/* the hierarchy's path mounted there */
	bool test_root; /* a tree of files a test wrote (MEMTOP_CGROUP_ROOT) */
	const struct cg_src *src;
	struct cg_kill *kills;
	size_t nkills, kills_cap;
	struct cg_kept *kept;
	size_t nkept;
	size_t kept_next; /* where kept_of looks first */
	uint64_t reads;
	long fd_limit;		/* descriptors numbered from here on are not kept */
	struct cg_bpf *bpf;	/* the figures from BPF; NULL: files alone */
	struct cg_names *names; /* the cgroups' names (cgroup_names.h); NULL: none read yet */
	char buf[16384];
};

/* cgroup_files.c: */

/* The directory of the cgroup at hierarchy path, or -1 if it lies outside the mount */
int cg_dir_of(const struct cg_reader *r, const char *path, char *dir, size_t size);
/* The columns that a read of cols reads (cg_read): cols with what they are made of, and the
 * columns that the version's figures of cols are taken off (v1 memsw: the memory) */
unsigned cg_files_cols(const struct cg_reader *r, unsigned cols);
/* The file path of cg_read: reads from their files the columns of cols that each cgroup
 * listed in s lacks (not valid), dropping those removed; then the parents, and the subtree
 * sums. The kept files of cgroups no longer found are closed. */
void cg_files_read_all(struct cg_reader *r, struct snapshot *s, unsigned cols);
/* The cgroups are not asked for: the kept files are closed */
void cg_files_idle(struct cg_reader *r);
/* Frees r, with its kept files, but the figures from BPF and the kills (freed first) */
void cg_files_close(struct cg_reader *r);

/* cgroup_kills.c: frees the kills counted in r */
void cg_kills_free(struct cg_reader *r);

#endif
