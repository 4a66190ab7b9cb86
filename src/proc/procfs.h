/* The /proc parsers: the system-wide files (meminfo, vmstat, pressure, uptime) and a
 * process's stat and statm. Parsers take text so they can be tested on real and corrupt
 * input; collectors read the files (a process's: src/proc/proc_walk.c). */
#ifndef MEMTOP_PROCFS_H
#define MEMTOP_PROCFS_H

#include "snapshot.h"

/* Each returns 0, or -1 when the text lacks a field memtop cannot do without. The keys
 * read from meminfo and vmstat are those of src/figures/sysfigs.def, in one pass over the
 * text. Of the others, a key missing reads as 0 and its bit in *present (where present is
 * not NULL; bit MI_x or VS_x: the values read) is clear, but MemAvailable (before Linux
 * 3.14) reads as MemFree + Buffers + Cached. */
int parse_meminfo(const char *text, uint64_t mem[MI_COUNT], uint64_t *present);
int parse_vmstat(const char *text, uint64_t vm[VS_COUNT], uint64_t *present);
int parse_psi(const char *text, struct sys_psi *p);
int parse_uptime(const char *text, double *uptime);

/* The fields of /proc/PID/stat that memtop reads (field numbers as in proc(5)) */
struct pid_stat {
	int32_t pid;		    /* 1 */
	char comm[MT_COMM_LEN + 1]; /* 2: raw, untrusted, cut to MT_COMM_LEN bytes */
	char state;		    /* 3 */
	int32_t ppid;		    /* 4 */
	uint64_t flags;		    /* 9: PF_* */
	uint64_t minflt;	    /* 10 */
	uint64_t majflt;	    /* 12 */
	uint64_t start_ticks;	    /* 22: clock ticks after boot */
};

/* /proc/PID/statm, in pages */
struct pid_statm {
	uint64_t size, resident, shared, text, lib, data, dt;
};

/* Each returns 0, or -1 when the text is corrupt or cut short (stat must run past
 * starttime, statm to the newline after dt). A comm may hold any byte but NUL (spaces, parentheses,
 * newlines): it runs from the first '(' to the last ')'. */
int parse_stat(const char *text, struct pid_stat *st);
int parse_statm(const char *text, struct pid_statm *sm);

/* Fill mem (meminfo), and vm, psi and uptime (the counters that make rates) of s.
 * Return 0, or -1 with a one-line reason in err. */
int procfs_meminfo(struct snapshot *s, char *err, size_t errlen);
int procfs_counters(struct snapshot *s, char *err, size_t errlen);

/* A cgroup hierarchy mounted: cgroup (v1) with the memory controller, or cgroup2 */
struct cg_mount {
	int version;	  /* 1 or 2 */
	char mount[1024]; /* its mount point, unescaped */
	char root[1024];  /* the hierarchy's path mounted there: "/" unless a cgroup's */
};
/* The cgroup v1 mounts with the memory option and the cgroup2 mounts in
 * /proc/PID/mountinfo text, up to max, in its order; returns how many. */
size_t parse_cgroup_mounts(const char *text, struct cg_mount *out, size_t max);
/* The path of the memory cgroup in /proc/PID/cgroup text for a hierarchy of version (1:
 * the line whose controllers include memory; 2: the line 0::PATH). Returns 0, or -1 if
 * the text names none or it does not fit in len. */
int parse_proc_cgroup(const char *text, int version, char *path, size_t len);

#endif
