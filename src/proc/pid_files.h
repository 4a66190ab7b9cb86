/* The files of one process under /proc/PID, read one process at a time: stat, statm,
 * smaps_rollup, status, smaps (or maps) and cgroup (the walk over every process keeps
 * its own stat and statm open: src/proc/proc_walk.c). Parsers take text so they can be tested
 * on real and corrupt input; readers open the file. The process table's costly columns
 * (pids.c), the drill-down (src/drill/) and the memory cgroups read them here. */
#ifndef MEMTOP_PID_FILES_H
#define MEMTOP_PID_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procfs.h"

#define DD_COMM_LEN 16

/* A process's memory breakdown, KiB unless named otherwise */
struct dd_breakdown {
	/* smaps_rollup */
	bool have_rollup;
	uint64_t rss, pss, pss_anon, pss_file, pss_shmem;
	uint64_t shared_clean, shared_dirty, private_clean, private_dirty;
	uint64_t uss; /* private_clean + private_dirty */
	uint64_t anonymous, anon_huge, shmem_pmd, file_pmd, shared_hugetlb, private_hugetlb;
	uint64_t swap, swap_pss, locked;
	/* status */
	bool have_status;
	uint64_t rss_anon, rss_file, rss_shmem, pgtables, vm_swap, hugetlb, vm_size;
	char comm[DD_COMM_LEN + 1]; /* raw, untrusted */
	/* oom_score, oom_score_adj, cgroup */
	bool have_oom;
	int oom_score, oom_score_adj;
	char cgroup[256]; /* memory controller's path (v1), else the unified one; raw */
};

enum dd_map_kind { DD_MAP_FILE, DD_MAP_ANON, DD_MAP_HEAP, DD_MAP_STACK, DD_MAP_SPECIAL };

/* One mapping of /proc/PID/smaps */
struct dd_mapping {
	uint64_t start, end, offset, inode;
	char perms[5];
	enum dd_map_kind kind;
	char *path; /* as the kernel shows it: a file, [heap], [stack], [anon:NAME]; "" for
		     * anonymous memory; raw, untrusted */
	uint64_t size, rss, pss, dirty, swap, anon, locked; /* KiB */
	uint64_t faults; /* page faults since the drill opened (estimated from samples) */
};

/* Parsers: pure functions on the text of one file. They return 0, or -1 when the
 * text has none of the fields expected. */
int parse_smaps_rollup(const char *text, struct dd_breakdown *b);
int parse_status_detail(const char *text, struct dd_breakdown *b);
/* Appends each mapping of /proc/PID/smaps (or /proc/PID/maps: sizes only) to *maps, which
 * holds *n (its capacity, as it grows by doubling from *n). */
int parse_smaps(const char *text, struct dd_mapping **maps, size_t *n);
/* The memory cgroup's path in /proc/PID/cgroup text: the memory controller's line (v1),
 * else the unified line 0::PATH (v2); cut to size. */
int parse_proc_memcg(const char *text, char *out, size_t size);

/* Readers; each returns 0, or -1 with errno. */
/* The memory cgroup of pid as parse_proc_memcg gives it */
int read_proc_memcg(int32_t pid, char *out, size_t size);
/* The memory cgroup of pid in the hierarchy of version (parse_proc_cgroup, procfs.h) */
int read_proc_cgroup(int32_t pid, int version, char *out, size_t size);
/* The thread group (process) that pid belongs to, from /proc/PID/status: pid itself for
 * a process, its process for a thread id (/proc/TID exists, unlisted, for every thread) */
int read_proc_tgid(int32_t pid, int32_t *tgid);
/* /proc/PID/stat (parse_stat, procfs.h) */
int read_proc_stat(int32_t pid, struct pid_stat *st);
/* A statm file (/proc/self/statm, /proc/PID/statm), in pages */
int read_statm(const char *path, struct pid_statm *sm);
/* A whole file, however large (smaps of a big process runs to megabytes), NUL-ended;
 * free it. NULL with errno. */
char *read_whole_file(const char *path);

#endif
