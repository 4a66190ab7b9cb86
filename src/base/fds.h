/* The file descriptors memtop may still open: what --serve's connections and the BPF
 * programs may take, leaving a reserve for the refresh's reads */
#ifndef MEMTOP_FDS_H
#define MEMTOP_FDS_H

/* The descriptors a refresh may need at once beyond those held (/proc, the cgroups, a
 * BPF iterator), kept free by what holds descriptors for long */
#define FDS_RESERVE 16

/* The soft RLIMIT_NOFILE less the descriptors open; -1: no limit */
long fds_free(void);

#endif
