/* Hostile recordings, built with the recording's own encoder and blocks: each holds
 * together (header, checksums, zstd frames) and claims what a replay must refuse or
 * survive. The unit tests read them; tests/helpers/hostile_rec.c writes them for the
 * command-line tests. */
#ifndef MEMTOP_REC_HOSTILE_H
#define MEMTOP_REC_HOSTILE_H

#include "bytebuf.h"

enum rec_hostile {
	RH_NO_CMD,     /* keyframes whose process has no command line nor user */
	RH_PROCS,      /* a keyframe claiming 1,000,000 processes, 3 bytes each */
	RH_CGROUPS,    /* a keyframe claiming 1,000,000 cgroups, 8 bytes each */
	RH_EVENTS,     /* a keyframe claiming 1,000,000 OOM kills, 14 bytes each */
	RH_TASKS,      /* a keyframe whose one cgroup claims 2,000,000 processes, 2 bytes each */
	RH_LOOKALIKES, /* a keyframe, a junk byte, then look-alike keyframe headers every 28
			* bytes over 1 MiB, each claiming the rest of the file */
	RH_COUNT
};

extern const char *const rec_hostile_names[RH_COUNT]; /* "nocmd" ... as files are named */

/* The whole file of hostile recording h into b (emptied first) */
void rec_hostile(enum rec_hostile h, struct rbuf *b);

#endif
