/* Processes that exited lately: those of the refresh before that are gone from this one,
 * each with its last figures, kept for a minute (as atop's #exit counts them). */
#ifndef MEMTOP_EXITED_H
#define MEMTOP_EXITED_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define EXITED_KEEP_S 60.0 /* seconds an exited process stays listed */
#define EXITED_MAX    4096 /* the most kept: the oldest go first */

struct exited_proc {
	int32_t pid;
	uint32_t uid;
	char comm[MT_COMM_LEN + 1]; /* raw, untrusted */
	char user[64];		    /* raw, untrusted; cut */
	uint64_t last_rss_kb;	    /* its RSS at the last refresh that saw it */
	double ts;		    /* wall clock of the refresh that found it gone */
	double mono;		    /* and its CLOCK_MONOTONIC time */
};

struct exited_list {
	struct exited_proc *p; /* oldest first */
	size_t n, cap;
};

/* Adds the processes of prev (NULL: none) that s no longer holds (by pid and start time;
 * both in pid order) and drops those gone for longer than EXITED_KEEP_S at s->mono */
void exited_update(struct exited_list *x, const struct snapshot *s, const struct snapshot *prev);
void exited_free(struct exited_list *x);

#endif
