/* The keys common to the screens (common_bindings, enum common_act): pause, the refresh
 * interval, the help, the OOM alert acknowledged, redraw, the next theme. */
#ifndef MEMTOP_COMMON_KEYS_H
#define MEMTOP_COMMON_KEYS_H

#include "screen.h"

/* The common action of key on the screen shown, or 0 where it takes none */
int common_key(const struct ui *u, int key);
struct reaction common_act(struct ui *u, int a);

#endif
