/* The tagged processes (Space, c, U as in htop): k and F9 send their signal to them, where
 * there are any, instead of to the selected process. A process is kept by its pid and its
 * start time, so that a pid used again by another process is not taken for it, and held
 * from its tagging for the signal (src/proc/pidhold.h): through a pidfd for the first
 * TAG_PIDFDS, by its start time checked again before the signal for the others. */
#ifndef MEMTOP_TAGS_H
#define MEMTOP_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "pidhold.h"

#define MAX_TAGS 1024
/* The pidfds the tags may hold open at once: descriptors come out of those the rest of
 * memtop leaves (src/proc/proc_walk.c, FD_HEADROOM) */
#define TAG_PIDFDS 64

struct tags {
	size_t n;
	size_t fds; /* the holds with a pidfd */
	struct pid_hold t[MAX_TAGS];
};

/* Whether p is tagged */
bool tags_has(const struct tags *g, const struct proc_sample *p);
/* Tags p, or untags it where it is; live: p is a running process (not a replay's), held
 * for the signal */
void tags_toggle(struct tags *g, const struct proc_sample *p, bool live);
/* Tags p and every process under it among the model's rows; returns how many were tagged */
size_t tags_tree(struct tags *g, const struct model *m, const struct proc_sample *p, bool live);
/* Untags all, closing their pidfds */
void tags_clear(struct tags *g);
/* Sends sig to the tagged processes that still run (each the process tagged, never one
 * that took its pid since), then clears the tags; a line saying what was done into msg */
void tags_kill(struct tags *g, int sig, char *msg, size_t size);

#endif
