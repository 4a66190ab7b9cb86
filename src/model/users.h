/* Totals per user, as smem -u gives them: how many processes, and the sum of their swap,
 * USS, PSS and RSS. PSS and USS are summed over the processes whose smaps_rollup was read
 * (the runner asks for it for every process while the totals are wanted). */
#ifndef MEMTOP_USERS_H
#define MEMTOP_USERS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* The columns the totals sum, which the collector must read for every process */
#define USER_TOTALS_COLS                                                                           \
	(COL_BIT(COL_RSS) | COL_BIT(COL_SWAP) | COL_BIT(COL_PSS) | COL_BIT(COL_USS))

struct user_total {
	uint32_t uid;
	const char *name; /* the snapshot's; raw, untrusted */
	size_t count;	  /* processes with memory mapped (smem's) */
	uint64_t swap_kb, uss_kb, pss_kb, rss_kb;
	size_t unread; /* of its processes, those whose PSS and USS could not be read */
};

struct user_totals {
	struct user_total *u; /* by PSS, the largest first; ties by uid */
	size_t n, cap;
};

/* The totals of the processes of s */
void user_totals_make(struct user_totals *t, const struct snapshot *s);
void user_totals_free(struct user_totals *t);

#endif
