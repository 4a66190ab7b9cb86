/* The model's figures over time: the refresh recorded into the model's history, and
 * what comes from it (the growth columns, leak suspects, the forecast of exhaustion and
 * the next OOM victim, the post-mortem of each OOM kill). */
#ifndef MEMTOP_GROWTH_H
#define MEMTOP_GROWTH_H

#include "model.h"

/* After filling the snapshot model_begin gave: model_update, with the figures over time.
 * What the loop and batch output call at each refresh. */
void model_step(struct model *m);

#endif
