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

#endif
