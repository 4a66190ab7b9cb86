/* The OOM kills the OOM pane lists and the post-mortem shows: the model's, live; in a
 * replay, every kill the screen has seen in the recording up to the sample shown, kept
 * across the replay's moves (a move far back or forth makes the model again from a window
 * before the sample: the kills before that window would be gone from it). */
#ifndef MEMTOP_OOM_LIST_H
#define MEMTOP_OOM_LIST_H

#include "screen.h"

struct oom_item {
	const struct mt_event *e;
	const struct oom_before *b;
};

#define OOM_LIST_MAX MODEL_OOM_HISTORY

/* The kills to list, oldest first, into out; returns how many */
size_t oom_list(struct ui *u, struct oom_item out[OOM_LIST_MAX]);
/* In a replay, keeps the kills the model holds at the sample shown */
void oom_list_keep(struct ui *u);
/* The index in out of the kill at ts of pid, or -1 */
long oom_list_find(const struct oom_item *out, size_t n, double ts, int32_t pid);
/* Frees the replay's kept kills (the OOM pane's done, ui/tui.c) */
void oom_list_done(struct ui *u);

#endif
