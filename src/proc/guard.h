/* memtop's own protection on a machine short of memory: the OOM killer is told to spare
 * it (oom_score_adj), and once it has reached its steady size its pages are locked in RAM
 * so that reclaim neither drops nor swaps them. */
#ifndef MEMTOP_GUARD_H
#define MEMTOP_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

#define GUARD_OOM_ADJ_DEFAULT (-900)

/* Writes adj to /proc/self/oom_score_adj (lowering it needs CAP_SYS_RESOURCE, as root).
 * Returns 0, or -1 with a one-line reason in err. memtop starts no processes, so no
 * other process inherits it. */
int guard_oom_adj(int adj, char *err, size_t errlen);

/* What it has now: its locked size and oom_score_adj */
void guard_collect(struct self_state *st);

/* Locks what is mapped now, pages as they are touched (mlockall MCL_CURRENT |
 * MCL_ONFAULT): its steady size, not what is mapped later. Once; as root. */
void guard_lock(void);

#endif
