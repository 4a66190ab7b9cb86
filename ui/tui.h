/* The full-screen view. */
#ifndef MEMTOP_TUI_H
#define MEMTOP_TUI_H

#include "model.h"
#include "options.h"
#include "sources.h"
#include "theme.h"

/* Runs until the user quits (or after o->iterations refreshes). Returns the exit status. */
int tui_run(struct sources *src, struct model *m, const struct options *o, struct theme *theme);

#endif
