/* The files behind the memory account's details (src/model/account.c), read while its
 * screen is open or with --account: the tmpfs mounts of /proc/self/mountinfo and their use
 * (statfs), the System V shared memory segments of /proc/sysvipc/shm, and the kernel
 * stacks /proc/vmallocinfo counts. The parsers take text so that they can be tested. */
#ifndef MEMTOP_ACCOUNT_FILES_H
#define MEMTOP_ACCOUNT_FILES_H

#include <stdbool.h>

#include "snapshot.h"

/* A line of mountinfo: true for a tmpfs, its mount point unescaped into path and its
 * device (major:minor) into *dev */
bool parse_tmpfs_mount(const char *line, char *path, size_t len, unsigned long *dev);
/* The segments of /proc/sysvipc/shm's text appended to a (lines that do not read as one
 * are passed over); -1 when the heading is not the file's */
int parse_sysvipc_shm(const char *text, struct account_files *a);
/* KiB of the pages of a /proc/vmallocinfo line that maps a kernel stack (an area the fork
 * path vmalloc'd, whatever function of it the kernel names), else 0 */
uint64_t parse_vmalloc_stack(const char *line, long page_kb);

/* The files into s->acct (read set) */
void account_collect(struct snapshot *s);

#endif
