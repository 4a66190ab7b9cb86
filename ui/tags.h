/* The tagged processes (Space, c, U as in htop): k and F9 send their signal to them, where
 * there are any, instead of to the selected process. A process is kept by its pid and its
 * start time, so that a pid used again by another process is not taken for it. */
#ifndef MEMTOP_TAGS_H
#define MEMTOP_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define MAX_TAGS 1024

struct tags {
	size_t n;
	struct tag {
		int32_t pid;
		uint64_t start;
	} t[MAX_TAGS];
};

/* Whether p is tagged */
bool tags_has(const struct tags *g, const struct proc_sample *p);
/* Tags p, or untags it where it is */
void tags_toggle(struct tags *g, const struct proc_sample *p);
/* Tags p and every process under it among the model's rows; returns how many were tagged */
size_t tags_tree(struct tags *g, const struct model *m, const struct proc_sample *p);
void tags_clear(struct tags *g);
/* Sends sig to the tagged processes still running (the same pid and start time in the
 * model's rows), then clears the tags; a line saying what was done into msg */
void tags_kill(struct tags *g, const struct model *m, int sig, char *msg, size_t size);

#endif
