/* The one libdwfl front-end of memtop for a process's modules, shared by the symbolizer
 * (symbolize.c) and the unwinder (unwind.c): the modules of /proc/PID/maps, their files
 * opened through /proc/PID/root (a process in another mount namespace, a container, is
 * read from its own files) and only local debug files found by build id, never the
 * network. */
#ifndef MEMTOP_PROC_DWFL_H
#define MEMTOP_PROC_DWFL_H

#include <stdint.h>

#include <elfutils/libdwfl.h>

/* A session with these callbacks; NULL when out of memory. */
Dwfl *proc_dwfl_begin(void);
/* (Re-)reads the module list of pid into d: modules mapped as before are kept with what
 * was parsed of them. Returns 0, or a positive errno (ESRCH when none is known). */
int proc_dwfl_report(Dwfl *d, int32_t pid);
/* The process whose files libdwfl opens: it opens them lazily, from lookups, so each
 * entry point sets it first. */
void proc_dwfl_use(int32_t pid);

#endif
