/* The detail screen: one process's memory breakdown, mappings, files and stacks, from a
 * struct detail that the loop fills from the drill-down's source while it is open. */
#ifndef MEMTOP_DETAIL_SCREEN_H
#define MEMTOP_DETAIL_SCREEN_H

#include "detail.h"
#include "screen.h"

struct detail_view *detail_view_new(void);
void detail_view_free(struct detail_view *v);
/* Shows d (kept by the caller while the screen is open) from its first lines; start_ticks:
 * the process's start, for its history */
void detail_view_open(struct detail_view *v, const struct detail *d, const char *cmd,
		      uint64_t start_ticks);
/* d changed; gone: the process exited and d is what was seen last */
void detail_view_update(struct detail_view *v, bool gone);

#endif
