/* The file descriptors memtop may still open: what --serve's connections and the BPF
 * programs may take, leaving a reserve for the refresh's reads */
#ifndef MEMTOP_FDS_H
#define MEMTOP_FDS_H

/* The descriptors a refresh may need at once beyond those held (/proc, the cgroups, a
 * BPF iterator), kept free by what holds descriptors for long */
#define FDS_RESERVE 16

/* The soft RLIMIT_NOFILE; -1: no limit */
long fds_limit(void);

/* The descriptors open; the soft limit where /proc/self/fd cannot be opened for want of
 * one */
long fds_open(void);

/* The soft limit less the descriptors open and those owed (fds_owe); -1: no limit */
long fds_free(void);

/* n descriptors that what was opened (the BPF concerns) will open later, as it runs:
 * fds_free counts them as taken. Replaces the last count given. */
void fds_owe(long n);

#endif
