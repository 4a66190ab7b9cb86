/* System-wide /proc sources: meminfo, vmstat, pressure, uptime. Parsers take text so
 * they can be tested on real and corrupt input; collectors read the files. */
#ifndef MEMTOP_PROCFS_H
#define MEMTOP_PROCFS_H

#include "snapshot.h"

/* Each returns 0, or -1 when the text lacks a field memtop cannot do without. */
int parse_meminfo(const char *text, struct sys_mem *m);
int parse_vmstat(const char *text, struct sys_vm *v);
int parse_psi(const char *text, struct sys_psi *p);
int parse_uptime(const char *text, double *uptime);

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
