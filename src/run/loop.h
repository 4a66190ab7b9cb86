/* The full-screen view's loop, a runner over the monitor (monitor.h): it refreshes at each
 * interval, reads the rows on screen, hands the model to the view, and does what the
 * view's keys ask (enum react): re-sort, collect now, move through a replay, save the
 * settings, open or close the drill-down. */
#ifndef MEMTOP_LOOP_H
#define MEMTOP_LOOP_H

#include "monitor.h"
#include "options.h"
#include "theme.h"

/* Runs until the user quits (or after o->iterations refreshes). Returns the exit status.
 * prefs: the monitor's, which the keys change */
int loop_run(struct monitor *mon, struct prefs *prefs, const struct options *o,
	     struct theme *theme);

#endif
