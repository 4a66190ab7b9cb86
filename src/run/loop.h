/* The full-screen view's loop: it reads the sources at each refresh and for the rows on
 * screen, hands the model to the view, and does what the view's keys ask (enum react):
 * re-sort, collect now, save the settings, open or close the drill-down's source. */
#ifndef MEMTOP_LOOP_H
#define MEMTOP_LOOP_H

#include "model.h"
#include "options.h"
#include "sources.h"
#include "theme.h"

struct replay;

/* Runs until the user quits (or after o->iterations refreshes). Returns the exit status. */
/* prefs: the model's, which the keys change; rp: a replay (replay.h), the source instead
 * of src (NULL) */
int loop_run(struct sources *src, struct replay *rp, struct model *m, struct prefs *prefs,
	     const struct options *o, struct theme *theme);

#endif
